// core/v1 PersistentVolumes and storage.k8s.io/v1 StorageClasses on both servers, with no controller-manager
// (nothing binds or provisions): SetObjectDefaults_PersistentVolume, the pv-protection finalizer, the phase and
// its lastPhaseTransitionTime on create and through /status, ValidatePersistentVolume and
// ValidatePersistentVolumeUpdate (the source's diff, volumeMode, node affinity), warnings, field selectors,
// patches, watch, the Table; SetDefaults_StorageClass, ValidateStorageClass(Update), the default class a claim
// gets from the DefaultStorageClass admission plugin, the Table (pkg/registry/core/persistentvolume,
// pkg/registry/storage/storageclass, pkg/apis/core/validation, pkg/apis/storage/validation). Every expected
// answer is kube-apiserver 1.34.4's to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { APPLY, JSON_PATCH, MERGE, STRATEGIC, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const PV = '/api/v1/persistentvolumes';
const SC = '/apis/storage.k8s.io/v1/storageclasses';
const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const pv = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, ...meta }, spec });
const base = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] };
const sc = (name: string, rest: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, ...meta }, ...rest });

interface Volume {
  metadata: { name: string; resourceVersion: string; finalizers?: string[]; creationTimestamp: string };
  spec: Record<string, unknown>;
  status: { phase?: string; lastPhaseTransitionTime?: string; reason?: string };
}
interface Table { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }

async function volumes(s: Send): Promise<void> {
  // Create: defaults, the finalizer, a Pending status stamped now (a status sent is dropped).
  const created = answered<Volume>(await s('POST', PV, pv('a', { ...base, capacity: { storage: '1.5n' }, hostPath: { path: '/tmp/a' }, claimRef: { namespace: 'ns', name: 'c' } }, { finalizers: ['x/y'] })), 201);
  expect([created.metadata.finalizers, created.spec, created.status.phase, created.status.lastPhaseTransitionTime]).to.deep.equal([
    ['x/y', 'kubernetes.io/pv-protection'],
    { capacity: { storage: '1m' }, hostPath: { path: '/tmp/a', type: '' }, accessModes: ['ReadWriteOnce'], claimRef: { namespace: 'ns', name: 'c' }, persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' },
    'Pending', created.metadata.creationTimestamp,
  ]);
  const sources = answered<Volume>(await s('POST', PV, JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'b' }, spec: { ...base, rbd: { monitors: ['m'], image: 'i' }, storageClassName: 'fast', volumeMode: 'Block' }, status: { phase: 'Bound', reason: 'r' } })), 201);
  expect([sources.spec.rbd, sources.status]).to.deep.equal([{ monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' }, { phase: 'Pending', lastPhaseTransitionTime: sources.metadata.creationTimestamp }]);

  // ValidatePersistentVolume, several errors at once, in the reference's order.
  refused(await s('POST', PV, pv('c', {})), 'PersistentVolume "c" is invalid: [spec.accessModes: Required value, spec.capacity: Required value, spec.capacity: Unsupported value: null: supported values: "storage", spec: Required value: must specify a volume type]');
  refused(await s('POST', PV, pv('d', {
    capacity: { storage: '1Gi', cpu: '-1' }, accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'Bogus'], persistentVolumeReclaimPolicy: 'Recycle', hostPath: { path: '/' },
    nfs: { server: '', path: 'a/../b' }, local: { path: '/x' }, csi: { driver: '', volumeHandle: '' }, storageClassName: 'Bad_', volumeMode: 'Odd',
  })), `PersistentVolume "d" is invalid: [spec.accessModes: Unsupported value: "Bogus": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes, spec.capacity: Unsupported value: {"cpu":"-1","storage":"1Gi"}: supported values: "storage", spec.capacity[cpu]: Invalid value: -1: must be a valid resource quantity, spec.capacity[cpu]: Invalid value: "-1": must be greater than zero, spec.nfs: Forbidden: may not specify more than 1 volume type, spec.local: Forbidden: may not specify more than 1 volume type, spec.csi: Forbidden: may not specify more than 1 volume type, spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/', spec.storageClassName: Invalid value: "Bad_": ${subdomain}, spec.volumeMode: Unsupported value: "Odd": supported values: "Block", "Filesystem"]`);
  refused(await s('POST', PV, pv('e', { ...base, capacity: { storage: '0' }, local: { path: 'a/../b' }, nodeAffinity: {} })), 'PersistentVolume "e" is invalid: [spec.capacity[storage]: Invalid value: "0": must be greater than zero, spec.nodeAffinity.required: Required value: must specify required node constraints, spec.local.path: Invalid value: "a/../b": must not contain \'..\']');
  refused(await s('POST', PV, pv('f', { ...base, local: { path: '/l' } })), 'PersistentVolume "f" is invalid: spec.nodeAffinity: Required value: Local volume requires node affinity');
  refused(await s('POST', PV, pv('g', { ...base, csi: { driver: 'Bad_Driver', volumeHandle: 'h', nodePublishSecretRef: { name: '' }, controllerExpandSecretRef: { name: 's', namespace: 'N_S' } }, volumeAttributesClassName: '' })), `PersistentVolume "g" is invalid: [spec.csi.driver: Invalid value: "Bad_Driver": ${subdomain}, spec.csi.controllerExpandSecretRef.namespace: Invalid value: "N_S": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.csi.nodePublishSecretRef.name: Required value, spec.csi.nodePublishSecretRef.namespace: Required value, spec.volumeAttributesClassName: Required value: an empty string is disallowed]`);
  refused(await s('POST', PV, pv('h', { ...base, hostPath: { path: '/h' }, volumeAttributesClassName: 'v' }, { annotations: { 'volume.beta.kubernetes.io/mount-options': 'ro' } })), 'PersistentVolume "h" is invalid: [spec.csi: Required value: has to be specified when using volumeAttributesClassName, metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type]');
  refused(await s('POST', PV, pv('i', { ...base, gcePersistentDisk: { pdName: '', partition: 300 }, flexVolume: { driver: 'd' } })), 'PersistentVolume "i" is invalid: [spec.persistentDisk.pdName: Required value, spec.persistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive]');

  // Warnings of a create.
  const warned = await s('POST', PV, pv('w', { ...base, persistentVolumeReclaimPolicy: 'Recycle', nfs: { server: 's', path: '/p' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', operator: 'In', values: ['z'] }] }] } } }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'x', 'volume.beta.kubernetes.io/mount-options': 'ro' } }));
  expect([warned.status, warned.warnings]).to.deep.equal([201, [
    'metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
    'metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead',
    'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  ]]);

  // Updates: the source, volumeMode and node affinity are fixed (a beta zone key may become the GA one).
  const changed = await s('PUT', `${PV}/a`, pv('a', { ...created.spec, hostPath: { path: '/tmp/b' }, volumeMode: 'Block' }, { resourceVersion: created.metadata.resourceVersion }));
  refused(changed, 'PersistentVolume "a" is invalid: [spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -2,7 +2,7 @@\n  "GCEPersistentDisk": null,\n  "AWSElasticBlockStore": null,\n  "HostPath": {\n-  "Path": "/tmp/a",\n+  "Path": "/tmp/b",\n   "Type": ""\n  },\n  "Glusterfs": null,\n, volumeMode: Invalid value: "Block": field is immutable]');
  const swapped = await s('PUT', `${PV}/a`, pv('a', { ...created.spec, hostPath: undefined, nfs: { server: 's', path: '/p' } }));
  refused(swapped, 'PersistentVolume "a" is invalid: spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -1,12 +1,13 @@\n {\n  "GCEPersistentDisk": null,\n  "AWSElasticBlockStore": null,\n- "HostPath": {\n-  "Path": "/tmp/a",\n-  "Type": ""\n+ "HostPath": null,\n+ "Glusterfs": null,\n+ "NFS": {\n+  "Server": "s",\n+  "Path": "/p",\n+  "ReadOnly": false\n  },\n- "Glusterfs": null,\n- "NFS": null,\n  "RBD": null,\n  "Quobyte": null,\n  "ISCSI": null,\n');
  refused(await s('PATCH', `${PV}/w`, JSON.stringify({ spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] }] } } } }), MERGE), 'PersistentVolume "w" is invalid: nodeAffinity: Invalid value: {"Required":{"NodeSelectorTerms":[{"MatchExpressions":[{"Key":"zone","Operator":"In","Values":["z"]}],"MatchFields":null}]}}: field is immutable, except for updating from beta label to GA');
  const ga = await s('PATCH', `${PV}/w`, JSON.stringify({ spec: { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z'] }] }] } } } }), MERGE);
  expect([ga.status, ga.warnings.length]).to.deep.equal([200, 3]);
  // What may change: capacity, access modes, class, claimRef, reclaim policy; the status stays.
  const grown = answered<Volume>(await s('PATCH', `${PV}/a`, JSON.stringify({ spec: { capacity: { storage: '2Gi' }, storageClassName: 'slow', claimRef: null }, status: { phase: 'Failed' } }), STRATEGIC));
  expect([grown.spec.capacity, grown.spec.storageClassName, grown.spec.claimRef, grown.status.phase]).to.deep.equal([{ storage: '2Gi' }, 'slow', undefined, 'Pending']);
  refused(await s('PATCH', `${PV}/a`, JSON.stringify([{ op: 'replace', path: '/spec/accessModes', value: [] }]), JSON_PATCH), 'PersistentVolume "a" is invalid: spec.accessModes: Required value');

  // /status: the spec stays; a phase change is stamped unless the writer stamped it; the same phase keeps the stamp.
  const stamped = answered<Volume>(await s('PATCH', `${PV}/a/status`, JSON.stringify({ spec: { storageClassName: 'x' }, status: { phase: 'Available', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' } }), MERGE));
  expect([stamped.spec.storageClassName, stamped.status]).to.deep.equal(['slow', { phase: 'Available', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' }]);
  const same = answered<Volume>(await s('PUT', `${PV}/a/status`, JSON.stringify({ ...stamped, status: { phase: 'Available', reason: 'why' } })));
  expect(same.status).to.deep.equal({ phase: 'Available', reason: 'why', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' });
  const moved = answered<Volume>(await s('PATCH', `${PV}/a/status`, JSON.stringify({ status: { phase: 'Released' } }), MERGE));
  expect(moved.status.phase).to.equal('Released');
  expect(moved.status.lastPhaseTransitionTime).to.not.equal('2020-01-01T00:00:00Z');
  const kept = answered<Volume>(await s('PATCH', `${PV}/a/status`, JSON.stringify({ status: { phase: 'Bound', lastPhaseTransitionTime: moved.status.lastPhaseTransitionTime } }), MERGE));
  expect(kept.status.lastPhaseTransitionTime).to.be.a('string');

  // Apply creates with the defaults; field selectors: metadata.name only (the field set's legacy `name` is
  // refused by the label conversion before it is read).
  const applied = answered<Volume>(await s('PATCH', `${PV}/ap?fieldManager=m`, JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'ap' }, spec: { ...base, csi: { driver: 'd.example.com', volumeHandle: 'h' } } }), APPLY), 201);
  expect([applied.spec.persistentVolumeReclaimPolicy, applied.metadata.finalizers]).to.deep.equal(['Retain', ['kubernetes.io/pv-protection']]);
  const legacy = await s('GET', `${PV}?fieldSelector=name%3Dap`);
  expect([legacy.status, legacy.message]).to.deep.equal([400, '"name" is not a known field selector: only "metadata.name", "metadata.namespace"']);
  const notB = answered<{ items: Volume[] }>(await s('GET', `${PV}?fieldSelector=metadata.name!%3Db`));
  expect(notB.items.map((i) => i.metadata.name)).to.deep.equal(['a', 'ap', 'w']);
  const bad = await s('GET', `${PV}?fieldSelector=spec.storageClassName%3Dx`);
  expect([bad.status, bad.message]).to.deep.equal([400, '"spec.storageClassName" is not a known field selector: only "metadata.name", "metadata.namespace"']);
  const watched = await s('GET', `${PV}?watch=true&fieldSelector=metadata.name%3Db&timeoutSeconds=1`);
  expect(watched.text.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { type: string; object: Volume }).object.metadata.name)).to.deep.equal(['b']);

  // The Table (wide columns included), a deleting volume is Terminating (the finalizer keeps it).
  answered(await s('DELETE', `${PV}/b`));
  const table = answered<Table>(await s('GET', `${PV}?fieldSelector=metadata.name%3Db`, undefined, undefined, TABLE));
  expect(table.columnDefinitions.map((c) => c.name)).to.deep.equal(['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode']);
  expect(table.rows[0].cells.filter((_, i) => i !== 9)).to.deep.equal(['b', '1Gi', 'RWO', 'Retain', 'Terminating', '', 'fast', '<unset>', '', 'Block']);
  const aRow = answered<Table>(await s('GET', `${PV}/w`, undefined, undefined, TABLE)).rows[0].cells;
  expect(aRow.filter((_, i) => i !== 9)).to.deep.equal(['w', '1Gi', 'RWO', 'Recycle', 'Pending', '', 'x', '<unset>', '', 'Filesystem']);

  // Hostile input: wrong types, prototype keys, a huge capacity.
  const typed = await s('POST', PV, pv('t', { ...base, accessModes: 'ReadWriteOnce', hostPath: { path: '/t' } }));
  expect([typed.status, typed.message]).to.deep.equal([400, 'PersistentVolume in version "v1" cannot be handled as a PersistentVolume: json: cannot unmarshal string into Go struct field PersistentVolumeSpec.spec.accessModes of type []v1.PersistentVolumeAccessMode']);
  refused(await s('POST', PV, '{"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"p","labels":{"__proto__":"x"}},"spec":{"capacity":{"storage":"1Gi","__proto__":"1"},"accessModes":["ReadWriteOnce"],"csi":{"driver":"d.io","volumeHandle":"h","volumeAttributes":{"__proto__":"v"}}}}'), `PersistentVolume "p" is invalid: [metadata.labels: Invalid value: "__proto__": ${qualified}, spec.capacity: Unsupported value: {"__proto__":"1","storage":"1Gi"}: supported values: "storage"]`);
  const huge = await s('POST', PV, pv('big', { ...base, capacity: { storage: '99999999999999999999999999Ei' }, hostPath: { path: '/big' } }));
  expect(huge.status).to.equal(201);
}

async function classes(s: Send): Promise<void> {
  const fast = answered<Record<string, unknown>>(await s('POST', SC, sc('fast', { provisioner: 'example.com/fast', parameters: { type: 'ssd' } })), 201);
  expect([fast.reclaimPolicy, fast.volumeBindingMode, fast.allowVolumeExpansion]).to.deep.equal(['Delete', 'Immediate', undefined]);
  refused(await s('POST', SC, sc('Bad_', { provisioner: '', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later', parameters: { '': 'x' } })), `StorageClass.storage.k8s.io "Bad_" is invalid: [metadata.name: Invalid value: "Bad_": ${subdomain}, provisioner: Required value, parameters: Invalid value: "": field can not be empty., reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain", volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"]`);
  refused(await s('POST', SC, sc('p', { provisioner: 'Bad Prov/x' })), `StorageClass.storage.k8s.io "p" is invalid: provisioner: Invalid value: "bad prov/x": prefix part ${subdomain}`);
  refused(await s('POST', SC, sc('t', { provisioner: 'p', allowedTopologies: [
    { matchLabelExpressions: [{ key: 'zone', values: [] }, { key: 'zone', values: ['a', 'a'] }] },
    { matchLabelExpressions: [{ key: 'k', values: ['1', '2'] }] }, { matchLabelExpressions: [{ key: 'k', values: ['2', '1'] }] },
  ] })), 'StorageClass.storage.k8s.io "t" is invalid: [allowedTopologies[0].matchLabelExpressions[0].values: Required value, allowedTopologies[0].matchLabelExpressions[1].values[1]: Duplicate value: "a", allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: "zone", allowedTopologies[2].matchLabelExpressions: Duplicate value: ""]');
  const topo = await s('POST', SC, sc('topo', { provisioner: 'p', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true, allowedTopologies: [{ matchLabelExpressions: [{ key: 'failure-domain.beta.kubernetes.io/zone', values: ['a'] }] }] }, { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }));
  expect([topo.status, topo.warnings]).to.deep.equal([201, ['allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.17; use "topology.kubernetes.io/zone" instead']]);
  // Fixed once created.
  refused(await s('PUT', `${SC}/fast`, sc('fast', { provisioner: 'other', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' })), 'StorageClass.storage.k8s.io "fast" is invalid: [parameters: Forbidden: updates to parameters are forbidden., provisioner: Forbidden: updates to provisioner are forbidden., reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden., volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable]');
  const expanded = answered<Record<string, unknown>>(await s('PATCH', `${SC}/fast`, JSON.stringify({ allowVolumeExpansion: true, mountOptions: ['ro'] }), MERGE));
  expect([expanded.allowVolumeExpansion, expanded.mountOptions]).to.deep.equal([true, ['ro']]);

  // The DefaultStorageClass plugin: a claim without a class gets the default one; "" and a class stay.
  const claim = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });
  let defaulted: { spec: { storageClassName?: string } } = { spec: {} };
  // The reference's plugin reads its informer, a moment behind the create.
  for (let i = 0; i < 50 && defaulted.spec.storageClassName === undefined; i++) {
    defaulted = answered(await s('POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim(`c${i}`, {})), 201);
    if (defaulted.spec.storageClassName === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  expect(defaulted.spec.storageClassName).to.equal('topo');
  const empty = answered<{ spec: { storageClassName?: string } }>(await s('POST', '/api/v1/namespaces/default/persistentvolumeclaims', claim('empty', { storageClassName: '' })), 201);
  expect(empty.spec.storageClassName).to.equal('');

  const table = answered<Table>(await s('GET', SC, undefined, undefined, TABLE));
  expect(table.columnDefinitions.map((c) => c.name)).to.deep.equal(['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
  expect(table.rows.map((r) => r.cells.slice(0, 5))).to.deep.equal([['fast', 'example.com/fast', 'Delete', 'Immediate', true], ['topo (default)', 'p', 'Delete', 'WaitForFirstConsumer', true]]);

  const discovery = answered<{ resources: { name: string; shortNames?: string[]; namespaced: boolean }[] }>(await s('GET', '/apis/storage.k8s.io/v1'));
  expect(discovery.resources.find((r) => r.name === 'storageclasses')).to.include({ namespaced: false }).and.to.have.deep.property('shortNames', ['sc']);
  const core = answered<{ resources: { name: string; shortNames?: string[] }[] }>(await s('GET', '/api/v1'));
  expect(core.resources.filter((r) => r.name.startsWith('persistentvolumes')).map((r) => [r.name, r.shortNames])).to.deep.equal([['persistentvolumes', ['pv']], ['persistentvolumes/status', undefined]]);
}

const VAC = '/apis/storage.k8s.io/v1/volumeattributesclasses';
const vac = (name: string, rest: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name }, ...rest });

async function attributeClasses(s: Send): Promise<void> {
  const gold = answered<{ metadata: { resourceVersion: string } }>(await s('POST', VAC, vac('gold', { driverName: 'd.example.com', parameters: { iops: '100' } })), 201);
  refused(await s('POST', VAC, vac('Bad_', { driverName: '' })), `VolumeAttributesClass.storage.k8s.io "Bad_" is invalid: [metadata.name: Invalid value: "Bad_": ${subdomain}, driverName: Required value, parameters: Required value: must contain at least one key/value pair]`);
  const update = await s('PUT', `${VAC}/gold`, vac('gold', { driverName: 'e.example.com', parameters: {} }));
  refused(update, 'VolumeAttributesClass.storage.k8s.io "gold" is invalid: [parameters: Required value: must contain at least one key/value pair, driverName: Forbidden: updates to driverName are forbidden., parameters: Forbidden: updates to parameters are forbidden.]');
  expect((JSON.parse(update.text) as { details: { causes: unknown[] } }).details.causes).to.have.length(4);
  const labelled = await s('PATCH', `${VAC}/gold`, JSON.stringify({ metadata: { labels: { tier: 'gold' }, resourceVersion: gold.metadata.resourceVersion } }), MERGE);
  expect(labelled.status).to.equal(200);
  const table = answered<Table>(await s('GET', VAC, undefined, undefined, TABLE));
  expect([table.columnDefinitions.map((c) => c.name), table.rows.map((r) => r.cells.slice(0, 2))]).to.deep.equal([['Name', 'DriverName', 'Age'], [['gold', 'd.example.com']]]);
  // A volume may name a class (CSI volumes only), and not drop it again.
  answered(await s('POST', PV, pv('v', { ...base, csi: { driver: 'd.example.com', volumeHandle: 'h' }, volumeAttributesClassName: 'gold' })), 201);
  refused(await s('PATCH', `${PV}/v`, JSON.stringify({ spec: { volumeAttributesClassName: null } }), MERGE), 'PersistentVolume "v" is invalid: spec.volumeAttributesClassName: Forbidden: update from non-nil value to nil is forbidden');
  const row = answered<Table>(await s('GET', `${PV}/v`, undefined, undefined, TABLE)).rows[0].cells;
  expect(row[7]).to.equal('gold');
}

const CSI = '/apis/storage.k8s.io/v1/csidrivers';
const driver = (name: string, spec: Record<string, unknown>, meta: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name, ...meta }, spec });

async function csiDrivers(s: Send): Promise<void> {
  const created = answered<{ metadata: { generation?: number; resourceVersion: string }; spec: Record<string, unknown> }>(await s('POST', CSI, driver('d.example.com', { nodeAllocatableUpdatePeriodSeconds: 60 })), 201);
  expect([created.metadata.generation, created.spec]).to.deep.equal([undefined, {
    attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', requiresRepublish: false, seLinuxMount: false,
  }]);
  refused(await s('POST', CSI, driver('e.example.com', { fsGroupPolicy: 'Odd', volumeLifecycleModes: ['Persistent', 'Never'], tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }, { audience: 'b', expirationSeconds: 5000000000 }] })), 'CSIDriver.storage.k8s.io "e.example.com" is invalid: [spec.fsGroupPolicy: Unsupported value: "Odd": supported values: "File", "None", "ReadWriteOnceWithFSType", spec.tokenRequests[0].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes, spec.tokenRequests[1].audience: Duplicate value: "a", spec.tokenRequests[2].expirationSeconds: Invalid value: 5000000000: may not specify a duration larger than 2^32 seconds, spec.volumeLifecycleModes: Unsupported value: "Never": supported values: "Persistent", "Ephemeral"]');
  refused(await s('PATCH', `${CSI}/d.example.com`, JSON.stringify({ spec: { attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } }), MERGE), 'CSIDriver.storage.k8s.io "d.example.com" is invalid: [spec.attachedRequired: Invalid value: false: field is immutable, spec.volumeLifecycleModes: Invalid value: ["Ephemeral"]: field is immutable]');
  const changed = answered<{ metadata: { generation?: number } }>(await s('PATCH', `${CSI}/d.example.com`, JSON.stringify({ spec: { podInfoOnMount: true, tokenRequests: [{ audience: 'x' }] } }), MERGE));
  expect(changed.metadata.generation).to.equal(1);
  const table = answered<Table>(await s('GET', CSI, undefined, undefined, TABLE));
  expect([table.columnDefinitions.map((c) => c.name), table.rows[0].cells.slice(0, 7)]).to.deep.equal([
    ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age'],
    ['d.example.com', true, true, false, 'x', false, 'Persistent'],
  ]);
}

describeOnBothServers('PersistentVolumes', async (s) => volumes(s));
describeOnBothServers('CSIDrivers', async (s) => csiDrivers(s));
describeOnBothServers('VolumeAttributesClasses', async (s) => attributeClasses(s));
describeOnBothServers('StorageClasses', async (s) => classes(s));
