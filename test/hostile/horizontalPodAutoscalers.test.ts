// HorizontalPodAutoscalers on both servers: one stored object (autoscaling/v2, the storage version) served
// as autoscaling/v2 and autoscaling/v1 (an object written through one is read, listed, watched, patched and
// deleted through the other, converted as pkg/apis/autoscaling/v1/conversion.go does: targetCPUUtilization-
// Percentage, the CPU default, the round-trip annotations); the defaults of each version, the strategy
// (status cleared on create and kept on update, /status keeping the spec), ValidateHorizontalPodAutoscaler,
// its update and status checks, the decoder's errors (a body of the other version decoded in that one), the
// managed fields of each version (a manager's fields compared in its own version, server-side apply across
// versions), field selectors, watch, the Table of printHorizontalPodAutoscaler and discovery
// (pkg/registry/autoscaling/horizontalpodautoscaler, pkg/apis/autoscaling/validation). Every expected answer
// is kube-apiserver 1.34.4's to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const merge = 'application/merge-patch+json';
const apply = 'application/apply-patch+yaml';
const asTable = 'application/json;as=Table;v=v1;g=meta.k8s.io';
type Json = Record<string, unknown>;

const target = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const mk = (version: 'v1' | 'v2', name: string, spec: Json = {}, metadata: Json = {}, more: Json = {}): string =>
  JSON.stringify({ apiVersion: `autoscaling/${version}`, kind: 'HorizontalPodAutoscaler', metadata: { name, ...metadata }, spec: { scaleTargetRef: target, maxReplicas: 5, ...spec }, ...more });
const raw = (version: string, name: string, spec: string, metadata = ''): string => `{"apiVersion":"autoscaling/${version}","kind":"HorizontalPodAutoscaler","metadata":{"name":"${name}"${metadata}},"spec":${spec}}`;

interface Manager { manager: string; operation: string; apiVersion: string; subresource?: string; fieldsV1: Json }
interface Hpa { apiVersion: string; kind: string; metadata: { name: string; resourceVersion: string; annotations?: Record<string, string>; labels?: Json; managedFields?: Manager[] }; spec: Json; status: Json }

/** An object past its server-set metadata: its annotations, its managers (manager, operation, version, subresource, fields), spec and status. */
const shape = (o: Hpa): Json => ({
  apiVersion: o.apiVersion, annotations: o.metadata.annotations, spec: o.spec, status: o.status,
  managers: o.metadata.managedFields?.map((m) => [m.manager, m.operation, m.apiVersion, m.subresource ?? '', m.fieldsV1]),
});
const managers = (o: Hpa): unknown[][] | undefined => shape(o).managers as unknown[][] | undefined;
const badRequest = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([400, message]);
};

const cpu = (utilization: number): Json => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
const pods = (name: string, value: string): Json => ({ type: 'Pods', pods: { metric: { name }, target: { type: 'AverageValue', averageValue: value } } });
const scaleUp = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const scaleDown = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
const zeroV2 = { desiredReplicas: 0, currentMetrics: null };
const zeroV1 = { currentReplicas: 0, desiredReplicas: 0 };
const refV2 = { 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} };
const metricsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
const currentAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';

async function oneStorage(s: Send): Promise<void> {
  // autoscaling/v2 defaults: one replica at least, CPU at 80%, each direction's scaling rules; the
  // round-trip annotations are v1's, dropped from a v2 object; a status sent on create is cleared.
  const a = answered<Hpa>(await s('POST', V2, mk('v2', 'a', { behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }, { annotations: { team: 'x', [metricsAnnotation]: '[]' } }, { status: { desiredReplicas: 3 } })), 201);
  const aSpec = { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [cpu(80)], behavior: { scaleUp, scaleDown: { ...scaleDown, stabilizationWindowSeconds: 60 } } };
  const aManagers = [['unknown', 'Update', 'autoscaling/v2', '', { 'f:metadata': { 'f:annotations': { '.': {}, 'f:team': {} } }, 'f:spec': { 'f:behavior': { '.': {}, 'f:scaleDown': { '.': {}, 'f:policies': {}, 'f:selectPolicy': {}, 'f:stabilizationWindowSeconds': {} }, 'f:scaleUp': { '.': {}, 'f:policies': {}, 'f:selectPolicy': {}, 'f:stabilizationWindowSeconds': {} } }, 'f:maxReplicas': {}, 'f:metrics': {}, 'f:minReplicas': {}, 'f:scaleTargetRef': refV2 } }]];
  expect(shape(a)).to.deep.equal({ apiVersion: 'autoscaling/v2', annotations: { team: 'x' }, spec: aSpec, status: zeroV2, managers: aManagers });
  // The same object through autoscaling/v1: the CPU metric as targetCPUUtilizationPercentage, the behavior
  // in an annotation (the internal type, as encoding/json writes a struct without tags).
  expect(shape(answered<Hpa>(await s('GET', `${V1}/a`)))).to.deep.equal({
    apiVersion: 'autoscaling/v1',
    annotations: { team: 'x', [behaviorAnnotation]: '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}' },
    spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 }, status: zeroV1, managers: aManagers,
  });

  // Created through autoscaling/v1: one replica at least, and without a CPU target the conversion's 80%
  // (owned by the writer, as its scaleTargetRef, atomic in v1).
  const b = answered<Hpa>(await s('POST', `${V1}?fieldManager=m1`, mk('v1', 'b', {}, { labels: { app: 'web' } })), 201);
  const bManagers = [['m1', 'Update', 'autoscaling/v1', '', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:maxReplicas': {}, 'f:minReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } }]];
  expect(shape(b)).to.deep.equal({ apiVersion: 'autoscaling/v1', annotations: undefined, spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 }, status: zeroV1, managers: bManagers });
  expect(shape(answered<Hpa>(await s('GET', `${V2}/b`)))).to.deep.equal({ apiVersion: 'autoscaling/v2', annotations: undefined, spec: { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [cpu(80)] }, status: zeroV2, managers: bManagers });
  // A change through v2 takes the fields from the v1 manager as v1 sees them: maxReplicas, and the CPU target.
  const changed = answered<Hpa>(await s('PATCH', `${V2}/b?fieldManager=m2`, JSON.stringify({ spec: { maxReplicas: 7, metrics: [cpu(60)] } }), merge));
  expect(managers(changed)).to.deep.equal([
    ['m1', 'Update', 'autoscaling/v1', '', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:minReplicas': {}, 'f:scaleTargetRef': {} } }],
    ['m2', 'Update', 'autoscaling/v2', '', { 'f:spec': { 'f:maxReplicas': {}, 'f:metrics': {} } }],
  ]);
  // And back: a v1 change takes from the v2 manager what v2 sees changed (the metrics list, atomic).
  const back = answered<Hpa>(await s('PATCH', `${V1}/b?fieldManager=m3`, JSON.stringify({ spec: { targetCPUUtilizationPercentage: 40 } }), merge));
  expect(managers(back)).to.deep.equal([
    ['m1', 'Update', 'autoscaling/v1', '', { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:minReplicas': {}, 'f:scaleTargetRef': {} } }],
    ['m2', 'Update', 'autoscaling/v2', '', { 'f:spec': { 'f:maxReplicas': {} } }],
    ['m3', 'Update', 'autoscaling/v1', '', { 'f:spec': { 'f:targetCPUUtilizationPercentage': {} } }],
  ]);
  expect(answered<Hpa>(await s('GET', `${V2}/b`)).spec.metrics).to.deep.equal([cpu(40)]);

  // Every metric type through v1: the CPU utilization is v1's own, the others go to the annotation (an
  // Object metric's missing value written as 0), in their order.
  const all = [
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1000Mi' } } }, cpu(50),
    { type: 'Pods', pods: { metric: { name: 'qps', selector: { matchLabels: { a: 'b' } } }, target: { type: 'AverageValue', averageValue: '1k' } } },
    { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'i', apiVersion: 'networking.k8s.io/v1' }, target: { type: 'AverageValue', averageValue: '10' }, metric: { name: 'hits' } } },
    { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '500m' } } },
    { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 }, container: 'app' } },
  ];
  const c = answered<Hpa>(await s('POST', V2, mk('v2', 'c', { metrics: [{ ...all[0] }, all[1], all[2], all[3], { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '0.5' } } }, all[5]] })), 201);
  expect(c.spec.metrics).to.deep.equal(all);
  const cV1 = answered<Hpa>(await s('GET', `${V1}/c`));
  expect([cV1.spec, cV1.metadata.annotations]).to.deep.equal([{ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 }, {
    [metricsAnnotation]: '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"1000Mi"}},{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"1k","selector":{"matchLabels":{"a":"b"}}}},{"type":"Object","object":{"target":{"kind":"Ingress","name":"i","apiVersion":"networking.k8s.io/v1"},"metricName":"hits","targetValue":"0","averageValue":"10"}},{"type":"External","external":{"metricName":"queue","targetValue":"500m"}},{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":60,"container":"app"}}]',
  }]);
  // Written back through v1, that Object metric's value of 0 is refused (the conversion's, not the writer's).
  refused(await s('PUT', `${V1}/c`, JSON.stringify({ ...cV1, spec: { ...cV1.spec, maxReplicas: 6 } })), 'HorizontalPodAutoscaler.autoscaling "c" is invalid: spec.metrics[2].object.target.value: Invalid value: "0": must be positive');
  // An unchanged v1 object written back is no change.
  const bV1 = answered<Hpa>(await s('GET', `${V1}/b`));
  expect(answered<Hpa>(await s('PUT', `${V1}/b`, JSON.stringify(bV1))).metadata.resourceVersion).to.equal(bV1.metadata.resourceVersion);
}

async function v1Annotations(s: Send): Promise<void> {
  // v1 writes read the annotations back: other metrics first, then v1's CPU target; the behavior as the
  // internal type, its Go field names matched without case; what Go's json.Unmarshal refuses is ignored.
  const d = answered<Hpa>(await s('POST', V1, mk('v1', 'd', { targetCPUUtilizationPercentage: 10 }, { annotations: {
    [metricsAnnotation]: '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}},{"type":"Pods","Pods":{"MetricName":"y","TARGETAVERAGEVALUE":2}},{"type":"External","external":{"metricName":"e","targetAverageValue":"1k"}}]',
    [behaviorAnnotation]: '{"scaledown":{"policies":[{"type":"Pods","value":1,"periodSeconds":3}]}}',
  } })), 201);
  expect(d.metadata.annotations).to.deep.equal({
    [behaviorAnnotation]: '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":3}],"Tolerance":null}}',
    [metricsAnnotation]: '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}},{"type":"Pods","pods":{"metricName":"y","targetAverageValue":"2"}},{"type":"External","external":{"metricName":"e","targetAverageValue":"1k"}}]',
  });
  expect(answered<Hpa>(await s('GET', `${V2}/d`)).spec).to.deep.equal({
    scaleTargetRef: target, minReplicas: 1, maxReplicas: 5,
    metrics: [pods('x', '1'), pods('y', '2'), { type: 'External', external: { metric: { name: 'e' }, target: { type: 'AverageValue', averageValue: '1k' } } }, cpu(10)],
    behavior: { scaleUp, scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 3 }] } },
  });
  for (const [name, metrics, behavior] of [['e1', 'not json', '{"ScaleUp":null}'], ['e2', '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"abc"}}]', '{"ScaleDown":{"Policies":[{"Type":"Pods","Value":1.5,"PeriodSeconds":3}]}}'], ['e3', 'null', 'null']]) {
    const e = answered<Hpa>(await s('POST', V1, mk('v1', name, {}, { annotations: { [metricsAnnotation]: metrics, [behaviorAnnotation]: behavior } })), 201);
    expect([e.spec, e.metadata.annotations], name).to.deep.equal([{ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 80 }, undefined]);
  }
  // Nested past Go's 10,000 levels: json.Unmarshal refuses it, the annotation is ignored. A `__proto__` key is a
  // label key in a selector's map, and no field of a struct.
  const deep = answered<Hpa>(await s('POST', V1, mk('v1', 'deep', {}, { annotations: { [metricsAnnotation]: `${'['.repeat(20000)}${']'.repeat(20000)}`, [conditionsAnnotation]: `${'['.repeat(20000)}${']'.repeat(20000)}` } })), 201);
  expect([deep.spec.targetCPUUtilizationPercentage, deep.metadata.annotations]).to.deep.equal([80, undefined]);
  answered(await s('POST', V1, mk('v1', 'proto', {}, { annotations: {
    [metricsAnnotation]: '[{"type":"Pods","__proto__":{"x":1},"pods":{"metricName":"x","targetAverageValue":"1","selector":{"matchLabels":{"__proto__":"y"}}}}]',
    [behaviorAnnotation]: '{"__proto__":{"ScaleUp":{}},"ScaleUp":{"Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":1}],"constructor":1}}',
  } })), 201);
  const proto = JSON.parse((await s('GET', `${V2}/proto`)).text) as Hpa;
  expect(proto.spec).to.deep.equal({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [JSON.parse('{"type":"Pods","pods":{"metric":{"name":"x","selector":{"matchLabels":{"__proto__":"y"}}},"target":{"type":"AverageValue","averageValue":"1"}}}') as Json], behavior: { scaleUp: { ...scaleUp, policies: [{ type: 'Pods', value: 1, periodSeconds: 1 }] }, scaleDown } });
  // A second CPU utilization in the annotation: both kept, v1 shows the first.
  const f = answered<Hpa>(await s('POST', V1, mk('v1', 'f', { targetCPUUtilizationPercentage: 10 }, { annotations: { [metricsAnnotation]: '[{"type":"Resource","resource":{"name":"cpu","targetAverageUtilization":20}}]' } })), 201);
  expect([f.spec.targetCPUUtilizationPercentage, f.metadata.annotations]).to.deep.equal([20, undefined]);
  expect(answered<Hpa>(await s('GET', `${V2}/f`)).spec.metrics).to.deep.equal([cpu(20), cpu(10)]);
  // Validated as the internal object: the errors name its fields.
  refused(await s('POST', V1, mk('v1', 'g', { targetCPUUtilizationPercentage: 0, minReplicas: -1 })), 'HorizontalPodAutoscaler.autoscaling "g" is invalid: [spec.minReplicas: Invalid value: -1: must be greater than or equal to 1, spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0]');
  refused(await s('POST', V1, mk('v1', 'g', { maxReplicas: 0 }, { annotations: { [metricsAnnotation]: '[{"type":"Object","object":{"target":{"kind":"S","name":"s"},"metricName":"m","averageValue":"5"}}]', [behaviorAnnotation]: '{"scaleUp":{"selectPolicy":"Nope"}}' } })),
    'HorizontalPodAutoscaler.autoscaling "g" is invalid: [spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`, spec.metrics[0].object.target.value: Invalid value: "0": must be positive, spec.behavior.scaleUp.selectPolicy: Unsupported value: "Nope": supported values: "Disabled", "Max", "Min", spec.behavior.scaleUp.policies: Required value: must specify at least one Policy]');
  refused(await s('POST', V1, mk('v1', 'g', {}, { annotations: { [behaviorAnnotation]: '{"ScaleDown":{"Tolerance":"5m","Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":3}]},"ScaleUp":{"Policies":[]}}' } })), 'HorizontalPodAutoscaler.autoscaling "g" is invalid: spec.behavior.scaleUp.policies: Required value: must specify at least one Policy');

  // /status through v1: the current metrics and conditions annotations are the status, the spec stays (a
  // metrics annotation there changes nothing).
  const d1 = answered<Hpa>(await s('GET', `${V1}/d`));
  const status = answered<Hpa>(await s('PUT', `${V1}/d/status?fieldManager=ctl`, JSON.stringify({
    ...d1, spec: { ...d1.spec, maxReplicas: 99 }, status: { observedGeneration: 4, currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 33 },
    metadata: { ...d1.metadata, annotations: { [metricsAnnotation]: '[]', [conditionsAnnotation]: '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"R"}]' } },
  })));
  expect([status.spec.maxReplicas, status.status, status.metadata.annotations?.[conditionsAnnotation], status.metadata.annotations?.[currentAnnotation]]).to.deep.equal([
    5, { observedGeneration: 4, currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 33 },
    '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"R"}]', '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":33,"currentAverageValue":"0"}}]',
  ]);
  // The status writer owns the annotations it made; the creator loses those the write's v1 form no longer has
  // (sorted by name: entries are in time order, to the second).
  expect(managers(status)?.sort((x, y) => String((x as string[])[0]).localeCompare(String((y as string[])[0])))).to.deep.equal([
    ['ctl', 'Update', 'autoscaling/v1', 'status', { 'f:metadata': { 'f:annotations': { [`f:${conditionsAnnotation}`]: {}, [`f:${currentAnnotation}`]: {} } }, 'f:status': { 'f:currentCPUUtilizationPercentage': {}, 'f:currentReplicas': {}, 'f:desiredReplicas': {}, 'f:observedGeneration': {} } }],
    ['unknown', 'Update', 'autoscaling/v1', '', { 'f:metadata': { 'f:annotations': {} }, 'f:spec': { 'f:maxReplicas': {}, 'f:minReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } }],
  ]);
  const dV2 = answered<Hpa>(await s('GET', `${V2}/d`));
  expect([dV2.spec.maxReplicas, (dV2.spec.metrics as unknown[]).length, dV2.status]).to.deep.equal([5, 4, {
    observedGeneration: 4, currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 33 } } }],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'R' }],
  }]);
  // An update of the main resource keeps the status, whatever its annotations say.
  const d2 = answered<Hpa>(await s('GET', `${V1}/d`));
  const kept = answered<Hpa>(await s('PUT', `${V1}/d`, JSON.stringify({ ...d2, status: { currentReplicas: 9, desiredReplicas: 9 }, metadata: { ...d2.metadata, annotations: { ...d2.metadata.annotations, [conditionsAnnotation]: '[]' } } })));
  expect([kept.status, kept.metadata.annotations?.[conditionsAnnotation]]).to.deep.equal([d2.status, d2.metadata.annotations?.[conditionsAnnotation]]);
  expect(answered<Hpa>(await s('GET', `${V2}/d`)).status).to.deep.equal(dV2.status);
  refused(await s('PATCH', `${V1}/d/status`, JSON.stringify({ status: { currentReplicas: -1 } }), merge), 'HorizontalPodAutoscaler.autoscaling "d" is invalid: status.currentReplicas: Invalid value: -1: must be greater than or equal to 0');
}

async function validation(s: Send): Promise<void> {
  const cases: [string, Json, string][] = [
    ['n1', { minReplicas: 0, maxReplicas: 0, scaleTargetRef: { kind: '', name: '' } }, '[spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.scaleTargetRef.kind: Required value, spec.scaleTargetRef.name: Required value, spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group, spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]'],
    ['n2', { minReplicas: 5, maxReplicas: 3, scaleTargetRef: { kind: 'a/b', name: '..', apiVersion: 'a/b/c' } }, '[spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`, spec.scaleTargetRef.kind: Invalid value: "a/b": may not contain \'/\', spec.scaleTargetRef.name: Invalid value: "..": may not be \'..\', spec.scaleTargetRef.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c]'],
    ['n3', { scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'v1' } }, 'spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group'],
    ['n4', { metrics: [{ type: 'Foo' }, { type: '' }, { type: 'Resource' }, { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5 } }, pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } }] },
      '[spec.metrics[0].type: Unsupported value: "Foo": supported values: "ContainerResource", "External", "Object", "Pods", "Resource", spec.metrics[1].type: Required value: must specify a metric source type, spec.metrics[1].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource", spec.metrics[2].resource: Required value: must populate information for the given metric source, spec.metrics[3].resource: Forbidden: must populate the given metric source only]'],
    ['n5', { metrics: [{ type: 'Resource', resource: { name: '', target: { type: 'X', averageUtilization: 0, averageValue: '-1', value: '0' } } }, { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization' } } }] },
      '[spec.metrics[0].resource.name: Required value: must specify a resource name, spec.metrics[0].resource.target.type: Invalid value: "X": must be either Utilization, Value, or AverageValue, spec.metrics[0].resource.target.value: Invalid value: "0": must be positive, spec.metrics[0].resource.target.averageValue: Invalid value: "-1": must be positive, spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0, spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization, spec.metrics[1].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization]'],
    ['n6', { metrics: [{ type: 'ContainerResource', containerResource: { name: 'foo', container: 'Bad_C', target: { type: 'AverageValue', averageValue: '0' } } }, { type: 'ContainerResource', containerResource: { name: 'example.com/gpu', container: '', target: { type: 'Utilization', averageUtilization: 10, averageValue: '1' } } }, { type: 'ContainerResource', containerResource: { name: 'a b', container: 'c', target: { type: 'Utilization', averageUtilization: 10 } } }] },
      '[spec.metrics[0].containerResource.name: Invalid value: "foo": must be a standard resource type or fully qualified, spec.metrics[0].containerResource.name: Invalid value: "foo": must be a standard resource for containers, spec.metrics[0].containerResource.container: Invalid value: "Bad_C": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\'), spec.metrics[0].containerResource.target.averageValue: Invalid value: "0": must be positive, spec.metrics[1].containerResource.container: Required value: must specify a container, spec.metrics[1].containerResource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization, spec.metrics[2].containerResource.name: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), spec.metrics[2].containerResource.name: Invalid value: "a b": must be a standard resource for containers]'],
    ['n7', { metrics: [{ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'Value', value: '1' } } }, { type: 'Pods', pods: { metric: { name: 'a/b' }, target: { type: 'AverageValue', averageValue: '-5m' } } }] },
      '[spec.metrics[0].pods.metric.name: Required value: must specify a metric name, spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue, spec.metrics[1].pods.metric.name: Invalid value: "a/b": may not contain \'/\', spec.metrics[1].pods.target.averageValue: Invalid value: "-5m": must be positive]'],
    ['n8', { metrics: [{ type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'm' }, target: { type: 'Value' } } }, { type: 'Object', object: { describedObject: { kind: '', name: '', apiVersion: 'x/y/z' }, metric: { name: '%' }, target: { type: 'AverageValue', averageValue: '1', value: '2' } } }] },
      '[spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue, spec.metrics[1].object.describedObject.kind: Required value, spec.metrics[1].object.describedObject.name: Required value, spec.metrics[1].object.describedObject.apiVersion: Invalid value: "x/y/z": unexpected GroupVersion string: x/y/z, spec.metrics[1].object.metric.name: Invalid value: "%": may not contain \'%\']'],
    ['n9', { metrics: [{ type: 'External', external: { metric: { name: 'q', selector: { matchLabels: { 'a b': 'c' } } }, target: { type: 'Value', value: '1', averageValue: '2' } } }, { type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue' } } }] },
      '[spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target, spec.metrics[1].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target]'],
    ['n10', { behavior: { scaleUp: { stabilizationWindowSeconds: -1, selectPolicy: 'Foo', policies: [] }, scaleDown: { stabilizationWindowSeconds: 3601, policies: [{ type: 'X', value: 0, periodSeconds: 0 }, { type: 'Pods', value: 1, periodSeconds: 1801 }] } } },
      '[spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero, spec.behavior.scaleUp.selectPolicy: Unsupported value: "Foo": supported values: "Disabled", "Max", "Min", spec.behavior.scaleUp.policies: Required value: must specify at least one Policy, spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600, spec.behavior.scaleDown.policies[0].type: Unsupported value: "X": supported values: "Percent", "Pods", spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero, spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 0: must be greater than zero, spec.behavior.scaleDown.policies[1].periodSeconds: Invalid value: 1801: must be less than or equal to 1800]'],
  ];
  for (const [name, spec, errors] of cases) refused(await s('POST', V2, mk('v2', name, spec)), `HorizontalPodAutoscaler.autoscaling "${name}" is invalid: ${errors}`);
  refused(await s('POST', V1, mk('v1', 'Bad_Name')), 'HorizontalPodAutoscaler.autoscaling "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')');
  // Accepted: a ReplicationController's target without a group; a tolerance, dropped while its gate is off;
  // an empty behavior and empty metrics, defaulted.
  const rc = answered<Hpa>(await s('POST', V2, mk('v2', 'rc', { scaleTargetRef: { kind: 'ReplicationController', name: 'd' }, behavior: { scaleUp: { policies: null, tolerance: '-1' }, scaleDown: { selectPolicy: 'Disabled', tolerance: '0.05' } }, metrics: [] })), 201);
  expect(rc.spec).to.deep.equal({ scaleTargetRef: { kind: 'ReplicationController', name: 'd' }, minReplicas: 1, maxReplicas: 5, metrics: [cpu(80)], behavior: { scaleUp, scaleDown: { ...scaleDown, selectPolicy: 'Disabled' } } });
  const empty = answered<Hpa>(await s('POST', V2, mk('v2', 'empty', { behavior: {}, minReplicas: null, metrics: null })), 201);
  expect(empty.spec).to.deep.equal({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [cpu(80)], behavior: { scaleUp, scaleDown } });
  // An update is checked the same way.
  refused(await s('PATCH', `${V2}/rc`, JSON.stringify({ spec: { scaleTargetRef: { kind: 'Deployment' }, maxReplicas: -2 } }), merge), 'HorizontalPodAutoscaler.autoscaling "rc" is invalid: [spec.maxReplicas: Invalid value: -2: must be greater than 0, spec.maxReplicas: Invalid value: -2: must be greater than or equal to `minReplicas`, spec.scaleTargetRef.apiVersion: Invalid value: "": apiVersion must specify API group]');
}

async function decoding(s: Send): Promise<void> {
  const cannot = (v: string): string => `HorizontalPodAutoscaler in version "${v}" cannot be handled as a HorizontalPodAutoscaler: `;
  const ref = '{"kind":"D","name":"d","apiVersion":"apps/v1"}';
  const cases: [string, string, string][] = [
    [V2, raw('v2', 'h1', `{"scaleTargetRef":${ref},"maxReplicas":"5"}`), `${cannot('v2')}json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.maxReplicas of type int32`],
    [V2, raw('v2', 'h2', `{"scaleTargetRef":${ref},"maxReplicas":3000000000}`), `${cannot('v2')}json: cannot unmarshal number 3000000000 into Go struct field HorizontalPodAutoscalerSpec.spec.maxReplicas of type int32`],
    [V2, raw('v2', 'h3', `{"scaleTargetRef":${ref},"maxReplicas":5,"metrics":[{"type":"Pods","pods":{"metric":{"name":"x"},"target":{"type":"AverageValue","averageValue":"1x"}}}]}`), `${cannot('v2')}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`],
    [V2, raw('v2', 'h4', '{"scaleTargetRef":"x","maxReplicas":5}'), `${cannot('v2')}json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.scaleTargetRef of type v2.CrossVersionObjectReference`],
    [V2, raw('v2', 'h5', `{"scaleTargetRef":${ref},"maxReplicas":5,"behavior":{"scaleUp":{"policies":[{"type":"Pods","value":1.5,"periodSeconds":1}]}}}`), `${cannot('v2')}json: cannot unmarshal number 1.5 into Go struct field HPAScalingPolicy.spec.behavior.scaleUp.policies.value of type int32`],
    [V2, raw('v2', 'h6', `{"scaleTargetRef":${ref},"maxReplicas":5,"metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":2147483648}}}]}`), `${cannot('v2')}json: cannot unmarshal number 2147483648 into Go struct field MetricTarget.spec.metrics.resource.target.averageUtilization of type int32`],
    [V1, raw('v1', 'h7', '{"scaleTargetRef":{"kind":"D","name":"d"},"maxReplicas":5,"targetCPUUtilizationPercentage":"5"}'), `${cannot('v1')}json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.targetCPUUtilizationPercentage of type int32`],
    [V1, raw('v1', 'h8', `{"scaleTargetRef":${ref},"maxReplicas":5}`, ',"annotations":{"autoscaling.alpha.kubernetes.io/metrics":5}'), `${cannot('v1')}json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string`],
    [`${V1}?fieldValidation=Strict`, raw('v1', 'h9', `{"scaleTargetRef":{"kind":"D","name":"d","x":1},"maxReplicas":5,"metrics":[],"foo":2}`), `${cannot('v1')}strict decoding error: unknown field "spec.scaleTargetRef.x", unknown field "spec.metrics", unknown field "spec.foo"`],
    [`${V2}?fieldValidation=Strict`, raw('v2', 'h10', `{"scaleTargetRef":${ref},"maxReplicas":5,"targetCPUUtilizationPercentage":5}`), `${cannot('v2')}strict decoding error: unknown field "spec.targetCPUUtilizationPercentage"`],
    // A body of the other version is decoded in that version (its errors in its words), then refused.
    [V2, raw('v1', 'h11', '{"scaleTargetRef":{"kind":"D","name":"d"},"maxReplicas":"5"}'), `${cannot('v1')}json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.maxReplicas of type int32`],
    [`${V2}?fieldValidation=Strict`, raw('v1', 'h12', '{"scaleTargetRef":{"kind":"D","name":"d"},"maxReplicas":5,"metrics":[]}'), `${cannot('v1')}strict decoding error: unknown field "spec.metrics"`],
    [V2, raw('v1', 'h13', '{"scaleTargetRef":{"kind":"D","name":"d"},"maxReplicas":0}'), 'the API version in the data (autoscaling/v1) does not match the expected API version (autoscaling/v2)'],
    [V1, raw('v2', 'h14', '{"maxReplicas":0}'), 'the API version in the data (autoscaling/v2) does not match the expected API version (autoscaling/v1)'],
    [V2, raw('v2beta2', 'h15', '{"maxReplicas":1}'), 'the API version in the data (autoscaling/v2beta2) does not match the expected API version (autoscaling/v2)'],
    [V1, '{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"h16"},"spec":{"replicas":1}}', 'Scale in version "v1" cannot be handled as a HorizontalPodAutoscaler: converting (v1.Scale) to (autoscaling.HorizontalPodAutoscaler): unknown conversion'],
    [V2, '{"apiVersion":"autoscaling/v2","kind":"Scale","metadata":{"name":"h17"}}', 'Scale in version "v2" cannot be handled as a HorizontalPodAutoscaler: no kind "Scale" is registered for version "autoscaling/v2" in scheme "pkg/runtime/scheme.go:110"'],
  ];
  for (const [path, body, message] of cases) badRequest(await s('POST', path, body), message);
  for (const [path, version, fields] of [[V1, 'v1', 'spec.metrics'], [V2, 'v2', 'spec.targetCPUUtilizationPercentage']]) {
    const warned = await s('POST', `${path}?fieldValidation=Warn`, raw(version, `warn-${version}`, `{"scaleTargetRef":{"kind":"D","name":"d","apiVersion":"apps/v1","x":1},"maxReplicas":5,"metrics":[],"targetCPUUtilizationPercentage":5}`));
    expect([warned.status, warned.warnings]).to.deep.equal([201, ['unknown field "spec.scaleTargetRef.x"', `unknown field "${fields}"`]]);
  }
  // Nulls, a __proto__ key and a huge quantity are Go's: nothing, a field dropped, the quantity's own text.
  const odd = answered<Hpa>(await s('POST', V2, raw('v2', 'odd', '{"scaleTargetRef":{"kind":"D","name":"d","apiVersion":"apps/v1","__proto__":{"x":1}},"maxReplicas":5,"minReplicas":null,"behavior":null,"metrics":[{"type":"External","external":{"metric":{"name":"x"},"target":{"type":"Value","value":"1e400"}}}]}')), 201);
  expect(odd.spec).to.deep.equal({ scaleTargetRef: { kind: 'D', name: 'd', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'External', external: { metric: { name: 'x' }, target: { type: 'Value', value: '10e399' } } }] });
  refused(await s('POST', V2, raw('v2', 'nulls', `{"scaleTargetRef":${ref},"maxReplicas":5,"metrics":[null,{"type":"Resource","resource":null}],"behavior":{"scaleUp":{"policies":[]}}}`)), 'HorizontalPodAutoscaler.autoscaling "nulls" is invalid: [spec.metrics[0].type: Required value: must specify a metric source type, spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource", spec.metrics[1].resource: Required value: must populate information for the given metric source, spec.behavior.scaleUp.policies: Required value: must specify at least one Policy]');

  // A patch whose result says the other version is decoded as that version, and taken: a v2 object read
  // as v1 loses its metrics (v1 has none; the CPU default comes back), recorded as a v2 write.
  answered(await s('POST', V2, mk('v2', 'other', { metrics: [pods('x', '1')] })), 201);
  const asV1 = answered<Hpa>(await s('PATCH', `${V2}/other?fieldManager=p`, JSON.stringify({ apiVersion: 'autoscaling/v1', spec: { maxReplicas: 7 } }), merge));
  expect([asV1.apiVersion, asV1.spec, managers(asV1)?.find((m) => m[0] === 'p')]).to.deep.equal(['autoscaling/v2', { scaleTargetRef: target, minReplicas: 1, maxReplicas: 7, metrics: [cpu(80)] }, ['p', 'Update', 'autoscaling/v2', '', { 'f:spec': { 'f:maxReplicas': {}, 'f:metrics': {} } }]]);
  const asV2 = answered<Hpa>(await s('PATCH', `${V1}/other?fieldManager=p2`, JSON.stringify({ apiVersion: 'autoscaling/v2', spec: { maxReplicas: 8, targetCPUUtilizationPercentage: 3 } }), merge));
  expect([asV2.apiVersion, asV2.spec]).to.deep.equal(['autoscaling/v1', { scaleTargetRef: target, minReplicas: 1, maxReplicas: 8, targetCPUUtilizationPercentage: 80 }]);
  const quoted = await s('PATCH', `${V2}/other`, JSON.stringify({ apiVersion: 'autoscaling/v1', spec: { maxReplicas: 'x' } }), merge);
  expect([quoted.status, quoted.message.startsWith(' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"autoscaling/v1\\",\\"kind\\":\\"HorizontalPodAutoscaler\\",'), quoted.message.endsWith('": json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.maxReplicas of type int32')]).to.deep.equal([422, true, true]);
  badRequest(await s('PATCH', `${V2}/other?fieldManager=x`, raw('v1', 'other', '{"maxReplicas":5}'), apply), 'invalid object type: autoscaling/v1, Kind=HorizontalPodAutoscaler');
}

async function patchesAndApply(s: Send): Promise<void> {
  answered(await s('POST', V2, mk('v2', 'p', { metrics: [pods('x', '1')] })), 201);
  // Strategic merge patches: metrics is an atomic list; a v1 patch of the metrics annotation is a metrics change.
  expect(answered<Hpa>(await s('PATCH', `${V2}/p`, JSON.stringify({ spec: { metrics: [pods('y', '2')] } }), 'application/strategic-merge-patch+json')).spec.metrics).to.deep.equal([pods('y', '2')]);
  expect(answered<Hpa>(await s('PATCH', `${V1}/p`, JSON.stringify({ metadata: { annotations: { [metricsAnnotation]: '[{"type":"Pods","pods":{"metricName":"z","targetAverageValue":"3"}}]' } } }), 'application/strategic-merge-patch+json')).metadata.annotations)
    .to.deep.equal({ [metricsAnnotation]: '[{"type":"Pods","pods":{"metricName":"z","targetAverageValue":"3"}}]' });
  expect(answered<Hpa>(await s('GET', `${V2}/p`)).spec.metrics).to.deep.equal([pods('z', '3')]);
  // JSON patches: a behavior added through v2 (defaulted), removed through v1 by removing its annotation.
  expect(answered<Hpa>(await s('PATCH', `${V2}/p`, JSON.stringify([{ op: 'add', path: '/spec/behavior', value: { scaleUp: { selectPolicy: 'Disabled' } } }]), 'application/json-patch+json')).spec.behavior).to.deep.equal({ scaleUp: { ...scaleUp, selectPolicy: 'Disabled' }, scaleDown });
  answered(await s('PATCH', `${V1}/p`, JSON.stringify([{ op: 'remove', path: '/metadata/annotations/autoscaling.alpha.kubernetes.io~1behavior' }]), 'application/json-patch+json'));
  expect(answered<Hpa>(await s('GET', `${V2}/p`)).spec.behavior).to.equal(undefined);
  // Updates: unconditional, and refused with a stale resourceVersion.
  const p = answered<Hpa>(await s('GET', `${V2}/p`));
  const { resourceVersion: _rv, ...unversioned } = p.metadata;
  expect(answered<Hpa>(await s('PUT', `${V2}/p`, JSON.stringify({ ...p, metadata: unversioned, spec: { ...p.spec, maxReplicas: 6 } }))).spec.maxReplicas).to.equal(6);
  expect((await s('PUT', `${V2}/p`, JSON.stringify(p))).message).to.equal('Operation cannot be fulfilled on horizontalpodautoscalers.autoscaling "p": the object has been modified; please apply your changes to the latest version and try again');

  // Server-side apply through v2, a conflict with a v1 manager named in its version, then forced through v1.
  const config = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ap' }, spec: { scaleTargetRef: target, maxReplicas: 4, metrics: [pods('x', '1')], behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } };
  const applied = answered<Hpa>(await s('PATCH', `${V2}/ap?fieldManager=kubectl`, JSON.stringify(config), apply), 201);
  expect(managers(applied)).to.deep.equal([['kubectl', 'Apply', 'autoscaling/v2', '', { 'f:spec': { 'f:behavior': { 'f:scaleDown': { 'f:stabilizationWindowSeconds': {} } }, 'f:maxReplicas': {}, 'f:metrics': {}, 'f:scaleTargetRef': refV2 } }]]);
  answered(await s('PATCH', `${V1}/ap?fieldManager=other`, JSON.stringify({ spec: { maxReplicas: 6 } }), merge));
  const conflict = await s('PATCH', `${V2}/ap?fieldManager=kubectl`, JSON.stringify({ ...config, spec: { ...config.spec, maxReplicas: 3 } }), apply);
  expect([conflict.status, conflict.message]).to.deep.equal([409, 'Apply failed with 1 conflict: conflict with "other" using autoscaling/v1: .spec.maxReplicas']);
  const v1Config = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ap' }, spec: { scaleTargetRef: target, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } };
  const v1Conflict = await s('PATCH', `${V1}/ap?fieldManager=v1ap`, JSON.stringify(v1Config), apply);
  expect([v1Conflict.status, v1Conflict.message]).to.deep.equal([409, 'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.metrics\nconflicts with "other" using autoscaling/v1:\n- .spec.maxReplicas']);
  const forced = answered<Hpa>(await s('PATCH', `${V1}/ap?fieldManager=v1ap&force=true`, JSON.stringify(v1Config), apply));
  expect([forced.spec, managers(forced)]).to.deep.equal([{ scaleTargetRef: target, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 50 }, [
    ['kubectl', 'Apply', 'autoscaling/v2', '', { 'f:spec': { 'f:behavior': { 'f:scaleDown': { 'f:stabilizationWindowSeconds': {} } }, 'f:scaleTargetRef': refV2 } }],
    ['v1ap', 'Apply', 'autoscaling/v1', '', { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } }],
  ]]);
  // kubectl applies again, through v1 now: what it applied through v2 and no longer applies is pruned (the
  // behavior), what others own stays (the Pods metric went to nobody, it stays too).
  const pruned = answered<Hpa>(await s('PATCH', `${V1}/ap?fieldManager=kubectl&force=true`, JSON.stringify({ ...v1Config, spec: { scaleTargetRef: target, maxReplicas: 4 } }), apply));
  expect([pruned.metadata.annotations, managers(pruned)?.find((m) => m[0] === 'kubectl')]).to.deep.equal([{ [metricsAnnotation]: '[{"type":"Pods","pods":{"metricName":"x","targetAverageValue":"1"}}]' }, ['kubectl', 'Apply', 'autoscaling/v1', '', { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {} } }]]);
  expect(answered<Hpa>(await s('GET', `${V2}/ap`)).spec).to.deep.equal({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 4, metrics: [pods('x', '1'), cpu(50)] });
  // A manifest migrated from v1 to v2, applied by the same manager: v1's fields it no longer applies go.
  answered(await s('PATCH', `${V1}/mig?fieldManager=kubectl`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'mig', labels: { a: 'b' } }, spec: { scaleTargetRef: target, maxReplicas: 4, minReplicas: 2, targetCPUUtilizationPercentage: 50 } }), apply), 201);
  const migrated = answered<Hpa>(await s('PATCH', `${V2}/mig?fieldManager=kubectl`, JSON.stringify({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'mig' }, spec: { scaleTargetRef: target, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 60 } } }] } }), apply));
  expect([migrated.metadata.labels, migrated.spec, managers(migrated)]).to.deep.equal([undefined, { scaleTargetRef: target, minReplicas: 1, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 60 } } }] },
    [['kubectl', 'Apply', 'autoscaling/v2', '', { 'f:spec': { 'f:maxReplicas': {}, 'f:metrics': {}, 'f:scaleTargetRef': refV2 } }]]]);
  // The controller's status, applied through /status: spec untouched, shown through v1 in annotations.
  const status = { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [{ type: 'Resource', resource: { name: 'memory', current: { averageUtilization: 30, averageValue: '100Mi' } } }], conditions: [{ type: 'ScalingActive', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'ValidMetricFound', message: 'ok' }] };
  const withStatus = answered<Hpa>(await s('PATCH', `${V2}/mig/status?fieldManager=ctl`, JSON.stringify({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'mig' }, spec: { maxReplicas: 1 }, status }), apply));
  expect([withStatus.spec.maxReplicas, withStatus.status, managers(withStatus)?.find((m) => m[0] === 'ctl')]).to.deep.equal([5, status, ['ctl', 'Apply', 'autoscaling/v2', 'status', { 'f:status': { 'f:conditions': { 'k:{"type":"ScalingActive"}': { '.': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } }, 'f:currentMetrics': {}, 'f:currentReplicas': {}, 'f:desiredReplicas': {} } }]]);
  const migV1 = answered<Hpa>(await s('GET', `${V1}/mig`));
  expect([migV1.status, migV1.metadata.annotations]).to.deep.equal([{ currentReplicas: 2, desiredReplicas: 2 }, {
    [conditionsAnnotation]: '[{"type":"ScalingActive","status":"True","lastTransitionTime":"2024-01-01T00:00:00Z","reason":"ValidMetricFound","message":"ok"}]',
    [currentAnnotation]: '[{"type":"Resource","resource":{"name":"memory","currentAverageUtilization":30,"currentAverageValue":"100Mi"}}]',
    [metricsAnnotation]: '[{"type":"Resource","resource":{"name":"memory","targetAverageUtilization":60}}]',
  }]);
  refused(await s('PATCH', `${V2}/mig/status`, JSON.stringify({ status: { currentReplicas: -1, desiredReplicas: -2 }, spec: { maxReplicas: 0 } }), merge), 'HorizontalPodAutoscaler.autoscaling "mig" is invalid: [status.currentReplicas: Invalid value: -1: must be greater than or equal to 0, status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0]');
  // Removing the annotations through v1's /status clears what they held.
  const cleared = answered<Hpa>(await s('PATCH', `${V1}/mig/status`, JSON.stringify({ metadata: { annotations: { [conditionsAnnotation]: null, [currentAnnotation]: null } } }), merge));
  expect(managers(cleared)?.find((m) => m[0] === 'ctl')).to.deep.equal(['ctl', 'Apply', 'autoscaling/v2', 'status', { 'f:status': { 'f:currentReplicas': {}, 'f:desiredReplicas': {} } }]);
  expect(answered<Hpa>(await s('GET', `${V2}/mig`)).status).to.deep.equal({ currentReplicas: 2, desiredReplicas: 2, currentMetrics: null });
}

async function tableAndSelection(s: Send): Promise<void> {
  // Targets of each metric type, with the current values the status has (at most two, then a count).
  const rows: [string, Json[], Json[], string][] = [
    ['t1', [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '10' } } }, { type: 'Object', object: { describedObject: target, metric: { name: 'm' }, target: { type: 'Value', value: '5' } } }],
      [{ type: 'External', external: { metric: { name: 'q' }, current: { averageValue: '3' } } }, { type: 'Object', object: { describedObject: target, metric: { name: 'm' }, current: { value: '4' } } }], '3/10 (avg), 4/5'],
    ['t2', [pods('qps', '1k'), { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }],
      [{ type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: '500' } } }, { type: 'Resource', resource: { name: 'memory', current: { averageValue: '512Mi' } } }], '500/1k, memory: 512Mi/1Gi'],
    ['t3', [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } }, { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '100Mi' } } }],
      [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', current: { averageUtilization: 30 } } }, { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', current: { averageValue: '50Mi' } } }], 'cpu: 30%/60%, memory: 50Mi/100Mi'],
    ['t4', [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '2' } } }, { type: 'Object', object: { describedObject: target, metric: { name: 'm' }, target: { type: 'AverageValue', averageValue: '7' } } }, cpu(50)],
      [{ type: 'External', external: { metric: { name: 'q' }, current: { averageValue: '1' } } }, { type: 'Object', object: { describedObject: target, metric: { name: 'm' }, current: { value: '1' } } }], '<nil>/2, <unknown>/7 (avg) + 1 more...'],
    ['t5', [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1000Mi' } } }, cpu(50)], [cpu(50)], 'memory: <nil>/1000Mi, cpu: <unknown>/50%'],
  ];
  for (const [name, metrics, current] of rows) {
    const o = answered<Hpa>(await s('POST', V2, mk('v2', name, { metrics, minReplicas: 2 }, { labels: { table: 'yes' } })), 201);
    answered(await s('PUT', `${V2}/${name}/status`, JSON.stringify({ ...o, status: { currentReplicas: 3, desiredReplicas: 3, currentMetrics: current } })));
  }
  for (const path of [V2, V1]) {
    const table = JSON.parse((await s('GET', `${path}?labelSelector=table%3Dyes`, undefined, undefined, asTable)).text) as { columnDefinitions: { name: string; type: string; format: string }[]; rows: { cells: unknown[]; object: { metadata: { name: string; annotations?: Json } } }[] };
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.format])).to.deep.equal([['Name', 'string', 'name'], ['Reference', 'string', ''], ['Targets', 'string', ''], ['MinPods', 'string', ''], ['MaxPods', 'string', ''], ['Replicas', 'string', ''], ['Age', 'string', '']]);
    expect(table.rows.map((r) => r.cells.slice(0, 6)), path).to.deep.equal(rows.map(([name, , , targets]) => [name, 'Deployment/web', targets, '2', 5, 3]));
    // The rows' metadata is the internal object's: no round-trip annotation.
    expect(table.rows.map((r) => r.object.metadata.annotations)).to.deep.equal(rows.map(() => undefined));
  }
  const full = JSON.parse((await s('GET', `${V1}/t5?includeObject=Object`, undefined, undefined, asTable)).text) as { rows: { object: Hpa }[] };
  expect(Object.keys(full.rows[0].object.metadata.annotations ?? {})).to.deep.equal([currentAnnotation, metricsAnnotation]);

  // Field selectors: the name and namespace only; lists of the version asked; the cluster-wide list.
  const names = async (path: string): Promise<string[]> => answered<{ items: Hpa[] }>(await s('GET', path)).items.map((i) => i.metadata.name);
  expect(await names(`${V1}?fieldSelector=metadata.name%3Dt2`)).to.deep.equal(['t2']);
  expect(await names(`${V2}?labelSelector=table&fieldSelector=metadata.namespace%3Ddefault,metadata.name!%3Dt2`)).to.deep.equal(['t1', 't3', 't4', 't5']);
  badRequest(await s('GET', `${V1}?fieldSelector=spec.maxReplicas%3D5`), '"spec.maxReplicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
  const list = answered<{ kind: string; apiVersion: string }>(await s('GET', '/apis/autoscaling/v1/horizontalpodautoscalers?labelSelector=table'));
  expect([list.kind, list.apiVersion]).to.deep.equal(['HorizontalPodAutoscalerList', 'autoscaling/v1']);

  // A watch through v1 sees v2's writes, converted.
  const rv = answered<Hpa>(await s('GET', `${V2}/t5`)).metadata.resourceVersion;
  answered(await s('PATCH', `${V2}/t5`, JSON.stringify({ spec: { metrics: [cpu(70)] } }), merge));
  const watched = await s('GET', `${V1}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dt5&timeoutSeconds=1`);
  expect(watched.text.trim().split('\n').map((l) => { const e = JSON.parse(l) as { type: string; object: Hpa }; return [e.type, e.object.apiVersion, e.object.spec.targetCPUUtilizationPercentage, Object.keys(e.object.metadata.annotations ?? {})]; }))
    .to.deep.equal([['MODIFIED', 'autoscaling/v1', 70, [currentAnnotation]]]);

  // Deleted through v1, gone through v2; a collection through v1.
  const deleted = answered<{ kind: string; status: string; details: Json }>(await s('DELETE', `${V1}/t1`));
  expect([deleted.kind, deleted.status, deleted.details]).to.deep.equal(['Status', 'Success', { name: 't1', group: 'autoscaling', kind: 'horizontalpodautoscalers', uid: deleted.details.uid }]);
  expect((await s('GET', `${V2}/t1`)).message).to.equal('horizontalpodautoscalers.autoscaling "t1" not found');
  const collection = answered<{ kind: string; apiVersion: string; items: Hpa[] }>(await s('DELETE', `${V1}?labelSelector=table`));
  expect([collection.kind, collection.apiVersion, collection.items.map((i) => i.metadata.name)]).to.deep.equal(['HorizontalPodAutoscalerList', 'autoscaling/v1', ['t2', 't3', 't4', 't5']]);
}

async function discovery(s: Send): Promise<void> {
  expect(JSON.parse((await s('GET', '/apis/autoscaling')).text)).to.deep.equal({ kind: 'APIGroup', apiVersion: 'v1', name: 'autoscaling', versions: [{ groupVersion: 'autoscaling/v2', version: 'v2' }, { groupVersion: 'autoscaling/v1', version: 'v1' }], preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' } });
  for (const version of ['v2', 'v1']) {
    expect(JSON.parse((await s('GET', `/apis/autoscaling/${version}`)).text).resources).to.deep.equal([
      { name: 'horizontalpodautoscalers', singularName: 'horizontalpodautoscaler', namespaced: true, kind: 'HorizontalPodAutoscaler', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['hpa'], categories: ['all'], storageVersionHash: 'qwQve8ut294=' },
      { name: 'horizontalpodautoscalers/status', singularName: '', namespaced: true, kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] },
    ]);
  }
  const aggregated = JSON.parse((await s('GET', '/apis', undefined, undefined, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).text) as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string; subresources: unknown[] }[] }[] }[] };
  const group = aggregated.items.find((g) => g.metadata.name === 'autoscaling');
  expect(group?.versions.map((v) => [v.version, v.resources.map((r) => [r.resource, r.subresources])])).to.deep.equal(['v2', 'v1'].map((v) => [v, [['horizontalpodautoscalers', [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'HorizontalPodAutoscaler' }, verbs: ['get', 'patch', 'update'] }]]]]));
  expect((await s('GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/x/scale')).status).to.equal(404);
}

describeOnBothServers('HorizontalPodAutoscalers (autoscaling/v2 and autoscaling/v1, one storage)', async (s) => {
  await oneStorage(s);
  await v1Annotations(s);
  await validation(s);
  await decoding(s);
  await patchesAndApply(s);
  await tableAndSelection(s);
  await discovery(s);
});
