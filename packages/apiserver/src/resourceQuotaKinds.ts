/**
 * core/v1 ResourceQuotas, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/core/resourcequota (a create or update of the main resource keeps none of the status it
 * sends: the status starts empty and is the old one after; `/status` keeps the spec), the quantities of
 * `spec.hard`, `status.hard` and `status.used` rounded up to thousandths (`SetObjectDefaults_ResourceQuota`),
 * `ValidateResourceQuota` on create, `ValidateResourceQuotaUpdate` on update (the scopes may not change),
 * `ValidateResourceQuotaStatusUpdate` on `/status`, and the Table of printResourceQuota (`Request` and
 * `Limit`: `used/hard` of each resource of `status.hard`).
 *
 * What a quota refuses is the ResourceQuota admission plugin's (quotaAdmission.ts). A bare apiserver runs no
 * quota controller: `status.hard` and `status.used` are whatever a client (a test, as the controller would)
 * writes through `/status`, and the plugin adds to `status.used` as it admits objects.
 *
 * Go walks `hard` and `used` in no fixed order (so does the order of their errors vary); kubekit in key order.
 *
 * @see https://kubernetes.io/docs/concepts/policy/resource-quotas/
 */
import { FieldError, FieldPath, goJSON, invalid, required, type FieldPathLike, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import { amountText, resourceList, roundUpToMilli } from './internal/resourceList.js';
import { isHugePages, resourceNameErrors, resourceQuantityErrors } from './podResources.js';
import { bucketOf } from './storage/objectStore.js';

/** The storage bucket of ResourceQuotas. */
export const resourceQuotasBucket = bucketOf({ group: '', resource: 'resourcequotas' });

/** `helper.standardQuotaResources`: the unprefixed names a quota may limit (hugepages besides). */
const standardQuotaResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers',
  'secrets', 'persistentvolumeclaims', 'configmaps', 'services.nodeports', 'services.loadbalancers',
]);
/** The scopes a quota may have (`CrossNamespacePodAffinity` besides the standard ones). */
const quotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'VolumeAttributesClass', 'CrossNamespacePodAffinity'];
/** The scopes whose selector requirement may only be `Exists`. */
const existsOnlyScopes = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];
const podComputeResources = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

/** `IsStandardQuotaResourceName`. */
export function isStandardQuotaResource(name: string): boolean {
  return standardQuotaResources.has(name) || isHugePages(name) || name.startsWith('requests.hugepages-');
}

/** `IsResourceQuotaScopeValidForResource`: which resources a scope can limit. */
function scopeValidFor(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating': case 'NotTerminating': case 'NotBestEffort': case 'PriorityClass': case 'CrossNamespacePodAffinity':
      return resource === 'pods' || podComputeResources.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default:
      return true;
  }
}

/** A Go named string type (a scope, an operator) in a field error: written by `json.Marshal`. */
function invalidNamed(path: FieldPathLike, value: string, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, value, detail, goJSON(value));
}

/** `ValidateResourceQuotaResourceName` and `ValidateResourceQuantityValue` of each entry of a list. */
export function quotaListErrors(list: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObject(list)) return errs;
  for (const name of Object.keys(list).sort()) {
    const p = path.key(name);
    errs.push(...resourceNameErrors(name, p));
    if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(invalid(p, name, 'must be a standard resource for quota'));
    errs.push(...resourceQuantityErrors(name, list[name], p));
  }
  return errs;
}

/** The scope names of a quota's `spec.scopes`. */
function scopesOf(spec: JSONObject): string[] {
  return Array.isArray(spec.scopes) ? spec.scopes.map(str) : [];
}

/** `validateResourceQuotaScopes`: known scopes, each valid for every standard resource of `hard`, no conflicting pair. */
function scopeErrors(spec: JSONObject, hard: string[]): FieldError[] {
  const scopes = scopesOf(spec);
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec', 'scopes');
  for (const scope of scopes) {
    if (!quotaScopes.includes(scope)) errs.push(invalid(path, scopes, 'unsupported scope'));
    for (const k of hard) if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) errs.push(invalid(path, scopes, 'unsupported scope applied to resource'));
  }
  if (conflicting(new Set(scopes))) errs.push(invalid(path, scopes, 'conflicting scopes'));
  return errs;
}

/** Whether a set of scopes holds both of `BestEffort`/`NotBestEffort` or of `Terminating`/`NotTerminating`. */
function conflicting(scopes: Set<string>): boolean {
  return (scopes.has('BestEffort') && scopes.has('NotBestEffort')) || (scopes.has('Terminating') && scopes.has('NotTerminating'));
}

/** The internal `core.ScopeSelector` as `json.Marshal` writes it in a field error (no JSON tags: its Go field names). */
function internalSelectorText(selector: JSONObject): string {
  if (!Array.isArray(selector.matchExpressions)) return '{"MatchExpressions":null}';
  const expressions = objects(selector.matchExpressions).map((r) => {
    const values = Array.isArray(r.values) && r.values.length > 0 ? goJSON(r.values.map(str)) : 'null';
    return `{"ScopeName":${goJSON(str(r.scopeName))},"Operator":${goJSON(str(r.operator))},"Values":${values}}`;
  });
  return `{"MatchExpressions":[${expressions.join(',')}]}`;
}

/** `validateScopedResourceSelectorRequirement`: each requirement's scope, operator and values (paths without their index, as upstream). */
function scopeSelectorErrors(spec: JSONObject, hard: string[]): FieldError[] {
  if (!isObject(spec.scopeSelector)) return [];
  const selector = spec.scopeSelector;
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec', 'scopeSelector', 'matchExpressions');
  const seen = new Set<string>();
  for (const req of objects(selector.matchExpressions)) {
    const scope = str(req.scopeName);
    const operator = str(req.operator);
    const values = Array.isArray(req.values) ? req.values.map(str) : [];
    if (!quotaScopes.includes(scope)) errs.push(invalidNamed(path.child('scopeName'), scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) errs.push(new FieldError('FieldValueInvalid', path, selector, 'unsupported scope applied to resource', internalSelectorText(selector)));
    }
    if (existsOnlyScopes.includes(scope) && operator !== 'Exists') {
      errs.push(invalidNamed(path.child('operator'), operator, 'must be \'Exists\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity'));
    }
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) errs.push(required(path.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) errs.push(invalid(path.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
    } else {
      errs.push(invalidNamed(path.child('operator'), operator, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  // Upstream reports the spec's scopes here, not the selector's.
  if (conflicting(seen)) errs.push(invalid(path, Array.isArray(spec.scopes) ? scopesOf(spec) : null, 'conflicting scopes'));
  return errs;
}

/** `ValidateResourceQuotaSpec`: the hard limits, the scopes, the scope selector. */
function validateQuotaSpec(o: KubeObject): FieldError[] {
  const spec = isObject(o.spec) ? o.spec : {};
  const hard = isObject(spec.hard) ? Object.keys(spec.hard).sort() : [];
  return [...quotaListErrors(spec.hard, FieldPath.root('spec', 'hard')), ...scopeErrors(spec, hard), ...scopeSelectorErrors(spec, hard)];
}

/** `ValidateResourceQuotaUpdate` past the spec: the scopes, as a set, may not change. */
function validateQuotaUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const scopes = scopesOf(isObject(o.spec) ? o.spec : {});
  const before = new Set(scopesOf(isObject(old.spec) ? old.spec : {}));
  const after = new Set(scopes);
  if (before.size === after.size && [...after].every((s) => before.has(s))) return [];
  return [invalid('spec.scopes', Array.isArray((o.spec as JSONObject | undefined)?.scopes) ? scopes : null, 'field is immutable')];
}

/** `ValidateResourceQuotaStatusUpdate`: the metadata, then the status lists. */
function validateQuotaStatusUpdate(o: KubeObject, _old: KubeObject, meta: FieldError[]): FieldError[] {
  const status = isObject(o.status) ? o.status : {};
  return [...meta, ...quotaListErrors(status.hard, FieldPath.root('status', 'hard')), ...quotaListErrors(status.used, FieldPath.root('status', 'used'))];
}

/** `SetObjectDefaults_ResourceQuota`: every quantity rounded up to thousandths. */
function defaultQuota(o: KubeObject): void {
  for (const [part, list] of [['spec', 'hard'], ['status', 'hard'], ['status', 'used']]) {
    const parent = o[part];
    const q = isObject(parent) ? parent[list] : undefined;
    if (isObject(q)) for (const k of Object.keys(q)) setOwn(q, k, roundUpToMilli(q[k]));
  }
}

/** printResourceQuota's `Request` and `Limit` cells: `name: used/hard` of each hard resource, `limits.*` in the second. */
function usageCells(o: KubeObject): [string, string] {
  const status = isObject(o.status) ? o.status : {};
  const hard = resourceList(status.hard);
  const used = resourceList(status.used);
  const requests: string[] = [];
  const limits: string[] = [];
  for (const [name, h] of hard) {
    const u = used.get(name);
    const text = `${name}: ${u === undefined ? '0' : amountText(u)}/${amountText(h)}`;
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(text);
  }
  return [requests.join(', '), limits.join(', ')];
}

function resourceQuotaSpec(): BuiltinSpec {
  return {
    names: { group: '', version: 'v1', resource: 'resourcequotas', singular: 'resourcequota', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], status: true, nameValidation: 'subdomain' },
    columns: [
      { def: { name: 'Request', type: 'string', priority: 0 }, cell: (o) => usageCells(o)[0] },
      { def: { name: 'Limit', type: 'string', priority: 0 }, cell: (o) => usageCells(o)[1] },
    ],
    defaults: defaultQuota,
    // The status is the quota controller's (and the admission plugin's): none is taken from a create.
    prepareForCreate: (o) => { o.status = {}; },
    validate: validateQuotaSpec,
    validateUpdate: validateQuotaUpdate,
    validateStatusUpdate: validateQuotaStatusUpdate,
    // The REST's ReturnDeletedObject.
    deleteReturnsObject: true,
  };
}

/** The core/v1 ResourceQuota kind. */
export function resourceQuotaResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(resourceQuotaSpec())];
}
