// The real kube-apiserver in one call: built (or reused), started on 127.0.0.1 with a CA, an admin
// token and a kubeconfig that @kubernetes/client-node loads; stopped by close() or by the death of the
// process that started it. Runs when Go is on PATH (CI builds the server first: .ci/run).
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { EnvtestError, startReferenceApiServer, type ReferenceApiServer } from '../src/index.js';
import { startWithPorts } from '../src/startReferenceApiServer.js';

const haveGo = spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version']).status === 0;

function get(server: ReferenceApiServer, path: string, token = server.token): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), { ca: server.ca, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString('utf8'); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function send(server: ReferenceApiServer, method: string, path: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(new URL(path, server.url), { method, ca: server.ca, headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      let out = '';
      res.on('data', (c: Buffer) => { out += c.toString('utf8'); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: out }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function until(cond: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

(haveGo ? describe : describe.skip)('startReferenceApiServer', function () {
  this.timeout(45 * 60_000);
  let server: ReferenceApiServer;
  before(async () => { server = await startReferenceApiServer(); });
  after(async () => { await server?.close(); });

  it('does serve the real kube-apiserver over TLS on 127.0.0.1, with the version it was built from', async () => {
    expect(server.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
    const v = await get(server, '/version');
    expect(v.status).to.equal(200);
    expect(JSON.parse(v.body)).to.include({ gitVersion: server.version, major: '1' });
    expect((await get(server, '/readyz')).body).to.equal('ok');
  });

  it('does require the admin token (anonymous requests are forbidden)', async () => {
    expect((await get(server, '/api/v1/namespaces', '')).status).to.equal(403);
    expect((await get(server, '/api/v1/namespaces')).status).to.equal(200);
  });

  it('does write a kubeconfig that @kubernetes/client-node loads, with the CA and the token', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(server.kubeconfig);
    expect(kc.getCurrentCluster()?.server).to.equal(server.url);
    expect(kc.getCurrentUser()?.token).to.equal(server.token);
    expect(existsSync(server.kubeconfigPath)).to.equal(true);
  });

  it('does give up after startTimeoutMs, naming it, with the server stopped before it rejects', async () => {
    const others = (): number[] => spawnSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '').map(Number).filter((p) => p !== server.pid);
    const before = others();
    let error: unknown;
    try { await startReferenceApiServer({ startTimeoutMs: 1 }); } catch (err) { error = err; }
    expect(error).to.be.instanceOf(EnvtestError);
    expect((error as Error).message).to.match(/^kube-apiserver v1\.\d+\.\d+ was not ready within 1 ms/);
    expect(others().filter((p) => !before.includes(p)), 'child processes left running').to.deep.equal([]);
  });

  it('does stop on close() and remove its temp dir', async () => {
    const other = await startReferenceApiServer();
    const pid = other.pid;
    await other.close();
    expect(alive(pid)).to.equal(false);
    expect(existsSync(other.kubeconfigPath)).to.equal(false);
  });

  it('does restart on the same dataDir and port with its objects, CA and admin token (clients holding the old kubeconfig go on)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubekit-envtest-restart-'));
    try {
      const first = await startReferenceApiServer({ dataDir });
      const port = Number(new URL(first.url).port);
      let created: { status: number; body: string };
      try {
        created = await send(first, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } });
        expect(created.status).to.equal(201);
      } finally {
        await first.close();
      }
      expect(existsSync(join(dataDir, 'pki', 'ca.crt')), 'the data dir is kept after close').to.equal(true);
      const second = await startReferenceApiServer({ dataDir, port });
      try {
        expect(second.url).to.equal(first.url);
        expect(second.token).to.equal(first.token);
        expect(second.ca).to.equal(first.ca);
        // With the first start's CA and token, as a client that never reloaded its kubeconfig.
        const kept = await get(first, '/api/v1/namespaces/default/configmaps/kept');
        expect(kept.status).to.equal(200);
        expect(JSON.parse(kept.body)).to.deep.include({ data: { a: '1' } });
        expect(JSON.parse(kept.body).metadata.uid).to.equal(JSON.parse(created.body).metadata.uid);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('does refuse a port that is not one, naming it', async () => {
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) {
      let error: unknown;
      try { await startReferenceApiServer({ port }); } catch (err) { error = err; }
      expect(error, String(port)).to.be.instanceOf(EnvtestError);
      expect((error as Error).message).to.match(/^port must be an integer from 1 to 65535, got /);
    }
  });

  /** A port on 127.0.0.1 held by a listener of this process until `close`. */
  async function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
    // It hangs up on whoever connects (the wrapper polls its URL's /readyz before kube-apiserver fails),
    // so that its close() does not wait for them.
    const holder: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    return { port: (holder.address() as AddressInfo).port, close: () => new Promise((resolve) => holder.close(() => resolve())) };
  }

  it('does start again on a fresh port when another process takes its port first (regression: CI failed on "bind: address already in use")', async () => {
    // The race made certain: the first port offered is in use. The second is free.
    const held = await holdPort();
    const offered: number[] = [];
    let other: ReferenceApiServer | undefined;
    try {
      other = await startWithPorts({}, async () => {
        const free = await holdPort();
        await free.close();
        const port = offered.length === 0 ? held.port : free.port;
        offered.push(port);
        return port;
      });
      expect(offered).to.have.length(2);
      expect(other.url).to.equal(`https://127.0.0.1:${offered[1]}`);
      expect((await get(other, '/readyz')).body).to.equal('ok');
    } finally {
      await other?.close();
      await held.close();
    }
  });

  it('does give up after four ports in use, with the last exit, and leaves no process running', async () => {
    const others = (): number[] => spawnSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '').map(Number).filter((p) => p !== server.pid);
    const before = others();
    const held = await holdPort();
    let calls = 0;
    let error: unknown;
    try {
      await startWithPorts({}, async () => { calls++; return held.port; });
    } catch (err) { error = err; } finally {
      await held.close();
    }
    expect(calls).to.equal(4);
    expect(error).to.be.instanceOf(EnvtestError);
    expect((error as Error).message).to.match(/exited before it was ready \(exit 1\)/);
    expect((error as Error).message).to.include(`127.0.0.1:${held.port}: bind: address already in use`);
    expect(others().filter((p) => !before.includes(p)), 'child processes left running').to.deep.equal([]);
  });

  it('does name a port given in the options that another process holds, without trying another', async () => {
    const held = await holdPort();
    let error: unknown;
    try {
      await startReferenceApiServer({ port: held.port });
    } catch (err) { error = err; } finally {
      await held.close();
    }
    expect(error).to.be.instanceOf(EnvtestError);
    expect((error as Error).message).to.match(new RegExp(`^port ${held.port} on 127\\.0\\.0\\.1 is in use by another process; kube-apiserver v1\\.\\d+\\.\\d+ exited before it was ready`));
  });

  /** Starts a server in another Node process (`end`: what that process does once the server is ready). */
  async function startInChild(end: string, options: { detached?: boolean } = {}): Promise<{ child: ChildProcess; pid: number; kubeconfigPath: string }> {
    const script = `import { startReferenceApiServer } from '@kubekit/envtest';
const s = await startReferenceApiServer();
process.stdout.write(String(s.pid) + ' ' + s.kubeconfigPath + '\\n');
${end}`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=kubekit-source', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], detached: options.detached });
    const [pid, kubeconfigPath] = await new Promise<[number, string]>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) { const [p, k] = out.trim().split(' '); resolve([Number(p), k]); }
      });
      child.once('exit', (code) => { if (!out.includes('\n')) reject(new Error(`the starter exited (${code}) before the server was ready`)); });
    });
    return { child, pid, kubeconfigPath };
  }

  it('does stop when the process that started it dies (no orphans)', async () => {
    const { child, pid, kubeconfigPath } = await startInChild('setInterval(() => {}, 1000);');
    expect(alive(pid)).to.equal(true);
    child.kill('SIGKILL');
    await until(() => !alive(pid), `exit of the orphaned server ${pid}`);
    // It cleaned up after itself on the way out (regression: SIGPIPE from the dead parent's pipes killed it first).
    expect(existsSync(dirname(kubeconfigPath))).to.equal(false);
  });

  it('does stop and remove its temp dir when the process that started it exits without close()', async () => {
    // Regression: an exit hook SIGKILLed the server, leaving its temp dir (~120 MB of etcd WAL) behind.
    const { pid, kubeconfigPath } = await startInChild('process.exit(0);');
    await until(() => !alive(pid), `exit of the server ${pid}`);
    expect(existsSync(dirname(kubeconfigPath))).to.equal(false);
  });

  it('does stop and remove its temp dir when a Ctrl-C reaches the whole process group', async () => {
    // Regression: the server shared the starter's process group, so it got the SIGINT and then, as the
    // starter died and its stdin closed, a second signal, on which kube-apiserver exits at once.
    const { child, pid, kubeconfigPath } = await startInChild('setInterval(() => {}, 1000);', { detached: true });
    process.kill(-child.pid!, 'SIGINT');
    await until(() => !alive(pid), `exit of the server ${pid}`);
    expect(existsSync(dirname(kubeconfigPath))).to.equal(false);
  });
});
