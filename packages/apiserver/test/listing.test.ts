import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { Client, start, type LooseObject } from './internal/client.js';

const cms = '/api/v1/namespaces/default/configmaps';

function names(items: LooseObject[]): string[] {
  return items.map((i) => i.metadata.name!);
}

describe('listObjects', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start({ watchHistorySize: 50 }));
    for (const [i, tier] of ['gold', 'silver', 'gold', 'bronze', 'silver'].entries()) {
      await client.post(cms, { metadata: { name: `cm-${i}`, labels: { tier, index: String(i) } }, data: { i: String(i) } });
    }
    await client.post('/api/v1/namespaces', { metadata: { name: 'other' } });
    await client.post('/api/v1/namespaces/other/configmaps', { metadata: { name: 'elsewhere' } });
  });

  after(async () => {
    await server.close();
  });

  it('lists in key order with the list resourceVersion', async () => {
    const r = await client.get(cms);
    expect(r.body.kind).to.equal('ConfigMapList');
    expect(names(r.body.items)).to.deep.equal(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    expect(r.body.metadata.resourceVersion).to.equal(String(server.resourceVersion));
    const all = await client.get('/api/v1/configmaps');
    expect(names(all.body.items)).to.deep.equal(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4', 'elsewhere']);
  });

  it('selects with label selectors, equality and set-based', async () => {
    expect(names((await client.get(`${cms}?labelSelector=tier%3Dgold`)).body.items)).to.deep.equal(['cm-0', 'cm-2']);
    expect(names((await client.get(`${cms}?labelSelector=${encodeURIComponent('tier in (silver,bronze),index!=1')}`)).body.items)).to.deep.equal(['cm-3', 'cm-4']);
    const bad = await client.get(`${cms}?labelSelector=${encodeURIComponent('tier in silver')}`);
    expect(bad.status).to.equal(400);
  });

  it('answers an unparsable field selector with the apiserver\'s 400', async () => {
    const r = await client.get(`${cms}?fieldSelector=metadata.name`);
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  });

  it('answers an unsupported built-in field label with the kind\'s message', async () => {
    const r = await client.get(`${cms}?fieldSelector=data.i%3D1`);
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal('"data.i" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('pages with limit and continue over a consistent snapshot', async () => {
    const first = await client.get(`${cms}?limit=2`);
    expect(names(first.body.items)).to.deep.equal(['cm-0', 'cm-1']);
    expect(first.body.metadata.remainingItemCount).to.equal(3);
    const token = first.body.metadata.continue as string;
    expect(token).to.be.a('string');
    // Changes after the first page do not show in later pages of the same list.
    await client.delete(`${cms}/cm-3`);
    await client.post(cms, { metadata: { name: 'cm-5' } });
    const second = await client.get(`${cms}?limit=2&continue=${encodeURIComponent(token)}`);
    expect(names(second.body.items)).to.deep.equal(['cm-2', 'cm-3']);
    expect(second.body.metadata.resourceVersion).to.equal(first.body.metadata.resourceVersion);
    const third = await client.get(`${cms}?limit=2&continue=${encodeURIComponent(second.body.metadata.continue as string)}`);
    expect(names(third.body.items)).to.deep.equal(['cm-4']);
    expect(third.body.metadata).to.not.have.property('continue');
    await client.post(cms, { metadata: { name: 'cm-3', labels: { tier: 'bronze', index: '3' } } });
    await client.delete(`${cms}/cm-5`);
  });

  it('pages selected lists without remainingItemCount', async () => {
    const r = await client.get(`${cms}?limit=1&labelSelector=tier%3Dsilver`);
    expect(names(r.body.items)).to.deep.equal(['cm-1']);
    expect(r.body.metadata).to.not.have.property('remainingItemCount');
    const next = await client.get(`${cms}?limit=1&labelSelector=tier%3Dsilver&continue=${encodeURIComponent(r.body.metadata.continue as string)}`);
    expect(names(next.body.items)).to.deep.equal(['cm-4']);
  });

  it('expires continue tokens older than the history with 410', async () => {
    const first = await client.get(`${cms}?limit=1`);
    for (let i = 0; i < 110; i++) await client.patch(`${cms}/cm-0`, { data: { n: String(i) } });
    const r = await client.get(`${cms}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue as string)}`);
    expect(r.status).to.equal(410);
    expect(r.body.reason).to.equal('Expired');
    expect(r.body.message).to.match(/^The provided continue parameter is too old to display a consistent list result\./);
  });

  it('serves resourceVersion=0 and not-older-than reads from the current state', async () => {
    const now = server.resourceVersion;
    expect((await client.get(`${cms}?resourceVersion=0`)).body.metadata.resourceVersion).to.equal(String(now));
    expect((await client.get(`${cms}?resourceVersion=${now - 1}`)).body.metadata.resourceVersion).to.equal(String(now));
  });

  it('serves an exact resourceVersion from the history', async () => {
    const before = server.resourceVersion;
    await client.post(cms, { metadata: { name: 'late' } });
    const exact = await client.get(`${cms}?resourceVersion=${before}&resourceVersionMatch=Exact`);
    expect(exact.body.metadata.resourceVersion).to.equal(String(before));
    expect(names(exact.body.items)).to.not.include('late');
    expect(names((await client.get(cms)).body.items)).to.include('late');
    await client.delete(`${cms}/late`);
  });

  // delegator.ShouldDelegateList's "legacy exact match": without resourceVersionMatch, a limit and a
  // non-zero resourceVersion list the state at that version (kube-apiserver v1.34.4 answers
  // `resourceVersion=199&limit=500` with metadata.resourceVersion 199 and the objects of then).
  it('serves the legacy exact match (limit set, resourceVersionMatch unset) from the history', async () => {
    const before = server.resourceVersion;
    await client.post(cms, { metadata: { name: 'later' } });
    const exact = await client.get(`${cms}?resourceVersion=${before}&limit=500`);
    expect(exact.body.metadata.resourceVersion).to.equal(String(before));
    expect(names(exact.body.items)).to.not.include('later');
    const latest = await client.get(`${cms}?resourceVersion=${before}`);
    expect(latest.body.metadata.resourceVersion).to.equal(String(server.resourceVersion));
    expect(names(latest.body.items)).to.include('later');
    await client.delete(`${cms}/later`);
  });

  // A resourceVersion newer than the server's waits for it: test/futureResourceVersion.test.ts.

  it('validates list options as the apiserver does', async () => {
    const r = await client.get(`${cms}?resourceVersionMatch=Exact`);
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  });

  it('returns PartialObjectMetadataList when asked', async () => {
    const r = await client.get(`${cms}?labelSelector=tier%3Dgold`, { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' });
    expect(r.body.kind).to.equal('PartialObjectMetadataList');
    expect(r.body.items[0]).to.have.keys(['kind', 'apiVersion', 'metadata']);
  });
});
