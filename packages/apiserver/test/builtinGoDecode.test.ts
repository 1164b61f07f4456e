// A built-in object of the wrong shape is refused as kube-apiserver 1.34.4 refuses it: decoding the
// body into the kind's Go type (k8s.io/api v0.34.4) fails with encoding/json's UnmarshalTypeError, the
// parser of resource.Quantity or base64.StdEncoding, wrapped by the codec ("Pod in version "v1" cannot
// be handled as a Pod: …"). Every message below is the reference's answer to the same request
// (probed with test/differential's backends).
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { base64Error } from '../src/builtinGoJSON.js';
import { Client, start, type Response } from './internal/client.js';

const pods = '/api/v1/namespaces/default/pods';
const container = { name: 'c', image: 'x' };
const regexp = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

describe('built-in objects decoded as into their Go types (kube-apiserver 1.34.4)', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  const podCases: [string, Record<string, unknown>, string, Record<string, unknown>?][] = [
    ['a container name that is a number', { containers: [{ name: 5, image: 'x' }] }, 'json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string'],
    ['a port that is a string', { containers: [{ ...container, ports: [{ containerPort: 'x', protocol: 5 }] }] }, 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['a fractional int32', { containers: [{ ...container, ports: [{ containerPort: 1.5 }] }] }, 'json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['an int32 out of range', { containers: [{ ...container, ports: [{ containerPort: 3000000000 }] }] }, 'json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ['containers that are an object', { containers: {} }, 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container'],
    ['an int64 that is a string', { containers: [container], terminationGracePeriodSeconds: '30' }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'],
    ['the first of two wrong types, in document order', { containers: [container], hostNetwork: 'yes', nodeSelector: { a: 1 } }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool'],
    ['a uid that is a number (types.UID)', { containers: [container] }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID', { uid: 5 }],
    ['a quantity that is a boolean', { containers: [{ ...container, resources: { limits: { cpu: true } } }] }, `quantities must match the regular expression ${regexp}`],
    ['a quantity that is a word', { containers: [{ ...container, resources: { limits: { cpu: 'lots' } } }] }, `quantities must match the regular expression ${regexp}`],
    ['an int-or-string that is a boolean', { containers: [{ ...container, livenessProbe: { httpGet: { port: true } } }] }, 'json: cannot unmarshal bool into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32'],
    ['args that are a string', { containers: [{ ...container, args: 'x' }], tolerations: [{ tolerationSeconds: 'x' }] }, 'json: cannot unmarshal string into Go struct field Container.spec.containers.args of type []string'],
  ];
  for (const [what, spec, message, meta] of podCases) {
    it(`refuses a Pod with ${what}`, async () => {
      const r = await client.post(pods, { metadata: { name: 'p', ...meta }, spec });
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal(`Pod in version "v1" cannot be handled as a Pod: ${message}`);
    });
  }

  it('refuses a Pod whose spec is a number', async () => {
    const r = await client.post(pods, { metadata: { name: 'p' }, spec: 5 });
    expect(r.body.message).to.equal('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec');
  });

  it('refuses Secret data that is not base64, ConfigMap labels that are not strings, Deployment fields of the wrong type', async () => {
    const secret = await client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, data: { a: 'not base64!' } });
    expect(secret.body.message).to.equal('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
    const cm = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'c', labels: { a: 1 }, annotations: 5 }, data: 5 });
    expect(cm.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    const template = { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } };
    const replicas = await client.post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'd' }, spec: { replicas: '3', selector: { matchLabels: { a: 'b' } }, template } });
    expect(replicas.body.message).to.equal('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    const paused = await client.post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'd' }, spec: { replicas: null, paused: 1, selector: { matchLabels: { a: 'b' } }, template } });
    expect(paused.body.message).to.equal('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field DeploymentSpec.spec.paused of type bool');
  });

  it('parses times outside metadata as metav1.Time does (an Event\'s timestamps), a time error ending the decode', async () => {
    const event = (extra: Record<string, unknown>): Promise<Response> => client.post('/api/v1/namespaces/default/events', {
      metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm', type: 'Normal', source: { component: 'c' }, ...extra,
    });
    const prefix = 'Event in version "v1" cannot be handled as a Event: ';
    expect((await event({ firstTimestamp: 'yesterday' })).body.message).to.equal(`${prefix}parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`);
    expect((await event({ firstTimestamp: 5 })).body.message).to.equal(`${prefix}json: cannot unmarshal number into Go struct field Event.firstTimestamp of type string`);
    // A type error before it is only recorded; the time's error ends the decode and is the one reported.
    expect((await event({ reason: 5, lastTimestamp: 'x' })).body.message).to.equal(`${prefix}parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`);
  });

  it('reads a patch\'s result in sorted member order (the patcher re-marshalled it from a Go map)', async () => {
    await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'ordered' }, data: { a: 'b' } });
    const last = async (type: string, body: unknown): Promise<string> => {
      const r = await client.request('PATCH', '/api/v1/namespaces/default/configmaps/ordered', JSON.stringify(body), type);
      expect(r.status).to.equal(422);
      return (r.body.details.causes[0].message as string).replace(/^.*": /s, '');
    };
    expect(await last('application/merge-patch+json', { metadata: { labels: { a: 1 } }, data: { k: 1 } })).to.equal('json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
    expect(await last('application/json-patch+json', [{ op: 'add', path: '/metadata/labels', value: { a: 1 } }, { op: 'add', path: '/data/k', value: 1 }])).to.equal('json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
    expect(await last('application/merge-patch+json', { metadata: { labels: { z: 1, a: true } } })).to.equal('json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string');
    // A create's body is read as written.
    const created = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'y', labels: { a: 1 } }, data: { k: 1 } });
    expect(created.body.message).to.equal('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
  });

  it('answers a patch that gives a field the wrong type with a 422 on patch, storing nothing', async () => {
    expect((await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'typed' }, data: { a: '1' } })).status).to.equal(201);
    const r = await client.patch('/api/v1/namespaces/default/configmaps/typed', { immutable: 'yes' });
    expect(r.status).to.equal(422);
    expect(r.body.details.causes[0].field).to.equal('patch');
    expect(r.body.details.causes[0].message).to.match(/: json: cannot unmarshal string into Go struct field ConfigMap\.immutable of type bool$/);
    expect((await client.get('/api/v1/namespaces/default/configmaps/typed')).body).to.not.have.property('immutable');
  });
});

describe('CustomResourceDefinitions decoded as into their Go type (kube-apiserver 1.34.4)', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  const crd = (spec: Record<string, unknown>): Record<string, unknown> => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.t.example.com' },
    spec: { group: 't.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }], ...spec },
  });
  const withProperty = (schema: Record<string, unknown>): Record<string, unknown> => crd({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { a: schema } } } }] });
  const prefix = 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: ';
  const props = 'JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties';
  const cases: [string, Record<string, unknown>, string][] = [
    // This one crashed the handler before (a 500 "….find is not a function").
    ['versions that are an object', crd({ versions: {} }), 'json: cannot unmarshal object into Go struct field CustomResourceDefinitionSpec.spec.versions of type []v1.CustomResourceDefinitionVersion'],
    ['served that is a string', crd({ versions: [{ name: 'v1', served: 'true', storage: true }] }), 'json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.served of type bool'],
    ['a plural that is a number', crd({ names: { plural: 5, kind: 'Widget' } }), 'json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.plural of type string'],
    ['a printer column priority that is a string', crd({ versions: [{ name: 'v1', served: true, storage: true, additionalPrinterColumns: [{ name: 'a', type: 'string', jsonPath: '.a', priority: 'x' }], schema: { openAPIV3Schema: { type: 'object' } } }] }), 'json: cannot unmarshal string into Go struct field CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32'],
    ['a selectable field path that is a number', crd({ versions: [{ name: 'v1', served: true, storage: true, selectableFields: [{ jsonPath: 5 }], schema: { openAPIV3Schema: { type: 'object' } } }] }), 'json: cannot unmarshal number into Go struct field SelectableField.spec.versions.selectableFields.jsonPath of type string'],
    ['a schema type that is a number', withProperty({ type: 5 }), `json: cannot unmarshal number into Go struct field ${props}.type of type string`],
    ['a maximum that is a string', withProperty({ type: 'integer', maximum: 'x' }), `json: cannot unmarshal string into Go struct field ${props}.maximum of type float64`],
    ['required that is a string', withProperty({ type: 'object', required: 'a' }), `json: cannot unmarshal string into Go struct field ${props}.required of type []string`],
    // Nested schemas decode with a json.Unmarshal of their own: the error names the field holding them.
    ['items whose type is a number', withProperty({ type: 'array', items: { type: 5 } }), `json: cannot unmarshal number into Go struct field ${props}.items of type string`],
    ['an items list whose type is a number', withProperty({ type: 'array', items: [{ type: 5 }] }), `json: cannot unmarshal number into Go struct field ${props}.items of type string`],
    ['items with a fractional minItems', withProperty({ type: 'array', items: { minItems: 1.5 } }), `json: cannot unmarshal number 1.5 into Go struct field ${props}.items of type int64`],
    ['additionalProperties whose validations are a number', withProperty({ type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': 5 } }), `json: cannot unmarshal number into Go struct field ${props}.additionalProperties of type v1.ValidationRules`],
    ['additionalProperties that is a string', withProperty({ type: 'object', additionalProperties: 'x' }), 'boolean or JSON schema expected'],
    ['dependencies with a number in a property list', withProperty({ type: 'object', dependencies: { a: [5] } }), `json: cannot unmarshal number into Go struct field ${props}.dependencies of type string`],
  ];
  for (const [what, body, message] of cases) {
    it(`refuses a CRD with ${what}`, async () => {
      const r = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', body);
      expect(r.status, r.text).to.equal(400);
      expect(r.body.message).to.equal(prefix + message);
    });
  }

  it('takes a null version as a zero one (a 422 from validation; it crashed the handler before) and drops empty members', async () => {
    const r = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', crd({ versions: [null] }));
    expect(r.status).to.equal(422);
    expect(r.body.message).to.contain('spec.versions: Invalid value: [{"Name":"","Served":false,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]: must have exactly one version marked as storage version');
    const empty = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', {
      ...crd({ names: { plural: 'widgets', kind: 'Widget', shortNames: [] }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', required: [], properties: { a: { type: 'array', items: { type: 'string', enum: [] } } } } }, additionalPrinterColumns: [] }] }),
      metadata: { name: 'widgets.t.example.com', labels: {} },
    });
    expect(empty.status).to.equal(201);
    expect(empty.body.metadata).to.not.have.property('labels');
    expect(empty.body.spec.names).to.not.have.property('shortNames');
    expect(empty.body.spec.versions[0]).to.not.have.property('additionalPrinterColumns');
    expect(empty.body.spec.versions[0].schema.openAPIV3Schema).to.deep.equal({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } });
  });

  it('leaves to validation what decodes: items that are no schema, a dependency that is a string', async () => {
    const items = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', withProperty({ type: 'array', items: 5 }));
    expect(items.status).to.equal(422);
    expect(items.body.message).to.contain('spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified');
    const dependency = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', withProperty({ type: 'object', dependencies: { a: 'x' } }));
    expect(dependency.status).to.equal(422);
    expect(dependency.body.message).to.contain('dependencies: Forbidden: dependencies is not supported');
  });
});

describe('base64Error (base64.StdEncoding.Decode)', () => {
  it('reports the byte offset Go reports, skipping newlines and requiring padding', () => {
    // Go 1.26's encoding/base64 on each text.
    const cases: [string, number | undefined][] = [
      ['not base64!', 3], ['abc', 0], ['ab', 0], ['a', 0], ['abcd', undefined], ['ab==', undefined], ['a===', 1], ['abc=', undefined],
      ['ab=c', 2], ['ab=', 3], ['abcd=', 4], ['abcde', 4], ['ab\ncd', undefined], ['ab\r\n==', undefined], ['====', 0], ['=', 0],
      ['abcd====', 4], ['YWJj', undefined], ['YW Jj', 2], ['Y\nW\nJj', undefined], ['ab==x', 4], ['ab==\n', undefined], ['abc=\n\n', undefined],
      ['a\n=', 2], ['YQ==YQ==', 4], ['-_ab', 0], ['ab=\n=', undefined], ['', undefined],
    ];
    for (const [text, at] of cases) expect(base64Error(text), JSON.stringify(text)).to.equal(at === undefined ? undefined : `illegal base64 data at input byte ${at}`);
  });
});
