// The typed walks against structured-merge-diff's semantics: typed/toset_test.go ("ToFieldSet"),
// typed/compare_test.go, typed/merge_test.go (associative lists keep the configuration's order),
// typed/remove_test.go, and the field set operations of fieldpath/set_test.go.
import { expect } from 'chai';
import fc from 'fast-check';
import { FieldSet, comparePathElements, difference, fromFieldsV1, intersection, memberPaths, recursiveDifference, toFieldsV1, union } from '../../src/managedFields/fieldSet.js';
import { builtinRootType, typeFromStructuralSchema, type ListType } from '../../src/managedFields/schema.js';
import { managedFieldsDepthOK } from '../../src/managedFields/fieldManager.js';
import { UndeclaredFieldsError, compareObjects, equalJSON, ensureNamedFieldsAreMembers, itemPathElement, mergeObjects, removeItems, toFieldSet } from '../../src/managedFields/typed.js';

const schema = typeFromStructuralSchema({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        color: { type: 'string' },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'proto'], items: { type: 'object', properties: { name: { type: 'string' }, proto: { type: 'string', default: 'TCP' }, port: { type: 'integer' } } } },
        hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { app: { type: 'string' } } },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
});

/** A chain `{a: {a: … {a: 1}}}` `depth` objects deep, built without recursion. */
function chain(depth: number): Record<string, unknown> {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v as Record<string, unknown>;
}

describe('managed fields: field sets', () => {
  it('round-trips FieldsV1 with "." for members that have children', () => {
    const v1 = { 'f:spec': { '.': {}, 'f:color': {}, 'f:ports': { 'k:{"name":"a","proto":"TCP"}': { '.': {}, 'f:port': {} } }, 'f:hosts': { 'v:"h1"': {} } } };
    const set = fromFieldsV1(v1);
    expect(toFieldsV1(set)).to.deep.equal(v1);
    // Path strings as PathElement.String() prints them, members of a level before its children.
    expect(memberPaths(set)).to.deep.equal(['.spec', '.spec.color', '.spec.hosts[="h1"]', '.spec.ports[name="a",proto="TCP"]', '.spec.ports[name="a",proto="TCP"].port']);
  });

  // fieldpath's PathElement.Compare (fieldpath/element.go): field names, then keys (by key name, then
  // value), then values (value.Compare: numbers, strings, booleans, then null), then indexes. The text
  // of FieldsV1 keeps that order (serialize.go writes children sorted), and JSON text is order-true.
  it('writes FieldsV1 keys in PathElement.Compare order, whatever order the set was built in (fast-check)', () => {
    const name = fc.constantFrom('a', 'b', 'ab', 'B', 'z', 'é', 'spec', 'status', '0');
    const pe = fc.oneof(
      name.map((n) => `f:${n}`),
      fc.record({ name: fc.constantFrom('a', 'b', 'c'), port: fc.constantFrom(1, 2, 10) }, { requiredKeys: ['name'] }).map((k) => `k:${JSON.stringify(Object.fromEntries(Object.entries(k).sort()))}`),
      fc.oneof(fc.constantFrom('x', 'y', 'X'), fc.constantFrom(1, 2, 10, -1), fc.boolean(), fc.constant(null)).map((v) => `v:${JSON.stringify(v)}`),
      fc.nat(12).map((i) => `i:${i}`),
    );
    // The order a reader of the spec would write: each level's keys sorted by comparePathElements.
    const expected = (set: FieldSet, root = true): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      const kids = [...set.children].filter(([, c]) => !c.isEmpty()).sort(([a], [b]) => comparePathElements(a, b));
      if (set.member && kids.length > 0 && !root) out['.'] = {};
      for (const [k, c] of kids) out[k] = expected(c, false);
      return out;
    };
    fc.assert(fc.property(fc.array(fc.array(pe, { minLength: 1, maxLength: 4 }), { maxLength: 30 }), (paths) => {
      const set = new FieldSet();
      for (const path of paths) {
        let node = set;
        for (const e of path) node = node.child(e);
        node.member = true;
      }
      expect(JSON.stringify(toFieldsV1(set))).to.equal(JSON.stringify(expected(set)));
    }));
  });

  // fieldpath.KeyByFields: the key fields sorted by name, written as the JSON of an object holding them.
  it('names associative list items by their key fields as the JSON of an object with them in sorted order', () => {
    const list = (keys: string[]): ListType => ({ kind: 'list', listType: 'map', keys, element: { kind: 'map', atomic: false } });
    expect(itemPathElement(list(['port', 'name']), { name: 'a"b', port: 80, other: 1 }, 0)).to.equal('k:{"name":"a\\"b","port":80}');
    expect(itemPathElement(list(['x']), { x: { nested: [1, 'two'] } }, 0)).to.equal('k:{"x":{"nested":[1,"two"]}}');
    // Names that are array indexes come first in an object's own order, in numeric order.
    expect(itemPathElement(list(['b', '10', '9']), { b: 1, 10: 2, 9: 3 }, 0)).to.equal('k:{"9":3,"10":2,"b":1}');
    expect(() => itemPathElement(list(['name']), { other: 1 }, 0)).to.throw('associative list with keys has an element that omits all key fields');
  });

  it('unions, differences and intersections as fieldpath.Set does', () => {
    const a = fromFieldsV1({ 'f:spec': { '.': {}, 'f:a': {}, 'f:b': {} } });
    const b = fromFieldsV1({ 'f:spec': { 'f:b': {}, 'f:c': {} } });
    expect(toFieldsV1(union(a, b))).to.deep.equal({ 'f:spec': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {} } });
    expect(toFieldsV1(difference(a, b))).to.deep.equal({ 'f:spec': { '.': {}, 'f:a': {} } });
    expect(toFieldsV1(intersection(a, b))).to.deep.equal({ 'f:spec': { 'f:b': {} } });
    // Difference leaves the children of a removed member; RecursiveDifference removes them too.
    const parent = fromFieldsV1({ 'f:spec': {} });
    expect(toFieldsV1(difference(a, parent))).to.deep.equal({ 'f:spec': { 'f:a': {}, 'f:b': {} } });
    expect(new FieldSet().isEmpty()).to.equal(true);
    expect(recursiveDifference(a, parent).isEmpty()).to.equal(true);
  });
});

describe('managed fields: typed walks', () => {
  it('computes the field set of an applied configuration (ToFieldSet)', () => {
    const config = { apiVersion: 'x/v1', kind: 'W', metadata: { name: 'w', labels: { app: 'a' } }, spec: { color: 'red', ports: [{ name: 'a', port: 1 }], hosts: ['h'], args: ['x'], selector: { app: 'b' }, env: { A: '1' }, free: { deep: { x: 1 }, list: [1] } } };
    expect(toFieldsV1(toFieldSet(config, schema))).to.deep.equal({
      'f:apiVersion': {}, 'f:kind': {},
      'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:name': {} },
      'f:spec': {
        'f:args': {}, 'f:color': {}, 'f:env': { 'f:A': {} },
        'f:free': { 'f:deep': { '.': {}, 'f:x': {} }, 'f:list': {} },
        'f:hosts': { 'v:"h"': {} },
        // A missing key field is filled from its default (keyFieldsWithDefaults).
        'f:ports': { 'k:{"name":"a","proto":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } },
        'f:selector': {},
      },
    });
  });

  it('refuses fields the schema does not declare, naming their paths', () => {
    expect(() => toFieldSet({ spec: { bogus: 1 } }, schema)).to.throw(UndeclaredFieldsError, '.spec.bogus: field not declared in schema');
  });

  it('compares objects into added, modified and removed paths (every node of an added subtree)', () => {
    const c = compareObjects({ spec: { color: 'a', env: { A: '1' } } }, { spec: { color: 'b', ports: [{ name: 'p', port: 1 }] } }, schema);
    expect(toFieldsV1(c.modified)).to.deep.equal({ 'f:spec': { 'f:color': {} } });
    expect(toFieldsV1(c.added)).to.deep.equal({ 'f:spec': { 'f:ports': { '.': {}, 'k:{"name":"p","proto":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } });
    expect(toFieldsV1(c.removed)).to.deep.equal({ 'f:spec': { 'f:env': { '.': {}, 'f:A': {} } } });
    // A null where a map is expected is an empty map: its entries are removed, the map is not modified.
    const n = compareObjects({ spec: { free: { deep: { x: 1 } } } }, { spec: { free: { deep: null } } }, schema);
    expect(n.modified.isEmpty()).to.equal(true);
    expect(toFieldsV1(n.removed)).to.deep.equal({ 'f:spec': { 'f:free': { 'f:deep': { 'f:x': {} } } } });
  });

  it('merges associative lists by key in the configuration\'s order, keeping other live items in place', () => {
    const live = { spec: { ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }, { name: 'c', port: 3 }], args: ['x'] } };
    const config = { spec: { ports: [{ name: 'c', port: 30 }, { name: 'a', port: 10 }, { name: 'd', port: 4 }], args: ['y'] } };
    expect(mergeObjects(live, config, schema)).to.deep.equal({ spec: {
      ports: [{ name: 'b', port: 2 }, { name: 'c', port: 30 }, { name: 'a', port: 10 }, { name: 'd', port: 4 }],
      args: ['y'],
    } });
    expect(live.spec.ports[0].port, 'the live object is not changed').to.equal(1);
  });

  it('removes items, turning a map or list it empties into null (RemoveItems)', () => {
    const obj = { spec: { env: { A: '1' }, hosts: ['h'], color: 'c' } };
    removeItems(obj, fromFieldsV1({ 'f:spec': { 'f:env': { 'f:A': {} }, 'f:hosts': { 'v:"h"': {} }, 'f:color': {} } }), schema);
    expect(obj).to.deep.equal({ spec: { env: null, hosts: null } });
  });

  it('makes declared fields members when something below them is (EnsureNamedFieldsAreMembers)', () => {
    const s = ensureNamedFieldsAreMembers(fromFieldsV1({ 'f:spec': { 'f:env': { 'f:A': {} } } }), schema);
    expect(toFieldsV1(s)).to.deep.equal({ 'f:spec': { '.': {}, 'f:env': { '.': {}, 'f:A': {} } } });
  });

  it('types built-in kinds by their patch strategies: containers by name, ports by port and protocol', () => {
    const pod = { spec: { containers: [{ name: 'app', image: 'i', ports: [{ containerPort: 80 }] }] }, metadata: { finalizers: ['f'] } };
    expect(toFieldsV1(toFieldSet(pod, builtinRootType()))).to.deep.equal({
      'f:metadata': { 'f:finalizers': { 'v:"f"': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
    });
  });

  it('walks 10,000 levels of a preserve-unknown-fields subtree without recursion', function () {
    this.timeout(60_000);
    const deep = { spec: { free: chain(10_000) } };
    const set = toFieldSet(deep, schema);
    const v1 = toFieldsV1(set);
    let levels = 0;
    for (let f: Record<string, unknown> | undefined = (v1['f:spec'] as Record<string, unknown>)['f:free'] as Record<string, unknown>; f !== undefined; f = f['f:a'] as Record<string, unknown> | undefined) levels++;
    expect(levels).to.equal(10_001);
    expect(equalJSON(toFieldsV1(fromFieldsV1(v1)), v1)).to.equal(true);
    const changed = { spec: { free: chain(10_000) } };
    let leaf = changed.spec.free;
    for (let i = 0; i < 9_999; i++) leaf = leaf.a as Record<string, unknown>;
    leaf.a = 2;
    const c = compareObjects(deep, changed, schema);
    expect(memberPaths(c.modified)).to.have.length(1);
    expect(memberPaths(c.modified)[0]).to.have.length('.spec.free'.length + 2 * 10_000);
    const merged = mergeObjects(deep, changed, schema);
    expect(compareObjects(merged, changed, schema).modified.isEmpty()).to.equal(true);
    removeItems(merged, set, schema);
    expect(merged).to.deep.equal({ spec: { free: null } });
  });
});

describe('managed fields: nesting', () => {
  it('tells managed fields nested past a limit, counting iteratively (the apiserver cannot read such an object back)', () => {
    const fieldsV1 = chain(9_995);
    const entries = [{ manager: 'm', operation: 'Update' as const, fieldsV1 }];
    // The list and the entry add two levels to the chain's 9,995 (fieldsV1 is the chain's first).
    expect(managedFieldsDepthOK(entries, 9_997)).to.equal(true);
    expect(managedFieldsDepthOK(entries, 9_996)).to.equal(false);
  });
});
