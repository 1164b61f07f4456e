// The benchmark's API server, run as its own process so that its work does not count against the
// clients: it serves one custom resource (`stable.example.com/v1` shirts) with a paginated list and a
// watch stream, both precomputed at startup, with and without the field selector `spec.color=blue`
// (evaluated as the apiserver's cacher does: leaving the selection is a DELETED of the previous state).
//
// Objects are shaped like a real apiserver's: about 1 KB each, with labels, annotations, managedFields
// of two managers, a spec and a status with conditions.
//
// Usage: node --import tsx bench/informer/server.ts --objects 10000 --events 50000
// Prints one JSON line `{"url": "http://127.0.0.1:PORT", "finalResourceVersion": "..."}` when ready.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { objects: { type: 'string', default: '10000' }, events: { type: 'string', default: '50000' } } });
const objectCount = Number(values.objects);
const eventCount = Number(values.events);

/** A seeded generator (mulberry32), so every run serves the same data. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(42);
const colors = ['blue', 'red', 'green', 'black', 'white', 'yellow', 'purple'];
const sizes = ['S', 'M', 'L', 'XL'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

interface Shirt {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace: string; resourceVersion: string };
  spec: { color: string; size: string; quantity: number; description: string };
  status: Record<string, unknown>;
}

function managedFields(time: string): unknown[] {
  return [
    {
      manager: 'kubectl', operation: 'Update', apiVersion: 'stable.example.com/v1', time, fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:annotations': { '.': {}, 'f:example.com/batch': {}, 'f:example.com/owner': {} }, 'f:labels': { '.': {}, 'f:app': {}, 'f:team': {}, 'f:tier': {}, 'f:version': {} } },
        'f:spec': { '.': {}, 'f:color': {}, 'f:description': {}, 'f:quantity': {}, 'f:size': {} },
      },
    },
    {
      manager: 'shirt-controller', operation: 'Update', apiVersion: 'stable.example.com/v1', time, fieldsType: 'FieldsV1', subresource: 'status',
      fieldsV1: { 'f:status': { '.': {}, 'f:conditions': { '.': {}, 'k:{"type":"Ready"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} } }, 'f:observedGeneration': {} } },
    },
  ];
}

function makeShirt(i: number, rv: number): Shirt {
  const namespace = `team-${i % 10}`;
  const name = `shirt-${String(i).padStart(6, '0')}`;
  const time = new Date(Date.UTC(2025, 0, 1, 0, 0, i % 3600)).toISOString().replace('.000', '');
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'Shirt',
    metadata: {
      name, namespace, uid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`, resourceVersion: String(rv), generation: 1, creationTimestamp: time,
      labels: { app: 'shop', tier: pick(['web', 'api', 'batch']), team: namespace, version: `v${1 + (i % 3)}` },
      annotations: { 'example.com/owner': `team-${i % 10}@example.com`, 'example.com/batch': `b${i % 97}` },
      managedFields: managedFields(time),
    },
    spec: { color: i === 0 ? 'blue' : pick(colors), size: pick(sizes), quantity: Math.floor(random() * 100), description: 'cotton' },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: time, reason: 'Stocked' }] },
  };
}

// The objects at list time (resource versions 2..N+1), then the watch history.
let rv = 1;
const state: Shirt[] = Array.from({ length: objectCount }, (_, i) => makeShirt(i, ++rv));
const listResourceVersion = String(rv);
const listItems = state.map((o) => JSON.stringify(o));
const blue = (o: Shirt): boolean => o.spec.color === 'blue';

const allLines: string[] = [];
const blueLines: string[] = [];
for (let e = 0; e < eventCount; e++) {
  // The last event modifies shirt 0 (blue, and kept blue) so that every client can tell it is done.
  const last = e === eventCount - 1;
  const i = last ? 0 : Math.floor(random() * objectCount);
  const prev = state[i];
  const next: Shirt = structuredClone(prev);
  next.metadata.resourceVersion = String(++rv);
  next.metadata.generation = (next.metadata.generation as number) + 1;
  next.spec.quantity = Math.floor(random() * 100);
  if (!last && i !== 0 && random() < 0.2) next.spec.color = pick(colors);
  state[i] = next;
  const text = JSON.stringify(next);
  allLines.push(`{"type":"MODIFIED","object":${text}}\n`);
  if (blue(next) && blue(prev)) blueLines.push(`{"type":"MODIFIED","object":${text}}\n`);
  else if (blue(next)) blueLines.push(`{"type":"ADDED","object":${text}}\n`);
  else if (blue(prev)) blueLines.push(`{"type":"DELETED","object":${JSON.stringify({ ...prev, metadata: { ...prev.metadata, resourceVersion: next.metadata.resourceVersion } })}}\n`);
}
const finalResourceVersion = String(rv);
const streams = { all: Buffer.from(allLines.join('')), blue: Buffer.from(blueLines.join('')) };
allLines.length = 0;
blueLines.length = 0;

const selected = { all: listItems.map((_, i) => i), blue: listItems.flatMap((text, i) => (text.includes('"color":"blue"') ? [i] : [])) };

function listPage(selector: boolean, limit: number, start: number): string {
  const indexes = selector ? selected.blue : selected.all;
  const end = limit > 0 ? Math.min(indexes.length, start + limit) : indexes.length;
  const metadata: Record<string, string> = { resourceVersion: listResourceVersion };
  if (end < indexes.length) metadata.continue = Buffer.from(String(end)).toString('base64url');
  const items = indexes.slice(start, end).map((i) => listItems[i]).join(',');
  return `{"kind":"ShirtList","apiVersion":"stable.example.com/v1","metadata":${JSON.stringify(metadata)},"items":[${items}]}`;
}

const server = http.createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const q = url.searchParams;
  const fieldSelector = q.get('fieldSelector') ?? '';
  if (fieldSelector !== '' && fieldSelector !== 'spec.color=blue') {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `field label not supported: ${fieldSelector}`, reason: 'BadRequest', code: 400 }));
    return;
  }
  const selector = fieldSelector !== '';
  if (q.get('watch') !== 'true' && q.get('watch') !== '1') {
    const start = q.has('continue') ? Number(Buffer.from(q.get('continue')!, 'base64url').toString()) : 0;
    const body = listPage(selector, Number(q.get('limit') ?? '0'), start);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if (q.get('sendInitialEvents') === 'true') {
    res.writeHead(422, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled', reason: 'Invalid', code: 422 }));
    return;
  }
  if (q.get('resourceVersion') !== listResourceVersion) {
    // Reconnections are not part of the benchmark: hold them open, silent.
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    return;
  }
  const stream = selector ? streams.blue : streams.all;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  let offset = 0;
  const pump = (): void => {
    while (offset < stream.length) {
      const chunk = stream.subarray(offset, offset + 65536);
      offset += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    // Stay open, as a watch does until its timeout.
  };
  pump();
});

server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}`, finalResourceVersion, listResourceVersion, objectBytes: Math.round(listItems.reduce((n, s) => n + s.length, 0) / listItems.length) }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
