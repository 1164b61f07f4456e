// Benchmarks of the embedded API server over real HTTP on 127.0.0.1, all measured in one run:
//
// 1. writes/s: concurrent creates of custom resources, in memory and with a data directory (fsync
//    before each acknowledgement, group commit) — the ratio is the cost of durability;
// 2. watch fan-out: events/s delivered to 100 watchers of one resource while a writer updates it;
// 3. a field-selected list of 50,000 objects served from an index on a selectable field vs a full
//    scan (same data, `fieldIndexes: false`).
//
// Clients run in the same process as the server (two cores: expect the figures to be lower bounds).
//
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/apiserver.ts
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'shirts.stable.example.com' },
  spec: {
    group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'shirts', singular: 'shirt', kind: 'Shirt' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' }, size: { type: 'string', default: 'M' }, n: { type: 'integer' } } } } } },
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
    }],
  },
};
const shirts = '/apis/stable.example.com/v1/namespaces/default/shirts';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(base: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(base + path, { method, agent, headers: data === undefined ? {} : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

function shirt(i: number): unknown {
  return { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: `shirt-${i}` }, spec: { color: `color-${i % 100}`, n: i } };
}

async function setup(server: ApiServer): Promise<void> {
  const r = await call(server.url, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (r.status !== 201) throw new Error(`CRD: ${r.status} ${r.text}`);
  await server.idle();
}

/** Creates `count` shirts with `concurrency` clients; returns writes per second. */
async function createShirts(server: ApiServer, from: number, count: number, concurrency: number): Promise<number> {
  let next = from;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < from + count) {
      const i = next++;
      const r = await call(server.url, 'POST', shirts, shirt(i));
      if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${r.text}`);
    }
  }));
  return count / ((performance.now() - started) / 1000);
}

async function writes(): Promise<void> {
  const count = 4000;
  const memory = await startApiServer();
  await setup(memory);
  await createShirts(memory, 0, 500, 32);
  const inMemory = await createShirts(memory, 500, count, 32);
  await memory.close();

  const dir = mkdtempSync(join(tmpdir(), 'kubekit-bench-'));
  const durable = await startApiServer({ dataDir: dir });
  await setup(durable);
  await createShirts(durable, 0, 500, 32);
  const onDisk = await createShirts(durable, 500, count, 32);
  await durable.close();
  rmSync(dir, { recursive: true, force: true });

  console.log(`writes/s (32 clients, ${count} creates): in memory ${inMemory.toFixed(0)}, with dataDir (fsync) ${onDisk.toFixed(0)}`);
  console.log(`ratio durable/in-memory writes: ${(onDisk / inMemory).toFixed(2)}`);
}

async function fanOut(): Promise<void> {
  const watchers = 100;
  const updates = 2000;
  const server = await startApiServer();
  await setup(server);
  await call(server.url, 'POST', shirts, shirt(0));
  const rv = server.resourceVersion;
  let delivered = 0;
  const streams = await Promise.all(Array.from({ length: watchers }, () => new Promise<import('node:http').ClientRequest>((resolve) => {
    const req = request(`${server.url}${shirts}?watch=true&resourceVersion=${rv}`, (res) => {
      res.on('data', (chunk: Buffer) => {
        for (const b of chunk) if (b === 10) delivered++;
      });
      resolve(req);
    });
    req.end();
  })));
  const started = performance.now();
  for (let i = 1; i <= updates; i++) {
    const r = await call(server.url, 'PATCH', `${shirts}/shirt-0`, { spec: { n: i } }, 'application/merge-patch+json');
    if (r.status !== 200) throw new Error(`patch: ${r.status}`);
  }
  const expected = watchers * updates;
  for (let guard = 0; delivered < expected && guard < 10_000; guard++) await new Promise((r) => setImmediate(r));
  const seconds = (performance.now() - started) / 1000;
  console.log(`watch fan-out: ${updates} updates to ${watchers} watchers, ${delivered}/${expected} events in ${seconds.toFixed(2)} s: ${(delivered / seconds).toFixed(0)} events/s delivered (${(updates / seconds).toFixed(0)} writes/s)`);
  for (const s of streams) s.destroy();
  await server.close();
}

async function median(fn: () => Promise<void>, rounds: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

async function indexedList(): Promise<void> {
  const total = 50_000;
  const dir = mkdtempSync(join(tmpdir(), 'kubekit-bench-'));
  const seed = await startApiServer({ dataDir: dir });
  await setup(seed);
  const rate = await createShirts(seed, 0, total, 64);
  await seed.close();
  const copy = mkdtempSync(join(tmpdir(), 'kubekit-bench-'));
  cpSync(dir, copy, { recursive: true });

  const loadStart = performance.now();
  const indexed = await startApiServer({ dataDir: dir, fieldIndexes: true });
  const loadMs = performance.now() - loadStart;
  const scanned = await startApiServer({ dataDir: copy, fieldIndexes: false });
  const path = `${shirts}?fieldSelector=${encodeURIComponent('spec.color=color-7')}`;
  const check = async (server: ApiServer): Promise<void> => {
    const r = await call(server.url, 'GET', path);
    const n = (JSON.parse(r.text) as { items: unknown[] }).items.length;
    if (n !== total / 100) throw new Error(`expected ${total / 100} items, got ${n}`);
  };
  // Warm up: decode caches and the index.
  await check(indexed);
  await check(scanned);
  const withIndex = await median(() => check(indexed), 21);
  const fullScan = await median(() => check(scanned), 21);
  console.log(`${total} shirts created at ${rate.toFixed(0)} writes/s (64 clients, dataDir); restart loaded them in ${loadMs.toFixed(0)} ms`);
  console.log(`field-selected list (spec.color=color-7, ${total / 100} of ${total}): index ${withIndex.toFixed(2)} ms, full scan ${fullScan.toFixed(2)} ms`);
  console.log(`ratio full scan/index: ${(fullScan / withIndex).toFixed(1)}`);
  await indexed.close();
  await scanned.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
}

await writes();
await fanOut();
await indexedList();
agent.destroy();
