import { expect } from 'chai';
import fc from 'fast-check';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import {
  applyDefaults,
  coerceObjectMeta,
  compileSchema,
  defaultAndPrune,
  prune,
  pruneNonNullableNullsWithoutDefaults,
} from '@kubekit/defaulter';

// Keys that collide with schema properties, meta fields and Object.prototype members.
const keyArb = fc.constantFrom('a', 'b', 'c', 'name', 'labels', 'apiVersion', 'kind', 'metadata', '__proto__', 'constructor', 'toString', 'x.y');

const scalarArb = fc.oneof(
  fc.constant(null), fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('', 's', 'v1'),
  fc.constantFrom(12345678901234567890n, 1.5),
);

const { json: jsonArb } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(keyArb, tie('json'), { maxKeys: 4 }),
  ),
}));

function schemaArb(depth: number): fc.Arbitrary<JSONSchemaProps> {
  const child: fc.Arbitrary<JSONSchemaProps> = depth <= 0 ? fc.constant({}) : schemaArb(depth - 1);
  const flag = fc.option(fc.boolean(), { nil: undefined, freq: 2 });
  return fc.record({
    type: fc.option(fc.constantFrom('object', 'array', 'string', 'integer') as fc.Arbitrary<JSONSchemaProps['type']>, { nil: undefined }),
    properties: fc.option(fc.dictionary(keyArb, child, { maxKeys: 3 }), { nil: undefined, freq: 2 }),
    items: fc.option(child, { nil: undefined, freq: 3 }),
    additionalProperties: fc.option(fc.oneof(fc.boolean(), child), { nil: undefined, freq: 3 }),
    default: fc.option(jsonArb, { nil: undefined, freq: 2 }) as fc.Arbitrary<JSONSchemaProps['default']>,
    nullable: flag,
    'x-kubernetes-preserve-unknown-fields': flag,
    'x-kubernetes-embedded-resource': flag,
    'x-kubernetes-int-or-string': flag,
    allOf: fc.option(fc.array(child, { maxLength: 1 }), { nil: undefined, freq: 5 }),
  }, { requiredKeys: [] });
}

// Objects shaped like resources some of the time, so that metadata and embedded resources occur.
const objectArb = fc.oneof(
  jsonArb,
  fc.record({
    apiVersion: fc.constantFrom('v1', 5 as unknown as string),
    kind: fc.constant('Foo'),
    metadata: fc.oneof(jsonArb, fc.record({ name: fc.constantFrom('n', ''), labels: fc.dictionary(keyArb, fc.oneof(fc.constant('v'), fc.constant(null))) })),
    a: jsonArb,
    b: jsonArb,
  }, { requiredKeys: [] }),
);

function serialize(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? 'undefined';
}

/** What an operation did: its result and the object afterwards, or the error it threw. */
function outcome(object: unknown, op: (o: unknown) => unknown): string {
  const o = structuredClone(object);
  try {
    return `ok ${serialize(op(o))} ${serialize(o)}`;
  } catch (err) {
    if (!(err instanceof KubeError)) throw err;
    return `error ${err.reason} ${err.message}`;
  }
}

const runs = { numRuns: 400 };
const rootArb = fc.boolean();

describe('compileSchema', () => {
  describe('gives the results of the uncompiled functions (property)', () => {
    it('does prune', () => {
      fc.assert(fc.property(schemaArb(3), objectArb, rootArb, fc.boolean(), (schema, object, isResourceRoot, returnPruned) => {
        const compiled = compileSchema(schema);
        expect(outcome(object, (o) => compiled.prune(o, { isResourceRoot, returnPruned })))
          .to.equal(outcome(object, (o) => prune(o, schema, { isResourceRoot, returnPruned })));
      }), runs);
    });

    it('does pruneNonNullableNullsWithoutDefaults', () => {
      fc.assert(fc.property(schemaArb(3), objectArb, (schema, object) => {
        const compiled = compileSchema(schema);
        expect(outcome(object, (o) => compiled.pruneNonNullableNullsWithoutDefaults(o)))
          .to.equal(outcome(object, (o) => pruneNonNullableNullsWithoutDefaults(o, schema)));
      }), runs);
    });

    it('does applyDefaults', () => {
      fc.assert(fc.property(schemaArb(3), objectArb, (schema, object) => {
        const compiled = compileSchema(schema);
        expect(outcome(object, (o) => compiled.applyDefaults(o))).to.equal(outcome(object, (o) => applyDefaults(o, schema)));
      }), runs);
    });

    it('does coerceObjectMeta', () => {
      fc.assert(fc.property(schemaArb(3), objectArb, rootArb, fc.boolean(), (schema, object, isResourceRoot, dropInvalidFields) => {
        const compiled = compileSchema(schema);
        expect(outcome(object, (o) => compiled.coerceObjectMeta(o, { isResourceRoot, dropInvalidFields })))
          .to.equal(outcome(object, (o) => coerceObjectMeta(o, schema, { isResourceRoot, dropInvalidFields })));
      }), runs);
    });

    it('does defaultAndPrune', () => {
      fc.assert(fc.property(schemaArb(3), objectArb, rootArb, fc.boolean(), (schema, object, isResourceRoot, dropInvalidMetadata) => {
        const compiled = compileSchema(schema);
        expect(outcome(object, (o) => compiled.defaultAndPrune(o, { isResourceRoot, dropInvalidMetadata })))
          .to.equal(outcome(object, (o) => defaultAndPrune(o, schema, { isResourceRoot, dropInvalidMetadata })));
      }), runs);
    });

    it('does every operation the same when the compiled schema is reused for many objects', () => {
      fc.assert(fc.property(schemaArb(3), fc.array(objectArb, { minLength: 2, maxLength: 4 }), (schema, objects) => {
        const compiled = compileSchema(schema);
        for (const object of objects) {
          expect(outcome(object, (o) => compiled.defaultAndPrune(o, { isResourceRoot: true })))
            .to.equal(outcome(object, (o) => defaultAndPrune(o, schema, { isResourceRoot: true })));
        }
      }), { numRuns: 100 });
    });
  });

  it('does not read the parts of an object that no default or prune can change', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 1 },
            blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            template: { type: 'object', properties: { image: { type: 'string', nullable: true } } },
          },
        },
      },
    };
    const touched: string[] = [];
    const watched = (name: string, target: Record<string, unknown>): Record<string, unknown> => new Proxy(target, {
      get: (t, k, r) => { touched.push(`${name}.${String(k)}`); return Reflect.get(t, k, r) as unknown; },
      ownKeys: (t) => { touched.push(`${name} keys`); return Reflect.ownKeys(t); },
      getOwnPropertyDescriptor: (t, k) => { touched.push(`${name}.${String(k)}`); return Reflect.getOwnPropertyDescriptor(t, k); },
    });
    const obj = { spec: { blob: watched('blob', { deep: { x: 1 } }), template: watched('template', { image: 'i' }) } };
    const compiled = compileSchema(schema);
    compiled.applyDefaults(obj);
    compiled.pruneNonNullableNullsWithoutDefaults(obj);
    expect(obj.spec).to.have.property('replicas', 1);
    expect(touched).to.deep.equal([]);
    compiled.prune(obj, { isResourceRoot: true });
    expect(touched.filter((t) => t.startsWith('blob'))).to.deep.equal([]);
    expect(touched).to.include('template keys');
  });

  it('captures defaults when compiling: later edits of the schema are not seen', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'object', default: { x: 1 } } } };
    const compiled = compileSchema(schema);
    (schema.properties?.a.default as Record<string, unknown>).x = 2;
    const obj: Record<string, unknown> = {};
    compiled.applyDefaults(obj);
    expect(obj).to.deep.equal({ a: { x: 1 } });
  });

  it('rejects items given as a list of schemas with BadRequest', () => {
    expect(() => compileSchema({ type: 'array', items: [{ type: 'string' }] }))
      .to.throw(KubeError, "OpenAPIV3Schema 'items' must be a schema, but is an array").with.property('reason', 'BadRequest');
  });

  it('rejects a schema nested 10,000 levels deep, and a cyclic one, with BadRequest naming the depth', () => {
    let deep: JSONSchemaProps = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(() => compileSchema(deep)).to.throw(KubeError, 'schema nesting exceeds the maximum depth of 1000').with.property('reason', 'BadRequest');
    const cyclic: JSONSchemaProps = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, JSONSchemaProps>).self = cyclic;
    expect(() => compileSchema(cyclic)).to.throw(KubeError, 'schema nesting exceeds the maximum depth of 1000');
  });

  it('treats a missing schema as no schema', () => {
    const compiled = compileSchema(undefined);
    const obj = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: { a: null } };
    compiled.applyDefaults(obj);
    compiled.pruneNonNullableNullsWithoutDefaults(obj);
    expect(obj.spec).to.deep.equal({ a: null });
    expect(compiled.prune(obj, { isResourceRoot: true })).to.deep.equal(['spec']);
    expect(obj).to.deep.equal({ apiVersion: 'v1', kind: 'X', metadata: { name: 'a' } });
  });
});
