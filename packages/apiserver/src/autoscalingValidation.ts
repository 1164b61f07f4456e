/**
 * `ValidateHorizontalPodAutoscaler`, `ValidateHorizontalPodAutoscalerUpdate` and
 * `ValidateHorizontalPodAutoscalerStatusUpdate` (pkg/apis/autoscaling/validation/validation.go, kube-apiserver
 * 1.34.4) past the metadata, on the internal object (the stored autoscaling/v2 form: an autoscaling/v1 object
 * is validated once converted, so its errors name the internal fields, `spec.metrics[0]…`), with the options
 * the strategy derives from the old object (`validationOptionsForHorizontalPodAutoscaler`).
 */
import { FieldError, FieldPath, canonicalQuantity, forbidden, goJSON, invalid, quantityDecimal, required, type KubeObject } from '@kubekit/core';
import { pathSegmentErrors } from './objectMeta.js';
import { containerResourceNameErrors } from './podResources.js';
import { nonnegative } from './jobValidation.js';
import { isObject, num, objects, str, type JSONObject } from './internal/own.js';
import { isDNS1123Label } from './internal/semantics.js';

/** `MaxPeriodSeconds` and `MaxStabilizationWindowSeconds`. */
const maxPeriodSeconds = 1800;
const maxStabilizationWindowSeconds = 3600;
const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const selectPolicies = ['Disabled', 'Max', 'Min'];
const policyTypes = ['Percent', 'Pods'];

/** How the cross-version references of a spec are checked (`CrossVersionObjectReferenceValidationOptions`). */
interface ReferenceOptions {
  allowEmptyAPIGroup: boolean;
  allowInvalidAPIVersion: boolean;
}

/** `HorizontalPodAutoscalerSpecValidationOptions`. */
interface SpecOptions {
  minReplicasLowerBound: number;
  scaleTargetRef: ReferenceOptions;
  objectMetrics: ReferenceOptions;
}

const present = (v: unknown): boolean => v !== undefined && v !== null;
const obj = (v: unknown): JSONObject => (isObject(v) ? v : {});

/** A Go value of a named string type as the field errors print it (json.Marshal: `"<"` is `"\u003c"`). */
function named(field: FieldPath, value: string, detail: string, type: 'FieldValueInvalid' | 'FieldValueNotSupported' = 'FieldValueInvalid'): FieldError {
  return new FieldError(type, field, value, detail, goJSON(value));
}

function notSupportedNamed(field: FieldPath, value: string, valid: readonly string[]): FieldError {
  return named(field, value, `supported values: ${valid.map((v) => goJSON(v)).join(', ')}`, 'FieldValueNotSupported');
}

/** `schema.ParseGroupVersion`'s error, else the group's check (`ValidateAPIVersion`). */
function apiVersionError(apiVersion: string, opts: ReferenceOptions): string | undefined {
  if (opts.allowInvalidAPIVersion) return undefined;
  if (apiVersion === '' || apiVersion === '/') return opts.allowEmptyAPIGroup ? undefined : 'apiVersion must specify API group';
  const slashes = apiVersion.split('/').length - 1;
  if (slashes > 1) return `unexpected GroupVersion string: ${apiVersion}`;
  const group = slashes === 0 ? '' : apiVersion.slice(0, apiVersion.indexOf('/'));
  return !opts.allowEmptyAPIGroup && group === '' ? 'apiVersion must specify API group' : undefined;
}

/** `ValidateCrossVersionObjectReference`. */
function validateReference(ref: JSONObject, path: FieldPath, opts: ReferenceOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name'] as const) {
    const v = str(ref[f]);
    if (v === '') errs.push(required(path.child(f), ''));
    else errs.push(...pathSegmentErrors(v, false).map((m) => invalid(path.child(f), v, m)));
  }
  const apiVersion = str(ref.apiVersion);
  const why = apiVersionError(apiVersion, opts);
  if (why !== undefined) errs.push(invalid(path.child('apiVersion'), apiVersion, why));
  return errs;
}

/** Whether a quantity's `Sign()` is not 1 (zero or negative). */
function notPositive(q: unknown): boolean {
  const d = quantityDecimal(q);
  return d !== undefined && (d.negative || d.digits === '');
}

/** `validateMetricTarget`. */
function validateTarget(target: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(target.type);
  if (type === '') errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(named(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  for (const f of ['value', 'averageValue'] as const) {
    if (present(target[f]) && notPositive(target[f])) errs.push(invalid(path.child(f), canonicalQuantity(target[f]) ?? target[f], 'must be positive'));
  }
  const utilization = num(target.averageUtilization);
  if (utilization !== undefined && utilization < 1) errs.push(invalid(path.child('averageUtilization'), utilization, 'must be greater than 0'));
  return errs;
}

/** `validateMetricIdentifier`. */
function validateIdentifier(metric: JSONObject, path: FieldPath): FieldError[] {
  const name = str(metric.name);
  if (name === '') return [required(path.child('name'), 'must specify a metric name')];
  return pathSegmentErrors(name, false).map((m) => invalid(path.child('name'), name, m));
}

function validateObjectSource(src: JSONObject, path: FieldPath, opts: ReferenceOptions): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateReference(obj(src.describedObject), path.child('describedObject'), opts), ...validateIdentifier(obj(src.metric), path.child('metric')), ...validateTarget(target, path.child('target'))];
  if (!present(target.value) && !present(target.averageValue)) errs.push(required(path.child('target', 'averageValue'), 'must set either a target value or averageValue'));
  return errs;
}

function validateExternalSource(src: JSONObject, path: FieldPath): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateIdentifier(obj(src.metric), path.child('metric')), ...validateTarget(target, path.child('target'))];
  if (!present(target.value) && !present(target.averageValue)) errs.push(required(path.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'));
  if (present(target.value) && present(target.averageValue)) errs.push(forbidden(path.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'));
  return errs;
}

function validatePodsSource(src: JSONObject, path: FieldPath): FieldError[] {
  const target = obj(src.target);
  const errs = [...validateIdentifier(obj(src.metric), path.child('metric')), ...validateTarget(target, path.child('target'))];
  if (!present(target.averageValue)) errs.push(required(path.child('target', 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

/** `validateResourceSource` and `validateContainerResourceSource`. */
function validateResourceSource(src: JSONObject, path: FieldPath, container: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(src.name);
  if (name === '') errs.push(required(path.child('name'), 'must specify a resource name'));
  else if (container) errs.push(...containerResourceNameErrors(name, path.child('name')));
  if (container) {
    const c = str(src.container);
    if (c === '') errs.push(required(path.child('container'), 'must specify a container'));
    else errs.push(...isDNS1123Label(c).map((m) => invalid(path.child('container'), c, m)));
  }
  const target = obj(src.target);
  errs.push(...validateTarget(target, path.child('target')));
  if (!present(target.averageUtilization) && !present(target.averageValue)) errs.push(required(path.child('target', 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (present(target.averageUtilization) && present(target.averageValue)) errs.push(forbidden(path.child('target', 'averageValue'), 'may not set both a target raw value and a target utilization'));
  return errs;
}

/** The sources of a metric, in the order `validateMetricSpec` looks at them. */
const sources = [['object', 'object'], ['external', 'external'], ['pods', 'pods'], ['resource', 'resource'], ['containerResource', 'containerResource']] as const;

/** `validateMetricSpec`: the type, the first source given checked, any other one forbidden. */
function validateMetricSpec(m: JSONObject, path: FieldPath, opts: ReferenceOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(m.type);
  if (type === '') errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!metricSourceTypes.includes(type)) errs.push(notSupportedNamed(path.child('type'), type, metricSourceTypes));
  const given: string[] = [];
  for (const [field] of sources) {
    if (!isObject(m[field])) continue;
    given.push(field);
    if (given.length > 1) continue;
    const src = m[field] as JSONObject;
    const p = path.child(field);
    if (field === 'object') errs.push(...validateObjectSource(src, p, opts));
    else if (field === 'external') errs.push(...validateExternalSource(src, p));
    else if (field === 'pods') errs.push(...validatePodsSource(src, p));
    else errs.push(...validateResourceSource(src, p, field === 'containerResource'));
  }
  const expected = type === 'Object' ? 'object' : type === 'Pods' ? 'pods' : type === 'Resource' ? 'resource' : type === 'External' ? 'external' : type === 'ContainerResource' ? 'containerResource' : undefined;
  if (expected === undefined) errs.push(notSupportedNamed(path.child('type'), type, metricSourceTypes));
  else if (!isObject(m[expected])) errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  // Go ranges over a set (a map) here: with more than one other source the order varies; sorted here.
  if (given.length !== 1) for (const f of given.filter((g) => g !== expected).sort()) errs.push(forbidden(path.child(f), 'must populate the given metric source only'));
  return errs;
}

/** `validateMetrics`: each metric; scaling to zero needs an Object or External metric. */
function validateMetrics(metrics: JSONObject[], path: FieldPath, minReplicas: number | undefined, opts: ReferenceOptions): FieldError[] {
  const errs = metrics.flatMap((m, i) => validateMetricSpec(m, path.index(i), opts));
  if (minReplicas === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

/** `validateScalingRules` of one direction. */
function validateScalingRules(rules: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const window = num(rules.stabilizationWindowSeconds);
  if (window !== undefined && window < 0) errs.push(invalid(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) errs.push(invalid(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  if (present(rules.selectPolicy) && !selectPolicies.includes(str(rules.selectPolicy))) errs.push(notSupportedNamed(path.child('selectPolicy'), str(rules.selectPolicy), selectPolicies));
  const policies = objects(rules.policies);
  if (policies.length === 0) errs.push(required(path.child('policies'), 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const pp = path.child('policies').index(i);
    const type = str(p.type);
    if (!policyTypes.includes(type)) errs.push(notSupportedNamed(pp.child('type'), type, policyTypes));
    const value = num(p.value) ?? 0;
    if (value <= 0) errs.push(invalid(pp.child('value'), value, 'must be greater than zero'));
    const period = num(p.periodSeconds) ?? 0;
    if (period <= 0) errs.push(invalid(pp.child('periodSeconds'), period, 'must be greater than zero'));
    if (period > maxPeriodSeconds) errs.push(invalid(pp.child('periodSeconds'), period, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  if (present(rules.tolerance)) {
    const d = quantityDecimal(rules.tolerance);
    if (d?.negative === true) errs.push(invalid(path.child('tolerance'), canonicalQuantity(rules.tolerance) ?? rules.tolerance, 'must be greater than or equal to 0'));
  }
  return errs;
}

/** `validateHorizontalPodAutoscalerSpec`. */
function validateSpec(spec: JSONObject, opts: SpecOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const min = num(spec.minReplicas);
  const max = num(spec.maxReplicas) ?? 0;
  if (min !== undefined && min < opts.minReplicasLowerBound) errs.push(invalid(path.child('minReplicas'), min, `must be greater than or equal to ${opts.minReplicasLowerBound}`));
  if (max < 1) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateReference(obj(spec.scaleTargetRef), path.child('scaleTargetRef'), opts.scaleTargetRef));
  errs.push(...validateMetrics(objects(spec.metrics), path.child('metrics'), min, opts.objectMetrics));
  if (isObject(spec.behavior)) {
    for (const direction of ['scaleUp', 'scaleDown'] as const) {
      const rules = spec.behavior[direction];
      if (isObject(rules)) errs.push(...validateScalingRules(rules, path.child('behavior', direction)));
    }
  }
  return errs;
}

/** `validationOptionsForHorizontalPodAutoscaler` (HPAScaleToZero off, its 1.34 default). */
function specOptions(hpa: KubeObject, old: KubeObject | undefined): SpecOptions {
  const spec = obj(hpa.spec);
  const oldSpec = old === undefined ? undefined : obj(old.spec);
  const opts: SpecOptions = {
    minReplicasLowerBound: oldSpec !== undefined && oldSpec.minReplicas === 0 ? 0 : 1,
    scaleTargetRef: { allowEmptyAPIGroup: false, allowInvalidAPIVersion: false },
    objectMetrics: { allowEmptyAPIGroup: true, allowInvalidAPIVersion: false },
  };
  const ref = obj(spec.scaleTargetRef);
  const oldRef = oldSpec === undefined ? undefined : obj(oldSpec.scaleTargetRef);
  // An update that keeps the target's kind and apiVersion does not check the apiVersion again.
  if (oldRef !== undefined && str(oldRef.apiVersion) === str(ref.apiVersion) && str(oldRef.kind) === str(ref.kind)) opts.scaleTargetRef.allowInvalidAPIVersion = true;
  else if (ref.kind === 'ReplicationController') opts.scaleTargetRef.allowEmptyAPIGroup = true;
  if (oldSpec !== undefined) {
    const invalidBefore = objects(oldSpec.metrics).some((m) => m.type === 'Object' && isObject(m.object) && apiVersionError(str(obj(m.object.describedObject).apiVersion), opts.objectMetrics) !== undefined);
    if (invalidBefore) opts.objectMetrics.allowInvalidAPIVersion = true;
  }
  return opts;
}

/** The spec checks of a create (`old` undefined) or an update of an internal HorizontalPodAutoscaler. */
export function validateHorizontalPodAutoscalerSpec(hpa: KubeObject, old?: KubeObject): FieldError[] {
  return validateSpec(obj(hpa.spec), specOptions(hpa, old));
}

/** `ValidateHorizontalPodAutoscalerStatusUpdate` past the metadata: the replica counts are not negative. */
export function validateHorizontalPodAutoscalerStatus(hpa: KubeObject): FieldError[] {
  const status = obj(hpa.status);
  const path = FieldPath.root('status');
  return [...nonnegative(num(status.currentReplicas), path.child('currentReplicas')), ...nonnegative(num(status.desiredReplicas), path.child('desiredReplicas'))];
}
