/**
 * The `ResourceQuota` admission plugin (k8s.io/apiserver/pkg/admission/plugin/resourcequota, on by
 * default, the last validating plugin: after the validating webhooks), with kube-apiserver 1.34.4's
 * evaluators (pkg/quota/v1/evaluator/core, and the object count evaluator of every other resource).
 *
 * On a create (and, for Pods that start or stop terminating, Services and PersistentVolumeClaims, an
 * update) in a namespace with ResourceQuotas, each quota whose `status.hard` names a resource the object
 * uses, and whose scopes the object matches, is checked: a Pod must request (or limit) each compute
 * resource the quota limits (`failed quota: q: must specify requests.cpu for: c`), the quota's
 * `status.used` must have an entry for each of them (`status unknown for quota: q, resources: pods` —
 * no quota controller fills it on a bare apiserver: a client writes it through `/status`), and
 * `used + requested` must not exceed `hard` (`exceeded quota: q, requested: pods=1, used: pods=2,
 * limited: pods=2`); each is a 403. Unless the request is a dry run, the new `status.used` of each quota
 * charged is written (as the apiserver's own `/status` update, manager `kube-apiserver`) before the object
 * is stored. A quota whose `status.hard` is empty limits nothing.
 *
 * Evaluated: `pods`, `count/pods`, `cpu`, `memory`, `ephemeral-storage` and their `requests.`/`limits.`
 * forms, hugepages and extended resources (`requests.example.com/gpu`) of Pods, with the scopes
 * `Terminating`, `NotTerminating`, `BestEffort`, `NotBestEffort`, `PriorityClass` (and its selector) and
 * `CrossNamespacePodAffinity`; `services`, `services.nodeports`, `services.loadbalancers`; `persistentvolumeclaims`,
 * `requests.storage` and their `<class>.storageclass.storage.k8s.io/` forms, with the `VolumeAttributesClass`
 * scope; and `count/<resource>[.<group>]` of every other namespaced resource (custom resources too),
 * with the legacy names `configmaps`, `secrets`, `resourcequotas` and `replicationcontrollers`.
 *
 * kubekit reads the quotas from its store: no informer lags behind a `/status` write as the apiserver's does.
 * The quotas of a namespace are checked in name order (the apiserver's lister has none).
 *
 * @see https://kubernetes.io/docs/concepts/policy/resource-quotas/
 */
import type { Clock, KubeObject } from '@kubekit/core';
import { parseLabelSelector } from '@kubekit/selectors';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.js';
import { admissionForbidden, podResourceTotals } from './limitRanges.js';
import { podQOSClass } from './podDefaults.js';
import { isExtended, isNative } from './podResources.js';
import { resourceQuotasBucket } from './resourceQuotaKinds.js';
import type { ResourceType } from './resourceType.js';
import { timestamp } from './objectMeta.js';
import { updateManagedFields } from './managedFields/fieldManager.js';
import { writeFieldManagerContext } from './managedFields/requestContext.js';
import { cloneJSON, isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import {
  addAmounts, addLists, amountOf, amountText, compareAmounts, exceededNames, maskList, negativeNames, prettyPrint, removeZeros, resourceList,
  roundUpToWhole, subtractNonNegative, type Amount, type ResourceList,
} from './internal/resourceList.js';
import { storeKey, type ObjectStore } from './storage/objectStore.js';

/** The manager of the apiserver's own writes of a quota's status (its loopback client's User-Agent). */
const apiserverManager = 'kube-apiserver';
const storageClassSuffix = '.storageclass.storage.k8s.io/';

/** One requirement of a quota's scopes (`ScopedResourceSelectorRequirement`). */
interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** What the plugin asks of the evaluator of a resource (`quota.Evaluator`). */
interface Evaluator {
  /** Whether the request is one the evaluator charges. */
  handles(attrs: AdmissionAttributes): boolean;
  /** Of a quota's resource names, those the evaluator accounts for. */
  matchingResources(names: readonly string[]): string[];
  /** Whether an object falls in a scope; evaluators without scopes match none. */
  matchesScope(scope: ScopeRequirement, object: KubeObject): boolean;
  /** What a new object must set for the resources a quota limits, or undefined. */
  constraints(required: readonly string[], object: KubeObject): string | undefined;
  /** What the object uses. */
  usage(object: KubeObject): ResourceList;
}

/** Resources no quota charges (`DefaultIgnoredResources`): virtual ones and Events. */
const ignored = new Set([
  '/bindings', '/componentstatuses', 'authentication.k8s.io/tokenreviews', 'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews', 'authorization.k8s.io/selfsubjectaccessreviews', 'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews', '/events', 'events.k8s.io/events',
]);

/** `ObjectCountQuotaResourceNameFor`: `count/<resource>`, with `.<group>` for a named group. */
function countName(group: string, resource: string): string {
  return group === '' ? `count/${resource}` : `count/${resource}.${group}`;
}

/** `quota.Intersection`: the names of `a` that `b` has, sorted. */
function intersection(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set(a.filter((n) => b.includes(n)))].sort();
}

/** The pod spec, or an empty one. */
function specOf(o: KubeObject): JSONObject {
  return isObject(o.spec) ? o.spec : {};
}

/** `IsTerminating`: an `activeDeadlineSeconds` of at least 0. */
function isTerminating(pod: KubeObject): boolean {
  const d = specOf(pod).activeDeadlineSeconds;
  return typeof d === 'number' && d >= 0;
}

/**
 * A requirement on a named class (`PriorityClass` or `VolumeAttributesClass`) against the classes an object
 * names (`ScopedResourceSelectorRequirementsAsSelector`): none, or any of them, matching as labels.
 */
function classMatches(req: ScopeRequirement, classes: readonly string[]): boolean {
  const ops: Readonly<Record<string, string>> = { In: 'in', NotIn: 'notin', Exists: '', DoesNotExist: '!' };
  if (!Object.hasOwn(ops, req.operator)) return false;
  const key = req.scopeName;
  const text = req.operator === 'Exists' ? key : req.operator === 'DoesNotExist' ? `!${key}` : `${key} ${ops[req.operator]} (${req.values.join(',')})`;
  let selector;
  try {
    selector = parseLabelSelector(text);
  } catch {
    return false;
  }
  if (classes.length === 0) return selector.matches({});
  return classes.some((c) => selector.matches({ [key]: c }));
}

/** `crossNamespacePodAffinityTerm` of each term of a pod's affinity or anti-affinity. */
function usesCrossNamespaceAffinity(pod: KubeObject): boolean {
  const affinity = specOf(pod).affinity;
  if (!isObject(affinity)) return false;
  const crossNamespace = (t: JSONObject): boolean => (Array.isArray(t.namespaces) && t.namespaces.length > 0) || (t.namespaceSelector !== undefined && t.namespaceSelector !== null);
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind];
    if (!isObject(a)) continue;
    if (objects(a.requiredDuringSchedulingIgnoredDuringExecution).some(crossNamespace)) return true;
    if (objects(a.preferredDuringSchedulingIgnoredDuringExecution).some((w) => isObject(w.podAffinityTerm) && crossNamespace(w.podAffinityTerm))) return true;
  }
  return false;
}

/** `podComputeUsageHelper`: what a pod's requests and limits use, `pods: 1` included. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', amountOf(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const req = requests.get(r);
    if (req !== undefined) {
      out.set(r, req);
      out.set(`requests.${r}`, req);
    }
    const lim = limits.get(r);
    if (lim !== undefined) out.set(`limits.${r}`, lim);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, q);
      out.set(`requests.${name}`, q);
    }
    if (isExtended(name)) out.set(`requests.${name}`, q);
  }
  return out;
}

/** Whether pod-level CPU, memory or hugepages are set (`IsPodLevelResourcesSet`). */
function podLevelResourcesSet(pod: KubeObject): boolean {
  const r = specOf(pod).resources;
  if (!isObject(r)) return false;
  const names = [...Object.keys(isObject(r.requests) ? r.requests : {}), ...Object.keys(isObject(r.limits) ? r.limits : {})];
  return names.some((n) => n === 'cpu' || n === 'memory' || n.startsWith('hugepages-'));
}

const podResources = ['count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods'];
const podConstrained = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** The pod evaluator (`podEvaluator`). */
function podEvaluator(clock: Clock): Evaluator {
  return {
    handles: (attrs) => {
      if (attrs.subresource !== '') return false;
      if (attrs.operation === 'UPDATE' && attrs.object !== undefined && attrs.oldObject !== undefined && isTerminating(attrs.oldObject) !== isTerminating(attrs.object)) return true;
      return attrs.operation === 'CREATE';
    },
    matchingResources: (names) => [
      ...intersection(names, podResources),
      ...names.filter((n) => n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || (!isNative(n) && n.startsWith('requests.'))),
    ],
    matchesScope: (scope, pod) => {
      switch (scope.scopeName) {
        case 'Terminating': return isTerminating(pod);
        case 'NotTerminating': return !isTerminating(pod);
        case 'BestEffort': return podQOSClass(pod) === 'BestEffort';
        case 'NotBestEffort': return podQOSClass(pod) !== 'BestEffort';
        case 'PriorityClass': {
          const name = str(specOf(pod).priorityClassName);
          if (scope.operator === 'Exists') return name !== '';
          return classMatches(scope, name === '' ? [] : [name]);
        }
        case 'CrossNamespacePodAffinity': return usesCrossNamespaceAffinity(pod);
        default: return false;
      }
    },
    constraints: (required, pod) => {
      if (podLevelResourcesSet(pod)) return undefined;
      const requiredSet = required.filter((r) => podConstrained.has(r));
      const missing = new Map<string, Set<string>>();
      const spec = specOf(pod);
      for (const c of [...objects(spec.containers), ...objects(spec.initContainers)]) {
        const resources = isObject(c.resources) ? c.resources : {};
        const has = computeUsage(resourceList(resources.requests), resourceList(resources.limits));
        for (const r of requiredSet) {
          if (has.has(r)) continue;
          let names = missing.get(r);
          if (names === undefined) missing.set(r, (names = new Set()));
          names.add(str(c.name));
        }
      }
      if (missing.size === 0) return undefined;
      const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
      return `must specify ${parts.join('; ')}`;
    },
    usage: (pod) => {
      const out: ResourceList = new Map([['count/pods', amountOf(1)]]);
      if (!chargedPod(pod, clock)) return out;
      return addLists(out, computeUsage(podResourceTotals(pod, 'requests', true), podResourceTotals(pod, 'limits', true)));
    },
  };
}

/** `QuotaV1Pod`: a pod that has not finished and is not past its deletion's grace period. */
function chargedPod(pod: KubeObject, clock: Clock): boolean {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp !== undefined && typeof deletionGracePeriodSeconds === 'number') {
    if (clock.now() > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

const serviceResources = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

/** The service evaluator (`serviceEvaluator`): counts, node ports, load balancers; no scopes. */
const serviceEvaluator: Evaluator = {
  handles: (attrs) => attrs.subresource === '' && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE'),
  matchingResources: (names) => intersection(names, serviceResources),
  matchesScope: () => false,
  constraints: () => undefined,
  usage: (svc) => {
    const spec = specOf(svc);
    const ports = objects(spec.ports);
    let nodePorts = 0;
    let balancers = 0;
    if (spec.type === 'NodePort') nodePorts = ports.length;
    if (spec.type === 'LoadBalancer') {
      nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => typeof p.nodePort === 'number' && p.nodePort !== 0).length : ports.length;
      balancers = 1;
    }
    return new Map([['count/services', amountOf(1)], ['services', amountOf(1)], ['services.loadbalancers', amountOf(balancers)], ['services.nodeports', amountOf(nodePorts)]]);
  },
};

/** The volume attributes classes a claim names (spec, status, and a modification's target). */
function volumeAttributesClasses(pvc: KubeObject): string[] {
  const names = new Set<string>();
  const add = (v: unknown): void => { if (typeof v === 'string' && v !== '') names.add(v); };
  add(specOf(pvc).volumeAttributesClassName);
  const status = isObject(pvc.status) ? pvc.status : {};
  add(status.currentVolumeAttributesClassName);
  if (isObject(status.modifyVolumeStatus)) add(status.modifyVolumeStatus.targetVolumeAttributesClassName);
  return [...names];
}

/** The claim evaluator (`pvcEvaluator`): counts and storage, per storage class too; the `VolumeAttributesClass` scope. */
const claimEvaluator: Evaluator = {
  // A status write is charged too: upstream's RequiresQuotaReplenish compares two pointers, which always differ.
  handles: (attrs) => attrs.subresource === '' ? attrs.operation === 'CREATE' || attrs.operation === 'UPDATE' : attrs.subresource === 'status' && attrs.operation === 'UPDATE',
  matchingResources: (names) => names.filter((n) => n === 'count/persistentvolumeclaims' || n === 'persistentvolumeclaims' || n === 'requests.storage' ||
    n.endsWith(`${storageClassSuffix}persistentvolumeclaims`) || n.endsWith(`${storageClassSuffix}requests.storage`)),
  matchesScope: (scope, pvc) => {
    if (scope.scopeName !== 'VolumeAttributesClass') return false;
    const classes = volumeAttributesClasses(pvc);
    return scope.operator === 'Exists' ? classes.length > 0 : classMatches(scope, classes);
  },
  constraints: () => undefined,
  usage: (pvc) => {
    const out: ResourceList = new Map([['persistentvolumeclaims', amountOf(1)], ['count/persistentvolumeclaims', amountOf(1)]]);
    const annotations = pvc.metadata.annotations ?? {};
    const beta = 'volume.beta.kubernetes.io/storage-class';
    const storageClass = Object.hasOwn(annotations, beta) ? annotations[beta] : str(specOf(pvc).storageClassName);
    if (storageClass !== '') out.set(`${storageClass}${storageClassSuffix}persistentvolumeclaims`, amountOf(1));
    const storage = claimStorage(pvc);
    if (storage !== undefined) {
      out.set('requests.storage', storage);
      if (storageClass !== '') out.set(`${storageClass}${storageClassSuffix}requests.storage`, storage);
    }
    return out;
  },
};

/** `getStorageUsage`: the storage requested (rounded up to a whole byte), or the allocated storage when larger. */
function claimStorage(pvc: KubeObject): Amount | undefined {
  const spec = specOf(pvc);
  const requested = resourceList(isObject(spec.resources) ? spec.resources.requests : undefined).get('storage');
  if (requested === undefined) return undefined;
  // `RoundUp(0)`: a fraction goes up to the next whole number; the format stays.
  let result = roundUpToWhole(requested);
  const allocated = resourceList(isObject(pvc.status) ? pvc.status.allocatedResources : undefined);
  const storage = allocated.get('storage');
  if (storage !== undefined && compareAmounts(storage, result) > 0) result = roundUpToWhole(storage);
  return result;
}

/** `objectCountEvaluator`: `count/<resource>` (and a legacy name) of each new object. */
function objectCountEvaluator(names: readonly string[]): Evaluator {
  return {
    handles: (attrs) => attrs.subresource === '' && attrs.operation === 'CREATE',
    matchingResources: (input) => intersection(input, names),
    matchesScope: () => false,
    constraints: () => undefined,
    usage: () => new Map(names.map((n) => [n, amountOf(1)])),
  };
}

const legacyCountNames: Readonly<Record<string, string>> = { configmaps: 'configmaps', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers', secrets: 'secrets' };

/** A quota's scopes as requirements (`getScopeSelectorsFromQuota`): each scope an `Exists`, then the selector's. */
function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = specOf(quota);
  const out: ScopeRequirement[] = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => ({ scopeName: str(s), operator: 'Exists', values: [] }));
  const selector = isObject(spec.scopeSelector) ? spec.scopeSelector : {};
  for (const r of objects(selector.matchExpressions)) out.push({ scopeName: str(r.scopeName), operator: str(r.operator), values: Array.isArray(r.values) ? r.values.map(str) : [] });
  return out;
}

/** A quota's `status.hard` and `status.used`. */
function statusLists(quota: KubeObject): { hard: ResourceList; used: ResourceList } {
  const status = isObject(quota.status) ? quota.status : {};
  return { hard: resourceList(status.hard), used: resourceList(status.used) };
}

/** `generic.Matches`: the quota limits something the evaluator accounts for, and the object is in all its scopes. */
function quotaMatches(e: Evaluator, quota: KubeObject, object: KubeObject): boolean {
  if (e.matchingResources([...statusLists(quota).hard.keys()]).length === 0) return false;
  return scopeRequirements(quota).every((s) => e.matchesScope(s, object));
}

/** The ResourceQuota admission plugin (see the file comment). */
export class QuotaAdmission implements AdmissionPlugin {
  private readonly pods: Evaluator;

  constructor(private readonly options: { store: ObjectStore; quotaType: ResourceType; clock: Clock; managedFields: boolean }) {
    this.pods = podEvaluator(options.clock);
  }

  private evaluator(group: string, resource: string): Evaluator {
    if (group === '' && resource === 'pods') return this.pods;
    if (group === '' && resource === 'services') return serviceEvaluator;
    if (group === '' && resource === 'persistentvolumeclaims') return claimEvaluator;
    const legacy = group === '' && Object.hasOwn(legacyCountNames, resource) ? [legacyCountNames[resource]] : [];
    return objectCountEvaluator([countName(group, resource), ...legacy]);
  }

  /** The stored quotas of a namespace, in name order. */
  private quotas(namespace: string): KubeObject[] {
    const prefix = `${namespace}/`;
    return [...this.options.store.values(resourceQuotasBucket)].filter(([key]) => key.startsWith(prefix)).map(([, q]) => q);
  }

  /** `Validate`: refuses what a quota does not allow; charges the quotas (unless dry run). */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (attrs.operation === 'DELETE' || attrs.namespace === '' || attrs.object === undefined) return;
    const { group, resource } = attrs.type.names;
    if (ignored.has(`${group}/${resource}`)) return;
    const e = this.evaluator(group, resource);
    if (!e.handles(attrs)) return;
    const quotas = this.quotas(attrs.namespace);
    if (quotas.length === 0) return;
    const charged = this.check(quotas, attrs, e);
    if (attrs.dryRun) return;
    for (const [quota, used] of charged) await this.writeUsed(quota, used);
  }

  /** `CheckRequest`: the new `status.used` of each quota the request changes, or the refusal. */
  private check(quotas: KubeObject[], attrs: AdmissionAttributes, e: Evaluator): Map<KubeObject, ResourceList> {
    const object = attrs.object!;
    const interesting: KubeObject[] = [];
    for (const quota of quotas) {
      if (!quotaMatches(e, quota, object)) continue;
      const { hard, used } = statusLists(quota);
      const restricted = e.matchingResources([...hard.keys()]);
      const name = quota.metadata.name ?? '';
      const failed = e.constraints(restricted, object);
      if (failed !== undefined) throw admissionForbidden(attrs, `failed quota: ${name}: ${failed}`);
      if (restricted.some((r) => hard.has(r) && !used.has(r))) throw admissionForbidden(attrs, `status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
      interesting.push(quota);
    }
    const usage = e.usage(object);
    const negative = negativeNames(usage);
    if (negative.length > 0) throw admissionForbidden(attrs, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    const deltas = new Map<KubeObject, ResourceList>();
    for (const quota of interesting) deltas.set(quota, usage);
    if (attrs.operation === 'UPDATE' && attrs.oldObject !== undefined) {
      const delta = subtractNonNegative(usage, e.usage(attrs.oldObject));
      for (const quota of interesting) if (quotaMatches(e, quota, attrs.oldObject)) deltas.set(quota, delta);
    }
    const out = new Map<KubeObject, ResourceList>();
    for (const quota of interesting) {
      const delta = removeZeros(deltas.get(quota)!);
      if (delta.size === 0) continue;
      const { hard, used } = statusLists(quota);
      const requested = maskList(delta, hard.keys());
      const next = addLists(used, requested);
      if (attrs.subresource !== 'status') {
        const exceeded = exceededNames(maskList(next, requested.keys()), hard);
        if (exceeded.length > 0) {
          const why = `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(maskList(requested, exceeded))}, used: ${prettyPrint(maskList(used, exceeded))}, limited: ${prettyPrint(maskList(hard, exceeded))}`;
          throw admissionForbidden(attrs, why);
        }
      }
      if (requested.size > 0) out.set(quota, requested);
    }
    return out;
  }

  /**
   * The quota's `status.used` with `requested` added, written as the apiserver's `UpdateStatus` (its
   * other entries as they are stored); a quota deleted meanwhile is let be.
   */
  private async writeUsed(quota: KubeObject, requested: ResourceList): Promise<void> {
    const { store, quotaType, clock } = this.options;
    const namespace = quota.metadata.namespace ?? '';
    const name = quota.metadata.name ?? '';
    const key = storeKey(namespace, name);
    const current = store.get(resourceQuotasBucket, key);
    if (current === undefined) return;
    const next = cloneJSON(current);
    const status: JSONObject = isObject(next.status) ? next.status : {};
    next.status = status;
    const used: JSONObject = isObject(status.used) ? status.used : {};
    const before = resourceList(used);
    for (const [k, q] of requested) {
      const old = before.get(k);
      setOwn(used, k, amountText(old === undefined ? q : addAmounts(old, q)));
    }
    status.used = used;
    const now = timestamp(clock.now());
    const stored = await quotaType.toStorage(next);
    if (this.options.managedFields) {
      const entries = updateManagedFields(current, stored, apiserverManager, writeFieldManagerContext(quotaType, 'status', now));
      if (entries === undefined) delete stored.metadata.managedFields;
      else stored.metadata.managedFields = entries;
    }
    await store.update(quotaType.groupResource, key, name, stored, current.metadata.resourceVersion).durable;
  }
}
