/**
 * core/v1 LimitRanges, as kube-apiserver 1.34.4 serves them, and the `LimitRanger` admission plugin that
 * applies them (plugin/pkg/admission/limitranger, on by default).
 *
 * The kind: the strategy of pkg/registry/core/limitrange (a LimitRange created without a name gets a UUID
 * as its name), `SetDefaults_LimitRangeItem` (a Container limit's `default` from its `max`, its
 * `defaultRequest` from its `default`, else its `min`) and the quantities rounded up to thousandths,
 * `ValidateLimitRange` on create and on update, and the default Table (`Name`, `Created At`).
 *
 * The plugin, on the LimitRanges of the request's namespace: a new Pod's containers and init containers
 * get the Container limit's `defaultRequest` and `default` they do not set, written down in the
 * `kubernetes.io/limit-ranger` annotation (`LimitRanger plugin set: cpu request for container c; …`),
 * before the mutating webhooks; then a new Pod is checked against the `min`, `max` and
 * `maxLimitRequestRatio` of each Container limit (per container) and Pod limit (the pod's total), and a
 * PersistentVolumeClaim (new or updated) against the `min` and `max` storage of a PersistentVolumeClaim
 * limit, before the validating webhooks; the first LimitRange a request breaks refuses it with a 403 in
 * the plugin's words (`maximum cpu usage per Container is 2, but limit is 3`), its messages aggregated.
 *
 * Go walks the quantities of a limit in no fixed order (so does the order of its errors vary); kubekit walks
 * them in key order, and the LimitRanges of a namespace in name order. A PUT of a LimitRange that does not
 * exist is a 404 here, where kube-apiserver creates it (`AllowCreateOnUpdate`).
 *
 * @see https://kubernetes.io/docs/concepts/policy/limit-range/
 */
import { randomUUID } from 'node:crypto';
import { FieldPath, KubeError, aggregateMessage, duplicate, forbidden, goQuote, invalid, required, type FieldError, type KubeObject } from '@kubekit/core';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.js';
import { BuiltinResourceType, createdAtColumn, type BuiltinSpec } from './builtinKinds.js';
import { containerResourceNameErrors, overcommitAllowed, resourceNameErrors } from './podResources.js';
import { isQualifiedName } from './internal/semantics.js';
import { getOwn, isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import {
  addAmounts, addInto, amountMilliValue, amountOf, amountSign, amountText, amountValue, compareAmounts, maxInto, maxMilliValue, resourceList, roundUpToMilli,
  type Amount, type ResourceList,
} from './internal/resourceList.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';

const limitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];
const limitRangerAnnotation = 'kubernetes.io/limit-ranger';
const quantityLists = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'];

/** The storage bucket of LimitRanges. */
export const limitRangesBucket = bucketOf({ group: '', resource: 'limitranges' });

/** The limits of a LimitRange (`spec.limits`). */
function limitsOf(lr: KubeObject): JSONObject[] {
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
function percentF(x: number): string {
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

/** `admission.NewForbidden`: `<resource> "<name>" is forbidden: <why>`, the name the request's or its object's. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): KubeError {
  const { group, resource } = attrs.type.names;
  const meta = attrs.object?.metadata;
  const name = attrs.name !== '' ? attrs.name : str(meta?.name) !== '' ? str(meta?.name) : str(meta?.generateName) !== '' ? str(meta?.generateName) : 'Unknown';
  const qualified = group === '' ? resource : `${resource}.${group}`;
  return new KubeError('Forbidden', `${qualified} ${goQuote(name)} is forbidden: ${why}`, { details: { name, ...(group === '' ? {} : { group }), kind: resource } });
}

/** Whether a request is for the core resource `resource` itself (no subresource). */
function isCore(attrs: AdmissionAttributes, resource: string): boolean {
  return attrs.type.names.group === '' && attrs.type.names.resource === resource && attrs.subresource === '';
}

/** The containers of a pod spec and its init containers. */
function containersOf(pod: KubeObject): { containers: JSONObject[]; init: JSONObject[] } {
  const spec = isObject(pod.spec) ? pod.spec : {};
  return { containers: objects(spec.containers), init: objects(spec.initContainers) };
}

/** `mergeContainerResources`: the defaults a container lacks, and what was set, as the annotation says it. */
function mergeContainer(c: JSONObject, limits: ResourceList, requests: ResourceList, prefix: string, notes: string[]): void {
  const resources = isObject(c.resources) ? c.resources : {};
  if (!isObject(c.resources)) setOwn(c, 'resources', resources);
  const merge = (key: 'limits' | 'requests', defaults: ResourceList): string[] => {
    const set: string[] = [];
    if (defaults.size === 0) return set;
    const list = isObject(resources[key]) ? resources[key] : {};
    for (const [name, q] of defaults) {
      if (Object.hasOwn(list, name)) continue;
      setOwn(list, name, amountText(q));
      set.push(name);
    }
    if (set.length > 0) setOwn(resources, key, list);
    return set.sort();
  };
  const setLimits = merge('limits', limits);
  const setRequests = merge('requests', requests);
  const name = str(c.name);
  if (setRequests.length > 0) notes.push(`${setRequests.join(', ')} request for ${prefix} ${name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.join(', ')} limit for ${prefix} ${name}`);
}

/** `PodMutateLimitFunc`: a LimitRange's Container defaults merged into the pod, the annotation written when it set any. */
function mutatePod(lr: KubeObject, pod: KubeObject): void {
  const limits: ResourceList = new Map();
  const requests: ResourceList = new Map();
  for (const item of limitsOf(lr)) {
    if (item.type !== 'Container') continue;
    for (const [k, v] of resourceList(item.defaultRequest)) requests.set(k, v);
    for (const [k, v] of resourceList(item.default)) limits.set(k, v);
  }
  const notes: string[] = [];
  const { containers, init } = containersOf(pod);
  for (const c of containers) mergeContainer(c, limits, requests, 'container', notes);
  for (const c of init) mergeContainer(c, limits, requests, 'init container', notes);
  if (notes.length === 0) return;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

/** `requestLimitEnforcedValues`: the three values in thousandths when none is too large for that, else whole. */
function enforcedValues(request: Amount | undefined, limit: Amount | undefined, enforced: Amount): [bigint, bigint, bigint] {
  const zero = 0n;
  const values: [bigint, bigint, bigint] = [request === undefined ? zero : amountValue(request), limit === undefined ? zero : amountValue(limit), amountValue(enforced)];
  if (values.every((v) => v <= maxMilliValue)) return [request === undefined ? zero : amountMilliValue(request), limit === undefined ? zero : amountMilliValue(limit), amountMilliValue(enforced)];
  return values;
}

/** `minConstraint`. */
function minConstraint(type: string, name: string, enforced: Amount, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (req === undefined) return `minimum ${name} usage per ${type} is ${amountText(enforced)}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${amountText(enforced)}, but request is ${amountText(req)}`;
  if (lim !== undefined && l < e) return `minimum ${name} usage per ${type} is ${amountText(enforced)}, but limit is ${amountText(lim)}`;
  return undefined;
}

/** `maxRequestConstraint`: a PersistentVolumeClaim's request against the max. */
function maxRequestConstraint(type: string, name: string, enforced: Amount, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  if (req === undefined) return `maximum ${name} usage per ${type} is ${amountText(enforced)}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${amountText(enforced)}, but request is ${amountText(req)}`;
  return undefined;
}

/** `maxConstraint`. */
function maxConstraint(type: string, name: string, enforced: Amount, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (lim === undefined) return `maximum ${name} usage per ${type} is ${amountText(enforced)}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${amountText(enforced)}, but limit is ${amountText(lim)}`;
  if (req !== undefined && r > e) return `maximum ${name} usage per ${type} is ${amountText(enforced)}, but request is ${amountText(req)}`;
  return undefined;
}

/** `limitRequestRatioConstraint`. */
function ratioConstraint(type: string, name: string, enforced: Amount, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests.get(name);
  const lim = limits.get(name);
  const [r, l] = enforcedValues(req, lim, enforced);
  const max = amountText(enforced);
  if (req === undefined || r === 0n) return `${name} max limit to request ratio per ${type} is ${max}, but no request is specified or request is 0`;
  if (lim === undefined || l === 0n) return `${name} max limit to request ratio per ${type} is ${max}, but no limit is specified or limit is 0`;
  const display = Number(l) / Number(r);
  let observed = display;
  let allowed = Number(amountValue(enforced));
  if (amountValue(enforced) <= maxMilliValue) {
    observed *= 1000;
    allowed = Number(amountMilliValue(enforced));
  }
  return observed > allowed ? `${name} max limit to request ratio per ${type} is ${max}, but provided ratio is ${percentF(display)}` : undefined;
}

/** The min, max and ratio checks of one limit against a request and limit list. */
function checkLimit(item: JSONObject, type: string, requests: ResourceList, limits: ResourceList, errs: string[]): void {
  const push = (e: string | undefined): void => { if (e !== undefined) errs.push(e); };
  for (const [k, v] of resourceList(item.min)) push(minConstraint(type, k, v, requests, limits));
  for (const [k, v] of resourceList(item.max)) push(maxConstraint(type, k, v, requests, limits));
  for (const [k, v] of resourceList(item.maxLimitRequestRatio)) push(ratioConstraint(type, k, v, requests, limits));
}

/**
 * A pod's total requests or limits from its spec: the containers' sum, at least each init container's
 * (with the sidecars started before it), sidecars added; pod-level values, when set, in their place. As
 * the limit plugin's `podRequests`/`podLimits` (pod-level CPU and memory), or with `helpers` as the pod
 * resource helpers' `PodRequests`/`PodLimits` the quota evaluator calls (pod-level hugepages too, and the
 * pod overhead: added to the requests, and to the limits that are set).
 */
export function podResourceTotals(pod: KubeObject, key: 'requests' | 'limits', helpers = false): ResourceList {
  const listOf = (c: JSONObject): ResourceList => resourceList(isObject(c.resources) ? c.resources[key] : undefined);
  const { containers, init } = containersOf(pod);
  const total: ResourceList = new Map();
  for (const c of containers) addInto(total, listOf(c));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of init) {
    let own = listOf(c);
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      own = new Map(sidecars);
    } else {
      const tmp: ResourceList = new Map();
      addInto(tmp, own);
      addInto(tmp, sidecars);
      own = tmp;
    }
    maxInto(initMax, own);
  }
  maxInto(total, initMax);
  const spec = isObject(pod.spec) ? pod.spec : {};
  const podLevel = isObject(spec.resources) ? resourceList(spec.resources[key]) : new Map<string, Amount>();
  for (const [k, v] of podLevel) if (k === 'cpu' || k === 'memory' || (helpers && k.startsWith('hugepages-'))) total.set(k, v);
  if (!helpers) return total;
  for (const [k, v] of resourceList(spec.overhead)) {
    const cur = total.get(k);
    if (key === 'requests') total.set(k, cur === undefined ? v : addAmounts(cur, v));
    else if (cur !== undefined && amountSign(cur) !== 0) total.set(k, addAmounts(cur, v));
  }
  return total;
}

/** `PodValidateLimitFunc`: the messages of a pod that breaks the LimitRange. */
function podLimitErrors(lr: KubeObject, pod: KubeObject): string[] {
  const errs: string[] = [];
  const { containers, init } = containersOf(pod);
  for (const item of limitsOf(lr)) {
    const type = str(item.type);
    if (type === 'Container') {
      for (const c of [...containers, ...init]) {
        const resources = isObject(c.resources) ? c.resources : {};
        checkLimit(item, type, resourceList(resources.requests), resourceList(resources.limits), errs);
      }
    }
    if (type === 'Pod') checkLimit(item, type, podResourceTotals(pod, 'requests'), podResourceTotals(pod, 'limits'), errs);
  }
  return errs;
}

/** `PersistentVolumeClaimValidateLimitFunc`: a claim's storage request against min and max (its limits are not read). */
function claimLimitErrors(lr: KubeObject, claim: KubeObject): string[] {
  const errs: string[] = [];
  const spec = isObject(claim.spec) ? claim.spec : {};
  const requests = resourceList(isObject(spec.resources) ? spec.resources.requests : undefined);
  for (const item of limitsOf(lr)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of resourceList(item.min)) {
      const e = minConstraint('PersistentVolumeClaim', k, v, requests, new Map());
      if (e !== undefined) errs.push(e);
    }
    for (const [k, v] of resourceList(item.max)) {
      const e = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
      if (e !== undefined) errs.push(e);
    }
  }
  return errs;
}

/** The `LimitRanger` admission plugin, reading the stored LimitRanges (see the file comment). */
export class LimitRanger implements AdmissionPlugin {
  constructor(private readonly store: ObjectStore) {}

  private limitRanges(namespace: string): KubeObject[] {
    const prefix = `${namespace}/`;
    return [...this.store.values(limitRangesBucket)].filter(([key]) => key.startsWith(prefix)).map(([, lr]) => lr);
  }

  /** Whether the plugin looks at the request (`SupportsAttributes`, and objects being deleted are let be). */
  private handles(attrs: AdmissionAttributes, pvcUpdates: boolean): boolean {
    if (attrs.operation === 'DELETE' || attrs.object === undefined) return false;
    if (attrs.oldObject?.metadata.deletionTimestamp !== undefined) return false;
    if (isCore(attrs, 'pods')) return attrs.operation === 'CREATE';
    return pvcUpdates && isCore(attrs, 'persistentvolumeclaims');
  }

  /** `Admit`: a new pod's defaults. */
  admit(attrs: AdmissionAttributes): void {
    if (!this.handles(attrs, false) || attrs.object === undefined) return;
    for (const lr of this.limitRanges(attrs.namespace)) mutatePod(lr, attrs.object);
  }

  /** `Validate`: the first LimitRange the pod or claim breaks refuses it. */
  validate(attrs: AdmissionAttributes): void {
    const object = attrs.object;
    if (!this.handles(attrs, true) || object === undefined) return;
    const pod = attrs.type.names.resource === 'pods';
    for (const lr of this.limitRanges(attrs.namespace)) {
      const errs = pod ? podLimitErrors(lr, object) : claimLimitErrors(lr, object);
      if (errs.length > 0) throw admissionForbidden(attrs, aggregateMessage(errs));
    }
  }
}
