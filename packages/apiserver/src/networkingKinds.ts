/**
 * networking.k8s.io/v1 Ingresses, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/networking/ingress/strategy.go (status cleared on create and kept on update, generation per
 * spec change, a `/status` that keeps the spec, the class annotation's deprecation warning, IP warnings on
 * status writes) and the checks of pkg/apis/networking/validation/validation.go (`ValidateIngressCreate`,
 * `ValidateIngressUpdate` with its allowances for what the old object already had, and
 * `ValidateIngressStatusUpdate`). The RelaxedServiceNameValidation feature is off in 1.34: backend service
 * names are DNS-1035 labels unless the old object had one that is only a DNS-1123 label.
 *
 * And IngressClasses (`ValidateIngressClass`, `SetDefaults_IngressClass`, the controller immutable), with
 * the DefaultIngressClass admission plugin that gives a new Ingress without a class the default one; and
 * NetworkPolicies (`SetDefaults_NetworkPolicy(Port)`, `ValidateNetworkPolicySpec`/`Update` with the old
 * policy's CIDRs and selector accepted again, CIDR warnings).
 */
import { FieldError, FieldPath, forbidden, invalid, notSupported, required, tooLong, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { wasEmpty } from './builtinGoJSON.js';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, validateLabelSelector, type LabelSelectorObject } from './internal/semantics.js';
import { pathSegmentErrors } from './objectMeta.js';
import { portNameErrors } from './podContainers.js';
import { cidrWarnings, loadBalancerStatusWarnings, parseIP } from './podWarnings.js';
import { isCIDRSloppy, legacyIPErrors } from './serviceValidation.js';
import { domainPrefixedPath } from './jobValidation.js';
import { formatSelector } from './builtinWorkloads.js';
import { bucketOf, type ObjectStore } from './storage/objectStore.js';

const classAnnotation = 'kubernetes.io/ingress.class';
const pathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidSuffixes = ['/..', '/.'];
const wildcardFormat = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const wildcardPattern = new RegExp(`^${wildcardFormat}$`);
const wildcardMessage = `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${wildcardFormat}')`;

interface IngressOptions {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
  allowRelaxedServiceName: boolean;
}

const strict: IngressOptions = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false, allowRelaxedServiceName: false };

const child = (o: JSONObject, k: string): JSONObject | undefined => (isObject(o[k]) ? o[k] : undefined);
const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});

/** `IsWildcardDNS1123Subdomain`. */
function wildcardErrors(value: string): string[] {
  const errs = value.length > 253 ? ['must be no more than 253 characters'] : [];
  if (!wildcardPattern.test(value)) errs.push(wildcardMessage);
  return errs;
}

/** A host of a rule or of a TLS entry: a wildcard or a plain DNS-1123 subdomain. */
function hostErrors(path: FieldPath, host: string): FieldError[] {
  return (host.includes('*') ? wildcardErrors(host) : isDNS1123Subdomain(host)).map((msg) => invalid(path, host, msg));
}

/** `validateIngressTypedLocalObjectReference`. */
function resourceReferenceErrors(ref: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errs.push(...isDNS1123Subdomain(ref.apiGroup).map((msg) => invalid(path.child('apiGroup'), ref.apiGroup, msg)));
  for (const f of ['kind', 'name']) {
    const value = str(ref[f]);
    if (value === '') errs.push(required(path.child(f), ''));
    else errs.push(...pathSegmentErrors(value, false).map((msg) => invalid(path.child(f), value, msg)));
  }
  return errs;
}

/** `validateIngressBackend`. */
function backendErrors(backend: JSONObject, path: FieldPath, opts: IngressOptions): FieldError[] {
  const resource = child(backend, 'resource');
  const service = child(backend, 'service');
  if (resource !== undefined && service !== undefined) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return resourceReferenceErrors(resource, path.child('resource'));
  if (service === undefined) return [invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = str(service.name);
  if (name === '') errs.push(required(path.child('service', 'name'), ''));
  else errs.push(...(opts.allowRelaxedServiceName ? isDNS1123Label(name) : isDNS1035Label(name)).map((msg) => invalid(path.child('service', 'name'), name, msg)));
  const port = child(service, 'port') ?? {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...portNameErrors(portName).map((msg) => invalid(path.child('service', 'port', 'name'), portName, msg)));
  else if (portNumber !== 0) {
    if (portNumber < 1 || portNumber > 65535) errs.push(invalid(path.child('service', 'port', 'number'), portNumber, 'must be between 1 and 65535, inclusive'));
  } else errs.push(required(path, 'port name or number is required'));
  return errs;
}

/** `validateHTTPIngressPath`. */
function httpPathErrors(p: JSONObject, path: FieldPath, opts: IngressOptions): FieldError[] {
  if (p.pathType === undefined || p.pathType === null) return [required(path.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = str(p.path);
  const type = str(p.pathType);
  if (type === 'Exact' || type === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
    if (value !== '') {
      for (const seq of invalidSequences) if (value.includes(seq)) errs.push(invalid(path.child('path'), value, `must not contain '${seq}'`));
      for (const suffix of invalidSuffixes) if (value.endsWith(suffix)) errs.push(invalid(path.child('path'), value, `cannot end with '${suffix}'`));
    }
  } else if (type === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(invalid(path.child('path'), value, 'must be an absolute path'));
  } else {
    errs.push(notSupported(path.child('pathType'), type, pathTypes));
  }
  errs.push(...backendErrors(child(p, 'backend') ?? {}, path.child('backend'), opts));
  return errs;
}

/** `validateIngressRuleValue`: the paths of its `http`, if any. */
function ruleValueErrors(rule: JSONObject, path: FieldPath, opts: IngressOptions): FieldError[] {
  const http = child(rule, 'http');
  if (http === undefined) return [];
  const paths = objects(http.paths);
  const errs = paths.length === 0 ? [required(path.child('http', 'paths'), '')] : [];
  paths.forEach((p, i) => errs.push(...httpPathErrors(p, path.child('http', 'paths').index(i), opts)));
  return errs;
}

/** `ValidateIngressSpec`. */
function ingressSpecErrors(spec: JSONObject, opts: IngressOptions): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const rules = objects(spec.rules);
  const defaultBackend = child(spec, 'defaultBackend');
  if (rules.length === 0 && defaultBackend === undefined) {
    // The rules as Go holds them: nil, or a list the request sent empty (dropped from the object since).
    const printed = wasEmpty(spec, 'rules') ? '[]' : 'null';
    errs.push(new FieldError('FieldValueInvalid', path, spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified', printed));
  }
  if (defaultBackend !== undefined) errs.push(...backendErrors(defaultBackend, path.child('defaultBackend'), opts));
  rules.forEach((rule, i) => {
    const rulePath = path.child('rules').index(i);
    const host = str(rule.host);
    if (host !== '') {
      if (parseIP(host) !== undefined) errs.push(invalid(rulePath.child('host'), host, 'must be a DNS name, not an IP address'));
      errs.push(...hostErrors(rulePath.child('host'), host));
    }
    if (!host.includes('*') || !opts.allowInvalidWildcardHostRule) errs.push(...ruleValueErrors(rule, rulePath, opts));
  });
  objects(spec.tls).forEach((tls, i) => {
    const tlsPath = path.child('tls').index(i);
    (Array.isArray(tls.hosts) ? tls.hosts : []).forEach((h: unknown, j: number) => errs.push(...hostErrors(tlsPath.child('hosts').index(j), str(h))));
    const secret = str(tls.secretName);
    if (!opts.allowInvalidSecretName && secret !== '') errs.push(...isDNS1123Subdomain(secret).map((msg) => invalid(tlsPath.child('secretName'), secret, msg)));
  });
  if (typeof spec.ingressClassName === 'string') {
    errs.push(...isDNS1123Subdomain(spec.ingressClassName).map((msg) => invalid(path.child('ingressClassName'), spec.ingressClassName, msg)));
  }
  return errs;
}

/** `ValidateIngressCreate` after the metadata: the spec, and the class annotation agreeing with `ingressClassName`. */
function validateIngressCreate(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const errs = ingressSpecErrors(spec, strict);
  const annotations = o.metadata.annotations ?? {};
  if (Object.hasOwn(annotations, classAnnotation) && typeof spec.ingressClassName === 'string' && annotations[classAnnotation] !== spec.ingressClassName) {
    errs.push(invalid(FieldPath.root('annotations').child(classAnnotation), annotations[classAnnotation], 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/** The update's allowances: what the old object already had stays acceptable. */
function updateOptions(old: KubeObject): IngressOptions {
  const spec = specOf(old);
  const rules = objects(spec.rules);
  const allowInvalidSecretName = objects(spec.tls).some((t) => str(t.secretName) !== '' && isDNS1123Subdomain(str(t.secretName)).length > 0);
  const allowInvalidWildcardHostRule = rules.some((r) => str(r.host).includes('*') && ruleValueErrors(r, FieldPath.root('x'), strict).length > 0);
  const allowRelaxedServiceName = rules.some((r) => objects(child(r, 'http')?.paths).some((p) => {
    const name = str(child(child(p, 'backend') ?? {}, 'service')?.name);
    return child(child(p, 'backend') ?? {}, 'service') !== undefined && isDNS1123Label(name).length === 0 && isDNS1035Label(name).length > 0;
  }));
  return { allowInvalidSecretName, allowInvalidWildcardHostRule, allowRelaxedServiceName };
}

/** `ValidateIngressLoadBalancerStatus`. */
function loadBalancerStatusErrors(o: KubeObject, old: KubeObject): FieldError[] {
  const lb = (x: KubeObject): JSONObject => (isObject(x.status) && isObject(x.status.loadBalancer) ? x.status.loadBalancer : {});
  const existing = objects(lb(old).ingress).map((i) => str(i.ip)).filter((ip) => ip !== '');
  const path = FieldPath.root('status', 'loadBalancer', 'ingress');
  const errs: FieldError[] = [];
  objects(lb(o).ingress).forEach((entry, i) => {
    const ip = str(entry.ip);
    if (ip !== '') errs.push(...legacyIPErrors(path.index(i).child('ip'), ip, existing));
    const hostname = str(entry.hostname);
    if (hostname !== '') {
      errs.push(...isDNS1123Subdomain(hostname).map((msg) => invalid(path.index(i).child('hostname'), hostname, msg)));
      if (parseIP(hostname) !== undefined) errs.push(invalid(path.index(i).child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** The Table's hosts (`formatHosts`): the first three hosts, then `+ N more...` counting every further rule; `*` for none. */
function hostsCell(o: KubeObject): string {
  const rules = objects(specOf(o).rules);
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === 3) more = true;
    if (!more && str(rule.host) !== '') list.push(str(rule.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - 3} more...` : list.join(',');
}

/** The Table's addresses (`ingressLoadBalancerStatusStringer`, wide as the apiserver prints): each entry's IP, else its hostname, sorted and distinct. */
function addressCell(o: KubeObject): string {
  const lb = isObject(o.status) && isObject(o.status.loadBalancer) ? o.status.loadBalancer : {};
  const set = new Set(objects(lb.ingress).map((i) => str(i.ip) !== '' ? str(i.ip) : str(i.hostname)).filter((x) => x !== ''));
  return [...set].sort().join(',');
}

const ingress: BuiltinSpec = {
  names: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses', singular: 'ingress', kind: 'Ingress', namespaced: true, shortNames: ['ing'], status: true, nameValidation: 'subdomain' },
  generation: true,
  columns: [
    { def: { name: 'Class', type: 'string', priority: 0 }, cell: (o) => (typeof specOf(o).ingressClassName === 'string' ? specOf(o).ingressClassName : '<none>') },
    { def: { name: 'Hosts', type: 'string', priority: 0 }, cell: hostsCell },
    { def: { name: 'Address', type: 'string', priority: 0 }, cell: addressCell },
    { def: { name: 'Ports', type: 'string', priority: 0 }, cell: (o) => (objects(specOf(o).tls).length > 0 ? '80, 443' : '80') },
  ],
  validateCreate: validateIngressCreate,
  validateUpdate: (o, old) => ingressSpecErrors(specOf(o), updateOptions(old)),
  validateStatusUpdate: (o, old, meta) => [...meta, ...loadBalancerStatusErrors(o, old)],
  warningsOnStatusUpdate: loadBalancerStatusWarnings,
  warningsOnCreate: (o) => (Object.hasOwn(o.metadata.annotations ?? {}, classAnnotation) && typeof specOf(o).ingressClassName !== 'string'
    ? [`annotation "${classAnnotation}" is deprecated, please use 'spec.ingressClassName' instead`] : []),
};

/** `validateIngressClassParametersReference`: the reference, then its scope and namespace. */
function parametersErrors(params: unknown, path: FieldPath): FieldError[] {
  if (!isObject(params)) return [];
  const errs = resourceReferenceErrors(params, path);
  if (params.scope === undefined || params.scope === null) return [...errs, required(path.child('scope'), '')];
  const scope = str(params.scope);
  if (scope !== 'Cluster' && scope !== 'Namespace') return [...errs, notSupported(path.child('scope'), scope, ['Cluster', 'Namespace'])];
  const hasNamespace = params.namespace !== undefined && params.namespace !== null;
  if (scope === 'Namespace') {
    if (!hasNamespace) errs.push(required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else errs.push(...isDNS1123Label(str(params.namespace)).map((msg) => invalid(path.child('namespace'), params.namespace, msg)));
  }
  if (scope === 'Cluster' && hasNamespace) errs.push(forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

/** `validateIngressClassSpec`: the controller (at most 250 bytes, a domain-prefixed path) and the parameters. */
function ingressClassSpecErrors(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const path = FieldPath.root('spec');
  const controller = str(spec.controller);
  const errs = Buffer.byteLength(controller) > 250 ? [tooLong(path.child('controller'), '', 250)] : [];
  errs.push(...domainPrefixedPath(path.child('controller'), controller));
  errs.push(...parametersErrors(spec.parameters, path.child('parameters')));
  return errs;
}

const ingressClass: BuiltinSpec = {
  names: { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', singular: 'ingressclass', kind: 'IngressClass', namespaced: false, shortNames: [], status: false, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'Controller', type: 'string', priority: 0 }, cell: (o) => str(specOf(o).controller) },
    { def: { name: 'Parameters', type: 'string', priority: 0 }, cell: (o) => parametersCell(specOf(o).parameters) },
  ],
  // SetDefaults_IngressClass: parameters without a scope are cluster-scoped.
  defaults: (o) => {
    const params = specOf(o).parameters;
    if (isObject(params) && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
  },
  // ValidateIngressClassUpdate: the metadata update, the controller unchanged, then all of ValidateIngressClass.
  updateValidatesMeta: true,
  validateCreate: ingressClassSpecErrors,
  validateUpdate: (o, old) => [
    ...(str(specOf(o).controller) === str(specOf(old).controller) ? [] : [invalid(FieldPath.root('spec', 'controller'), str(specOf(o).controller), 'field is immutable')]),
    ...ingressClassSpecErrors(o),
  ],
};

/** The Table's parameters (`printIngressClass`): `<none>`, or `Kind/name` with the group when there is one. */
function parametersCell(params: unknown): string {
  if (!isObject(params)) return '<none>';
  const group = str(params.apiGroup);
  return `${str(params.kind)}${group === '' ? '' : `.${group}`}/${str(params.name)}`;
}

/** The annotation that makes an IngressClass the default one. */
const defaultClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';

/**
 * The DefaultIngressClass admission plugin, on the creation of an Ingress that names no class (neither
 * `ingressClassName` nor the annotation): the newest IngressClass annotated as the default (by creation
 * time, then name), if any.
 */
function admitDefaultClass(o: KubeObject, store: ObjectStore | undefined): void {
  const spec = specOf(o);
  if (store === undefined || typeof spec.ingressClassName === 'string' || Object.hasOwn(o.metadata.annotations ?? {}, classAnnotation)) return;
  let chosen: { name: string; created: number } | undefined;
  for (const [, c] of store.values(ingressClassesBucket)) {
    if ((c.metadata.annotations ?? {})[defaultClassAnnotation] !== 'true') continue;
    const candidate = { name: c.metadata.name ?? '', created: Date.parse(c.metadata.creationTimestamp ?? '') || 0 };
    if (chosen === undefined || candidate.created > chosen.created || (candidate.created === chosen.created && candidate.name < chosen.name)) chosen = candidate;
  }
  if (chosen !== undefined) o.spec = { ...spec, ingressClassName: chosen.name };
}

const ingressClassesBucket = bucketOf({ group: 'networking.k8s.io', resource: 'ingressclasses' });

/** A CIDR as `netutils.ParseCIDRSloppy` reads it: its network's bytes and prefix length (undefined: none). */
function parseCIDR(value: string): { bytes: number[]; bits: number } | undefined {
  if (!isCIDRSloppy(value)) return undefined;
  const slash = value.indexOf('/');
  const ip = parseIP(value.slice(0, slash));
  if (ip === undefined) return undefined;
  // IPv4 (also IPv4-mapped IPv6) as four bytes, as Go's IPNet compares it.
  const written = Number(value.slice(slash + 1));
  const bits = ip.v4 && value.slice(0, slash).includes(':') ? Math.max(0, written - 96) : written;
  const address = ip.v4 ? ip.bytes.slice(12) : ip.bytes;
  // The network: the address with the bits past the prefix cleared.
  const bytes = address.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & (0xff << (8 - keep)) & 0xff;
  });
  return { bytes, bits };
}

/** `IPNet.Contains`: the address is in the network (of the same family). */
function contains(net: { bytes: number[]; bits: number }, addr: number[]): boolean {
  if (net.bytes.length !== addr.length) return false;
  for (let i = 0; i < addr.length; i++) {
    const keep = Math.max(0, Math.min(8, net.bits - i * 8));
    const mask = (0xff << (8 - keep)) & 0xff;
    if ((addr[i] & mask) !== net.bytes[i]) return false;
  }
  return true;
}

const cidrMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** `ValidateIPBlock`: the CIDR (unless the old policy had it), each exception inside it and narrower. */
function ipBlockErrors(block: JSONObject, path: FieldPath, oldCIDRs: readonly string[]): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') return [required(path.child('cidr'), '')];
  const errs = oldCIDRs.includes(cidr) || isCIDRSloppy(cidr) ? [] : [invalid(path.child('cidr'), cidr, cidrMessage)];
  const net = parseCIDR(cidr);
  if (net === undefined) return errs;
  (Array.isArray(block.except) ? block.except : []).forEach((e: unknown, i: number) => {
    const except = str(e);
    const p = path.child('except').index(i);
    if (!oldCIDRs.includes(except) && !isCIDRSloppy(except)) errs.push(invalid(p, except, cidrMessage));
    const inner = parseCIDR(except);
    if (inner === undefined) return;
    if (!contains(net, inner.bytes) || net.bits >= inner.bits) errs.push(invalid(p, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** `ValidateNetworkPolicyPort`. */
function policyPortErrors(port: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && port.protocol !== null && !['TCP', 'UDP', 'SCTP'].includes(str(port.protocol))) {
    errs.push(notSupported(path.child('protocol'), port.protocol, ['TCP', 'UDP', 'SCTP']));
  }
  const hasEnd = typeof port.endPort === 'number';
  const range = (n: number): boolean => n >= 1 && n <= 65535;
  if (typeof port.port === 'number') {
    if (!range(port.port)) errs.push(invalid(path.child('port'), port.port, 'must be between 1 and 65535, inclusive'));
    if (hasEnd) {
      if ((port.endPort as number) < port.port) errs.push(invalid(path.child('endPort'), port.port, 'must be greater than or equal to `port`'));
      if (!range(port.endPort as number)) errs.push(invalid(path.child('endPort'), port.endPort, 'must be between 1 and 65535, inclusive'));
    }
  } else if (typeof port.port === 'string') {
    if (hasEnd) errs.push(invalid(path.child('endPort'), port.endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...portNameErrors(port.port).map((msg) => invalid(path.child('port'), port.port, msg)));
  } else if (hasEnd) {
    errs.push(invalid(path.child('endPort'), port.endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** `ValidateNetworkPolicyPeer`: exactly one kind of peer, or selectors without an IP block. */
function peerErrors(peer: JSONObject, path: FieldPath, allowInvalidLabelValues: boolean, oldCIDRs: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const f of ['podSelector', 'namespaceSelector']) {
    if (!isObject(peer[f])) continue;
    peers++;
    errs.push(...validateLabelSelector(peer[f] as LabelSelectorObject, path.child(f), { allowInvalidLabelValueInSelector: allowInvalidLabelValues }));
  }
  const block = child(peer, 'ipBlock');
  if (block !== undefined) {
    peers++;
    errs.push(...ipBlockErrors(block, path.child('ipBlock'), oldCIDRs));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && block !== undefined) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** `ValidateNetworkPolicySpec`. */
function networkPolicySpecErrors(o: KubeObject, allowInvalidLabelValues: boolean, oldCIDRs: readonly string[]): FieldError[] {
  const spec = specOf(o);
  const path = FieldPath.root('spec');
  const errs = validateLabelSelector((spec.podSelector ?? {}) as LabelSelectorObject, path.child('podSelector'), { allowInvalidLabelValueInSelector: allowInvalidLabelValues });
  for (const [direction, peersField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    objects(spec[direction]).forEach((rule, i) => {
      const rulePath = path.child(direction).index(i);
      objects(rule.ports).forEach((port, j) => errs.push(...policyPortErrors(port, rulePath.child('ports').index(j))));
      objects(rule[peersField]).forEach((peer, j) => errs.push(...peerErrors(peer, rulePath.child(peersField).index(j), allowInvalidLabelValues, oldCIDRs)));
    });
  }
  const types = Array.isArray(spec.policyTypes) ? spec.policyTypes : [];
  if (types.length > 2) {
    errs.push(invalid(path.child('policyTypes'), types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t: unknown, i: number) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(notSupported(path.child('policyTypes').index(i), str(t), ['Ingress', 'Egress']));
  });
  return errs;
}

/** Every CIDR of the policy's IP blocks, exceptions included (an update accepts them again as they are). */
function policyCIDRs(o: KubeObject): string[] {
  const spec = specOf(o);
  const out: string[] = [];
  for (const [direction, peersField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    for (const rule of objects(spec[direction])) {
      for (const peer of objects(rule[peersField])) {
        const block = child(peer, 'ipBlock');
        if (block === undefined) continue;
        out.push(str(block.cidr), ...(Array.isArray(block.except) ? block.except.map(str) : []));
      }
    }
  }
  return out;
}

/** The strategy's warnings: each IP block's CIDRs in a non-standard form (`GetWarningsForCIDR`). */
function networkPolicyWarnings(o: KubeObject): string[] {
  const spec = specOf(o);
  const warnings: string[] = [];
  for (const [direction, peersField] of [['ingress', 'from'], ['egress', 'to']] as const) {
    objects(spec[direction]).forEach((rule, i) => objects(rule[peersField]).forEach((peer, j) => {
      const block = child(peer, 'ipBlock');
      if (block === undefined) return;
      const path = FieldPath.root('spec').child(direction).index(i).child(peersField).index(j).child('ipBlock');
      warnings.push(...cidrWarnings(path.child('cidr'), str(block.cidr)));
      (Array.isArray(block.except) ? block.except : []).forEach((e: unknown, k: number) => warnings.push(...cidrWarnings(path.child('except').index(k), str(e))));
    }));
  }
  return warnings;
}

const networkPolicy: BuiltinSpec = {
  names: { group: 'networking.k8s.io', version: 'v1', resource: 'networkpolicies', singular: 'networkpolicy', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'], status: false, nameValidation: 'subdomain' },
  generation: true,
  columns: [{ def: { name: 'Pod-Selector', type: 'string', priority: 0 }, cell: (o) => formatSelector(specOf(o).podSelector) }],
  // SetDefaults_NetworkPolicyPort and SetDefaults_NetworkPolicy.
  defaults: (o) => {
    const spec = specOf(o);
    for (const direction of ['ingress', 'egress']) {
      for (const rule of objects(spec[direction])) for (const port of objects(rule.ports)) if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
    }
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      spec.policyTypes = objects(spec.egress).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
      if (!isObject(o.spec)) o.spec = spec;
    }
  },
  validateCreate: (o) => networkPolicySpecErrors(o, false, []),
  validateUpdate: (o, old) => {
    const oldSelector = (specOf(old).podSelector ?? {}) as LabelSelectorObject;
    const allow = validateLabelSelector(oldSelector, FieldPath.root('spec', 'podSelector')).length > 0;
    return networkPolicySpecErrors(o, allow, policyCIDRs(old));
  },
  warningsOnCreate: networkPolicyWarnings,
  warningsOnUpdate: networkPolicyWarnings,
};

/** The networking.k8s.io/v1 kinds the embedded server serves (`store`: where the default IngressClass is looked up). */
export function networkingResourceTypes(store?: ObjectStore): BuiltinResourceType[] {
  return [new BuiltinResourceType({ ...ingress, prepareForCreate: (o) => { admitDefaultClass(o, store); o.status = {}; } }), new BuiltinResourceType(ingressClass), new BuiltinResourceType(networkPolicy)];
}
