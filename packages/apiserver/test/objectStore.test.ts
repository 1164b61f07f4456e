import { expect } from 'chai';
import { KubeError, type KubeObject } from '@kubekit/core';
import { ObjectStore, type StoreEvent } from '../src/storage/objectStore.js';

const gr = { group: 'g', resource: 'things' };
const obj = (name: string, v = 1): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec: { v } });

describe('ObjectStore', () => {
  it('gives every write the next resourceVersion of one global counter', () => {
    const store = new ObjectStore();
    const a = store.create(gr, 'ns/a', 'a', obj('a')).event;
    const b = store.create({ group: 'g', resource: 'others' }, 'ns/b', 'b', obj('b')).event;
    const a2 = store.update(gr, 'ns/a', 'a', obj('a', 2), a.object.metadata.resourceVersion).event;
    expect([a.rv, b.rv, a2.rv]).to.deep.equal([1, 2, 3]);
    expect(a2.object.metadata.resourceVersion).to.equal('3');
    expect(a2.prevObject).to.equal(a.object);
  });

  it('refuses a stale resourceVersion with Conflict and a taken key with AlreadyExists', () => {
    const store = new ObjectStore();
    store.create(gr, 'ns/a', 'a', obj('a'));
    store.update(gr, 'ns/a', 'a', obj('a', 2), '1');
    expect(() => store.update(gr, 'ns/a', 'a', obj('a', 3), '1')).to.throw(KubeError).with.property('reason', 'Conflict');
    expect(() => store.create(gr, 'ns/a', 'a', obj('a'))).to.throw(KubeError).with.property('reason', 'AlreadyExists');
    expect(() => store.delete(gr, 'ns/x', 'x')).to.throw(KubeError).with.property('reason', 'NotFound');
  });

  it('delivers events in order and rebuilds past states from its history', () => {
    const store = new ObjectStore({ historySize: 3 });
    const seen: StoreEvent[] = [];
    store.subscribe((e) => seen.push(e));
    store.create(gr, 'ns/a', 'a', obj('a'));
    store.create(gr, 'ns/b', 'b', obj('b'));
    store.update(gr, 'ns/a', 'a', obj('a', 2));
    store.delete(gr, 'ns/b', 'b');
    expect(seen.map((e) => `${e.type}:${e.key}:${e.rv}`)).to.deep.equal(['ADDED:ns/a:1', 'ADDED:ns/b:2', 'MODIFIED:ns/a:3', 'DELETED:ns/b:4']);
    const at2 = store.snapshotAt('g/things', 2);
    expect([...at2.keys()].sort()).to.deep.equal(['ns/a', 'ns/b']);
    expect((at2.get('ns/a')!.spec as { v: number }).v).to.equal(1);
    expect(store.eventsSince(2).map((e) => e.rv)).to.deep.equal([3, 4]);
  });

  it('forgets history beyond its size: older resourceVersions are Expired', () => {
    const store = new ObjectStore({ historySize: 2 });
    store.create(gr, 'ns/a', 'a', obj('a'));
    for (let i = 0; i < 6; i++) store.update(gr, 'ns/a', 'a', obj('a', i));
    expect(store.oldestResourceVersion).to.be.greaterThan(1);
    expect(() => store.eventsSince(1)).to.throw(KubeError).with.property('reason', 'Expired');
    expect(() => store.snapshotAt('g/things', 1)).to.throw(/too old resource version: 1/);
  });
});
