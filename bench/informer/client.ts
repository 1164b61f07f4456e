// One benchmark client, run in its own process (with --expose-gc) so that its heap and CPU are its own.
// It ingests the server's list and watch stream with one implementation and prints one JSON line:
// objects cached, wall time, CPU time, heap after GC right after importing the implementation, and
// heap after GC once the last event is in.
//
// Implementations:
// - floor:       raw node:http, JSON.parse, a Map: the least any JS informer can do.
// - kubekit:     @kubekit/informer's Informer (defaults: managedFields dropped).
// - kubekit-raw: the same, keeping objects as received (transform: null).
// - kubekit-noreasons (churn): kubekit with a delete handler registered as a controller registers it,
//   `{ deleteReasons: false }`: deletes at once, no lookups (reasons are 'unknown' unless known locally).
// - client-node: @kubernetes/client-node 1.4's ListWatch (makeInformer's class), with the selector.
//
// With --churn, kubekit also registers handlers (as a controller would), so that every departure
// from the selection gets its reason; it is done once the last event is in and every notification
// delivered. It then checks each delivered reason against the server's truth (/bench/truth) and
// reads the server's request counts (/bench/stats, before and after).
import http from 'node:http';
import { parseArgs } from 'node:util';
import type { KubernetesListObject, KubernetesObject } from '@kubernetes/client-node';

const { values } = parseArgs({
  options: {
    impl: { type: 'string' }, url: { type: 'string' }, final: { type: 'string' }, selector: { type: 'string', default: '' },
    labels: { type: 'string', default: '' }, churn: { type: 'boolean', default: false },
  },
});
const labelSelector = values.labels!;
const churn = values.churn!;
const impl = values.impl!;
const url = values.url!;
const finalRv = values.final!;
const fieldSelector = values.selector!;

declare const gc: () => void;
function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

type Done = () => boolean;
interface Started {
  done: Done;
  /** Churn (kubekit): the cache holds the final state (handlers may still be waiting for delete reasons). */
  synced?: () => boolean;
  count: () => number;
  stop: () => unknown;
}

const kubeconfigYAML = [
  'apiVersion: v1', 'kind: Config', 'current-context: bench',
  'clusters:', '- name: bench', '  cluster:', `    server: ${url}`, '    insecure-skip-tls-verify: true',
  'users:', '- name: bench', '  user:', '    token: bench',
  'contexts:', '- name: bench', '  context:', '    cluster: bench', '    user: bench',
].join('\n');

async function floor(): Promise<() => Started> {
  const agent = new http.Agent({ keepAlive: true });
  const get = (path: string): Promise<http.IncomingMessage> => new Promise((resolve, reject) => {
    http.get(url + path, { agent, headers: { Accept: 'application/json' } }, resolve).on('error', reject);
  });
  return () => {
    const cache = new Map<string, { metadata: { name: string; namespace: string; resourceVersion: string } }>();
    let lastRv = '';
    let req: http.IncomingMessage | undefined;
    const sel = (fieldSelector === '' ? '' : `&fieldSelector=${encodeURIComponent(fieldSelector)}`) + (labelSelector === '' ? '' : `&labelSelector=${encodeURIComponent(labelSelector)}`);
    void (async () => {
      let cont = '';
      let listRv = '';
      do {
        const res = await get(`/apis/stable.example.com/v1/shirts?limit=500${sel}${cont ? `&continue=${cont}` : ''}`);
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        const list = JSON.parse(Buffer.concat(chunks).toString()) as { metadata: { continue?: string; resourceVersion: string }; items: { metadata: { name: string; namespace: string; resourceVersion: string } }[] };
        for (const o of list.items) cache.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
        cont = list.metadata.continue ?? '';
        listRv = list.metadata.resourceVersion;
      } while (cont !== '');
      lastRv = listRv;
      req = await get(`/apis/stable.example.com/v1/shirts?watch=true&resourceVersion=${listRv}${sel}`);
      let carry = '';
      req.setEncoding('utf8');
      req.on('data', (text: string) => {
        const lines = (carry + text).split('\n');
        carry = lines.pop()!;
        for (const line of lines) {
          if (line === '') continue;
          const e = JSON.parse(line) as { type: string; object: { metadata: { name: string; namespace: string; resourceVersion: string } } };
          const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
          if (e.type === 'DELETED') cache.delete(key);
          else cache.set(key, e.object);
          lastRv = e.object.metadata.resourceVersion;
        }
      });
    })();
    return { done: () => lastRv === finalRv, count: () => cache.size, stop: () => req?.destroy() };
  };
}

async function kubekit(raw: boolean, deleteReasons = true): Promise<() => Started> {
  const { Informer } = await import('@kubekit/informer');
  const { noopLogger } = await import('@kubekit/core');
  // A KubeConfigLike without @kubernetes/client-node: the import cost is measured on its own.
  const kc = { getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} };
  return () => {
    const informer = new Informer(kc, {
      apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector, labelSelector, logger: noopLogger, streamingList: 'never',
      ...(raw ? { transform: null } : {}),
      ...(churn ? { deleteReasons: { qps: 100_000, burst: 10_000, maxWaitMs: 600_000 } } : {}),
    });
    const stop = new AbortController();
    void informer.start(stop.signal);
    if (!churn) return { done: () => informer.lastSyncResourceVersion === finalRv, count: () => informer.size, stop: () => stop.abort() };
    const registration = informer.addEventHandler({
      delete: (o, { reason }) => void reasons.set(`${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`, reason),
    }, { deleteReasons });
    return {
      done: () => informer.lastSyncResourceVersion === finalRv && registration.pending() === 0,
      synced: () => informer.lastSyncResourceVersion === finalRv,
      count: () => informer.size,
      stop: () => stop.abort(),
    };
  };
}

async function clientNode(): Promise<() => Started> {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromString(kubeconfigYAML);
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  return () => {
    const listFn = (): Promise<KubernetesListObject<KubernetesObject>> =>
      api.listClusterCustomObject({ group: 'stable.example.com', version: 'v1', plural: 'shirts', fieldSelector: fieldSelector || undefined, labelSelector: labelSelector || undefined }) as Promise<KubernetesListObject<KubernetesObject>>;
    const informer = new k8s.ListWatch('/apis/stable.example.com/v1/shirts', new k8s.Watch(kc), listFn, false, labelSelector || undefined, fieldSelector || undefined);
    let done = false;
    informer.on('update', (o) => {
      if (o.metadata?.resourceVersion === finalRv) done = true;
    });
    void informer.start();
    return { done: () => done, count: () => informer.list().length, stop: () => informer.stop() };
  };
}

/** kubekit's delivered delete reasons, by `namespace/name@resourceVersion` (churn). */
const reasons = new Map<string, string>();
const fetchJSON = async (path: string): Promise<unknown> => {
  const res = await fetch(url + path);
  return res.json();
};
const statsBefore = churn ? (await fetchJSON('/bench/stats')) as Record<string, number> : undefined;

const heapStart = heap();
const factory = impl === 'floor' ? await floor() : impl === 'kubekit' ? await kubekit(false) : impl === 'kubekit-raw' ? await kubekit(true)
  : impl === 'kubekit-noreasons' ? await kubekit(false, false) : await clientNode();
const heapImported = heap();
const profiler = process.env.BENCH_CPU_PROFILE ? await startProfiler() : process.env.BENCH_HEAP_PROFILE ? await startHeapProfiler() : undefined;
const cpu0 = process.cpuUsage();
const elu0 = performance.eventLoopUtilization();
const t0 = performance.now();
const run = factory();
let syncedMs: number | undefined;
await new Promise<void>((resolve) => {
  const check = (): void => {
    if (syncedMs === undefined && run.synced?.() === true) syncedMs = Math.round(performance.now() - t0);
    if (run.done()) resolve();
    else setTimeout(check, 2);
  };
  check();
});
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const elu = performance.eventLoopUtilization(elu0);
await profiler?.();
const heapAfter = heap();
const result = {
  impl,
  objects: run.count(),
  wallMs: Math.round(wallMs),
  cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  sysMs: Math.round(cpu.system / 1000),
  /** Busy time of the event loop (the main thread) in the measured interval. */
  loopBusyMs: Math.round(elu.active),
  importHeapMB: (heapImported - heapStart) / 1e6,
  ingestHeapMB: (heapAfter - heapImported) / 1e6,
};
let churnResult: Record<string, number> | undefined;
if (churn) {
  const truth = (await fetchJSON('/bench/truth')) as Record<string, string>;
  const after = (await fetchJSON('/bench/stats')) as Record<string, number>;
  let wrong = 0;
  let unknown = 0;
  let missing = 0;
  for (const [key, reason] of Object.entries(truth)) {
    const got = reasons.get(key);
    if (got === undefined) missing++;
    else if (got === 'unknown') unknown++;
    else if (got !== reason) wrong++;
  }
  churnResult = {
    syncedMs: syncedMs ?? result.wallMs,
    departures: Object.keys(truth).length,
    delivered: reasons.size,
    wrong, unknown, missing,
    nameLookups: after.nameLookups - statsBefore!.nameLookups,
    unfilteredLists: after.unfilteredLists - statsBefore!.unfilteredLists,
    connections: after.connections - statsBefore!.connections,
  };
}
process.stdout.write(JSON.stringify(churnResult === undefined ? result : { ...result, ...churnResult }) + '\n');
await run.stop();
process.exit(0);

/** With BENCH_CPU_PROFILE=<file>: a CPU profile of the measured interval only (not of the imports), written to that file. */
async function startProfiler(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(process.env.BENCH_CPU_PROFILE!, JSON.stringify(profile));
  };
}

/**
 * With BENCH_HEAP_PROFILE=<file>: a sampling heap profile of every allocation in the measured interval,
 * the ones the GC has already collected included (so that it shows what the scavenger works on, not
 * only what is still alive), written to that file (`.heapprofile`, as Chrome's DevTools reads it).
 */
async function startHeapProfiler(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  return async () => {
    const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
    writeFileSync(process.env.BENCH_HEAP_PROFILE!, JSON.stringify(profile));
  };
}
