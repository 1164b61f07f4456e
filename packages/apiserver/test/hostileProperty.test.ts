// Issue 15: a property test that throws `__proto__`, `constructor` and `prototype` (with ordinary keys)
// at every write path of the embedded server over HTTP (create, update, merge patch, JSON patch,
// strategic merge patch, apply, status, scale, defaulting) and at the defaulter directly, and checks
// after every request that no prototype changed, that nothing answered 5xx, and that every object the
// server acknowledged is still there.
import { expect } from 'chai';
import fc from 'fast-check';
import type { ApiServer } from '@kubekit/apiserver';
import { applyDefaults, compileSchema, defaultAndPrune, prune } from '@kubekit/defaulter';
import { parseJSON } from '@kubekit/core';
import { Client, createCRD, start } from './internal/client.js';
import { expectPristinePrototypes, prototypeKeys, widgetCRD, widgets } from './internal/hostile.js';

/** A JSON value as a tree, so that keys such as `__proto__` reach the wire exactly as written. */
type Tree = null | boolean | number | string | { obj: [string, Tree][] } | { arr: Tree[] };

const key = fc.oneof(fc.constantFrom(...prototypeKeys, '__defineGetter__', 'toString', 'valueOf', 'hasOwnProperty', 'isAdmin', 'polluted', 'deletionTimestamp', 'replicas', 'status', 'spec'), fc.string({ maxLength: 6 }));
const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<Tree>(null, true, 1, 'x', '2020-01-01T00:00:00Z'),
    fc.record({ obj: fc.array(fc.tuple(key, tie('tree')), { maxLength: 4 }) }),
    fc.record({ arr: fc.array(tie('tree'), { maxLength: 3 }) }),
  ),
}));
const objectTree = fc.record({ obj: fc.array(fc.tuple(key, tree), { minLength: 1, maxLength: 4 }) });

/** JSON text of a tree, keys written as given (a `__proto__` key is a member, as in Go). */
function text(t: Tree): string {
  if (t === null || typeof t !== 'object') return JSON.stringify(t);
  if ('arr' in t) return `[${t.arr.map(text).join(',')}]`;
  return `{${t.obj.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',')}}`;
}

/** A JSON pointer through keys. */
const pointer = (keys: readonly string[]): string => keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

describe('hostile input: prototype keys at every write path (property)', function () {
  this.timeout(120_000);
  let server: ApiServer;
  let client: Client;
  const acknowledged = new Set<string>();

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, widgetCRD());
  });

  after(async () => {
    await server.close();
    expectPristinePrototypes();
  });

  async function send(method: string, path: string, body: string, contentType = 'application/json'): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await client.request(method, path, body, contentType);
    expectPristinePrototypes();
    expect(res.status, `${method} ${path} ${contentType} ${body.slice(0, 400)} → ${res.text.slice(0, 400)}`).to.be.below(500);
    return res;
  }

  it('never lets a request reach a prototype, never answers 5xx, and loses no acknowledged object', async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(objectTree, tree, fc.array(key, { minLength: 1, maxLength: 3 }), fc.constantFrom(...prototypeKeys), async (top, data, path, pkey) => {
      const name = `w${run++}`;
      const base = `${widgets()}/${name}`;
      const meta = `"metadata":{"name":"${name}",${JSON.stringify(pkey)}:${text(data)},"labels":{"a":"b"},"annotations":{${JSON.stringify(pkey)}:"x"}}`;
      const spec = `"spec":{${JSON.stringify(pkey)}:${text(data)},"data":${text(top)},"labels":{${JSON.stringify(pkey)}:null,"k":null},"replicas":2}`;
      const extra = top.obj.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',');
      const body = `{"apiVersion":"hostile.example.com/v1","kind":"Widget",${extra},${meta},${spec}}`;
      // create (defaulting runs over the user's keys in spec.labels: additionalProperties has a default)
      const created = await send('POST', widgets(), body);
      if (created.status !== 201) return;
      acknowledged.add(name);
      // update
      const rv = created.body.metadata.resourceVersion as string;
      await send('PUT', base, body.replace(`"name":"${name}"`, `"name":"${name}","resourceVersion":"${rv}"`));
      // merge patch, with the random object at the root and under spec and metadata
      await send('PATCH', base, `{"spec":{"data":${text(top)}},"metadata":${text(top)},${extra}}`, 'application/merge-patch+json');
      // JSON patch through prototype keys: add, copy, move, replace, remove, test
      const p = pointer(path);
      await send('PATCH', base, JSON.stringify([{ op: 'add', path: `/spec/data${p}`, value: parseJSON(text(data)) }]), 'application/json-patch+json');
      await send('PATCH', base, `[{"op":"add","path":"/spec/data/${pkey}","value":${text(data)}},{"op":"copy","from":"/spec/data/${pkey}","path":"/spec/${pkey}"},{"op":"move","from":"/spec/${pkey}","path":"${pointer([pkey, ...path])}"},{"op":"replace","path":"/spec/data/${pkey}","value":1},{"op":"test","path":"/spec/data/${pkey}","value":1},{"op":"remove","path":"/spec/data/${pkey}"}]`, 'application/json-patch+json');
      // apply (create, then update) with prototype keys at the root and in spec
      await send('PATCH', `${base}-applied?fieldManager=m`, body.replace(`"name":"${name}"`, `"name":"${name}-applied"`), 'application/apply-patch+yaml');
      await send('PATCH', `${base}?fieldManager=m`, body, 'application/apply-patch+yaml');
      await send('PATCH', `${base}?fieldManager=m`, `apiVersion: hostile.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\n${pkey}:\n  polluted: yes\nspec:\n  ${pkey}:\n    isAdmin: true\n  data:\n    ${pkey}: {deletionTimestamp: now}\n`, 'application/apply-patch+yaml');
      // status: patch and replace
      await send('PATCH', `${base}/status`, `{"status":${text(top)},${extra}}`, 'application/merge-patch+json');
      const current = await client.get(base);
      if (current.status === 200) {
        await send('PUT', `${base}/status`, `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"${name}","resourceVersion":"${current.body.metadata.resourceVersion}"},"status":{"replicas":1,${JSON.stringify(pkey)}:${text(data)}},${extra}}`);
      }
      // scale: replace and patch
      await send('PUT', `${base}/scale`, `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"${name}",${JSON.stringify(pkey)}:${text(data)}},"spec":{"replicas":3,${JSON.stringify(pkey)}:${text(data)}},${extra}}`);
      await send('PATCH', `${base}/scale`, `{"spec":{"replicas":4,${JSON.stringify(pkey)}:${text(data)}}}`, 'application/merge-patch+json');
      // strategic merge patch of a built-in kind: prototype keys as ConfigMap data, labels and directives
      const cm = `/api/v1/namespaces/default/configmaps/${name}`;
      const cmCreated = await send('POST', '/api/v1/namespaces/default/configmaps', `{"metadata":{"name":"${name}"},"data":{${JSON.stringify(pkey)}:"v"}}`);
      if (cmCreated.status === 201) acknowledged.add(`cm/${name}`);
      await send('PATCH', cm, `{"data":{${JSON.stringify(pkey)}:"w","k":"v"},"metadata":{"annotations":{${JSON.stringify(pkey)}:"x"},${JSON.stringify(pkey)}:${text(data)}},"$patch":"merge",${extra}}`, 'application/strategic-merge-patch+json');
      await send('PATCH', cm, `{"$setElementOrder/${pkey}":[],"data":${text(top)}}`, 'application/strategic-merge-patch+json');
    }), { numRuns: 25, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: false, seed: 15 });
    // Every acknowledged object is still there, and the default namespace still works.
    for (const name of acknowledged) {
      const path = name.startsWith('cm/') ? `/api/v1/namespaces/default/configmaps/${name.slice(3)}` : `${widgets()}/${name}`;
      const res = await client.get(path);
      expect(res.status, path).to.equal(200);
      expect(res.body.metadata.deletionTimestamp, path).to.equal(undefined);
    }
    expect(acknowledged.size).to.be.greaterThan(5);
    const ns = await client.get('/api/v1/namespaces/default');
    expect(ns.body.status.phase).to.equal('Active');
  });

  it('defaults and prunes objects with prototype keys without touching a prototype (the defaulter directly)', () => {
    const schema = (widgetCRD().spec as { versions: { schema: { openAPIV3Schema: Record<string, unknown> } }[] }).versions[0].schema.openAPIV3Schema;
    const hostileSchema = { type: 'object', properties: { spec: { type: 'object', properties: { __proto__: { type: 'object', properties: { isAdmin: { type: 'boolean', default: true } } }, constructor: { type: 'string', default: 'c' } }, additionalProperties: { type: 'object', properties: { polluted: { type: 'string', default: 'x' } } } } } };
    // A schema with a `__proto__` property, as JSON.parse reads a CRD that declares one.
    const parsedSchema = parseJSON(JSON.stringify(hostileSchema).replace('"properties":{"__proto__"', '"properties":{"__proto__"')) as Record<string, unknown>;
    const compiled = compileSchema(schema);
    const compiledHostile = compileSchema(parsedSchema);
    fc.assert(fc.property(objectTree, (t) => {
      const make = (): Record<string, unknown> => parseJSON(`{"apiVersion":"v1","kind":"K","metadata":{"name":"n"},"spec":${text(t)},"status":${text(t)},${t.obj.map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(',')}}`) as Record<string, unknown>;
      for (const s of [schema, parsedSchema]) {
        const a = make();
        applyDefaults(a, s);
        prune(make(), s, { isResourceRoot: true });
        defaultAndPrune(make(), s, { isResourceRoot: true });
      }
      compiled.defaultAndPrune(make(), { isResourceRoot: true });
      compiledHostile.defaultAndPrune(make(), { isResourceRoot: true });
      expectPristinePrototypes();
    }), { numRuns: 300, seed: 15 });
  });
});
