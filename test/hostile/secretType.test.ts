// A Secret's type defaulted as SetDefaults_Secret does (pkg/apis/core/v1/defaults.go), on both servers: at
// decoding, so on every write and not on create alone. A Secret written without `type` (a PUT of a
// manifest that leaves it out, as `kubectl replace` sends it; a merge patch to null; a JSON patch removing
// it; an apply) is Opaque, and so is not a change of the immutable type; and the writer's managed fields
// own `f:type`. kubekit defaulted it only on create: a PUT without `type` was refused as `type: Invalid
// value: "": field is immutable`, and a create's managed fields left `f:type` out. Every expected answer is
// kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Send } from './sender.js';

const S = '/api/v1/namespaces/default/secrets';
interface Secret { type?: string; data?: Record<string, string>; metadata: { managedFields?: { manager: string; operation: string; fieldsV1: unknown }[] } }
const shape = (o: Secret): unknown[] => [o.type, o.data, o.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1])];
const secret = (name: string, fields: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, ...fields });

async function run(s: Send): Promise<void> {
  const byUnknown = (key: string): unknown[] => ['unknown', 'Update', { 'f:data': { '.': {}, [`f:${key}`]: {} }, 'f:type': {} }];
  expect(shape(answered<Secret>(await s('POST', S, secret('a', { stringData: { k: 'v' } })), 201))).to.deep.equal(['Opaque', { k: 'dg==' }, [byUnknown('k')]]);
  expect(shape(answered<Secret>(await s('PUT', `${S}/a`, secret('a', { data: { z: 'dg==' } }))))).to.deep.equal(['Opaque', { z: 'dg==' }, [byUnknown('z')]]);
  for (const [body, type] of [
    [JSON.stringify({ type: null }), 'application/merge-patch+json'],
    [JSON.stringify([{ op: 'remove', path: '/type' }]), 'application/json-patch+json'],
    [JSON.stringify({ type: '' }), 'application/strategic-merge-patch+json'],
  ]) expect(shape(answered<Secret>(await s('PATCH', `${S}/a`, body, type))), type).to.deep.equal(['Opaque', { z: 'dg==' }, [byUnknown('z')]]);
  expect(shape(answered<Secret>(await s('PATCH', `${S}/a?fieldManager=m&force=true`, secret('a', { data: { z: 'dw==' } }), 'application/apply-patch+yaml')))).to.deep.equal(
    ['Opaque', { z: 'dw==' }, [['m', 'Apply', { 'f:data': { 'f:z': {} } }], ['unknown', 'Update', { 'f:data': {}, 'f:type': {} }]]]);
  // A type given is still immutable; an apply of an empty type creates an Opaque Secret it owns the type of.
  refused(await s('PUT', `${S}/a`, secret('a', { type: 'example.com/x' })), 'Secret "a" is invalid: type: Invalid value: "example.com/x": field is immutable');
  expect(shape(answered<Secret>(await s('PATCH', `${S}/c?fieldManager=m`, secret('c', { type: '' }), 'application/apply-patch+yaml'), 201))).to.deep.equal(
    ['Opaque', undefined, [['m', 'Apply', { 'f:type': {} }]]]);
}

describeOnBothServers('a Secret\'s type defaulted at decoding, on every write', run);
