/**
 * `validatePodResources` of kube-apiserver 1.34.4 (pkg/apis/core/validation), run on every pod spec while
 * the PodLevelResources feature is on (beta, on by default in 1.34): a pod's `spec.resources` is refused on
 * a Windows pod, may not have claims, names only CPU, memory and hugepages, and
 * (`validatePodResourceConsistency`) requests at least what its containers request together
 * (`AggregateContainerRequests`: the containers' sum, at least each init container's with the sidecars
 * started before it), hugepages limits at least the containers' together, and limits at least each
 * container's own.
 *
 * Go walks the resource lists in no fixed order; kubekit walks each in key order. The claims a pod-level
 * `resources.claims` names are not looked up (the apiserver also reports each one missing from
 * `spec.resourceClaims`).
 *
 * @see https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/#pod-level-resource-specification
 */
import { FieldPath, forbidden, invalid, type FieldError, type KubeObject } from '@kubekit/core';
import { isObject, setOwn, type JSONObject } from './internal/own.js';
import { list } from './internal/podFields.js';
import { amountText, compareAmounts, resourceList } from './internal/resourceList.js';
import { podResourceTotals } from './limitRanger.js';
import { isHugePages, podResourceNameErrors, validateResourceRequirements } from './podResources.js';

/** `IsSupportedPodLevelResource`: CPU, memory and hugepages. */
const supportedPodLevel = (name: string): boolean => name === 'cpu' || name === 'memory' || isHugePages(name);

/** A pod with its containers only: what `AggregateContainerRequests`/`Limits` add up (no pod-level values). */
const containersOnly = (spec: JSONObject): KubeObject => ({ metadata: {}, spec: { ...spec, resources: undefined } }) as unknown as KubeObject;

/** A resource list with its names in order, as Go writes a map. */
function sortedList(list: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const name of Object.keys(list).sort()) setOwn(out, name, list[name]);
  return out;
}

/**
 * `defaultHugePagePodLimits`, then `defaultPodRequests` (SetDefaults_Pod, after the containers' defaults, while
 * PodLevelResources is on): where the pod sets pod-level resources, a hugepages limit it leaves out (and does
 * not request) is the containers' together; where it sets limits, a CPU or memory request it leaves out is
 * the containers' requests together, else (no container requests it) any request left out is its limit.
 */
export function defaultPodLevelResources(spec: JSONObject): void {
  if (!isObject(spec.resources)) return;
  const resources = spec.resources;
  const limits = isObject(resources.limits) ? resources.limits : {};
  const requests = isObject(resources.requests) ? resources.requests : {};
  if (Object.keys(limits).length > 0 || Object.keys(requests).length > 0) {
    const podLimits: JSONObject = { ...limits };
    for (const [name, total] of podResourceTotals(containersOnly(spec), 'limits')) {
      if (!isHugePages(name) || Object.hasOwn(requests, name) || Object.hasOwn(podLimits, name)) continue;
      setOwn(podLimits, name, amountText(total));
    }
    if (Object.keys(podLimits).length > 0) resources.limits = sortedList(podLimits);
  }
  const withLimits = isObject(resources.limits) ? resources.limits : {};
  if (Object.keys(withLimits).length === 0) return;
  const podRequests: JSONObject = { ...requests };
  for (const [name, total] of podResourceTotals(containersOnly(spec), 'requests')) {
    // IsOvercommitAllowed: native resources other than hugepages.
    if (!Object.hasOwn(podRequests, name) && supportedPodLevel(name) && !isHugePages(name)) setOwn(podRequests, name, amountText(total));
  }
  for (const [name, limit] of Object.entries(withLimits)) {
    if (!Object.hasOwn(podRequests, name) && supportedPodLevel(name)) setOwn(podRequests, name, limit);
  }
  if (Object.keys(podRequests).length > 0) resources.requests = sortedList(podRequests);
}

/** The errors of a pod spec's pod-level resources at `path` (the spec's path). */
export function validatePodResources(spec: JSONObject, path: FieldPath): FieldError[] {
  if (spec.resources === undefined || spec.resources === null) return [];
  const resourcesPath = path.child('resources');
  // No detail for a Windows pod, which may not set the field at all.
  if (isObject(spec.os) && spec.os.name === 'windows') return [forbidden(resourcesPath, 'may not be set for a windows pod')];
  const resources = isObject(spec.resources) ? spec.resources : {};
  const errs: FieldError[] = [];
  if (resources.claims !== undefined && resources.claims !== null) errs.push(forbidden(resourcesPath.child('claims'), 'claims may not be set for Resources at pod-level'));
  errs.push(...validateResourceRequirements(resources, resourcesPath, podResourceNameErrors));
  errs.push(...validateConsistency(spec, resources, resourcesPath));
  return errs;
}

/** `validatePodResourceConsistency`. */
function validateConsistency(spec: JSONObject, resources: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  // The containers' aggregate alone: the pod-level values are not part of it.
  const podRequests = resourceList(resources.requests);
  for (const [name, total] of podResourceTotals(containersOnly(spec), 'requests')) {
    const own = podRequests.get(name);
    if (own !== undefined && compareAmounts(total, own) > 0) {
      errs.push(invalid(path.child('requests').key(name), amountText(own), `must be greater than or equal to aggregate container requests of ${amountText(total)}`));
    }
  }
  // Hugepages cannot be overcommitted: the pod's limit covers the containers' together.
  const podLimits = resourceList(resources.limits);
  for (const [name, total] of podResourceTotals(containersOnly(spec), 'limits')) {
    const own = podLimits.get(name);
    if (isHugePages(name) && own !== undefined && compareAmounts(total, own) > 0) {
      errs.push(invalid(path.child('limits').key(name), amountText(own), `must be greater than or equal to aggregate container limits of ${amountText(total)}`));
    }
  }
  list(spec.containers).forEach((c, i) => {
    const limits = isObject(c) && isObject(c.resources) ? c.resources.limits : undefined;
    for (const [name, limit] of resourceList(limits)) {
      const own = podLimits.get(name);
      if (own !== undefined && compareAmounts(limit, own) > 0) {
        errs.push(invalid(path.child('containers').index(i).key(name).child('limits'), amountText(limit), `must be less than or equal to pod limits of ${amountText(own)}`));
      }
    }
  });
  return errs;
}
