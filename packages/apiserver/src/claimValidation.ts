/**
 * A PersistentVolumeClaim's spec as kube-apiserver 1.34.4 takes it: the strategy's data source handling
 * (`DropDisabledFields`: a cross-namespace `dataSourceRef` dropped, the feature being off;
 * `EnforceDataSourceBackwardsCompatibility`: a `dataSource` that is neither a claim nor a volume snapshot
 * dropped; `NormalizeDataSources`: each of `dataSource` and `dataSourceRef` filled from the other),
 * `ValidatePersistentVolumeClaimSpec` (also for ephemeral volumes' claim templates) and
 * `ValidatePersistentVolumeClaimUpdate`. VolumeAttributesClass, AnyVolumeDataSource and
 * RecoverVolumeExpansionFailure are on in 1.34, CrossNamespaceVolumeDataSource off.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/api/persistentvolumeclaim/util.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { FieldError, FieldPath, canonicalQuantity, forbidden, invalid, notSupported, quantityDecimal, required, type KubeObject, type QuantityDecimal } from '@kubekit/core';
import { cloneJSON, isObject, str, valueAt, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { validateAnnotations } from './objectMeta.js';
import { isDNS1123Label, isDNS1123Subdomain, validateLabelSelector, validateLabels, type LabelSelectorObject } from './internal/semantics.js';

const accessModes = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const volumeModes = ['Block', 'Filesystem'];
const betaClass = 'volume.beta.kubernetes.io/storage-class';

const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * The strategy's data source handling, on create (`old` undefined) and update: a cross-namespace
 * `dataSourceRef` is dropped, a `dataSource` of another kind is dropped when no `dataSourceRef` backs it,
 * and each of the two is filled from the other.
 */
export function prepareClaimSpec(spec: JSONObject, old: JSONObject | undefined): void {
  const refInUse = old !== undefined && isSet(old.dataSourceRef);
  if (isObject(spec.dataSourceRef) && str(spec.dataSourceRef.namespace) !== '' && !refInUse) delete spec.dataSourceRef;
  const sourceInUse = old !== undefined && (isSet(old.dataSource) || isSet(old.dataSourceRef));
  if (!sourceInUse && !isSet(spec.dataSourceRef) && isSet(spec.dataSource) && !isClaimOrSnapshot(spec.dataSource)) delete spec.dataSource;
  normalizeDataSources(spec);
}

/** `dataSourceIsPvcOrSnapshot`. */
function isClaimOrSnapshot(source: unknown): boolean {
  if (!isObject(source)) return false;
  const group = str(source.apiGroup);
  return (group === '' && source.kind === 'PersistentVolumeClaim') || (group === 'snapshot.storage.k8s.io' && source.kind === 'VolumeSnapshot');
}

/** `NormalizeDataSources`: the one of `dataSource` and `dataSourceRef` that is missing, from the other. */
function normalizeDataSources(spec: JSONObject): void {
  const copy = (from: JSONObject): JSONObject => ({ ...(typeof from.apiGroup === 'string' ? { apiGroup: from.apiGroup } : {}), kind: str(from.kind), name: str(from.name) });
  if (isObject(spec.dataSource) && !isSet(spec.dataSourceRef)) spec.dataSourceRef = copy(spec.dataSource);
  else if (isObject(spec.dataSourceRef) && !isSet(spec.dataSource) && str(spec.dataSourceRef.namespace) === '') spec.dataSource = copy(spec.dataSourceRef);
}

/** Options of {@link validateClaimSpec} (`PersistentVolumeClaimSpecValidationOptions`). */
export interface ClaimSpecOptions {
  /** The old claim had a data source with an API group: an invalid group is kept. */
  allowInvalidAPIGroup?: boolean;
  /** The old claim's selector was already invalid. */
  allowInvalidSelector?: boolean;
}

/** `ValidatePersistentVolumeClaimSpec`. */
export function validateClaimSpec(specValue: unknown, path: FieldPath, opts: ClaimSpecOptions = {}): FieldError[] {
  const spec = isObject(specValue) ? specValue : {};
  const errs: FieldError[] = [];
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(required(path.child('accessModes'), 'at least 1 access mode is required'));
  if (isObject(spec.selector) && opts.allowInvalidSelector !== true) errs.push(...validateLabelSelector(spec.selector as LabelSelectorObject, path.child('selector')));
  let once = false;
  let other = false;
  for (const m of modes) {
    if (!accessModes.includes(str(m))) errs.push(notSupported(path.child('accessModes'), m, accessModes));
    if (m === 'ReadWriteOncePod') once = true;
    else if (accessModes.includes(str(m))) other = true;
  }
  if (once && other) errs.push(forbidden(path.child('accessModes'), 'may not use ReadWriteOncePod with other access modes'));
  const requests = valueAt(spec, 'resources', 'requests');
  const storagePath = path.child('resources').key('storage');
  if (!isObject(requests) || !Object.hasOwn(requests, 'storage')) {
    errs.push(required(storagePath, ''));
  } else {
    const q = quantityDecimal(requests.storage);
    if (q === undefined || q.negative || q.digits === '') errs.push(invalid(storagePath, canonicalQuantity(requests.storage) ?? requests.storage, 'must be greater than zero'));
  }
  const cls = str(spec.storageClassName);
  if (cls !== '') for (const msg of isDNS1123Subdomain(cls)) errs.push(invalid(path.child('storageClassName'), cls, msg));
  if (typeof spec.volumeMode === 'string' && !volumeModes.includes(spec.volumeMode)) errs.push(notSupported(path.child('volumeMode'), spec.volumeMode, volumeModes));
  if (isObject(spec.dataSource)) errs.push(...dataSourceErrors(spec.dataSource, path.child('dataSource'), opts, false));
  if (isObject(spec.dataSourceRef)) errs.push(...dataSourceErrors(spec.dataSourceRef, path.child('dataSourceRef'), opts, true));
  // The path itself is the bad value: Go prints a *field.Path, whose members are unexported, as `{}`.
  if (isObject(spec.dataSourceRef) && str(spec.dataSourceRef.namespace) !== '') {
    if (isSet(spec.dataSource)) errs.push(new FieldError('FieldValueInvalid', path, {}, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (isObject(spec.dataSource) && isObject(spec.dataSourceRef)) {
    const a = spec.dataSource;
    const b = spec.dataSourceRef;
    if ((a.apiGroup ?? null) !== (b.apiGroup ?? null) || str(a.kind) !== str(b.kind) || str(a.name) !== str(b.name)) errs.push(new FieldError('FieldValueInvalid', path, {}, 'must match dataSourceRef'));
  }
  const vac = str(spec.volumeAttributesClassName);
  if (vac !== '') for (const msg of isDNS1123Subdomain(vac)) errs.push(invalid(path.child('volumeAttributesClassName'), vac, msg));
  return errs;
}

/** ObjectMeta's members in Go order, each with the name `validateFieldAllowList` gives it (its Go name, first rune lowered: `uID`). */
const templateMetaFields: readonly [string, string][] = [
  ['name', 'name'], ['generateName', 'generateName'], ['namespace', 'namespace'], ['selfLink', 'selfLink'], ['uid', 'uID'], ['resourceVersion', 'resourceVersion'],
  ['generation', 'generation'], ['creationTimestamp', 'creationTimestamp'], ['deletionTimestamp', 'deletionTimestamp'], ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'], ['finalizers', 'finalizers'], ['managedFields', 'managedFields'],
];

/**
 * `ValidatePersistentVolumeClaimTemplate` (an ephemeral volume's): its metadata's annotations and labels,
 * no other metadata (`cannot be set`), and its spec.
 */
export function validateClaimTemplate(template: unknown, path: FieldPath): FieldError[] {
  const t = isObject(template) ? template : {};
  const meta = isObject(t.metadata) ? t.metadata : {};
  const metaPath = path.child('metadata');
  const errs = [
    ...validateAnnotations(isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : undefined, metaPath.child('annotations')),
    ...validateLabels(isObject(meta.labels) ? (meta.labels as Record<string, string>) : undefined, metaPath.child('labels')),
  ];
  for (const [key, goName] of templateMetaFields) {
    const v = meta[key];
    const zero = v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);
    if (!zero) errs.push(forbidden(metaPath.child(goName), 'cannot be set'));
  }
  return [...errs, ...validateClaimSpec(t.spec, path.child('spec'))];
}

/** `validateDataSource`/`validateDataSourceRef`. */
function dataSourceErrors(source: JSONObject, path: FieldPath, opts: ClaimSpecOptions, ref: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (str(source.name) === '') errs.push(required(path.child('name'), ''));
  if (str(source.kind) === '') errs.push(required(path.child('kind'), ''));
  const group = str(source.apiGroup);
  if (group === '' && source.kind !== 'PersistentVolumeClaim') errs.push(invalid(path, str(source.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group !== '' && opts.allowInvalidAPIGroup !== true) for (const msg of isDNS1123Subdomain(group)) errs.push(invalid(path.child('apiGroup'), group, msg));
  if (ref && str(source.namespace) !== '') for (const msg of isDNS1123Label(str(source.namespace))) errs.push(invalid(path.child('namespace'), str(source.namespace), msg));
  return errs;
}

/** `ValidationOptionsForPersistentVolumeClaim` from the old claim. */
function optionsFrom(old: JSONObject | undefined): ClaimSpecOptions {
  if (old === undefined) return {};
  const withGroup = (v: unknown): boolean => isObject(v) && typeof v.apiGroup === 'string';
  return {
    allowInvalidAPIGroup: withGroup(old.dataSource) || withGroup(old.dataSourceRef),
    allowInvalidSelector: isObject(old.selector) && validateLabelSelector(old.selector as LabelSelectorObject, FieldPath.root('spec', 'selector')).length > 0,
  };
}

/** `ValidatePersistentVolumeClaim`'s spec part, on create. */
export function validateClaim(o: KubeObject): FieldError[] {
  return validateClaimSpec(o.spec, FieldPath.root('spec'));
}

/** A quantity's value (zero when absent or unreadable), for comparisons. */
export function quantityAt(o: unknown, ...path: string[]): QuantityDecimal {
  return quantityDecimal(valueAt(o, ...path)) ?? { negative: false, digits: '', exponent: 0 };
}

/**
 * `Quantity.Cmp`: -1, 0 or 1. By sign, then order of magnitude, then digits: linear in the digits whatever
 * the exponents (`1e999999` must not become a million-digit number).
 */
export function compareQuantity(a: QuantityDecimal, b: QuantityDecimal): number {
  const sign = (q: QuantityDecimal): number => (q.digits === '' ? 0 : q.negative ? -1 : 1);
  if (sign(a) !== sign(b)) return sign(a) < sign(b) ? -1 : 1;
  if (sign(a) === 0) return 0;
  // |q| = 0.digits × 10^(digits.length + exponent), digits without trailing zeros.
  const magnitude = (q: QuantityDecimal): number => q.digits.length + q.exponent;
  let c = magnitude(a) === magnitude(b) ? 0 : magnitude(a) < magnitude(b) ? -1 : 1;
  if (c === 0) {
    const width = Math.max(a.digits.length, b.digits.length);
    const x = a.digits.padEnd(width, '0');
    const y = b.digits.padEnd(width, '0');
    c = x === y ? 0 : x < y ? -1 : 1;
  }
  return sign(a) * c;
}

/**
 * `ValidatePersistentVolumeClaimUpdate` past the metadata update: the spec validated with the options the
 * old claim allows; then the spec may not change, except `volumeName` while unbound, a storage class set
 * where there was none (or the beta annotation's moved to the field), and a bound claim's storage request
 * and volume attributes class; a storage request may not shrink to the status's capacity or below; the
 * volume mode is immutable. The apiserver appends a diff of its internal types to the immutability
 * message; kubekit says which fields changed instead.
 */
export function validateClaimUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const newSpec = isObject(o.spec) ? o.spec : {};
  const oldSpec = isObject(old.spec) ? old.spec : {};
  const errs = validateClaimSpec(newSpec, FieldPath.root('spec'), optionsFrom(oldSpec));
  const spec = cloneJSON(newSpec);
  const was = cloneJSON(oldSpec);
  if (str(oldSpec.volumeName) === '') {
    if (newSpec.volumeName === undefined) delete was.volumeName;
    else was.volumeName = newSpec.volumeName;
  }
  const oldAnnotations = old.metadata.annotations ?? {};
  const newAnnotations = o.metadata.annotations ?? {};
  const oldHasBeta = Object.hasOwn(oldAnnotations, betaClass);
  const fromAnnotation = oldHasBeta && !isSet(oldSpec.storageClassName) && typeof newSpec.storageClassName === 'string' && newSpec.storageClassName === oldAnnotations[betaClass] &&
    (!Object.hasOwn(newAnnotations, betaClass) || newAnnotations[betaClass] === oldAnnotations[betaClass]);
  if (fromAnnotation) {
    delete spec.storageClassName;
  } else {
    if (str(newAnnotations[betaClass]) !== str(oldAnnotations[betaClass])) {
      // ValidateImmutableAnnotation names it as a child, not a key.
      errs.push(invalid(FieldPath.root('metadata', 'annotations', betaClass), str(newAnnotations[betaClass]), 'field is immutable'));
    }
    const fromNil = typeof newSpec.storageClassName === 'string' && !isSet(oldSpec.storageClassName) && (!oldHasBeta || newSpec.storageClassName === oldAnnotations[betaClass]);
    if (fromNil) {
      if (oldSpec.storageClassName === undefined) delete spec.storageClassName;
      else spec.storageClassName = oldSpec.storageClassName;
    }
  }
  const bound = valueAt(o, 'status', 'phase') === 'Bound';
  if (bound && isObject(spec.resources) && isObject(spec.resources.requests)) {
    const before = valueAt(oldSpec, 'resources', 'requests', 'storage');
    if (before === undefined) delete spec.resources.requests.storage;
    else spec.resources.requests.storage = before;
  }
  if (bound) {
    if (oldSpec.volumeAttributesClassName === undefined) delete spec.volumeAttributesClassName;
    else spec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  }
  if (!semanticEqual(spec, was)) {
    const changed = [...new Set([...Object.keys(spec), ...Object.keys(was)])].filter((k) => !semanticEqual(spec[k], was[k])).sort();
    errs.push(forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n(changed: ${changed.join(', ')})`));
  }
  const newSize = quantityAt(newSpec, 'resources', 'requests', 'storage');
  if (compareQuantity(newSize, quantityAt(oldSpec, 'resources', 'requests', 'storage')) < 0 && compareQuantity(newSize, quantityAt(old, 'status', 'capacity', 'storage')) <= 0) {
    errs.push(forbidden(FieldPath.root('spec', 'resources', 'requests', 'storage'), 'field can not be less than status.capacity'));
  }
  if (!semanticEqual(newSpec.volumeMode, oldSpec.volumeMode)) errs.push(invalid('volumeMode', newSpec.volumeMode ?? null, 'field is immutable'));
  if (!semanticEqual(oldSpec.volumeAttributesClassName, newSpec.volumeAttributesClassName) && isSet(valueAt(old, 'status', 'currentVolumeAttributesClassName'))) {
    if (!isSet(newSpec.volumeAttributesClassName)) errs.push(forbidden('spec.volumeAttributesClassName', 'update to nil is forbidden when status.currentVolumeAttributesClassName is not nil'));
    else if (newSpec.volumeAttributesClassName === '') errs.push(forbidden('spec.volumeAttributesClassName', 'update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil'));
  }
  return errs;
}
