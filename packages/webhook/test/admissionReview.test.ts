import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';
import { KubeError } from '@kubekit/core';
import { allow, deny, reviewAdmission, type AdmissionHandler, type JSONPatchOperation } from '@kubekit/webhook';
import { applyPatch } from './internal/applyPatch.js';

type Shirt = KubeObject<{ color?: string; size?: string }>;

function review(object: Shirt | undefined, extra: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'r-1', kind: { group: 'stable.example.com', version: 'v1', kind: 'Shirt' }, resource: { group: 'stable.example.com', version: 'v1', resource: 'shirts' },
      name: 'one', namespace: 'default', operation: 'CREATE', userInfo: { username: 'admin' }, object, ...extra,
    },
  };
}

const shirt: Shirt = { apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { name: 'one', namespace: 'default' }, spec: { color: 'blue' } };

function decodePatch(patch: string | undefined): JSONPatchOperation[] {
  return JSON.parse(Buffer.from(patch ?? '', 'base64').toString('utf8')) as JSONPatchOperation[];
}

describe('reviewAdmission', () => {
  it('allows with warnings and echoes the uid', async () => {
    const out = await reviewAdmission(review(shirt), () => allow(['size is unset']));
    expect(out).to.deep.equal({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'r-1', allowed: true, warnings: ['size is unset'] } });
  });

  it('allows when the handler returns nothing', async () => {
    expect((await reviewAdmission(review(shirt), () => undefined)).response).to.deep.equal({ uid: 'r-1', allowed: true });
  });

  it('denies with 403 Forbidden by default, in the apiserver Status shape', async () => {
    const out = await reviewAdmission(review(shirt), () => deny('blue shirts are sold out'));
    expect(out.response).to.deep.equal({ uid: 'r-1', allowed: false, status: { status: 'Failure', code: 403, reason: 'Forbidden', message: 'blue shirts are sold out' } });
    const custom = await reviewAdmission(review(shirt), () => deny('no', { code: 422, reason: 'Invalid' }));
    expect(custom.response!.status).to.include({ code: 422, reason: 'Invalid' });
  });

  it('denies with a thrown KubeError\'s code and reason, and with 500 for other errors', async () => {
    const kube = await reviewAdmission(review(shirt), () => { throw new KubeError('Conflict', 'inventory changed'); });
    expect(kube.response!.status).to.deep.equal({ status: 'Failure', code: 409, reason: 'Conflict', message: 'inventory changed' });
    const other = await reviewAdmission(review(shirt), () => { throw new Error('boom'); });
    expect(other.response).to.deep.include({ allowed: false, status: { status: 'Failure', code: 500, reason: 'InternalError', message: 'boom' } });
  });

  it('turns a mutating handler\'s returned object into a JSON patch against the request object', async () => {
    const handler: AdmissionHandler<Shirt> = (req) => ({ allowed: true, object: { ...req.object!, spec: { ...req.object!.spec, size: 'M' }, metadata: { ...req.object!.metadata, labels: { sized: 'true' } } } });
    const out = await reviewAdmission(review(shirt), handler, { mutating: true });
    expect(out.response!.patchType).to.equal('JSONPatch');
    const patch = decodePatch(out.response!.patch);
    expect(patch).to.deep.equal([
      { op: 'add', path: '/metadata/labels', value: { sized: 'true' } },
      { op: 'add', path: '/spec/size', value: 'M' },
    ]);
    expect(applyPatch(shirt, patch)).to.deep.equal({ ...shirt, metadata: { ...shirt.metadata, labels: { sized: 'true' } }, spec: { color: 'blue', size: 'M' } });
  });

  it('patches what a mutating handler changed in place, on its own copy of the object', async () => {
    const original = structuredClone(shirt);
    const out = await reviewAdmission(review(original), (req: { object?: Shirt }) => { req.object!.spec!.color = 'red'; }, { mutating: true });
    expect(decodePatch(out.response!.patch)).to.deep.equal([{ op: 'replace', path: '/spec/color', value: 'red' }]);
    expect(original).to.deep.equal(shirt);
  });

  it('sends no patch when nothing changed, and none from a validating handler', async () => {
    expect((await reviewAdmission(review(shirt), () => allow(), { mutating: true })).response).to.deep.equal({ uid: 'r-1', allowed: true });
    expect((await reviewAdmission(review(shirt), (req: { object?: Shirt }) => ({ allowed: true, object: { ...req.object!, spec: {} } }))).response).to.deep.equal({ uid: 'r-1', allowed: true });
  });

  it('passes dryRun, the operation and the old object to the handler', async () => {
    let seen: unknown;
    await reviewAdmission(review(shirt, { operation: 'UPDATE', dryRun: true, oldObject: shirt }), (req) => { seen = [req.dryRun, req.operation, req.oldObject?.metadata.name]; });
    expect(seen).to.deep.equal([true, 'UPDATE', 'one']);
  });

  it('refuses bodies that are not an AdmissionReview with a request', async () => {
    await reviewAdmission({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }, () => allow()).then(() => expect.fail(), (e: Error) => expect(e.message).to.equal('AdmissionReview has no request'));
    await reviewAdmission(review(shirt, { operation: 'PATCH' }), () => allow()).then(() => expect.fail(), (e: Error) => expect(e.message).to.match(/request.operation: Unsupported value: "PATCH"/));
  });
});
