import { expect } from 'chai';
import fc from 'fast-check';
import type { KubeObject } from '@kubekit/core';
import { Store, labelsIndex, labelsIndexFunc, metaNamespaceIndexFunc, namespaceIndex } from '../src/store.js';

function obj(namespace: string, name: string, labels: Record<string, string> = {}, rv = '1'): KubeObject {
  return { metadata: { namespace, name, labels, resourceVersion: rv } };
}

describe('Store', () => {
  it('does keep one object per namespace/name key and return the replaced one', () => {
    const store = new Store();
    expect(store.upsert(obj('a', 'x', {}, '1'))).to.equal(undefined);
    const second = obj('a', 'x', {}, '2');
    expect(store.upsert(second)?.metadata.resourceVersion).to.equal('1');
    expect(store.size).to.equal(1);
    expect(store.get('a/x')).to.equal(second);
    expect(store.delete('a/x')).to.equal(second);
    expect(store.delete('a/x')).to.equal(undefined);
    expect(store.size).to.equal(0);
  });

  it('does key cluster-scoped objects by name alone', () => {
    const store = new Store();
    store.add({ metadata: { name: 'n1' } });
    expect(store.listKeys()).to.deep.equal(['n1']);
  });

  it('does look objects up by namespace and by label through indexes', () => {
    const store = new Store({ indexers: { [namespaceIndex]: metaNamespaceIndexFunc, [labelsIndex]: labelsIndexFunc } });
    store.add(obj('a', 'x', { app: 'web' }));
    store.add(obj('a', 'y', { app: 'db' }));
    store.add(obj('b', 'z', { app: 'web' }));
    expect(store.byIndex(namespaceIndex, 'a').map((o) => o.metadata.name).sort()).to.deep.equal(['x', 'y']);
    expect(store.byIndex(labelsIndex, 'app=web').map((o) => o.metadata.name).sort()).to.deep.equal(['x', 'z']);
    store.update(obj('a', 'x', { app: 'db' }, '2'));
    expect(store.indexKeys(labelsIndex, 'app=web')).to.deep.equal(['b/z']);
    expect(store.indexKeys(labelsIndex, 'app=db').sort()).to.deep.equal(['a/x', 'a/y']);
    store.delete('b/z');
    expect(store.indexValues(labelsIndex)).to.deep.equal(['app=db']);
    expect(store.index(namespaceIndex, obj('a', 'q')).length).to.equal(2);
  });

  it('does build an index added after objects were stored', () => {
    const store = new Store();
    store.add(obj('a', 'x'));
    store.addIndexers({ ns: metaNamespaceIndexFunc });
    expect(store.indexKeys('ns', 'a')).to.deep.equal(['a/x']);
    expect(() => store.addIndexers({ ns: metaNamespaceIndexFunc })).to.throw('indexer conflict: ns');
    expect(() => store.byIndex('nope', 'a')).to.throw('Index with name nope does not exist');
  });

  it('does replace the whole content at once and return the previous content', () => {
    const store = new Store({ indexers: { ns: metaNamespaceIndexFunc } });
    store.add(obj('a', 'x'));
    const previous = store.replace([obj('b', 'y'), obj('b', 'z')]);
    expect([...previous.keys()]).to.deep.equal(['a/x']);
    expect(store.listKeys().sort()).to.deep.equal(['b/y', 'b/z']);
    expect(store.indexKeys('ns', 'a')).to.deep.equal([]);
    expect(store.indexKeys('ns', 'b').sort()).to.deep.equal(['b/y', 'b/z']);
  });

  it('does keep every index equal to a recomputation after any sequence of changes', () => {
    const op = fc.record({
      kind: fc.constantFrom('upsert', 'delete', 'replace'),
      ns: fc.constantFrom('a', 'b'),
      name: fc.constantFrom('x', 'y', 'z'),
      labels: fc.dictionary(fc.constantFrom('app', 'tier'), fc.constantFrom('1', '2'), { maxKeys: 2 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const store = new Store({ indexers: { ns: metaNamespaceIndexFunc, labels: labelsIndexFunc } });
        const model = new Map<string, KubeObject>();
        for (const o of ops) {
          const item = obj(o.ns, o.name, o.labels);
          if (o.kind === 'upsert') {
            store.upsert(item);
            model.set(`${o.ns}/${o.name}`, item);
          } else if (o.kind === 'delete') {
            store.delete(`${o.ns}/${o.name}`);
            model.delete(`${o.ns}/${o.name}`);
          } else {
            store.replace([item]);
            model.clear();
            model.set(`${o.ns}/${o.name}`, item);
          }
        }
        expect(store.listKeys().sort()).to.deep.equal([...model.keys()].sort());
        for (const [name, fn] of [['ns', metaNamespaceIndexFunc], ['labels', labelsIndexFunc]] as const) {
          const expected = new Map<string, string[]>();
          for (const [k, v] of model) for (const value of fn(v)) expected.set(value, [...(expected.get(value) ?? []), k]);
          expect(store.indexValues(name).sort()).to.deep.equal([...expected.keys()].sort());
          for (const [value, keys] of expected) expect(store.indexKeys(name, value).sort()).to.deep.equal(keys.sort());
        }
      }),
    );
  });
});
