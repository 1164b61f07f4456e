import { readFileSync } from 'node:fs';
import { parseJSON } from '@kubekit/core';
import type { FieldError } from '@kubekit/core';
import { expect } from 'chai';
import fc from 'fast-check';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps } from '../src/types.js';
import { validateCustomResource } from '../src/validateCustomResource.js';
import type { CustomResourceCELValidator } from '../src/validateCustomResource.js';

const fixtures = new URL('./fixtures/value/', import.meta.url);
const load = (name: string): unknown => parseJSON(readFileSync(new URL(name, fixtures), 'utf8'));
const crontab = load('crontab-crd.json') as CustomResourceDefinition;

function crdWith(schema: JSONSchemaProps | undefined, version: Partial<CustomResourceDefinitionVersion> = {}, scope: 'Namespaced' | 'Cluster' = 'Namespaced'): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope,
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, ...(schema === undefined ? {} : { schema: { openAPIV3Schema: schema } }), ...version }],
    },
  };
}

const widget = (extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = { name: 'w' }): Record<string, unknown> =>
  ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata, ...extra });
const texts = (errors: FieldError[]): string[] => errors.map(String);

describe('validateCustomResource', () => {
  describe('the docs page CronTab', () => {
    it('rejects replicas 15 and cronSpec "* * * *" with the two messages the page shows', () => {
      expect(texts(validateCustomResource(crontab, 'v1', load('crontab-invalid.json')))).to.deep.equal([
        `spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
        'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
      ]);
    });

    it('accepts the page\'s valid CronTab', () => {
      expect(validateCustomResource(crontab, 'v1', load('crontab-valid.json'))).to.deep.equal([]);
    });
  });

  describe('apiVersion and kind', () => {
    it('reports a wrong kind and apiVersion and nothing else', () => {
      const o = { ...(load('crontab-invalid.json') as object), apiVersion: 'stable.example.com/v2', kind: 'Cron' };
      expect(texts(validateCustomResource(crontab, 'v1', o))).to.deep.equal([
        'kind: Invalid value: "Cron": must be CronTab',
        'apiVersion: Invalid value: "stable.example.com/v2": must be stable.example.com/v1',
      ]);
    });

    it('reports an unknown version as not found', () => {
      expect(texts(validateCustomResource(crontab, 'v9', load('crontab-valid.json')))).to.deep.equal(['apiVersion: Not found: "stable.example.com/v9"']);
    });

    it('reports a non-object without throwing', () => {
      expect(validateCustomResource(crontab, 'v1', 'text')).to.have.length(1);
    });
  });

  describe('metadata', () => {
    const crd = crdWith({ type: 'object' });

    it('requires a name or generateName, and a DNS-1123 subdomain name', () => {
      expect(texts(validateCustomResource(crd, 'v1', widget({}, {})))).to.deep.equal(['metadata.name: Required value: name or generateName is required']);
      expect(validateCustomResource(crd, 'v1', widget({}, { generateName: 'w-' }))).to.deep.equal([]);
      expect(texts(validateCustomResource(crd, 'v1', widget({}, { name: 'My_Widget' })))).to.deep.equal([
        `metadata.name: Invalid value: "My_Widget": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ]);
    });

    it('checks generateName as a prefix (with Go\'s maskTrailingDash) and the name generated from it', () => {
      expect(validateCustomResource(crd, 'v1', widget({}, { generateName: 'w-' }))).to.deep.equal([]);
      const errs = texts(validateCustomResource(crd, 'v1', widget({}, { generateName: 'Wx-' })));
      expect(errs).to.have.length(2);
      expect(errs[0]).to.match(/^metadata\.generateName: Invalid value: "Wx-": a lowercase RFC 1123 subdomain/);
      expect(errs[1]).to.match(/^metadata\.name: Invalid value: "Wx-[bcdfghjklmnpqrstvwxz2456789]{5}": a lowercase RFC 1123 subdomain/);
    });

    // kube-apiserver 1.34.4 words a key with two slashes through pkg/util/validation.IsQualifiedName
    // ("a qualified name ...", test/differential/hostile.test.ts), not content.IsLabelKey's "a valid label key".
    it('checks labels, annotations and finalizers', () => {
      const errs = texts(validateCustomResource(crd, 'v1', widget({}, {
        name: 'w', labels: { 'a/b/c': 'ok', good: 'not ok!' }, annotations: { '-bad': 'x' }, finalizers: ['example.com/f', 'bad finalizer'],
      })));
      expect(errs).to.have.length(4);
      expect(errs[0]).to.equal(`metadata.labels: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`);
      expect(errs[1]).to.match(/^metadata\.labels: Invalid value: "not ok!": a valid label must be an empty string/);
      expect(errs[2]).to.match(/^metadata\.annotations: Invalid value: "-bad": name part must consist of/);
      expect(errs[3]).to.match(/^metadata\.finalizers: Invalid value: "bad finalizer": name part must consist of/);
    });

    // pkg/util/validation.IsQualifiedName's MaxLenError says "characters" for the prefix part too
    // (validation_test.go TestIsQualifiedName's `strings.Repeat("a", 254) + "/abc"`); kube-apiserver 1.34.4
    // answers so for a custom resource (packages/apiserver/test/objectMetaWords.test.ts).
    it('words too-long label, annotation and finalizer keys in characters', () => {
      const prefix = `${'p'.repeat(254)}/x`;
      const name = 'a'.repeat(64);
      expect(texts(validateCustomResource(crd, 'v1', widget({}, {
        name: 'w', labels: { [prefix]: 'v', k: 'v'.repeat(64) }, annotations: { [name]: 'x' }, finalizers: [prefix],
      })))).to.deep.equal([
        `metadata.labels: Invalid value: "${prefix}": prefix part must be no more than 253 characters`,
        `metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
        `metadata.annotations: Invalid value: "${name}": name part must be no more than 63 characters`,
        `metadata.finalizers: Invalid value: "${prefix}": prefix part must be no more than 253 characters`,
      ]);
    });

    it('rejects a namespace on a cluster-scoped resource only by clearing it, as the apiserver does', () => {
      expect(validateCustomResource(crdWith({ type: 'object' }, {}, 'Cluster'), 'v1', widget({}, { name: 'w', namespace: 'default' }))).to.deep.equal([]);
      expect(texts(validateCustomResource(crd, 'v1', widget({}, { name: 'w', namespace: 'Bad' })))[0]).to.match(/^metadata\.namespace: Invalid value: "Bad": a lowercase RFC 1123 label/);
    });

    it('reports metadata of the wrong shape', () => {
      expect(texts(validateCustomResource(crd, 'v1', widget({}, 'x' as unknown as Record<string, unknown>)))).to.deep.equal([
        'metadata: Invalid value: "x": expected map[string]interface{}, got string',
      ]);
      const [err] = texts(validateCustomResource(crd, 'v1', widget({}, { name: 5 })));
      expect(err.startsWith('metadata: Invalid value: ')).to.equal(true);
      expect(err.endsWith(': json: cannot unmarshal number into Go struct field ObjectMeta.name of type string')).to.equal(true);
    });

    // rest.BeforeUpdate's validateCommonFields (staging/src/k8s.io/apiserver/pkg/registry/rest/update.go)
    // runs ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate, then the custom resource
    // strategy's ValidateUpdate runs ValidateObjectMetaAccessorUpdate again: kube-apiserver 1.34.4 lists
    // an immutable field twice and a bad label three times in its causes (test/differential/hostile.test.ts).
    it('checks immutable fields and resourceVersion on update, as often as the apiserver does', () => {
      const old = widget({}, { name: 'w', uid: 'u1', resourceVersion: '1', generation: 3 });
      expect(validateCustomResource(crd, 'v1', widget({}, { name: 'w', uid: 'u1', resourceVersion: '1', generation: 3 }), old)).to.deep.equal([]);
      const update = [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.generation: Invalid value: 2: must not be decremented',
        'metadata.name: Invalid value: "w2": field is immutable',
        'metadata.uid: Invalid value: "u2": field is immutable',
      ];
      expect(texts(validateCustomResource(crd, 'v1', widget({}, { name: 'w2', uid: 'u2', generation: 2 }), old))).to.deep.equal([...update, ...update]);
      const label = texts(validateCustomResource(crd, 'v1', widget({}, { name: 'w', uid: 'u1', resourceVersion: '1', generation: 3, labels: { 'bad key': 'x' } }), old));
      expect(label).to.have.length(3);
      expect(new Set(label).size).to.equal(1);
    });
  });

  describe('embedded resources', () => {
    const crd = crdWith({
      type: 'object',
      properties: { spec: { type: 'object', properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } } },
    });

    it('accepts an embedded object with apiVersion, kind and valid metadata', () => {
      expect(validateCustomResource(crd, 'v1', widget({ spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } } } } }))).to.deep.equal([]);
    });

    it('requires apiVersion and kind and checks them and the metadata', () => {
      expect(texts(validateCustomResource(crd, 'v1', widget({ spec: { template: {} } })))).to.deep.equal([
        'spec.template.apiVersion: Required value',
        'spec.template.kind: Required value',
      ]);
      expect(texts(validateCustomResource(crd, 'v1', widget({ spec: { template: { apiVersion: 'a/b/c', kind: '9Pod', metadata: { name: 'a/b' } } } })))).to.deep.equal([
        'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
        `spec.template.kind: Invalid value: "9Pod": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
      ]);
    });
  });

  describe('list-type set and map uniqueness (pkg/apiserver/schema/listtype tests)', () => {
    const { cases } = load('list_sets_maps.json') as { cases: { name: string; schema: JSONSchemaProps; object: Record<string, unknown>; errors: [string, string][] }[] };
    for (const c of cases) {
      it(`does "${c.name}"`, () => {
        const schema: JSONSchemaProps = { ...c.schema, properties: { ...c.schema.properties, apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } } };
        const errors = validateCustomResource(crdWith(schema), 'v1', widget(c.object))
          .filter((e) => e.type === 'FieldValueDuplicate' || e.detail === 'must be an object for an array of list-type map');
        expect(errors.map((e) => [e.type, e.field])).to.have.deep.members(c.errors);
      });
    }

    it('prints duplicates as the apiserver does', () => {
      const crd = crdWith({ type: 'object', properties: { spec: { type: 'object', properties: {
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', properties: { port: { type: 'integer' } } } },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      } } } });
      const errs = validateCustomResource(crd, 'v1', widget({ spec: { ports: [{ port: 80 }, { port: 80 }], tags: ['a', 'b', 'a'] } }));
      expect(errs.map((e) => [e.field, e.type])).to.deep.equal([['spec.ports[1]', 'FieldValueDuplicate'], ['spec.tags[2]', 'FieldValueDuplicate']]);
      expect(String(errs[1])).to.equal('spec.tags[2]: Duplicate value: "a"');
      expect(errs[0].badValue).to.deep.equal({ port: 80 });
    });

    it('does not report duplicates on update when the old object already had them', () => {
      const crd = crdWith({ type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } } });
      const old = widget({ tags: ['a', 'a'] }, { name: 'w', resourceVersion: '1' });
      expect(validateCustomResource(crd, 'v1', widget({ tags: ['b', 'b'] }, { name: 'w', resourceVersion: '1' }), old)).to.deep.equal([]);
      expect(validateCustomResource(crd, 'v1', widget({ tags: ['b', 'b'] }, { name: 'w', resourceVersion: '1' }))).to.have.length(1);
    });
  });

  describe('scale subresource', () => {
    const crd = crdWith({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, {
      subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    });

    it('accepts integer replicas within int32', () => {
      expect(validateCustomResource(crd, 'v1', widget({ spec: { replicas: 3 }, status: { replicas: 2, selector: 'a=b' } }))).to.deep.equal([]);
    });

    it('reports replicas of the wrong type or range with the apiserver\'s texts', () => {
      expect(texts(validateCustomResource(crd, 'v1', widget({ spec: { replicas: 'x' }, status: { replicas: -1, selector: 5 } })))).to.deep.equal([
        '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64',
        '.status.replicas: Invalid value: -1: should be a non-negative integer',
        '.status.selector: Invalid value: "": .status.selector accessor error: 5 is of the type int64, expected string',
      ]);
      expect(texts(validateCustomResource(crd, 'v1', widget({ spec: { replicas: 2147483648 } })))).to.deep.equal([
        '.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647',
      ]);
    });
  });

  describe('validation ratcheting on update', () => {
    it('drops errors of unchanged fields and keeps those of changed ones', () => {
      const old = { ...(load('crontab-invalid.json') as Record<string, unknown>), metadata: { name: 'my-new-cron-object', resourceVersion: '1' } };
      const same = structuredClone(old);
      expect(validateCustomResource(crontab, 'v1', same, old)).to.deep.equal([]);
      const changed = structuredClone(old) as unknown as { spec: { replicas: number } };
      changed.spec.replicas = 16;
      expect(texts(validateCustomResource(crontab, 'v1', changed, old))).to.deep.equal([
        'spec.replicas: Invalid value: 16: spec.replicas in body should be less than or equal to 10',
      ]);
    });

    it('correlates list-type map items by key, not position', () => {
      const crd = crdWith({ type: 'object', properties: { items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer', maximum: 1 } } } } } });
      const old = widget({ items: [{ name: 'a', n: 5 }, { name: 'b', n: 0 }] }, { name: 'w', resourceVersion: '1' });
      expect(validateCustomResource(crd, 'v1', widget({ items: [{ name: 'b', n: 0 }, { name: 'a', n: 5 }] }, { name: 'w', resourceVersion: '1' }), old)).to.deep.equal([]);
      expect(texts(validateCustomResource(crd, 'v1', widget({ items: [{ name: 'c', n: 5 }] }, { name: 'w', resourceVersion: '1' }), old))).to.deep.equal([
        'items[0].n: Invalid value: 5: items[0].n in body should be less than or equal to 1',
      ]);
    });
  });

  describe('CEL hook', () => {
    const crd = crdWith({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a < 5' }], properties: { a: { type: 'integer' } } } } });

    it('calls the CEL validator with schema, object, old object and the root path', () => {
      const calls: unknown[][] = [];
      const cel: CustomResourceCELValidator = (schema, object, oldObject, fieldPath) => {
        calls.push([schema, object, oldObject, fieldPath]);
        return [];
      };
      const o = widget({ spec: { a: 1 } });
      expect(validateCustomResource(crd, 'v1', o, undefined, { celValidator: cel })).to.deep.equal([]);
      expect(calls).to.deep.equal([[crd.spec.versions[0].schema!.openAPIV3Schema, o, undefined, '']]);
    });

    it('skips CEL and says so when an earlier error blocks it', () => {
      let called = false;
      const errs = validateCustomResource(crd, 'v1', widget({ spec: { a: 'x' } }), undefined, { celValidator: () => { called = true; return []; } });
      expect(called).to.equal(false);
      expect(texts(errs).at(-1)).to.equal('<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');
    });

    it('does not call CEL for a schema without rules', () => {
      let called = false;
      validateCustomResource(crdWith({ type: 'object' }), 'v1', widget(), undefined, { celValidator: () => { called = true; return []; } });
      expect(called).to.equal(false);
    });
  });

  describe('robustness', () => {
    it('never throws for random objects', () => {
      const crd = crdWith({ type: 'object', properties: {
        spec: { type: 'object', properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }, t: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } },
      } }, { subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } });
      fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), fc.jsonValue(), fc.boolean(), (spec, meta, old, update) => {
        const errs = validateCustomResource(crd, 'v1', widget({ spec }, meta as Record<string, unknown>), update ? old : undefined);
        for (const e of errs) expect(String(e)).to.be.a('string');
      }), { numRuns: 1000 });
    });

    it('reports an object nested 10,000 levels deep clearly', () => {
      let deep: unknown = 1;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      expect(texts(validateCustomResource(crdWith({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), 'v1', widget({ spec: deep })))).to.deep.equal([
        '<nil>: Invalid value: "": value nested more than 10000 levels deep (the apiserver\'s JSON decoder rejects it)',
      ]);
    });
  });

  describe('through the status subresource (statusStrategy.ValidateUpdate)', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { replicas: { type: 'integer' }, size: { type: 'integer' } } },
        status: { type: 'object', properties: { replicas: { type: 'integer' }, nested: { type: 'object', properties: { n: { type: 'integer', maximum: 5 } } } } },
      },
    };
    const crd = crdWith(schema, { subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } });
    const old = widget({ spec: { replicas: 1 }, status: { replicas: 1 } }, { name: 'w', resourceVersion: '1' });
    const status = (o: Record<string, unknown>): string[] => texts(validateCustomResource(crd, 'v1', o, old, { subresource: 'status' }));

    it('names status errors from the status schema, under the status field (kube-apiserver 1.34.4)', () => {
      expect(status(widget({ spec: { replicas: 1 }, status: { nested: { n: 9 } } }, { name: 'w', resourceVersion: '1' }))).to.deep.equal([
        'status.nested.n: Invalid value: 9: nested.n in body should be less than or equal to 5',
      ]);
      expect(status(widget({ spec: { replicas: 1 }, status: [1] }, { name: 'w', resourceVersion: '1' }))).to.include(
        'status: Invalid value: "array":  in body must be of type object: "array"',
      );
      // The main resource names the same error from the root.
      expect(texts(validateCustomResource(crd, 'v1', widget({ spec: { replicas: 1 }, status: { nested: { n: 9 } } }, { name: 'w', resourceVersion: '1' }), old))).to.deep.equal([
        'status.nested.n: Invalid value: 9: status.nested.n in body should be less than or equal to 5',
      ]);
    });

    it('checks neither the spec against the schema nor the scale spec replicas, and takes an object without a status', () => {
      expect(status(widget({ spec: { replicas: -1, size: 'x' }, status: { replicas: 2 } }, { name: 'w', resourceVersion: '1' }))).to.deep.equal([]);
      expect(status(widget({ spec: { replicas: 1 } }, { name: 'w', resourceVersion: '1' }))).to.deep.equal([]);
      expect(status(widget({ spec: { replicas: 1 }, status: { replicas: -2 } }, { name: 'w', resourceVersion: '1' }))).to.deep.equal([
        '.status.replicas: Invalid value: -2: should be a non-negative integer',
      ]);
    });
  });
});
