// The benchmark's API server, run as its own process so that its work does not count against the
// clients: it serves one custom resource (`stable.example.com/v1` shirts) with a paginated list and a
// watch stream, both precomputed at startup, unselected or selected by the field selector
// `spec.color=blue` or the label selector `color=blue` (the label mirrors the field), evaluated as the
// apiserver's cacher does: leaving the selection is a DELETED of the previous state.
//
// Objects are shaped and written like a real apiserver's custom resources (compact JSON, keys sorted,
// the watch event's `type` first): about 1.3 KB each, with labels, annotations, managedFields of two
// managers, a spec and a status with conditions.
//
// With --churn, the stream also deletes objects (half of the deletions through a finalizer, so that
// the last state has a deletionTimestamp) and creates new ones (some re-using deleted names), and
// changes colours often, so that thousands of objects leave and enter the selection; it answers name
// lookups (GET by name, metadata-only or not, and lists restricted to `metadata.name=`) in O(1) from
// the final state, counts them and any list without selectors, and serves the truth: for each DELETED
// of the selected stream (by `namespace/name@resourceVersion`), whether it was a deletion or a
// departure. An object that ever left the selection is never deleted later, so that the final state
// answers every lookup as the event's truth.
//
// Usage: node --import tsx bench/informer/server.ts --objects 10000 --events 50000 [--churn]
// Prints one JSON line `{"url": "http://127.0.0.1:PORT", "finalResourceVersion": "..."}` when ready.
// GET /bench/truth and /bench/stats answer the churn's truth and the request counts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { seededRandom } from '../../test/support/seededRandom.js';

const { values } = parseArgs({ options: { objects: { type: 'string', default: '10000' }, events: { type: 'string', default: '50000' }, churn: { type: 'boolean', default: false } } });
const objectCount = Number(values.objects);
const eventCount = Number(values.events);
const churn = values.churn;

const random = seededRandom(42);
const colors = ['blue', 'red', 'green', 'black', 'white', 'yellow', 'purple'];
const sizes = ['S', 'M', 'L', 'XL'];
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');

interface Shirt {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace: string; resourceVersion: string; uid: string; labels: Record<string, string> };
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
  const color = i === 0 ? 'blue' : pick(colors);
  return {
    apiVersion: 'stable.example.com/v1',
    kind: 'Shirt',
    metadata: {
      name, namespace, uid: `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`, resourceVersion: String(rv), generation: 1, creationTimestamp: time,
      labels: { app: 'shop', tier: pick(['web', 'api', 'batch']), team: namespace, version: `v${1 + (i % 3)}`, color },
      annotations: { 'example.com/owner': `team-${i % 10}@example.com`, 'example.com/batch': `b${i % 97}` },
      managedFields: managedFields(time),
    },
    spec: { color, size: pick(sizes), quantity: Math.floor(random() * 100), description: 'cotton' },
    status: { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: time, reason: 'Stocked' }] },
  };
}

/** JSON as the apiserver writes a custom resource (unstructured): compact, keys sorted. */
function apiJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(apiJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${apiJSON((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function setColor(o: Shirt, color: string): void {
  o.spec.color = color;
  o.metadata.labels.color = color;
}

// The objects at list time (resource versions 2..N+1), then the watch history.
let rv = 1;
const state: (Shirt | undefined)[] = Array.from({ length: objectCount }, (_, i) => makeShirt(i, ++rv));
const listResourceVersion = String(rv);
const listItems = state.map((o) => apiJSON(o));
const blue = (o: Shirt | undefined): boolean => o?.spec.color === 'blue';

const allLines: string[] = [];
const blueLines: string[] = [];
/** Churn: the truth of each DELETED of the selected stream, by `namespace/name@resourceVersion`. */
const truth: Record<string, 'deleted' | 'leftSelection'> = {};
const everLeft = new Set<number>();
const deleted: number[] = [];

function emit(type: 'ADDED' | 'MODIFIED' | 'DELETED', prev: Shirt | undefined, next: Shirt | undefined, eventRv: number): void {
  const obj = next ?? prev!;
  allLines.push(`{"type":"${type}","object":${apiJSON(obj)}}\n`);
  const key = (o: Shirt): string => `${o.metadata.namespace}/${o.metadata.name}@${eventRv}`;
  if (next !== undefined && blue(next) && blue(prev)) blueLines.push(`{"type":"MODIFIED","object":${apiJSON(next)}}\n`);
  else if (next !== undefined && blue(next)) blueLines.push(`{"type":"ADDED","object":${apiJSON(next)}}\n`);
  else if (blue(prev)) {
    // The cacher's DELETED: the last matching state with the event's resource version.
    const last = { ...prev!, metadata: { ...prev!.metadata, resourceVersion: String(eventRv) } };
    blueLines.push(`{"type":"DELETED","object":${apiJSON(last)}}\n`);
    truth[key(last)] = next === undefined ? 'deleted' : 'leftSelection';
  }
}

for (let e = 0; e < eventCount; e++) {
  // The last event modifies shirt 0 (blue, and kept blue) so that every client can tell it is done.
  const last = e === eventCount - 1;
  const roll = random();
  if (churn && !last && roll < 0.04) {
    // Delete a live object that never left the selection (not shirt 0), through a finalizer half the time.
    const i = 1 + Math.floor(random() * (objectCount - 1));
    const prev = state[i];
    if (prev === undefined || everLeft.has(i)) continue;
    if (random() < 0.5) {
      const marked: Shirt = structuredClone(prev);
      marked.metadata.resourceVersion = String(++rv);
      marked.metadata.deletionTimestamp = '2025-06-01T00:00:00Z';
      marked.metadata.finalizers = ['example.com/cleanup'];
      emit('MODIFIED', prev, marked, rv);
      state[i] = marked;
    }
    ++rv;
    emit('DELETED', state[i], undefined, rv);
    state[i] = undefined;
    deleted.push(i);
    continue;
  }
  if (churn && !last && roll < 0.07 && deleted.length > 0) {
    // Re-create a deleted name: a new object (another uid), perhaps blue.
    const i = deleted.splice(Math.floor(random() * deleted.length), 1)[0];
    const next = makeShirt(i, ++rv);
    next.metadata.generation = 1;
    emit('ADDED', undefined, next, rv);
    state[i] = next;
    continue;
  }
  const i = last ? 0 : Math.floor(random() * objectCount);
  const prev = state[i];
  if (prev === undefined) continue;
  const next: Shirt = structuredClone(prev);
  next.metadata.resourceVersion = String(++rv);
  next.metadata.generation = (next.metadata.generation as number) + 1;
  next.spec.quantity = Math.floor(random() * 100);
  if (!last && i !== 0 && random() < (churn ? 0.3 : 0.2)) setColor(next, pick(colors));
  if (blue(prev) && !blue(next)) everLeft.add(i);
  state[i] = next;
  emit('MODIFIED', prev, next, rv);
}
const finalResourceVersion = String(rv);
const streams = { all: Buffer.from(allLines.join('')), blue: Buffer.from(blueLines.join('')) };
allLines.length = 0;
blueLines.length = 0;

const selected = { all: listItems.map((_, i) => i), blue: listItems.flatMap((text, i) => (text.includes('"color":"blue"') ? [i] : [])) };
/**
 * The final state by `namespace/name`, for name lookups, with its answers written once (as the
 * apiserver answers a GET from its watch cache without re-serialising per request): whole, and as
 * `PartialObjectMetadata`.
 */
const final = new Map<string, { object: string; metadata: string }>();
for (const o of state) {
  if (o !== undefined) final.set(`${o.metadata.namespace}/${o.metadata.name}`, { object: apiJSON(o), metadata: `{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadata","metadata":${apiJSON(o.metadata)}}` });
}
const stats = { lists: 0, unfilteredLists: 0, nameLookups: 0, connections: 0, departures: Object.keys(truth).length };

function listPage(selector: boolean, limit: number, start: number): string {
  const indexes = selector ? selected.blue : selected.all;
  const end = limit > 0 ? Math.min(indexes.length, start + limit) : indexes.length;
  const metadata: Record<string, string> = { resourceVersion: listResourceVersion };
  if (end < indexes.length) metadata.continue = Buffer.from(String(end)).toString('base64url');
  const items = indexes.slice(start, end).map((i) => listItems[i]).join(',');
  return `{"apiVersion":"stable.example.com/v1","items":[${items}],"kind":"ShirtList","metadata":${apiJSON(metadata)}}`;
}

function json(res: http.ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function notFound(res: http.ServerResponse, name: string): void {
  json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `shirts.stable.example.com "${name}" not found`, reason: 'NotFound', code: 404 });
}

/** One object, as metadata only when asked (`as=PartialObjectMetadata`), from the final state. */
function lookup(res: http.ServerResponse, accept: string, namespace: string, name: string): void {
  stats.nameLookups++;
  const o = final.get(`${namespace}/${name}`);
  if (o === undefined) return notFound(res, name);
  const body = accept.includes('as=PartialObjectMetadata') ? o.metadata : o.object;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const byNamePath = /^\/apis\/stable\.example\.com\/v1\/namespaces\/([^/?]+)\/shirts\/([^/?]+)(?:\?|$)/;
const server = http.createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
  // Name lookups first, without parsing a URL: the thousands of them should cost the server little.
  // (Whatever their query: the final state is at least as fresh as any resourceVersion they name.)
  const byName = byNamePath.exec(req.url ?? '');
  if (byName !== null) return lookup(res, req.headers.accept ?? '', decodeURIComponent(byName[1]), decodeURIComponent(byName[2]));
  const url = new URL(req.url ?? '/', 'http://x');
  const q = url.searchParams;
  if (url.pathname === '/bench/truth') return json(res, 200, truth);
  if (url.pathname === '/bench/stats') return json(res, 200, stats);
  const fieldSelector = q.get('fieldSelector') ?? '';
  const labelSelector = q.get('labelSelector') ?? '';
  const inNamespace = /^\/apis\/stable\.example\.com\/v1\/namespaces\/([^/]+)\/shirts$/.exec(url.pathname);
  if (fieldSelector.startsWith('metadata.name=') && labelSelector === '' && q.get('watch') === null) {
    // A list restricted to one name: O(1), as the apiserver answers it.
    stats.nameLookups++;
    stats.lists++;
    const name = fieldSelector.slice('metadata.name='.length);
    const o = inNamespace === null ? undefined : final.get(`${decodeURIComponent(inNamespace[1])}/${name}`);
    const body = `{"apiVersion":"stable.example.com/v1","items":[${o === undefined ? '' : o.object}],"kind":"ShirtList","metadata":{"resourceVersion":"${finalResourceVersion}"}}`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  if ((fieldSelector !== '' && fieldSelector !== 'spec.color=blue') || (labelSelector !== '' && labelSelector !== 'color=blue')) {
    json(res, 400, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `field label not supported: ${fieldSelector}`, reason: 'BadRequest', code: 400 });
    return;
  }
  const selector = fieldSelector !== '' || labelSelector !== '';
  if (q.get('watch') !== 'true' && q.get('watch') !== '1') {
    stats.lists++;
    if (!selector) stats.unfilteredLists++;
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

server.on('connection', () => void stats.connections++);
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${port}`, finalResourceVersion, listResourceVersion, objectBytes: Math.round(listItems.reduce((n, s) => n + s.length, 0) / listItems.length), selected: selected.blue.length, departures: stats.departures, deletions: Object.values(truth).filter((r) => r === 'deleted').length, entries: streams.blue.toString().split('\n').filter((l) => l.startsWith('{"type":"ADDED"')).length }) + '\n');
});
process.on('SIGTERM', () => process.exit(0));
