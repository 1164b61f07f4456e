/**
 * `ValidatePodSpec` as kube-apiserver 1.34 runs it on a Pod's spec and on every workload's pod
 * template, in its order: the grace period, the volumes, the containers, init containers and
 * ephemeral containers (`podContainers.ts`), pod-level resources (`podLevelResources.ts`), host network
 * ports, the restart and DNS policies, the node selector's labels, the security context
 * (`podSecurityContext.ts`), affinity, DNS config, readiness and scheduling gates, topology spread
 * constraints (`podScheduling.ts`), the service account name,
 * the node name, `activeDeadlineSeconds`, host name and subdomain, the tolerations, host aliases,
 * priority and runtime class names, the overhead, and `os`.
 *
 * Not checked (a cluster refuses what kubekit accepts there): resource claims, the parts of security
 * contexts `podSecurityContext.ts` names, `matchLabelKeys`, the Linux- and Windows-only fields `os`
 * restricts, and the contents of an ephemeral volume's claim template.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go (ValidatePodSpec)
 */
import { FieldPath, forbidden, invalid, notSupported, required, type FieldError } from '@kubekit/core';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, validateLabels } from './internal/semantics.js';
import { isObject, type JSONObject } from './internal/own.js';
import { validateContainerOnlyForPod, validateContainers, validateEphemeralContainers, validateInitContainers } from './podContainers.js';
import { validateVolumes } from './podVolumes.js';
import { validateResourceRequirements } from './podResources.js';
import { validatePodResources } from './podLevelResources.js';
import { append, int, isSet, list, str } from './internal/podFields.js';
import { validatePodSecurityContext } from './podSecurityContext.js';
import { ipFamily } from './podStatus.js';
import { validateAffinity, validateDNSConfig, validateReadinessGates, validateSchedulingGates, validateTopologySpreadConstraints } from './podScheduling.js';

const maxInt32 = 2147483647;
const restartPolicies = ['Always', 'OnFailure', 'Never'];
/** `validateDNSPolicy` lists them in this order (not sorted). */
const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** The errors of a pod spec at `path` (`spec`, `spec.template.spec`, …); `isPod`: a Pod's, not a template's (`ResourceIsPod`). */
export function validatePodSpec(value: unknown, path: FieldPath, isPod: boolean): FieldError[] {
  const spec: JSONObject = isObject(value) ? value : {};
  const errs: FieldError[] = [];
  if (!isSet(spec.terminationGracePeriodSeconds)) errs.push(required(path.child('terminationGracePeriodSeconds'), ''));
  const volumes = validateVolumes(list(spec.volumes), path.child('volumes'));
  append(errs, volumes.errors);
  const ctx = { volumes: volumes.volumes, gracePeriod: int(spec.terminationGracePeriodSeconds), restartPolicy: str(spec.restartPolicy) };
  const containers = list(spec.containers);
  const init = list(spec.initContainers);
  append(errs, validateContainers(containers, ctx, path.child('containers')));
  append(errs, validateInitContainers(init, containers, ctx, path.child('initContainers')));
  append(errs, validateEphemeralContainers(list(spec.ephemeralContainers), containers, init, ctx, path.child('ephemeralContainers')));
  append(errs, validatePodResources(spec, path));
  append(errs, validateHostNetworkPorts(spec, path, isPod));
  append(errs, validateChoice(spec.restartPolicy, restartPolicies, path.child('restartPolicy')));
  append(errs, validateChoice(spec.dnsPolicy, dnsPolicies, path.child('dnsPolicy')));
  if (isObject(spec.nodeSelector)) append(errs, validateLabels(spec.nodeSelector as Record<string, string>, path.child('nodeSelector')));
  append(errs, validatePodSecurityContext(spec, path.child('securityContext')));
  append(errs, validateAffinity(spec.affinity, path.child('affinity')));
  append(errs, validateDNSConfig(spec.dnsConfig, spec.dnsPolicy, path.child('dnsConfig')));
  append(errs, validateReadinessGates(list(spec.readinessGates), path.child('readinessGates')));
  append(errs, validateSchedulingGates(list(spec.schedulingGates), path.child('schedulingGates')));
  append(errs, validateTopologySpreadConstraints(list(spec.topologySpreadConstraints), path.child('topologySpreadConstraints')));
  const account = str(spec.serviceAccountName);
  if (account !== '') for (const msg of isDNS1123Subdomain(account)) errs.push(invalid(path.child('serviceAccountName'), account, msg));
  const nodeName = str(spec.nodeName);
  if (nodeName !== '') for (const msg of isDNS1123Subdomain(nodeName)) errs.push(invalid(path.child('nodeName'), nodeName, msg));
  const deadline = int(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > maxInt32)) {
    errs.push(invalid(path.child('activeDeadlineSeconds'), spec.activeDeadlineSeconds, `must be between 1 and ${maxInt32}, inclusive`));
  }
  for (const name of ['hostname', 'subdomain']) {
    const v = str(spec[name]);
    if (v !== '') for (const msg of isDNS1123Label(v)) errs.push(invalid(path.child(name), v, msg));
  }
  append(errs, validateTolerations(list(spec.tolerations), path.child('tolerations')));
  list(spec.hostAliases).forEach((a, i) => {
    const alias = isObject(a) ? a : {};
    const p = path.child('hostAliases').index(i);
    const ip = str(alias.ip);
    if (ipFamily(ip) === undefined) errs.push(invalid(p.child('ip'), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    list(alias.hostnames).forEach((h, j) => {
      for (const msg of isDNS1123Subdomain(str(h))) errs.push(invalid(p.child('hostnames').index(j), str(h), msg));
    });
  });
  for (const name of ['priorityClassName', 'runtimeClassName']) {
    // runtimeClassName is checked when set, even to "" (a pointer); priorityClassName when not empty.
    const set = name === 'runtimeClassName' ? isSet(spec[name]) : str(spec[name]) !== '';
    if (set) for (const msg of isDNS1123Subdomain(str(spec[name]))) errs.push(invalid(path.child(name), str(spec[name]), msg));
  }
  // validateOverhead: the overhead checked as a container's limits (preemptionPolicy's check is the pod's own).
  if (isSet(spec.overhead)) append(errs, validateResourceRequirements({ limits: spec.overhead }, path.child('overhead')));
  if (isObject(spec.os)) {
    const os = str(spec.os.name);
    if (os === '') errs.push(required(path.child('os', 'name'), ''));
    else if (os !== 'linux' && os !== 'windows') errs.push(notSupported(path.child('os'), os, ['linux', 'windows']));
  }
  return errs;
}

/**
 * `validatePodHostNetworkDeps`: on the host network a port's host port is its container port (a
 * template may leave it 0: the pod's defaults will set it).
 */
function validateHostNetworkPorts(spec: JSONObject, path: FieldPath, isPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  list(spec.containers).forEach((c, i) => {
    list(isObject(c) ? c.ports : undefined).forEach((pt, j) => {
      const port = isObject(pt) ? pt : {};
      const hostPort = int(port.hostPort) ?? 0;
      if ((isPod || hostPort !== 0) && hostPort !== (int(port.containerPort) ?? 0)) {
        errs.push(invalid(path.child('containers').index(i).child('ports').index(j).child('hostPort'), hostPort, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

/**
 * What `validatePodMetadataAndSpec` checks of a Pod beyond its spec: projected service account tokens
 * need a service account, and images have no surrounding whitespace.
 */
export function validatePodOnly(value: unknown, path: FieldPath): FieldError[] {
  const spec: JSONObject = isObject(value) ? value : {};
  const errs: FieldError[] = [];
  if (str(spec.serviceAccountName) === '') {
    list(spec.volumes).forEach((v, i) => {
      const projected = isObject(v) && isObject(v.projected) ? v.projected : undefined;
      if (projected === undefined) return;
      list(projected.sources).forEach((s, j) => {
        if (isObject(s) && isSet(s.serviceAccountToken)) {
          const tokenPath = path.child('volumes').index(i).child('projected', 'sources').index(j).child('serviceAccountToken');
          errs.push(forbidden(tokenPath, 'must not be specified when serviceAccountName is not set'));
        }
      });
    });
  }
  for (const name of ['containers', 'initContainers']) {
    list(spec[name]).forEach((c, i) => errs.push(...validateContainerOnlyForPod(isObject(c) ? c : {}, path.child(name).index(i))));
  }
  return errs;
}

/** `validateRestartPolicy`, `validateDNSPolicy`: one of the values, required when empty. */
function validateChoice(value: unknown, values: readonly string[], path: FieldPath): FieldError[] {
  const v = str(value);
  if (values.includes(v)) return [];
  return v === '' ? [required(path, '')] : [notSupported(path, v, values)];
}

/** `ValidateTolerations`: key, operator, value and effect of each toleration, and how they combine. */
export function validateTolerations(tolerations: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const o = isObject(t) ? t : {};
    const [key, operator, value, effect] = [str(o.key), str(o.operator), str(o.value), str(o.effect)];
    const p = path.index(i);
    if (key !== '') for (const msg of isQualifiedName(key)) errs.push(invalid(p.child('key'), key, msg));
    if (key === '' && operator !== 'Exists') errs.push(invalid(p.child('operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (isSet(o.tolerationSeconds) && effect !== 'NoExecute') errs.push(invalid(p.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length > 0) errs.push(invalid(p.child('operator'), value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(invalid(p.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(p.child('operator'), operator, ['Equal', 'Exists']));
    }
    if (effect !== '' && !taintEffects.includes(effect)) errs.push(notSupported(p.child('effect'), effect, taintEffects));
  });
  return errs;
}
