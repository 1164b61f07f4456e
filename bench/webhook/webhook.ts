// Webhook benchmarks, each beside a baseline measured in the same run:
// 1. conversions per second of a 1,000-object ConversionReview (parse, hub-and-spoke conversion of every
//    object with the apiserver's metadata rules, serialise) vs a plain JSON.parse + JSON.stringify of the
//    same review text (target: ratio >= 0.5);
// 2. admission latency (p50, p99) of a validating webhook on loopback with 50 requests in flight, vs a bare
//    HTTPS echo server (same certificate, same client, same body).
// Run: node --import tsx --conditions=kubekit-source bench/webhook/webhook.ts
import { createServer } from 'node:https';
import { Agent, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseJSON, stringifyJSON, type KubeObject } from '@kubekit/core';
import { CustomResource, CustomResourceObject, Field, Selectable, hubAndSpokeConversion } from '@kubekit/decorators';
import { allow, generateCertificates, reviewConversion, startWebhookServer } from '@kubekit/webhook';

class SpecV1 {
  @Selectable() @Field('string') color?: Selectable<string>;
  @Field('string') size?: string;
  @Field('integer') quantity?: number;
}
@CustomResource({ group: 'bench.example.com', version: 'v1', kind: 'Shirt', storage: true })
class ShirtV1 extends CustomResourceObject {
  @Field(() => SpecV1) spec?: SpecV1;
}
class SpecV1beta1 {
  @Selectable() @Field('string') hue?: Selectable<string>;
  @Field('string') size?: string;
  @Field('integer') quantity?: number;
}
@CustomResource({ group: 'bench.example.com', version: 'v1beta1', kind: 'Shirt' })
class ShirtV1beta1 extends CustomResourceObject {
  @Field(() => SpecV1beta1) spec?: SpecV1beta1;
}
const conversion = hubAndSpokeConversion(ShirtV1).spoke(ShirtV1beta1, {
  toHub: ({ spec }) => {
    const { hue, ...rest } = spec ?? {};
    return { spec: { ...rest, color: hue } };
  },
  fromHub: ({ spec }) => {
    const { color, ...rest } = spec ?? {};
    return { spec: { ...rest, hue: color } };
  },
});

function shirt(i: number): KubeObject {
  return {
    apiVersion: 'bench.example.com/v1beta1', kind: 'Shirt',
    metadata: {
      name: `shirt-${i}`, namespace: 'default', uid: `6f1c2d3e-0000-4000-8000-${String(i).padStart(12, '0')}`, resourceVersion: String(1000 + i), generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'shop', tier: i % 2 === 0 ? 'web' : 'db' }, annotations: { 'example.com/note': `shirt number ${i}` },
    },
    spec: { hue: ['red', 'green', 'blue'][i % 3], size: 'M', quantity: i },
    status: { phase: 'Ready' },
  };
}

async function rate(fn: () => Promise<unknown> | unknown, minMs = 1500): Promise<number> {
  const warm = performance.now() + 300;
  while (performance.now() < warm) await fn();
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < minMs / 5) {
      await fn();
      n++;
    }
    samples.push(n / ((performance.now() - start) / 1000));
  }
  samples.sort((a, b) => a - b);
  return samples[2];
}

async function conversionThroughput(): Promise<void> {
  const objects = Array.from({ length: 1000 }, (_, i) => shirt(i));
  const text = JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'bench', desiredAPIVersion: 'bench.example.com/v1', objects } });
  const check = parseJSON(stringifyJSON(await reviewConversion(parseJSON(text), conversion))) as { response: { convertedObjects: KubeObject[] } };
  if (check.response.convertedObjects.length !== 1000 || (check.response.convertedObjects[7].spec as { color: string }).color !== 'green') throw new Error('the conversion is wrong');
  const baseline = await rate(() => JSON.stringify(JSON.parse(text)));
  const kubekit = await rate(async () => stringifyJSON(await reviewConversion(parseJSON(text), conversion)));
  console.log(`review: 1000 objects, ${(text.length / 1024).toFixed(0)} KiB`);
  console.log(`JSON.parse + JSON.stringify (baseline)   ${(baseline * 1000).toFixed(0).padStart(9)} objects/s`);
  console.log(`reviewConversion (parse, convert, write) ${(kubekit * 1000).toFixed(0).padStart(9)} conversions/s`);
  console.log(`ratio conversions/s vs parse+stringify: ${(kubekit / baseline).toFixed(2)} (target >= 0.5)`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function latencies(url: string, ca: string, body: string, total: number, concurrency: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, ca });
  const one = (): Promise<number> => new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
  const out: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      out.push(await one());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker)); // warm-up round
  out.length = 0;
  next = 0;
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return out.sort((a, b) => a - b);
}

async function admissionLatency(): Promise<void> {
  const certs = generateCertificates();
  const ca = certs.caCert;
  const review = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'bench', kind: { group: 'bench.example.com', version: 'v1', kind: 'Shirt' }, resource: { group: 'bench.example.com', version: 'v1', resource: 'shirts' },
      name: 'shirt-1', namespace: 'default', operation: 'CREATE', userInfo: { username: 'admin' }, object: { ...shirt(1), apiVersion: 'bench.example.com/v1' }, dryRun: false,
    },
  });
  const echo = createServer({ cert: certs.cert, key: certs.key, minVersion: 'TLSv1.2' }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = Buffer.concat(chunks);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': out.length });
      res.end(out);
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  const echoURL = `https://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
  const webhook = await startWebhookServer({ tls: { cert: certs.cert, key: certs.key, caBundle: certs.caBundle }, validate: (req: { object?: KubeObject }) => (req.object?.spec === undefined ? { allowed: false, message: 'no spec' } : allow()) });
  const total = 5000;
  const concurrency = 50;
  // Interleaved rounds, so that neither server profits from running later (a warmer JIT, a quieter machine);
  // the second round of each is reported.
  let base: number[] = [];
  let mine: number[] = [];
  for (let round = 0; round < 2; round++) {
    base = await latencies(echoURL, ca, review, total, concurrency);
    mine = await latencies(`${webhook.url}/validate`, ca, review, total, concurrency);
  }
  echo.closeAllConnections();
  echo.close();
  await webhook.close();
  const row = (label: string, l: number[]): void => console.log(`${label.padEnd(34)} p50 ${percentile(l, 0.5).toFixed(2).padStart(7)} ms   p99 ${percentile(l, 0.99).toFixed(2).padStart(7)} ms`);
  console.log(`${total} requests, ${concurrency} in flight, keep-alive, loopback, ${review.length} byte review`);
  row('bare HTTPS echo server (baseline)', base);
  row('kubekit /validate', mine);
  console.log(`ratio p99 kubekit vs echo: ${(percentile(mine, 0.99) / percentile(base, 0.99)).toFixed(2)}`);
  console.log(`ratio p50 kubekit vs echo: ${(percentile(mine, 0.5) / percentile(base, 0.5)).toFixed(2)}`);
}

await conversionThroughput();
await admissionLatency();
