/**
 * The `pods/ephemeralcontainers` subresource, as kube-apiserver 1.34 serves it (`kubectl debug` writes
 * there): a GET reads the Pod; an update or patch changes nothing but `spec.ephemeralContainers`
 * (`dropNonEphemeralContainerUpdates`: the rest of the spec, the status and the metadata stay as
 * stored), and is validated as `ValidatePodEphemeralContainersUpdate` does — the whole pod as on a
 * create, and existing ephemeral containers neither removed nor changed.
 *
 * The apiserver ends a "may not be changed" refusal with a go-cmp diff of its internal types; kubekit
 * names the changed fields instead.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/pod/strategy.go (podEphemeralContainersStrategy)
 * @see https://kubernetes.io/docs/concepts/workloads/pods/ephemeral-containers/
 */
import { FieldPath, forbidden, goQuote, type FieldError, type KubeObject } from '@kubekit/core';
import { assignOwn, childObject, cloneJSON, getOwn, isObject, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { list, str } from './internal/podFields.js';
import { validatePod, validatePodAnnotationUpdates } from './podValidation.js';

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/** Everything of the stored pod but its ephemeral containers, which come from the request. */
export function prepareEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): void {
  const ephemeral = isObject(pod.spec) ? pod.spec.ephemeralContainers : undefined;
  const resourceVersion = pod.metadata.resourceVersion;
  for (const k of Object.keys(pod)) delete (pod as JSONObject)[k];
  assignOwn(pod as JSONObject, cloneJSON(old as JSONObject));
  pod.metadata = { ...old.metadata, resourceVersion };
  const spec = childObject(pod as JSONObject, 'spec');
  if (ephemeral === undefined || ephemeral === null) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = ephemeral;
}

/** `ValidatePodEphemeralContainersUpdate`, given the errors of `ValidateObjectMetaUpdate`. */
export function validateEphemeralContainersUpdate(pod: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const errs = [...meta, ...validatePod(pod), ...validatePodAnnotationUpdates(pod, old)];
  const annotations = isObject(old.metadata.annotations) ? old.metadata.annotations : {};
  if (Object.hasOwn(annotations, mirrorPodAnnotation)) return [forbidden(FieldPath.empty(), 'static pods do not support ephemeral containers')];
  const now = new Map<string, JSONObject>();
  for (const c of list(isObject(pod.spec) ? pod.spec.ephemeralContainers : undefined)) if (isObject(c)) now.set(str(c.name), c);
  const path = FieldPath.root('spec', 'ephemeralContainers');
  for (const c of list(isObject(old.spec) ? old.spec.ephemeralContainers : undefined)) {
    if (!isObject(c)) continue;
    const name = str(c.name);
    const current = now.get(name);
    if (current === undefined) errs.push(forbidden(path, `existing ephemeral containers ${goQuote(name)} may not be removed\n`));
    else if (!semanticEqual(current, c)) errs.push(forbidden(path, `existing ephemeral containers ${goQuote(name)} may not be changed\n(changed: ${changedMembers(c, current).join(', ')})`));
  }
  return errs;
}

/** The members of a container that differ, in key order. */
function changedMembers(a: JSONObject, b: JSONObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().filter((k) => !semanticEqual(getOwn(a, k), getOwn(b, k)));
}
