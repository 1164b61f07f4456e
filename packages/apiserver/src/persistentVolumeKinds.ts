/**
 * core/v1 PersistentVolumes, as kube-apiserver 1.34.4 serves them without a controller-manager (nothing
 * binds or provisions): the strategy of pkg/registry/core/persistentvolume (status `Pending` with its
 * `lastPhaseTransitionTime` on create, the status kept by updates of the main resource, a `/status` that
 * keeps the spec and stamps a phase change), `SetObjectDefaults_PersistentVolume`, the checks of
 * pkg/apis/core/validation (`ValidatePersistentVolume`, `ValidatePersistentVolumeUpdate`) and of
 * pkg/volume/validation (mount options), `GetWarningsForPersistentVolume`, the
 * `kubernetes.io/pv-protection` finalizer of the StorageObjectInUseProtection admission plugin, and the
 * Table of printPersistentVolume.
 *
 * Of the volume sources, hostPath, gcePersistentDisk, awsElasticBlockStore, nfs, local and csi have
 * their own fields checked; the others (all deprecated or non-functional in 1.34) count as a source and
 * are checked no further. The source's immutability error quotes a unified diff of the internal
 * `PersistentVolumeSource` as JSON (internal/unifiedDiff.ts).
 *
 * @see https://kubernetes.io/docs/concepts/storage/persistent-volumes/
 */
import { FieldError, FieldPath, forbidden, invalid, notSupported, required, stringifyJSON, tooLong, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { childObject, isObject, setDefault, str, type JSONObject } from './internal/own.js';
import { amountSign, amountText, amountValue, parseAmount, roundUpListToMilli } from './internal/resourceList.js';
import { isDNS1123Label, isDNS1123Subdomain } from './internal/semantics.js';
import { isSet, list, obj, validatePathNoBacksteps } from './internal/podFields.js';
import { nodeSelectorTermWarnings } from './podWarnings.js';
import { validateNodeSelector } from './podScheduling.js';
import { validateNFSVolumeSource } from './podVolumes.js';
import { ageCell, builtinAgeColumn } from './table.js';
import { persistentVolumeSourceDiff } from './internal/persistentVolumeSource.js';

/** The finalizer the StorageObjectInUseProtection plugin gives every new PersistentVolume. */
export const pvProtectionFinalizer = 'kubernetes.io/pv-protection';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const reclaimPolicies = ['Delete', 'Recycle', 'Retain'];
const volumeModes = ['Block', 'Filesystem'];
const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const pdPartitionError = 'must be between 1 and 255, inclusive';
const mountOptionsAnnotation = 'volume.beta.kubernetes.io/mount-options';
/** The sources whose plugins take mount options (`checkMountOption`). */
const mountOptionSources = ['gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder', 'cephfs', 'azureFile', 'vsphereVolume', 'azureDisk', 'photonPersistentDisk'];

/**
 * The sources in the order `ValidatePersistentVolumeSpec` looks at them: the member, the path its "more
 * than 1" error names and the path its own checks name (the apiserver's slips: `persistentDisk`, `cephFS`).
 * A flexVolume is counted without that check.
 */
const sources: readonly (readonly [string, string, string])[] = [
  ['hostPath', 'hostPath', 'hostPath'], ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk'], ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs', 'glusterfs'], ['flocker', 'flocker', 'flocker'], ['nfs', 'nfs', 'nfs'], ['rbd', 'rbd', 'rbd'], ['quobyte', 'quobyte', 'quobyte'],
  ['cephfs', 'cephFS', 'cephfs'], ['iscsi', 'iscsi', 'iscsi'], ['cinder', 'cinder', 'cinder'], ['fc', 'fc', 'fc'], ['flexVolume', '', 'flexVolume'],
  ['azureFile', 'azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume', 'vsphereVolume'], ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk', 'azureDisk'], ['scaleIO', 'scaleIO', 'scaleIO'], ['local', 'local', 'local'],
  ['storageos', 'storageos', 'storageos'], ['csi', 'csi', 'csi'],
];

/** The deprecated sources `GetWarningsForPersistentVolume` names (its `storageOS` is the apiserver's spelling). */
const deprecatedSources: readonly (readonly [string, string, string])[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'], ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'], ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'], ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** The beta node labels a PV's node affinity may move to their GA names (`betaToGALabel`). */
const betaToGA: Readonly<Record<string, string>> = {
  'failure-domain.beta.kubernetes.io/zone': 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region': 'topology.kubernetes.io/region',
  'beta.kubernetes.io/os': 'kubernetes.io/os',
  'beta.kubernetes.io/arch': 'kubernetes.io/arch',
  'beta.kubernetes.io/instance-type': 'node.kubernetes.io/instance-type',
};

const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});

/** `SetObjectDefaults_PersistentVolume`. */
function defaultPersistentVolume(o: KubeObject): void {
  const status = childObject(o, 'status');
  if (str(status.phase) === '') status.phase = 'Pending';
  const spec = childObject(o, 'spec');
  if (str(spec.persistentVolumeReclaimPolicy) === '') spec.persistentVolumeReclaimPolicy = 'Retain';
  setDefault(spec, 'volumeMode', 'Filesystem');
  roundUpListToMilli(spec.capacity);
  if (isObject(spec.hostPath)) setDefault(spec.hostPath, 'type', '');
  if (isObject(spec.rbd)) {
    for (const [k, v] of [['pool', 'rbd'], ['user', 'admin'], ['keyring', '/etc/ceph/keyring']]) if (str(spec.rbd[k]) === '') spec.rbd[k] = v;
  }
  if (isObject(spec.iscsi) && str(spec.iscsi.iscsiInterface) === '') spec.iscsi.iscsiInterface = 'default';
  if (isObject(spec.azureDisk)) {
    for (const [k, v] of [['cachingMode', 'ReadWrite'], ['fsType', 'ext4'], ['readOnly', false], ['kind', 'Shared']] as const) setDefault(spec.azureDisk, k, v);
  }
  if (isObject(spec.scaleIO)) {
    if (str(spec.scaleIO.storageMode) === '') spec.scaleIO.storageMode = 'ThinProvisioned';
    if (str(spec.scaleIO.fsType) === '') spec.scaleIO.fsType = 'xfs';
  }
}

/** `validatePVSecretReference`: a name (DNS subdomain) and a namespace (DNS label). */
function secretReferenceErrors(ref: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ref.name);
  if (name === '') errs.push(required(path.child('name'), ''));
  else for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(path.child('name'), name, msg));
  const namespace = str(ref.namespace);
  if (namespace === '') errs.push(required(path.child('namespace'), ''));
  else for (const msg of isDNS1123Label(namespace)) errs.push(invalid(path.child('namespace'), namespace, msg));
  return errs;
}

function partitionErrors(source: JSONObject, path: FieldPath): FieldError[] {
  const partition = typeof source.partition === 'number' ? source.partition : 0;
  return partition < 0 || partition > 255 ? [invalid(path.child('partition'), partition, pdPartitionError)] : [];
}

/** The checks of one source (the ones kubekit knows; see the file comment). */
function sourceErrors(key: string, source: JSONObject, path: FieldPath): FieldError[] {
  switch (key) {
    case 'hostPath': case 'local': {
      const p = str(source.path);
      if (p === '') return [required(path.child('path'), '')];
      const errs = validatePathNoBacksteps(p, path.child('path'));
      if (key === 'hostPath' && isSet(source.type) && !hostPathTypes.includes(str(source.type))) errs.push(notSupported(path.child('type'), source.type, hostPathTypes));
      return errs;
    }
    case 'gcePersistentDisk':
      return [...(str(source.pdName) === '' ? [required(path.child('pdName'), '')] : []), ...partitionErrors(source, path)];
    case 'awsElasticBlockStore':
      return [...(str(source.volumeID) === '' ? [required(path.child('volumeID'), '')] : []), ...partitionErrors(source, path)];
    case 'nfs':
      return validateNFSVolumeSource(source, path);
    case 'csi': {
      const errs: FieldError[] = [];
      const driver = str(source.driver);
      if (driver === '') errs.push(required(path.child('driver'), ''));
      if (driver.length > 63) errs.push(tooLong(path.child('driver'), '', 63));
      for (const msg of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(path.child('driver'), driver, msg));
      if (str(source.volumeHandle) === '') errs.push(required(path.child('volumeHandle'), ''));
      for (const ref of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
        if (isSet(source[ref])) errs.push(...secretReferenceErrors(obj(source[ref]), path.child(ref)));
      }
      return errs;
    }
    default:
      return [];
  }
}

/** The capacity's checks: only `storage`, each quantity not negative and greater than zero. */
function capacityErrors(capacity: unknown, path: FieldPath): FieldError[] {
  const entries = isObject(capacity) ? Object.keys(capacity).sort() : [];
  const errs: FieldError[] = [];
  if (entries.length === 0) errs.push(required(path, ''));
  if (!entries.includes('storage') || entries.length > 1) errs.push(notSupported(path, isObject(capacity) && entries.length > 0 ? capacity : null, ['storage']));
  for (const name of entries) {
    const amount = parseAmount((capacity as JSONObject)[name]);
    if (amount === undefined) continue;
    const value = amountValue(amount);
    // validateBasicResource prints the int64 value, ValidatePositiveQuantityValue the quantity's text.
    if (value < 0n) errs.push(invalid(path.key(name), Number(value), 'must be a valid resource quantity'));
    if (amountSign(amount) <= 0) errs.push(invalid(path.key(name), amountText(amount), 'must be greater than zero'));
  }
  return errs;
}

/**
 * `ValidatePersistentVolumeSpec` of the spec at `path`; `inline` for a VolumeAttachment's inline spec (a CSI
 * source only, no capacity, claim, node affinity or class, `Retain` and `Filesystem` if any, no
 * volumeAttributesClassName check: its options leave that feature out).
 */
export function validatePersistentVolumeSpec(value: unknown, path: FieldPath, inline = false): FieldError[] {
  const spec = obj(value);
  const errs: FieldError[] = [];
  if (inline) {
    if (isSet(spec.claimRef)) errs.push(forbidden(path.child('claimRef'), 'may not be specified in the context of inline volumes'));
    if (isObject(spec.capacity) && Object.keys(spec.capacity).length > 0) errs.push(forbidden(path.child('capacity'), 'may not be specified in the context of inline volumes'));
    if (!isSet(spec.csi)) errs.push(required(path.child('csi'), 'has to be specified in the context of inline volumes'));
  }
  const modes = list(spec.accessModes).map(str);
  if (modes.length === 0) errs.push(required(path.child('accessModes'), ''));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!accessModes.includes(mode)) errs.push(notSupported(path.child('accessModes'), mode, accessModes));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (accessModes.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  if (!inline) errs.push(...capacityErrors(spec.capacity, path.child('capacity')));
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy !== '' && inline && policy !== 'Retain') errs.push(forbidden(path.child('persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
  else if (policy !== '' && !inline && !reclaimPolicies.includes(policy)) errs.push(notSupported(path.child('persistentVolumeReclaimPolicy'), policy, reclaimPolicies));
  const affinity = isSet(spec.nodeAffinity) && !inline;
  if (isSet(spec.nodeAffinity) && inline) errs.push(forbidden(path.child('nodeAffinity'), 'may not be specified in the context of inline volumes'));
  if (affinity) {
    const required_ = obj(spec.nodeAffinity).required;
    if (isSet(required_)) errs.push(...validateNodeSelector(obj(required_), path.child('nodeAffinity', 'required')));
    else errs.push(required(path.child('nodeAffinity', 'required'), 'must specify required node constraints'));
  }
  let count = 0;
  for (const [key, morePath, ownPath] of sources) {
    if (!isSet(spec[key])) continue;
    if (count > 0 && morePath !== '') {
      errs.push(forbidden(path.child(morePath), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    errs.push(...sourceErrors(key, obj(spec[key]), path.child(ownPath)));
    if (key === 'local' && !affinity) errs.push(required(path.child('nodeAffinity'), 'Local volume requires node affinity'));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  if (isObject(spec.hostPath) && cleanPath(str(spec.hostPath.path)) === '/' && policy === 'Recycle') {
    errs.push(forbidden(path.child('persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = str(spec.storageClassName);
  if (className !== '' && inline) errs.push(forbidden(path.child('storageClassName'), 'may not be specified in the context of inline volumes'));
  else if (className !== '') for (const msg of isDNS1123Subdomain(className)) errs.push(invalid(path.child('storageClassName'), className, msg));
  if (isSet(spec.volumeMode) && inline && str(spec.volumeMode) !== 'Filesystem') errs.push(forbidden(path.child('volumeMode'), 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
  else if (isSet(spec.volumeMode) && !inline && !volumeModes.includes(str(spec.volumeMode))) errs.push(notSupported(path.child('volumeMode'), str(spec.volumeMode), volumeModes));
  if (isSet(spec.volumeAttributesClassName) && !inline) {
    const vac = str(spec.volumeAttributesClassName);
    if (vac === '') errs.push(required(path.child('volumeAttributesClassName'), 'an empty string is disallowed'));
    else for (const msg of isDNS1123Subdomain(vac)) errs.push(invalid(path.child('volumeAttributesClassName'), vac, msg));
    if (!isSet(spec.csi)) errs.push(required(path.child('csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** `ValidatePersistentVolume` past its metadata: the spec, and pkg/volume/validation's `checkMountOption`. */
function validatePersistentVolume(o: KubeObject): FieldError[] {
  const errs = validatePersistentVolumeSpec(o.spec, FieldPath.root('spec'));
  const spec = specOf(o);
  const annotations = o.metadata.annotations ?? {};
  if (Object.hasOwn(annotations, mountOptionsAnnotation) && !mountOptionSources.some((s) => isSet(spec[s]))) {
    errs.push(forbidden(FieldPath.root('metadata', 'annotations', mountOptionsAnnotation), 'may not specify mount options for this volume type'));
  }
  return errs;
}

/** Go's `path.Clean`, enough to tell whether a path is the root. */
function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return p.startsWith('/') ? `/${parts.join('/')}` : parts.join('/') || '.';
}

/** The node affinity with each beta key the update moved to its GA name taken back, to compare with the old one. */
function maskBetaToGA(affinity: unknown, old: unknown): string {
  const newTerms = list(obj(obj(affinity).required).nodeSelectorTerms);
  const oldTerms = list(obj(obj(old).required).nodeSelectorTerms);
  const masked = newTerms.map((t, i) => {
    const exprs = list(obj(t).matchExpressions);
    const oldExprs = list(obj(oldTerms[i]).matchExpressions);
    return { ...obj(t), matchExpressions: exprs.map((e, j) => {
      const oldKey = str(obj(oldExprs[j]).key);
      return Object.hasOwn(betaToGA, oldKey) && betaToGA[oldKey] === str(obj(e).key) ? { ...obj(e), key: oldKey } : e;
    }) };
  });
  return stringifyJSON(isObject(affinity) ? { ...affinity, required: isObject(affinity.required) ? { ...affinity.required, nodeSelectorTerms: masked } : affinity.required } : affinity ?? null);
}

/** The internal `VolumeNodeAffinity` as a field error prints it (no JSON tags: the Go field names). */
export function nodeAffinityText(affinity: unknown): string {
  if (!isObject(affinity)) return 'null';
  const req = affinity.required;
  if (!isObject(req)) return '{"Required":null}';
  const reqs = (v: unknown, withValues: boolean): string => (Array.isArray(v) ? `[${v.map((e) => `{"Key":${JSON.stringify(str(obj(e).key))},"Operator":${JSON.stringify(str(obj(e).operator))}${withValues ? `,"Values":${Array.isArray(obj(e).values) ? JSON.stringify(list(obj(e).values).map(str)) : 'null'}` : ''}}`).join(',')}]` : 'null');
  const terms = Array.isArray(req.nodeSelectorTerms)
    ? `[${req.nodeSelectorTerms.map((t) => `{"MatchExpressions":${reqs(obj(t).matchExpressions, true)},"MatchFields":${reqs(obj(t).matchFields, true)}}`).join(',')}]`
    : 'null';
  return `{"Required":{"NodeSelectorTerms":${terms}}}`;
}

/** `ValidatePersistentVolumeUpdate` past what `validatePersistentVolume` checks again: what may not change. */
function validatePersistentVolumeUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const spec = specOf(o);
  const before = specOf(old);
  const errs: FieldError[] = [];
  // A CSI source may gain a controllerExpandSecretRef it did not have.
  const compared = { ...spec };
  if (isObject(before.csi) && !isSet(before.csi.controllerExpandSecretRef) && isObject(spec.csi) && isSet(spec.csi.controllerExpandSecretRef)) {
    compared.csi = { ...spec.csi };
    delete (compared.csi as JSONObject).controllerExpandSecretRef;
  }
  const diff = persistentVolumeSourceDiff(before, compared);
  if (diff !== undefined) errs.push(forbidden(FieldPath.root('spec', 'persistentvolumesource'), `spec.persistentvolumesource is immutable after creation\n${diff}`));
  if (str(spec.volumeMode) !== str(before.volumeMode) || isSet(spec.volumeMode) !== isSet(before.volumeMode)) {
    errs.push(invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  }
  if (isSet(before.nodeAffinity) && maskBetaToGA(spec.nodeAffinity, before.nodeAffinity) !== stringifyJSON(before.nodeAffinity)) {
    errs.push(new FieldError('FieldValueInvalid', 'nodeAffinity', spec.nodeAffinity ?? null, 'field is immutable, except for updating from beta label to GA', nodeAffinityText(spec.nodeAffinity)));
  }
  if (isSet(before.volumeAttributesClassName) && !isSet(spec.volumeAttributesClassName)) {
    errs.push(forbidden(FieldPath.root('spec', 'volumeAttributesClassName'), 'update from non-nil value to nil is forbidden'));
  }
  return errs;
}

/** `GetWarningsForPersistentVolume`. */
function persistentVolumeWarnings(o: KubeObject): string[] {
  const warnings: string[] = [];
  const annotations = o.metadata.annotations ?? {};
  for (const [key, message] of [['volume.beta.kubernetes.io/storage-class', 'deprecated since v1.8; use "storageClassName" attribute instead'], [mountOptionsAnnotation, 'deprecated since v1.31; use "mountOptions" attribute instead']]) {
    if (Object.hasOwn(annotations, key)) warnings.push(`${String(FieldPath.root('metadata', 'annotations').key(key))}: ${message}`);
  }
  const spec = specOf(o);
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') warnings.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  const required_ = obj(obj(spec.nodeAffinity).required);
  list(required_.nodeSelectorTerms).forEach((t, i) => warnings.push(...nodeSelectorTermWarnings(obj(t), false, FieldPath.root('spec', 'nodeAffinity', 'required', 'nodeSelectorTerms').index(i))));
  for (const [key, name, message] of deprecatedSources) if (isSet(spec[key])) warnings.push(`spec.${name}: ${message}`);
  return warnings;
}

/** `helper.GetAccessModesAsString`: the modes present, short, in a fixed order. */
function accessModesText(modes: unknown): string {
  const present = list(modes).map(str);
  return [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']].filter(([m]) => present.includes(m)).map(([, s]) => s).join(',');
}

/** `GetPersistentVolumeClass`: the beta annotation, else `spec.storageClassName`. */
function volumeClass(o: KubeObject): string {
  const annotations = o.metadata.annotations ?? {};
  const beta = 'volume.beta.kubernetes.io/storage-class';
  return Object.hasOwn(annotations, beta) ? annotations[beta] : str(specOf(o).storageClassName);
}

/** printPersistentVolume's capacity: the storage quantity's text, `0` without one. */
function capacityCell(o: KubeObject): string {
  const capacity = specOf(o).capacity;
  const amount = isObject(capacity) ? parseAmount(capacity.storage) : undefined;
  return amount === undefined ? '0' : amountText(amount);
}

function claimCell(o: KubeObject): string {
  const ref = specOf(o).claimRef;
  return isObject(ref) ? `${str(ref.namespace)}/${str(ref.name)}` : '';
}

const persistentVolume: BuiltinSpec = {
  names: { group: '', version: 'v1', resource: 'persistentvolumes', singular: 'persistentvolume', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true, nameValidation: 'subdomain' },
  // The REST's ReturnDeletedObject.
  deleteReturnsObject: true,
  age: false,
  columns: [
    { def: { name: 'Capacity', type: 'string', priority: 0 }, cell: capacityCell },
    { def: { name: 'Access Modes', type: 'string', priority: 0 }, cell: (o) => accessModesText(specOf(o).accessModes) },
    { def: { name: 'Reclaim Policy', type: 'string', priority: 0 }, cell: (o) => str(specOf(o).persistentVolumeReclaimPolicy) },
    { def: { name: 'Status', type: 'string', priority: 0 }, cell: (o) => (o.metadata.deletionTimestamp !== undefined ? 'Terminating' : str(obj(o.status).phase)) },
    { def: { name: 'Claim', type: 'string', priority: 0 }, cell: claimCell },
    { def: { name: 'StorageClass', type: 'string', priority: 0 }, cell: volumeClass },
    { def: { name: 'VolumeAttributesClass', type: 'string', priority: 0 }, cell: (o) => (isSet(specOf(o).volumeAttributesClassName) ? str(specOf(o).volumeAttributesClassName) : '<unset>') },
    { def: { name: 'Reason', type: 'string', priority: 0 }, cell: (o) => str(obj(o.status).reason) },
    { def: builtinAgeColumn, cell: ageCell },
  ],
  wide: [{ def: { name: 'VolumeMode', type: 'string', priority: 1 }, cell: (o) => (isSet(specOf(o).volumeMode) ? str(specOf(o).volumeMode) : '<unset>') }],
  defaults: defaultPersistentVolume,
  prepareForCreate: (o, _warnings, ctx) => {
    // The StorageObjectInUseProtection admission plugin, then the strategy: a new volume is Pending.
    const finalizers = o.metadata.finalizers ?? [];
    if (!finalizers.includes(pvProtectionFinalizer)) o.metadata.finalizers = [...finalizers, pvProtectionFinalizer];
    o.status = { phase: 'Pending', lastPhaseTransitionTime: ctx.now };
  },
  dropStatusFields: (o, old, ctx) => {
    // The status strategy's PrepareForUpdate: a phase change is stamped unless the writer stamped it.
    const status = childObject(o, 'status');
    const before = obj(old.status);
    const stamp = status.lastPhaseTransitionTime;
    if (str(status.phase) === str(before.phase) && !isSet(stamp)) {
      if (isSet(before.lastPhaseTransitionTime)) status.lastPhaseTransitionTime = before.lastPhaseTransitionTime;
      else delete status.lastPhaseTransitionTime;
    } else if (str(status.phase) !== str(before.phase) && (!isSet(stamp) || stamp === before.lastPhaseTransitionTime)) {
      status.lastPhaseTransitionTime = ctx.now;
    }
  },
  updateValidatesMeta: true,
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
  validateStatusUpdate: (o, _old, meta) => [...meta, ...(o.metadata.resourceVersion === undefined || o.metadata.resourceVersion === '' ? [required('resourceVersion', '')] : [])],
  warningsOnCreate: persistentVolumeWarnings,
  warningsOnUpdate: (o) => persistentVolumeWarnings(o),
};

/** The core/v1 PersistentVolume kind the embedded server serves. */
export function persistentVolumeResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(persistentVolume)];
}
