/**
 * policy/v1 PodDisruptionBudgets, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/policy/poddisruptionbudget/strategy.go (status cleared on create and kept on update,
 * generation per spec change, no unconditional update, a `/status` that keeps the spec) and the checks of
 * pkg/apis/policy/validation/validation.go. The strategy does not validate the metadata itself, so names
 * are only path segments (`Upper_Case` is a PodDisruptionBudget's name). Also metav1's `ValidateConditions`,
 * which its status uses.
 */
import { FieldError, FieldPath, duplicate, goJSON, invalid, notSupported, required, tooLong, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { intOrPercentErrors, notOver100Percent, selectorJSON } from './builtinWorkloads.js';
import { nonnegative } from './jobValidation.js';
import { isObject, num, str, type JSONObject } from './internal/own.js';
import { isQualifiedName, validateLabelSelector, type LabelSelectorObject } from './internal/semantics.js';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];
const conditionStatuses = ['False', 'True', 'Unknown'];
const reasonPattern = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const reasonMessage = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
/** metav1.Time's zero, as a canonical timestamp. */
const zeroTime = '0001-01-01T00:00:00Z';

const present = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * `ValidatePodDisruptionBudgetSpec`. `allowInvalidLabelValues`: an update of a budget whose selector
 * already had invalid values keeps being accepted (the strategy's `hasInvalidLabelValueInLabelSelector`).
 */
export function validatePodDisruptionBudgetSpec(o: KubeObject, allowInvalidLabelValues = false): FieldError[] {
  const spec: JSONObject = isObject(o.spec) ? o.spec : {};
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  if (present(spec.minAvailable) && present(spec.maxUnavailable)) {
    // The internal spec, printed as encoding/json writes a struct without tags: its Go field names, in
    // their order (kube-apiserver 1.34.4: `{"MinAvailable":1,"Selector":null,"MaxUnavailable":"10%",…}`).
    const printed = `{"MinAvailable":${goJSON(spec.minAvailable)},"Selector":${selectorJSON(spec.selector)},"MaxUnavailable":${goJSON(spec.maxUnavailable)},"UnhealthyPodEvictionPolicy":${goJSON(spec.unhealthyPodEvictionPolicy ?? null)}}`;
    errs.push(new FieldError('FieldValueInvalid', path, spec, 'minAvailable and maxUnavailable cannot be both set', printed));
  }
  for (const f of ['minAvailable', 'maxUnavailable']) {
    if (present(spec[f])) errs.push(...intOrPercentErrors(spec[f], path.child(f)), ...notOver100Percent(spec[f], path.child(f)));
  }
  errs.push(...validateLabelSelector(spec.selector as LabelSelectorObject | undefined, path.child('selector'), { allowInvalidLabelValueInSelector: allowInvalidLabelValues }));
  if (present(spec.unhealthyPodEvictionPolicy) && !evictionPolicies.includes(str(spec.unhealthyPodEvictionPolicy))) {
    errs.push(notSupported(path.child('unhealthyPodEvictionPolicy'), spec.unhealthyPodEvictionPolicy, evictionPolicies));
  }
  return errs;
}

/** metav1 `ValidateConditions`: each condition's type once, and each condition valid. */
export function validateMetaConditions(list: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (Array.isArray(list) ? list : []).forEach((c: unknown, i) => {
    const condition: JSONObject = isObject(c) ? c : {};
    const p = path.index(i);
    const type = str(condition.type);
    if (seen.has(type)) errs.push(duplicate(p.child('type'), type));
    else seen.add(type);
    errs.push(...isQualifiedName(type).map((msg) => invalid(p.child('type'), type, msg)));
    if (!conditionStatuses.includes(str(condition.status))) errs.push(notSupported(p.child('status'), str(condition.status), conditionStatuses));
    const generation = num(condition.observedGeneration);
    if (generation !== undefined && generation < 0) errs.push(invalid(p.child('observedGeneration'), generation, 'must be greater than or equal to zero'));
    const time = condition.lastTransitionTime;
    if (!present(time) || time === zeroTime) errs.push(required(p.child('lastTransitionTime'), ''));
    const reason = str(condition.reason);
    if (reason === '') errs.push(required(p.child('reason'), ''));
    else {
      if (!reasonPattern.test(reason)) errs.push(invalid(p.child('reason'), reason, reasonMessage));
      if (Buffer.byteLength(reason) > 1024) errs.push(tooLong(p.child('reason'), '', 1024));
    }
    if (Buffer.byteLength(str(condition.message)) > 32 * 1024) errs.push(tooLong(p.child('message'), '', 32 * 1024));
  });
  return errs;
}

/** `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1): the conditions, then the counts. */
function validateStatusUpdate(o: KubeObject, _old: KubeObject, meta: FieldError[]): FieldError[] {
  const status: JSONObject = isObject(o.status) ? o.status : {};
  const path = FieldPath.root('status');
  const errs = [...meta, ...validateMetaConditions(status.conditions, path.child('conditions'))];
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']) errs.push(...nonnegative(num(status[f]), path.child(f)));
  return errs;
}

/** `IntOrString.String()`, or `N/A` for none (the Table's budget columns). */
const intOrString = (v: unknown): string => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : 'N/A');

const podDisruptionBudget: BuiltinSpec = {
  names: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', singular: 'poddisruptionbudget', kind: 'PodDisruptionBudget', namespaced: true, shortNames: ['pdb'], status: true, nameValidation: 'pathSegment' },
  strategyValidatesMeta: false,
  allowUnconditionalUpdate: false,
  generation: true,
  columns: [
    { def: { name: 'Min Available', type: 'string', priority: 0, description: 'The minimum number of pods that must be available.' }, cell: (o) => intOrString(isObject(o.spec) ? o.spec.minAvailable : undefined) },
    { def: { name: 'Max Unavailable', type: 'string', priority: 0, description: 'The maximum number of pods that may be unavailable.' }, cell: (o) => intOrString(isObject(o.spec) ? o.spec.maxUnavailable : undefined) },
    { def: { name: 'Allowed Disruptions', type: 'integer', priority: 0, description: 'Calculated number of pods that may be disrupted at this time.' }, cell: (o) => (isObject(o.status) ? num(o.status.disruptionsAllowed) : undefined) ?? 0 },
  ],
  // PrepareForCreate: an empty status (its counts are not omitempty: written as zeros).
  prepareForCreate: (o) => { o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }; },
  validateCreate: (o) => validatePodDisruptionBudgetSpec(o),
  validateUpdate: (o, old) => validatePodDisruptionBudgetSpec(o, hasInvalidLabelValues(old)),
  validateStatusUpdate: validateStatusUpdate,
};

/** The strategy's `hasInvalidLabelValueInLabelSelector`. */
function hasInvalidLabelValues(old: KubeObject): boolean {
  const selector = isObject(old.spec) ? old.spec.selector : undefined;
  return present(selector) && validateLabelSelector(selector as LabelSelectorObject, FieldPath.root('spec', 'selector')).length > 0;
}

/** The policy/v1 kinds the embedded server serves. */
export function policyResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(podDisruptionBudget)];
}
