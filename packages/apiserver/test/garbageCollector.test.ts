// The garbage collector of owner references, after upstream's test/integration/garbagecollector/
// garbage_collector_test.go (TestCascadingDeletion, TestCreateWithNonExistentOwner, TestOrphaning,
// TestSolidOwnerDoesNotBlockWaitingOwner, TestNonBlockingOwnerRefDoesNotBlock,
// TestBlockingOwnerRefDoesBlock) and the DeleteOptions handling of registry/generic/registry/store.go
// (deletionFinalizersForGarbageCollection). Waits use server.idle(), never sleeps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client, type LooseObject } from './internal/client.js';

const cms = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';

function ownerRef(owner: LooseObject, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, ...extra };
}

describe('garbage collector', () => {
  let server: ApiServer;
  let client: Client;

  beforeEach(async () => {
    ({ server, client } = await start());
  });

  afterEach(async () => {
    await server.close();
  });

  async function configMap(name: string, owners: Record<string, unknown>[] = []): Promise<LooseObject> {
    const r = await client.post(cms, { metadata: { name, ownerReferences: owners.length > 0 ? owners : undefined } });
    expect(r.status, r.text).to.equal(201);
    return r.body as LooseObject;
  }

  async function exists(path: string): Promise<LooseObject | undefined> {
    const r = await client.get(path);
    return r.status === 200 ? r.body as LooseObject : undefined;
  }

  it('deletes dependents in the background once their owner is gone (TestCascadingDeletion)', async () => {
    const owner = await configMap('owner');
    const other = await configMap('other');
    await configMap('dep-only', [ownerRef(owner)]);
    await configMap('dep-two', [ownerRef(owner), ownerRef(other)]);
    expect((await client.delete(`${cms}/owner`)).status).to.equal(200);
    await server.idle();
    expect(await exists(`${cms}/dep-only`)).to.equal(undefined);
    const kept = await exists(`${cms}/dep-two`);
    expect(kept?.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['other']);
  });

  it('deletes an object created with an owner that does not exist (TestCreateWithNonExistentOwner)', async () => {
    await configMap('orphaned', [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nobody', uid: 'no-such-uid' }]);
    await server.idle();
    expect(await exists(`${cms}/orphaned`)).to.equal(undefined);
  });

  it('keeps objects whose owner kind is not served', async () => {
    await configMap('unresolvable', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u' }]);
    await server.idle();
    expect(await exists(`${cms}/unresolvable`)).to.not.equal(undefined);
  });

  it('orphans dependents with propagationPolicy=Orphan through the orphan finalizer (TestOrphaning)', async () => {
    const owner = await configMap('owner');
    await configMap('dep', [ownerRef(owner), { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u' }]);
    const deleted = await client.delete(`${cms}/owner`, { propagationPolicy: 'Orphan' });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.metadata.finalizers).to.deep.equal(['orphan']);
    expect(deleted.body.metadata.deletionTimestamp).to.be.a('string');
    await server.idle();
    expect(await exists(`${cms}/owner`)).to.equal(undefined);
    const dep = await exists(`${cms}/dep`);
    expect(dep?.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['w']);
  });

  it('orphans the pods of a batch/v1 Job deleted without a policy (its default), not with Background', async () => {
    const job = (await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'j' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } } })).body as LooseObject;
    const pod = (name: string, owner: LooseObject): unknown => ({ metadata: { name, ownerReferences: [ownerRef(owner, { controller: true, blockOwnerDeletion: true })] }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    await client.post(pods, pod('kept', job));
    const deleted = await client.delete('/apis/batch/v1/namespaces/default/jobs/j');
    expect(deleted.body.metadata.finalizers).to.deep.equal(['orphan']);
    expect(deleted.headers.get('warning')).to.equal('299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"');
    await server.idle();
    expect((await exists(`${pods}/kept`))?.metadata.ownerReferences).to.equal(undefined);
    const job2 = (await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'j2' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } } })).body as LooseObject;
    await client.post(pods, pod('gone', job2));
    await client.delete('/apis/batch/v1/namespaces/default/jobs/j2?propagationPolicy=Background');
    await server.idle();
    expect(await exists(`${pods}/gone`)).to.equal(undefined);
  });

  it('orphans the pods of a core/v1 ReplicationController deleted without a policy (v1\'s default), without the Jobs\' warning', async () => {
    const rcs = '/api/v1/namespaces/default/replicationcontrollers';
    const spec = { template: { metadata: { labels: { app: 'r' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } };
    const rc = (await client.post(rcs, { metadata: { name: 'r' }, spec })).body as LooseObject;
    await client.post(pods, { metadata: { name: 'kept', ownerReferences: [ownerRef(rc, { controller: true, blockOwnerDeletion: true })] }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const deleted = await client.delete(`${rcs}/r`);
    expect([deleted.body.metadata.finalizers, deleted.headers.get('warning')]).to.deep.equal([['orphan'], null]);
    await server.idle();
    expect(await exists(`${rcs}/r`)).to.equal(undefined);
    expect((await exists(`${pods}/kept`))?.metadata.ownerReferences).to.equal(undefined);
  });

  it('collects the ControllerRevisions and PodTemplates of a deleted StatefulSet', async () => {
    const sts = (await client.post('/apis/apps/v1/namespaces/default/statefulsets', {
      metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    })).body as LooseObject;
    const owned = { name: 'web-1', ownerReferences: [ownerRef(sts, { controller: true, blockOwnerDeletion: true })] };
    const revisions = '/apis/apps/v1/namespaces/default/controllerrevisions';
    const templates = '/api/v1/namespaces/default/podtemplates';
    expect((await client.post(revisions, { metadata: owned, data: { spec: {} }, revision: 1 })).status).to.equal(201);
    expect((await client.post(templates, { metadata: owned, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } })).status).to.equal(201);
    await server.idle();
    expect(await exists(`${revisions}/web-1`)).to.not.equal(undefined);
    await client.delete('/apis/apps/v1/namespaces/default/statefulsets/web');
    await server.idle();
    expect([await exists(`${revisions}/web-1`), await exists(`${templates}/web-1`)]).to.deep.equal([undefined, undefined]);
  });

  it('deletes in the foreground: the owner waits, with foregroundDeletion, until its blocking dependents are gone (TestBlockingOwnerRefDoesBlock)', async () => {
    const owner = await configMap('owner');
    // A finalizer holds the blocking dependent, so the owner must wait for it.
    await client.post(cms, { metadata: { name: 'blocker', finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] } });
    await configMap('plain', [ownerRef(owner)]);
    const deleted = await client.delete(`${cms}/owner`, { propagationPolicy: 'Foreground' });
    expect(deleted.body.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    await server.idle();
    const waiting = await exists(`${cms}/owner`);
    expect(waiting?.metadata.deletionTimestamp).to.be.a('string');
    expect((await exists(`${cms}/blocker`))?.metadata.deletionTimestamp).to.be.a('string');
    expect(await exists(`${cms}/plain`)).to.equal(undefined);
    await client.patch(`${cms}/blocker`, { metadata: { finalizers: null } });
    await server.idle();
    expect(await exists(`${cms}/blocker`)).to.equal(undefined);
    expect(await exists(`${cms}/owner`)).to.equal(undefined);
  });

  it('does not wait for non-blocking dependents (TestNonBlockingOwnerRefDoesNotBlock) and drops references to a waiting owner from a dependent with a solid one (TestSolidOwnerDoesNotBlockWaitingOwner)', async () => {
    const owner = await configMap('owner');
    const solid = await configMap('solid');
    await client.post(cms, { metadata: { name: 'held', finalizers: ['example.com/hold'], ownerReferences: [ownerRef(owner, { blockOwnerDeletion: false })] } });
    await configMap('shared', [ownerRef(owner, { blockOwnerDeletion: true }), ownerRef(solid)]);
    await client.delete(`${cms}/owner`, { propagationPolicy: 'Foreground' });
    await server.idle();
    expect(await exists(`${cms}/owner`)).to.equal(undefined);
    expect((await exists(`${cms}/shared`))?.metadata.ownerReferences?.map((r) => r.name)).to.deep.equal(['solid']);
    expect((await exists(`${cms}/held`))?.metadata.deletionTimestamp).to.be.a('string');
  });

  it('cascades through a Deployment, its ReplicaSet and its Pods', async () => {
    const deploy = (await client.post('/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    })).body as LooseObject;
    const rs = (await client.post('/apis/apps/v1/namespaces/default/replicasets', {
      metadata: { name: 'web-1', ownerReferences: [ownerRef(deploy, { controller: true, blockOwnerDeletion: true })] },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    })).body as LooseObject;
    await client.post(pods, { metadata: { name: 'web-1-a', finalizers: ['example.com/hold'], ownerReferences: [ownerRef(rs, { controller: true, blockOwnerDeletion: true })] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await client.delete('/apis/apps/v1/namespaces/default/deployments/web', { propagationPolicy: 'Foreground' });
    await server.idle();
    // The ReplicaSet has a dependent of its own, so it too is deleted in the foreground and waits.
    const waitingRS = await exists('/apis/apps/v1/namespaces/default/replicasets/web-1');
    expect(waitingRS?.metadata.finalizers).to.deep.equal(['foregroundDeletion']);
    expect(await exists('/apis/apps/v1/namespaces/default/deployments/web')).to.not.equal(undefined);
    await client.patch(`${pods}/web-1-a`, { metadata: { finalizers: null } });
    await server.idle();
    expect(await exists(`${pods}/web-1-a`)).to.equal(undefined);
    expect(await exists('/apis/apps/v1/namespaces/default/replicasets/web-1')).to.equal(undefined);
    expect(await exists('/apis/apps/v1/namespaces/default/deployments/web')).to.equal(undefined);
  });

  it('stops on close with work pending, and picks it up again from the data directory on restart', async () => {
    await server.close();
    const dataDir = mkdtempSync(join(tmpdir(), 'kubekit-gc-'));
    try {
      ({ server, client } = await start({ dataDir }));
      const owner = await configMap('owner');
      for (let i = 0; i < 100; i++) await configMap(`dep-${i}`, [ownerRef(owner)]);
      expect((await client.delete(`${cms}/owner`)).status).to.equal(200);
      // No idle(): the collector is mid-way; close waits for its write in flight and stops it.
      await server.close();
      ({ server, client } = await start({ dataDir }));
      await server.idle();
      const left = await client.get(cms);
      expect((left.body.items as LooseObject[]).map((o) => o.metadata.name).filter((n) => n?.startsWith('dep-'))).to.deep.equal([]);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses orphanDependents together with propagationPolicy', async () => {
    await configMap('x');
    const r = await client.delete(`${cms}/x`, { orphanDependents: true, propagationPolicy: 'Background' });
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set');
  });
});
