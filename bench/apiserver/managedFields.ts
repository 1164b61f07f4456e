// What managed-fields bookkeeping costs plain writes, all measured in one run:
//
// 1. over HTTP: creates and merge-patch updates of custom resources (a Deployment-like spec with an
//    associative list, a set, a map and labels) by 16 clients, against a server with managed fields
//    on and one with them off (`managedFields: false`); the ratio is the slowdown of a write;
// 2. in process: `updateManagedFields` for a create and for an update of the same object, against
//    `structuredClone` of it (a floor every write pays several times over).
//
// Rounds alternate between the two servers so that machine load hits both alike.
//
// Run: node --import tsx --conditions=kubekit-source bench/apiserver/managedFields.ts
import { Agent, request } from 'node:http';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { updateManagedFields } from '../../packages/apiserver/src/managedFields/fieldManager.js';
import { typeFromStructuralSchema } from '../../packages/apiserver/src/managedFields/schema.js';
import { measure, ratio, report } from '../internal/measure.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' }, image: { type: 'string' }, n: { type: 'integer' },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } } },
        hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
      },
    },
  },
} as const;

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'apps.bench.example.com' },
  spec: {
    group: 'bench.example.com', scope: 'Namespaced', names: { plural: 'apps', singular: 'app', kind: 'App' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
  },
};
const apps = '/apis/bench.example.com/v1/namespaces/default/apps';

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call(base: string, method: string, path: string, body: unknown, contentType = 'application/json'): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = request(base + path, { method, agent, headers: { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
}

function app(i: number): KubeObject {
  return {
    apiVersion: 'bench.example.com/v1', kind: 'App', metadata: { name: `app-${i}`, labels: { app: 'bench', tier: `t${i % 5}` }, annotations: { note: 'x' } },
    spec: {
      replicas: 3, image: 'nginx:1.25', n: i,
      ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }, { name: 'metrics', port: 9090 }],
      hosts: ['a.example.com', 'b.example.com'], env: { A: '1', B: '2', C: '3' }, args: ['--verbose', '--port=80'],
    },
  } as KubeObject;
}

/** Creates then updates `count` objects with `concurrency` clients; returns writes per second. */
async function writes(server: ApiServer, from: number, count: number, concurrency: number): Promise<number> {
  let next = from;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < from + count) {
      const i = next++;
      const created = await call(server.url, 'POST', `${apps}?fieldManager=bench`, app(i));
      if (created !== 201) throw new Error(`create ${i}: ${created}`);
      const updated = await call(server.url, 'PATCH', `${apps}/app-${i}?fieldManager=editor`, { spec: { n: i + 1, env: { D: '4' } } }, 'application/merge-patch+json');
      if (updated !== 200) throw new Error(`update ${i}: ${updated}`);
    }
  }));
  return (2 * count) / ((performance.now() - started) / 1000);
}

async function overHTTP(): Promise<void> {
  const on = await startApiServer();
  const off = await startApiServer({ managedFields: false });
  for (const s of [on, off]) {
    if (await call(s.url, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd) !== 201) throw new Error('CRD');
    await s.idle();
  }
  const count = 1000;
  const rounds = 5;
  const rates: { on: number[]; off: number[] } = { on: [], off: [] };
  // Warm-up, then alternate.
  await writes(on, 0, 200, 16);
  await writes(off, 0, 200, 16);
  for (let r = 0; r < rounds; r++) {
    const from = 1000 + r * count;
    rates.on.push(await writes(on, from, count, 16));
    rates.off.push(await writes(off, from, count, 16));
  }
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`writes/s (16 clients, creates + merge-patch updates, median of ${rounds} rounds of ${2 * count}): managed fields on ${med(rates.on).toFixed(0)}, off ${med(rates.off).toFixed(0)}`);
  console.log(`ratio write time with/without managed fields: ${(med(rates.off) / med(rates.on)).toFixed(2)}`);
  await on.close();
  await off.close();
}

function inProcess(): void {
  const type = typeFromStructuralSchema(schema as never);
  const ctx = { type, apiVersion: 'bench.example.com/v1', subresource: '', now: '2026-01-01T00:00:00Z' };
  const objects = Array.from({ length: 50 }, (_, i) => app(i));
  const created = objects.map((o) => ({ ...o, metadata: { ...o.metadata, managedFields: updateManagedFields(undefined, o, 'bench', ctx) } }) as KubeObject);
  const updates = created.map((o) => [o, { ...o, spec: { ...(o.spec as object), n: 1, env: { A: '1', B: '2', C: '3', D: '4' } } } as KubeObject] as const);
  const clone = measure('structuredClone(object)', objects, (o) => structuredClone(o));
  const create = measure('updateManagedFields (create)', objects, (o) => updateManagedFields(undefined, o, 'bench', ctx));
  const update = measure('updateManagedFields (update)', updates, ([old, next]) => updateManagedFields(old, next, 'bench', ctx));
  report([clone, create, update]);
  ratio('create bookkeeping / structuredClone', create, clone);
  ratio('update bookkeeping / structuredClone', update, clone);
}

inProcess();
await overHTTP();
