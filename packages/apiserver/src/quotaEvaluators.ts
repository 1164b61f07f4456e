/**
 * The quota evaluators of kube-apiserver 1.34.4 (pkg/quota/v1/evaluator/core, and k8s.io/apiserver's
 * generic object count evaluator), as the ResourceQuota admission plugin (quotaAdmission.ts) calls them:
 * which requests each charges, which resource names of a quota it accounts for, which scopes an object is
 * in, what a new pod must set, and what an object uses.
 *
 * Pods: `pods`, `count/pods`, `cpu`, `memory`, `ephemeral-storage` and their `requests.`/`limits.` forms,
 * hugepages and extended resources (`requests.example.com/gpu`), with the scopes `Terminating`,
 * `NotTerminating`, `BestEffort`, `NotBestEffort`, `PriorityClass` (and its selector) and
 * `CrossNamespacePodAffinity`; a pod is charged when created and when it starts or stops terminating.
 * Services: `services`, `services.nodeports`, `services.loadbalancers`. PersistentVolumeClaims:
 * `persistentvolumeclaims`, `requests.storage` and their `<class>.storageclass.storage.k8s.io/` forms,
 * with the `VolumeAttributesClass` scope. Every other resource: `count/<resource>[.<group>]` of each new
 * object, and the legacy names `configmaps`, `secrets`, `resourcequotas` and `replicationcontrollers`.
 */
import type { Clock, KubeObject } from '@kubekit/core';
import { parseLabelSelector } from '@kubekit/selectors';
import type { AdmissionAttributes } from './admission.js';
import { podResourceTotals } from './limitRanger.js';
import { podQOSClass } from './podDefaults.js';
import { isExtended, isNative } from './podResources.js';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { addLists, amountOf, compareAmounts, resourceList, roundUpToWhole, type Amount, type ResourceList } from './internal/resourceList.js';

const storageClassSuffix = '.storageclass.storage.k8s.io/';

/** One requirement of a quota's scopes (`ScopedResourceSelectorRequirement`). */
export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** What the plugin asks of the evaluator of a resource (`quota.Evaluator`). */
export interface Evaluator {
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
      // An in-place resize is charged its increase.
      if (attrs.subresource === 'resize') return attrs.operation === 'UPDATE';
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

/** The evaluator of each resource (`generic.NewRegistry` of `NewEvaluators`, and object counts for the rest). */
export function quotaEvaluators(clock: Clock): (group: string, resource: string) => Evaluator {
  const pods = podEvaluator(clock);
  return (group, resource) => {
    if (group === '' && resource === 'pods') return pods;
    if (group === '' && resource === 'services') return serviceEvaluator;
    if (group === '' && resource === 'persistentvolumeclaims') return claimEvaluator;
    const legacy = group === '' && Object.hasOwn(legacyCountNames, resource) ? [legacyCountNames[resource]] : [];
    return objectCountEvaluator([countName(group, resource), ...legacy]);
  };
}
