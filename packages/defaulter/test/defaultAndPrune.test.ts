import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { copy, docsNullableSchema, fixture, implementations, type Operations, type Schema } from './support.js';

interface EmbeddedCase {
  id: string;
  group: string;
  upstream: string;
  schema: Schema;
  input: unknown;
  expected: { paths: Record<string, unknown> };
}

// Transcribed from apiextensions-apiserver test/integration/defaulting_test.go
// TestCustomResourceDefaultingOfMetaFields.
const embeddedCase = fixture<{ cases: EmbeddedCase[] }>('defaulting.json').cases.find((c) => c.group === 'integrationEmbedded') as EmbeddedCase;

function at(obj: unknown, path: string): unknown {
  let v = obj;
  for (const k of path.split('.')) v = (v as Record<string, unknown>)[k];
  return v;
}

/** The spec or status schema of defaulting_test.go's versions, with the given defaults. */
function part(defaults: Record<string, string | undefined>, replicas: number): JSONSchemaProps {
  const props: Record<string, JSONSchemaProps> = { replicas: { type: 'integer', format: 'int32', minimum: 0, default: replicas } };
  for (const k of ['a', 'b', 'c', 'v1beta1', 'v1beta2']) {
    props[k] = defaults[k] === undefined ? { type: 'string' } : { type: 'string', default: defaults[k] };
  }
  return { type: 'object', properties: props };
}

function versionSchema(defaults: Record<string, string | undefined>): JSONSchemaProps {
  return { type: 'object', properties: { spec: part(defaults, 1), status: part(defaults, 0) } };
}

for (const impl of implementations) {
  describe(`defaultAndPrune (${impl.name})`, () => {
    it(`does ${embeddedCase.id}: defaults of embedded TypeMeta/ObjectMeta with unknown metadata pruned`, () => {
      const obj = copy(embeddedCase.input);
      impl.bind(embeddedCase.schema).defaultAndPrune(obj, { isResourceRoot: true });
      for (const [path, value] of Object.entries(embeddedCase.expected.paths)) expect(at(obj, path), path).to.deep.equal(value);
    });

    it('does the docs page\'s nullable example: foo defaulted, bar kept null, baz removed', () => {
      const obj = { apiVersion: 'x/v1', kind: 'X', spec: { foo: null, bar: null, baz: null } };
      expect(impl.bind(docsNullableSchema).defaultAndPrune(obj, { isResourceRoot: true })).to.deep.equal([]);
      expect(obj.spec).to.deep.equal({ foo: 'default', bar: null });
    });

    it('prunes unknown fields before defaulting and reports them with unknown root metadata fields first', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: {
          metadata: { type: 'object' },
          spec: { type: 'object', properties: { replicas: { type: 'integer', default: 1 }, extra: { type: 'object', properties: { a: { type: 'string' } } } } },
        },
      };
      const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', bogus: 1 }, spec: { junk: true, extra: { a: 'x', b: 'y' } }, status: {} };
      const paths = impl.bind(schema).defaultAndPrune(obj, { isResourceRoot: true });
      expect(paths).to.deep.equal(['metadata.bogus', 'spec.extra.b', 'spec.junk', 'status']);
      expect(obj).to.deep.equal({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', creationTimestamp: null }, spec: { extra: { a: 'x' }, replicas: 1 } });
      const quiet = { apiVersion: 'x/v1', kind: 'X', spec: { junk: true } };
      expect(impl.bind(schema).defaultAndPrune(quiet, { isResourceRoot: true, returnPruned: false })).to.deep.equal([]);
      expect(quiet).to.deep.equal({ apiVersion: 'x/v1', kind: 'X', spec: { replicas: 1 } });
    });

    it('applies defaults pruned as the apiserver prunes them', () => {
      const schema: JSONSchemaProps = {
        type: 'object',
        properties: { spec: { type: 'object', default: { a: 'x', unknown: 'y' }, properties: { a: { type: 'string' } } } },
      };
      const obj: Record<string, unknown> = { apiVersion: 'x/v1', kind: 'X' };
      impl.bind(schema).defaultAndPrune(obj, { isResourceRoot: true });
      expect(obj.spec).to.deep.equal({ a: 'x' });
      const plain: Record<string, unknown> = {};
      impl.bind(schema).applyDefaults(plain);
      expect(plain.spec).to.deep.equal({ a: 'x', unknown: 'y' });
    });

    it('fails a request whose root metadata is malformed with the apiserver\'s message, or drops the field on reads', () => {
      const obj = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n', annotations: 11 } };
      expect(() => impl.bind({ type: 'object' }).defaultAndPrune(copy(obj), { isResourceRoot: true }))
        .to.throw(KubeError, /^json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map\[string\]string$/)
        .with.property('reason', 'BadRequest');
      const read = copy(obj);
      impl.bind({ type: 'object' }).defaultAndPrune(read, { isResourceRoot: true, dropInvalidMetadata: true });
      expect(read.metadata).to.deep.equal({ name: 'n', creationTimestamp: null });
    });

    it('fails when the root kind or apiVersion is not a string', () => {
      expect(() => impl.bind({ type: 'object' }).defaultAndPrune({ kind: 5 }, { isResourceRoot: true }))
        .to.throw(KubeError, '.kind accessor error: 5 is of the type int64, expected string');
    });

    it('leaves the root alone when it is not a resource root', () => {
      const schema: JSONSchemaProps = { type: 'object', properties: { a: { type: 'string', default: 'x' } } };
      const obj = { metadata: { bogus: 1 }, b: 1 };
      expect(impl.bind(schema).defaultAndPrune(obj, { isResourceRoot: false })).to.deep.equal(['b']);
      expect(obj).to.deep.equal({ a: 'x' });
    });

    // After apiextensions-apiserver test/integration/defaulting_test.go testDefaulting, at the level of
    // the decoder: requests are decoded with the request version's schema, reads from storage with the
    // storage version's schema, and whatever was defaulted on a write is persisted.
    describe('request and storage version defaults (defaulting_test.go testDefaulting)', () => {
      const storage = new Map<string, unknown>();
      const write = (obj: unknown): void => void storage.set('foo', JSON.parse(JSON.stringify(obj)));
      const read = (ops: Operations): Record<string, Record<string, unknown>> => {
        const obj = structuredClone(storage.get('foo')) as Record<string, Record<string, unknown>>;
        ops.defaultAndPrune(obj, { isResourceRoot: true, dropInvalidMetadata: true });
        return obj;
      };
      let v1beta1: Operations;
      let v1beta2: Operations;

      it('defaults a create with v1beta1 defaults, and reads with v1beta2 (storage) defaults', () => {
        v1beta1 = impl.bind(versionSchema({ a: 'A', b: 'B', v1beta1: 'v1beta1' }));
        v1beta2 = impl.bind(versionSchema({ a: 'A', b: 'B', v1beta2: 'v1beta2' }));
        const req: Record<string, unknown> = { apiVersion: 'tests.example.com/v1beta1', kind: 'Foo', metadata: { name: 'foo' }, spec: { a: 'a' }, status: { b: 'b' } };
        v1beta1.defaultAndPrune(req, { isResourceRoot: true });
        delete req.status; // the main resource's strategy resets status on create
        write({ ...req, apiVersion: 'tests.example.com/v1beta2' });
        const got = read(v1beta2);
        expect(got.spec).to.deep.equal({ a: 'a', b: 'B', v1beta1: 'v1beta1', replicas: 1, v1beta2: 'v1beta2' });
        expect(got).to.not.have.property('status');
      });

      it('defaults a status update with v1beta1 defaults and persists them', () => {
        const req = { ...read(v1beta2), apiVersion: 'tests.example.com/v1beta1', status: {} };
        v1beta1.defaultAndPrune(req, { isResourceRoot: true });
        write(req);
        const got = read(v1beta2);
        expect(got.status).to.include({ a: 'A', b: 'B', replicas: 0 });
      });

      it('applies a new storage version default (c) on read without rewriting storage', () => {
        v1beta2 = impl.bind(versionSchema({ a: 'A', b: 'B', c: 'C', v1beta2: 'v1beta2' }));
        const got = read(v1beta2);
        expect(got.spec).to.include({ c: 'C' });
        expect(got.status).to.include({ c: 'C' });
        expect(storage.get('foo')).to.not.have.nested.property('spec.c');
      });

      it('applies only storage version defaults on read once c moves to v1beta1', () => {
        v1beta1 = impl.bind(versionSchema({ a: 'A', b: 'B', c: 'C', v1beta1: 'v1beta1' }));
        v1beta2 = impl.bind(versionSchema({ a: 'A', b: 'B', v1beta2: 'v1beta2' }));
        const got = read(v1beta2);
        expect(got.spec).to.not.have.property('c');
        expect(got.status).to.not.have.property('c');
      });

      it('persists status.c from a status update decoded with v1beta1 defaults, spec reset from the old object', () => {
        const old = read(v1beta2);
        const req = { ...structuredClone(old), apiVersion: 'tests.example.com/v1beta1' };
        v1beta1.defaultAndPrune(req, { isResourceRoot: true });
        write({ ...req, spec: old.spec }); // the status strategy keeps the old spec
        v1beta1 = impl.bind(versionSchema({ v1beta1: 'v1beta1' }));
        const got = read(v1beta2);
        expect(got.status).to.include({ a: 'A', b: 'B', c: 'C' });
        expect(got.spec).to.include({ a: 'a', b: 'B' }).and.not.have.property('c');
      });
    });
  });
}
