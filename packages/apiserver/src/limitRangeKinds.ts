/**
 * core/v1 LimitRanges, as kube-apiserver 1.34.4 serves them: the strategy of pkg/registry/core/limitrange
 * (a LimitRange created without a name gets a UUID as its name), `SetDefaults_LimitRangeItem` (a Container limit's `default` from its `max`, its
 * `defaultRequest` from its `default`, else its `min`) and the quantities rounded up to thousandths,
 * `ValidateLimitRange` on create and on update, and the default Table (`Name`, `Created At`).
 *
 * What the LimitRanges do to Pods and PersistentVolumeClaims is the `LimitRanger` admission plugin's
 * (limitRanger.ts). Go walks the quantities of a limit in no fixed order (so does the order of its errors
 * vary); kubekit walks them in key order. A PUT of a LimitRange that does not exist is a 404 here, where
 * kube-apiserver creates it (`AllowCreateOnUpdate`).
 *
 * @see https://kubernetes.io/docs/concepts/policy/limit-range/
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, duplicate, forbidden, invalid, required, type FieldError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, createdAtColumn, type BuiltinSpec } from './builtinKinds.js';
import { containerResourceNameErrors, overcommitAllowed, resourceNameErrors } from './podResources.js';
import { isQualifiedName } from './internal/semantics.js';
import { getOwn, isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import { amountMilliValue, amountOf, amountText, amountValue, compareAmounts, maxMilliValue, resourceList, roundUpToMilli, type ResourceList } from './internal/resourceList.js';
import { bucketOf } from './storage/objectStore.js';

const limitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];
const quantityLists = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'];

/** The storage bucket of LimitRanges. */
export const limitRangesBucket = bucketOf({ group: '', resource: 'limitranges' });

/** The limits of a LimitRange (`spec.limits`). */
export function limitsOf(lr: KubeObject): JSONObject[] {
  return objects(isObject(lr.spec) ? lr.spec.limits : undefined);
}

/** `SetObjectDefaults_LimitRange`: `SetDefaults_LimitRangeItem`, then every quantity rounded up to thousandths. */
function defaultLimitRange(o: KubeObject): void {
  for (const item of limitsOf(o)) {
    if (item.type === 'Container') {
      const defaults = ownList(item, 'default');
      const requests = ownList(item, 'defaultRequest');
      const fill = (into: JSONObject, from: unknown): void => {
        if (!isObject(from)) return;
        for (const k of Object.keys(from)) if (!Object.hasOwn(into, k)) setOwn(into, k, from[k]);
      };
      // A default limit from the max, a default request from the default limit, else from the min.
      fill(defaults, item.max);
      fill(requests, defaults);
      fill(requests, item.min);
    }
    for (const list of quantityLists) {
      const q = getOwn(item, list);
      if (isObject(q)) for (const k of Object.keys(q)) setOwn(q, k, roundUpToMilli(q[k]));
    }
  }
}

/** The map at `key`, made when absent or null (encoding/json leaves it out again when empty). */
function ownList(item: JSONObject, key: string): JSONObject {
  const v = getOwn(item, key);
  if (isObject(v)) return v;
  const made: JSONObject = {};
  setOwn(item, key, made);
  return made;
}

/** `validateLimitRangeTypeName`: a qualified name, standard when it has no prefix. */
function typeNameErrors(type: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !limitTypes.includes(type)) errs.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

/** `validateLimitRangeResourceName`: a container resource for Pod and Container limits, any resource otherwise. */
function limitResourceNameErrors(type: string, name: string, path: FieldPath): FieldError[] {
  return type === 'Pod' || type === 'Container' ? containerResourceNameErrors(name, path) : resourceNameErrors(name, path);
}

/** Go's `%f`: six decimals, integers in full, `+Inf`. */
export function percentF(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (Math.abs(x) >= 1e21) return `${BigInt(Math.trunc(x))}.000000`;
  return x.toFixed(6);
}

/** `ValidateLimitRange` past its metadata. */
function validateLimitRange(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const path = FieldPath.root('spec', 'limits');
  const items = Array.isArray(isObject(o.spec) ? o.spec.limits : undefined) ? (o.spec as JSONObject).limits as unknown[] : [];
  items.forEach((raw, i) => {
    const item = isObject(raw) ? raw : {};
    const p = path.index(i);
    const type = str(item.type);
    errs.push(...typeNameErrors(type, p.child('type')));
    if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
    seen.add(type);
    const keys = new Set<string>();
    const lists: Record<string, ResourceList> = {};
    const read = (list: string): void => {
      lists[list] = resourceList(item[list]);
      for (const k of lists[list].keys()) {
        errs.push(...limitResourceNameErrors(type, k, p.child(list).key(k)));
        keys.add(k);
      }
    };
    read('max');
    read('min');
    if (type === 'Pod') {
      lists.default = new Map();
      lists.defaultRequest = new Map();
      if (isObject(item.default) && Object.keys(item.default).length > 0) errs.push(forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"));
      if (isObject(item.defaultRequest) && Object.keys(item.defaultRequest).length > 0) errs.push(forbidden(p.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
    } else {
      read('default');
      read('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !lists.min.has('storage') && !lists.max.has('storage')) {
      errs.push(required(p.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
    }
    read('maxLimitRequestRatio');
    for (const k of [...keys].sort()) errs.push(...limitErrors(k, lists, p));
  });
  return errs;
}

/** The checks of one resource of a limit: min ≤ default request ≤ default ≤ max, the ratio, no overcommitted default. */
function limitErrors(k: string, lists: Record<string, ResourceList>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const min = lists.min.get(k);
  const max = lists.max.get(k);
  const def = lists.default.get(k);
  const req = lists.defaultRequest.get(k);
  const ratio = lists.maxLimitRequestRatio.get(k);
  const t = amountText;
  if (min !== undefined && max !== undefined && compareAmounts(min, max) > 0) errs.push(invalid(p.child('min').key(k), t(min), `min value ${t(min)} is greater than max value ${t(max)}`));
  if (req !== undefined && min !== undefined && compareAmounts(min, req) > 0) errs.push(invalid(p.child('defaultRequest').key(k), t(req), `min value ${t(min)} is greater than default request value ${t(req)}`));
  if (req !== undefined && max !== undefined && compareAmounts(req, max) > 0) errs.push(invalid(p.child('defaultRequest').key(k), t(req), `default request value ${t(req)} is greater than max value ${t(max)}`));
  if (req !== undefined && def !== undefined && compareAmounts(req, def) > 0) errs.push(invalid(p.child('defaultRequest').key(k), t(req), `default request value ${t(req)} is greater than default limit value ${t(def)}`));
  if (def !== undefined && min !== undefined && compareAmounts(min, def) > 0) errs.push(invalid(p.child('default').key(k), t(min), `min value ${t(min)} is greater than default value ${t(def)}`));
  if (def !== undefined && max !== undefined && compareAmounts(def, max) > 0) errs.push(invalid(p.child('default').key(k), t(max), `default value ${t(def)} is greater than max value ${t(max)}`));
  if (ratio !== undefined && compareAmounts(ratio, one) < 0) errs.push(invalid(p.child('maxLimitRequestRatio').key(k), t(ratio), `ratio ${t(ratio)} is less than 1`));
  if (ratio !== undefined && min !== undefined && max !== undefined) {
    let ratioValue = Number(amountValue(ratio));
    let minValue = amountValue(min);
    let maxValue = amountValue(max);
    if (amountValue(ratio) < maxMilliValue && minValue < maxMilliValue && maxValue < maxMilliValue) {
      ratioValue = Number(amountMilliValue(ratio)) / 1000;
      minValue = amountMilliValue(min);
      maxValue = amountMilliValue(max);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit) errs.push(invalid(p.child('maxLimitRequestRatio').key(k), t(ratio), `ratio ${t(ratio)} is greater than max/min = ${percentF(limit)}`));
  }
  // GPUs, hugepages and other resources that cannot be overcommitted: the default request is the default.
  if (!overcommitAllowed(k) && def !== undefined && req !== undefined && compareAmounts(def, req) !== 0) {
    errs.push(invalid(p.child('defaultRequest').key(k), t(req), `default value ${t(def)} must equal to defaultRequest value ${t(req)} in ${k}`));
  }
  return errs;
}

const one = amountOf(1);

function limitRangeSpec(): BuiltinSpec {
  return {
    names: { group: '', version: 'v1', resource: 'limitranges', singular: 'limitrange', kind: 'LimitRange', namespaced: true, shortNames: ['limits'], status: false, nameValidation: 'subdomain' },
    // A PUT of a LimitRange that does not exist creates it (the strategy's AllowCreateOnUpdate).
    allowCreateOnUpdate: true,
    // No printer of its own: the default Table.
    age: false,
    columns: [createdAtColumn],
    defaults: defaultLimitRange,
    // The strategy names a LimitRange sent without one (after generateName had its turn).
    prepareForCreate: (o) => {
      if (str(o.metadata.name) === '') o.metadata.name = randomUUID();
    },
    validate: validateLimitRange,
  };
}

/** The core/v1 LimitRange kind. */
export function limitRangeResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(limitRangeSpec())];
}

