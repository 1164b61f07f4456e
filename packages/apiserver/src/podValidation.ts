/**
 * Pod validation as kube-apiserver 1.34 runs it on a Pod (not a template): the checks of a create
 * ({@link validatePod}: annotations, the spec as `podSpecValidation.ts` checks it, what only pods are
 * held to; {@link validatePodCreate}) and the update rules ({@link validatePodUpdate}) that leave a
 * pod's spec immutable except for its container images, a shorter `activeDeadlineSeconds`, added
 * tolerations, removed scheduling gates and, while a pod is gated, added node selectors and node
 * affinity requirements.
 *
 * The apiserver compares its internal `PodSpec` after defaulting and admission, so a write that leaves
 * out a defaulted field changes nothing. Its refusal ends with a go-cmp diff of the internal types;
 * kubekit names the changed fields instead (the sentence before is the apiserver's).
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go (ValidatePodUpdate, ValidatePodSpecificAnnotationUpdates)
 * @see https://kubernetes.io/docs/concepts/workloads/pods/#pod-update-and-replacement
 */
import { FieldError, FieldPath, forbidden, invalid, required, trimSpace, type KubeObject } from '@kubekit/core';
import { cloneJSON, isObject, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { validatePodOnly, validatePodSpec, validateTolerations } from './podSpecValidation.js';
import { append, int64, list } from './internal/podFields.js';

const maxInt32 = 2147483647n;

/** `updatablePodSpecFields`: the sentence lists them in this order. */
const updatableFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';
const appArmorAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';

/** How many changed fields a refusal names at most (the rest are counted). */
const maxNamedChanges = 10;
/** How deep the changed-field walk descends before naming the whole subtree. */
const maxChangeDepth = 64;

function specOf(o: KubeObject): JSONObject {
  return isObject(o.spec) ? o.spec : {};
}

function annotationsOf(o: KubeObject): Record<string, string> {
  return isObject(o.metadata.annotations) ? o.metadata.annotations : {};
}

/** `ValidatePodSpecificAnnotations`: the mirror pod annotation needs a node (`path` is the annotations' path). */
export function validatePodSpecificAnnotations(annotations: unknown, spec: unknown, path: FieldPath): FieldError[] {
  const a = isObject(annotations) ? annotations : {};
  const nodeName = isObject(spec) ? spec.nodeName : undefined;
  if (Object.hasOwn(a, mirrorPodAnnotation) && (typeof nodeName !== 'string' || nodeName === '')) {
    return [invalid(path.key(mirrorPodAnnotation), a[mirrorPodAnnotation], 'must set spec.nodeName if mirror pod annotation is set')];
  }
  return [];
}

function validatePodAnnotations(pod: KubeObject): FieldError[] {
  return validatePodSpecificAnnotations(pod.metadata.annotations, pod.spec, FieldPath.root('metadata', 'annotations'));
}

/**
 * `validatePodMetadataAndSpec` after the object metadata: the pod's annotations, its spec
 * ({@link validatePodSpec}), and what only a Pod is held to (images without surrounding whitespace,
 * projected tokens only with a service account).
 */
export function validatePod(pod: KubeObject): FieldError[] {
  return [...validatePodAnnotations(pod), ...validatePodSpec(pod.spec, FieldPath.root('spec'), true), ...validatePodOnly(pod.spec, FieldPath.root('spec'))];
}

/** What `ValidatePodCreate` adds for a new pod: no ephemeral containers yet, no node while scheduling gates remain. */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const spec = specOf(pod);
  const errs: FieldError[] = [];
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '' && list(spec.schedulingGates).length > 0) {
    errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/**
 * `ValidatePodUpdate` after the checks it shares with a create ({@link validatePod}): the AppArmor and
 * mirror pod annotations are fixed, containers are neither added nor removed, and the spec changes
 * only where a running pod can follow.
 */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePodAnnotationUpdates(pod, old);
  const spec = specOf(pod);
  const oldSpec = specOf(old);
  for (const name of ['containers', 'initContainers']) {
    const stop = validateContainerUpdates(list(spec[name]), list(oldSpec[name]), FieldPath.root('spec', name), errs);
    if (stop) return errs;
  }
  // Set from none, or lowered to a non-negative value; never unset.
  const path = FieldPath.root('spec', 'activeDeadlineSeconds');
  const deadline = int64(spec.activeDeadlineSeconds);
  const oldDeadline = int64(oldSpec.activeDeadlineSeconds);
  if (deadline !== undefined) {
    if (deadline < 0n || deadline > maxInt32) {
      errs.push(invalid(path, spec.activeDeadlineSeconds, `must be between 0 and ${maxInt32}, inclusive`));
      return errs;
    }
    if (oldDeadline !== undefined && oldDeadline < deadline) {
      errs.push(invalid(path, spec.activeDeadlineSeconds, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (oldDeadline !== undefined) {
    errs.push(invalid(path, null, 'must not update from a positive integer to nil value'));
  }
  const tolerationErrs = validateOnlyAddedTolerations(list(spec.tolerations), list(oldSpec.tolerations));
  append(errs, tolerationErrs);
  // Once every old toleration is still there, the list is validated again (as on a create).
  if (tolerationErrs.length === 0) append(errs, validateTolerations(list(spec.tolerations), FieldPath.root('spec', 'tolerations')));
  append(errs, validateOnlyDeletedSchedulingGates(list(spec.schedulingGates), list(oldSpec.schedulingGates)));

  const before = comparable(oldSpec);
  const after = comparable(spec);
  if (semanticEqual(after, before)) return errs;
  append(errs, mungeMutableFields(after, before));
  if (!semanticEqual(after, before)) {
    const changed = changedFields(before, after);
    const named = changed.length > maxNamedChanges ? [...changed.slice(0, maxNamedChanges), `and ${changed.length - maxNamedChanges} more`] : changed;
    errs.push(forbidden('spec', `pod updates may not change fields other than ${updatableFields.join(',')}\n(changed: ${named.join(', ')})`));
  }
  return errs;
}

/**
 * `ValidatePodSpecificAnnotationUpdates`: AppArmor and mirror pod annotations are neither added,
 * changed nor removed, and the annotations are checked as on a create (for the pod and its status).
 */
export function validatePodAnnotationUpdates(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const now = annotationsOf(pod);
  const before = annotationsOf(old);
  const path = FieldPath.root('metadata', 'annotations');
  for (const k of Object.keys(before)) {
    if (Object.hasOwn(now, k) && now[k] === before[k]) continue;
    if (k.startsWith(appArmorAnnotationPrefix)) errs.push(forbidden(path.key(k), 'may not remove or update AppArmor annotations'));
    if (k === mirrorPodAnnotation) errs.push(forbidden(path.key(k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(now)) {
    if (Object.hasOwn(before, k)) continue;
    if (k.startsWith(appArmorAnnotationPrefix)) errs.push(forbidden(path.key(k), 'may not add AppArmor annotations'));
    if (k === mirrorPodAnnotation) errs.push(forbidden(path.key(k), 'may not add mirror pod annotation'));
  }
  return [...errs, ...validatePodAnnotations(pod)];
}

/** `ValidateContainerUpdates`; true when the list's length changed (nothing else is checked then). */
function validateContainerUpdates(containers: unknown[], old: unknown[], path: FieldPath, errs: FieldError[]): boolean {
  if (containers.length !== old.length) {
    errs.push(forbidden(path, 'pod updates may not add or remove containers'));
    return true;
  }
  containers.forEach((c, i) => {
    const image = isObject(c) && typeof c.image === 'string' ? c.image : '';
    if (image === '') errs.push(required(path.index(i).child('image'), ''));
    if (trimSpace(image) !== image) errs.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return false;
}

/** A toleration without its `tolerationSeconds`, which an update may change. */
function withoutSeconds(t: unknown): unknown {
  if (!isObject(t)) return t;
  const { tolerationSeconds: _seconds, ...rest } = t;
  return rest;
}

/** `validateOnlyAddedTolerations`: every existing toleration is still there, up to its `tolerationSeconds`. */
function validateOnlyAddedTolerations(tolerations: unknown[], old: unknown[]): FieldError[] {
  const now = tolerations.map(withoutSeconds);
  for (const t of old) {
    const kept = withoutSeconds(t);
    if (!now.some((n) => semanticEqual(n, kept))) return [forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** `validateOnlyDeletedSchedulingGates`: no gate the pod did not have (each new name at its last index). */
function validateOnlyDeletedSchedulingGates(gates: unknown[], old: unknown[]): FieldError[] {
  const nameOf = (g: unknown): string => (isObject(g) && typeof g.name === 'string' ? g.name : '');
  const added = new Map<string, number>();
  gates.forEach((g, i) => added.set(nameOf(g), i));
  for (const g of old) added.delete(nameOf(g));
  return [...added].sort((a, b) => a[1] - b[1])
    .map(([name, i]) => forbidden(FieldPath.root('spec', 'schedulingGates').index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/**
 * A spec as the internal `PodSpec` holds it: `serviceAccount` is only the v1 alias of
 * `serviceAccountName` (which wins when both are given).
 */
function comparable(spec: JSONObject): JSONObject {
  const copy = cloneJSON(spec);
  const alias = copy.serviceAccount;
  delete copy.serviceAccount;
  if ((copy.serviceAccountName === undefined || copy.serviceAccountName === '') && typeof alias === 'string' && alias !== '') copy.serviceAccountName = alias;
  return copy;
}

function setOrDelete(o: JSONObject, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = cloneJSON(value);
}

/**
 * Puts the old values of the fields an update may change into `spec` (the munging before
 * `ValidatePodUpdate`'s final comparison); returns the errors of a gated pod's node selection changes.
 */
function mungeMutableFields(spec: JSONObject, old: JSONObject): FieldError[] {
  for (const name of ['containers', 'initContainers']) {
    const before = list(old[name]);
    list(spec[name]).forEach((c, i) => {
      if (isObject(c)) setOrDelete(c, 'image', isObject(before[i]) ? before[i].image : undefined);
    });
  }
  for (const f of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) setOrDelete(spec, f, old[f]);
  // A period stored negative (before pods' conversion made it 1) may become 1.
  const period = int64(old.terminationGracePeriodSeconds);
  if (period !== undefined && period < 0n && int64(spec.terminationGracePeriodSeconds) === 1n) spec.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  return list(old.schedulingGates).length > 0 ? mungeGatedNodeSelection(spec, old) : [];
}

/** A gated pod may add node selectors and node affinity requirements (validateNodeSelectorMutation, validateNodeAffinityMutation). */
function mungeGatedNodeSelection(spec: JSONObject, old: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(spec.nodeSelector, old.nodeSelector)) {
    const now = isObject(spec.nodeSelector) ? spec.nodeSelector : {};
    const before = isObject(old.nodeSelector) ? old.nodeSelector : {};
    if (Object.keys(before).some((k) => !Object.hasOwn(now, k) || now[k] !== before[k])) {
      errs.push(invalid('spec.nodeSelector', isObject(spec.nodeSelector) ? spec.nodeSelector : null, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)'));
    }
    setOrDelete(spec, 'nodeSelector', old.nodeSelector);
  }
  const oldAffinity = isObject(old.affinity) ? old.affinity : undefined;
  const oldNodeAffinity = oldAffinity?.nodeAffinity;
  const affinity = isObject(spec.affinity) ? spec.affinity : undefined;
  const nodeAffinity = affinity?.nodeAffinity;
  if (!semanticEqual(oldNodeAffinity, nodeAffinity)) {
    append(errs, validateNodeAffinityMutation(nodeAffinity, oldNodeAffinity));
    if (affinity === undefined) {
      if (oldNodeAffinity !== undefined) spec.affinity = { nodeAffinity: cloneJSON(oldNodeAffinity) };
    } else if (oldAffinity === undefined && affinity.podAffinity === undefined && affinity.podAntiAffinity === undefined) {
      delete spec.affinity;
    } else {
      setOrDelete(affinity, 'nodeAffinity', oldNodeAffinity);
    }
  }
  return errs;
}

/** A node selector term printed as the internal Go type (field names, nil lists as null). */
function internalTerm(term: unknown): unknown {
  const t = isObject(term) ? term : {};
  const requirements = (v: unknown): unknown => (Array.isArray(v)
    ? v.map((r) => {
      const q = isObject(r) ? r : {};
      return { Key: q.key ?? '', Operator: q.operator ?? '', Values: Array.isArray(q.values) ? q.values : null };
    })
    : null);
  return { MatchExpressions: requirements(t.matchExpressions), MatchFields: requirements(t.matchFields) };
}

function requiredTerms(nodeAffinity: unknown): unknown[] | undefined {
  const r = isObject(nodeAffinity) ? nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution : undefined;
  if (!isObject(r)) return undefined;
  return Array.isArray(r.nodeSelectorTerms) ? r.nodeSelectorTerms : [];
}

function validateNodeAffinityMutation(nodeAffinity: unknown, old: unknown): FieldError[] {
  const oldTerms = requiredTerms(old);
  // No required terms before: anything may be set.
  if (oldTerms === undefined) return [];
  const terms = requiredTerms(nodeAffinity);
  const path = FieldPath.root('spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
  const now = terms ?? [];
  if (oldTerms.length > 0 && oldTerms.length !== now.length) {
    return [invalid(path, terms === undefined ? null : terms.map(internalTerm), 'no additions/deletions to non-empty NodeSelectorTerms list are allowed')];
  }
  const errs: FieldError[] = [];
  oldTerms.forEach((t, i) => {
    if (!termHasOnlyAdditions(now[i], t)) errs.push(invalid(path.index(i), internalTerm(now[i]), 'only additions are allowed (no mutations or deletions)'));
  });
  return errs;
}

/** `validateNodeSelectorTermHasOnlyAdditions`: the old requirements lead the new lists unchanged. */
function termHasOnlyAdditions(term: unknown, old: unknown): boolean {
  const t = isObject(term) ? term : {};
  const o = isObject(old) ? old : {};
  const [expressions, fields, oldExpressions, oldFields] = [t.matchExpressions, t.matchFields, o.matchExpressions, o.matchFields].map(list);
  if (oldExpressions.length === 0 && oldFields.length === 0 && (expressions.length > 0 || fields.length > 0)) return false;
  for (const [now, before] of [[expressions, oldExpressions], [fields, oldFields]]) {
    if (before.length === 0) continue;
    if (now.length < before.length || !semanticEqual(now.slice(0, before.length), before)) return false;
  }
  return true;
}

/** The pod spec's maps (their keys are data, printed as `[key]`). */
const mapFields = new Set(['nodeSelector', 'overhead', 'limits', 'requests', 'volumeAttributes', 'options', 'matchLabels']);

/** The paths (below `spec`) where `b` differs from `a`: members of objects, items of equally long lists. */
function changedFields(a: unknown, b: unknown): string[] {
  const out: string[] = [];
  const walk = (x: unknown, y: unknown, path: FieldPath, depth: number, map = false): void => {
    if (semanticEqual(x, y)) return;
    if (depth < maxChangeDepth && isObject(x) && isObject(y)) {
      const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
      for (const k of keys) walk(Object.hasOwn(x, k) ? x[k] : undefined, Object.hasOwn(y, k) ? y[k] : undefined, map ? path.key(k) : path.child(k), depth + 1, !map && mapFields.has(k));
      return;
    }
    if (depth < maxChangeDepth && Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      x.forEach((item, i) => walk(item, y[i], path.index(i), depth + 1));
      return;
    }
    out.push(path.toString());
  };
  walk(a, b, FieldPath.root('spec'), 0);
  return out;
}
