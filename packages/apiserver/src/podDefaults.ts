/**
 * What kube-apiserver 1.34 does to a Pod it creates before storing it: the registered defaults
 * (`SetDefaults_Pod`, `SetDefaults_PodSpec`, the container, probe, handler, field-reference and volume
 * defaults — the pod spec's are a workload template's too), the admission plugins every cluster runs on
 * pods (`Priority`, with the stored PriorityClasses; `DefaultTolerationSeconds`), and the QoS class it records in the status
 * (`GetPodQOS`). Each was checked against kube-apiserver v1.34.4 (test/podDefaults.test.ts).
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#defaulttolerationseconds
 * @see https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/
 */
import { Decimal, KubeError, quantityDecimal, type KubeObject } from '@kubekit/core';
import { childObject, isObject, objects, setDefault, setOwn, valueAt, type JSONObject } from './internal/own.js';
import { roundUpListToMilli } from './internal/resourceList.js';
import { defaultPodLevelResources } from './podLevelResources.js';
import { defaultPriorityClass, priorityValue, type PriorityClassLister } from './internal/priorityClassLister.js';

// The image reference grammar of github.com/distribution/reference (regexp.go), anchored.
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[a-fA-F0-9:]+\\])`;
const referencePattern = new RegExp(`^((?:${host}(?::[0-9]+)?/)?${pathComponent}(?:/${pathComponent})*)(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`);
const digestSizes: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

/**
 * The tag and digest of an image as `parsers.ParseImageName` reads it (`reference.ParseNormalizedNamed`),
 * or `undefined` when it does not parse (not lowercase, not the grammar, a name over 255 characters, a
 * 64-hex identifier, a digest of an unknown algorithm or the wrong length).
 */
function parseImageName(image: string): { tag: string; digest: string } | undefined {
  if (/^[a-f0-9]{64}$/.test(image)) return undefined;
  // splitDockerDomain: a first component without '.' or ':' that is not localhost and is lowercase is a path on docker.io.
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  const hasDomain = slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first);
  const remainder = hasDomain ? image.slice(slash + 1) : image;
  const colon = remainder.indexOf(':');
  const remoteName = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remoteName.toLowerCase() !== remoteName) return undefined;
  const full = `${hasDomain ? first : 'docker.io'}/${!hasDomain && !remainder.includes('/') ? 'library/' : ''}${remainder}`;
  const m = referencePattern.exec(full);
  if (m === null || m[1].length > 255) return undefined;
  const digest = m[3] ?? '';
  if (digest !== '') {
    const [algorithm, encoded] = digest.split(':');
    if (digestSizes[algorithm] !== encoded.length || !/^[a-f0-9]+$/.test(encoded)) return undefined;
  }
  return { tag: m[2] ?? '', digest };
}

/**
 * The pull policy the apiserver defaults (`SetDefaults_Container`): `Always` for a `latest` tag, or for
 * an image with neither tag nor digest (which `ParseImageName` reads as `latest`); else, and for an image
 * that does not parse, `IfNotPresent`.
 */
export function defaultPullPolicy(image: string): string {
  const parsed = parseImageName(image);
  if (parsed === undefined) return 'IfNotPresent';
  return parsed.tag === 'latest' || (parsed.tag === '' && parsed.digest === '') ? 'Always' : 'IfNotPresent';
}

function defaultContainers(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (!isObject(c)) continue;
    setDefault(c, 'terminationMessagePath', '/dev/termination-log');
    setDefault(c, 'terminationMessagePolicy', 'File');
    // An image that does not parse (an empty one) has no tag: IfNotPresent.
    setDefault(c, 'imagePullPolicy', typeof c.image === 'string' && c.image !== '' ? defaultPullPolicy(c.image) : 'IfNotPresent');
    setDefault(c, 'resources', {});
    // SetDefaults_ResourceList: quantities finer than thousandths rounded up to them.
    if (isObject(c.resources)) for (const list of ['limits', 'requests']) roundUpListToMilli(c.resources[list]);
    if (Array.isArray(c.ports)) for (const p of c.ports) if (isObject(p)) setDefault(p, 'protocol', 'TCP');
    for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (isObject(c[name])) defaultProbe(c[name]);
    if (isObject(c.lifecycle)) {
      for (const name of ['postStart', 'preStop']) {
        const handler = c.lifecycle[name];
        if (isObject(handler) && isObject(handler.httpGet)) defaultHTTPGet(handler.httpGet);
      }
    }
    if (Array.isArray(c.env)) {
      for (const e of c.env) if (isObject(e) && isObject(e.valueFrom) && isObject(e.valueFrom.fieldRef)) setDefault(e.valueFrom.fieldRef, 'apiVersion', 'v1');
    }
  }
}

/** `SetDefaults_Probe` (a zero is unset, as Go's int32 zero value), `SetDefaults_HTTPGetAction` and the gRPC service. */
function defaultProbe(probe: JSONObject): void {
  for (const [field, value] of [['timeoutSeconds', 1], ['periodSeconds', 10], ['successThreshold', 1], ['failureThreshold', 3]] as const) {
    if (probe[field] === 0) delete probe[field];
    setDefault(probe, field, value);
  }
  if (isObject(probe.httpGet)) defaultHTTPGet(probe.httpGet);
  // The generated defaults give a gRPC probe an empty service name.
  if (isObject(probe.grpc)) setDefault(probe.grpc, 'service', '');
}

/** `SetDefaults_HTTPGetAction`: path `/`, scheme `HTTP`. */
function defaultHTTPGet(action: JSONObject): void {
  setDefault(action, 'path', '/');
  setDefault(action, 'scheme', 'HTTP');
}

/** The volume sources whose files get a mode (`SetDefaults_*VolumeSource`: 0644, written as 420). */
const modedSources = ['configMap', 'secret', 'downwardAPI', 'projected'];

/** `SetDefaults_Volume` and the volume sources' defaults. */
function defaultVolumes(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const v of list) {
    if (!isObject(v)) continue;
    // A volume naming no source (or only null ones) is an emptyDir.
    if (Object.entries(v).every(([k, value]) => k === 'name' || value === null || value === undefined)) v.emptyDir = {};
    for (const source of modedSources) if (isObject(v[source])) setDefault(v[source], 'defaultMode', 420);
    if (isObject(v.hostPath)) setDefault(v.hostPath, 'type', '');
    // SetDefaults_ServiceAccountTokenProjection: an hour.
    if (isObject(v.projected) && Array.isArray(v.projected.sources)) {
      for (const source of v.projected.sources) {
        if (!isObject(source)) continue;
        if (isObject(source.serviceAccountToken)) setDefault(source.serviceAccountToken, 'expirationSeconds', 3600);
        if (isObject(source.downwardAPI)) defaultFieldRefs(source.downwardAPI.items);
      }
    }
    if (isObject(v.downwardAPI)) defaultFieldRefs(v.downwardAPI.items);
    const claim = valueAt(v, 'ephemeral', 'volumeClaimTemplate', 'spec', 'resources');
    if (isObject(claim)) for (const list of ['limits', 'requests']) roundUpListToMilli(claim[list]);
  }
}

/** `SetDefaults_ObjectFieldSelector` on downward API items: apiVersion `v1`. */
function defaultFieldRefs(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items) if (isObject(item) && isObject(item.fieldRef)) setDefault(item.fieldRef, 'apiVersion', 'v1');
}

/** `SetDefaults_PodSpec` and the container defaults, on a pod template. */
export function defaultPodTemplate(template: JSONObject): void {
  // A template's ObjectMeta is a struct, not a pointer: the apiserver always writes `metadata: {}`.
  childObject(template, 'metadata');
  defaultPodSpec(childObject(template, 'spec'));
}

/** `SetDefaults_PodSpec` with the container, probe, handler, field-reference and volume defaults. */
function defaultPodSpec(spec: JSONObject): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  defaultContainers(spec.containers);
  defaultContainers(spec.initContainers);
  defaultContainers(spec.ephemeralContainers);
  defaultVolumes(spec.volumes);
  roundUpListToMilli(spec.overhead);
  if (isObject(spec.resources)) for (const list of ['limits', 'requests']) roundUpListToMilli(spec.resources[list]);
  // Convert_v1_PodSpec_To_core_PodSpec and back: serviceAccount is the alias of serviceAccountName
  // (which wins when both are given), written as a copy of it.
  const named = typeof spec.serviceAccountName === 'string' && spec.serviceAccountName !== '' ? spec.serviceAccountName : spec.serviceAccount;
  if (typeof named === 'string' && named !== '') {
    spec.serviceAccountName = named;
    spec.serviceAccount = named;
  } else {
    delete spec.serviceAccountName;
    delete spec.serviceAccount;
  }
}

/** `SetDefaults_Pod` with the pod spec's and containers' defaults (a template's, plus what only a pod gets). */
export function defaultPod(pod: KubeObject): void {
  const spec = childObject(pod as JSONObject, 'spec');
  defaultPodSpec(spec);
  setDefault(spec, 'enableServiceLinks', true);
  // Convert_v1_Pod_To_core_Pod: a pod's negative grace period is 1 (a template's stays as given).
  const period = spec.terminationGracePeriodSeconds;
  if ((typeof period === 'number' || typeof period === 'bigint') && period < 0) spec.terminationGracePeriodSeconds = 1;
  // A limit without a request of the same resource requests the limit.
  for (const list of [spec.containers, spec.initContainers]) {
    if (Array.isArray(list)) for (const c of list) if (isObject(c) && isObject(c.resources)) requestLimits(c.resources);
  }
  // Then the pod-level resources' defaults, from the containers' (after theirs).
  defaultPodLevelResources(spec);
  // The container statuses' resources are rounded as the spec's are.
  const status = isObject(pod.status) ? pod.status : {};
  for (const list of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses']) {
    for (const cs of objects(status[list])) {
      roundUpListToMilli(cs.allocatedResources);
      if (isObject(cs.resources)) for (const l of ['limits', 'requests']) roundUpListToMilli(cs.resources[l]);
    }
  }
  // defaultHostNetworkPorts: on the host network a pod's ports are its host ports.
  if (spec.hostNetwork === true) {
    for (const list of [spec.containers, spec.initContainers]) {
      if (!Array.isArray(list)) continue;
      for (const c of list) {
        if (!isObject(c) || !Array.isArray(c.ports)) continue;
        for (const p of c.ports) if (isObject(p) && (p.hostPort === undefined || p.hostPort === null || p.hostPort === 0) && p.containerPort !== undefined) p.hostPort = p.containerPort;
      }
    }
  }
}

function requestLimits(resources: JSONObject): void {
  if (!isObject(resources.limits)) return;
  const requests = isObject(resources.requests) ? resources.requests : (resources.requests = {});
  // Resource names are the user's keys: set as own members (a `__proto__` key stays a key).
  for (const name of Object.keys(resources.limits)) if (!Object.hasOwn(requests, name)) setOwn(requests, name, resources.limits[name]);
}

/**
 * The `Priority` admission plugin on a pod being created: a pod that names a priority class gets its
 * value and preemption policy; one that names none gets the global default class (its name too), or
 * priority 0 and `PreemptLowerPriority` when there is none. A pod that names a class that is not stored,
 * or gives a priority or preemption policy other than the computed one, is forbidden.
 */
export function admitPodPriority(pod: KubeObject, classes: PriorityClassLister | undefined): void {
  const spec = childObject(pod as JSONObject, 'spec');
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  const forbidden = (why: string): KubeError => new KubeError('Forbidden', `pods ${JSON.stringify(pod.metadata.name ?? '')} is forbidden: ${why}`, { details: { name: pod.metadata.name ?? '', kind: 'pods' } });
  let priority = 0;
  // A class stored without a policy (none is: the defaults set one) leaves the pod's as it is.
  let policy: unknown = 'PreemptLowerPriority';
  if (className === '') {
    const chosen = classes === undefined ? undefined : defaultPriorityClass(classes);
    if (chosen === undefined) delete spec.priorityClassName;
    else {
      spec.priorityClassName = chosen.metadata.name ?? '';
      priority = priorityValue(chosen);
      policy = chosen.preemptionPolicy;
    }
  } else {
    const named = classes?.get(className);
    if (named === undefined) throw forbidden(`no PriorityClass with name ${className} was found`);
    priority = priorityValue(named);
    policy = named.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw forbidden(`the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
  }
  spec.priority = priority;
  if (typeof policy !== 'string') return;
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null && spec.preemptionPolicy !== policy) {
    throw forbidden(`the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
  }
  spec.preemptionPolicy = policy;
}

/**
 * The `Priority` admission plugin on a pod being updated: a pod that leaves out its priority or
 * preemption policy keeps the old one (other values are left to update validation, which refuses them).
 */
export function admitPodPriorityOnUpdate(pod: KubeObject, old: KubeObject): void {
  const spec = childObject(pod as JSONObject, 'spec');
  const before = isObject(old.spec) ? old.spec : {};
  for (const f of ['priority', 'preemptionPolicy']) {
    if ((spec[f] === undefined || spec[f] === null) && before[f] !== undefined && before[f] !== null) spec[f] = before[f];
  }
}

/** The taints the `DefaultTolerationSeconds` plugin tolerates for 300 s unless the pod tolerates them already. */
const defaultTolerated = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

/** The `DefaultTolerationSeconds` admission plugin on a pod being created or updated (not through a subresource). */
export function admitPodTolerations(pod: KubeObject): void {
  const spec = childObject(pod as JSONObject, 'spec');
  const tolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = defaultTolerated.filter((key) => !tolerations.some((t) => isObject(t) && (t.key === key || t.key === undefined || t.key === '') && (t.effect === 'NoExecute' || t.effect === undefined || t.effect === '')));
  if (added.length === 0) return;
  spec.tolerations = [...tolerations, ...added.map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }))];
}

/**
 * The status the pod strategy's `PrepareForCreate` gives a new pod: `Pending` with its QoS class, and
 * for a pod with scheduling gates the `PodScheduled=False` condition that says so
 * (`applySchedulingGatedCondition`; its transition time is the request's, as the creation timestamp is).
 */
export function initialPodStatus(pod: KubeObject): JSONObject {
  const status: JSONObject = { phase: 'Pending', qosClass: podQOSClass(pod) };
  const gates = isObject(pod.spec) ? pod.spec.schedulingGates : undefined;
  if (Array.isArray(gates) && gates.length > 0) {
    status.conditions = [{
      type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: pod.metadata.creationTimestamp ?? null,
      reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
    }];
  }
  return status;
}

/** The resources QoS is computed from. */
const qosResources = ['cpu', 'memory'];

/**
 * `GetPodQOS`: `BestEffort` when no container requests or limits CPU or memory, `Guaranteed` when
 * every container limits both and the requests equal the limits, `Burstable` otherwise (pod-level
 * resources, when given, decide alone).
 */
export function podQOSClass(pod: KubeObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const owners = isObject(spec.resources) && (isObject(spec.resources.requests) || isObject(spec.resources.limits))
    ? [spec.resources]
    : [spec.containers, spec.initContainers].flatMap((list) => (Array.isArray(list) ? list : [])).map((c) => (isObject(c) && isObject(c.resources) ? c.resources : {}));
  const requestTerms = new Map<string, Decimal[]>();
  const limitTerms = new Map<string, Decimal[]>();
  let guaranteed = true;
  for (const resources of owners) {
    add(requestTerms, resources.requests);
    const found = add(limitTerms, resources.limits);
    if (!qosResources.every((r) => found.has(r))) guaranteed = false;
  }
  const requests = sums(requestTerms);
  const limits = sums(limitTerms);
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && requests.size === limits.size && [...requests].every(([name, q]) => limits.get(name)?.compare(q) === 0)) return 'Guaranteed';
  return 'Burstable';
}

/** Collects the positive CPU and memory quantities of `list` into `terms` (as `GetPodQOS`: `Cmp(0) == 1`); returns the names found. */
function add(terms: Map<string, Decimal[]>, list: unknown): Set<string> {
  const found = new Set<string>();
  if (!isObject(list)) return found;
  for (const name of qosResources) {
    const q = quantityDecimal(list[name]);
    if (q === undefined || q.negative || q.digits === '') continue;
    let named = terms.get(name);
    if (named === undefined) terms.set(name, (named = []));
    named.push(Decimal.of(false, q.digits, q.exponent));
    found.add(name);
  }
  return found;
}

/**
 * Each resource's exact sum (a Decimal holds runs of digits, never 10^exponent written out), added in pairs:
 * a running sum copies its runs at every step, and terms of different exponents each add runs, so adding
 * 8,000 one after another took seconds; pairwise, each run is copied about log₂(terms) times.
 */
function sums(terms: Map<string, Decimal[]>): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  for (const [name, list] of terms) {
    let level = list;
    while (level.length > 1) {
      const next: Decimal[] = [];
      for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? level[i].add(level[i + 1]) : level[i]);
      level = next;
    }
    out.set(name, level[0]);
  }
  return out;
}
