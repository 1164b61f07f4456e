// Pod deletion on both servers, as the generic store deletes a kind with graceful deletion
// (podStrategy.CheckGracefulDelete, rest.BeforeDelete, Store.Delete and updateForGracefulDeletionAndFinalizers
// in k8s.io/apiserver 0.34.4): a pod a node runs (`spec.nodeName`) gets `deletionTimestamp` (now plus its
// grace period: the one asked for, else `terminationGracePeriodSeconds`) and `deletionGracePeriodSeconds`,
// and stays until a kubelet would end it; a later delete may only shorten the period; a pod no node runs,
// a finished one, or a period of 0 is written with the timestamp and then deleted (a watch sees both);
// removing the last finalizer ends a deletion only when no grace period is left; a collection delete
// answers the list as it was read. kubekit deleted every pod at once before; every expected answer here
// is kube-apiserver 1.34.4's to the same request.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Answer, type Send } from './sender.js';

const P = '/api/v1/namespaces/default/pods';
interface Pod { kind: string; metadata: { name: string; resourceVersion: string; generation?: number; deletionTimestamp?: string; deletionGracePeriodSeconds?: number; finalizers?: string[] }; status?: { phase?: string } }

const pod = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, ...meta }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });

/** What a deletion's answer says of the pod: whether it is deleting, its grace period, generation and finalizers. */
function deleting(a: Answer): [number, boolean, number | undefined, number | undefined, string[] | undefined] {
  const p = answered<Pod>(a, a.status);
  return [a.status, p.metadata.deletionTimestamp !== undefined, p.metadata.deletionGracePeriodSeconds, p.metadata.generation, p.metadata.finalizers];
}

async function run(s: Send): Promise<void> {
  // A pod no node runs: written with the deletion timestamp, then deleted; a watch sees both.
  const unscheduled = answered<Pod>(await s('POST', P, pod('unscheduled')), 201);
  const events = s('GET', `${P}?watch=1&resourceVersion=${unscheduled.metadata.resourceVersion}&timeoutSeconds=2`);
  expect(deleting(await s('DELETE', `${P}/unscheduled`))).to.deep.equal([200, true, 0, 2, undefined]);
  const seen = (await events).text.split('\n').filter((l) => l !== '').map((l) => {
    const e = JSON.parse(l) as { type: string; object: Pod };
    return [e.type, e.object.metadata.deletionGracePeriodSeconds];
  });
  expect(seen).to.deep.equal([['MODIFIED', 0], ['DELETED', 0]]);

  // A scheduled pod: its terminationGracePeriodSeconds (30 by default); then only a shorter period changes it.
  answered(await s('POST', P, pod('scheduled', { nodeName: 'node-1' })), 201);
  const before = Date.now();
  const first = await s('DELETE', `${P}/scheduled`);
  expect(deleting(first)).to.deep.equal([200, true, 30, 2, undefined]);
  const at = Date.parse(answered<Pod>(first).metadata.deletionTimestamp!);
  expect(at - before).to.be.within(28_000, 32_000);
  expect(deleting(await s('DELETE', `${P}/scheduled?gracePeriodSeconds=60`))).to.deep.equal([200, true, 30, 2, undefined]);
  expect(deleting(await s('DELETE', `${P}/scheduled`))).to.deep.equal([200, true, 30, 2, undefined]);
  expect(deleting(await s('DELETE', `${P}/scheduled?gracePeriodSeconds=10`))).to.deep.equal([200, true, 10, 2, undefined]);
  expect(deleting(await s('DELETE', `${P}/scheduled?gracePeriodSeconds=0&dryRun=All`))).to.deep.equal([200, true, 0, 2, undefined]);
  expect(answered<Pod>(await s('GET', `${P}/scheduled`)).metadata.deletionGracePeriodSeconds).to.equal(10);
  expect(deleting(await s('DELETE', `${P}/scheduled?gracePeriodSeconds=0`))).to.deep.equal([200, true, 0, 2, undefined]);
  expect((await s('GET', `${P}/scheduled`)).status).to.equal(404);

  // The period from the body, a negative one (1 s), the pod's own, a finished pod's (0), a dry run.
  answered(await s('POST', P, pod('body', { nodeName: 'node-1' })), 201);
  expect(deleting(await s('DELETE', `${P}/body`, JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 3 })))).to.deep.equal([200, true, 3, 2, undefined]);
  answered(await s('POST', P, pod('negative', { nodeName: 'node-1' })), 201);
  expect(deleting(await s('DELETE', `${P}/negative?gracePeriodSeconds=-5`))).to.deep.equal([200, true, 1, 2, undefined]);
  answered(await s('POST', P, pod('own', { nodeName: 'node-1', terminationGracePeriodSeconds: 0 })), 201);
  expect(deleting(await s('DELETE', `${P}/own`))).to.deep.equal([200, true, 0, 2, undefined]);
  expect((await s('GET', `${P}/own`)).status).to.equal(404);
  answered(await s('POST', P, pod('done', { nodeName: 'node-1' })), 201);
  answered(await s('PATCH', `${P}/done/status`, JSON.stringify({ status: { phase: 'Succeeded' } }), 'application/merge-patch+json'));
  expect(deleting(await s('DELETE', `${P}/done`))).to.deep.equal([200, true, 0, 2, undefined]);
  answered(await s('POST', P, pod('dry', { nodeName: 'node-1' })), 201);
  expect(deleting(await s('DELETE', `${P}/dry?dryRun=All`))).to.deep.equal([200, true, 30, 2, undefined]);
  expect(deleting(await s('GET', `${P}/dry`))).to.deep.equal([200, false, undefined, 1, undefined]);

  // Finalizers: the deletion waits for them; their removal ends it only with no grace period left.
  answered(await s('POST', P, pod('held', { nodeName: 'node-1' }, { finalizers: ['example.com/x'] })), 201);
  expect(deleting(await s('DELETE', `${P}/held`))).to.deep.equal([200, true, 30, 2, ['example.com/x']]);
  expect(deleting(await s('PATCH', `${P}/held`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json'))).to.deep.equal([200, true, 30, 2, undefined]);
  expect((await s('GET', `${P}/held`)).status).to.equal(200);
  answered(await s('POST', P, pod('held0', { nodeName: 'node-1' }, { finalizers: ['example.com/x'] })), 201);
  expect(deleting(await s('DELETE', `${P}/held0?gracePeriodSeconds=0`))).to.deep.equal([200, true, 0, 2, ['example.com/x']]);
  answered(await s('PATCH', `${P}/held0`, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json'));
  expect((await s('GET', `${P}/held0`)).status).to.equal(404);

  // A collection delete answers the pods as it listed them (the one it only now marked, unmarked).
  const list = answered<{ items: Pod[] }>(await s('DELETE', `${P}?labelSelector=`));
  expect(list.items.map((p) => [p.metadata.name, p.metadata.deletionGracePeriodSeconds ?? null])).to.deep.equal([['body', 3], ['dry', null], ['held', 30], ['negative', 1]]);
  const left = answered<{ items: Pod[] }>(await s('GET', P));
  expect(left.items.map((p) => [p.metadata.name, p.metadata.deletionGracePeriodSeconds ?? null])).to.deep.equal([['body', 3], ['dry', 30], ['held', 30], ['negative', 1]]);
}

describeOnBothServers('Pod graceful deletion', run);
