/**
 * HorizontalPodAutoscalers, served as kube-apiserver 1.34.4 serves them: one stored object (autoscaling/v2,
 * the storage version) in two APIs, autoscaling/v2 and autoscaling/v1, each write and read converted
 * (autoscalingConversion.ts). The strategy of pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go
 * (status cleared on create and kept on update, a `/status` that keeps the spec, the tolerance of
 * HPAConfigurableTolerance dropped while that gate is off, no generation), the validation of
 * autoscalingValidation.ts, the defaults of each version (`SetDefaults_HorizontalPodAutoscaler`), and the
 * Table of `printHorizontalPodAutoscaler`.
 *
 * The apiserver works on its internal object and shows it in the version asked for; kubekit's handlers work
 * on objects in the request's version. An autoscaling/v1 object is that view of the internal (v2) one: it
 * is decoded into the internal object and shown as v1 again (the round-trip annotations as the apiserver
 * writes them), and each step of the strategy takes the internal object back, the one the view was made
 * from while the view is unchanged (a conversion back from v1 is not always exact: an Object metric without
 * a value comes back with `0`), so what is stored is what the apiserver stores.
 */
import { canonicalQuantity, goJSON, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinColumn, type BuiltinSpec } from './builtinKinds.js';
import { encodeAsGo, wasEmpty } from './builtinGoJSON.js';
import { hpaFromV1, hpaToV1, hpaToV2, roundTripAnnotations } from './autoscalingConversion.js';
import { validateHorizontalPodAutoscalerSpec, validateHorizontalPodAutoscalerStatus } from './autoscalingValidation.js';
import { assignOwn, cloneJSON, isObject, num, objects, str, type JSONObject } from './internal/own.js';

const v2GVK = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' } as const;
const storage = { groupResource: { group: 'autoscaling', resource: 'horizontalpodautoscalers' }, kind: v2GVK };

const obj = (v: unknown): JSONObject => (isObject(v) ? v : {});
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** The default scale-up rules: no stabilization, the larger of 4 pods or 100% per 15 s (v2 defaults.go). */
const defaultScaleUp = (): JSONObject => ({ stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] });
/** The default scale-down rules: 100% per 15 s; the stabilization window is left to the controller's flag. */
const defaultScaleDown = (): JSONObject => ({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] });

/** `copyHPAScalingRules` over the defaults: each field given wins (a policy list given empty too). */
function scalingRules(given: unknown, defaults: JSONObject): JSONObject {
  if (!isObject(given)) return defaults;
  const out = { ...defaults };
  for (const f of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) {
    if (present(given[f])) out[f] = given[f];
    else if (f === 'policies' && wasEmpty(given, f)) out[f] = [];
  }
  return out;
}

/** The zero status's list that encoding/json writes as `null` (`currentMetrics` has no omitempty). */
function withCurrentMetrics(o: KubeObject): void {
  const status = obj(o.status);
  if (!Object.hasOwn(status, 'currentMetrics')) status.currentMetrics = null;
  o.status = status;
}

/** autoscaling/v2's `SetDefaults_HorizontalPodAutoscaler`: one replica at least, CPU at 80%, each scaling direction's rules. */
function defaultHorizontalPodAutoscalerV2(o: KubeObject): void {
  const spec = obj(o.spec);
  o.spec = spec;
  if (!present(spec.minReplicas)) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (isObject(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, defaultScaleUp());
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, defaultScaleDown());
  }
  withCurrentMetrics(o);
}

/** The stored object as the apiserver reads it back: decoded from v2 and defaulted. */
function readStored(stored: KubeObject): KubeObject {
  const o = cloneJSON(stored);
  defaultHorizontalPodAutoscalerV2(o);
  encodeAsGo(o, v2GVK);
  return o;
}

/**
 * `dropDisabledFields`: the scaling rules' tolerance is dropped while HPAConfigurableTolerance is off (its
 * 1.34 default), unless the old object uses one.
 */
function dropTolerance(o: KubeObject, old: KubeObject | undefined): void {
  const inUse = (h: KubeObject | undefined): boolean => h !== undefined && ['scaleUp', 'scaleDown'].some((d) => present(obj(obj(obj(h.spec).behavior)[d]).tolerance));
  if (inUse(old)) return;
  const behavior = obj(obj(o.spec).behavior);
  for (const d of ['scaleUp', 'scaleDown']) if (isObject(behavior[d])) delete behavior[d].tolerance;
}

/** What a v1 view shows of its internal object: all of it but the metadata other than its name and the round-trip annotations. */
function viewKey(view: KubeObject): string {
  const annotations = view.metadata?.annotations ?? {};
  return goJSON([view.metadata?.name ?? '', view.spec ?? null, view.status ?? null, roundTripAnnotations.map((k) => (Object.hasOwn(annotations, k) ? annotations[k] : null))]);
}

/** How many internal objects a server's {@link V1Views} remembers. */
const remembered = 512;

/**
 * The internal objects of the autoscaling/v1 views one server made, by what each view shows (copies of a
 * view, which the handlers make, find it too); the most recent few hundred are kept, enough for every
 * request in flight.
 */
class V1Views {
  private readonly internals = new Map<string, KubeObject>();

  /** Writes into `view` (replacing what it held) the autoscaling/v1 form of `internal`, and remembers it. */
  show(internal: KubeObject, view: KubeObject): KubeObject {
    const v1 = hpaToV1(internal);
    for (const k of Object.keys(view)) delete view[k];
    assignOwn(view, v1);
    const key = viewKey(view);
    this.internals.delete(key);
    this.internals.set(key, cloneJSON(internal));
    if (this.internals.size > remembered) this.internals.delete(this.internals.keys().next().value!);
    return view;
  }

  /** The internal object a view shows: the one it was made from, else converted; the metadata is the view's. */
  internalOf(view: KubeObject): KubeObject {
    const known = this.internals.get(viewKey(view));
    const internal = known !== undefined ? cloneJSON(known) : hpaFromV1(view);
    internal.metadata = hpaToV2({ metadata: view.metadata } as KubeObject).metadata;
    return internal;
  }
}

/** The status strategy: everything written but the spec, which stays the old one's. */
function keepSpec(o: KubeObject, old: KubeObject): void {
  o.spec = cloneJSON(old.spec);
}

/** An internal object as it is stored: autoscaling/v2 as encoding/json writes it. */
function stored(internal: KubeObject): KubeObject {
  const o = hpaToV2(internal);
  encodeAsGo(o, v2GVK);
  withCurrentMetrics(o);
  return o;
}

/** `printHorizontalPodAutoscaler`'s Targets: at most two metrics, each with its current value where the status has one. */
function targets(hpa: KubeObject): string {
  const specs = objects(obj(hpa.spec).metrics);
  if (specs.length === 0) return '<none>';
  const statuses = Array.isArray(obj(hpa.status).currentMetrics) ? (obj(hpa.status).currentMetrics as unknown[]) : [];
  // A nil quantity prints `<nil>` (`(*Quantity).String`).
  const q = (v: unknown): string => (present(v) ? canonicalQuantity(v) ?? String(v) : '<nil>');
  const list = specs.map((spec, i) => {
    const status = isObject(statuses[i]) ? statuses[i] : undefined;
    const source = (name: string): JSONObject | undefined => (status !== undefined && isObject(status[name]) ? status[name] : undefined);
    const current = (name: string): JSONObject => obj(source(name)?.current);
    const target = (name: string): JSONObject => obj(obj(spec[name]).target);
    switch (spec.type) {
      case 'External':
      case 'Object': {
        const name = spec.type === 'External' ? 'external' : 'object';
        if (present(target(name).averageValue)) {
          const now = source(name) !== undefined && present(current(name).averageValue) ? q(current(name).averageValue) : '<unknown>';
          return `${now}/${q(target(name).averageValue)} (avg)`;
        }
        return `${source(name) !== undefined ? q(current(name).value) : '<unknown>'}/${q(target(name).value)}`;
      }
      case 'Pods':
        return `${source('pods') !== undefined ? q(current('pods').averageValue) : '<unknown>'}/${q(target('pods').averageValue)}`;
      case 'Resource':
      case 'ContainerResource': {
        const name = spec.type === 'Resource' ? 'resource' : 'containerResource';
        const resource = str(obj(spec[name]).name);
        if (present(target(name).averageValue)) return `${resource}: ${source(name) !== undefined ? q(current(name).averageValue) : '<unknown>'}/${q(target(name).averageValue)}`;
        const utilization = num(current(name).averageUtilization);
        const goal = num(target(name).averageUtilization);
        return `${resource}: ${source(name) !== undefined && utilization !== undefined ? `${utilization}%` : '<unknown>'}/${goal === undefined ? '<auto>' : `${goal}%`}`;
      }
      default:
        return '<unknown type>';
    }
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

/** The Table's columns between Name and Age, of the internal object. */
function columns(internal: (o: KubeObject) => KubeObject): BuiltinColumn[] {
  return [
    { def: { name: 'Reference', type: 'string', priority: 0 }, cell: (o) => { const ref = obj(obj(internal(o).spec).scaleTargetRef); return `${str(ref.kind)}/${str(ref.name)}`; } },
    { def: { name: 'Targets', type: 'string', priority: 0 }, cell: (o) => targets(internal(o)) },
    { def: { name: 'MinPods', type: 'string', priority: 0 }, cell: (o) => { const min = num(obj(internal(o).spec).minReplicas); return min === undefined ? '<unset>' : String(min); } },
    { def: { name: 'MaxPods', type: 'string', priority: 0 }, cell: (o) => num(obj(internal(o).spec).maxReplicas) ?? 0 },
    { def: { name: 'Replicas', type: 'string', priority: 0 }, cell: (o) => num(obj(internal(o).status).currentReplicas) ?? 0 },
  ];
}

const names = (version: 'v1' | 'v2'): BuiltinSpec['names'] => ({
  group: 'autoscaling', version, resource: 'horizontalpodautoscalers', singular: 'horizontalpodautoscaler', kind: 'HorizontalPodAutoscaler',
  namespaced: true, shortNames: ['hpa'], categories: ['all'], status: true, nameValidation: 'subdomain',
});

/** The strategy, the same for both versions on the internal object. */
const strategy = {
  prepareForCreate: (o: KubeObject): void => {
    o.status = { desiredReplicas: 0, currentMetrics: null };
    dropTolerance(o, undefined);
  },
  prepareForUpdate: (o: KubeObject, old: KubeObject): void => {
    if (old.status === undefined) delete o.status;
    else o.status = cloneJSON(old.status);
    dropTolerance(o, old);
  },
  validate: (o: KubeObject, old?: KubeObject) => validateHorizontalPodAutoscalerSpec(o, old),
};

const apiVersions = ['autoscaling/v2', 'autoscaling/v1'];

/** The HorizontalPodAutoscaler kinds: autoscaling/v2 (the storage version) and autoscaling/v1, one stored object. */
export function autoscalingResourceTypes(): BuiltinResourceType[] {
  const views = new V1Views();
  const internalOf = (o: KubeObject): KubeObject => views.internalOf(o);
  const versionConversion = {
    versions: apiVersions,
    convert: (o: KubeObject, from: string, to: string): KubeObject => {
      if (from === to) return o;
      const internal = from === 'autoscaling/v1' ? internalOf(o) : o;
      return to === 'autoscaling/v1' ? views.show(internal, {} as KubeObject) : hpaToV2(internal);
    },
  };
  // autoscaling/v2beta1 and v2beta2 are in the scheme, not served.
  const otherVersions = (others: () => BuiltinResourceType[]): BuiltinSpec['otherVersions'] => ({ served: others, unserved: ['autoscaling/v2beta1', 'autoscaling/v2beta2'] });
  const v2: BuiltinResourceType = new BuiltinResourceType({
    names: names('v2'),
    storage: { ...storage, fromStorage: (stored) => hpaToV2(readStored(stored)), toStorage: hpaToV2 },
    versionConversion,
    otherVersions: otherVersions(() => [v1]),
    columns: columns((o) => o),
    // SetDefaults_HorizontalPodAutoscaler, after the decoder drops what only v1 writes.
    defaults: (o) => {
      o.metadata = hpaToV2(o).metadata;
      defaultHorizontalPodAutoscalerV2(o);
    },
    prepareForCreate: strategy.prepareForCreate,
    prepareForUpdate: strategy.prepareForUpdate,
    validateCreate: (o) => strategy.validate(o),
    validateUpdate: (o, old) => strategy.validate(o, old),
    validateStatusUpdate: (o, _old, meta) => [...meta, ...validateHorizontalPodAutoscalerStatus(o)],
  });
  const v1: BuiltinResourceType = new BuiltinResourceType({
    names: names('v1'),
    storage: { ...storage, fromStorage: (stored) => views.show(readStored(stored), {} as KubeObject), toStorage: (o) => stored(internalOf(o)) },
    versionConversion,
    otherVersions: otherVersions(() => [v2]),
    columns: columns(internalOf),
    // The apiserver's Table rows are of its internal objects, which carry no round-trip annotation.
    versionedAnnotations: roundTripAnnotations,
    // autoscaling/v1's SetDefaults_HorizontalPodAutoscaler (one replica at least), then the decode into the
    // internal object, shown as v1 again (the CPU default and the annotations as the apiserver writes them).
    defaults: (o) => {
      const spec = obj(o.spec);
      if (!present(spec.minReplicas)) spec.minReplicas = 1;
      o.spec = spec;
      views.show(hpaFromV1(o), o);
    },
    prepareForCreate: (o) => {
      const internal = internalOf(o);
      strategy.prepareForCreate(internal);
      views.show(internal, o);
    },
    prepareForUpdate: (o, old) => {
      const internal = internalOf(o);
      strategy.prepareForUpdate(internal, internalOf(old));
      views.show(internal, o);
    },
    validateCreate: (o) => strategy.validate(internalOf(o)),
    validateUpdate: (o, old) => strategy.validate(internalOf(o), internalOf(old)),
    prepareForStatusUpdate: (o, old) => {
      const internal = internalOf(o);
      keepSpec(internal, internalOf(old));
      views.show(internal, o);
    },
    validateStatusUpdate: (o, _old, meta) => [...meta, ...validateHorizontalPodAutoscalerStatus(internalOf(o))],
  });
  return [v2, v1];
}
