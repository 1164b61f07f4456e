// A Scale answered in the representation the client asks for, as kube-apiserver 1.34.4 answers it:
// `kubectl get deployment d --subresource=scale` asks for a Table, which the apiserver builds with the
// printers' Scale columns (Name, Desired, Available, Age; a built-in kind's Name without the `name` format
// and its Age a string, a custom resource's from apiextensions' scale table convertor, with the Name format
// and the Age a date); `as=PartialObjectMetadata` gives the Scale's metadata; `as=PartialObjectMetadataList`
// is transformResponseObject's 406 naming the Scale's Go type, after a write has been done. kubekit
// answered the Scale itself whatever was asked for.
import { expect } from 'chai';
import { answered, createWidgets, describeOnBothServers, type Send } from './sender.js';

const G = 'scaleanswers.example.com';
const D = '/apis/apps/v1/namespaces/default/deployments';
const RC = '/api/v1/namespaces/default/replicationcontrollers';
const table = (version = 'v1'): string => `application/json;as=Table;v=${version};g=meta.k8s.io`;
const metadataOnly = (kind: string, version = 'v1'): string => `application/json;as=${kind};v=${version};g=meta.k8s.io`;

interface Column { name: string; type: string; format: string; description: string; priority: number }
interface Table { kind: string; apiVersion: string; metadata: { resourceVersion?: string }; columnDefinitions: Column[]; rows: { cells: unknown[]; object: { kind?: string; apiVersion?: string; metadata?: Record<string, unknown>; spec?: unknown } | null }[] }
interface Scale { kind: string; metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp: string } }

async function run(s: Send): Promise<void> {
  const template = { metadata: { labels: { app: 'sa' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  answered(await s('POST', D, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2, selector: { matchLabels: { app: 'sa' } }, template } })), 201);
  answered(await s('POST', RC, JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'rc' }, spec: { replicas: 3, selector: { app: 'sa' }, template } })), 201);
  const W = await createWidgets(s, G, { type: 'object', properties: { replicas: { type: 'integer' } } }, {
    statusSchema: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
  });
  answered(await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 4 } })), 201);

  const nameDescription = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
  const ageDescription = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
  const builtinColumns: Column[] = [
    { name: 'Name', type: 'string', format: '', description: nameDescription, priority: 0 },
    { name: 'Desired', type: 'integer', format: '', description: 'replicas is the desired number of instances for the scaled object.', priority: 0 },
    { name: 'Available', type: 'integer', format: '', description: 'replicas is the actual number of observed instances of the scaled object.', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: ageDescription, priority: 0 },
  ];
  const customColumns: Column[] = [
    { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 },
    { name: 'Desired', type: 'integer', format: '', description: 'Number of desired replicas', priority: 0 },
    { name: 'Available', type: 'integer', format: '', description: 'Number of actual replicas', priority: 0 },
    { name: 'Age', type: 'date', format: '', description: ageDescription, priority: 0 },
  ];

  for (const [path, columns, name, replicas] of [[`${D}/d/scale`, builtinColumns, 'd', 2], [`${RC}/rc/scale`, builtinColumns, 'rc', 3], [`${W}/w/scale`, customColumns, 'w', 4]] as const) {
    const scale = answered<Scale>(await s('GET', path));
    expect(scale.kind).to.equal('Scale');
    const t = answered<Table>(await s('GET', path, undefined, undefined, table()));
    expect([t.kind, t.apiVersion, t.metadata, t.columnDefinitions], path).to.deep.equal(['Table', 'meta.k8s.io/v1', { resourceVersion: scale.metadata.resourceVersion }, columns]);
    expect(t.rows.length).to.equal(1);
    expect(t.rows[0].cells.slice(0, 3)).to.deep.equal([name, replicas, 0]);
    expect(t.rows[0].cells[3]).to.match(/^\d+s$/);
    // includeObject: the Scale's own metadata by default, the Scale itself, or nothing.
    expect(t.rows[0].object).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: scale.metadata });
    const whole = answered<Table>(await s('GET', `${path}?includeObject=Object`, undefined, undefined, table('v1beta1')));
    expect([whole.apiVersion, whole.rows[0].object]).to.deep.equal(['meta.k8s.io/v1beta1', scale]);
    expect(answered<Table>(await s('GET', `${path}?includeObject=None`, undefined, undefined, table())).rows[0].object).to.equal(null);
    expect(answered<Table>(await s('GET', path, undefined, undefined, table('v1beta1'))).rows[0].object).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: scale.metadata });
    // The Scale's metadata alone.
    expect(answered(await s('GET', path, undefined, undefined, metadataOnly('PartialObjectMetadata', 'v1beta1')))).to.deep.equal({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1beta1', metadata: scale.metadata });
    // Not a list.
    const goType = path.startsWith(W) ? '*v1.Scale' : '*autoscaling.Scale';
    const list = await s('GET', path, undefined, undefined, metadataOnly('PartialObjectMetadataList'));
    expect([list.status, list.message]).to.deep.equal([406, `you requested PartialObjectMetadataList, but the requested object is not a list (${goType})`]);
  }

  // A write answers in the representation asked for too; the 406 of a list comes after the write is done.
  const patched = answered<Table>(await s('PATCH', `${D}/d/scale`, '{"spec":{"replicas":5}}', 'application/merge-patch+json', table()));
  expect([patched.columnDefinitions, patched.rows[0].cells.slice(0, 3)]).to.deep.equal([builtinColumns, ['d', 5, 0]]);
  const customPatched = answered<Table>(await s('PATCH', `${W}/w/scale`, '{"spec":{"replicas":6}}', 'application/merge-patch+json', table()));
  expect([customPatched.columnDefinitions, customPatched.rows[0].cells.slice(0, 3)]).to.deep.equal([customColumns, ['w', 6, 0]]);
  const current = answered<Scale>(await s('GET', `${D}/d/scale`));
  const put = answered<{ kind: string; metadata: { name: string } }>(await s('PUT', `${D}/d/scale`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'd', namespace: 'default', resourceVersion: current.metadata.resourceVersion }, spec: { replicas: 1 } }), 'application/json', metadataOnly('PartialObjectMetadata')));
  expect([put.kind, put.metadata.name]).to.deep.equal(['PartialObjectMetadata', 'd']);
  const refused = await s('PATCH', `${D}/d/scale`, '{"spec":{"replicas":7}}', 'application/merge-patch+json', metadataOnly('PartialObjectMetadataList'));
  expect([refused.status, refused.message]).to.deep.equal([406, 'you requested PartialObjectMetadataList, but the requested object is not a list (*autoscaling.Scale)']);
  expect(answered<{ spec: { replicas: number } }>(await s('GET', `${D}/d`)).spec.replicas).to.equal(7);
}

describeOnBothServers('a Scale answered as a Table, as PartialObjectMetadata, or refused as a list, as the apiserver answers it', run);
