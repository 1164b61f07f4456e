/**
 * storage.k8s.io/v1 StorageClasses, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/storage/storageclass (nothing prepared, no status), `SetDefaults_StorageClass` (reclaim policy
 * `Delete`, binding mode `Immediate`), `ValidateStorageClass` and `ValidateStorageClassUpdate` (provisioner,
 * parameters, reclaim policy and binding mode fixed once created), `GetWarningsForStorageClass` (deprecated
 * node labels in `allowedTopologies`), the Table of printStorageClass (a default class named `x (default)`),
 * and the `DefaultStorageClass` admission plugin's choice of the class a claim without one gets
 * ({@link defaultStorageClass}); VolumeAttributesClasses (`ValidateVolumeAttributesClass`, driver and
 * parameters fixed once created); CSIDrivers (`SetDefaults_CSIDriver`, `ValidateCSIDriver(Update)`, a
 * generation counted from the first change of the spec).
 *
 * @see https://kubernetes.io/docs/concepts/storage/storage-classes/
 */
import { FieldPath, duplicate, forbidden, invalid, notSupported, required, stringifyJSON, tooLong, type FieldError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isObject, str, type JSONObject } from './internal/own.js';
import { isQualifiedName } from './internal/semantics.js';
import { list, obj } from './internal/podFields.js';
import { deprecatedNodeLabels } from './podWarnings.js';
import { ageCell } from './table.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';

const reclaimPolicies = ['Delete', 'Retain'];
const bindingModes = ['Immediate', 'WaitForFirstConsumer'];
const maxParameters = 512;
const maxParametersSize = 256 * 1024;
const defaultAnnotation = 'storageclass.kubernetes.io/is-default-class';
const betaDefaultAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';

/** The storage bucket of StorageClasses. */
export const storageClassesBucket = bucketOf({ group: 'storage.k8s.io', resource: 'storageclasses' });

/** `IsDefaultAnnotation`: either default-class annotation set to `true`. */
function isDefaultClass(o: KubeObject): boolean {
  const annotations = o.metadata.annotations ?? {};
  return (Object.hasOwn(annotations, defaultAnnotation) && annotations[defaultAnnotation] === 'true')
    || (Object.hasOwn(annotations, betaDefaultAnnotation) && annotations[betaDefaultAnnotation] === 'true');
}

/**
 * `GetDefaultClass`: of the classes marked default, the newest (by creation time), the first by name among
 * those created in the same second; undefined when none is.
 */
export function defaultStorageClass(store: ObjectStore): KubeObject | undefined {
  const defaults = [...store.values(storageClassesBucket)].map(([, c]) => c).filter(isDefaultClass);
  defaults.sort((a, b) => {
    const ta = Date.parse(a.metadata.creationTimestamp ?? '');
    const tb = Date.parse(b.metadata.creationTimestamp ?? '');
    if (ta !== tb) return tb - ta;
    const [na, nb] = [a.metadata.name ?? '', b.metadata.name ?? ''];
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return defaults[0];
}

/** `validateParameters`: at most 512, no empty key, at most 256 KiB of keys and values; some unless `allowEmpty`. */
function parameterErrors(value: unknown, allowEmpty = true): FieldError[] {
  const params = isObject(value) ? value : {};
  const keys = Object.keys(params);
  if (keys.length > maxParameters) return [tooLong('parameters', '', maxParameters)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of keys) {
    if (k === '') errs.push(invalid('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(str(params[k]));
  }
  if (size > maxParametersSize) errs.push(tooLong('parameters', '', maxParametersSize));
  if (!allowEmpty && keys.length === 0) errs.push(required('parameters', 'must contain at least one key/value pair'));
  return errs;
}

/** `validateAllowedTopologies`: each term's requirements (values given and unique, a label key), no term twice. */
function allowedTopologyErrors(terms: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const seen: string[] = [];
  list(terms).forEach((t, i) => {
    const path = FieldPath.root('allowedTopologies').index(i);
    const exprPath = path.child('matchLabelExpressions');
    const exprMap = new Map<string, Set<string>>();
    list(obj(t).matchLabelExpressions).forEach((e, j) => {
      const rq = obj(e);
      const p = exprPath.index(j);
      const values = list(rq.values).map(str);
      if (values.length === 0) errs.push(required(p.child('values'), ''));
      const set = new Set<string>();
      values.forEach((v, k) => {
        if (set.has(v)) errs.push(duplicate(p.child('values').index(k), v));
        set.add(v);
      });
      const key = str(rq.key);
      errs.push(...isQualifiedName(key).map((msg) => invalid(p.child('key'), key, msg)));
      if (exprMap.has(key)) errs.push(duplicate(p.child('key'), key));
      exprMap.set(key, set);
    });
    // A term equal to an earlier one (as sets: the order of values and of keys does not count).
    const text = stringifyJSON([...exprMap.keys()].sort().map((k) => [k, [...(exprMap.get(k) ?? [])].sort()]));
    for (const earlier of seen) if (earlier === text) errs.push(duplicate(exprPath, ''));
    seen.push(text);
  });
  return errs;
}

/** `validateProvisioner`: required, a qualified name in lower case. */
function provisionerErrors(value: unknown, path: string): FieldError[] {
  const provisioner = str(value);
  if (provisioner === '') return [required(path, '')];
  return isQualifiedName(provisioner.toLowerCase()).map((msg) => invalid(path, provisioner.toLowerCase(), msg));
}

/** `ValidateStorageClass` past its metadata. */
function validateStorageClass(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...provisionerErrors(o.provisioner, 'provisioner'));
  errs.push(...parameterErrors(o.parameters));
  const policy = str(o.reclaimPolicy);
  if (policy !== '' && !reclaimPolicies.includes(policy)) errs.push(notSupported('reclaimPolicy', policy, reclaimPolicies));
  if (o.volumeBindingMode === undefined || o.volumeBindingMode === null) errs.push(required('volumeBindingMode', ''));
  else if (!bindingModes.includes(str(o.volumeBindingMode))) errs.push(notSupported('volumeBindingMode', str(o.volumeBindingMode), bindingModes));
  errs.push(...allowedTopologyErrors(o.allowedTopologies));
  return errs;
}

/** `reflect.DeepEqual` of two classes' parameters: in any order, but a map given empty is not one left out (nor `null`). */
function sameParameters(o: KubeObject, old: KubeObject): boolean {
  return semanticEqual(o.parameters ?? undefined, old.parameters ?? undefined);
}

/** `ValidateStorageClassUpdate` past its metadata: parameters, provisioner, reclaim policy and binding mode never change. */
function validateStorageClassUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!sameParameters(o, old)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (str(o.provisioner) !== str(old.provisioner)) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (str(o.reclaimPolicy) !== str(old.reclaimPolicy)) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (str(o.volumeBindingMode) !== str(old.volumeBindingMode)) errs.push(invalid('volumeBindingMode', o.volumeBindingMode ?? null, 'field is immutable'));
  return errs;
}

/** `GetWarningsForStorageClass`: deprecated node labels as topology keys. */
function storageClassWarnings(o: KubeObject): string[] {
  const warnings: string[] = [];
  list(o.allowedTopologies).forEach((t, i) => list(obj(t).matchLabelExpressions).forEach((e, j) => {
    const key = str(obj(e).key);
    if (Object.hasOwn(deprecatedNodeLabels, key)) warnings.push(`allowedTopologies[${i}].matchLabelExpressions[${j}].key: ${deprecatedNodeLabels[key]}`);
  }));
  return warnings;
}

const storageClass: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', singular: 'storageclass', kind: 'StorageClass', namespaced: false, shortNames: ['sc'], status: false, nameValidation: 'subdomain' },
  // pkg/registry/storage/storageclass/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  printer: (o, now) => [
    `${o.metadata.name ?? ''}${isDefaultClass(o) ? ' (default)' : ''}`,
    str(o.provisioner),
    typeof o.reclaimPolicy === 'string' ? o.reclaimPolicy : 'Delete',
    typeof o.volumeBindingMode === 'string' ? o.volumeBindingMode : 'Immediate',
    o.allowVolumeExpansion === true,
    ageCell(o, now),
  ],
  // SetDefaults_StorageClass.
  defaults: (o) => {
    if (o.reclaimPolicy === undefined || o.reclaimPolicy === null) o.reclaimPolicy = 'Delete';
    if (o.volumeBindingMode === undefined || o.volumeBindingMode === null) o.volumeBindingMode = 'Immediate';
  },
  updateValidatesMeta: true,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
  warningsOnCreate: storageClassWarnings,
  warningsOnUpdate: (o) => storageClassWarnings(o),
};

/** `ValidateVolumeAttributesClass` past its metadata: a driver name as a provisioner's, some parameters. */
function validateVolumeAttributesClass(o: KubeObject): FieldError[] {
  return [...provisionerErrors(o.driverName, 'driverName'), ...parameterErrors(o.parameters, false)];
}

/**
 * `ValidateVolumeAttributesClassUpdate` past its metadata: the driver and parameters never change; then
 * `ValidateVolumeAttributesClass` again (its errors twice among the causes, once in the message).
 */
function validateVolumeAttributesClassUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (str(o.driverName) !== str(old.driverName)) errs.push(forbidden('driverName', 'updates to driverName are forbidden.'));
  if (!sameParameters(o, old)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  return [...errs, ...validateVolumeAttributesClass(o)];
}

const volumeAttributesClass: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattributesclasses', singular: 'volumeattributesclass', kind: 'VolumeAttributesClass', namespaced: false, shortNames: ['vac'], status: false, nameValidation: 'subdomain' },
  // pkg/registry/storage/volumeattributesclass/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  columns: [{ def: { name: 'DriverName', type: 'string', priority: 0 }, cell: (o) => str(o.driverName) }],
  updateValidatesMeta: true,
  validate: validateVolumeAttributesClass,
  validateUpdate: validateVolumeAttributesClassUpdate,
};

const fsGroupPolicies = ['File', 'None', 'ReadWriteOnceWithFSType'];
const lifecycleModes = ['Persistent', 'Ephemeral'];

/** `SetDefaults_CSIDriver` (SELinuxMountReadWriteOncePod is on in 1.34). */
function defaultCSIDriver(o: KubeObject): void {
  const spec: JSONObject = isObject(o.spec) ? o.spec : (o.spec = {});
  for (const [k, v] of [['attachRequired', true], ['podInfoOnMount', false], ['storageCapacity', false], ['fsGroupPolicy', 'ReadWriteOnceWithFSType']] as const) {
    if (spec[k] === undefined || spec[k] === null) spec[k] = v;
  }
  if (list(spec.volumeLifecycleModes).length === 0) spec.volumeLifecycleModes = ['Persistent'];
  for (const k of ['requiresRepublish', 'seLinuxMount']) if (spec[k] === undefined || spec[k] === null) spec[k] = false;
}

/** `validateCSIDriverSpec`: the booleans set (the defaults set them), known policies and modes, token audiences once each and their expirations. */
function validateCSIDriver(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  // The apiserver's path for attachRequired is `attachedRequired`.
  for (const [k, p] of [['attachRequired', 'attachedRequired'], ['podInfoOnMount', 'podInfoOnMount'], ['storageCapacity', 'storageCapacity']]) {
    if (spec[k] === undefined || spec[k] === null) errs.push(required(path.child(p), ''));
  }
  if (spec.fsGroupPolicy !== undefined && spec.fsGroupPolicy !== null && !fsGroupPolicies.includes(str(spec.fsGroupPolicy))) errs.push(notSupported(path.child('fsGroupPolicy'), str(spec.fsGroupPolicy), fsGroupPolicies));
  const audiences = new Set<string>();
  list(spec.tokenRequests).forEach((t, i) => {
    const p = path.child('tokenRequests').index(i);
    const audience = str(obj(t).audience);
    if (audiences.has(audience)) {
      errs.push(duplicate(p.child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = obj(t).expirationSeconds;
    if (typeof seconds !== 'number' && typeof seconds !== 'bigint') return;
    if (seconds < 600) errs.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > 2 ** 32) errs.push(invalid(p.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const mode of list(spec.volumeLifecycleModes).map(str)) if (!lifecycleModes.includes(mode)) errs.push(notSupported(path.child('volumeLifecycleModes'), mode, lifecycleModes));
  if (spec.seLinuxMount === undefined || spec.seLinuxMount === null) errs.push(required(path.child('seLinuxMount'), ''));
  return errs;
}

/** `ValidateCSIDriverUpdate` past its metadata and the spec checks: attachRequired and the lifecycle modes are fixed. */
function validateCSIDriverUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const [spec, before] = [obj(o.spec), obj(old.spec)];
  const errs: FieldError[] = [];
  if (stringifyJSON(spec.attachRequired ?? null) !== stringifyJSON(before.attachRequired ?? null)) errs.push(invalid(FieldPath.root('spec', 'attachedRequired'), spec.attachRequired ?? null, 'field is immutable'));
  if (stringifyJSON(spec.volumeLifecycleModes ?? null) !== stringifyJSON(before.volumeLifecycleModes ?? null)) errs.push(invalid(FieldPath.root('spec', 'volumeLifecycleModes'), spec.volumeLifecycleModes ?? null, 'field is immutable'));
  return errs;
}

const csiDriver: BuiltinSpec = {
  names: { group: 'storage.k8s.io', version: 'v1', resource: 'csidrivers', singular: 'csidriver', kind: 'CSIDriver', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  // pkg/registry/storage/csidriver/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  columns: [
    { def: { name: 'AttachRequired', type: 'boolean', priority: 0 }, cell: (o) => obj(o.spec).attachRequired !== false },
    { def: { name: 'PodInfoOnMount', type: 'boolean', priority: 0 }, cell: (o) => obj(o.spec).podInfoOnMount === true },
    { def: { name: 'StorageCapacity', type: 'boolean', priority: 0 }, cell: (o) => obj(o.spec).storageCapacity === true },
    { def: { name: 'TokenRequests', type: 'string', priority: 0 }, cell: (o) => (Array.isArray(obj(o.spec).tokenRequests) ? list(obj(o.spec).tokenRequests).map((t) => str(obj(t).audience)).join(',') : '<unset>') },
    { def: { name: 'RequiresRepublish', type: 'boolean', priority: 0 }, cell: (o) => obj(o.spec).requiresRepublish === true },
    { def: { name: 'Modes', type: 'string', priority: 0 }, cell: (o) => list(obj(o.spec).volumeLifecycleModes).map(str).join(',') || '<none>' },
  ],
  defaults: defaultCSIDriver,
  // The strategy drops what MutableCSINodeAllocatableCount (off in 1.34) governs, unless the old object has it.
  prepareForCreate: (o) => { if (isObject(o.spec)) delete o.spec.nodeAllocatableUpdatePeriodSeconds; },
  prepareForUpdate: (o, old) => {
    if (isObject(o.spec) && obj(old.spec).nodeAllocatableUpdatePeriodSeconds === undefined) delete o.spec.nodeAllocatableUpdatePeriodSeconds;
    // No generation on create; each change of the spec adds one.
    if (stringifyJSON(o.spec ?? null) !== stringifyJSON(old.spec ?? null)) o.metadata.generation = (typeof old.metadata.generation === 'number' ? old.metadata.generation : 0) + 1;
  },
  updateValidatesMeta: true,
  validate: validateCSIDriver,
  validateUpdate: validateCSIDriverUpdate,
};

/** The storage.k8s.io/v1 kinds the embedded server serves. */
export function storageResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(storageClass), new BuiltinResourceType(volumeAttributesClass), new BuiltinResourceType(csiDriver)];
}

/** The `DefaultStorageClass` plugin on a new claim with neither a class nor the beta annotation: the default class, if any. */
export function admitClaimStorageClass(claim: KubeObject, store: ObjectStore): void {
  if (Object.hasOwn(claim.metadata.annotations ?? {}, 'volume.beta.kubernetes.io/storage-class')) return;
  const spec: JSONObject = isObject(claim.spec) ? claim.spec : (claim.spec = {});
  if (spec.storageClassName !== undefined && spec.storageClassName !== null) return;
  const chosen = defaultStorageClass(store);
  if (chosen !== undefined) spec.storageClassName = chosen.metadata.name ?? '';
}
