// storage.k8s.io/v1 CSINodes, CSIStorageCapacities and VolumeAttachments on both servers, with no
// controller-manager: what is stored on create (a VolumeAttachment's status dropped), ValidateCSINode,
// ValidateCSIStorageCapacity and ValidateVolumeAttachment(V1) with several errors at once in the apiserver's
// order and words, the fields fixed on update (errors of validations run twice listed twice among the
// causes), a VolumeAttachment's /status, patches of every kind, field selectors, a watch, the Tables,
// discovery, and hostile bodies (pkg/registry/storage/{csinode,csistoragecapacity,volumeattachment},
// pkg/apis/storage/validation). Every expected answer is kube-apiserver 1.34.4's to the same request (the
// reference server runs the same test).
import { expect } from 'chai';
import { envelopeBytes, field, vfield } from '../../packages/apiserver/test/internal/protobufWriter.js';
import { APPLY, JSON_PATCH, MERGE, PROTOBUF, STRATEGIC, TABLE, answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const G = '/apis/storage.k8s.io/v1';
const CN = `${G}/csinodes`;
const CS = `${G}/namespaces/default/csistoragecapacities`;
const VA = `${G}/volumeattachments`;
/** A protobuf body of a storage.k8s.io/v1 kind named `name` with the given fields after its metadata. */
const protobuf = (kind: string, name: string, rest: number[]): string => Buffer.from(envelopeBytes('storage.k8s.io/v1', kind, [...field(1, field(1, name)), ...rest])).toString('latin1');
const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValue = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const node = (name: string, spec?: unknown): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name }, ...(spec === undefined ? {} : { spec }) });
const capacity = (name: string, rest: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name }, ...rest });
const attachment = (name: string, spec: unknown, status?: unknown): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name }, spec, ...(status === undefined ? {} : { status }) });

interface Stored {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; managedFields?: { manager: string; fieldsV1: unknown }[] };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}
interface Table { columnDefinitions: { name: string; type: string; format: string }[]; rows: { cells: unknown[] }[] }
interface Cause { reason: string; message: string; field: string }

const causes = (a: Answer): string[] => (JSON.parse(a.text) as { details: { causes: Cause[] } }).details.causes.map((c) => `${c.field}: ${c.message}`);
const names = async (s: Send, path: string): Promise<string[]> => answered<{ items: Stored[] }>(await s('GET', path)).items.map((o) => o.metadata.name);
const table = async (s: Send, path: string): Promise<[string[], unknown[][]]> => {
  const t = answered<Table>(await s('GET', path, undefined, undefined, TABLE));
  return [t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}`), t.rows.map((r) => r.cells)];
};
/** The message of a 400 answer (a body the decoder refused). */
const decodeError = async (s: Send, path: string, body: string): Promise<string> => {
  const a = await s('POST', path, body);
  expect(a.status, a.text).to.equal(400);
  return a.message;
};
const watchEvents = (a: Answer): string[] => a.text.split('\n').filter((l) => l !== '').map((l) => {
  const e = JSON.parse(l) as { type: string; object: Stored };
  return `${e.type} ${e.object.metadata.name}`;
});

async function csiNodes(s: Send): Promise<void> {
  const created = answered<Stored>(await s('POST', CN, node('n1', { drivers: [{ name: 'd.example.com', nodeID: 'node-1', topologyKeys: ['topology.example.com/zone'], allocatable: { count: 3 } }] })), 201);
  expect([created.spec, created.metadata.managedFields?.[0].fieldsV1]).to.deep.equal([
    { drivers: [{ name: 'd.example.com', nodeID: 'node-1', topologyKeys: ['topology.example.com/zone'], allocatable: { count: 3 } }] },
    { 'f:spec': { 'f:drivers': { 'k:{"name":"d.example.com"}': { '.': {}, 'f:allocatable': { '.': {}, 'f:count': {} }, 'f:name': {}, 'f:nodeID': {}, 'f:topologyKeys': {} } } } },
  ]);
  // The spec is a struct and its drivers have no omitempty: null when absent, topologyKeys too.
  expect(answered<Stored>(await s('POST', CN, node('n2')), 201).spec).to.deep.equal({ drivers: null });
  expect(answered<Stored>(await s('POST', CN, node('n3', {})), 201).spec).to.deep.equal({ drivers: null });
  const h3 = await s('POST', CN, `{"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"h3"},"spec":{"drivers":[{"name":"a.b","nodeID":"n","__proto__":{"x":1},"topologyKeys":null,"allocatable":null}]}}`);
  expect([answered<Stored>(h3, 201).spec, h3.warnings]).to.deep.equal([{ drivers: [{ name: 'a.b', nodeID: 'n', topologyKeys: null }] }, ['unknown field "spec.drivers[0].__proto__"']]);

  // Every check at once: names, node IDs (256 characters at most), counts, names once, topology keys at the driver's path.
  const long = 'x'.repeat(300);
  refused(await s('POST', CN, node('N_4', { drivers: [{ name: 'Bad_Name', nodeID: '', topologyKeys: ['', 'a/b', 'a/b', '-x'], allocatable: { count: -1 } }, { name: 'Bad_Name', nodeID: long }, { name: '', nodeID: 'x' }] })),
    `CSINode.storage.k8s.io "N_4" is invalid: [metadata.name: Invalid value: "N_4": ${subdomain}, spec.drivers[0].name: Invalid value: "Bad_Name": ${subdomain}, spec.drivers[0].nodeID: Required value, spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0, spec.drivers[0]: Required value, spec.drivers[0]: Invalid value: "": name part must be non-empty, spec.drivers[0]: Invalid value: "": ${qualified}, spec.drivers[0]: Duplicate value: "a/b", spec.drivers[0]: Invalid value: "-x": ${qualified}, spec.drivers[1].name: Invalid value: "Bad_Name": ${subdomain}, spec.drivers[1].nodeID: Invalid value: "${long}": must be 256 characters or less, spec.drivers[1].name: Duplicate value: "Bad_Name", spec.drivers[2].name: Required value, spec.drivers[2].name: Invalid value: "": ${subdomain}]`);
  refused(await s('POST', CN, node('h4', { drivers: [{ name: 'a.b', nodeID: 'n', topologyKeys: [null] }, null] })),
    `CSINode.storage.k8s.io "h4" is invalid: [spec.drivers[0]: Required value, spec.drivers[0]: Invalid value: "": name part must be non-empty, spec.drivers[0]: Invalid value: "": ${qualified}, spec.drivers[1].name: Required value, spec.drivers[1].name: Invalid value: "": ${subdomain}, spec.drivers[1].nodeID: Required value]`);
  expect(await decodeError(s, CN, node('h1', { drivers: 'x' }))).to.equal('CSINode in version "v1" cannot be handled as a CSINode: json: cannot unmarshal string into Go struct field CSINodeSpec.spec.drivers of type []v1.CSINodeDriver');
  expect(await decodeError(s, CN, node('h2', { drivers: [{ name: 'a.b', nodeID: 'n', allocatable: { count: 99999999999 } }] }))).to.equal('CSINode in version "v1" cannot be handled as a CSINode: json: cannot unmarshal number 99999999999 into Go struct field VolumeNodeResources.spec.drivers.allocatable.count of type int32');

  // Updates: a listed driver's entry is fixed (the strategic patch merges by name); others come and go.
  refused(await s('PATCH', `${CN}/n1`, JSON.stringify({ spec: { drivers: [{ name: 'd.example.com', nodeID: 'node-2', allocatable: { count: 4 } }, { name: 'e.example.com', nodeID: 'z' }] } }), STRATEGIC),
    'CSINode.storage.k8s.io "n1" is invalid: spec.drivers: Invalid value: {"Name":"d.example.com","NodeID":"node-2","TopologyKeys":["topology.example.com/zone"],"Allocatable":{"Count":4}}: field is immutable');
  const added = answered<Stored>(await s('PATCH', `${CN}/n1`, JSON.stringify({ spec: { drivers: [{ name: 'e.example.com', nodeID: 'z', topologyKeys: ['k'] }, created.spec?.drivers instanceof Array ? created.spec.drivers[0] : null] } }), MERGE));
  expect((added.spec?.drivers as { name: string }[]).map((d) => d.name)).to.deep.equal(['e.example.com', 'd.example.com']);
  const twice = await s('PATCH', `${CN}/n1`, JSON.stringify({ spec: { drivers: [{ name: 'e.example.com', nodeID: '', topologyKeys: ['k'] }] } }), MERGE);
  expect(causes(twice)).to.deep.equal(['spec.drivers[0].nodeID: Required value', 'spec.drivers[0].nodeID: Required value', 'spec.drivers: Invalid value: {"Name":"e.example.com","NodeID":"","TopologyKeys":["k"],"Allocatable":null}: field is immutable']);
  refused(await s('PATCH', `${CN}/n1`, JSON.stringify([{ op: 'replace', path: '/spec/drivers/0/topologyKeys', value: ['q'] }]), JSON_PATCH),
    'CSINode.storage.k8s.io "n1" is invalid: spec.drivers: Invalid value: {"Name":"e.example.com","NodeID":"z","TopologyKeys":["q"],"Allocatable":null}: field is immutable');
  refused(await s('PUT', `${CN}/n2`, node('n2', { drivers: [] })), 'csinodes.storage.k8s.io "n2" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  refused(await s('PATCH', `${CN}/n3`, '{"spec":{"drivers":[{"name":"__proto__","nodeID":"n"}]}}', STRATEGIC), `CSINode.storage.k8s.io "n3" is invalid: spec.drivers[0].name: Invalid value: "__proto__": ${subdomain}`);
  const removed = answered<Stored>(await s('PATCH', `${CN}/n1`, JSON.stringify([{ op: 'remove', path: '/spec/drivers/0' }]), JSON_PATCH));
  expect((removed.spec?.drivers as unknown[]).length).to.equal(1);

  // Server-side apply: drivers are a map keyed by name, each applier owning its own.
  const applied = answered<Stored>(await s('PATCH', `${CN}/ap1?fieldManager=me`, node('ap1', { drivers: [{ name: 'a.b', nodeID: 'n1' }] }), APPLY), 201);
  expect([applied.spec, applied.metadata.managedFields?.[0].fieldsV1]).to.deep.equal([
    { drivers: [{ name: 'a.b', nodeID: 'n1', topologyKeys: null }] }, { 'f:spec': { 'f:drivers': { 'k:{"name":"a.b"}': { '.': {}, 'f:name': {}, 'f:nodeID': {} } } } },
  ]);
  const other = answered<Stored>(await s('PATCH', `${CN}/ap1?fieldManager=other`, node('ap1', { drivers: [{ name: 'c.d', nodeID: 'n2', topologyKeys: ['z'] }] }), APPLY));
  expect([other.spec, other.metadata.managedFields?.map((m) => m.manager)]).to.deep.equal([{ drivers: [{ name: 'a.b', nodeID: 'n1', topologyKeys: null }, { name: 'c.d', nodeID: 'n2', topologyKeys: ['z'] }] }, ['me', 'other']]);

  // Reads: metadata.name and metadata.namespace only; the Table counts drivers.
  expect((await s('GET', `${CN}?fieldSelector=spec.x%3D1`)).message).to.equal('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expect(await names(s, `${CN}?fieldSelector=metadata.name%3Dn1`)).to.deep.equal(['n1']);
  expect(await names(s, `${CN}?fieldSelector=metadata.namespace%3D`)).to.deep.equal(['ap1', 'h3', 'n1', 'n2', 'n3']);
  const [columns, rows] = await table(s, CN);
  expect([columns, rows.map((r) => r.slice(0, 2))]).to.deep.equal([['Name:string:name', 'Drivers:integer:', 'Age:string:'], [['ap1', 2], ['h3', 1], ['n1', 1], ['n2', 0], ['n3', 0]]]);
  expect(watchEvents(await s('GET', `${CN}?watch=true&fieldSelector=metadata.name%3Dn2&resourceVersion=${created.metadata.resourceVersion}&timeoutSeconds=1`))).to.deep.equal(['ADDED n2']);

  // A protobuf body: absent lists are null as in JSON.
  const pb = protobuf('CSINode', 'pb', field(2, field(1, [...field(1, 'a.b'), ...field(2, 'n'), ...field(4, vfield(1, 2))])));
  expect(answered<Stored>(await s('POST', CN, pb, PROTOBUF), 201).spec).to.deep.equal({ drivers: [{ name: 'a.b', nodeID: 'n', topologyKeys: null, allocatable: { count: 2 } }] });
}

async function storageCapacities(s: Send): Promise<void> {
  const created = await s('POST', CS, capacity('c1', {
    storageClassName: 'gold', capacity: '1.5Gi', maximumVolumeSize: '2000m',
    nodeTopology: { matchLabels: { 'beta.kubernetes.io/arch': 'amd64' }, matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['a'] }] },
  }));
  const c1 = answered<Stored>(created, 201);
  expect([c1.capacity, c1.maximumVolumeSize, created.warnings]).to.deep.equal(['1536Mi', '2', [
    'nodeTopology.matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    'nodeTopology.matchLabels.beta.kubernetes.io/arch: deprecated since v1.14; use "kubernetes.io/arch" instead',
  ]]);
  const h6 = answered<Stored>(await s('POST', CS, capacity('h6', { storageClassName: 'g', capacity: null, nodeTopology: null })), 201);
  expect(Object.keys(h6).sort()).to.deep.equal(['apiVersion', 'kind', 'metadata', 'storageClassName']);

  refused(await s('POST', CS, capacity('c2', {})), `CSIStorageCapacity.storage.k8s.io "c2" is invalid: storageClassName: Invalid value: "": ${subdomain}`);
  refused(await s('POST', CS, capacity('C_3', { storageClassName: 'Bad_Class', nodeTopology: { matchLabels: { 'a b': '-' }, matchExpressions: [{ key: 'k', operator: 'Foo', values: ['x'] }, { key: 'k2', operator: 'In' }] }, capacity: '-1', maximumVolumeSize: '-5' })),
    `CSIStorageCapacity.storage.k8s.io "C_3" is invalid: [metadata.name: Invalid value: "C_3": ${subdomain}, nodeTopology.matchLabels: Invalid value: "a b": ${qualified}, nodeTopology.matchLabels: Invalid value: "-": ${labelValue}, nodeTopology.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator, nodeTopology.matchExpressions[1].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn', storageClassName: Invalid value: "Bad_Class": ${subdomain}, capacity: Invalid value: "-1": must be greater than or equal to 0]`);
  refused(await s('POST', CS, '{"apiVersion":"storage.k8s.io/v1","kind":"CSIStorageCapacity","metadata":{"name":"h7"},"storageClassName":"g","nodeTopology":{"matchLabels":{"__proto__":"x"}}}'),
    `CSIStorageCapacity.storage.k8s.io "h7" is invalid: nodeTopology.matchLabels: Invalid value: "__proto__": ${qualified}`);
  expect(answered<Stored>(await s('POST', CS, capacity('h5', { storageClassName: 'g', capacity: '1e400' })), 201).capacity).to.equal('10e399');
  expect(await decodeError(s, CS, capacity('h9', { storageClassName: 'g', maximumVolumeSize: { a: 1 } }))).to.equal('CSIStorageCapacity in version "v1" cannot be handled as a CSIStorageCapacity: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');

  // Updates: the topology and class are fixed; capacities change (a negative maximum is not checked).
  refused(await s('PATCH', `${CS}/c1`, JSON.stringify({ storageClassName: 'silver', nodeTopology: { matchLabels: { x: 'y' } }, capacity: '3Gi' }), MERGE),
    'CSIStorageCapacity.storage.k8s.io "c1" is invalid: [nodeTopology: Invalid value: {"matchLabels":{"beta.kubernetes.io/arch":"amd64","x":"y"},"matchExpressions":[{"key":"failure-domain.beta.kubernetes.io/zone","operator":"In","values":["a"]}]}: field is immutable, storageClassName: Invalid value: "silver": field is immutable]');
  refused(await s('PATCH', `${CS}/c1`, JSON.stringify({ capacity: '-3Gi', maximumVolumeSize: '-1' }), MERGE), 'CSIStorageCapacity.storage.k8s.io "c1" is invalid: capacity: Invalid value: "-3Gi": must be greater than or equal to 0');
  const grown = answered<Stored>(await s('PATCH', `${CS}/c1`, JSON.stringify({ capacity: '3Gi', maximumVolumeSize: '-1' }), MERGE));
  expect([grown.capacity, grown.maximumVolumeSize]).to.deep.equal(['3Gi', '-1']);
  const strategic = answered<Stored>(await s('PATCH', `${CS}/c1`, JSON.stringify({ metadata: { labels: { a: 'b' } }, capacity: '4Gi' }), STRATEGIC));
  expect([strategic.metadata.labels, strategic.capacity]).to.deep.equal([{ a: 'b' }, '4Gi']);
  refused(await s('PUT', `${CS}/h6`, capacity('h6', { storageClassName: 'g' })), 'csistoragecapacities.storage.k8s.io "h6" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  const applied = answered<Stored>(await s('PATCH', `${CS}/ap?fieldManager=me`, capacity('ap', { storageClassName: 'g', capacity: '1Ki' }), APPLY), 201);
  expect([applied.capacity, applied.metadata.managedFields?.[0].fieldsV1]).to.deep.equal(['1Ki', { 'f:capacity': {}, 'f:storageClassName': {} }]);

  // Reads: no field of its own to select on; the default Table (no printer).
  expect((await s('GET', `${CS}?fieldSelector=storageClassName%3Dgold`)).message).to.equal('"storageClassName" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expect(await names(s, `${G}/csistoragecapacities?fieldSelector=metadata.namespace%3Ddefault`)).to.deep.equal(['ap', 'c1', 'h5', 'h6']);
  const [columns, rows] = await table(s, CS);
  expect([columns, rows.map((r) => r[0])]).to.deep.equal([['Name:string:name', 'Created At:date:'], ['ap', 'c1', 'h5', 'h6']]);

  const pb = protobuf('CSIStorageCapacity', 'pb', [...field(3, 'g'), ...field(4, field(1, '1.5Gi')), ...field(5, field(1, '-2'))]);
  const fromProtobuf = answered<Stored>(await s('POST', CS, pb, PROTOBUF), 201);
  expect([fromProtobuf.storageClassName, fromProtobuf.capacity, fromProtobuf.maximumVolumeSize]).to.deep.equal(['g', '1536Mi', '-2']);
}

async function volumeAttachments(s: Send): Promise<void> {
  const spec = { attacher: 'd.example.com', source: { persistentVolumeName: 'pv1' }, nodeName: 'node-1' };
  const created = answered<Stored>(await s('POST', VA, attachment('va1', spec, { attached: true, attachmentMetadata: { a: 'b' } })), 201);
  expect([created.spec, created.status]).to.deep.equal([spec, { attached: false }]);

  refused(await s('POST', VA, attachment('va2', undefined)), `VolumeAttachment.storage.k8s.io "va2" is invalid: [spec.attacher: Required value, spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName, spec.nodeName: Invalid value: "": ${subdomain}, spec.attacher: Invalid value: "": ${subdomain}]`);
  // The status is dropped before validation: its bad error code is never seen.
  refused(await s('POST', VA, attachment('Va_3', { attacher: 'Bad_A', source: { persistentVolumeName: 'PV_x', inlineVolumeSpec: {} }, nodeName: 'Node_1' }, { attachError: { message: 'x', errorCode: -1 } })),
    `VolumeAttachment.storage.k8s.io "Va_3" is invalid: [metadata.name: Invalid value: "Va_3": ${subdomain}, spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName, spec.nodeName: Invalid value: "Node_1": ${subdomain}, spec.attacher: Invalid value: "Bad_A": ${subdomain}, spec.source.persistentVolumeName: Invalid value: "PV_x": ${subdomain}]`);
  refused(await s('POST', VA, attachment('va4', { attacher: 'd.example.com', source: { persistentVolumeName: '' }, nodeName: '' })),
    `VolumeAttachment.storage.k8s.io "va4" is invalid: [spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName, spec.nodeName: Invalid value: "": ${subdomain}, spec.source.persistentVolumeName: Invalid value: "": ${subdomain}]`);
  refused(await s('POST', VA, attachment('va6', { attacher: 'd.example.com', source: { inlineVolumeSpec: {} }, nodeName: 'n' })),
    'VolumeAttachment.storage.k8s.io "va6" is invalid: [spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes, spec.source.inlineVolumeSpec.accessModes: Required value, spec.source.inlineVolumeSpec: Required value: must specify a volume type]');
  refused(await s('POST', VA, attachment('va8', { attacher: 'd.example.com', source: { inlineVolumeSpec: { hostPath: { path: '/x' }, capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }, nodeName: 'n' })),
    'VolumeAttachment.storage.k8s.io "va8" is invalid: [spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes]');
  refused(await s('POST', VA, attachment('va9', { attacher: 'd.example.com', source: { inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' }, accessModes: ['ReadWriteOnce'], claimRef: { name: 'c' }, persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'x', volumeMode: 'Block', nodeAffinity: {} } }, nodeName: 'n' })),
    'VolumeAttachment.storage.k8s.io "va9" is invalid: [spec.source.inlineVolumeSpec.claimRef: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes, spec.source.inlineVolumeSpec.nodeAffinity: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.storageClassName: Forbidden: may not be specified in the context of inline volumes, spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes]');
  const inline = answered<Stored>(await s('POST', VA, attachment('va7', { attacher: 'd.example.com', source: { inlineVolumeSpec: { csi: { driver: 'd.example.com', volumeHandle: 'h' }, accessModes: ['ReadWriteOnce'] } }, nodeName: 'n' })), 201);
  expect(inline.spec).to.deep.equal({ attacher: 'd.example.com', source: { inlineVolumeSpec: { csi: { driver: 'd.example.com', volumeHandle: 'h' }, accessModes: ['ReadWriteOnce'] } }, nodeName: 'n' });
  expect(await decodeError(s, VA, attachment('h9', { attacher: 'd.example.com', source: { persistentVolumeName: 5 }, nodeName: 'n' }))).to.equal('VolumeAttachment in version "v1" cannot be handled as a VolumeAttachment: json: cannot unmarshal number into Go struct field VolumeAttachmentSource.spec.source.persistentVolumeName of type string');
  expect(await decodeError(s, VA, attachment('h10', spec, { attached: 'yes' }))).to.equal('VolumeAttachment in version "v1" cannot be handled as a VolumeAttachment: json: cannot unmarshal string into Go struct field VolumeAttachmentStatus.status.attached of type bool');
  refused(await s('POST', VA, attachment('h8', { ...spec, source: { persistentVolumeName: null, inlineVolumeSpec: null } })), 'VolumeAttachment.storage.k8s.io "h8" is invalid: spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName');

  // Updates: the spec is fixed (printed as the internal type), the status kept; errors of the validation run twice.
  refused(await s('PATCH', `${VA}/va1`, JSON.stringify({ spec: { nodeName: 'node-2' }, status: { attached: true } }), MERGE),
    'VolumeAttachment.storage.k8s.io "va1" is invalid: spec: Invalid value: {"Attacher":"d.example.com","Source":{"PersistentVolumeName":"pv1","InlineVolumeSpec":null},"NodeName":"node-2"}: field is immutable');
  const labelled = answered<Stored>(await s('PATCH', `${VA}/va1`, JSON.stringify({ metadata: { labels: { a: 'b' } }, status: { attached: true } }), MERGE));
  expect([labelled.metadata.labels, labelled.spec, labelled.status]).to.deep.equal([{ a: 'b' }, spec, { attached: false }]);
  const bad = await s('PATCH', `${VA}/va1`, JSON.stringify({ spec: { nodeName: 'Bad_Node', attacher: '' } }), MERGE);
  expect(causes(bad)).to.deep.equal([
    'spec.attacher: Required value', `spec.nodeName: Invalid value: "Bad_Node": ${subdomain}`, 'spec.attacher: Required value', `spec.nodeName: Invalid value: "Bad_Node": ${subdomain}`,
    'spec: Invalid value: {"Attacher":"","Source":{"PersistentVolumeName":"pv1","InlineVolumeSpec":null},"NodeName":"Bad_Node"}: field is immutable',
  ]);
  refused(await s('PATCH', `${VA}/va7`, JSON.stringify({ spec: { source: { inlineVolumeSpec: { csi: { readOnly: true, volumeAttributes: { a: 'b' }, nodePublishSecretRef: { name: 's', namespace: 'n' } }, mountOptions: ['ro'] } } } }), MERGE),
    'VolumeAttachment.storage.k8s.io "va7" is invalid: spec: Invalid value: {"Attacher":"d.example.com","Source":{"PersistentVolumeName":null,"InlineVolumeSpec":{"Capacity":null,"GCEPersistentDisk":null,"AWSElasticBlockStore":null,"HostPath":null,"Glusterfs":null,"NFS":null,"RBD":null,"Quobyte":null,"ISCSI":null,"FlexVolume":null,"Cinder":null,"CephFS":null,"FC":null,"Flocker":null,"AzureFile":null,"VsphereVolume":null,"AzureDisk":null,"PhotonPersistentDisk":null,"PortworxVolume":null,"ScaleIO":null,"Local":null,"StorageOS":null,"CSI":{"Driver":"d.example.com","VolumeHandle":"h","ReadOnly":true,"FSType":"","VolumeAttributes":{"a":"b"},"ControllerPublishSecretRef":null,"NodeStageSecretRef":null,"NodePublishSecretRef":{"Name":"s","Namespace":"n"},"ControllerExpandSecretRef":null,"NodeExpandSecretRef":null},"AccessModes":["ReadWriteOnce"],"ClaimRef":null,"PersistentVolumeReclaimPolicy":"","StorageClassName":"","MountOptions":["ro"],"VolumeMode":null,"NodeAffinity":null,"VolumeAttributesClassName":null}},"NodeName":"n"}: field is immutable');
  refused(await s('PUT', `${VA}/va1`, attachment('va1', spec)), 'volumeattachments.storage.k8s.io "va1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');

  // /status: the spec and labels kept, error codes dropped (the gate is off); the same validation, twice.
  const long = 'y'.repeat(1100);
  const tooLong = await s('PATCH', `${VA}/va1/status`, JSON.stringify({ status: { detachError: { message: long } } }), MERGE);
  expect([tooLong.message, causes(tooLong)]).to.deep.equal(['VolumeAttachment.storage.k8s.io "va1" is invalid: status.detachError.message: Too long: may not be more than 262144 bytes', [
    'status.detachError.message: Too long: may not be more than 262144 bytes', 'status.detachError.message: Too long: may not be more than 262144 bytes',
  ]]);
  refused(await s('PATCH', `${VA}/va1/status`, JSON.stringify({ metadata: { labels: { c: 'd' } }, spec: { nodeName: 'node-9' }, status: { attached: true, detachError: { message: long, errorCode: -2 } } }), MERGE),
    'VolumeAttachment.storage.k8s.io "va1" is invalid: status.detachError.message: Too long: may not be more than 262144 bytes');
  const attached = answered<Stored>(await s('PATCH', `${VA}/va1/status`, JSON.stringify({ metadata: { labels: { c: 'd' } }, spec: { nodeName: 'node-9' }, status: { attached: true, attachmentMetadata: { k: 'v' }, attachError: { message: 'm', errorCode: 5, time: '2024-01-01T00:00:00Z' } } }), MERGE));
  expect([attached.metadata.labels, attached.spec, attached.status]).to.deep.equal([{ a: 'b' }, spec, { attached: true, attachmentMetadata: { k: 'v' }, attachError: { time: '2024-01-01T00:00:00Z', message: 'm' } }]);
  const again = answered<Stored>(await s('PATCH', `${VA}/va1/status`, JSON.stringify({ status: { attachError: { message: 'm2', errorCode: 7 } } }), STRATEGIC));
  expect(again.status?.attachError).to.deep.equal({ time: '2024-01-01T00:00:00Z', message: 'm2' });
  const put = answered<Stored>(await s('PUT', `${VA}/va1/status`, JSON.stringify({ ...again, status: { attached: false, detachError: { message: 'd', errorCode: 1 } } })));
  // A VolumeError's time is a struct: zero, it is written null.
  expect(put.status).to.deep.equal({ attached: false, detachError: { time: null, message: 'd' } });
  const applied = answered<Stored>(await s('PATCH', `${VA}/va1/status?fieldManager=ctl&force=true`, JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va1' }, status: { attached: true } }), APPLY));
  expect(applied.status).to.deep.equal({ attached: true, detachError: { time: null, message: 'd' } });

  // Keys that would reach a prototype are plain keys.
  const proto = answered<Stored>(await s('PATCH', `${VA}/va7/status`, '{"status":{"attachmentMetadata":{"__proto__":"x","constructor":"y"}}}', MERGE));
  expect(JSON.stringify(proto.status)).to.equal('{"attached":false,"attachmentMetadata":{"__proto__":"x","constructor":"y"}}');

  // Reads: metadata.name and metadata.namespace only; the Table; discovery.
  expect((await s('GET', `${VA}?fieldSelector=spec.nodeName%3Dnode-1`)).message).to.equal('"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"');
  expect(await names(s, `${VA}?fieldSelector=metadata.name%3Dva7`)).to.deep.equal(['va7']);
  const [columns, rows] = await table(s, VA);
  expect([columns, rows.map((r) => r.slice(0, 5))]).to.deep.equal([
    ['Name:string:name', 'Attacher:string:name', 'PV:string:', 'Node:string:', 'Attached:boolean:', 'Age:string:'],
    [['va1', 'd.example.com', 'pv1', 'node-1', true], ['va7', 'd.example.com', '', 'n', false]],
  ]);
  const discovery = answered<{ resources: { name: string }[] }>(await s('GET', G)).resources.filter((r) => /^(csinodes|csistoragecapacities|volumeattachments)/.test(r.name));
  expect(discovery).to.deep.equal([
    { name: 'csinodes', singularName: 'csinode', namespaced: false, kind: 'CSINode', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'Pe62DkZtjuo=' },
    { name: 'csistoragecapacities', singularName: 'csistoragecapacity', namespaced: true, kind: 'CSIStorageCapacity', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'xeVl+2Ly1kE=' },
    { name: 'volumeattachments', singularName: 'volumeattachment', namespaced: false, kind: 'VolumeAttachment', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'tJx/ezt6UDU=' },
    { name: 'volumeattachments/status', singularName: '', namespaced: false, kind: 'VolumeAttachment', verbs: ['get', 'patch', 'update'] },
  ]);
  // The label, then four status writes (two patches, the PUT, the apply); refused writes are no events.
  expect(watchEvents(await s('GET', `${VA}?watch=true&fieldSelector=metadata.name%3Dva1&resourceVersion=${created.metadata.resourceVersion}&timeoutSeconds=1`))).to.deep.equal(['MODIFIED va1', 'MODIFIED va1', 'MODIFIED va1', 'MODIFIED va1', 'MODIFIED va1']);

  // Protobuf bodies: a false `attached` is not on the wire, yet written; a status write through one.
  const pb = protobuf('VolumeAttachment', 'pb', field(2, [...field(1, 'd.example.com'), ...field(2, field(1, 'pv2')), ...field(3, 'n')]));
  const fromProtobuf = answered<Stored>(await s('POST', VA, pb, PROTOBUF), 201);
  expect([fromProtobuf.spec, fromProtobuf.status]).to.deep.equal([{ attacher: 'd.example.com', source: { persistentVolumeName: 'pv2' }, nodeName: 'n' }, { attached: false }]);
  const rv = fromProtobuf.metadata.resourceVersion;
  const statusBody = Buffer.from(envelopeBytes('storage.k8s.io/v1', 'VolumeAttachment', [...field(1, [...field(1, 'pb'), ...field(6, rv)]), ...field(3, field(2, [...field(1, 'k'), ...field(2, 'v')]))])).toString('latin1');
  expect(answered<Stored>(await s('PUT', `${VA}/pb/status`, statusBody, PROTOBUF)).status).to.deep.equal({ attached: false, attachmentMetadata: { k: 'v' } });
}

describeOnBothServers('CSINodes', async (s) => csiNodes(s));
describeOnBothServers('CSIStorageCapacities', async (s) => storageCapacities(s));
describeOnBothServers('VolumeAttachments', async (s) => volumeAttachments(s));
