// The shirts operator for a long time: two instances (leader election on, probes on) against the
// embedded API server in a child process with a data directory — or, with `backend: 'reference'`, the
// real kube-apiserver of @kubekit/envtest on a data directory (its restarts keep etcd, the CA and the
// token, as a control plane's do; its watches end on its own timeouts and its etcd compacts every
// 5 minutes, so resumed watches meet 410s) — under steady churn (creates, updates
// that move shirts in and out of the blue selection, spec changes, deletes) and periodic faults
// (every connection reset through a fault-injecting proxy, then a few seconds of flaky connections;
// a server restart with the same data directory). At the end: every shirt's status is right, every
// informer's cache equals the server's list, the inventory is right, heap and handle counts are
// flat, and the leader never changed without a fault.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { customResourceDefinition } from '@kubekit/decorators';
import { kubeLeaseClient } from '@kubekit/controller';
import { startReferenceApiServer, type ReferenceApiServer } from '@kubekit/envtest';
import { KubeClient, loadKubeConfig, type KubeConfigLike, type ResourceClient } from '@kubekit/informer';
import { FaultProxy } from '../../../../packages/informer/test/helpers/faultProxy.js';
import { ManagedShirt } from '../../src/managedShirt.js';
import { inventoryColors, inventorySizes, shirtsOperator, type ShirtObject, type ShirtsOperator } from '../../src/operator.js';
import { seededRandom } from '../../../../test/support/seededRandom.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));
const colors = ['blue', 'red', 'green'] as const;
const namespace = 'default';

/** Where the soak's API server runs: kubekit's embedded server, or the reference kube-apiserver (Go on PATH). */
export type SoakBackend = 'embedded' | 'reference';

/** Options of {@link runSoak}. */
export interface SoakOptions {
  /** The API server. @defaultValue 'embedded' */
  backend?: SoakBackend;
  /** How long the churn and the faults go on. */
  durationMs: number;
  /** Every this long, every connection through the proxy is reset, then connections are flaky for 3 s. @defaultValue 20000 */
  resetEveryMs?: number;
  /** Every this long, the API server restarts with the same data directory. @defaultValue 120000 */
  restartEveryMs?: number;
  /** Time between two writes of the churn. @defaultValue 100 */
  writeEveryMs?: number;
  /** How long the end state may take to converge. @defaultValue 60000 */
  convergeWithinMs?: number;
  /** Progress lines. @defaultValue none */
  log?: (line: string) => void;
  /** Seed of the churn's random choices. @defaultValue 1 */
  seed?: number;
}

/** A measured series: first and last values, and the growth per hour from a least-squares fit after warm-up. */
export interface Trend {
  first: number;
  last: number;
  perHour: number;
}

/** What {@link runSoak} measured. */
export interface SoakResult {
  durationMs: number;
  writes: number;
  writeErrors: number;
  shirtsAtEnd: number;
  resets: number;
  restarts: number;
  /** Leader transitions after the first election, with their time (ms since start) and whether a fault explains them. */
  leaderChanges: { atMs: number; leader: string; duringFault: boolean }[];
  /** Operator instances that stopped (lost leadership) and were started again, as a pod restart would. */
  operatorRestarts: number;
  /** ms after the churn and faults stopped until statuses, caches and the inventory were right (−1: never). */
  convergedAfterMs: number;
  /** What was still wrong when convergence gave up (empty when it converged). */
  problems: string[];
  heapUsedBytes: Trend;
  /** Every active handle and request (`process.getActiveResourcesInfo()`). */
  activeHandles: Trend;
  /** The same without TCP sockets, whose number follows the connections open at the moment. */
  nonSocketHandles: Trend;
  /** The most TCP sockets seen at once (two per connection through the proxy, bounded by the agents' pools). */
  maxSockets: number;
  /** Active handles and requests by type, at the first and the last sample. */
  handleTypes: { first: Record<string, number>; last: Record<string, number> };
  samples: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The soak's API server: started, stopped and started again on the same address and data directory. */
interface SoakServer {
  /** Starts it; resolves with its URL (the same on every start). */
  start(): Promise<string>;
  stop(): Promise<void>;
  /** Credentials for reaching it at `url` (its own, or the fault proxy's in front of it). */
  kubeConfig(url: string): Promise<KubeConfigLike>;
}

/** kubekit's embedded API server in a child process (plain HTTP, no credentials). */
class ServerProcess implements SoakServer {
  private child: ChildProcess | undefined;
  port = 0;
  constructor(private readonly dataDir: string) {}

  kubeConfig(url: string): Promise<KubeConfigLike> {
    return Promise.resolve({ getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} });
  }

  async start(): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=kubekit-source', serverScript, this.dataDir, String(this.port)], {
      cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    const lines = createInterface({ input: child.stdout! });
    const first = await Promise.race([
      new Promise<string>((resolve) => lines.once('line', resolve)),
      new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the API server exited with ${code} before listening`)))),
      sleep(60_000).then(() => { throw new Error('the API server did not start within 60 s'); }),
    ]);
    lines.close();
    const { url, port } = JSON.parse(first) as { url: string; port: number };
    this.port = port;
    return url;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The reference kube-apiserver (TLS, the admin token), restarted on its data directory and port. */
class ReferenceServer implements SoakServer {
  private server: ReferenceApiServer | undefined;
  private port: number | undefined;
  constructor(private readonly dataDir: string) {}

  async start(): Promise<string> {
    this.server = await startReferenceApiServer({ dataDir: this.dataDir, port: this.port });
    this.port = Number(new URL(this.server.url).port);
    return this.server.url;
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  async kubeConfig(url: string): Promise<KubeConfigLike> {
    const server = this.server;
    if (server === undefined) throw new Error('the reference kube-apiserver is not running');
    // Its CA and admin token at another address (the serving certificate names 127.0.0.1).
    const text = JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'soak',
      clusters: [{ name: 'soak', cluster: { server: url, 'certificate-authority-data': Buffer.from(server.ca).toString('base64') } }],
      users: [{ name: 'admin', user: { token: server.token } }],
      contexts: [{ name: 'soak', context: { cluster: 'soak', user: 'admin' } }],
    });
    return loadKubeConfig({ kind: 'string', text });
  }
}

/** Least-squares slope of `points` (ms, value), per hour. */
function perHour(points: [number, number][]): number {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 3_600_000;
}

function trend(points: [number, number][]): Trend {
  // The first fifth is warm-up (JIT, caches filling, first connections).
  const steady = points.slice(Math.floor(points.length / 5));
  return { first: steady[0]?.[1] ?? 0, last: steady.at(-1)?.[1] ?? 0, perHour: Math.round(perHour(steady)) };
}

/** Runs the soak; see the module comment. Never throws for a failed check: the result says what was wrong. */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed ?? 1);
  const resetEveryMs = options.resetEveryMs ?? 20_000;
  const restartEveryMs = options.restartEveryMs ?? 120_000;
  const writeEveryMs = options.writeEveryMs ?? 100;
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;

  const dataDir = mkdtempSync(join(tmpdir(), 'kubekit-soak-'));
  const server: SoakServer = options.backend === 'reference' ? new ReferenceServer(dataDir) : new ServerProcess(dataDir);
  const url = await server.start();
  const proxy = await new FaultProxy(url).start();
  // The proxy passes TLS through: the operators reach the server at the proxy's address, by the server's scheme.
  const proxyUrl = proxy.url.replace(/^http:/, new URL(url).protocol);
  const direct = new KubeClient(await server.kubeConfig(url), { userAgent: 'soak-writer' });
  const shirts: ResourceClient<ShirtObject> = direct.resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
  const started = Date.now();
  const since = (): number => Date.now() - started;
  const faults: { from: number; to: number }[] = [];
  const leaderChanges: SoakResult['leaderChanges'] = [];
  const heap: [number, number][] = [];
  const handles: [number, number][] = [];
  const handleTypes: Record<string, number>[] = [];
  let writes = 0;
  let writeErrors = 0;
  let restarts = 0;
  let operatorRestarts = 0;
  const live = new Set<string>();
  let serial = 0;

  try {
    await direct.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', customResourceDefinition(ManagedShirt));
    for (let i = 0; i < 200; i++) {
      if (await shirts.list({ namespace }).then(() => true, () => false)) break;
      await sleep(50);
    }

    // Two operator instances through the proxy; one leads. One that stops (lost leadership) is started again.
    const instances = new Map<string, { op: ShirtsOperator; stop: AbortController; run: Promise<void> }>();
    let running = true;
    const proxied = await server.kubeConfig(proxyUrl);
    const launch = (identity: string): void => {
      const client = new KubeClient(proxied, { userAgent: `shirts-operator-${identity}` });
      const op = shirtsOperator({ kubeConfig: proxied, leaseClient: kubeLeaseClient(client), identity, probes: { port: 0 } });
      const stop = new AbortController();
      const run = op.manager.start(stop.signal).catch((err: unknown) => {
        log(`[${(since() / 1000).toFixed(0)}s] operator ${identity} stopped: ${err instanceof Error ? err.message : String(err)}`);
      }).finally(() => {
        client.close();
        op.client.close();
        if (running && !stop.signal.aborted) {
          operatorRestarts++;
          launch(identity);
        }
      });
      instances.set(identity, { op, stop, run });
    };
    launch('a');
    for (let i = 0; i < 400 && !instances.get('a')!.op.manager.isLeader(); i++) await sleep(50);
    launch('b');
    let leader: string | undefined;
    const watchLeader = setInterval(() => {
      const now = [...instances].filter(([, i]) => i.op.manager.isLeader()).map(([id]) => id);
      const current = now.length === 1 ? now[0] : now.length === 0 ? undefined : now.join('+');
      if (current !== leader && current !== undefined) {
        if (leader !== undefined || leaderChanges.length > 0) {
          const at = since();
          // A fault explains a change up to a lease duration (15 s) plus a renew period after it ended.
          const duringFault = faults.some((f) => at >= f.from && at <= f.to + 20_000);
          leaderChanges.push({ atMs: at, leader: current, duringFault });
          log(`[${(at / 1000).toFixed(0)}s] leader now ${current}${duringFault ? ' (after a fault)' : ' WITHOUT A FAULT'}`);
        } else {
          leaderChanges.length = 0;
        }
        leader = current;
      }
    }, 200);

    const sample = (): void => {
      gc();
      heap.push([since(), process.memoryUsage().heapUsed]);
      const info = process.getActiveResourcesInfo();
      handles.push([since(), info.length]);
      const types: Record<string, number> = {};
      for (const t of info) types[t] = (types[t] ?? 0) + 1;
      handleTypes.push(types);
    };
    sample();
    const sampler = setInterval(sample, 5_000);

    // Churn and faults until the deadline.
    const end = started + options.durationMs;
    let nextReset = started + resetEveryMs;
    let nextRestart = started + restartEveryMs;
    let nextProgress = started + 60_000;
    let flakyUntil = 0;
    let restarting: Promise<void> | undefined;
    while (Date.now() < end) {
      const now = Date.now();
      if (now >= nextRestart && now + 10_000 < end && restarting === undefined) {
        nextRestart += restartEveryMs;
        // In the background: the churn goes on (and fails) while the server is down.
        const fault = { from: since(), to: Number.POSITIVE_INFINITY };
        faults.push(fault);
        log(`[${(fault.from / 1000).toFixed(0)}s] restarting the API server`);
        restarting = (async () => {
          await server.stop();
          await sleep(500);
          await server.start();
          restarts++;
          fault.to = since();
          log(`[${(fault.to / 1000).toFixed(0)}s] the API server is back after ${fault.to - fault.from} ms`);
        })().finally(() => { restarting = undefined; });
      }
      if (now >= nextReset) {
        nextReset += resetEveryMs;
        const n = proxy.resetAll();
        proxy.flaky = true;
        flakyUntil = now + 3_000;
        faults.push({ from: since(), to: since() + 3_000 });
        log(`[${(since() / 1000).toFixed(0)}s] reset ${n} connections; flaky for 3 s`);
      }
      if (proxy.flaky && now >= flakyUntil) proxy.flaky = false;
      if (now >= nextProgress) {
        nextProgress += 60_000;
        log(`[${(since() / 1000).toFixed(0)}s] ${writes} writes (${writeErrors} failed), ${live.size} shirts, heap ${(heap.at(-1)![1] / 1e6).toFixed(1)} MB, ${handles.at(-1)![1]} handles, leader ${leader}`);
      }
      writes++;
      try {
        await churn();
      } catch {
        writeErrors++;
        if (writeErrors % 20 === 0) await resyncLive();
      }
      await sleep(writeEveryMs);
    }
    proxy.flaky = false;
    await restarting;
    log(`[${(since() / 1000).toFixed(0)}s] churn and faults stopped; waiting for convergence`);

    // Convergence: statuses, caches and inventory right.
    const stoppedAt = Date.now();
    let problems: string[] = ['not checked'];
    const limit = options.convergeWithinMs ?? 60_000;
    while (Date.now() - stoppedAt < limit) {
      problems = await check([...instances.values()].map((i) => i.op)).catch((err: unknown) => [`check failed: ${String(err)}`]);
      if (problems.length === 0) break;
      await sleep(250);
    }
    const convergedAfterMs = problems.length === 0 ? Date.now() - stoppedAt : -1;
    sample();
    clearInterval(sampler);
    clearInterval(watchLeader);
    running = false;
    for (const i of instances.values()) i.stop.abort();
    await Promise.all([...instances.values()].map((i) => i.run));
    return {
      durationMs: options.durationMs, writes, writeErrors, shirtsAtEnd: live.size, resets: proxy.resets, restarts, leaderChanges, operatorRestarts,
      convergedAfterMs, problems: problems.slice(0, 20), heapUsedBytes: trend(heap), activeHandles: trend(handles),
      nonSocketHandles: trend(handles.map(([t], i) => [t, handles[i][1] - (handleTypes[i].TCPSocketWrap ?? 0)])),
      maxSockets: Math.max(...handleTypes.map((h) => h.TCPSocketWrap ?? 0)),
      handleTypes: { first: handleTypes[Math.floor(handleTypes.length / 5)] ?? {}, last: handleTypes.at(-1) ?? {} }, samples: heap.length,
    };
  } finally {
    direct.close();
    await proxy.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  function pick(): string | undefined {
    const names = [...live];
    return names.length === 0 ? undefined : names[Math.floor(random() * names.length)];
  }

  async function churn(): Promise<void> {
    const r = random();
    const name = pick();
    if (name === undefined || (r < 0.3 && live.size < 60) || live.size < 10) {
      const created = `shirt-${++serial}`;
      const color = colors[Math.floor(random() * colors.length)];
      const size = inventorySizes[Math.floor(random() * inventorySizes.length)];
      live.add(created);
      await shirts.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace, name: created }, spec: { color, size } });
    } else if (r < 0.7) {
      // Move in or out of the selection.
      const color = colors[Math.floor(random() * colors.length)];
      await shirts.patch(name, { spec: { color } }, { namespace });
    } else if (r < 0.85) {
      const size = inventorySizes[Math.floor(random() * inventorySizes.length)];
      await shirts.patch(name, { spec: { size } }, { namespace });
    } else if (live.size > 10) {
      live.delete(name);
      await shirts.delete(name, { namespace });
    }
  }

  async function resyncLive(): Promise<void> {
    const all = await shirts.list({ namespace }).catch(() => undefined);
    if (all === undefined) return;
    live.clear();
    for (const s of all.items) live.add(s.metadata.name!);
  }

  async function check(ops: ShirtsOperator[]): Promise<string[]> {
    const problems: string[] = [];
    const all = (await shirts.list({ namespace })).items;
    live.clear();
    for (const s of all) live.add(s.metadata.name!);
    for (const s of all) {
      const phase = s.status?.phase;
      if (s.spec?.color === 'blue') {
        if (phase !== 'Selected' || s.status?.observedGeneration !== s.metadata.generation) {
          problems.push(`${s.metadata.name} is blue but its status is ${JSON.stringify(s.status)} at generation ${s.metadata.generation}`);
        }
      } else if (phase === 'Selected') {
        problems.push(`${s.metadata.name} is ${s.spec?.color} but still Selected`);
      }
    }
    const key = (o: ShirtObject): string => `${o.metadata.name}@${o.metadata.resourceVersion}`;
    const want = all.map(key).sort().join(' ');
    const wantBlue = all.filter((s) => s.spec?.color === 'blue').map(key).sort().join(' ');
    for (const [i, op] of ops.entries()) {
      if (op.allShirts.list().map(key).sort().join(' ') !== want) problems.push(`instance ${i}: the allShirts cache differs from the server's list`);
      if (op.blueShirts.list().map(key).sort().join(' ') !== wantBlue) problems.push(`instance ${i}: the blueShirts cache differs from the server's blue list`);
    }
    const cm = await direct.request('GET', `/api/v1/namespaces/${namespace}/configmaps/shirt-inventory`).catch(() => undefined) as { data?: Record<string, string> } | undefined;
    for (const size of inventorySizes) {
      const n = String(all.filter((s) => s.spec?.size === size).length);
      if (cm?.data?.[`size.${size}`] !== n) problems.push(`inventory size.${size} is ${cm?.data?.[`size.${size}`]}, want ${n}`);
    }
    for (const color of inventoryColors) {
      const n = String(all.filter((s) => s.spec?.color === color).length);
      if (cm?.data?.[`color.${color}`] !== n) problems.push(`inventory color.${color} is ${cm?.data?.[`color.${color}`]}, want ${n}`);
    }
    return problems;
  }
}
