/**
 * The storage.k8s.io/v1 kinds of CSI drivers' node side, as kube-apiserver 1.34.4 serves them
 * (pkg/registry/storage/{csinode,csistoragecapacity,volumeattachment}, pkg/apis/storage/validation):
 *
 * - CSINodes: `ValidateCSINode` (driver names, node IDs up to 256 characters, counts not negative, topology
 *   keys given, once each and qualified names, all reported at the driver's path), a driver's entry fixed once
 *   listed (`MutableCSINodeAllocatableCount` is off), the Table's driver count.
 * - CSIStorageCapacities: `ValidateCSIStorageCapacity` (the node topology selector, a class name, a capacity
 *   not negative; the maximum volume size is not checked), the selector and class fixed once created,
 *   `GetWarningsForCSIStorageCapacity` (deprecated node labels), the default Table (no printer).
 * - VolumeAttachments: a status dropped on create and kept by updates, `ValidateVolumeAttachment(V1)` (one
 *   source of two, an inline spec only of CSI), a spec fixed once created, the status strategy's own rules
 *   (spec and metadata kept, error codes dropped as `MutableCSINodeAllocatableCount` is off), the Table.
 *
 * None of them takes an update without a resourceVersion. Where a strategy runs the same validation twice
 * on an update, its errors are twice among the causes (once in the message), as the apiserver's.
 *
 * @see https://kubernetes.io/docs/concepts/storage/storage-capacity/
 * @see https://kubernetes-csi.github.io/docs/csi-node-object.html
 */
import { FieldError, FieldPath, duplicate, goJSON, invalid, required, tooLong, type KubeObject } from '@kubekit/core';
import { validateLabelSelector, type LabelSelectorObject } from '@kubekit/selectors';
import { BuiltinResourceType, createdAtColumn, type BuiltinSpec } from './builtinKinds.js';
import { selectorJSON } from './builtinWorkloads.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isObject, str, type JSONObject } from './internal/own.js';
import { isSet, list, obj } from './internal/podFields.js';
import { amountSign, amountText, parseAmount } from './internal/resourceList.js';
import { isDNS1123Subdomain, isQualifiedName } from './internal/semantics.js';
import { nonnegative } from './jobValidation.js';
import { resetObjectMetaForStatus, validateObjectMeta, validateObjectMetaUpdate, validateStrategyObjectMetaUpdate } from './objectMeta.js';
import { validatePersistentVolumeSpec } from './persistentVolumeKinds.js';
import { validateCSIDriverName } from './podVolumes.js';
import { deprecatedNodeLabels } from './podWarnings.js';
import { internalPersistentVolumeSpecJSON } from './internal/internalPersistentVolumeSpec.js';

/** `csiNodeIDLongerMaxLength`: the strategy allows long node IDs. */
const maxNodeIDLength = 256;
/** `maxAttachedVolumeMetadataSize`, also the limit a too long error message reports. */
const maxAttachmentMetadataSize = 256 * 1024;
const maxVolumeErrorMessageSize = 1024;

const subdomainErrors = (value: string, path: FieldPath | string): FieldError[] => isDNS1123Subdomain(value).map((msg) => invalid(path, value, msg));

/** `validateCSINodeDriver`: name, node ID, count, a name given once, then each topology key (at the driver's path). */
function csiNodeDriverErrors(driver: JSONObject, path: FieldPath, names: Set<string>): FieldError[] {
  const name = str(driver.name);
  const errs = validateCSIDriverName(name, path.child('name'));
  const nodeID = str(driver.nodeID);
  if (nodeID === '') errs.push(required(path.child('nodeID'), ''));
  if (nodeID.length > maxNodeIDLength) errs.push(invalid(path.child('nodeID'), nodeID, `must be ${maxNodeIDLength} characters or less`));
  const count = obj(driver.allocatable).count;
  if (typeof count === 'number' || typeof count === 'bigint') errs.push(...nonnegative(count, path.child('allocatable', 'count')));
  if (names.has(name)) errs.push(duplicate(path.child('name'), name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of list(driver.topologyKeys).map(str)) {
    if (key === '') errs.push(required(path, ''));
    if (keys.has(key)) errs.push(duplicate(path, key));
    keys.add(key);
    errs.push(...isQualifiedName(key).map((msg) => invalid(path, key, msg)));
  }
  return errs;
}

/** `ValidateCSINode` past its metadata. */
function validateCSINode(o: KubeObject): FieldError[] {
  const path = FieldPath.root('spec', 'drivers');
  const names = new Set<string>();
  return list(obj(o.spec).drivers).flatMap((d, i) => csiNodeDriverErrors(obj(d), path.index(i), names));
}

/** The internal `CSINodeDriver` as a field error prints it (Go's field names, no JSON tags). */
function csiNodeDriverJSON(d: JSONObject): string {
  const keys = Array.isArray(d.topologyKeys) ? goJSON(d.topologyKeys.map(str)) : 'null';
  const count = obj(d.allocatable).count;
  const allocatable = isObject(d.allocatable) ? `{"Count":${typeof count === 'number' || typeof count === 'bigint' ? String(count) : 'null'}}` : 'null';
  return `{"Name":${goJSON(str(d.name))},"NodeID":${goJSON(str(d.nodeID))},"TopologyKeys":${keys},"Allocatable":${allocatable}}`;
}

/** Two drivers' entries as `ValidateImmutableField` compares them (an empty list is a missing one). */
function sameDriver(a: JSONObject, b: JSONObject): boolean {
  const norm = (d: JSONObject): unknown => [str(d.name), str(d.nodeID), list(d.topologyKeys).map(str), isObject(d.allocatable) ? [obj(d.allocatable).count ?? null] : null];
  return semanticEqual(norm(a), norm(b));
}

/** `ValidateCSINodeUpdate`'s own rule: every driver listed before keeps its entry (each pair compared). */
function csiNodeDriverChanges(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const drivers = list(obj(o.spec).drivers).map(obj);
  for (const before of list(obj(old.spec).drivers).map(obj)) {
    for (const now of drivers) {
      if (str(before.name) !== str(now.name) || sameDriver(now, before)) continue;
      errs.push(new FieldError('FieldValueInvalid', 'spec.drivers', now, 'field is immutable', csiNodeDriverJSON(now)));
    }
  }
  return errs;
}

const csiNode: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'csinodes', singular: 'csinode', kind: 'CSINode', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  // pkg/registry/storage/csinode/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  columns: [{ def: { name: 'Drivers', type: 'integer', priority: 0 }, cell: (o) => list(obj(o.spec).drivers).length }],
  // Lists without omitempty: written null when absent (the spec, a struct, is always there).
  defaults: (o) => {
    const spec: JSONObject = isObject(o.spec) ? o.spec : (o.spec = {});
    if (spec.drivers === undefined) spec.drivers = null;
    for (const d of list(spec.drivers)) if (isObject(d) && d.topologyKeys === undefined) d.topologyKeys = null;
  },
  validate: validateCSINode,
  // ValidateCSINode, then ValidateCSINodeUpdate, which runs ValidateCSINode again; no metadata update check of its own.
  validateWholeUpdate: (o, old, generic) => {
    const once = [...validateObjectMeta(o.metadata, false, 'subdomain'), ...validateCSINode(o)];
    return [...generic, ...once, ...once, ...csiNodeDriverChanges(o, old)];
  },
  allowUnconditionalUpdate: false,
};

/** `GetWarningsForNodeSelector` of the node topology (a label's path is a child, not a key). */
function capacityWarnings(o: KubeObject): string[] {
  if (!isObject(o.nodeTopology)) return [];
  const warnings: string[] = [];
  list(o.nodeTopology.matchExpressions).forEach((e, i) => {
    const key = str(obj(e).key);
    if (Object.hasOwn(deprecatedNodeLabels, key)) warnings.push(`nodeTopology.matchExpressions[${i}].key: ${key} is ${deprecatedNodeLabels[key]}`);
  });
  for (const label of Object.keys(obj(o.nodeTopology.matchLabels))) {
    if (Object.hasOwn(deprecatedNodeLabels, label)) warnings.push(`nodeTopology.matchLabels.${label}: ${deprecatedNodeLabels[label]}`);
  }
  return warnings;
}

/** `ValidateCSIStorageCapacity` past its metadata; label values in the selector may be invalid when the old one's were. */
function validateCapacity(o: KubeObject, allowInvalidLabelValueInSelector = false): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(o.nodeTopology)) errs.push(...validateLabelSelector(o.nodeTopology as LabelSelectorObject, 'nodeTopology', { allowInvalidLabelValueInSelector }));
  errs.push(...subdomainErrors(str(o.storageClassName), 'storageClassName'));
  const amount = isSet(o.capacity) ? parseAmount(o.capacity) : undefined;
  if (amount !== undefined && amountSign(amount) < 0) errs.push(invalid('capacity', amountText(amount), 'must be greater than or equal to 0'));
  return errs;
}

/** A node topology as `equality.Semantic.DeepEqual` sees it: empty lists and maps are missing ones. */
function topologyKey(t: unknown): unknown {
  if (!isSet(t)) return null;
  const s = obj(t);
  const labels = obj(s.matchLabels);
  return [Object.keys(labels).sort().map((k) => [k, str(labels[k])]), list(s.matchExpressions).map((e) => [str(obj(e).key), str(obj(e).operator), list(obj(e).values).map(str)])];
}

/** The strategy's update: ValidateCSIStorageCapacity, then ValidateCSIStorageCapacityUpdate (the metadata update, the fixed fields). */
function validateCapacityUpdate(o: KubeObject, old: KubeObject, generic: FieldError[]): FieldError[] {
  const oldInvalid = isSet(old.nodeTopology) && validateLabelSelector(old.nodeTopology as LabelSelectorObject, 'nodeTopology').length > 0;
  const errs = [...generic, ...validateObjectMeta(o.metadata, true, 'subdomain'), ...validateCapacity(o, oldInvalid), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata)];
  if (!semanticEqual(topologyKey(o.nodeTopology), topologyKey(old.nodeTopology))) {
    errs.push(new FieldError('FieldValueInvalid', 'nodeTopology', o.nodeTopology ?? null, 'field is immutable', selectorJSON(o.nodeTopology)));
  }
  if (str(o.storageClassName) !== str(old.storageClassName)) errs.push(invalid('storageClassName', str(o.storageClassName), 'field is immutable'));
  return errs;
}

const csiStorageCapacity: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'csistoragecapacities', singular: 'csistoragecapacity', kind: 'CSIStorageCapacity', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
  // The REST has the default Table convertor.
  age: false,
  columns: [createdAtColumn],
  validate: (o) => validateCapacity(o),
  validateWholeUpdate: validateCapacityUpdate,
  warningsOnCreate: capacityWarnings,
  warningsOnUpdate: (o) => capacityWarnings(o),
  allowUnconditionalUpdate: false,
};

/** `validateVolumeAttachmentSource`: exactly one of the two; an inline spec as a PersistentVolume's, inline. */
function sourceErrors(source: JSONObject, path: FieldPath): FieldError[] {
  const [inline, pv] = [isSet(source.inlineVolumeSpec), isSet(source.persistentVolumeName)];
  const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!inline && !pv) return [required(path, exactlyOne)];
  if (inline && pv) return [new FieldError('FieldValueForbidden', path, undefined, exactlyOne)];
  if (pv) return str(source.persistentVolumeName) === '' ? [required(path.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')] : [];
  return validatePersistentVolumeSpec(source.inlineVolumeSpec, path.child('inlineVolumeSpec'), true);
}

/** `validateVolumeError`: a message of at most 1024 bytes (reported with the metadata's limit), a code not negative. */
function volumeErrorErrors(e: unknown, path: FieldPath): FieldError[] {
  if (!isObject(e)) return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(str(e.message)) > maxVolumeErrorMessageSize) errs.push(tooLong(path.child('message'), '', maxAttachmentMetadataSize));
  if ((typeof e.errorCode === 'number' || typeof e.errorCode === 'bigint') && e.errorCode < 0) errs.push(invalid(path.child('errorCode'), e.errorCode, 'must be between 0 and 2147483647, inclusive'));
  return errs;
}

/** `ValidateVolumeAttachment` past its metadata: spec (attacher, source, node name), status. */
function validateAttachment(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if (str(spec.attacher) === '') errs.push(required(path.child('attacher'), ''));
  errs.push(...sourceErrors(obj(spec.source), path.child('source')));
  errs.push(...subdomainErrors(str(spec.nodeName), path.child('nodeName')));
  const status = obj(o.status);
  const metadata = obj(status.attachmentMetadata);
  const size = Object.keys(metadata).reduce((n, k) => n + Buffer.byteLength(k) + Buffer.byteLength(str(metadata[k])), 0);
  if (size > maxAttachmentMetadataSize) errs.push(tooLong(FieldPath.root('status', 'attachmentMetadata'), '', maxAttachmentMetadataSize));
  errs.push(...volumeErrorErrors(status.attachError, FieldPath.root('status', 'attachError')));
  errs.push(...volumeErrorErrors(status.detachError, FieldPath.root('status', 'detachError')));
  return errs;
}

/** `ValidateVolumeAttachmentV1`: the attacher as a CSI driver's name, the volume's name as a PersistentVolume's. */
function validateAttachmentV1(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const errs = validateCSIDriverName(str(spec.attacher), FieldPath.root('spec', 'attacher'));
  const source = obj(spec.source);
  if (isSet(source.persistentVolumeName)) errs.push(...subdomainErrors(str(source.persistentVolumeName), 'spec.source.persistentVolumeName'));
  return errs;
}

/** The internal `VolumeAttachmentSpec` as a field error prints it (Go's field names, no JSON tags). */
function attachmentSpecJSON(spec: JSONObject): string {
  const source = obj(spec.source);
  const pv = isSet(source.persistentVolumeName) ? goJSON(str(source.persistentVolumeName)) : 'null';
  const inline = isSet(source.inlineVolumeSpec) ? internalPersistentVolumeSpecJSON(obj(source.inlineVolumeSpec)) : 'null';
  return `{"Attacher":${goJSON(str(spec.attacher))},"Source":{"PersistentVolumeName":${pv},"InlineVolumeSpec":${inline}},"NodeName":${goJSON(str(spec.nodeName))}}`;
}

/** A spec as `equality.Semantic.DeepEqual` compares it (an unset member is its zero value). */
function sameSpec(a: unknown, b: unknown): boolean {
  const norm = (s: JSONObject): unknown => [str(s.attacher), str(s.nodeName), obj(s.source).persistentVolumeName ?? null, obj(s.source).inlineVolumeSpec ?? null];
  return semanticEqual(norm(obj(a)), norm(obj(b)));
}

/**
 * The strategies' update (the status strategy's too): ValidateVolumeAttachment, then
 * ValidateVolumeAttachmentUpdate, which runs it again, and the spec fixed.
 */
function validateAttachmentUpdate(o: KubeObject, old: KubeObject, generic: FieldError[]): FieldError[] {
  const once = [...validateObjectMeta(o.metadata, false, 'subdomain'), ...validateAttachment(o)];
  const errs = [...generic, ...once, ...once];
  if (!sameSpec(o.spec, old.spec)) errs.push(new FieldError('FieldValueInvalid', 'spec', o.spec ?? null, 'field is immutable', attachmentSpecJSON(obj(o.spec))));
  return errs;
}

const volumeAttachment: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattachments', singular: 'volumeattachment', kind: 'VolumeAttachment', namespaced: false, shortNames: [], status: true, nameValidation: 'subdomain' },
  // pkg/registry/storage/volumeattachment/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  columns: [
    { def: { name: 'Attacher', type: 'string', format: 'name', priority: 0 }, cell: (o) => str(obj(o.spec).attacher) },
    { def: { name: 'PV', type: 'string', priority: 0 }, cell: (o) => str(obj(obj(o.spec).source).persistentVolumeName) },
    { def: { name: 'Node', type: 'string', priority: 0 }, cell: (o) => str(obj(o.spec).nodeName) },
    { def: { name: 'Attached', type: 'boolean', priority: 0 }, cell: (o) => obj(o.status).attached === true },
  ],
  // The status is a struct and `attached` has no omitempty: written false when absent (a protobuf body omits it).
  defaults: (o) => {
    const status: JSONObject = isObject(o.status) ? o.status : (o.status = {});
    if (status.attached === undefined || status.attached === null) status.attached = false;
  },
  prepareForCreate: (o) => { o.status = { attached: false }; },
  validate: (o) => [...validateAttachment(o), ...validateAttachmentV1(o)],
  validateWholeUpdate: validateAttachmentUpdate,
  // ResetObjectMetaForStatus, the old spec; an error code only where the old status had one (never, with the gate off).
  prepareForStatusUpdate: (o, old) => {
    o.spec = old.spec;
    resetObjectMetaForStatus(o.metadata, old.metadata);
    const [status, before] = [obj(o.status), obj(old.status)];
    for (const k of ['attachError', 'detachError']) {
      if (isObject(status[k]) && !(isObject(before[k]) && isSet(before[k].errorCode))) delete status[k].errorCode;
    }
  },
  validateStatusUpdate: (o, old) => validateAttachmentUpdate(o, old, validateObjectMetaUpdate(o.metadata, old.metadata, false, false)),
  allowUnconditionalUpdate: false,
};

/** The storage.k8s.io/v1 CSINode, CSIStorageCapacity and VolumeAttachment kinds. */
export function csiResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(csiNode), new BuiltinResourceType(csiStorageCapacity), new BuiltinResourceType(volumeAttachment)];
}
