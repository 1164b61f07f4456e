import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { copy, docsNullableSchema, fixture, implementations, type Schema } from './support.js';

interface NullsCase {
  id: string;
  group: string;
  name: string;
  upstream: string;
  schema?: Schema;
  input?: unknown;
  expected?: unknown;
}

// Transcribed from apiextensions-apiserver pkg/apiserver/schema/defaulting/prunenulls_test.go
// TestPruneNonNullableNullsWithoutDefaults.
const cases = fixture<{ cases: NullsCase[] }>('defaulting.json').cases
  .filter((c) => c.group === 'pruneNonNullableNullsWithoutDefaults');

for (const impl of implementations) {
  describe(`pruneNonNullableNullsWithoutDefaults (${impl.name})`, () => {
    describe('upstream TestPruneNonNullableNullsWithoutDefaults', () => {
      for (const c of cases) {
        it(`does ${c.id} ${c.name}`, () => {
          const obj = copy(c.input);
          impl.bind(c.schema).pruneNonNullableNullsWithoutDefaults(obj);
          expect(obj).to.deep.equal(c.expected ?? null);
        });
      }
    });

    it('does the docs page\'s nullable example: baz removed, foo left for defaulting, bar kept', () => {
      const obj = { spec: { foo: null, bar: null, baz: null } };
      const ops = impl.bind(docsNullableSchema);
      ops.pruneNonNullableNullsWithoutDefaults(obj);
      expect(obj).to.deep.equal({ spec: { foo: null, bar: null } });
      ops.applyDefaults(obj);
      expect(obj).to.deep.equal({ spec: { foo: 'default', bar: null } });
    });

    it('removes nulls of additionalProperties values and keeps nulls in arrays', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          m: { type: 'object', additionalProperties: { type: 'string' } },
          l: { type: 'array', items: { type: 'string' } },
          p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      };
      const obj = { m: { a: null, b: 'x' }, l: [null, 'x'], p: { unknown: null } };
      impl.bind(schema).pruneNonNullableNullsWithoutDefaults(obj);
      expect(obj).to.deep.equal({ m: { b: 'x' }, l: [null, 'x'], p: { unknown: null } });
    });

    it('fails with BadRequest naming the maximum depth for 10,000 levels', () => {
      let schema: JSONSchemaProps = { type: 'object', properties: { gone: { type: 'string' } } };
      let obj: Record<string, unknown> = { gone: null };
      for (let i = 0; i < 10_000; i++) {
        schema = { type: 'object', properties: { a: schema } };
        obj = { a: obj };
      }
      const run = (): void => impl.bind(schema).pruneNonNullableNullsWithoutDefaults(obj);
      expect(run).to.throw(KubeError, /maximum depth of 1000/).with.property('reason', 'BadRequest');
    });
  });
}
