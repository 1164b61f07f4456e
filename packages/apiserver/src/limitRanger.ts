/**
 * The `LimitRanger` admission plugin (plugin/pkg/admission/limitranger, on by default), on the LimitRanges
 * of the request's namespace (limitRangeKinds.ts).
 *
 * A new Pod's containers and init containers get the Container limit's `defaultRequest` and `default`
 * they do not set, written down in the `kubernetes.io/limit-ranger` annotation (`LimitRanger plugin set: cpu request for container c; …`),
 * before the mutating webhooks; then a new Pod is checked against the `min`, `max` and
 * `maxLimitRequestRatio` of each Container limit (per container) and Pod limit (the pod's total), and a
 * PersistentVolumeClaim (new or updated) against the `min` and `max` storage of a PersistentVolumeClaim
 * limit, before the validating webhooks; the first LimitRange a request breaks refuses it with a 403 in
 * the plugin's words (`maximum cpu usage per Container is 2, but limit is 3`), its messages aggregated.
 *
 * Go walks the quantities of a limit in no fixed order (so does the order of its messages vary); kubekit walks
 * them in key order, and the LimitRanges of a namespace in name order (the apiserver's lister has none).
 *
 * @see https://kubernetes.io/docs/concepts/policy/limit-range/
 */
import { aggregateMessage, type KubeObject } from '@kubekit/core';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';
import { limitRangesBucket, limitsOf, percentF } from './limitRangeKinds.js';
import { isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import {
  addAmounts, addInto, amountMilliValue, amountSign, amountText, amountValue, maxInto, maxMilliValue, resourceList, type Amount, type ResourceList,
} from './internal/resourceList.js';
import type { ObjectStore } from './storage/objectStore.js';

const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

/** Whether a request is for the core resource `resource` itself (no subresource). */
function isCore(attrs: AdmissionAttributes, resource: string): boolean {
  return attrs.type.names.group === '' && attrs.type.names.resource === resource && attrs.subresource === '';
}

/** Whether a request writes a pod's `resize` subresource. */
function isPodResize(attrs: AdmissionAttributes): boolean {
  return attrs.type.names.group === '' && attrs.type.names.resource === 'pods' && attrs.subresource === 'resize';
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
    // In-place resizes are checked as new pods are (`SupportsAttributes`).
    if (isPodResize(attrs)) return attrs.operation === 'UPDATE';
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
