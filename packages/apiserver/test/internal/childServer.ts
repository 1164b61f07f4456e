// Spawns test/internal/serverProcess.ts in a child process and waits for its URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiServerOptions } from '@kubekit/apiserver';

const here = dirname(fileURLToPath(import.meta.url));

/** A server in a child process. */
export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Closes stdin and waits for the process to exit. */
  stop(): Promise<void>;
  /** Kills the process with SIGKILL and waits for it to exit. */
  kill(): Promise<void>;
}

/** Starts an API server in a child process. */
export function startChildServer(options: ApiServerOptions = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=kubekit-source', join(here, 'serverProcess.ts'), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const m = /READY (\S+)\n/.exec(out);
      if (m === null) return;
      child.stdout!.off('data', onData);
      resolve({
        url: m[1],
        child,
        stop: async () => {
          child.stdin!.end();
          await exited;
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}: ${out}`)));
  });
}
