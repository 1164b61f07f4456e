/**
 * The resource.k8s.io/v1 kinds of Dynamic Resource Allocation (GA in 1.34), as kube-apiserver 1.34.4
 * serves them (pkg/registry/resource/{deviceclass,resourceclaim,resourceclaimtemplate,resourceslice},
 * pkg/apis/resource/v1 defaults, pkg/apis/resource/validation), with 1.34's feature gates:
 * `DRAPrioritizedList`, `DRAAdminAccess` and `DRAResourceClaimDeviceStatus` on; `DRAExtendedResource`,
 * `DRADeviceTaints`, `DRAPartitionableDevices`, `DRADeviceBindingConditions` and `DRAConsumableCapacity`
 * off, so their fields are dropped on create and on an update whose old object did not use them.
 *
 * - DeviceClasses and ResourceSlices: a generation from 1, grown by each change of the spec.
 * - ResourceClaims: the status dropped on create and kept by updates of the claim, the spec fixed once
 *   created, `/status` keeping the spec (and dropping the devices' status of deallocated devices), the
 *   Table's `State`.
 * - ResourceClaimTemplates: the spec fixed once created.
 *
 * The validation is in draValidation.ts; `AuthorizedForAdmin` (here) lets a claim or template of a namespace
 * without the `resource.kubernetes.io/admin-access: "true"` label ask for no admin access, nor a claim's
 * status grant it.
 *
 * @see https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/
 */
import { FieldPath, forbidden, type FieldError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { isObject, type JSONObject } from './internal/own.js';
import { isSet, list, obj, str } from './internal/podFields.js';
import { resetObjectMetaForStatus } from './objectMeta.js';
import type { ObjectStore } from './storage/objectStore.js';
import {
  validateDeviceClass, validateDeviceClassUpdate, validateResourceClaim, validateResourceClaimStatusUpdate, validateResourceClaimTemplate,
  validateResourceClaimTemplateUpdate, validateResourceClaimUpdate, validateResourceSlice, validateResourceSliceUpdate, sharedDeviceKey,
} from './draValidation.js';

const group = 'resource.k8s.io';
/** 1.34 stores the group's objects as v1beta2, the first of its scheme's version priority (pkg/apis/resource/install). */
const storageVersion = 'v1beta2';

/** `SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest`, and the tolerations' `Equal` operator. */
function defaultRequest(r: JSONObject): void {
  if (r.allocationMode === undefined || r.allocationMode === '') r.allocationMode = 'ExactCount';
  if (r.allocationMode === 'ExactCount' && (r.count === undefined || r.count === 0)) r.count = 1;
  defaultTolerations(r.tolerations);
}

function defaultTolerations(tolerations: unknown): void {
  for (const t of list(tolerations)) if (isObject(t) && (t.operator === undefined || t.operator === '')) t.operator = 'Equal';
}

/** The defaults of a claim's spec (a ResourceClaim's or a template's). */
function defaultClaimSpec(spec: unknown): void {
  for (const r of list(obj(obj(spec).devices).requests)) {
    if (!isObject(r)) continue;
    if (isObject(r.exactly)) defaultRequest(r.exactly);
    for (const sub of list(r.firstAvailable)) if (isObject(sub)) defaultRequest(sub);
  }
}

/**
 * `dropDisabledDRAConsumableCapacityFields` of a claim's spec: requests' capacity. Not the constraints'
 * `distinctAttribute`, which the strategies mean to drop too but clear on a copy of each constraint (Go's
 * `for _, c := range`): kube-apiserver 1.34.4 validates and stores it.
 */
function dropClaimSpecCapacity(spec: JSONObject, status?: JSONObject): void {
  const devices = obj(spec.devices);
  for (const r of list(devices.requests)) {
    if (!isObject(r)) continue;
    if (isObject(r.exactly)) delete r.exactly.capacity;
    for (const sub of list(r.firstAvailable)) if (isObject(sub)) delete sub.capacity;
  }
  if (status === undefined) return;
  for (const res of list(obj(obj(status.allocation).devices).results)) if (isObject(res)) { delete res.shareID; delete res.consumedCapacity; }
  for (const d of list(status.devices)) if (isObject(d)) delete d.shareID;
}

/** `draConsumableCapacityFeatureInUse` of a claim's spec (and status). */
function claimUsesCapacity(spec: unknown, status?: unknown): boolean {
  const devices = obj(obj(spec).devices);
  if (list(devices.constraints).some((c) => obj(c).distinctAttribute !== undefined)) return true;
  if (list(devices.requests).some((r) => obj(obj(r).exactly).capacity !== undefined || list(obj(r).firstAvailable).some((s) => obj(s).capacity !== undefined))) return true;
  const st = obj(status);
  if (list(obj(obj(st.allocation).devices).results).some((r) => obj(r).shareID !== undefined || obj(r).consumedCapacity !== undefined)) return true;
  return list(st.devices).some((d) => obj(d).shareID !== undefined);
}

/** `draBindingConditionsFeatureInUse` of a claim. */
function claimUsesBindingConditions(o: KubeObject | undefined): boolean {
  const allocation = obj(obj(o?.status).allocation);
  if (!isObject(obj(o?.status).allocation)) return false;
  if (allocation.allocationTimestamp !== undefined) return true;
  return list(obj(allocation.devices).results).some((r) => list(obj(r).bindingConditions).length > 0 || list(obj(r).bindingFailureConditions).length > 0);
}

/** The claim strategy's `dropDisabledFields` (the gates on in 1.34 drop nothing). */
function dropDisabledClaimFields(o: KubeObject, old: KubeObject | undefined): void {
  const status = isObject(o.status) ? o.status : undefined;
  if (!claimUsesBindingConditions(old) && isObject(status?.allocation)) {
    delete status.allocation.allocationTimestamp;
    for (const r of list(obj(status.allocation.devices).results)) if (isObject(r)) { delete r.bindingConditions; delete r.bindingFailureConditions; }
  }
  if (!claimUsesCapacity(old?.spec, old?.status) && isObject(o.spec)) dropClaimSpecCapacity(o.spec, status);
}

/** `dropDeallocatedStatusDevices`: a device's status goes with its allocation. */
function dropDeallocatedStatusDevices(o: KubeObject, old: KubeObject): void {
  const status = obj(o.status);
  const deallocated = new Set(list(obj(obj(obj(old.status).allocation).devices).results).map((r) => sharedDeviceKey(obj(r))));
  for (const r of list(obj(obj(status.allocation).devices).results)) deallocated.delete(sharedDeviceKey(obj(r)));
  if (!Array.isArray(status.devices)) return;
  const kept = status.devices.filter((d) => !deallocated.has(sharedDeviceKey(obj(d))));
  if (kept.length === 0) delete status.devices;
  else status.devices = kept;
}

/** `resourceClaimState`: deleted, pending, allocated, reserved. */
function claimState(o: KubeObject): string {
  const states: string[] = [];
  const deleting = o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;
  if (deleting) states.push('deleted');
  const status = obj(o.status);
  if (!isObject(status.allocation)) {
    if (!deleting) states.push('pending');
  } else {
    states.push('allocated');
    if (list(status.reservedFor).length > 0) states.push('reserved');
  }
  return states.join(',');
}

const adminLabel = 'resource.kubernetes.io/admin-access';

/** `AuthorizedForAdmin`'s answer once admin access is asked for at `path` in `namespace`. */
function adminAccessErrors(path: FieldPath | undefined, namespace: string | undefined, store: ObjectStore | undefined): FieldError[] {
  if (path === undefined || store === undefined) return [];
  const ns = store.get('/namespaces', namespace ?? '');
  if (ns?.metadata.labels?.[adminLabel] === 'true') return [];
  return [forbidden(path, `admin access to devices requires the \`${adminLabel}: true\` label on the containing namespace`)];
}

/** The first request asking for admin access (always reported at a claim's path, a template's too). */
function adminRequestPath(spec: unknown): FieldPath | undefined {
  const i = list(obj(obj(spec).devices).requests).findIndex((r) => obj(obj(r).exactly).adminAccess === true);
  return i < 0 ? undefined : FieldPath.root('spec', 'devices', 'requests').index(i).child('adminAccess');
}

/** The first allocation result granting admin access. */
function adminResultPath(status: unknown): FieldPath | undefined {
  const i = list(obj(obj(obj(status).allocation).devices).results).findIndex((r) => obj(r).adminAccess === true);
  return i < 0 ? undefined : FieldPath.root('status', 'allocation', 'devices', 'results').index(i).child('adminAccess');
}

const deviceClass: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'deviceclasses', singular: 'deviceclass', kind: 'DeviceClass', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  storageVersion,
  // pkg/registry/resource/*/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  generation: true,
  // DRAExtendedResource is off: the extended resource name is dropped unless the old class had one.
  prepareForCreate: (o) => { if (isObject(o.spec)) delete o.spec.extendedResourceName; },
  prepareForUpdate: (o, old) => { if (isObject(o.spec) && obj(old.spec).extendedResourceName === undefined) delete o.spec.extendedResourceName; },
  validate: validateDeviceClass,
  validateWholeUpdate: validateDeviceClassUpdate,
};

const resourceClaim = (store: ObjectStore | undefined): BuiltinSpec => ({
  names: { group, version: 'v1', resource: 'resourceclaims', singular: 'resourceclaim', kind: 'ResourceClaim', namespaced: true, shortNames: [], status: true, nameValidation: 'subdomain' },
  storageVersion,
  // pkg/registry/resource/*/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  columns: [{ def: { name: 'State', type: 'string', priority: 0 }, cell: claimState }],
  defaults: (o) => {
    defaultClaimSpec(o.spec);
    for (const r of list(obj(obj(obj(o.status).allocation).devices).results)) if (isObject(r)) defaultTolerations(r.tolerations);
  },
  prepareForCreate: (o) => {
    o.status = {};
    dropDisabledClaimFields(o, undefined);
  },
  // The status is the old one (restored after this); the spec's disabled fields go unless in use.
  prepareForUpdate: (o, old) => {
    if (!claimUsesCapacity(old.spec, old.status) && isObject(o.spec)) dropClaimSpecCapacity(o.spec);
  },
  validateCreateFirst: (o) => adminAccessErrors(adminRequestPath(o.spec), o.metadata.namespace, store),
  validate: validateResourceClaim,
  validateWholeUpdate: validateResourceClaimUpdate,
  prepareForStatusUpdate: (o, old) => {
    o.spec = old.spec;
    resetObjectMetaForStatus(o.metadata, old.metadata);
    dropDeallocatedStatusDevices(o, old);
    dropDisabledClaimFields(o, old);
  },
  // AuthorizedForAdminStatus (unless the old allocation granted it already), then the status validation.
  validateStatusUpdate: (o, old, meta) => [
    ...(adminResultPath(old.status) === undefined ? adminAccessErrors(adminResultPath(o.status), o.metadata.namespace, store) : []),
    ...meta, ...validateResourceClaimStatusUpdate(o, old),
  ],
});

const resourceClaimTemplate = (store: ObjectStore | undefined): BuiltinSpec => ({
  names: { group, version: 'v1', resource: 'resourceclaimtemplates', singular: 'resourceclaimtemplate', kind: 'ResourceClaimTemplate', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
  storageVersion,
  // pkg/registry/resource/*/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  defaults: (o) => defaultClaimSpec(obj(o.spec).spec),
  prepareForCreate: (o) => { if (isObject(o.spec) && isObject(o.spec.spec)) dropClaimSpecCapacity(o.spec.spec); },
  prepareForUpdate: (o, old) => {
    if (isObject(o.spec) && isObject(o.spec.spec) && !claimUsesCapacity(obj(old.spec).spec)) dropClaimSpecCapacity(o.spec.spec);
  },
  validateCreateFirst: (o) => adminAccessErrors(adminRequestPath(obj(o.spec).spec), o.metadata.namespace, store),
  validate: validateResourceClaimTemplate,
  validateWholeUpdate: validateResourceClaimTemplateUpdate,
});

/** Which disabled features of a slice's spec are in use (the strategy's `...FeatureInUse`). */
function sliceFeatures(spec: unknown): { taints: boolean; partitionable: boolean; binding: boolean; capacity: boolean } {
  const s = obj(spec);
  const devices = list(s.devices).map(obj);
  return {
    taints: devices.some((d) => list(d.taints).length > 0),
    partitionable: list(s.sharedCounters).length > 0 || isSet(s.perDeviceNodeSelection)
      || devices.some((d) => list(d.consumesCounters).length > 0 || isSet(d.nodeName) || isSet(d.nodeSelector) || isSet(d.allNodes)),
    binding: devices.some((d) => list(d.bindingConditions).length > 0 || list(d.bindingFailureConditions).length > 0 || isSet(d.bindsToNode)),
    capacity: devices.some((d) => isSet(d.allowMultipleAllocations) || Object.values(obj(d.capacity)).some((c) => isSet(obj(c).requestPolicy))),
  };
}

/** The slice strategy's `dropDisabledFields`: the fields of the four gates off in 1.34, unless the old slice used them. */
function dropDisabledSliceFields(o: KubeObject, old: KubeObject | undefined): void {
  if (!isObject(o.spec)) return;
  const spec = o.spec;
  const inUse = sliceFeatures(old?.spec);
  const devices = list(spec.devices).filter(isObject);
  if (!inUse.taints) for (const d of devices) delete d.taints;
  if (!inUse.partitionable) {
    delete spec.sharedCounters;
    delete spec.perDeviceNodeSelection;
    for (const d of devices) for (const k of ['consumesCounters', 'nodeName', 'nodeSelector', 'allNodes']) delete d[k];
  }
  if (!inUse.binding) for (const d of devices) for (const k of ['bindingConditions', 'bindingFailureConditions', 'bindsToNode']) delete d[k];
  if (!inUse.capacity) {
    for (const d of devices) {
      delete d.allowMultipleAllocations;
      for (const c of Object.values(obj(d.capacity))) if (isObject(c)) delete c.requestPolicy;
    }
  }
}

const resourceSlice: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'resourceslices', singular: 'resourceslice', kind: 'ResourceSlice', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  storageVersion,
  // pkg/registry/resource/*/storage: ReturnDeletedObject.
  deleteReturnsObject: true,
  generation: true,
  columns: [
    { def: { name: 'Node', type: 'string', priority: 0 }, cell: (o) => str(obj(o.spec).nodeName) },
    { def: { name: 'Driver', type: 'string', priority: 0 }, cell: (o) => str(obj(o.spec).driver) },
    { def: { name: 'Pool', type: 'string', priority: 0 }, cell: (o) => str(obj(obj(o.spec).pool).name) },
  ],
  prepareForCreate: (o) => dropDisabledSliceFields(o, undefined),
  prepareForUpdate: (o, old) => dropDisabledSliceFields(o, old),
  validate: validateResourceSlice,
  // ValidateResourceSliceUpdate: the metadata update, then the whole slice again, then the fixed fields.
  validateWholeUpdate: (o, old, generic) => [...generic, ...validateResourceSliceUpdate(o, old)],
};

/**
 * The resource.k8s.io/v1 DeviceClass, ResourceClaim, ResourceClaimTemplate and ResourceSlice kinds (`store`:
 * where a namespace's admin-access label is read; without it, admin access is not checked).
 */
export function draResourceTypes(store?: ObjectStore): BuiltinResourceType[] {
  return [new BuiltinResourceType(deviceClass), new BuiltinResourceType(resourceClaim(store)), new BuiltinResourceType(resourceClaimTemplate(store)), new BuiltinResourceType(resourceSlice)];
}

