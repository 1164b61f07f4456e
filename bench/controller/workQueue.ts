// Work queue throughput with de-duplication, and reconciles/s of a no-op reconciler through a Controller,
// each beside a plain p-queue loop doing the same number of tasks, measured in the same run.
// Run: node --import tsx --conditions=kubekit-source bench/controller/workQueue.ts
import PQueue from 'p-queue';
import { EventEmitter } from 'eventemitter3';
import { Controller, WorkQueue, type SourceHandlers } from '@kubekit/controller';
import type { KubeObject } from '@kubekit/core';

const items = 200_000;
const distinct = 20_000;

async function timed(label: string, fn: () => Promise<number>): Promise<{ label: string; perSecond: number }> {
  const start = performance.now();
  const n = await fn();
  const seconds = (performance.now() - start) / 1000;
  return { label, perSecond: n / seconds };
}

async function plainPQueue(n: number): Promise<number> {
  const pq = new PQueue({ concurrency: 4 });
  let done = 0;
  for (let i = 0; i < n; i++) void pq.add(async () => { done++; });
  await pq.onIdle();
  return done;
}

async function workQueueAddsWithDedup(): Promise<number> {
  const q = new WorkQueue<string>();
  const keys = Array.from({ length: distinct }, (_, i) => `default/shirt-${i}`);
  for (let i = 0; i < items; i++) q.add(keys[i % distinct]);
  let processed = 0;
  q.shutDown();
  for (;;) {
    const { item, shutdown } = await q.get();
    if (shutdown) break;
    processed++;
    q.done(item);
  }
  if (processed !== distinct) throw new Error(`expected ${distinct} distinct items, processed ${processed}`);
  return items;
}

class Source extends EventEmitter {
  waitForSync(): Promise<void> { return Promise.resolve(); }
  addEventHandler(h: SourceHandlers<KubeObject>): { remove(): void } {
    this.on('add', h.add);
    return { remove: () => this.off('add', h.add) };
  }
}

async function controllerNoop(n: number): Promise<number> {
  const source = new Source();
  let reconciled = 0;
  let finish!: () => void;
  const all = new Promise<void>((r) => { finish = r; });
  const c = new Controller({ name: 'bench', maxConcurrentReconciles: 4, reconciler: () => { if (++reconciled === n) finish(); } }).for(source);
  const ac = new AbortController();
  const run = c.start(ac.signal);
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < n; i++) {
    const obj: KubeObject = { metadata: { namespace: 'default', name: `shirt-${i}` } };
    source.emit('add', obj);
  }
  await all;
  ac.abort();
  await run;
  return n;
}

const rounds = 5;
const results: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const m of [
    await timed('p-queue: no-op tasks', () => plainPQueue(items)),
    await timed('WorkQueue: adds (10x duplicates) + drain', workQueueAddsWithDedup),
    await timed('Controller: no-op reconciles', () => controllerNoop(50_000)),
  ]) (results[m.label] ??= []).push(m.perSecond);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results['p-queue: no-op tasks']);
for (const [label, xs] of Object.entries(results)) {
  console.log(`${label.padEnd(45)} ${Math.round(median(xs)).toLocaleString('en').padStart(12)} /s   ratio to p-queue ${(median(xs) / base).toFixed(2)}`);
}
