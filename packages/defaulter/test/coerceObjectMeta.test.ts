import { expect } from 'chai';
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { copy, fixture, implementations, type Schema } from './support.js';

interface CoerceCase {
  id: string;
  name: string;
  upstream: string;
  schema: Schema;
  isResourceRoot: boolean;
  dropInvalidFields: boolean;
  input: unknown;
  expected: unknown;
  unknownFieldPaths: string[];
}

interface GetObjectMetaCase {
  name: string;
  upstream: string;
  input: { metadata: unknown };
  dropMalformedFields: boolean;
  expectedError?: string;
  expectedMetadata?: unknown;
  unknownFieldPaths?: string[];
}

// Transcribed from apiextensions-apiserver pkg/apiserver/schema/objectmeta/algorithm_test.go TestCoerce
// and coerce_test.go TestGetObjectMetaWithOptions.
const vectors = fixture<{ coerce: CoerceCase[]; getObjectMeta: GetObjectMetaCase[] }>('objectmeta.json');

const embeddedSchema: JSONSchemaProps = {
  type: 'object',
  properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
};

function coerced(impl: (typeof implementations)[number], metadata: unknown, dropInvalidFields = false): { meta: unknown; paths: string[] } {
  const obj = { template: { apiVersion: 'v1', kind: 'Pod', metadata } };
  const paths = impl.bind(embeddedSchema).coerceObjectMeta(obj, { isResourceRoot: false, dropInvalidFields });
  return { meta: obj.template.metadata, paths };
}

for (const impl of implementations) {
  describe(`coerceObjectMeta (${impl.name})`, () => {
    describe('upstream TestCoerce', () => {
      for (const c of vectors.coerce) {
        it(`does ${c.id} ${c.name}`, () => {
          const obj = copy(c.input);
          const paths = impl.bind(c.schema).coerceObjectMeta(obj, { isResourceRoot: c.isResourceRoot, dropInvalidFields: c.dropInvalidFields });
          expect(obj).to.deep.equal(c.expected);
          expect(paths).to.deep.equal(c.unknownFieldPaths);
        });
      }
    });

    describe('upstream TestGetObjectMetaWithOptions', () => {
      for (const c of vectors.getObjectMeta) {
        it(`does ${c.name}`, () => {
          const obj = copy(c.input);
          const run = (): string[] => impl.bind({ type: 'object' }).coerceObjectMeta(obj, { isResourceRoot: true, dropInvalidFields: c.dropMalformedFields });
          if (c.expectedError !== undefined) {
            expect(run).to.throw(KubeError, `metadata: Invalid value: `).with.property('message').that.contains(c.expectedError);
            return;
          }
          expect(run()).to.deep.equal(c.unknownFieldPaths);
          expect(obj.metadata).to.deep.equal(c.expectedMetadata);
        });
      }
    });

    it('rejects a non-string apiVersion or kind of an embedded resource unless invalid fields are dropped', () => {
      const obj = { template: { apiVersion: 1, kind: 'Pod' } };
      expect(() => impl.bind(embeddedSchema).coerceObjectMeta(obj, { isResourceRoot: false }))
        .to.throw(KubeError, 'template.apiVersion: Invalid value: 1: must be a string').with.property('reason', 'BadRequest');
      impl.bind(embeddedSchema).coerceObjectMeta(obj, { isResourceRoot: false, dropInvalidFields: true });
      expect(obj).to.deep.equal({ template: { kind: 'Pod' } });
    });

    it('writes timestamps back as RFC 3339 UTC seconds and removes a zero creationTimestamp', () => {
      expect(coerced(impl, { creationTimestamp: '2026-11-21T12:30:45.123456+02:00', deletionTimestamp: '2026-11-21T10:30:45Z' }).meta)
        .to.deep.equal({ creationTimestamp: '2026-11-21T10:30:45Z', deletionTimestamp: '2026-11-21T10:30:45Z' });
      expect(coerced(impl, { name: 'a', creationTimestamp: null }).meta).to.deep.equal({ name: 'a' });
      expect(coerced(impl, { name: 'a', creationTimestamp: '0001-01-01T00:00:00Z' }).meta).to.deep.equal({ name: 'a' });
    });

    it('fails on a timestamp that is not RFC 3339, or drops it', () => {
      expect(() => coerced(impl, { name: 'a', creationTimestamp: 'yesterday' })).to.throw(KubeError, /parsing time "yesterday"/);
      expect(coerced(impl, { name: 'a', creationTimestamp: '2026-02-30T00:00:00Z' }, true).meta).to.deep.equal({ name: 'a' });
    });

    it('omits empty fields, turns null label values into empty strings and keeps pointer zeros', () => {
      expect(coerced(impl, { name: '', namespace: null, labels: {}, annotations: { a: null }, finalizers: [], generation: 0, deletionGracePeriodSeconds: 0 }).meta)
        .to.deep.equal({ annotations: { a: '' }, deletionGracePeriodSeconds: 0 });
    });

    it('prunes unknown fields inside ownerReferences and managedFields and reports them', () => {
      const { meta, paths } = coerced(impl, {
        name: 'a', clusterName: 'gone',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u1', controller: false, extra: 1 }],
        managedFields: [{ manager: 'kubectl', operation: 'Update', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} }, junk: true }],
      });
      expect(meta).to.deep.equal({
        name: 'a',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'u1', controller: false }],
        managedFields: [{ manager: 'kubectl', operation: 'Update', time: '2026-11-21T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
      });
      expect(paths).to.deep.equal([
        'template.metadata.clusterName', 'template.metadata.managedFields[0].junk', 'template.metadata.ownerReferences[0].extra',
      ]);
    });

    it('fails on a generation that is not an integer, or drops just that field', () => {
      expect(() => coerced(impl, { name: 'a', generation: 1.5 }))
        .to.throw(KubeError, /json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64/);
      expect(coerced(impl, { name: 'a', generation: 1.5, uid: 'x' }, true).meta).to.deep.equal({ name: 'a', uid: 'x' });
      expect(coerced(impl, { generation: 9007199254740993n }).meta).to.deep.equal({ generation: 9007199254740993n });
    });

    it('keeps a __proto__ label as data', () => {
      const labels = JSON.parse('{"__proto__": "x", "constructor": "y"}') as unknown;
      const { meta } = coerced(impl, { labels });
      const out = (meta as { labels: Record<string, unknown> }).labels;
      expect(Object.keys(out)).to.deep.equal(['__proto__', 'constructor']);
      expect(Object.getPrototypeOf(out)).to.equal(Object.prototype);
    });
  });
}
