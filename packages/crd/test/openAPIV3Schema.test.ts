import { readFileSync } from 'node:fs';
import { KubeError } from '@kubekit/core';
import { expect } from 'chai';
import { definitionName, openAPIV3Schema } from '../src/openAPIV3Schema.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../src/types.js';

const fixtures = new URL('./fixtures/value/', import.meta.url);
const load = (name: string): CustomResourceDefinition => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as CustomResourceDefinition;
type Obj = Record<string, unknown>;
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((x, k) => (x as Obj | undefined)?.[k], o);

describe('definitionName', () => {
  it('reverses the group, as the apiserver names CRD definitions', () => {
    expect(definitionName('stable.example.com', 'v1', 'Shirt')).to.equal('com.example.stable.v1.Shirt');
    expect(definitionName('example', 'v1alpha1', 'Thing')).to.equal('example.v1alpha1.Thing');
  });
});

describe('openAPIV3Schema', () => {
  const shirt = load('shirt-crd.json');
  const doc = openAPIV3Schema(shirt, 'v1');
  const def = doc.components.schemas['com.example.stable.v1.Shirt'];

  it('returns an OpenAPI 3.0 document with the builder\'s info', () => {
    expect(doc.openapi).to.equal('3.0.0');
    expect(doc.info).to.deep.equal({ title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
  });

  it('publishes the kind with its group-version-kind and exactly the declared selectable fields', () => {
    expect(def['x-kubernetes-group-version-kind']).to.deep.equal([{ group: 'stable.example.com', kind: 'Shirt', version: 'v1' }]);
    // builder.go's buildSelectableFields: the declared jsonPaths without their leading dot, and nothing else.
    expect(def['x-kubernetes-selectable-fields']).to.deep.equal([{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }]);
  });

  it('keeps the version schema and fills in apiVersion, kind and a metadata reference', () => {
    expect(at(def, 'properties', 'spec')).to.deep.equal({ type: 'object', properties: { color: { type: 'string' }, size: { type: 'string' } } });
    expect(at(def, 'properties', 'apiVersion', 'type')).to.equal('string');
    expect(at(def, 'properties', 'kind', 'type')).to.equal('string');
    expect(at(def, 'properties', 'metadata')).to.deep.equal({
      description: "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
      allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
    });
  });

  it('publishes the list kind', () => {
    const list = doc.components.schemas['com.example.stable.v1.ShirtList'];
    expect(list.description).to.equal('ShirtList is a list of Shirt');
    expect(list.required).to.deep.equal(['items']);
    expect(at(list, 'properties', 'items', 'items')).to.deep.equal({ $ref: '#/components/schemas/com.example.stable.v1.Shirt' });
    expect(list['x-kubernetes-group-version-kind']).to.deep.equal([{ group: 'stable.example.com', kind: 'ShirtList', version: 'v1' }]);
    expect(list['x-kubernetes-selectable-fields']).to.deep.equal([{ fieldPath: 'spec.color' }, { fieldPath: 'spec.size' }]);
  });

  it('includes every definition an operation or definition refers to', () => {
    const json = JSON.stringify(doc);
    for (const m of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas, m[1]).to.have.property(m[1]);
  });

  it('publishes the collection and item paths with their operations', () => {
    expect(Object.keys(doc.paths)).to.deep.equal([
      '/apis/stable.example.com/v1/shirts',
      '/apis/stable.example.com/v1/namespaces/{namespace}/shirts',
      '/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}',
    ]);
    const ops = (p: string): string[] => Object.keys(doc.paths[p]).filter((k) => k !== 'parameters').sort();
    expect(ops('/apis/stable.example.com/v1/shirts')).to.deep.equal(['get']);
    expect(ops('/apis/stable.example.com/v1/namespaces/{namespace}/shirts')).to.deep.equal(['delete', 'get', 'post']);
    expect(ops('/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}')).to.deep.equal(['delete', 'get', 'patch', 'put']);
    const ids = Object.values(doc.paths).flatMap((item) => Object.entries(item).filter(([k]) => k !== 'parameters').map(([, op]) => at(op, 'operationId')));
    expect(ids).to.have.members([
      'listStableExampleComV1ShirtForAllNamespaces', 'listStableExampleComV1NamespacedShirt', 'createStableExampleComV1NamespacedShirt',
      'deleteStableExampleComV1CollectionNamespacedShirt', 'readStableExampleComV1NamespacedShirt', 'replaceStableExampleComV1NamespacedShirt',
      'deleteStableExampleComV1NamespacedShirt', 'patchStableExampleComV1NamespacedShirt',
    ]);
  });

  it('gives PATCH the fieldValidation parameter, the patch content types and the group-version-kind kubectl looks for', () => {
    const patch = at(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}'], 'patch') as Obj;
    expect(patch['x-kubernetes-group-version-kind']).to.deep.equal({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' });
    expect(patch['x-kubernetes-action']).to.equal('patch');
    expect((patch.parameters as Obj[]).map((p) => p.name)).to.deep.equal(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect((patch.parameters as Obj[])[2]).to.include({ name: 'fieldValidation', in: 'query' });
    expect(Object.keys(at(patch, 'requestBody', 'content') as Obj)).to.deep.equal(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch.description).to.equal('partially update the specified Shirt');
    expect(patch.tags).to.deep.equal(['stableExampleCom_v1']);
  });

  it('puts parameters shared by all operations of a path on the path, sorted', () => {
    const item = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}'];
    expect((item.parameters as Obj[]).map((p) => [p.name, p.in, p.required ?? false])).to.deep.equal([
      ['name', 'path', true], ['namespace', 'path', true], ['pretty', 'query', false],
    ]);
    expect((at(item, 'parameters') as Obj[])[0].schema).to.deep.equal({ type: 'string', uniqueItems: true });
    const list = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts'];
    expect((at(list, 'get', 'parameters') as Obj[]).map((p) => p.name)).to.include.members(['watch', 'labelSelector', 'fieldSelector', 'allowWatchBookmarks', 'resourceVersion', 'limit', 'continue']);
    expect((at(list, 'post', 'parameters') as Obj[]).map((p) => p.name)).to.deep.equal(['dryRun', 'fieldManager', 'fieldValidation']);
    const all = doc.paths['/apis/stable.example.com/v1/shirts'];
    expect(at(all, 'get', 'parameters')).to.equal(undefined);
    expect((all.parameters as Obj[]).map((p) => p.name)).to.include('watch');
  });

  it('describes responses as the builder does', () => {
    const post = at(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts'], 'post') as Obj;
    expect(Object.keys(post.responses as Obj).sort()).to.deep.equal(['200', '201', '202', '401']);
    expect(at(post, 'responses', '401')).to.deep.equal({ description: 'Unauthorized' });
    expect(at(post, 'responses', '201', 'content', 'application/json', 'schema')).to.deep.equal({ $ref: '#/components/schemas/com.example.stable.v1.Shirt' });
    expect(post.description).to.equal('create a Shirt');
    const del = at(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}'], 'delete') as Obj;
    expect(at(del, 'responses', '200', 'content', 'application/json', 'schema')).to.deep.equal({ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.Status' });
    expect(at(del, 'requestBody', 'required')).to.equal(undefined);
  });

  it('adds status and scale subresource paths when enabled', () => {
    const crd = structuredClone(shirt);
    crd.spec.versions[0].subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } };
    const d = openAPIV3Schema(crd, 'v1');
    const base = '/apis/stable.example.com/v1/namespaces/{namespace}/shirts/{name}';
    expect(at(d.paths[`${base}/status`], 'get', 'operationId')).to.equal('readStableExampleComV1NamespacedShirtStatus');
    expect(at(d.paths[`${base}/scale`], 'patch', 'operationId')).to.equal('patchStableExampleComV1NamespacedShirtScale');
    expect(at(d.paths[`${base}/scale`], 'get', 'responses', '200', 'content', 'application/json', 'schema')).to.deep.equal({ $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale' });
    expect(d.components.schemas).to.have.property('io.k8s.api.autoscaling.v1.Scale');
  });

  it('publishes cluster-scoped resources without namespace paths', () => {
    const crd = structuredClone(shirt);
    crd.spec.scope = 'Cluster';
    expect(Object.keys(openAPIV3Schema(crd, 'v1').paths)).to.deep.equal(['/apis/stable.example.com/v1/shirts', '/apis/stable.example.com/v1/shirts/{name}']);
  });

  it('omits x-kubernetes-selectable-fields when none are declared', () => {
    const crd = structuredClone(shirt);
    delete crd.spec.versions[0].selectableFields;
    expect(openAPIV3Schema(crd, 'v1').components.schemas['com.example.stable.v1.Shirt']).to.not.have.property('x-kubernetes-selectable-fields');
  });

  it('unfolds int-or-string and fills in embedded resources as the apiserver does', () => {
    const crd = structuredClone(shirt);
    const spec = (crd.spec.versions[0].schema!.openAPIV3Schema!.properties as Record<string, JSONSchemaProps>).spec;
    spec.properties = {
      port: { 'x-kubernetes-int-or-string': true },
      template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      pattern: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    };
    const d = openAPIV3Schema(crd, 'v1').components.schemas['com.example.stable.v1.Shirt'];
    expect(at(d, 'properties', 'spec', 'properties', 'port')).to.deep.equal({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(at(d, 'properties', 'spec', 'properties', 'pattern', 'anyOf')).to.deep.equal([{ type: 'integer' }, { type: 'string' }]);
    const template = at(d, 'properties', 'spec', 'properties', 'template') as Obj;
    expect(template.required).to.deep.equal(['kind', 'apiVersion']);
    expect(Object.keys(template.properties as Obj).sort()).to.deep.equal(['apiVersion', 'kind', 'metadata']);
  });

  it('publishes a version without a schema as a plain object', () => {
    const crd = structuredClone(shirt);
    delete crd.spec.versions[0].schema;
    const d = openAPIV3Schema(crd, 'v1').components.schemas['com.example.stable.v1.Shirt'];
    expect(d.type).to.equal('object');
    expect(d).to.not.have.property('properties');
  });

  it('throws a NotFound KubeError for an unknown version', () => {
    expect(() => openAPIV3Schema(shirt, 'v2')).to.throw(KubeError).with.property('reason', 'NotFound');
  });
});
