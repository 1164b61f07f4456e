/**
 * The `RuntimeClass` admission plugin of kube-apiserver 1.34.4 (plugin/pkg/admission/runtimeclass) on a
 * pod being created (not through a subresource): the class the pod names must be stored; `Admit` sets the
 * class's `overhead.podFixed` as the pod's `spec.overhead` (a pod that gives another overhead is refused)
 * and merges the class's `scheduling` into the pod (its node selector, a conflicting label refused; its
 * tolerations, with `MergeTolerations` of pkg/util/tolerations dropping any that another tolerates);
 * `Validate`, after the mutating webhooks and the pod's validation, refuses a pod whose overhead differs
 * from its class's, or that has an overhead and no class with one.
 *
 * @see https://kubernetes.io/docs/concepts/scheduling-eviction/pod-overhead/
 */
import { KubeError, type KubeObject } from '@kubekit/core';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';
import { wasEmpty } from './builtinGoJSON.js';
import { isObject, str, type JSONObject } from './internal/own.js';
import { listsEqual, resourceList, roundUpListToMilli } from './internal/resourceList.js';
import { bucketOf, storeKey, type ObjectStore } from './storage/objectStore.js';

const runtimeClassesBucket = bucketOf({ group: 'node.k8s.io', resource: 'runtimeclasses' });

/** A toleration as Go holds it: the five members of `core.Toleration` (absent ones zero). */
export interface Toleration {
  key: string;
  operator: string;
  value: string;
  effect: string;
  seconds: number | undefined;
  /** The toleration as the pod or class wrote it. */
  json: unknown;
}

/** A toleration of a pod or class as Go decodes it. */
export function toleration(t: unknown): Toleration {
  const o = isObject(t) ? t : {};
  return { key: str(o.key), operator: str(o.operator), value: str(o.value), effect: str(o.effect), seconds: typeof o.tolerationSeconds === 'number' ? o.tolerationSeconds : undefined, json: t };
}

const sameToleration = (a: Toleration, b: Toleration): boolean =>
  a.key === b.key && a.operator === b.operator && a.value === b.value && a.effect === b.effect && a.seconds === b.seconds;

/** `isSuperset`: whether `ss` tolerates everything `t` does. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameToleration(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (t.key !== ss.key && (ss.key !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (t.effect !== ss.effect && ss.effect !== '') return false;
  if (ss.effect === 'NoExecute' && ss.seconds !== undefined && (t.seconds === undefined || t.seconds > ss.seconds)) return false;
  // Upstream reads an empty operator as Equal on the superset's side only.
  if (ss.operator === 'Equal' || ss.operator === '') return t.operator === 'Equal' && t.value === ss.value;
  return ss.operator === 'Exists';
}

/** `MergeTolerations`: both lists in order, less each toleration another one (kept or later) tolerates a superset of. */
export function mergeTolerations(first: unknown[], second: unknown[]): unknown[] {
  const all = [...first, ...second].map(toleration);
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    // Of two equal tolerations the first is kept.
    if (all.slice(i + 1).some((t2) => !sameToleration(t, t2) && isSuperset(t2, t))) return;
    merged.push(t);
  });
  return merged.map((t) => t.json);
}

/** Whether the pod's overhead is non-nil in Go: set, or sent as `{}` (which the decoding dropped as omitempty). */
const hasOverhead = (spec: JSONObject): boolean => (spec.overhead !== undefined && spec.overhead !== null) || wasEmpty(spec, 'overhead');
/** A pod's overhead and a class's `podFixed` compared as `Semantic.DeepEqual` does: by value, an empty list equal to none. */
const sameOverhead = (a: unknown, b: unknown): boolean => listsEqual(resourceList(a), resourceList(b));

/** The `RuntimeClass` admission plugin, reading the stored RuntimeClasses (see the file comment). */
export class RuntimeClassAdmission implements AdmissionPlugin {
  constructor(private readonly store: ObjectStore) {}

  /** `shouldIgnore` and the plugin's handler (creates only): the pod's spec, or undefined when not handled. */
  private podSpec(attrs: AdmissionAttributes): JSONObject | undefined {
    const { names } = attrs.type;
    if (attrs.operation !== 'CREATE' || attrs.subresource !== '' || names.group !== '' || names.resource !== 'pods' || attrs.object === undefined) return undefined;
    const pod = attrs.object as JSONObject;
    if (!isObject(pod.spec)) pod.spec = {};
    return pod.spec as JSONObject;
  }

  /** `prepareObjects`: the class the pod names (undefined when none), refused when it is not stored. */
  private runtimeClass(attrs: AdmissionAttributes, spec: JSONObject): KubeObject | undefined {
    const name = spec.runtimeClassName;
    if (name === undefined || name === null) return undefined;
    // The lister's Get of "" fails on the name itself: a plain error, the apiserver's 500 without a reason.
    if (name === '') throw new KubeError('Unknown', 'resource name may not be empty');
    const found = this.store.get(runtimeClassesBucket, storeKey('', str(name)));
    if (found === undefined) throw admissionForbidden(attrs, `pod rejected: RuntimeClass ${JSON.stringify(str(name))} not found`);
    return found;
  }

  /** `Admit`: `setOverhead`, then `setScheduling`. */
  admit(attrs: AdmissionAttributes): void {
    const spec = this.podSpec(attrs);
    if (spec === undefined) return;
    const rc = this.runtimeClass(attrs, spec);
    if (rc === undefined) return;
    if (isObject(rc.overhead)) {
      const podFixed = rc.overhead.podFixed;
      if (resourceList(spec.overhead).size > 0 && !sameOverhead(podFixed, spec.overhead)) throw admissionForbidden(attrs, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
      if (isObject(podFixed) && Object.keys(podFixed).length > 0) spec.overhead = { ...podFixed };
      else delete spec.overhead;
    }
    if (!isObject(rc.scheduling)) return;
    const classSelector = isObject(rc.scheduling.nodeSelector) ? rc.scheduling.nodeSelector : undefined;
    if (isObject(spec.nodeSelector)) {
      const selector = spec.nodeSelector;
      for (const [key, value] of Object.entries(classSelector ?? {})) {
        if (Object.hasOwn(selector, key) && selector[key] !== value) {
          throw admissionForbidden(attrs, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${str(value)}; pod.spec.nodeSelector[${key}] = ${str(selector[key])}`);
        }
        Object.defineProperty(selector, key, { value, enumerable: true, writable: true, configurable: true });
      }
    } else if (classSelector !== undefined && Object.keys(classSelector).length > 0) {
      spec.nodeSelector = { ...classSelector };
    }
    const classTolerations = Array.isArray(rc.scheduling.tolerations) ? rc.scheduling.tolerations : [];
    const merged = mergeTolerations(Array.isArray(spec.tolerations) ? spec.tolerations : [], classTolerations);
    if (merged.length > 0) spec.tolerations = merged;
    else delete spec.tolerations;
  }

  /**
   * `Validate`: `validateOverhead`. The pod is then stored: its overhead read back rounded up to
   * thousandths, as the apiserver's storage decodes a pod with `SetDefaults_ResourceList` (the class keeps
   * `1n`; the pod answers `1m`).
   */
  validate(attrs: AdmissionAttributes): void {
    const spec = this.podSpec(attrs);
    if (spec === undefined) return;
    const rc = this.runtimeClass(attrs, spec);
    if (rc !== undefined && isObject(rc.overhead)) {
      if (!sameOverhead(rc.overhead.podFixed, spec.overhead)) throw admissionForbidden(attrs, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    } else if (hasOverhead(spec)) {
      throw admissionForbidden(attrs, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    }
    roundUpListToMilli(spec.overhead);
  }
}
