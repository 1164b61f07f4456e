// The KEP-575 integration scenario (staging/src/k8s.io/apiextensions-apiserver/test/integration/
// defaulting_test.go, testDefaulting): v1beta1 is served, v1beta2 is the storage version. Requests are
// defaulted with the request version's schema, reads from storage with the stored version's schema;
// defaults added to or removed from the schemas show up (or go away) on read unless persisted.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import type { KubeObject } from '@kubekit/core';
import { createCRD, fixture, start, type Client } from './internal/client.js';

interface Fixture { crd: KubeObject & { spec: { versions: { name: string; schema: { openAPIV3Schema: { properties: Record<string, { properties: Record<string, unknown> }> } } }[] } }; instance: KubeObject }

const fx = fixture<Fixture>('defaulting-integration.json');
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.tests.example.com';
const foos = '/apis/tests.example.com/v1beta1/foos';

function has(obj: unknown, path: string): boolean {
  let cur: unknown = obj;
  for (const p of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, p)) return false;
    cur = (cur as Record<string, unknown>)[p];
  }
  return true;
}

function expectFields(obj: unknown, present: string[], absent: string[] = []): void {
  for (const p of present) expect(has(obj, p), `${p} should exist`).to.equal(true);
  for (const p of absent) expect(has(obj, p), `${p} should not exist`).to.equal(false);
}

describe('startApiServer: the KEP-575 defaulting scenario', function () {
  this.timeout(20_000);
  let server: ApiServer;
  let client: Client;

  const updateCRD = async (mutate: (crd: Fixture['crd']) => void): Promise<void> => {
    const crd = (await client.get(crdPath)).body as Fixture['crd'];
    mutate(crd);
    const r = await client.put(crdPath, crd);
    expect(r.status, r.text).to.equal(200);
    await server.idle();
  };
  const setDefault = (version: string, key: string, value: string | undefined) => updateCRD((crd) => {
    const v = crd.spec.versions.find((x) => x.name === version)!;
    for (const root of ['spec', 'status']) {
      const props = v.schema.openAPIV3Schema.properties[root].properties;
      props[key] = value === undefined ? { type: 'string' } : { type: 'string', default: value };
    }
  });

  before(async () => {
    ({ server, client } = await start());
    await createCRD(server, client, fx.crd);
  });

  after(async () => {
    await server.close();
  });

  it('defaults on create with the request version and on read with the storage version', async () => {
    const foo = structuredClone(fx.instance) as KubeObject & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    foo.spec = { a: 'a' };
    foo.status = { b: 'b' };
    const created = await client.post(foos, foo);
    expect(created.status, created.text).to.equal(201);
    // spec.v1beta1 is defaulted when decoding the request, spec.v1beta2 when reading the storage response;
    // status is dropped on create (status subresource).
    expectFields(created.body, ['spec.a', 'spec.b', 'spec.v1beta1', 'spec.v1beta2', 'spec.replicas'], ['status']);
    expect(created.body.spec).to.deep.include({ a: 'a', b: 'B', v1beta1: 'v1beta1', v1beta2: 'v1beta2', replicas: 1 });
    expect(created.body.apiVersion).to.equal('tests.example.com/v1beta1');

    const withStatus = { ...created.body, status: {} };
    const updated = await client.put(`${foos}/foo/status`, withStatus);
    expect(updated.status, updated.text).to.equal(200);
    expectFields(updated.body, ['spec.a', 'spec.b', 'status.a', 'status.b', 'status.replicas']);
  });

  it('shows a default added to the storage version on get, list and watch', async () => {
    const before = (await client.get(`${foos}/foo`)).body as KubeObject;
    const initialResourceVersion = Number(before.metadata.resourceVersion) - 1;
    await setDefault('v1beta2', 'c', 'C');
    const all = ['spec.a', 'spec.b', 'spec.c', 'status.a', 'status.b', 'status.c'];
    expectFields((await client.get(`${foos}/foo`)).body, all);
    expectFields((await client.get(`${foos}/foo?resourceVersion=0`)).body, all);
    for (const item of (await client.get(foos)).body.items) expectFields(item, all);
    for (const item of (await client.get(`${foos}?resourceVersion=0`)).body.items) expectFields(item, all);

    const w = await client.watch(`${foos}?watch=true&resourceVersion=${initialResourceVersion}`);
    try {
      const event = await w.next();
      expect(event.type).to.equal('MODIFIED');
      expect(event.object.apiVersion).to.equal('tests.example.com/v1beta1');
      expectFields(event.object, all);
    } finally {
      w.close();
    }
  });

  it('stops showing a default removed from the storage version unless it was persisted', async () => {
    await setDefault('v1beta1', 'c', 'C');
    await setDefault('v1beta2', 'c', undefined);
    const foo = (await client.get(`${foos}/foo`)).body;
    expectFields(foo, ['spec.a', 'spec.b', 'status.a', 'status.b'], ['spec.c', 'status.c']);

    // A status update is defaulted with the request version (v1beta1 has c now): only status changes.
    const updated = await client.put(`${foos}/foo/status`, foo);
    expect(updated.status, updated.text).to.equal(200);
    expectFields(updated.body, ['spec.a', 'spec.b', 'status.a', 'status.b', 'status.c'], ['spec.c']);
  });

  it('keeps persisted defaults when the request version drops them', async () => {
    await setDefault('v1beta1', 'a', undefined);
    await setDefault('v1beta1', 'b', undefined);
    await setDefault('v1beta1', 'c', undefined);
    const foo = (await client.get(`${foos}/foo`)).body;
    expectFields(foo, ['spec.a', 'spec.b', 'status.a', 'status.b', 'status.c'], ['spec.c']);
  });
});
