import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import fc from 'fast-check';
import { parseFieldSelector, parseLabelSelector, SelectorParseError } from '@kubekit/selectors';
import type { CustomResourceDefinition } from '@kubekit/crd';
import {
  builtinResourceFields,
  createCustomResourceFields,
  customResourceFieldsOptionsFor,
  selectorMatcher,
  UnsupportedFieldLabelError,
  type SelectionPredicate,
} from '@kubekit/attrs';

// Upstream vectors: staging/src/k8s.io/apiextensions-apiserver/test/integration/fieldselector_test.go
// (TestSelectableFields, TestFieldSelectorDisablement) and pkg/registry/core/pod/strategy_test.go
// (TestMatchPod), replayed at the attrs level: list and deletecollection keep the objects the
// predicate matches; a watch turns each change into ADDED/MODIFIED/DELETED from the old and new match.
interface Shirt {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
}
interface GetAttrsVectors {
  crdFixture: CustomResourceDefinition;
  instances: Shirt[];
  cases: Array<{
    id: string;
    group: string;
    name: string;
    upstream: string;
    apiVersion?: string;
    fieldSelector?: string;
    expected: {
      list?: { names?: string[]; error?: string; httpStatus?: number };
      deleteCollection?: { deleted?: string[]; error?: string };
      watch?: { ADDED?: string[]; DELETED?: string[]; error?: string };
    };
  }>;
}
interface PodVectors {
  cases: Array<{ id: string; name: string; upstream: string; object: unknown; fieldSelector: string; expected: { matches: boolean } }>;
}
const read = <T>(name: string): T => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
const getAttrs = read<GetAttrsVectors>('selectable_fields_getattrs.json');
const pods = read<PodVectors>('builtin_field_selectors.json');

/** The object as the API version serves it: the test's conversion webhook maps v1 spec.color to v1beta1 spec.hue. */
function inVersion(shirt: Shirt, apiVersion: string): Shirt {
  if (apiVersion === 'tests.example.com/v1') return shirt;
  const { color, ...rest } = shirt.spec;
  return { ...shirt, apiVersion, spec: color === undefined ? rest : { hue: color, ...rest } };
}

/** The watch of fieldselector_test.go: create all, delete shirt1, update shirt2's color to green. */
function watchEvents(p: SelectionPredicate, apiVersion: string): { ADDED: string[]; DELETED: string[]; MODIFIED: string[] } {
  const events = { ADDED: [] as string[], DELETED: [] as string[], MODIFIED: [] as string[] };
  const deliver = (oldObj: Shirt | undefined, newObj: Shirt | undefined): void => {
    const was = oldObj !== undefined && p.matches(oldObj);
    const is = newObj !== undefined && p.matches(newObj);
    const name = (newObj ?? oldObj)!.metadata.name;
    if (was && is) events.MODIFIED.push(name);
    else if (is) events.ADDED.push(name);
    else if (was) events.DELETED.push(name);
  };
  const [s1, s2, s3] = getAttrs.instances.map((s) => inVersion(s, apiVersion));
  for (const s of [s1, s2, s3]) deliver(undefined, s);
  deliver(s1, undefined);
  const green = inVersion({ ...getAttrs.instances[1], spec: { ...getAttrs.instances[1].spec, color: 'green' } }, apiVersion);
  deliver(s2, green);
  return events;
}

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('selectorMatcher', () => {
  for (const c of getAttrs.cases.filter((x) => x.group === 'integration')) {
    it(`does ${c.id} ${c.name} (${c.upstream})`, () => {
      const version = c.apiVersion!.split('/')[1];
      const options = customResourceFieldsOptionsFor(getAttrs.crdFixture, version)!;
      const gateOff = c.upstream.includes('TestFieldSelectorDisablement');
      const fields = createCustomResourceFields({ ...options, customResourceFieldSelectors: !gateOff });
      if (c.expected.list?.error !== undefined) {
        const err = thrownBy(() => selectorMatcher({ fields, fieldSelector: c.fieldSelector }));
        expect(err).to.be.instanceOf(UnsupportedFieldLabelError);
        expect(err.message).to.equal(c.expected.list.error);
        expect((err as UnsupportedFieldLabelError).code).to.equal(c.expected.list.httpStatus ?? 400);
        return;
      }
      const p = selectorMatcher({ fields, fieldSelector: c.fieldSelector });
      const objects = getAttrs.instances.map((s) => inVersion(s, c.apiVersion!));
      const listed = objects.filter(p.matches).map((s) => s.metadata.name);
      expect(listed).to.deep.equal(c.expected.list!.names);
      expect(listed).to.deep.equal(c.expected.deleteCollection!.deleted);
      const events = watchEvents(p, c.apiVersion!);
      expect(events.ADDED).to.deep.equal(c.expected.watch!.ADDED);
      expect(events.DELETED).to.deep.equal(c.expected.watch!.DELETED);
    });
  }

  for (const c of pods.cases) {
    it(`does ${c.id} ${c.name} through the parser (${c.upstream})`, () => {
      const p = selectorMatcher({ fields: builtinResourceFields('v1', 'Pod')!, fieldSelector: c.fieldSelector });
      expect(p.matches(c.object)).to.equal(c.expected.matches);
    });
  }

  it('combines field and label selectors, as the upstream test does with list, watch and labels', () => {
    const fields = customResourceFieldsOptionsFor(getAttrs.crdFixture, 'v1')!;
    const labelled = getAttrs.instances.map((s, i) => ({ ...s, metadata: { ...s.metadata, labels: { tier: i === 0 ? 'gold' : 'silver' } } }));
    const p = selectorMatcher({ fields, fieldSelector: 'spec.color=blue', labelSelector: 'tier in (silver)' });
    expect(labelled.filter(p.matches).map((s) => s.metadata.name)).to.deep.equal(['shirt2']);
    const q = selectorMatcher({ fields, fieldSelector: 'spec.color!=blue', labelSelector: '!tier' });
    expect(labelled.filter(q.matches)).to.deep.equal([]);
    const r = selectorMatcher({ fields, labelSelector: 'tier=gold' });
    expect(labelled.filter(r.matches).map((s) => s.metadata.name)).to.deep.equal(['shirt1']);
  });

  it('converts legacy labels before matching and exposes the converted selector', () => {
    const p = selectorMatcher({ fields: builtinResourceFields('v1', 'Pod')!, fieldSelector: 'spec.host=node-1' });
    expect(p.fieldSelector.toString()).to.equal('spec.nodeName=node-1');
    expect(p.matches({ spec: { nodeName: 'node-1' } })).to.equal(true);
    const e = selectorMatcher({ fields: builtinResourceFields('events.k8s.io/v1', 'Event')!, fieldSelector: 'regarding.name=p1,reportingController=kubelet' });
    expect(e.matches({ regarding: { name: 'p1' }, reportingController: 'kubelet' })).to.equal(true);
    expect(e.matches({ regarding: { name: 'p2' }, reportingController: 'kubelet' })).to.equal(false);
  });

  it('rejects already-converted labels of events.k8s.io unless told they are converted', () => {
    const fields = builtinResourceFields('events.k8s.io/v1', 'Event')!;
    expect(() => selectorMatcher({ fields, fieldSelector: 'involvedObject.name=p1' })).to.throw(UnsupportedFieldLabelError, 'field label not supported: involvedObject.name');
    const p = selectorMatcher({ fields, fieldSelector: 'involvedObject.name=p1', convertFieldLabels: false });
    expect(p.matches({ regarding: { name: 'p1' } })).to.equal(true);
  });

  it('reads accepted labels that are not in the field set as ""', () => {
    const fields = builtinResourceFields('v1', 'Pod')!;
    expect(selectorMatcher({ fields, fieldSelector: 'status.podIPs=' }).matches({ status: { podIPs: [{ ip: '1.2.3.4' }] } })).to.equal(true);
    expect(selectorMatcher({ fields, fieldSelector: 'status.podIPs=1.2.3.4' }).matches({ status: { podIPs: [{ ip: '1.2.3.4' }] } })).to.equal(false);
  });

  it('matches absent fields as "" (f= and f!=x hold, f=x does not)', () => {
    const fields = { namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] };
    const obj = { metadata: { name: 'a' } };
    expect(selectorMatcher({ fields, fieldSelector: 'spec.color=' }).matches(obj)).to.equal(true);
    expect(selectorMatcher({ fields, fieldSelector: 'spec.color!=blue' }).matches(obj)).to.equal(true);
    expect(selectorMatcher({ fields, fieldSelector: 'spec.color=blue' }).matches(obj)).to.equal(false);
    expect(selectorMatcher({ fields, fieldSelector: 'metadata.namespace=' }).matches(obj)).to.equal(true);
  });

  it('throws the selectors\' parse errors and the resource\'s label errors, as 400s', () => {
    const fields = { namespaced: false, selectableFields: [{ jsonPath: '.spec.color' }] };
    expect(() => selectorMatcher({ fields, fieldSelector: 'spec.color' })).to.throw(SelectorParseError, "invalid selector: 'spec.color'; can't understand 'spec.color'");
    expect(() => selectorMatcher({ fields, labelSelector: 'a in (' })).to.throw(SelectorParseError);
    const err = thrownBy(() => selectorMatcher({ fields, fieldSelector: 'spec.colorx=a' }));
    expect(err).to.be.instanceOf(UnsupportedFieldLabelError);
    expect(err.message).to.equal('field label not supported: spec.colorx');
    expect(() => selectorMatcher({ fields, fieldSelector: 'metadata.namespace=a' })).to.throw(UnsupportedFieldLabelError, 'field label not supported: metadata.namespace');
  });

  it('answers empty selectors without looking at the object', () => {
    const p = selectorMatcher({ fields: { namespaced: true } });
    expect(p.empty).to.equal(true);
    for (const o of [null, undefined, 'x', 1, [], {}]) expect(p.matches(o)).to.equal(true);
    expect(selectorMatcher({ fields: { namespaced: true }, fieldSelector: '', labelSelector: '' }).empty).to.equal(true);
    expect(selectorMatcher({ fields: { namespaced: true }, fieldSelector: 'metadata.name=a' }).empty).to.equal(false);
  });

  it('reads only the fields the field selector names', () => {
    let reads = 0;
    const spec = { color: 'blue' };
    Object.defineProperty(spec, 'size', { enumerable: true, get: () => { reads++; return 'M'; } });
    const fields = { namespaced: false, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }] };
    const obj = { metadata: { name: 'a' }, spec };
    expect(selectorMatcher({ fields, fieldSelector: 'spec.color=blue' }).matches(obj)).to.equal(true);
    expect(reads).to.equal(0);
    expect(selectorMatcher({ fields, fieldSelector: 'spec.color=blue,spec.size=M' }).matches(obj)).to.equal(true);
    expect(reads).to.equal(1);
  });

  it('treats labels that are not an object as no labels', () => {
    const p = selectorMatcher({ fields: { namespaced: false }, labelSelector: '!app' });
    const q = selectorMatcher({ fields: { namespaced: false }, labelSelector: 'app' });
    for (const o of [{}, { metadata: null }, { metadata: { labels: 'app' } }, { metadata: { labels: ['app'] } }, null, 7]) {
      expect(p.matches(o), JSON.stringify(o)).to.equal(true);
      expect(q.matches(o), JSON.stringify(o)).to.equal(false);
    }
    expect(q.matches({ metadata: { labels: { app: 'x' } } })).to.equal(true);
    expect(q.matches(JSON.parse('{"metadata":{"__proto__":{"labels":{"app":"x"}}}}'))).to.equal(false);
  });

  it('accepts parsed selectors', () => {
    const p = selectorMatcher({ fields: { namespaced: true }, fieldSelector: parseFieldSelector('metadata.namespace=ns'), labelSelector: parseLabelSelector('a=b') });
    expect(p.matches({ metadata: { namespace: 'ns', labels: { a: 'b' } } })).to.equal(true);
    expect(p.matches({ metadata: { namespace: 'other', labels: { a: 'b' } } })).to.equal(false);
  });

  it('agrees with matching the whole field set and labels through the selectors (property)', () => {
    const value = fc.constantFrom('', 'a', 'b', 'true', '1');
    const jsonValue = fc.oneof(fc.constantFrom('', 'a', 'b', 'true', '1', null), fc.boolean(), fc.constantFrom(0, 1, -1), fc.dictionary(fc.constantFrom('x'), fc.constant('a'), { maxKeys: 1 }));
    const obj = fc.record({
      metadata: fc.record({ name: value, namespace: value, labels: fc.dictionary(fc.constantFrom('app', 'tier'), value, { maxKeys: 2 }) }, { requiredKeys: [] }),
      spec: fc.record({ color: jsonValue, size: jsonValue, n: fc.record({ m: jsonValue }, { requiredKeys: [] }) }, { requiredKeys: [] }),
    }, { requiredKeys: [] });
    const field = fc.constantFrom('metadata.name', 'metadata.namespace', 'spec.color', 'spec.size', 'spec.n.m');
    const term = fc.tuple(field, fc.constantFrom('=', '!=', '=='), value).map(([f, op, v]) => `${f}${op}${v}`);
    const labelTerm = fc.constantFrom('app', '!app', 'app=a', 'tier!=b', 'tier in (a,b)', 'app notin (a)');
    const options = { namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }, { jsonPath: '.spec.n.m' }] };
    const fields = createCustomResourceFields(options);
    fc.assert(fc.property(fc.array(term, { maxLength: 4 }), fc.array(labelTerm, { maxLength: 2 }), fc.array(obj, { maxLength: 5 }), (terms, labelTerms, objs) => {
      const fs = parseFieldSelector(terms.join(','));
      const ls = parseLabelSelector(labelTerms.join(','));
      const p = selectorMatcher({ fields, fieldSelector: fs, labelSelector: ls });
      for (const o of objs) {
        const expected = fs.matches(fields.fieldSet(o)) && ls.matches(o.metadata?.labels ?? {});
        expect(p.matches(o)).to.equal(expected);
        expect(fs.matches(fields.fieldGetter(o))).to.equal(fs.matches(fields.fieldSet(o)));
      }
    }));
  });
});
