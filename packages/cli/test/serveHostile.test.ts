// Issue 15, findings 2, 5 and 7: `kubekit serve` with a token, TLS, a kubeconfig only its owner reads,
// a warning when it is reachable from the network without a token, and restarts over a data dir.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import { exitCodes, runCli } from '@kubekit/cli';
import { repoRoot } from './support/kubekit.js';

const crdFile = 'examples/shirts/crd/shirts.stable.example.com.yaml';

interface Served {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<number>;
}

/** Runs `kubekit serve <args>` in-process until it prints its URL (or exits). */
async function serve(args: string[]): Promise<Served> {
  const controller = new AbortController();
  let stdout = '';
  let stderr = '';
  let announce: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => {
    announce = resolve;
  });
  const done = runCli(['serve', ...args], {
    cwd: repoRoot, env: {}, signal: controller.signal,
    stdout: { write: (text: string) => {
      stdout += text;
      const match = /listening on (https?:\/\/\S+) /.exec(stdout);
      if (match !== null) announce(match[1]);
    } },
    stderr: { write: (text: string) => (stderr += text) },
  });
  const url = await Promise.race([listening, done.then((code) => `exited ${code}: ${stderr}`)]);
  return { url, stdout: () => stdout, stderr: () => stderr, stop: async () => { controller.abort(); return done; } };
}

/** A GET over https trusting `ca`. */
function httpsGet(url: string, ca: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve under hostile conditions', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-serve-hostile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('requires --token on every request (without one a request is the anonymous user\'s, forbidden), and writes it into a kubeconfig that only its owner can read, even over an existing file', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, 'old\n');
    chmodSync(kubeconfig, 0o644);
    const served = await serve(['--token', 's3cret-token', '--kubeconfig-out', kubeconfig]);
    try {
      expect(served.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${served.url}/api/v1/namespaces`)).status).to.equal(403); // the anonymous user
      expect((await fetch(`${served.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer wrong' } })).status).to.equal(401);
      expect((await fetch(`${served.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer s3cret-token' } })).status).to.equal(200);
      expect(statSync(kubeconfig).mode & 0o777).to.equal(0o600);
      const kc = parse(readFileSync(kubeconfig, 'utf8')) as { users: { user: { token?: string } }[]; clusters: { cluster: Record<string, unknown> }[] };
      expect(kc.users[0].user.token).to.equal('s3cret-token');
      expect(kc.clusters[0].cluster.server).to.equal(served.url);
    } finally {
      expect(await served.stop()).to.equal(0);
    }
    expect(served.stderr()).to.equal('');
  });

  it('refuses to write --kubeconfig-out through a symbolic link', async () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const link = join(dir, 'kubeconfig');
    symlinkSync(victim, link);
    const served = await serve(['--token', 't', '--kubeconfig-out', link]);
    expect(served.url).to.match(/^exited 1: /);
    expect(served.stderr()).to.contain('it is a symbolic link (not followed: write to the file itself)');
    expect(readFileSync(victim, 'utf8')).to.equal('precious\n');
  });

  it('reads the token from --token-file and refuses an empty one or both flags', async () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'from-a-file\n', { mode: 0o600 });
    const served = await serve(['--token-file', tokenFile]);
    try {
      expect((await fetch(`${served.url}/api/v1/namespaces`)).status).to.equal(403); // the anonymous user
      expect((await fetch(`${served.url}/api/v1/namespaces`, { headers: { authorization: 'Bearer from-a-file' } })).status).to.equal(200);
    } finally {
      await served.stop();
    }
    writeFileSync(tokenFile, '\n');
    const empty = await serve(['--token-file', tokenFile]);
    expect(empty.url).to.equal(`exited ${exitCodes.usage}: ${empty.stderr()}`);
    expect(empty.stderr()).to.contain('holds no token on its first line');
    const both = await serve(['--token', 'a', '--token-file', tokenFile]);
    expect(both.stderr()).to.contain('--token and --token-file cannot both be given');
  });

  it('serves https with --tls: the kubeconfig carries the CA and the token, never insecure-skip-tls-verify', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const served = await serve(['--tls', '--token', 'tls-token', '--kubeconfig-out', kubeconfig, '--crd', crdFile]);
    try {
      expect(served.url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
      const kc = parse(readFileSync(kubeconfig, 'utf8')) as { users: { user: { token?: string } }[]; clusters: { cluster: Record<string, string> }[] };
      const cluster = kc.clusters[0].cluster;
      expect(cluster).to.not.have.property('insecure-skip-tls-verify');
      const ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
      expect(ca).to.match(/^-----BEGIN CERTIFICATE-----/);
      expect(kc.users[0].user.token).to.equal('tls-token');
      expect(await httpsGet(`${served.url}/api/v1/namespaces`, ca, 'tls-token')).to.equal(200);
      expect(await httpsGet(`${served.url}/api/v1/namespaces`, ca)).to.equal(403); // the anonymous user
      // Without the CA the certificate is not trusted.
      const untrusted = await httpsGet(`${served.url}/version`, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n').then(() => 'trusted', (e: Error) => e.message);
      expect(untrusted).to.not.equal('trusted');
      // A real kubectl verifies the certificate with the kubeconfig's CA and sends the token.
      const kubectl = join(repoRoot, '.tools', 'kubectl');
      if (existsSync(kubectl)) {
        const out = await new Promise<string>((resolve, reject) => execFile(kubectl, ['--kubeconfig', kubeconfig, 'get', 'crd', '-o', 'name'], { timeout: 30_000 }, (err, stdout, stderr) => (err === null ? resolve(stdout) : reject(new Error(stderr)))));
        expect(out).to.equal('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com\n');
      }
    } finally {
      await served.stop();
    }
  });

  it('warns when bound beyond loopback without a token, and names a loopback address in the kubeconfig', async () => {
    const kubeconfig = join(dir, 'kubeconfig');
    const served = await serve(['--host', '0.0.0.0', '--kubeconfig-out', kubeconfig]);
    try {
      expect(served.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(served.stderr()).to.contain('warning: serving on 0.0.0.0 without --token: anyone who can reach this address can read, change and delete everything');
      const kc = parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] };
      expect(kc.clusters[0].cluster.server).to.equal(served.url);
    } finally {
      await served.stop();
    }
    const quiet = await serve(['--host', '0.0.0.0', '--token', 't']);
    await quiet.stop();
    expect(quiet.stderr()).to.equal('');
  });

  it('restarts over a data directory with the same --crd (applied, not created), keeping its objects', async () => {
    const dataDir = join(dir, 'data');
    const first = await serve(['--data-dir', dataDir, '--crd', crdFile]);
    expect(first.stdout()).to.contain('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created\n');
    const created = await fetch(`${first.url}/apis/stable.example.com/v1/namespaces/default/shirts`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'kept' }, spec: { color: 'blue', size: 'M' } }),
    });
    expect(created.status).to.equal(201);
    expect(await first.stop()).to.equal(0);
    const second = await serve(['--data-dir', dataDir, '--crd', crdFile]);
    try {
      expect(second.url, second.stderr()).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(second.stdout()).to.contain('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com serverside-applied\n');
      expect((await fetch(`${second.url}/apis/stable.example.com/v1/namespaces/default/shirts/kept`)).status).to.equal(200);
    } finally {
      expect(await second.stop()).to.equal(0);
    }
    expect(statSync(dataDir).mode & 0o777).to.equal(0o700);
  });

  it('exits 1 with the damaged file, its line and how to recover when the snapshot is damaged', async () => {
    const dataDir = join(dir, 'data');
    const first = await serve(['--data-dir', dataDir]);
    await first.stop();
    writeFileSync(join(dataDir, 'snapshot.jsonl'), '{"rv":3}\n{"rv":3,"bucket":"/namespaces","key":"def');
    const second = await serve(['--data-dir', dataDir]);
    expect(second.url).to.match(/^exited 1: /);
    expect(second.stderr()).to.match(/^error: \S+snapshot\.jsonl is damaged at line 2: the last line is cut off \(the file is truncated\)\. The server did not start; the files were left as they were\. To recover, restore this file from a backup/);
    expect(second.stderr()).to.not.contain('    at ');
  });
});
