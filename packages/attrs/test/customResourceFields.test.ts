import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { KubeError, parseJSON } from '@kubekit/core';
import type { CustomResourceDefinition } from '@kubekit/crd';
import {
  compileFieldGetter,
  compileFieldSet,
  convertFieldLabel,
  createCustomResourceFields,
  customResourceFieldLabels,
  customResourceFieldsOptionsFor,
  UnsupportedFieldLabelError,
} from '@kubekit/attrs';

// Upstream vectors: staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresource/strategy_test.go
// (TestSelectableFields), pkg/apiserver/customresource_handler_test.go (TestConvertFieldLabel).
interface Vectors {
  crdFixture: CustomResourceDefinition;
  cases: Array<{
    id: string;
    group: string;
    name: string;
    upstream: string;
    namespaced?: boolean;
    clusterScoped?: boolean;
    selectableFields?: Array<{ jsonPath: string }>;
    object?: unknown;
    label?: string;
    value?: string;
    expected: { fields?: Record<string, string>; label?: string | null; value?: string | null; error?: string | null };
  }>;
}
const vectors = JSON.parse(readFileSync(new URL('./fixtures/selectable_fields_getattrs.json', import.meta.url), 'utf8')) as Vectors;

describe('compileFieldSet', () => {
  for (const c of vectors.cases.filter((x) => x.group === 'getAttrs')) {
    it(`does ${c.id} ${c.name} (${c.upstream})`, () => {
      const fieldSet = compileFieldSet({ namespaced: c.namespaced ?? false, selectableFields: c.selectableFields });
      expect(fieldSet(c.object)).to.deep.equal(c.expected.fields);
    });
  }

  it('adds metadata.namespace for namespaced resources only', () => {
    const obj = { metadata: { name: 'a', namespace: 'ns' } };
    expect(compileFieldSet({ namespaced: true })(obj)).to.deep.equal({ 'metadata.name': 'a', 'metadata.namespace': 'ns' });
    expect(compileFieldSet({ namespaced: false })(obj)).to.deep.equal({ 'metadata.name': 'a' });
  });

  it('prints values as fmt.Sprint does: strings as-is, integers in decimal, booleans', () => {
    const fieldSet = compileFieldSet({
      namespaced: false,
      selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.quantity' }, { jsonPath: '.spec.branded' }, { jsonPath: '.spec.negative' }],
    });
    expect(fieldSet({ metadata: { name: 'x' }, spec: { color: 'a,b=c\\', quantity: 3, branded: false, negative: -0 } })).to.deep.equal({
      'metadata.name': 'x', 'spec.color': 'a,b=c\\', 'spec.quantity': '3', 'spec.branded': 'false', 'spec.negative': '0',
    });
  });

  it('keeps integers beyond 2^53 exact when the object was parsed with core parseJSON', () => {
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: '.spec.n' }] });
    const at = (text: string): string => fieldSet(parseJSON(`{"metadata":{"name":"a"},"spec":{"n":${text}}}`))['spec.n'];
    expect(at('9007199254740993')).to.equal('9007199254740993');
    expect(at('9223372036854775807')).to.equal('9223372036854775807');
    expect(at('-9223372036854775808')).to.equal('-9223372036854775808');
    // Beyond int64 Go decodes a float64, and fmt.Sprint prints it in exponent form.
    expect(at('12345678901234567890')).to.equal('1.2345678901234567e+19');
    expect(fieldSet({ spec: { n: 123456789012345678901234567890n } })['spec.n']).to.equal('123456789012345678901234567890');
  });

  it('reads absent, null, and paths through non-objects as ""', () => {
    const fieldSet = compileFieldSet({ namespaced: true, selectableFields: [{ jsonPath: '.spec.a.b' }] });
    for (const spec of [undefined, null, 'str', 7, true, [], [{ a: { b: 'x' } }], { a: null }, { a: 'str' }, { a: ['x'] }, { a: { b: null } }, { a: {} }]) {
      expect(fieldSet({ metadata: { name: 'n' }, spec })['spec.a.b'], JSON.stringify(spec)).to.equal('');
    }
  });

  it('prints wrong-typed values as fmt.Sprint prints Go values (maps sorted, slices space-separated, floats %v)', () => {
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: '.spec.v' }] });
    const at = (v: unknown): string => fieldSet({ spec: { v } })['spec.v'];
    expect(at({ b: 'x', a: 1 })).to.equal('map[a:1 b:x]');
    expect(at({ a: null, c: [true, 'y'] })).to.equal('map[a:<nil> c:[true y]]');
    expect(at({})).to.equal('map[]');
    expect(at([1, 'two', 3.5])).to.equal('[1 two 3.5]');
    expect(at([])).to.equal('[]');
    expect(at(1.5)).to.equal('1.5');
    expect(at(1e21)).to.equal('1e+21');
    expect(at(0.00001)).to.equal('1e-05');
  });

  it('reads metadata.name and metadata.namespace as strings only, as ObjectMeta accessors do', () => {
    const fieldSet = compileFieldSet({ namespaced: true });
    expect(fieldSet({ metadata: { name: 5, namespace: { a: 1 } } })).to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '' });
    expect(fieldSet({ metadata: 'x' })).to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '' });
    expect(fieldSet(null)).to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '' });
    expect(fieldSet('not an object')).to.deep.equal({ 'metadata.name': '', 'metadata.namespace': '' });
  });

  it('does not read inherited properties (constructor, toString, __proto__)', () => {
    const fieldSet = compileFieldSet({
      namespaced: false,
      selectableFields: [{ jsonPath: '.spec.constructor' }, { jsonPath: '.spec.toString' }, { jsonPath: '.spec.__proto__' }, { jsonPath: '.spec.length' }],
    });
    expect(fieldSet({ spec: {} })).to.deep.equal({ 'metadata.name': '', 'spec.constructor': '', 'spec.toString': '', 'spec.__proto__': '', 'spec.length': '' });
    expect(fieldSet({ spec: 'abc' })['spec.length']).to.equal('');
    expect(fieldSet({ spec: [1, 2] })['spec.length']).to.equal('');
    const own = JSON.parse('{"spec":{"constructor":"c","__proto__":"p"}}') as unknown;
    expect(fieldSet(own)['spec.constructor']).to.equal('c');
    expect(fieldSet(own)['spec.__proto__']).to.equal('p');
  });

  it('stores a field named __proto__ as data, not as the prototype of the field set', () => {
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: '.__proto__' }] });
    const set = fieldSet(JSON.parse('{"__proto__":"x"}'));
    expect(Object.hasOwn(set, '__proto__')).to.equal(true);
    expect(Object.getPrototypeOf(set)).to.equal(Object.prototype);
    expect(Object.keys(set)).to.deep.equal(['metadata.name', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('names bracketed fields after the path without its leading dot', () => {
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: ".spec['app-name']" }, { jsonPath: ".spec.labels['example/x']" }] });
    expect(fieldSet({ spec: { 'app-name': 'shop', labels: { 'example/x': 'y' } } })).to.deep.equal({
      'metadata.name': '', "spec['app-name']": 'shop', "spec.labels['example/x']": 'y',
    });
  });

  it('reads deep paths (unrolled and looped readers)', () => {
    const paths = ['.a', '.a.b', '.a.b.c', '.a.b.c.d', '.a.b.c.d.e', '.a.b.c.d.e.f'];
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: paths.map((jsonPath) => ({ jsonPath })) });
    const obj = { a: { b: { c: { d: { e: { f: 'deep' } } } } } };
    const set = fieldSet(obj);
    expect(set['a.b.c.d.e.f']).to.equal('deep');
    expect(set['a.b.c.d.e']).to.equal('map[f:deep]');
    expect(set['a.b.c.d']).to.equal('map[e:map[f:deep]]');
    expect(fieldSet({ a: { b: { c: { d: 'x' } } } })['a.b.c.d.e.f']).to.equal('');
  });

  it('rejects jsonPaths that are not simple paths with a BadRequest naming the path', () => {
    for (const jsonPath of ['spec.color', '.spec[0]', '.spec..x', '.spec.', ".spec['a", '.spec[a]', '.spec.a b', '.spec.*', '', ".spec['x']y", ".spec['a.b']"]) {
      expect(() => compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath }] }), jsonPath)
        .to.throw(KubeError, /selectableFields\[0\]\.jsonPath .* is not a simple JSON path/);
    }
  });

  it('ignores selectableFields when the CustomResourceFieldSelectors gate is off', () => {
    const fieldSet = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: '.spec.color' }], customResourceFieldSelectors: false });
    expect(fieldSet({ metadata: { name: 'a' }, spec: { color: 'blue' } })).to.deep.equal({ 'metadata.name': 'a' });
  });

  it('never throws and yields a string for every key on arbitrary JSON (property)', () => {
    const name = fc.constantFrom('spec', 'status', 'a', 'b', 'constructor', '__proto__', 'length', 'toString', '0');
    const path = fc.array(name, { minLength: 1, maxLength: 6 }).map((ns) => `.${ns.join('.')}`);
    fc.assert(fc.property(fc.uniqueArray(path, { maxLength: 8 }), fc.boolean(), fc.jsonValue(), (paths, namespaced, json) => {
      const options = { namespaced, selectableFields: paths.map((jsonPath) => ({ jsonPath })) };
      const set = compileFieldSet(options)(json);
      const get = compileFieldGetter(options)(json);
      for (const key of Object.keys(set)) {
        expect(set[key]).to.be.a('string');
        expect(get(key)).to.equal(set[key]);
      }
      expect(Object.keys(set).length).to.equal(1 + (namespaced ? 1 : 0) + paths.length);
    }));
  });

  it('agrees with a plain walk of the object and Go printing (property)', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(fc.property(fc.array(key, { minLength: 1, maxLength: 4 }), tree, (names, obj) => {
      let v: unknown = obj;
      for (const n of names) v = v !== null && typeof v === 'object' && Object.hasOwn(v, n) ? (v as Record<string, unknown>)[n] : undefined;
      const expected = v === undefined || v === null ? '' : typeof v === 'object' ? undefined : String(v);
      const got = compileFieldSet({ namespaced: false, selectableFields: [{ jsonPath: `.${names.join('.')}` }] })(obj)[names.join('.')];
      if (expected !== undefined) expect(got).to.equal(expected);
      else expect(got).to.match(/^map\[/);
    }));
  });
});

describe('compileFieldGetter', () => {
  it('computes only the fields asked for', () => {
    let reads = 0;
    const spec = {};
    Object.defineProperty(spec, 'color', { enumerable: true, get: () => { reads++; return 'blue'; } });
    const get = compileFieldGetter({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] })({ metadata: { name: 'n', namespace: 'ns' }, spec });
    expect(get('metadata.name')).to.equal('n');
    expect(get('metadata.namespace')).to.equal('ns');
    expect(reads).to.equal(0);
    expect(get('spec.color')).to.equal('blue');
    expect(reads).to.equal(1);
  });

  it('returns undefined for a field that is not in the field set', () => {
    const get = compileFieldGetter({ namespaced: false, selectableFields: [{ jsonPath: '.spec.color' }] })({ metadata: { name: 'n' } });
    expect(get('metadata.namespace')).to.equal(undefined);
    expect(get('spec.size')).to.equal(undefined);
    expect(get('spec.color')).to.equal('');
  });
});

describe('convertFieldLabel', () => {
  for (const c of vectors.cases.filter((x) => x.group === 'convertFieldLabel')) {
    it(`does ${c.id} ${c.name} (${c.upstream})`, () => {
      const options = { namespaced: !c.clusterScoped, selectableFields: c.selectableFields };
      if (c.expected.error === null || c.expected.error === undefined) {
        expect(convertFieldLabel(options, c.label!, c.value!)).to.deep.equal([c.expected.label, c.expected.value]);
      } else {
        let thrown: unknown;
        try {
          convertFieldLabel(options, c.label!, c.value!);
        } catch (err) {
          thrown = err;
        }
        expect(thrown).to.be.instanceOf(UnsupportedFieldLabelError);
        const e = thrown as UnsupportedFieldLabelError;
        expect(e.message).to.equal(c.expected.error);
        expect(e.reason).to.equal('BadRequest');
        expect(e.code).to.equal(400);
        expect(e.label).to.equal(c.label);
      }
    });
  }

  it('accepts the selectable fields of the version exactly, without trimming or case folding', () => {
    const options = { namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] };
    expect(convertFieldLabel(options, 'spec.color', 'blue')).to.deep.equal(['spec.color', 'blue']);
    for (const label of ['spec.colorx', '.spec.color', 'Spec.Color', ' spec.color', 'spec.color ']) {
      expect(() => convertFieldLabel(options, label, 'blue'), label).to.throw(UnsupportedFieldLabelError, `field label not supported: ${label}`);
    }
  });

  it('rejects the selectable fields when the CustomResourceFieldSelectors gate is off (fieldselector_test.go TestFieldSelectorDisablement)', () => {
    const options = { namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }], customResourceFieldSelectors: false };
    expect(() => convertFieldLabel(options, 'spec.color', 'blue')).to.throw('field label not supported: spec.color');
    expect(convertFieldLabel(options, 'metadata.namespace', 'x')).to.deep.equal(['metadata.namespace', 'x']);
  });
});

describe('createCustomResourceFields', () => {
  it('lists accepted labels and field set keys, and converts labels as convertFieldLabel does', () => {
    const shirts = createCustomResourceFields({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }] });
    expect(shirts.namespaced).to.equal(true);
    expect(shirts.fieldLabels).to.deep.equal(['metadata.name', 'metadata.namespace', 'spec.color', 'spec.size']);
    expect(shirts.fieldSetKeys).to.deep.equal(['metadata.name', 'metadata.namespace', 'spec.color', 'spec.size']);
    expect(shirts.labelAliases).to.deep.equal({});
    expect(shirts.convertFieldLabel('spec.size', 'M')).to.deep.equal(['spec.size', 'M']);
    expect(() => shirts.convertFieldLabel('spec.colorx', 'M')).to.throw(UnsupportedFieldLabelError, 'field label not supported: spec.colorx');
    expect(shirts.extractor('spec.size')!({ spec: { size: 'M' } })).to.equal('M');
    expect(shirts.extractor('spec.hue')).to.equal(undefined);
  });
});

describe('customResourceFieldLabels', () => {
  it('lists metadata.name, metadata.namespace when namespaced, then the selectable fields without duplicates', () => {
    expect(customResourceFieldLabels({ namespaced: false, selectableFields: [{ jsonPath: '.spec.a' }, { jsonPath: '.spec.a' }] }))
      .to.deep.equal(['metadata.name', 'spec.a']);
    expect(customResourceFieldLabels({ namespaced: true })).to.deep.equal(['metadata.name', 'metadata.namespace']);
  });
});

describe('customResourceFieldsOptionsFor', () => {
  it('reads scope and the version\'s selectableFields from a CRD', () => {
    const crd = vectors.crdFixture;
    expect(customResourceFieldsOptionsFor(crd, 'v1beta1')).to.deep.equal({
      namespaced: false,
      selectableFields: [{ jsonPath: '.spec.hue' }, { jsonPath: '.spec.quantity' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.branded' }],
    });
    expect(customResourceFieldsOptionsFor(crd, 'v2')).to.equal(undefined);
  });
});
