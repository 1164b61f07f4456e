/**
 * node.k8s.io/v1 RuntimeClasses, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/node/runtimeclass (cluster-scoped, no generation, no defaults, a PUT may create, an update
 * needs a resourceVersion), `ValidateRuntimeClass` on every write and `ValidateRuntimeClassUpdate` on
 * update (pkg/apis/node/validation), `GetWarningsForRuntimeClass` (deprecated node labels in the
 * scheduling node selector) and the Table of printRuntimeClass. What the `RuntimeClass` admission plugin
 * does to pods is in runtimeClassAdmission.ts.
 *
 * Go walks `overhead.podFixed` and `scheduling.nodeSelector` in no fixed order; kubekit walks each in key order.
 *
 * @see https://kubernetes.io/docs/concepts/containers/runtime-class/
 */
import { FieldError, FieldPath, goJSON, invalid, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { isObject, str, type JSONObject } from './internal/own.js';
import { isDNS1123Label, validateLabels } from './internal/semantics.js';
import { validateResourceRequirements } from './podResources.js';
import { validateTolerations } from './podSpecValidation.js';
import { deprecatedNodeLabels } from './podWarnings.js';

/** `ValidateRuntimeClass` past its metadata: the handler a DNS label, the overhead as a container's limits, the scheduling rules. */
function validateRuntimeClass(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const handler = str(o.handler);
  for (const msg of isDNS1123Label(handler)) errs.push(invalid('handler', handler, msg));
  // validateOverhead: ValidateContainerResourceRequirements of {Limits: podFixed}, at `overhead` (not `overhead.podFixed`).
  if (isObject(o.overhead)) errs.push(...validateResourceRequirements({ limits: o.overhead.podFixed }, FieldPath.root('overhead')));
  if (isObject(o.scheduling)) errs.push(...validateScheduling(o.scheduling));
  return errs;
}

/**
 * `validateScheduling`: the node selector's labels, then the tolerations, which `ValidateTolerations` reports
 * under `scheduling.tolerations.tolerations` (upstream adds the child twice) and the duplicate check under
 * `scheduling.tolerations`.
 */
function validateScheduling(scheduling: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('scheduling');
  if (isObject(scheduling.nodeSelector)) errs.push(...validateLabels(scheduling.nodeSelector as Record<string, string>, path.child('nodeSelector')));
  const tolerations = Array.isArray(scheduling.tolerations) ? scheduling.tolerations : [];
  errs.push(...validateTolerations(tolerations, path.child('tolerations', 'tolerations')));
  // Unique by key, operator, value and effect; the duplicate is printed as the Go struct, seconds included.
  const seen = new Set<string>();
  tolerations.forEach((t, i) => {
    const o = isObject(t) ? t : {};
    const listKey = JSON.stringify([str(o.key), str(o.operator), str(o.value), str(o.effect)]);
    if (!seen.has(listKey)) {
      seen.add(listKey);
      return;
    }
    const seconds = typeof o.tolerationSeconds === 'number' ? o.tolerationSeconds : null;
    const value = { Key: str(o.key), Operator: str(o.operator), Value: str(o.value), Effect: str(o.effect), TolerationSeconds: seconds };
    // Printed as json.Marshal prints the struct: its members in declaration order.
    const text = `{${Object.entries(value).map(([k, v]) => `"${k}":${goJSON(v)}`).join(',')}}`;
    errs.push(new FieldError('FieldValueDuplicate', path.child('tolerations').index(i), value, '', text));
  });
  return errs;
}

/** `ValidateRuntimeClassUpdate` past its metadata: the handler never changes. */
function validateRuntimeClassUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  return str(o.handler) === str(old.handler) ? [] : [invalid('handler', str(o.handler), 'field is immutable')];
}

/** `GetWarningsForRuntimeClass`: each deprecated node label of the scheduling node selector. */
function runtimeClassWarnings(o: KubeObject): string[] {
  const selector = isObject(o.scheduling) && isObject(o.scheduling.nodeSelector) ? o.scheduling.nodeSelector : {};
  return Object.keys(selector).filter((k) => Object.hasOwn(deprecatedNodeLabels, k)).map((k) => `scheduling.nodeSelector: ${deprecatedNodeLabels[k]}`);
}

const runtimeClass: BuiltinSpec = {
  names: { group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses', singular: 'runtimeclass', kind: 'RuntimeClass', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  columns: [{ def: { name: 'Handler', type: 'string', priority: 0 }, cell: (o) => str(o.handler) }],
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  // ValidateUpdate runs ValidateRuntimeClass (with ValidateObjectMeta) before the update's own checks.
  updateValidatesMeta: true,
  validate: validateRuntimeClass,
  validateUpdate: validateRuntimeClassUpdate,
  warningsOnCreate: runtimeClassWarnings,
  warningsOnUpdate: (o) => runtimeClassWarnings(o),
};

/** The node.k8s.io/v1 kinds the embedded server serves. */
export function runtimeClassResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(runtimeClass)];
}
