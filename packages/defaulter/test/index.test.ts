// Guarantees every operation of the package gives for untrusted input: no prototype pollution, no
// shared defaults, and bounded recursion.
import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { maxNestingDepth } from '@kubekit/defaulter';
import { hostileSchemaText, implementations, type Operations } from './support.js';

const hostileObjectText = `{
  "apiVersion": "x/v1", "kind": "X",
  "metadata": { "name": "n", "__proto__": { "polluted": "meta" }, "labels": { "__proto__": "label" } },
  "__proto__": { "polluted": "object", "junk": 1 },
  "constructor": { "prototype": { "polluted": "object-ctor" } },
  "prototype": { "__proto__": null, "constructor": null },
  "spec": { "__proto__": { "polluted": "spec" }, "toString": null, "hasOwnProperty": { "polluted": "x" } },
  "list": [ { "__proto__": null }, {}, null ],
  "embedded": { "apiVersion": "v1", "kind": "Pod", "metadata": { "__proto__": { "polluted": "embedded" }, "constructor": 1 } }
}`;

type Run = (ops: Operations, obj: unknown) => unknown;

const operations: Record<string, Run> = {
  prune: (ops, o) => ops.prune(o, { isResourceRoot: true }),
  pruneNonNullableNullsWithoutDefaults: (ops, o) => ops.pruneNonNullableNullsWithoutDefaults(o),
  applyDefaults: (ops, o) => ops.applyDefaults(o),
  coerceObjectMeta: (ops, o) => ops.coerceObjectMeta(o, { isResourceRoot: true, dropInvalidFields: true }),
  defaultAndPrune: (ops, o) => ops.defaultAndPrune(o, { isResourceRoot: true }),
};

/** Every object and array in `v` still has its ordinary prototype. */
function prototypesIntact(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  const expected = Array.isArray(v) ? Array.prototype : Object.prototype;
  if (Object.getPrototypeOf(v) !== expected) return false;
  return Object.values(v).every(prototypesIntact);
}

function mutateAll(v: unknown): void {
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    v.forEach(mutateAll);
    v.push('mutated');
    return;
  }
  for (const k of Object.keys(v)) mutateAll((v as Record<string, unknown>)[k]);
  (v as Record<string, unknown>).mutated = true;
}

/** Fails a test that polluted Object.prototype, and cleans up so later tests are unaffected. */
function checkNoPollution(): void {
  const polluted = Object.hasOwn(Object.prototype, 'polluted');
  delete (Object.prototype as Record<string, unknown>).polluted;
  expect(polluted, 'Object.prototype was polluted').to.equal(false);
}

for (const impl of implementations) {
  describe(`prototype pollution and shared defaults (${impl.name})`, () => {
    afterEach(checkNoPollution);

    for (const [name, run] of Object.entries(operations)) {
      it(`does ${name} on hostile input without touching any prototype or shared default`, () => {
        const schema = JSON.parse(hostileSchemaText) as JSONSchemaProps;
        const ops = impl.bind(schema);
        for (const text of [hostileObjectText, '{"apiVersion":"x/v1","kind":"X"}', '{"list":[{},{}],"prototype":{"a":null}}']) {
          const obj = JSON.parse(text) as unknown;
          run(ops, obj);
          expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
          expect(prototypesIntact(obj), 'prototypes of the result').to.equal(true);
          mutateAll(obj);
        }
        expect(JSON.stringify(schema)).to.equal(JSON.stringify(JSON.parse(hostileSchemaText)));
      });
    }

    it('does applyDefaults on __proto__, constructor and prototype properties as plain data', () => {
      const ops = impl.bind(JSON.parse(hostileSchemaText) as JSONSchemaProps);
      const obj = JSON.parse('{"prototype":{"a":null},"list":[{}]}') as Record<string, unknown>;
      ops.applyDefaults(obj);
      expect(Object.getPrototypeOf(obj)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(obj, '__proto__')?.value).to.deep.equal({ polluted: 'proto-default' });
      expect(Object.getOwnPropertyDescriptor(obj, 'constructor')?.value).to.deep.equal({ prototype: { polluted: 'ctor-default' } });
      expect(obj.prototype).to.deep.equal({ a: { polluted: 'ap-default' } });
      const spec = obj.spec as Record<string, unknown>;
      expect(Object.getPrototypeOf(spec)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(spec, '__proto__')?.value).to.deep.equal({ polluted: 'nested-default' });
      const item = (obj.list as Record<string, unknown>[])[0];
      expect(Object.getOwnPropertyDescriptor(item, '__proto__')?.value).to.deep.equal({ polluted: 'item-default' });
    });

    it('does prune remove unknown __proto__ and constructor fields as data', () => {
      const ops = impl.bind({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } });
      const obj = JSON.parse('{"__proto__":{"x":1},"constructor":{"prototype":{}},"a":{"__proto__":1,"b":"k"}}') as Record<string, unknown>;
      expect(ops.prune(obj, { isResourceRoot: false })).to.deep.equal(['__proto__', 'a.__proto__', 'constructor']);
      expect(Object.keys(obj)).to.deep.equal(['a']);
      expect(obj.a).to.deep.equal({ b: 'k' });
    });
  });

  describe(`bounded recursion (${impl.name})`, () => {
    let deepSchema: JSONSchemaProps = { type: 'object', properties: { leaf: { type: 'string', default: 'x' } } };
    for (let i = 0; i < 10_000; i++) deepSchema = { type: 'object', 'x-kubernetes-embedded-resource': i % 2 === 0, properties: { a: deepSchema } };
    // Built fresh for every test: structuredClone itself overflows the stack on such input.
    const deepObject = (): Record<string, unknown> => {
      let o: Record<string, unknown> = { leaf: null };
      for (let i = 0; i < 10_000; i++) o = { a: o };
      return o;
    };
    for (const [name, run] of Object.entries(operations)) {
      it(`does ${name} on 10,000 levels with a BadRequest naming the maximum depth`, () => {
        const attempt = (): unknown => run(impl.bind(deepSchema), deepObject());
        expect(attempt).to.throw(KubeError, `maximum depth of ${maxNestingDepth}`).with.property('reason', 'BadRequest');
      });

      it(`does ${name} on 10,000 levels under x-kubernetes-preserve-unknown-fields without walking them`, () => {
        const schema: JSONSchemaProps = { type: 'object', properties: { json: { 'x-kubernetes-preserve-unknown-fields': true } } };
        const obj = { json: deepObject() };
        run(impl.bind(schema), obj);
        expect(obj.json).to.have.property('a');
      });
    }

    it('does defaultAndPrune on a 10,000-level kind with a BadRequest, not a stack overflow', () => {
      let kind: unknown = 'x';
      for (let i = 0; i < 10_000; i++) kind = [kind];
      expect(() => impl.bind({ type: 'object' }).defaultAndPrune({ kind }, { isResourceRoot: true }))
        .to.throw(KubeError, `maximum depth of ${maxNestingDepth}`);
    });
  });
}
