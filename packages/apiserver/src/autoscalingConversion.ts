/**
 * The conversions of a HorizontalPodAutoscaler between autoscaling/v1 and the form kubekit stores, as
 * pkg/apis/autoscaling/v1/conversion.go does them (kube-apiserver 1.34.4). The stored form is autoscaling/v2
 * (the storage version), read here as the apiserver's internal type: v2 and the internal type have the same
 * fields, and v2 keeps none of the round-trip annotations.
 *
 * autoscaling/v1 has one metric of its own (`targetCPUUtilizationPercentage`, the first Resource `cpu`
 * metric with an average utilization); the rest of the internal object travels in annotations, written as
 * encoding/json writes the v1 types (`autoscaling.alpha.kubernetes.io/metrics`, `…/current-metrics`,
 * `…/conditions`) and, for the behavior, the internal Go type without json tags (`{"ScaleUp":{…}}`). A v1
 * write reads them back where they decode (a text Go's `json.Unmarshal` refuses is ignored), and a v1
 * object without any metric gets the CPU metric at 80% here, the conversion's implicit default.
 */
import { canonicalQuantity, goJSON, type KubeObject } from '@kubekit/core';
import { encodeAsGo, marshalAsGo, unmarshalAsGo } from './builtinGoJSON.js';
import { cloneJSON, isObject, objects, type JSONObject } from './internal/own.js';

/** The annotations that carry what autoscaling/v1 cannot express (autoscaling/annotations.go). */
const metricSpecsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const metricStatusesAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';

/** What `DropRoundTripHorizontalPodAutoscalerAnnotations` drops, on every conversion in and out of the internal type. */
export const roundTripAnnotations: readonly string[] = [
  metricSpecsAnnotation, behaviorAnnotation, 'autoscaling.alpha.kubernetes.io/scale-down-tolerance',
  'autoscaling.alpha.kubernetes.io/scale-up-tolerance', metricStatusesAnnotation, conditionsAnnotation,
];

/** `autoscaling.DefaultCPUUtilization`. */
const defaultCPUUtilization = 80;

const v1 = { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' } as const;
const v1MetricSpecs = { struct: 'io.k8s.api.autoscaling.v1.MetricSpec', list: true };
const v1MetricStatuses = { struct: 'io.k8s.api.autoscaling.v1.MetricStatus', list: true };
const v1Conditions = { struct: 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscalerCondition', list: true };
/** The internal behavior type, among builtinGoJSON's internal types (it has no json tags). */
const internalBehaviorStruct = 'internal.autoscaling.HorizontalPodAutoscalerBehavior';

const present = (v: unknown): boolean => v !== undefined && v !== null;
const obj = (v: unknown): JSONObject => (isObject(v) ? v : {});

/** Sets the members of `fields` whose values are present (an absent pointer stays nil). */
function defined(fields: JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(fields)) if (present(v)) out[k] = v;
  return out;
}

/** The annotations without the round-trip ones; `undefined` when none is left (an empty map is not written). */
function withoutRoundTripAnnotations(annotations: Record<string, string> | undefined): Record<string, string> | undefined {
  if (annotations === undefined || !roundTripAnnotations.some((k) => Object.hasOwn(annotations, k))) return annotations;
  const out = Object.fromEntries(Object.entries(annotations).filter(([k]) => !roundTripAnnotations.includes(k)));
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The metadata with the round-trip annotations dropped. */
function metadataWithout(meta: KubeObject['metadata']): KubeObject['metadata'] {
  const out = cloneJSON(meta);
  const annotations = withoutRoundTripAnnotations(out.annotations);
  if (annotations === undefined) delete out.annotations;
  else out.annotations = annotations;
  return out;
}

/** Whether an internal metric is autoscaling/v1's own: a Resource `cpu` metric with an average utilization. */
function isCPUUtilization(m: JSONObject): boolean {
  const resource = obj(m.resource);
  return m.type === 'Resource' && isObject(m.resource) && resource.name === 'cpu' && present(obj(resource.target).averageUtilization);
}

const crossVersionRef = (r: unknown): JSONObject => defined({ kind: obj(r).kind ?? '', name: obj(r).name ?? '', apiVersion: obj(r).apiVersion });

/** `Convert_autoscaling_MetricSpec_To_v1_MetricSpec`. */
function metricSpecToV1(m: JSONObject): JSONObject {
  const out: JSONObject = { type: m.type ?? '' };
  if (isObject(m.object)) {
    const target = obj(m.object.target);
    out.object = defined({ target: crossVersionRef(m.object.describedObject), metricName: obj(m.object.metric).name ?? '', targetValue: target.value ?? '0', selector: obj(m.object.metric).selector, averageValue: target.averageValue });
  }
  if (isObject(m.pods)) out.pods = defined({ metricName: obj(m.pods.metric).name ?? '', targetAverageValue: obj(m.pods.target).averageValue ?? '0', selector: obj(m.pods.metric).selector });
  if (isObject(m.resource)) {
    const target = obj(m.resource.target);
    out.resource = defined({ name: m.resource.name ?? '', targetAverageUtilization: target.averageUtilization, targetAverageValue: target.averageValue });
  }
  if (isObject(m.containerResource)) {
    const target = obj(m.containerResource.target);
    out.containerResource = defined({ name: m.containerResource.name ?? '', targetAverageUtilization: target.averageUtilization, targetAverageValue: target.averageValue, container: m.containerResource.container ?? '' });
  }
  if (isObject(m.external)) {
    const target = obj(m.external.target);
    out.external = defined({ metricName: obj(m.external.metric).name ?? '', metricSelector: obj(m.external.metric).selector, targetValue: target.value, targetAverageValue: target.averageValue });
  }
  return out;
}

/** `Convert_v1_MetricSpec_To_autoscaling_MetricSpec`: the target types follow from which values are set. */
function metricSpecFromV1(m: JSONObject): JSONObject {
  const out: JSONObject = { type: m.type ?? '' };
  if (isObject(m.object)) {
    const o = m.object;
    out.object = {
      describedObject: crossVersionRef(o.target),
      target: defined({ type: present(o.averageValue) ? 'AverageValue' : 'Value', value: o.targetValue ?? '0', averageValue: o.averageValue }),
      metric: defined({ name: o.metricName ?? '', selector: o.selector }),
    };
  }
  if (isObject(m.pods)) {
    out.pods = { metric: defined({ name: m.pods.metricName ?? '', selector: m.pods.selector }), target: { type: 'AverageValue', averageValue: m.pods.targetAverageValue ?? '0' } };
  }
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key];
    if (!isObject(r)) continue;
    const target = defined({ type: present(r.targetAverageUtilization) ? 'Utilization' : 'AverageValue', averageValue: r.targetAverageValue, averageUtilization: r.targetAverageUtilization });
    out[key] = key === 'resource' ? { name: r.name ?? '', target } : { name: r.name ?? '', target, container: r.container ?? '' };
  }
  if (isObject(m.external)) {
    const e = m.external;
    out.external = {
      metric: defined({ name: e.metricName ?? '', selector: e.metricSelector }),
      target: defined({ type: present(e.targetValue) ? 'Value' : 'AverageValue', value: e.targetValue, averageValue: e.targetAverageValue }),
    };
  }
  return out;
}

/** `Convert_autoscaling_MetricStatus_To_v1_MetricStatus`. */
function metricStatusToV1(m: JSONObject): JSONObject {
  const out: JSONObject = { type: m.type ?? '' };
  if (isObject(m.object)) {
    const current = obj(m.object.current);
    out.object = defined({ target: crossVersionRef(m.object.describedObject), metricName: obj(m.object.metric).name ?? '', currentValue: current.value ?? '0', selector: obj(m.object.metric).selector, averageValue: current.averageValue });
  }
  if (isObject(m.pods)) out.pods = defined({ metricName: obj(m.pods.metric).name ?? '', currentAverageValue: obj(m.pods.current).averageValue ?? '0', selector: obj(m.pods.metric).selector });
  if (isObject(m.resource)) {
    const current = obj(m.resource.current);
    out.resource = defined({ name: m.resource.name ?? '', currentAverageUtilization: current.averageUtilization, currentAverageValue: current.averageValue ?? '0' });
  }
  if (isObject(m.containerResource)) {
    const current = obj(m.containerResource.current);
    out.containerResource = defined({ name: m.containerResource.name ?? '', currentAverageUtilization: current.averageUtilization, currentAverageValue: current.averageValue ?? '0', container: m.containerResource.container ?? '' });
  }
  if (isObject(m.external)) {
    const current = obj(m.external.current);
    out.external = defined({ metricName: obj(m.external.metric).name ?? '', metricSelector: obj(m.external.metric).selector, currentValue: current.value ?? '0', currentAverageValue: current.averageValue });
  }
  return out;
}

/** `Convert_v1_MetricStatus_To_autoscaling_MetricStatus`: a v1 status always has its plain values (zero when unset). */
function metricStatusFromV1(m: JSONObject): JSONObject {
  const out: JSONObject = { type: m.type ?? '' };
  if (isObject(m.object)) {
    const o = m.object;
    out.object = { metric: defined({ name: o.metricName ?? '', selector: o.selector }), current: defined({ value: o.currentValue ?? '0', averageValue: o.averageValue }), describedObject: crossVersionRef(o.target) };
  }
  if (isObject(m.pods)) out.pods = { metric: defined({ name: m.pods.metricName ?? '', selector: m.pods.selector }), current: { averageValue: m.pods.currentAverageValue ?? '0' } };
  for (const key of ['resource', 'containerResource'] as const) {
    const r = m[key];
    if (!isObject(r)) continue;
    const current = defined({ averageValue: r.currentAverageValue ?? '0', averageUtilization: r.currentAverageUtilization });
    out[key] = key === 'resource' ? { name: r.name ?? '', current } : { name: r.name ?? '', current, container: r.container ?? '' };
  }
  if (isObject(m.external)) {
    const e = m.external;
    out.external = { metric: defined({ name: e.metricName ?? '', selector: e.metricSelector }), current: defined({ value: e.currentValue ?? '0', averageValue: e.currentAverageValue }) };
  }
  return out;
}

/** A condition in either version (the same fields). */
function condition(c: JSONObject): JSONObject {
  return defined({ type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null, reason: c.reason, message: c.message });
}

/** The Go field names of the internal behavior types, in order: `json.Marshal` of a struct without json tags. */
const ruleFields = [['StabilizationWindowSeconds', 'stabilizationWindowSeconds'], ['SelectPolicy', 'selectPolicy'], ['Policies', 'policies'], ['Tolerance', 'tolerance']] as const;

/** `json.Marshal` of the internal `HorizontalPodAutoscalerBehavior` (every field written, nil as `null`). */
function behaviorAnnotationText(behavior: JSONObject): string {
  const policy = (p: JSONObject): string => `{"Type":${goJSON(p.type ?? '')},"Value":${goJSON(p.value ?? 0)},"PeriodSeconds":${goJSON(p.periodSeconds ?? 0)}}`;
  const rules = (r: unknown): string => {
    if (!isObject(r)) return 'null';
    const members = ruleFields.map(([goName, name]) => {
      const v = r[name];
      if (!present(v)) return `"${goName}":null`;
      if (name === 'policies') return `"${goName}":${Array.isArray(v) ? `[${objects(v).map(policy).join(',')}]` : 'null'}`;
      return `"${goName}":${goJSON(name === 'tolerance' ? canonicalQuantity(v) ?? v : v)}`;
    });
    return `{${members.join(',')}}`;
  };
  return `{"ScaleUp":${rules(behavior.scaleUp)},"ScaleDown":${rules(behavior.scaleDown)}}`;
}

/**
 * `json.Unmarshal` of the behavior annotation into the internal type (case-insensitive Go field names), as
 * the v2 JSON of the behavior; `undefined` when it does not decode or sets neither direction.
 */
function behaviorFromAnnotation(text: string): JSONObject | undefined {
  const decoded = unmarshalAsGo(text, { struct: internalBehaviorStruct });
  if (!isObject(decoded)) return undefined;
  const out: JSONObject = {};
  for (const [goName, name] of [['ScaleUp', 'scaleUp'], ['ScaleDown', 'scaleDown']] as const) {
    const r = decoded[goName];
    if (!isObject(r)) continue;
    const rules: JSONObject = {};
    for (const [goField, field] of ruleFields) {
      const v = r[goField];
      if (!present(v)) continue;
      rules[field] = field === 'policies' ? objects(v).map((p) => ({ type: p.Type ?? '', value: p.Value ?? 0, periodSeconds: p.PeriodSeconds ?? 0 })) : v;
    }
    out[name] = rules;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}


/**
 * `Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler`: the stored (v2, defaulted)
 * object as autoscaling/v1 shows it, the rest of it in the round-trip annotations.
 */
export function hpaToV1(hpa: KubeObject): KubeObject {
  const spec = obj(hpa.spec);
  const status = obj(hpa.status);
  const metadata = metadataWithout(hpa.metadata ?? {});
  const annotations: Record<string, string> = { ...metadata.annotations };
  const metrics = objects(spec.metrics);
  const cpu = metrics.find(isCPUUtilization);
  const v1Spec = defined({
    scaleTargetRef: crossVersionRef(spec.scaleTargetRef), minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas ?? 0,
    targetCPUUtilizationPercentage: cpu === undefined ? undefined : obj(obj(cpu.resource).target).averageUtilization,
  });
  // The last CPU status with a utilization is the one shown (the loop does not stop at the first).
  let currentCPU: unknown;
  for (const m of objects(status.currentMetrics)) {
    const utilization = obj(obj(m.resource).current).averageUtilization;
    if (m.type === 'Resource' && isObject(m.resource) && m.resource.name === 'cpu' && present(utilization)) currentCPU = utilization;
  }
  const v1Status = defined({
    observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime, currentReplicas: status.currentReplicas ?? 0,
    desiredReplicas: status.desiredReplicas ?? 0, currentCPUUtilizationPercentage: currentCPU,
  });
  const others = metrics.filter((m) => !isCPUUtilization(m));
  if (others.length > 0) annotations[metricSpecsAnnotation] = marshalAsGo(others.map(metricSpecToV1), v1MetricSpecs);
  const current = objects(status.currentMetrics);
  if (current.length > 0) annotations[metricStatusesAnnotation] = marshalAsGo(current.map(metricStatusToV1), v1MetricStatuses);
  if (isObject(spec.behavior)) annotations[behaviorAnnotation] = behaviorAnnotationText(spec.behavior);
  const conditions = objects(status.conditions);
  if (conditions.length > 0) annotations[conditionsAnnotation] = marshalAsGo(conditions.map(condition), v1Conditions);
  // A Go map is written in its keys' order.
  if (Object.keys(annotations).length > 0) metadata.annotations = Object.fromEntries(Object.keys(annotations).sort().map((k) => [k, annotations[k]]));
  const out: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata, spec: v1Spec, status: v1Status };
  encodeAsGo(out, v1);
  return out;
}

/**
 * `Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler`: an autoscaling/v1 object in
 * the stored (v2) form, what the round-trip annotations carry read back, the CPU metric at 80% when it has
 * no metric at all.
 */
export function hpaFromV1(o: KubeObject): KubeObject {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const annotations = o.metadata?.annotations ?? {};
  const annotation = (key: string): string | undefined => (Object.hasOwn(annotations, key) ? annotations[key] : undefined);
  let metrics: JSONObject[] | undefined = present(spec.targetCPUUtilizationPercentage)
    ? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }]
    : undefined;
  const otherText = annotation(metricSpecsAnnotation);
  if (otherText !== undefined) {
    const others = unmarshalAsGo(otherText, v1MetricSpecs);
    // The annotation's metrics first, then v1's own (the one a CPU target made).
    if (others !== undefined) metrics = [...objects(others).map(metricSpecFromV1), ...(metrics ?? []).slice(0, 1)];
  }
  let behavior: JSONObject | undefined;
  const behaviorText = annotation(behaviorAnnotation);
  if (behaviorText !== undefined) behavior = behaviorFromAnnotation(behaviorText);
  let currentMetrics: JSONObject[] | undefined = present(status.currentCPUUtilizationPercentage)
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }]
    : undefined;
  const currentText = annotation(metricStatusesAnnotation);
  if (currentText !== undefined) {
    const current = unmarshalAsGo(currentText, v1MetricStatuses);
    if (current !== undefined) currentMetrics = objects(current).map(metricStatusFromV1);
  }
  // The implicit default of autoscaling/v1, applied where every metric is known.
  if (metrics === undefined || metrics.length === 0) {
    metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } } }];
  }
  let conditions: JSONObject[] | undefined;
  const conditionsText = annotation(conditionsAnnotation);
  if (conditionsText !== undefined) {
    const decoded = unmarshalAsGo(conditionsText, v1Conditions);
    if (decoded !== undefined) conditions = objects(decoded).map(condition);
  }
  const out: KubeObject = {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: metadataWithout(o.metadata ?? {}),
    spec: defined({ scaleTargetRef: crossVersionRef(spec.scaleTargetRef), minReplicas: spec.minReplicas, maxReplicas: spec.maxReplicas ?? 0, metrics, behavior }),
    status: {
      ...defined({ observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime, currentReplicas: status.currentReplicas, desiredReplicas: status.desiredReplicas ?? 0 }),
      // Not omitempty: a nil list is written as null.
      currentMetrics: currentMetrics ?? null,
      ...defined({ conditions }),
    },
  };
  encodeAsGo(out, { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' });
  return out;
}

/** The stored (v2) object as autoscaling/v2 shows it: as it is, without round-trip annotations (`Convert_autoscaling_HorizontalPodAutoscaler_To_v2_…`). */
export function hpaToV2(hpa: KubeObject): KubeObject {
  const out = cloneJSON(hpa);
  out.metadata = metadataWithout(out.metadata ?? {});
  return out;
}
