// The informer benchmark: ingest of a list plus a watch stream, served by a separate process, by
// three clients in their own processes: the floor (bytes, JSON.parse, a Map), @kubekit/informer, and
// @kubernetes/client-node 1.4's ListWatch. Reports events/s, CPU and heap growth after GC, as ratios
// to the floor and to client-node measured in the same run, and the heap cost of imports.
//
// With churn (the default; --no-churn skips it, --churn-only runs only it): 50,000 objects and
// 100,000 events where thousands of objects leave and enter the selection (field and label
// selection), kubekit with delete handlers; every delivered reason is checked against the server's
// truth, and the server counts name lookups and unfiltered lists. Targets, as ratios in the run:
// wall ≥ 0.9× the floor, heap growth ≤ 0.5× client-node's, no unfiltered list, lookups ≤ departures.
//
// Usage: node --import tsx --conditions=kubekit-source bench/informer/run.ts [--repeat 3] [--churn-repeat 7] [--quick] [--no-churn | --churn-only] [--pin] [--predictable]
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '3' }, 'churn-repeat': { type: 'string', default: '7' }, quick: { type: 'boolean', default: false },
    'no-churn': { type: 'boolean', default: false }, 'churn-only': { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false }, predictable: { type: 'boolean', default: false },
  },
});
const repeat = Number(values.repeat);
// The churn cells' ratios move by ±15 % from one run to the next on 2 shared cores (the same client's
// CPU for the same bytes varies that much), so they take more runs than the ordinary cells.
const churnRepeat = Math.max(repeat, Number(values['churn-repeat']));
const here = (f: string): string => fileURLToPath(new URL(f, import.meta.url));
// --pin and --predictable: a controlled run, for comparing two builds of kubekit with less noise (not
// for the targets: production runs neither way). --pin runs the server on CPU 1 and every client on
// CPU 0 (taskset), so that neither is moved between cores; --predictable runs the clients with V8's
// --predictable (no concurrent GC or compiler threads), so that their CPU time is their work alone.
const nodeArgs = [...(values.predictable ? ['--predictable'] : []), '--expose-gc', '--import', 'tsx', '--conditions=kubekit-source'];
/** Spawns node with `args`, on CPU `cpu` when --pin is given. */
function spawnNode(cpu: number, args: string[]): ChildProcess {
  const options = { stdio: ['ignore', 'pipe', 'inherit'] as ('ignore' | 'pipe' | 'inherit')[] };
  return values.pin ? spawn('taskset', ['-c', String(cpu), process.execPath, ...args], options) : spawn(process.execPath, args, options);
}

interface Result {
  impl: string;
  objects: number;
  wallMs: number;
  cpuMs: number;
  /** The part of cpuMs spent in the kernel. */
  sysMs: number;
  importHeapMB: number;
  ingestHeapMB: number;
  // Churn only (kubekit): when the cache held the final state, the server's counts during the run,
  // and the reasons checked against its truth.
  syncedMs?: number;
  departures?: number;
  delivered?: number;
  wrong?: number;
  unknown?: number;
  missing?: number;
  nameLookups?: number;
  unfilteredLists?: number;
  connections?: number;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      rl.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)));
  });
}

async function run(script: string, args: string[]): Promise<string> {
  const child = spawnNode(0, [...nodeArgs, here(script), ...args]);
  const line = await firstLine(child);
  await new Promise((resolve) => child.once('exit', resolve));
  return line;
}

function median<T>(xs: T[], by: (x: T) => number): T {
  return [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
}

const fmt = (n: number, d = 0): string => n.toFixed(d);
const scenarios: [number, number][] = values.quick ? [[10_000, 50_000]] : [[10_000, 50_000], [50_000, 100_000]];
const selectors = ['', 'spec.color=blue'];
const impls = ['floor', 'kubekit', 'kubekit-raw', 'client-node'];

/** Runs every implementation `runs` times round-robin (so that noise from other processes falls on all alike) and prints the table. */
async function cell(title: string, info: { url: string; finalResourceVersion: string }, impls: string[], args: string[], objects: number, events: number, runs = repeat): Promise<{ rows: Map<string, Result>; runs: Map<string, Result[]> }> {
  const results = new Map<string, Result[]>(impls.map((i) => [i, []]));
  for (let r = 0; r < runs; r++) {
    for (const impl of impls) {
      results.get(impl)!.push(JSON.parse(await run('./client.ts', ['--impl', impl, '--url', info.url, '--final', info.finalResourceVersion, ...args])) as Result);
    }
  }
  const rows = new Map<string, Result>(impls.map((i) => [i, median(results.get(i)!, (x) => x.wallMs)]));
  const floor = rows.get('floor')!;
  const cn = rows.get('client-node')!;
  console.log(title);
  console.log('impl         | cached | wall ms | events/s | ×floor | CPU ms | events/CPU-s | ×floor | heap MB | ×floor | ×client-node');
  console.log('-------------|--------|---------|----------|--------|--------|--------------|--------|---------|--------|-------------');
  for (const [impl, x] of rows) {
    const rate = (objects + events) / (x.wallMs / 1000);
    const floorRate = (objects + events) / (floor.wallMs / 1000);
    const cpuMs = median(results.get(impl)!, (y) => y.cpuMs).cpuMs;
    const floorCpuMs = median(results.get('floor')!, (y) => y.cpuMs).cpuMs;
    const cpuRate = (objects + events) / (cpuMs / 1000);
    console.log(`${impl.padEnd(12)} | ${String(x.objects).padStart(6)} | ${String(x.wallMs).padStart(7)} | ${fmt(rate).padStart(8)} | ${fmt(rate / floorRate, 2).padStart(6)} | ${String(cpuMs).padStart(6)} | ${fmt(cpuRate).padStart(12)} | ${fmt(floorCpuMs / cpuMs, 2).padStart(6)} | ${fmt(x.ingestHeapMB, 1).padStart(7)} | ${fmt(x.ingestHeapMB / floor.ingestHeapMB, 2).padStart(6)} | ${fmt(x.ingestHeapMB / cn.ingestHeapMB, 2).padStart(12)}`);
  }
  return { rows, runs: results };
}

/** The spread of a per-run ratio over the rounds (each round runs every implementation once): min, quartiles, max. */
function spread(ratios: number[]): string {
  const xs = [...ratios].sort((a, b) => a - b);
  const at = (q: number): string => fmt(xs[Math.round(q * (xs.length - 1))], 2);
  return `min ${at(0)}, q1 ${at(0.25)}, median ${at(0.5)}, q3 ${at(0.75)}, max ${at(1)}`;
}

console.log(`node ${process.version}${values.pin ? '; pinned (server CPU 1, clients CPU 0)' : ''}${values.predictable ? '; clients with --predictable' : ''}; ${repeat} runs per cell (round-robin; churn cells ${churnRepeat}), medians; events = list items + watch events sent; heap = growth after GC while ingesting (minus heap right after import)\n`);
if (!values['churn-only']) {
  for (const [objects, events] of scenarios) {
    const server = spawnNode(1, ['--import', 'tsx', here('./server.ts'), '--objects', String(objects), '--events', String(events)]);
    const info = JSON.parse(await firstLine(server)) as { url: string; finalResourceVersion: string; objectBytes: number };
    try {
      for (const selector of selectors) {
        await cell(`list ${objects} + watch ${events} events, ${info.objectBytes} B/object, ${selector === '' ? 'no field selector' : `fieldSelector=${selector}`}`, info, impls, ['--selector', selector], objects, events);
        console.log();
      }
    } finally {
      server.kill('SIGTERM');
    }
  }
}

if (!values['no-churn']) {
  const [objects, events] = values.quick ? [10_000, 20_000] : [50_000, 100_000];
  const server = spawnNode(1, ['--import', 'tsx', here('./server.ts'), '--objects', String(objects), '--events', String(events), '--churn']);
  const info = JSON.parse(await firstLine(server)) as { url: string; finalResourceVersion: string; objectBytes: number; selected: number; departures: number; deletions: number; entries: number };
  try {
    for (const [flag, selector] of [['--selector', 'spec.color=blue'], ['--labels', 'color=blue']]) {
      const title = `churn: list ${objects} + watch ${events} events, ${flag === '--selector' ? 'fieldSelector' : 'labelSelector'}=${selector}: ${info.selected} selected at list time, ${info.departures} departures (${info.deletions} deletions), ${info.entries} entries`;
      const { rows, runs } = await cell(title, info, ['floor', 'kubekit', 'kubekit-noreasons', 'client-node'], [flag, selector, '--churn'], objects, events, churnRepeat);
      const k = rows.get('kubekit')!;
      const floor = rows.get('floor')!;
      const cn = rows.get('client-node')!;
      const checks: [string, boolean][] = [
        [`wall (every reason delivered) ${fmt(floor.wallMs / k.wallMs, 2)}× floor ≥ 0.9`, floor.wallMs / k.wallMs >= 0.9],
        [`cache in sync at ${k.syncedMs} ms: ${fmt(floor.wallMs / k.syncedMs!, 2)}× floor`, floor.wallMs / k.syncedMs! >= 0.9],
        [`heap ${fmt(k.ingestHeapMB / cn.ingestHeapMB, 2)}× client-node ≤ 0.5`, k.ingestHeapMB / cn.ingestHeapMB <= 0.5],
        [`unfiltered lists ${k.unfilteredLists} = 0`, k.unfilteredLists === 0],
        [`name lookups ${k.nameLookups} ≤ departures ${k.departures}`, k.nameLookups! <= k.departures!],
        [`reasons: ${k.delivered} delivered, ${k.wrong} wrong, ${k.missing} missing, ${k.unknown} unknown`, k.wrong === 0 && k.missing === 0],
      ];
      console.log(`kubekit (median run): ${checks.map(([text, ok]) => `${text} ${ok ? 'ok' : 'MISSED'}`).join('; ')}`);
      console.log(`  (kubekit's connections to the server: ${k.connections}; kernel CPU: kubekit ${k.sysMs} ms, floor ${floor.sysMs} ms)`);
      const perRound = runs.get('kubekit')!.map((x, i) => runs.get('floor')![i].wallMs / x.wallMs);
      console.log(`  wall ×floor round by round (${perRound.length} rounds): ${spread(perRound)}`);
      const q = rows.get('kubekit-noreasons')!;
      console.log(`kubekit-noreasons (a controller's registration): wall ${fmt(floor.wallMs / q.wallMs, 2)}× floor, ${q.nameLookups} lookups, ${q.delivered} deletes delivered (${q.missing} missing, ${q.wrong} wrong, ${q.unknown} unknown)`);
      console.log();
    }
  } finally {
    server.kill('SIGTERM');
  }
}

console.log('heap cost of imports (after GC, each in its own process)');
for (const what of ['informer', 'informer+loadKubeConfig', 'informer+loadKubeConfig(client-node)', 'client-node']) {
  const results: { heapMB: number }[] = [];
  for (let r = 0; r < repeat; r++) results.push(JSON.parse(await run('./importCost.ts', ['--what', what])) as { heapMB: number });
  console.log(`  ${what.padEnd(38)} ${fmt(median(results, (x) => x.heapMB).heapMB, 1)} MB`);
}
