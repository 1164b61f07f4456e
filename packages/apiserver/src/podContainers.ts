/**
 * A pod spec's containers, init containers and ephemeral containers, checked as kube-apiserver 1.34
 * checks them (`validateContainers`, `validateInitContainers`, `validateEphemeralContainers` and
 * `validateContainerCommon` in pkg/apis/core/validation), in its order: per container its name (a DNS
 * label), image, termination message policy, ports, env, envFrom, volume mounts and devices, pull policy,
 * resources and resize policy; then names unique across the lists, lifecycle handlers and probes, and host ports
 * that collide. The options are those a 1.34 cluster runs with: relaxed environment variable names
 * (`RelaxedEnvironmentVariableValidation` is GA), a zero-second sleep allowed; `fileKeyRef`, container
 * restart rules and stop signals are dropped before validation (their features are off).
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { FieldPath, duplicate, forbidden, invalid, notFound, notSupported, required, trimSpace, type FieldError } from '@kubekit/core';
import { isConfigMapKey, isDNS1123Label, isDNS1123Subdomain } from './internal/semantics.js';
import { isObject, type JSONObject } from './internal/own.js';
import { validateResourceRequirements } from './podResources.js';
import { validateContainerSecurityContext } from './podSecurityContext.js';
import { validatePullPolicy, validateVolumeDevices, validateVolumeMounts } from './podVolumes.js';
import { append, int, isSet, list, obj, str } from './internal/podFields.js';
import { validateObjectFieldSelector, validateResourceFieldSelector } from './internal/downwardAPI.js';

const terminationMessagePolicies = ['File', 'FallbackToLogsOnError'];
/** The protocols a port may use (`supportedPortProtocols`). */
export const portProtocols = ['SCTP', 'TCP', 'UDP'];
const httpSchemes = ['HTTP', 'HTTPS'];
/** `validEnvDownwardAPIFieldPathExpressions`, sorted as `sets.List` prints them. */
const envFieldPaths = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
/** `supportedResizeResources` and `supportedResizePolicies`, sorted as `sets.List` prints them. */
const resizeResources = ['cpu', 'memory'];
const resizeRestartPolicies = ['NotRequired', 'RestartContainer'];
const notForInit = 'may not be set for init containers without restartPolicy=Always';
/** The `EphemeralContainerCommon` fields an ephemeral container may not set, in the struct's order. */
const notForEphemeral = ['ports', 'resources', 'resizePolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

/** What every container list is checked against: the pod's volumes and grace period. */
export interface ContainerContext {
  /** The volumes that passed validation, by name. */
  volumes: Map<string, JSONObject>;
  /** `terminationGracePeriodSeconds`, for sleep handlers. */
  gracePeriod: number | undefined;
  /** The pod's `restartPolicy`, which a container's resize policy must fit. */
  restartPolicy: string;
}

/** `validateContainers`: at least one, each checked, names unique, handlers and probes, host ports. */
export function validateContainers(containers: unknown[], ctx: ContainerContext, path: FieldPath): FieldError[] {
  if (containers.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const ctr = obj(c);
    const p = path.index(i);
    append(errs, validateContainerCommon(ctr, ctx, p));
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    if (isSet(ctr.lifecycle)) append(errs, validateLifecycle(obj(ctr.lifecycle), ctx, p.child('lifecycle')));
    append(errs, validateProbes(ctr, ctx, p));
  });
  append(errs, hostPortConflicts(containers, path));
  return errs;
}

/** `validateInitContainers`: each checked, names unique with the regular ones; only sidecars have handlers and probes. */
export function validateInitContainers(containers: unknown[], regular: unknown[], ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => str(obj(c).name)));
  containers.forEach((c, i) => {
    const ctr = obj(c);
    const p = path.index(i);
    append(errs, validateContainerCommon(ctr, ctx, p));
    // Any other restart policy is dropped before validation while ContainerRestartRules is off.
    const sidecar = ctr.restartPolicy === 'Always';
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name !== '') names.add(name);
    append(errs, hostPortConflicts([ctr], path));
    if (sidecar) {
      if (isSet(ctr.lifecycle)) append(errs, validateLifecycle(obj(ctr.lifecycle), ctx, p.child('lifecycle')));
      append(errs, validateProbes(ctr, ctx, p));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) if (isSet(ctr[f])) errs.push(forbidden(p.child(f), notForInit));
    }
  });
  return errs;
}

/**
 * `validateEphemeralContainers` (run for templates too, which then refuse them): each checked as a
 * pod's container, names unique across all lists, targets among the other containers, no ports,
 * resources, probes or lifecycle, no sub-paths.
 */
export function validateEphemeralContainers(containers: unknown[], regular: unknown[], init: unknown[], ctx: ContainerContext, path: FieldPath): FieldError[] {
  if (containers.length === 0) return [];
  const errs: FieldError[] = [];
  const others = new Set([...regular, ...init].map((c) => str(obj(c).name)));
  const names = new Set(others);
  containers.forEach((c, i) => {
    const ctr = obj(c);
    const p = path.index(i);
    append(errs, validateContainerCommon(ctr, ctx, p));
    append(errs, validateContainerOnlyForPod(ctr, p));
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    const target = str(ctr.targetContainerName);
    if (target !== '' && !others.has(target)) errs.push(notFound(p.child('targetContainerName'), target));
    for (const f of notForEphemeral) if (isNonZero(ctr[f])) errs.push(forbidden(p.child(f), 'cannot be set for an Ephemeral Container'));
    list(ctr.volumeMounts).forEach((m, j) => {
      for (const f of ['subPath', 'subPathExpr']) if (str(obj(m)[f]) !== '') errs.push(forbidden(p.child('volumeMounts').index(j).child(f), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** A field Go would hold as other than its zero value (an empty list or map counts: it is not nil). */
function isNonZero(v: unknown): boolean {
  if (!isSet(v)) return false;
  if (isObject(v) && !Array.isArray(v)) return Object.values(v).some(isSet);
  return true;
}

/** `validateContainerOnlyForPod`: an image without surrounding whitespace. */
export function validateContainerOnlyForPod(ctr: JSONObject, path: FieldPath): FieldError[] {
  const image = str(ctr.image);
  return trimSpace(image) !== image ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}

/** `validateContainerCommon`. */
function validateContainerCommon(ctr: JSONObject, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(ctr.name);
  if (name === '') errs.push(required(path.child('name'), ''));
  else for (const msg of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, msg));
  if (str(ctr.image) === '') errs.push(required(path.child('image'), ''));
  const policy = str(ctr.terminationMessagePolicy);
  if (policy === '') errs.push(required(path.child('terminationMessagePolicy'), ''));
  else if (!terminationMessagePolicies.includes(policy)) errs.push(notSupported(path.child('terminationMessagePolicy'), policy, terminationMessagePolicies));
  append(errs, validatePorts(list(ctr.ports), path.child('ports')));
  append(errs, validateEnv(list(ctr.env), path.child('env')));
  append(errs, validateEnvFrom(list(ctr.envFrom), path.child('envFrom')));
  append(errs, validateVolumeMounts(ctr, ctx.volumes, path.child('volumeMounts')));
  append(errs, validateVolumeDevices(ctr, ctx.volumes, path.child('volumeDevices')));
  append(errs, validatePullPolicy(ctr.imagePullPolicy, path.child('imagePullPolicy')));
  if (isObject(ctr.resources)) append(errs, validateResourceRequirements(ctr.resources, path.child('resources')));
  append(errs, validateResizePolicy(list(ctr.resizePolicy), ctx.restartPolicy, path.child('resizePolicy')));
  append(errs, validateContainerSecurityContext(ctr.securityContext, path.child('securityContext')));
  return errs;
}

/**
 * `validateResizePolicy`: each resource (cpu or memory) once, a known restart policy, and in a pod that never
 * restarts (`restartPolicy: Never`) only `NotRequired`.
 */
function validateResizePolicy(policies: unknown[], podRestartPolicy: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  policies.forEach((p, i) => {
    const policy = obj(p);
    const resource = str(policy.resourceName);
    if (seen.has(resource)) errs.push(duplicate(path.index(i), resource));
    seen.add(resource);
    if (resource === '') errs.push(required(path, ''));
    else if (!resizeResources.includes(resource)) errs.push(notSupported(path, resource, resizeResources));
    const restart = str(policy.restartPolicy);
    if (restart === '') errs.push(required(path, ''));
    else if (!resizeRestartPolicies.includes(restart)) errs.push(notSupported(path, restart, resizeRestartPolicies));
    if (podRestartPolicy === 'Never' && restart !== 'NotRequired') errs.push(invalid(path, restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errs;
}

/** `validateContainerPorts`. */
function validatePorts(ports: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((pt, i) => {
    const port = obj(pt);
    const p = path.index(i);
    const name = str(port.name);
    if (name !== '') {
      const msgs = portNameErrors(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(invalid(p.child('name'), name, msg));
      else if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = int(port.containerPort) ?? 0;
    if (containerPort === 0) errs.push(required(p.child('containerPort'), ''));
    else if (!validPortNumber(containerPort)) errs.push(invalid(p.child('containerPort'), containerPort, portRangeError));
    const hostPort = int(port.hostPort) ?? 0;
    if (hostPort !== 0 && !validPortNumber(hostPort)) errs.push(invalid(p.child('hostPort'), hostPort, portRangeError));
    const protocol = str(port.protocol);
    if (protocol === '') errs.push(required(p.child('protocol'), ''));
    else if (!portProtocols.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, portProtocols));
  });
  return errs;
}

const portRangeError = 'must be between 1 and 65535, inclusive';

function validPortNumber(n: number): boolean {
  return n >= 1 && n <= 65535;
}

/** `IsValidPortName` (an IANA_SVC_NAME). */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** `IsRelaxedEnvVarName`: printable ASCII other than `=`. */
function envVarNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name === '') errs.push('environment variable name must be non-empty');
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x7e || code < 0x20 || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

/** `ValidateEnv`. */
function validateEnv(vars: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  vars.forEach((v, i) => {
    const ev = obj(v);
    const p = path.index(i);
    const name = str(ev.name);
    if (name === '') errs.push(required(p.child('name'), ''));
    else for (const msg of envVarNameErrors(name)) errs.push(invalid(p.child('name'), name, msg));
    append(errs, validateEnvValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

/** `validateEnvVarValueFrom`: exactly one source, and no `value` beside it. */
function validateEnvValueFrom(ev: JSONObject, path: FieldPath): FieldError[] {
  if (!isSet(ev.valueFrom)) return [];
  const from = obj(ev.valueFrom);
  const errs: FieldError[] = [];
  let count = 0;
  if (isSet(from.fieldRef)) {
    count++;
    append(errs, validateObjectFieldSelector(obj(from.fieldRef), envFieldPaths, path.child('fieldRef')));
  }
  if (isSet(from.resourceFieldRef)) {
    count++;
    append(errs, validateResourceFieldSelector(obj(from.resourceFieldRef), path.child('resourceFieldRef'), false));
  }
  for (const kind of ['configMapKeyRef', 'secretKeyRef']) {
    if (!isSet(from[kind])) continue;
    count++;
    append(errs, validateKeySelector(obj(from[kind]), path.child(kind)));
  }
  if (count === 0) errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value) !== '') errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** `validateConfigMapKeySelector` and `validateSecretKeySelector`: a name (checked even when empty) and a key. */
function validateKeySelector(s: JSONObject, path: FieldPath): FieldError[] {
  const name = str(s.name);
  const errs = isDNS1123Subdomain(name).map((msg) => invalid(path.child('name'), name, msg));
  const key = str(s.key);
  if (key === '') errs.push(required(path.child('key'), ''));
  else for (const msg of isConfigMapKey(key)) errs.push(invalid(path.child('key'), key, msg));
  return errs;
}


/** `ValidateEnvFrom`: a valid prefix and exactly one of a ConfigMap or a Secret. */
function validateEnvFrom(sources: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  sources.forEach((s, i) => {
    const ev = obj(s);
    const p = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix !== '') for (const msg of envVarNameErrors(prefix)) errs.push(invalid(p.child('prefix'), prefix, msg));
    let count = 0;
    for (const kind of ['configMapRef', 'secretRef']) {
      if (!isSet(ev[kind])) continue;
      count++;
      const name = str(obj(ev[kind]).name);
      if (name === '') errs.push(required(p.child(kind, 'name'), ''));
      else for (const msg of isDNS1123Subdomain(maskTrailingDash(name))) errs.push(invalid(p.child(kind, 'name'), name, msg));
    }
    if (count === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

/** A name validated as a prefix (apimachinery's `maskTrailingDash`, which drops the character before the dash too). */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** The liveness, readiness and startup probes of a container that may have them. */
function validateProbes(ctr: JSONObject, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (!isSet(ctr[kind])) continue;
    const probe = obj(ctr[kind]);
    const p = path.child(kind);
    append(errs, validateProbe(probe, ctx, p));
    if (kind === 'readinessProbe') {
      if (isSet(probe.terminationGracePeriodSeconds)) errs.push(invalid(p.child('terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    } else if (int(probe.successThreshold) !== 1) {
      errs.push(invalid(p.child('successThreshold'), int(probe.successThreshold) ?? 0, 'must be 1'));
    }
  }
  return errs;
}

/** `validateProbe`: one handler, numbers not negative, a positive grace period when set. */
function validateProbe(probe: JSONObject, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs = validateHandler(probe, ['exec', 'httpGet', 'tcpSocket', 'grpc'], ctx, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const n = int(probe[f]) ?? 0;
    if (n < 0) errs.push(invalid(path.child(f), n, 'must be greater than or equal to 0'));
  }
  const grace = int(probe.terminationGracePeriodSeconds);
  if (grace !== undefined && grace <= 0) errs.push(invalid(path.child('terminationGracePeriodSeconds'), probe.terminationGracePeriodSeconds, 'must be greater than 0'));
  return errs;
}

/** `validateLifecycle`: the post-start and pre-stop handlers. */
function validateLifecycle(lifecycle: JSONObject, ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const kind of ['postStart', 'preStop']) {
    if (isSet(lifecycle[kind])) append(errs, validateHandler(obj(lifecycle[kind]), ['exec', 'httpGet', 'tcpSocket', 'sleep'], ctx, path.child(kind)));
  }
  return errs;
}

/** `validateHandler`: exactly one of the kinds a probe or lifecycle hook may use, with its fields. */
function validateHandler(handler: JSONObject, kinds: readonly string[], ctx: ContainerContext, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep']) {
    if (!kinds.includes(kind) || !isSet(handler[kind])) continue;
    const p = path.child(kind);
    if (count > 0) {
      errs.push(forbidden(p, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    const action = obj(handler[kind]);
    switch (kind) {
      case 'exec':
        if (list(action.command).length === 0) errs.push(required(p.child('command'), ''));
        break;
      case 'httpGet':
        if (str(action.path) === '') errs.push(required(p.child('path'), ''));
        append(errs, validatePortNumOrName(action.port, p.child('port')));
        if (!httpSchemes.includes(str(action.scheme))) errs.push(notSupported(p.child('scheme'), str(action.scheme), httpSchemes));
        for (const h of list(action.httpHeaders)) {
          const header = str(obj(h).name);
          if (!/^[-A-Za-z0-9]+$/.test(header)) {
            errs.push(invalid(p.child('httpHeaders'), header, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
          }
        }
        break;
      case 'tcpSocket':
        append(errs, validatePortNumOrName(action.port, p.child('port')));
        break;
      case 'grpc':
        append(errs, validatePortNumOrName(int(action.port) ?? 0, p.child('port')));
        break;
      default: {
        const seconds = int(action.seconds) ?? 0;
        if (ctx.gracePeriod !== undefined && (seconds < 0 || seconds > ctx.gracePeriod)) {
          errs.push(invalid(p, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${ctx.gracePeriod})`));
        }
      }
    }
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

/** `ValidatePortNumOrName`: an int-or-string port (an absent one is the number 0). */
export function validatePortNumOrName(port: unknown, path: FieldPath): FieldError[] {
  if (typeof port === 'string') return portNameErrors(port).map((msg) => invalid(path, port, msg));
  const n = int(port) ?? 0;
  return validPortNumber(n) ? [] : [invalid(path, n, portRangeError)];
}

/** `checkHostPortConflicts`: a host port, protocol and host IP used twice among these containers. */
function hostPortConflicts(containers: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, i) => {
    list(obj(c).ports).forEach((pt, j) => {
      const port = obj(pt);
      const hostPort = int(port.hostPort) ?? 0;
      if (hostPort === 0) return;
      const key = `${str(port.protocol)}/${str(port.hostIP)}/${hostPort}`;
      if (seen.has(key)) errs.push(duplicate(path.index(i).child('ports').index(j).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}
