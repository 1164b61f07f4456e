/**
 * Writes of a Pod's `status` subresource as kube-apiserver 1.34 takes them: the status strategy's
 * `PrepareForUpdate` ({@link preparePodStatusUpdate}: the spec, owner references and deletion timestamp
 * stay, labels and annotations may change, an empty QoS class and observed generations keep their old values) and
 * `ValidatePodStatusUpdate` ({@link validatePodStatusUpdate}). The ContainerRestartRules and
 * ClearingNominatedNodeNameAfterBinding features are off, as in 1.34 by default; resource claim
 * statuses, container users and allocated resources are not checked.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/pod/strategy.go (podStatusStrategy)
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go (ValidatePodStatusUpdate)
 */
import { isIPv6 } from 'node:net';
import { FieldError, FieldPath, forbidden, invalid, type KubeObject } from '@kubekit/core';
import { isDNS1123Subdomain, isQualifiedName } from './internal/semantics.js';
import { cloneJSON, isObject, type JSONObject } from './internal/own.js';
import { validatePodAnnotationUpdates } from './podValidation.js';
import { append } from './internal/podFields.js';

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function objects(v: unknown): JSONObject[] {
  return list(v).map((x) => (isObject(x) ? x : {}));
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** An int64 member as a number or bigint, 0 when unset (Go's zero value). */
function int64(v: unknown): number | bigint {
  return typeof v === 'number' || typeof v === 'bigint' ? v : 0;
}

/**
 * `podStatusStrategy.PrepareForUpdate` with the v1 status conversion: the old spec and owner
 * references, an empty QoS class backfilled, observed generations left out keep their old values,
 * and `podIP` (authoritative when it disagrees) as the first of `podIPs`.
 */
export function preparePodStatusUpdate(pod: KubeObject, old: KubeObject): void {
  if (old.spec === undefined) delete pod.spec;
  else pod.spec = cloneJSON(old.spec);
  // The strategy clears it; BeforeUpdate puts back the timestamp of a pod being deleted.
  if (old.metadata.deletionTimestamp === undefined) delete pod.metadata.deletionTimestamp;
  const owners = old.metadata.ownerReferences;
  if (owners === undefined) delete pod.metadata.ownerReferences;
  else pod.metadata.ownerReferences = cloneJSON(owners);
  const status: JSONObject = isObject(pod.status) ? pod.status : {};
  pod.status = status;
  const before = isObject(old.status) ? old.status : {};
  if (text(status.qosClass) === '' && text(before.qosClass) !== '') status.qosClass = before.qosClass;
  if (int64(status.observedGeneration) == 0 && int64(before.observedGeneration) != 0) status.observedGeneration = before.observedGeneration;
  // The first old condition of each type lends its observed generation to the first new one, and so on.
  const generations = new Map<string, unknown[]>();
  for (const c of objects(before.conditions)) generations.set(text(c.type), [...(generations.get(text(c.type)) ?? []), c.observedGeneration]);
  for (const c of list(status.conditions)) {
    if (!isObject(c)) continue;
    const queue = generations.get(text(c.type)) ?? [];
    const inherited = queue.shift();
    if (int64(c.observedGeneration) == 0 && int64(inherited) != 0) c.observedGeneration = inherited;
  }
  // Convert_v1_PodStatus_To_core_PodStatus, and back: podIP is the first of podIPs.
  const podIP = text(status.podIP);
  const podIPs = objects(status.podIPs);
  if (podIP !== '' && (podIPs.length === 0 || text(podIPs[0].ip) !== podIP)) status.podIPs = [{ ip: podIP }];
  else if (podIP === '' && podIPs.length > 0 && text(podIPs[0].ip) !== '') status.podIP = podIPs[0].ip;
}

/** `ValidatePodStatusUpdate` after `ValidateObjectMetaUpdate`, in its order. */
export function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs = validatePodAnnotationUpdates(pod, old);
  const status = isObject(pod.status) ? pod.status : {};
  const before = isObject(old.status) ? old.status : {};
  const path = FieldPath.root('status');
  append(errs, validatePodConditions(objects(status.conditions), path.child('conditions')));
  const nominated = text(status.nominatedNodeName);
  if (nominated !== '' && nominated !== text(before.nominatedNodeName)) {
    for (const msg of isDNS1123Subdomain(nominated)) errs.push(invalid(path.child('nominatedNodeName'), nominated, msg));
  }
  if (int64(status.observedGeneration) < 0) errs.push(invalid(path.child('observedGeneration'), status.observedGeneration, 'must be a non-negative integer'));
  if (text(status.qosClass) !== text(before.qosClass)) errs.push(invalid(path.child('qosClass'), text(status.qosClass), 'field is immutable'));
  const spec = isObject(old.spec) ? old.spec : {};
  const restartPolicy = text(spec.restartPolicy);
  const restartable = new Set(objects(spec.initContainers).filter((c) => c.restartPolicy === 'Always').map((c) => text(c.name)));
  append(errs, validateStateTransitions(status.containerStatuses, before.containerStatuses, path.child('containerStatuses'), restartPolicy));
  append(errs, validateStateTransitions(status.initContainerStatuses, before.initContainerStatuses, path.child('initContainerStatuses'), restartPolicy, restartable));
  append(errs, validateStateTransitions(status.ephemeralContainerStatuses, before.ephemeralContainerStatuses, path.child('ephemeralContainerStatuses'), 'Never'));
  append(errs, validateIPs(objects(status.podIPs), objects(before.podIPs), path.child('podIPs')));
  const hostIPs = objects(status.hostIPs);
  if (hostIPs.length > 0) {
    if (text(status.hostIP) !== text(hostIPs[0].ip)) errs.push(invalid(path.child('hostIPs').index(0).child('ip'), text(hostIPs[0].ip), 'must be equal to `hostIP`'));
    append(errs, validateIPs(hostIPs, objects(before.hostIPs), path.child('hostIPs')));
  }
  return errs;
}

/** The condition types only the system sets; their names are not checked. */
const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

/** `validatePodConditions`: non-negative observed generations, qualified names for custom types (the path says `Type`, as upstream's). */
function validatePodConditions(conditions: JSONObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  conditions.forEach((c, i) => {
    if (int64(c.observedGeneration) < 0) errs.push(invalid(path.index(i).child('observedGeneration'), c.observedGeneration, 'must be a non-negative integer'));
    const type = text(c.type);
    if (systemConditions.has(type)) return;
    for (const msg of isQualifiedName(type)) errs.push(invalid(path.index(i).child('Type'), type, msg));
  });
  return errs;
}

/**
 * `ValidateContainerStateTransition` and its init and ephemeral container forms: a terminated container
 * stays terminated unless the pod restarts it (policy `Always`, a failure under `OnFailure`, a
 * restartable init container). The index is the old status's.
 */
function validateStateTransitions(statuses: unknown, old: unknown, path: FieldPath, restartPolicy: string, restartable = new Set<string>()): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  objects(old).forEach((before, i) => {
    const terminated = isObject(before.state) && isObject(before.state.terminated) ? before.state.terminated : undefined;
    if (terminated === undefined) return;
    if (int64(terminated.exitCode) != 0 && restartPolicy === 'OnFailure') return;
    if (restartable.has(text(before.name))) return;
    for (const now of objects(statuses)) {
      if (text(now.name) === text(before.name) && !(isObject(now.state) && isObject(now.state.terminated))) {
        errs.push(forbidden(path.index(i).child('state'), 'may not be transitioned to non-terminated state'));
      }
    }
  });
  return errs;
}

/** An IPv4 address as Go's sloppy parser reads it: four decimal octets, leading zeros allowed. */
/** Whether Go's sloppy parser reads `ip` as an IPv4 address (leading zeros allowed). */
export function isIPv4Sloppy(ip: string): boolean {
  const parts = ip.split('.');
  // Any number of leading zeros (`0010.1.1.1` reads as 10.1.1.1): the forked Go 1.16 parser's `dtoi` counts
  // no digits, it only stops past 0xFFFFFF (k8s.io/utils internal/third_party/forked/golang/net/parse.go).
  return parts.length === 4 && parts.every((p) => /^[0-9]+$/.test(p) && Number(p) <= 255);
}

/** The family of an address Go's sloppy parser (`netutils.ParseIPSloppy`) reads, undefined when it reads none. */
export function ipFamily(ip: string): 4 | 6 | undefined {
  if (isIPv4Sloppy(ip)) return 4;
  // Go's parser takes no zone; an embedded IPv4 part may have leading zeros too.
  if (ip.includes('%') || !ip.includes(':')) return undefined;
  const lastColon = ip.lastIndexOf(':');
  const tail = ip.slice(lastColon + 1);
  const normalized = tail.includes('.') && isIPv4Sloppy(tail) ? `${ip.slice(0, lastColon + 1)}${tail.split('.').map(Number).join('.')}` : ip;
  if (!isIPv6(normalized)) return undefined;
  // An IPv4-mapped address is IPv4 to Go (its To4 is not nil).
  return /^::ffff:[0-9.]+$/i.test(normalized) ? 4 : 6;
}

/**
 * `validatePodIPs`/`validateHostIPs`: every new address parses (old ones may stay as they were), and
 * two at most, one of each family. The list prints as the internal type (`[{"IP":"…"}]`).
 */
function validateIPs(ips: JSONObject[], old: JSONObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const kept = new Set(old.map((o) => text(o.ip)));
  ips.forEach((o, i) => {
    const ip = text(o.ip);
    if (!kept.has(ip) && ipFamily(ip) === undefined) errs.push(invalid(path.index(i), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  if (ips.length > 1) {
    const families = ips.map((o) => ipFamily(text(o.ip)));
    const unparsed = families.indexOf(undefined);
    const dualStack = unparsed < 0 && families.includes(4) && families.includes(6);
    if (unparsed >= 0) errs.push(new FieldError('InternalError', path, '', `failed to check for dual stack with error:invalid IP[${unparsed}]: ${text(ips[unparsed].ip)}`));
    if (!dualStack || ips.length > 2) errs.push(invalid(path, ips.map((o) => ({ IP: text(o.ip) })), 'may specify no more than one IP for each IP family'));
  }
  return errs;
}
