/**
 * The `pods/resize` subresource, as kube-apiserver 1.34 serves it (InPlacePodVerticalScaling is on by
 * default there; `kubectl patch pod p --subresource resize` writes to it). A GET reads the Pod; an update or
 * patch changes only the `resources` and `resizePolicy` of the containers and init containers
 * (`dropNonResizeUpdates`: the rest of the spec and the status stay as stored, the metadata as
 * `ResetObjectMetaForStatus` leaves it), and is validated as `ValidatePodResize` does: the pod as on a
 * create, then no pod-level resources, no static or Windows pod, the same QoS class, a node that
 * reports its containers' resources, the containers neither added, removed, renamed nor reordered, no
 * request or limit removed, and nothing but CPU and memory changed (a non-sidecar init container's
 * resources not at all).
 *
 * The LimitRanger and ResourceQuota admission plugins look at a resize as at a new pod (limitRanger.ts,
 * quotaEvaluators.ts).
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/pod/strategy.go (podResizeStrategy)
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go (ValidatePodResize)
 * @see https://kubernetes.io/docs/tasks/configure-pod-container/resize-container-resources/
 */
import { FieldPath, forbidden, invalid, type FieldError, type KubeObject } from '@kubekit/core';
import { cloneJSON, isObject, setOwn, type JSONObject } from './internal/own.js';
import { deepEqual } from './internal/deepEqual.js';
import { list, str } from './internal/podFields.js';
import { resetObjectMetaForStatus } from './objectMeta.js';
import { podQOSClass } from './podDefaults.js';
import { validatePod } from './podValidation.js';

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const cpuAndMemory = ['cpu', 'memory'];

function specOf(pod: KubeObject): JSONObject {
  return isObject(pod.spec) ? pod.spec : {};
}

/**
 * The stored containers with the request's `resources` and `resizePolicy`, or the request's containers
 * as they are when one was renamed or moved (`dropNonResizeUpdatesForContainers`: validation refuses those).
 */
function resizedContainers(now: unknown[], old: unknown[]): unknown[] {
  const out = old.map((c) => cloneJSON(c));
  for (let i = 0; i < now.length; i++) {
    const c = now[i];
    const merged = out[i];
    if (!isObject(c) || !isObject(merged) || str(c.name) !== str(merged.name)) return now;
    merged.resources = isObject(c.resources) ? c.resources : {};
    if (c.resizePolicy === undefined || c.resizePolicy === null) delete merged.resizePolicy;
    else merged.resizePolicy = c.resizePolicy;
  }
  return out;
}

/** `dropNonResizeUpdates`: everything of the stored pod but its containers' resources and resize policies. */
export function prepareResizeUpdate(pod: KubeObject, old: KubeObject): void {
  const spec = specOf(pod);
  const oldSpec = specOf(old);
  const containers = list(spec.containers);
  const init = list(spec.initContainers);
  // A container added or removed: the request stands as it is, for validation to refuse.
  if (containers.length !== list(oldSpec.containers).length || init.length !== list(oldSpec.initContainers).length) return;
  const next = cloneJSON(oldSpec);
  if (containers.length > 0) next.containers = resizedContainers(containers, list(oldSpec.containers));
  if (init.length > 0) next.initContainers = resizedContainers(init, list(oldSpec.initContainers));
  pod.spec = next;
  if (old.status === undefined) delete pod.status;
  else pod.status = cloneJSON(old.status);
  resetObjectMetaForStatus(pod.metadata, old.metadata);
}

/** Whether a pod sets pod-level requests or limits. */
function podLevelResources(pod: KubeObject): boolean {
  const r = specOf(pod).resources;
  if (!isObject(r)) return false;
  const count = (v: unknown): number => (isObject(v) ? Object.keys(v).length : 0);
  return count(r.requests) + count(r.limits) > 0;
}

/** `isPodResizeRequestSupported`: the first running container's status reports its resources (or none runs). */
function nodeSupportsResize(pod: KubeObject): boolean {
  const status = isObject(pod.status) ? pod.status : {};
  for (const c of list(status.containerStatuses)) {
    if (!isObject(c)) continue;
    const running = isObject(c.state) ? c.state.running : undefined;
    if (running !== undefined && running !== null) return c.resources !== undefined && c.resources !== null;
  }
  return true;
}

function resources(c: unknown): JSONObject {
  return isObject(c) && isObject(c.resources) ? c.resources : {};
}

function names(v: unknown): string[] {
  return isObject(v) ? Object.keys(v) : [];
}

/** `validateContainerResize`: no request or limit that was there is gone. */
function validateContainerResize(now: unknown, old: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const a = resources(now);
  const b = resources(old);
  const removed = (key: 'requests' | 'limits'): boolean => {
    const had = names(b[key]);
    const has = new Set(names(a[key]));
    return had.length > has.size || had.some((n) => !has.has(n));
  };
  if (removed('requests')) errs.push(forbidden(path.child('requests'), 'resource requests cannot be removed'));
  if (removed('limits')) errs.push(forbidden(path.child('limits'), 'resource limits cannot be removed'));
  return errs;
}

/**
 * `dropCPUMemoryResourcesFromContainer`: the container with the old CPU and memory in its requests and
 * limits (none where the old container had no such list), and nothing else of its resources (claims go).
 */
function withOldCPUAndMemory(c: unknown, old: unknown): unknown {
  if (!isObject(c)) return c;
  const now = resources(c);
  const before = resources(old);
  const munge = (list: unknown, oldList: unknown): JSONObject | undefined => {
    if (!isObject(oldList)) return undefined;
    const out: JSONObject = isObject(list) ? cloneJSON(list) : {};
    for (const name of cpuAndMemory) {
      delete out[name];
      if (Object.hasOwn(oldList, name)) out[name] = oldList[name];
    }
    return out;
  };
  const next: JSONObject = {};
  const limits = munge(now.limits, before.limits);
  const requests = munge(now.requests, before.requests);
  if (limits !== undefined) next.limits = limits;
  if (requests !== undefined) next.requests = requests;
  return { ...c, resources: next };
}

/**
 * Go's `Semantic.DeepEqual` of decoded JSON where it is used here: an empty list or map, an empty
 * `resources` and `null` are as none. (A pointer to an empty struct is not nil in Go; the containers
 * compared here differ at most in their resources and resize policy, where no such pointer is.)
 */
function semanticEqual(a: unknown, b: unknown): boolean {
  return deepEqual(withoutEmpty(a), withoutEmpty(b));
}

function withoutEmpty(v: unknown): unknown {
  if (v === null) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(withoutEmpty);
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const [k, x] of Object.entries(v)) {
    const y = withoutEmpty(x);
    // Keys come from the request (a resource named `__proto__`): set as own members.
    if (y !== undefined) setOwn(out, k, y);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function isSidecar(c: unknown): boolean {
  return isObject(c) && c.restartPolicy === 'Always';
}

/** `validatePodResizeContainerOrdering`. */
function validateOrdering(pod: KubeObject, old: KubeObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers'] as const) {
    const now = list(specOf(pod)[key]);
    const before = list(specOf(old)[key]);
    if (now.length !== before.length) {
      errs.push(forbidden(path.child(key), `${key} may not be added or removed on resize`));
      continue;
    }
    before.forEach((c, i) => {
      if (str(isObject(now[i]) ? now[i].name : undefined) !== str(isObject(c) ? c.name : undefined)) {
        errs.push(forbidden(path.child(key).index(i).child('name'), `${key} may not be renamed or reordered on resize`));
      }
    });
  }
  return errs;
}

/** `ValidatePodResize`, given the errors of `ValidateObjectMetaUpdate`. */
export function validateResizeUpdate(pod: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const errs = [...meta, ...validatePod(pod)];
  if (podLevelResources(old) || podLevelResources(pod)) return [forbidden(FieldPath.empty(), 'pods with pod-level resources cannot be resized')];
  const annotations = isObject(old.metadata.annotations) ? old.metadata.annotations : {};
  if (Object.hasOwn(annotations, mirrorPodAnnotation)) return [forbidden(FieldPath.empty(), 'static pods cannot be resized')];
  const os = specOf(old).os;
  if (isObject(os) && os.name === 'windows') return [forbidden(FieldPath.empty(), 'windows pods cannot be resized')];

  const spec = FieldPath.root('spec');
  const oldStatus = isObject(old.status) ? old.status : {};
  const oldQOS = str(oldStatus.qosClass) !== '' ? str(oldStatus.qosClass) : podQOSClass(old);
  if (oldQOS !== podQOSClass(pod)) {
    const status = isObject(pod.status) ? pod.status : {};
    errs.push(invalid(spec, str(status.qosClass), 'Pod QOS Class may not change as a result of resizing'));
  }
  if (!nodeSupportsResize(old)) errs.push(forbidden(spec, 'Pod running on node without support for resize'));
  const ordering = validateOrdering(pod, old, spec);
  if (ordering.length > 0) return [...errs, ...ordering];

  const containers = list(specOf(pod).containers);
  const init = list(specOf(pod).initContainers);
  const oldContainers = list(specOf(old).containers);
  const oldInit = list(specOf(old).initContainers);
  oldInit.forEach((c, i) => {
    if (isSidecar(c)) errs.push(...validateContainerResize(init[i], c, spec.child('initContainers').index(i).child('resources')));
  });
  oldContainers.forEach((c, i) => errs.push(...validateContainerResize(containers[i], c, spec.child('containers').index(i).child('resources'))));

  const mungedContainers = containers.map((c, i) => {
    const munged = withOldCPUAndMemory(c, oldContainers[i]);
    if (!semanticEqual(munged, oldContainers[i])) errs.push(forbidden(spec, 'only cpu and memory resources are mutable'));
    return munged;
  });
  const mungedInit = init.map((c, i) => {
    if (!isSidecar(c)) {
      if (!semanticEqual(c, oldInit[i])) errs.push(forbidden(spec, 'resources for non-sidecar init containers are immutable'));
      return c;
    }
    const munged = withOldCPUAndMemory(c, oldInit[i]);
    if (!semanticEqual(munged, oldInit[i])) errs.push(forbidden(spec, 'only cpu and memory resources for sidecar containers are mutable'));
    return munged;
  });
  if (errs.length > 0) return errs;
  const munged: JSONObject = { ...specOf(pod) };
  if (containers.length > 0) munged.containers = mungedContainers;
  if (init.length > 0) munged.initContainers = mungedInit;
  if (!semanticEqual(munged, specOf(old))) errs.push(forbidden(spec, 'only cpu and memory resources are mutable'));
  return errs;
}
