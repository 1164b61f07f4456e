// Starts and stops the local npm registry of the registry test (verdaccio in a child process).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A running local registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** The token of a user it created (npm needs one to publish). */
  token: string;
  /** The lines of an .npmrc that points npm at it with that token. */
  npmrc: string;
  close(): Promise<void>;
}

/** Starts verdaccio with storage in `dir`, proxying everything but `@kubekit/*` to `uplink`. */
export async function startLocalRegistry(dir: string, uplink: string, timeoutMs = 60_000): Promise<LocalRegistry> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'verdaccioServer.mjs'), dir, uplink], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdaccio did not start within ${timeoutMs} ms: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match !== null) { clearTimeout(timer); resolve(Number(match[1])); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`verdaccio exited with ${code}: ${output}`)); });
  });
  const url = `http://127.0.0.1:${port}/`;
  const close = (): Promise<void> => stop(child);
  try {
    const res = await fetch(`${url}-/user/org.couchdb.user:kubekit`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'kubekit', password: 'kubekit-test-password' }),
    });
    const body = (await res.json()) as { token?: string };
    if (!res.ok || body.token === undefined) throw new Error(`creating a registry user failed: ${res.status} ${JSON.stringify(body)}`);
    const npmrc = `registry=${url}\n//127.0.0.1:${port}/:_authToken=${body.token}\n`;
    return { url, token: body.token, npmrc, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill('SIGTERM');
  });
}
