// The client-side cost of one delete-reason lookup (a metadata-only GET by name over keep-alive
// HTTP), against a running bench server (`server.ts --churn`): kubekit's lookup path, ordinary and
// pipelined (as the informer sends them), next to the least node:http can do (a GET, the body read
// and JSON.parse'd) and the least a pipelined client can do (the same GETs written on one socket,
// the answers cut by Content-Length and JSON.parse'd, nothing else checked) and the transport alone (the
// same without decoding or parsing the bodies), measured in the same process, warm, as CPU µs and wall
// µs per lookup at a given concurrency.
//
// Usage: node --import tsx --conditions=kubekit-source bench/informer/lookupCost.ts --url http://127.0.0.1:PORT [--n 3000] [--concurrency 16]
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { ListerWatcher } from '@kubekit/informer';

const { values } = parseArgs({ options: { url: { type: 'string' }, n: { type: 'string', default: '3000' }, concurrency: { type: 'string', default: '16' }, rounds: { type: 'string', default: '3' } } });
const url = values.url!;
const n = Number(values.n);
const concurrency = Number(values.concurrency);
const accept = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json';
const names = Array.from({ length: n }, (_, i) => ({ namespace: `team-${(i * 13) % 10}`, name: `shirt-${String((i * 13) % 50_000).padStart(6, '0')}` }));

const agent = new http.Agent({ keepAlive: true });
function rawGet(namespace: string, name: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/apis/stable.example.com/v1/namespaces/${namespace}/shirts/${name}`, { agent, headers: { Accept: accept } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(body) : undefined));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The least a pipelined client does per GET: one request line and headers appended to the next
 * write (one write per turn of the event loop), the answer found by its Content-Length, its body
 * JSON.parse'd (unless `parse` is false: the transport alone), a promise per request. No error
 * handling, no timeouts: a floor, not a client.
 */
function leastPipelined(parse = true): (namespace: string, name: string) => Promise<unknown> {
  const target = new URL(url);
  const socket = net.connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  const waiting: ((body: unknown) => void)[] = [];
  let waitingHead = 0;
  let received: Buffer = Buffer.alloc(0);
  let pending = '';
  socket.on('data', (chunk: Buffer) => {
    received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
    let at = 0;
    for (;;) {
      const headEnd = received.indexOf('\r\n\r\n', at);
      if (headEnd === -1) break;
      const head = received.toString('latin1', at, headEnd);
      const lengthAt = head.toLowerCase().indexOf('content-length:');
      const length = Number(head.slice(lengthAt + 15, head.indexOf('\r\n', lengthAt) >>> 0).trim());
      if (received.length < headEnd + 4 + length) break;
      const body = parse ? received.toString('utf8', headEnd + 4, headEnd + 4 + length) : '';
      at = headEnd + 4 + length;
      waiting[waitingHead++](parse && head.startsWith('HTTP/1.1 200') ? JSON.parse(body) : undefined);
    }
    received = received.subarray(at);
    if (waitingHead === waiting.length) waiting.length = waitingHead = 0;
  });
  return (namespace, name) => new Promise((resolve) => {
    if (pending === '') setImmediate(() => {
      socket.write(pending, 'latin1');
      pending = '';
    });
    pending += `GET /apis/stable.example.com/v1/namespaces/${namespace}/shirts/${name}?resourceVersion=1 HTTP/1.1\r\nHost: ${target.host}\r\nAccept: ${accept}\r\n\r\n`;
    waiting.push(resolve);
  });
}

const kc = { getCurrentCluster: () => ({ server: url }), applyToHTTPSOptions: async () => {} };
const lw = new ListerWatcher(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts' }, { skipManagedFields: true });
const signal = new AbortController().signal;
setMaxListeners(0, signal); // one signal for every lookup in flight, as the informer's
const impls: Record<string, (namespace: string, name: string) => Promise<unknown>> = {
  'node:http': rawGet,
  kubekit: (namespace, name) => lw.get(name, { namespace, metadataOnly: true, signal }),
  'kubekit pipelined': (namespace, name) => lw.get(name, { namespace, metadataOnly: true, signal, pipelined: true, resourceVersion: '1' }),
  'least pipelined': leastPipelined(),
  'bytes only': leastPipelined(false),
};

async function round(get: (namespace: string, name: string) => Promise<unknown>): Promise<{ cpuUs: number; wallUs: number }> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) {
      const { namespace, name } = names[next++];
      await get(namespace, name);
    }
  }));
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / n, wallUs: ((performance.now() - t0) * 1000) / n };
}

const results = new Map<string, { cpuUs: number; wallUs: number }[]>(Object.keys(impls).map((k) => [k, []]));
for (const get of Object.values(impls)) await round(get); // warm-up
for (let r = 0; r < Number(values.rounds); r++) for (const [k, get] of Object.entries(impls)) results.get(k)!.push(await round(get));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.get('node:http')!.map((x) => x.cpuUs));
console.log(`${n} lookups per round, concurrency ${concurrency}, medians of ${values.rounds} rounds (round-robin)`);
for (const [k, xs] of results) {
  const cpu = median(xs.map((x) => x.cpuUs));
  console.log(`${k.padEnd(18)}CPU ${cpu.toFixed(0).padStart(5)} µs/lookup (×node:http ${(cpu / base).toFixed(2)}), wall ${median(xs.map((x) => x.wallUs)).toFixed(0).padStart(5)} µs/lookup`);
}
process.exit(0);
