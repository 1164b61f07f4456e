/**
 * `startReferenceApiServer`: the real kube-apiserver with an embedded etcd, on 127.0.0.1, as a child
 * process that cannot outlive the test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createServer, type AddressInfo } from 'node:net';
import { buildReferenceApiServer, type BuildReferenceOptions, type ReferenceBuild } from './buildReferenceApiServer.js';
import { EnvtestError } from './envtestError.js';

/** Options of {@link startReferenceApiServer}. */
export interface ReferenceApiServerOptions extends BuildReferenceOptions {
  /**
   * Feature gates, as `--feature-gates` takes them: `{ CustomResourceFieldSelectors: false }`.
   * @defaultValue the version's defaults
   */
  featureGates?: Readonly<Record<string, boolean>>;
  /**
   * The Kubernetes version to emulate (`--emulated-version`), `major.minor`, at most three minors
   * back: `'1.31'` with `featureGates: { CustomResourceFieldSelectors: false }` is a 1.31 cluster as
   * upstream's fieldselector integration test runs one. @defaultValue the binary's own version
   */
  emulatedVersion?: string;
  /**
   * A directory for etcd's data, the certificates and the kubeconfig, kept after close. Started again
   * on the same directory, the server has the objects, the CA, the serving certificate and the admin
   * token of the last start (a restarted control plane: clients holding the old kubeconfig go on).
   * @defaultValue a temp dir, removed on close
   */
  dataDir?: string;
  /**
   * The secure port on 127.0.0.1 (with `dataDir`, a restart on the same address).
   * @defaultValue a free port
   */
  port?: number;
  /** `--authorization-mode`. @defaultValue `RBAC` (the admin token's user is in `system:masters`) */
  authorizationMode?: string;
  /** More kube-apiserver flags, appended last. @defaultValue none */
  extraArgs?: readonly string[];
  /** How long to wait for `/readyz` after the process starts. @defaultValue 180000 ms */
  startTimeoutMs?: number;
}

/** A running reference kube-apiserver. */
export interface ReferenceApiServer {
  /** The base URL, `https://127.0.0.1:PORT`. */
  readonly url: string;
  /** A kubeconfig (YAML text) with the CA and the admin token: kubectl and client-node load it. */
  readonly kubeconfig: string;
  /** The path of the same kubeconfig on disk (for `KUBECONFIG=` / `--kubeconfig`). */
  readonly kubeconfigPath: string;
  /** The admin bearer token (user `admin` in `system:masters`). */
  readonly token: string;
  /** The CA certificate (PEM) that signed the serving certificate. */
  readonly ca: string;
  /** The k8s.io/kubernetes version running (`v1.34.4`). */
  readonly version: string;
  /** The process id of the server. */
  readonly pid: number;
  /** The last lines the server logged (stderr), for diagnosing a failure. */
  logTail(): string[];
  /** Stops the server (closing its stdin, then SIGTERM, then SIGKILL) and removes its temp dir. */
  close(): Promise<void>;
}

interface ReadyLine {
  url: string;
  kubeconfig: string;
  token: string;
  caFile: string;
  dataDir: string;
  pid: number;
}

const readyPrefix = 'KUBEKIT_REFERENCE_READY ';
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Closes the stdin of every server still running when this process exits. The pipe closes with the
 * process anyway (also when it is killed); this says so early. The server then stops as on `close()`
 * and removes its temp dir; a SIGKILL here would leave the dir (etcd's preallocated WAL: ~120 MB) behind.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.stdin?.destroy();
  });
}

/** Stops a server as `close()` does: its stdin closed, then SIGTERM, then SIGKILL, each given time. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) { running.delete(child); return; } // it never started (spawn failed)
  child.stdin?.end();
  if (!(await waitExit(child, 20_000))) {
    child.kill('SIGTERM');
    if (!(await waitExit(child, 10_000))) {
      child.kill('SIGKILL');
      await waitExit(child, 10_000);
    }
  }
  running.delete(child);
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => { child.off('exit', onExit); resolve(false); }, ms);
    const onExit = () => { clearTimeout(timer); resolve(true); };
    child.once('exit', onExit);
  });
}

/** A server process that said it is ready, with the log lines it wrote so far (and goes on writing). */
interface Started {
  child: ChildProcess;
  ready: ReadyLine;
  tail: string[];
}

/** The server exited before it was ready because a port it was to listen on was in use. */
class PortTakenError extends EnvtestError {}

/** A free port on 127.0.0.1, as the kernel gives one for port 0 (free now, not reserved). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Spawns the server and waits for its ready line; on any failure the process is stopped before this rejects. */
async function spawnReady(build: ReferenceBuild, args: string[], timeoutMs: number): Promise<Started> {
  // Its own process group: a Ctrl-C (SIGINT to the terminal's group) reaches this process only, and the
  // server stops once, through its stdin, instead of being signalled twice (its second signal exits at
  // once, skipping the removal of its temp dir).
  const child = spawn(build.binary, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // Keep stdin open: its end is the server's signal to stop.
  child.stdin!.on('error', () => undefined);

  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    tail.push(line);
    if (tail.length > 300) tail.splice(0, tail.length - 300);
  });

  try {
    const ready = await new Promise<ReadyLine>((resolve, reject) => {
      const timer = setTimeout(() => reject(new EnvtestError(`kube-apiserver ${build.version} was not ready within ${timeoutMs} ms; its last log lines:\n${tail.slice(-30).join('\n')}`)), timeoutMs);
      child.once('error', (err) => { clearTimeout(timer); reject(new EnvtestError(`could not run ${build.binary}: ${err.message}`, { cause: err })); });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        // Give stderr a moment to be read completely before quoting it.
        setImmediate(() => {
          const message = `kube-apiserver ${build.version} exited before it was ready (${signal ?? `exit ${code}`}); its last log lines:\n${tail.slice(-30).join('\n')}`;
          // Go's net package says so for EADDRINUSE (kube-apiserver's listener and etcd's alike).
          reject(tail.some((line) => line.includes('bind: address already in use')) ? new PortTakenError(message) : new EnvtestError(message));
        });
      });
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.startsWith(readyPrefix)) return;
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line.slice(readyPrefix.length)) as ReadyLine);
        } catch (err) {
          reject(new EnvtestError(`unreadable ready line from kube-apiserver: ${line}`, { cause: err }));
        }
      });
    });
    return { child, ready, tail };
  } catch (err) {
    // Stopped like close() does (a SIGKILL here left its temp dir behind), and gone before this rejects.
    await stop(child);
    throw err;
  }
}

/**
 * Starts the real kube-apiserver (built from the official Go modules on first use, see
 * {@link buildReferenceApiServer}) with an embedded etcd, serving HTTPS on 127.0.0.1 with a fresh CA,
 * service-account key pair and admin token. Resolves once `/readyz` answers `ok`.
 *
 * The server exits when its stdin closes, so it stops with the Node process that started it even if
 * that process is killed; `close()` stops it explicitly.
 *
 * @example
 * ```ts
 * const server = await startReferenceApiServer({ featureGates: { CustomResourceFieldSelectors: false }, emulatedVersion: '1.31' });
 * const kc = new KubeConfig();
 * kc.loadFromString(server.kubeconfig);
 * await server.close();
 * ```
 */
export function startReferenceApiServer(options: ReferenceApiServerOptions = {}): Promise<ReferenceApiServer> {
  return startWithPorts(options, freePort);
}

/** How many starts on fresh ports {@link startWithPorts} makes when another process takes a port first. */
const portAttempts = 4;

/**
 * {@link startReferenceApiServer} with the free-port finder given (a test gives one that first answers
 * a port in use). Without `options.port`, a start that fails because a port it was to listen on was
 * taken in the meantime (the secure port, or one of etcd's, chosen free a moment before: a race with any
 * other process on the machine) is made again on fresh ports, up to {@link portAttempts} times.
 * @internal
 */
export async function startWithPorts(options: ReferenceApiServerOptions, pickPort: () => Promise<number>): Promise<ReferenceApiServer> {
  const build = await buildReferenceApiServer(options);
  const args: string[] = [];
  if (options.dataDir !== undefined) args.push(`--data-dir=${options.dataDir}`);
  if (options.port !== undefined) {
    if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
      throw new EnvtestError(`port must be an integer from 1 to 65535, got ${JSON.stringify(options.port)}`);
    }
  }
  const gates = Object.entries(options.featureGates ?? {});
  if (gates.length > 0) args.push(`--feature-gates=${gates.map(([k, v]) => `${k}=${v}`).join(',')}`);
  if (options.emulatedVersion !== undefined) {
    if (!/^\d+\.\d+$/.test(options.emulatedVersion)) {
      throw new EnvtestError(`emulatedVersion must be "major.minor" like "1.31", got ${JSON.stringify(options.emulatedVersion)}`);
    }
    args.push(`--emulated-version=${options.emulatedVersion}`);
  }
  args.push(`--authorization-mode=${options.authorizationMode ?? 'RBAC'}`);
  const extra = options.extraArgs !== undefined && options.extraArgs.length > 0 ? ['--', ...options.extraArgs] : [];

  installExitHook();
  let started: Started | undefined;
  for (let attempt = 1; started === undefined; attempt++) {
    const port = options.port ?? await pickPort();
    try {
      started = await spawnReady(build, [...args, `--port=${port}`, ...extra], options.startTimeoutMs ?? 180_000);
    } catch (err) {
      const taken = err instanceof PortTakenError;
      if (!taken || options.port !== undefined || attempt >= portAttempts) {
        throw taken && options.port !== undefined
          ? new EnvtestError(`port ${options.port} on 127.0.0.1 is in use by another process; ${err.message}`, { cause: err })
          : err;
      }
    }
  }
  const { child, ready, tail } = started;
  const kubeconfig = readFileSync(ready.kubeconfig, 'utf8');
  const ca = readFileSync(ready.caFile, 'utf8');
  let closing: Promise<void> | undefined;
  return {
    url: ready.url,
    kubeconfig,
    kubeconfigPath: ready.kubeconfig,
    token: ready.token,
    ca,
    version: build.version,
    pid: ready.pid,
    logTail: () => [...tail],
    close() {
      closing ??= (async () => {
        await stop(child);
        // The server removes its own temp dir; after a forced kill this does.
        if (options.dataDir === undefined) rmSync(ready.dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
