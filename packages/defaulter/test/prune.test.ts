import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { copy, fixture, implementations, type Schema } from './support.js';

interface PruneCase {
  id: string;
  name: string;
  upstream: string;
  schema?: Schema;
  isResourceRoot: boolean;
  input?: unknown;
  expected: { object: unknown; prunedPaths: string[] };
}

// Transcribed from apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm_test.go TestPrune.
const cases = fixture<{ cases: PruneCase[] }>('pruning.json').cases;

const crontabSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } },
    },
  },
};

for (const impl of implementations) {
  describe(`prune (${impl.name})`, () => {
    describe('upstream TestPrune', () => {
      for (const c of cases) {
        it(`does ${c.id} ${c.name}`, () => {
          const obj = copy(c.input);
          const paths = impl.bind(c.schema).prune(obj, { isResourceRoot: c.isResourceRoot });
          expect(obj).to.deep.equal(c.expected.object);
          expect(paths).to.deep.equal(c.expected.prunedPaths);
        });

        it(`does ${c.id} ${c.name} without collecting paths`, () => {
          const obj = copy(c.input);
          const paths = impl.bind(c.schema).prune(obj, { isResourceRoot: c.isResourceRoot, returnPruned: false });
          expect(obj).to.deep.equal(c.expected.object);
          expect(paths).to.deep.equal([]);
        });
      }
    });

    it('prunes the docs page\'s someRandomField and keeps apiVersion, kind and metadata at the root', () => {
      const obj = {
        apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' },
        spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', someRandomField: 42 },
      };
      expect(impl.bind(crontabSchema).prune(obj, { isResourceRoot: true })).to.deep.equal(['spec.someRandomField']);
      expect(obj).to.deep.equal({
        apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object' },
        spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' },
      });
    });

    it('drops apiVersion, kind and metadata silently when the value is not a resource root', () => {
      const obj = { apiVersion: 'v1', kind: 'X', metadata: {}, other: 1 };
      expect(impl.bind({ type: 'object' }).prune(obj, { isResourceRoot: false })).to.deep.equal(['other']);
      expect(obj).to.deep.equal({});
    });

    it('resumes pruning under specified properties of x-kubernetes-preserve-unknown-fields (docs page)', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          json: {
            'x-kubernetes-preserve-unknown-fields': true, type: 'object',
            properties: { spec: { type: 'object', properties: { foo: { type: 'string' }, bar: { type: 'string' } } } },
          },
        },
      };
      const obj = { json: { spec: { foo: 'abc', bar: 'def', something: 'x' }, status: { something: 'x' } } };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: true })).to.deep.equal(['json.spec.something']);
      expect(obj).to.deep.equal({ json: { spec: { foo: 'abc', bar: 'def' }, status: { something: 'x' } } });
    });

    it('keeps every field under x-kubernetes-preserve-unknown-fields without properties (docs page)', () => {
      const schema: JSONSchemaProps = { type: 'object', properties: { json: { 'x-kubernetes-preserve-unknown-fields': true } } };
      const obj = { json: { a: [{ b: { c: 1 } }], d: null }, x: 1 };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: true })).to.deep.equal(['x']);
      expect(obj).to.deep.equal({ json: { a: [{ b: { c: 1 } }], d: null } });
    });

    it('keeps items of a preserving array preserving, pruning only their declared properties', () => {
      const schema: JSONSchemaProps = {
        'x-kubernetes-preserve-unknown-fields': true, type: 'array',
        items: { type: 'object', properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } },
      };
      const obj = [{ extra: 1, known: { a: 'x', b: 'y' } }];
      expect(impl.bind(schema).prune(obj, { isResourceRoot: false })).to.deep.equal(['[0].known.b']);
      expect(obj).to.deep.equal([{ extra: 1, known: { a: 'x' } }]);
    });

    it('uses only the structural part: properties inside allOf, anyOf, oneOf and not are pruned', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: { a: { type: 'string' } },
        allOf: [{ properties: { b: { type: 'string' } } }],
        anyOf: [{ properties: { c: { type: 'string' } } }],
        oneOf: [{ properties: { d: { type: 'string' } } }],
        not: { properties: { e: { type: 'string' } } },
      };
      const obj = { a: '1', b: '2', c: '3', d: '4', e: '5' };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: false })).to.deep.equal(['b', 'c', 'd', 'e']);
      expect(obj).to.deep.equal({ a: '1' });
    });

    it('keeps integers and strings of an x-kubernetes-int-or-string field and prunes objects under it', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
          list: { type: 'array', items: { 'x-kubernetes-int-or-string': true } },
        },
      };
      const obj = { port: 8080, list: ['http', 443, { x: 1 }] };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: false })).to.deep.equal(['list[2].x']);
      expect(obj).to.deep.equal({ port: 8080, list: ['http', 443, {}] });
      const named = { port: 'http' };
      expect(impl.bind(schema).prune(named, { isResourceRoot: false })).to.deep.equal([]);
      expect(named).to.deep.equal({ port: 'http' });
    });

    it('keeps the metadata of an embedded resource for coercion and prunes around it', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } } },
      };
      const obj = { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 1 }, spec: { x: 'a', y: 'b' }, status: {} } };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: true })).to.deep.equal(['template.spec.y', 'template.status']);
      expect(obj).to.deep.equal({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 1 }, spec: { x: 'a' } } });
    });

    it('leaves values of the wrong type alone and never fails on them', () => {
      const schema: JSONSchemaProps = { type: 'object', properties: { s: { type: 'string' }, o: { type: 'object', properties: { a: {} } } } };
      const obj = { s: { nested: true }, o: 'text' };
      expect(impl.bind(schema).prune(obj, { isResourceRoot: false })).to.deep.equal(['s.nested']);
      expect(obj).to.deep.equal({ s: {}, o: 'text' });
    });

    it('sorts pruned paths as Go does (by UTF-8 bytes, not UTF-16 code units)', () => {
      const obj = { '\u{ff61}': 1, '\u{1f600}': 2, b: 3, B: 4 };
      expect(impl.bind({ type: 'object' }).prune(obj, { isResourceRoot: false }))
        .to.deep.equal(['B', 'b', '\u{ff61}', '\u{1f600}']);
    });

    it('treats a missing schema at a resource root as an empty embedded resource', () => {
      const obj = { apiVersion: 'v1', kind: 'X', metadata: { name: 'a' }, spec: { a: 1 } };
      expect(impl.bind(undefined).prune(obj, { isResourceRoot: true })).to.deep.equal(['spec']);
      expect(obj).to.deep.equal({ apiVersion: 'v1', kind: 'X', metadata: { name: 'a' } });
    });

    it('fails with BadRequest naming the maximum depth for 10,000 nested arrays without a schema', () => {
      let deep: unknown = [];
      for (let i = 0; i < 10_000; i++) deep = [deep];
      const obj = { a: deep };
      const run = (): unknown => impl.bind({ type: 'object', additionalProperties: true }).prune(obj, { isResourceRoot: false });
      expect(run).to.throw(KubeError, /maximum depth of 1000/).with.property('reason', 'BadRequest');
    });
  });
}
