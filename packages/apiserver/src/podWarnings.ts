/**
 * The warnings kube-apiserver 1.34.4 sends for a pod spec (`pkg/api/pod/warnings.go`,
 * `warningsForPodSpecAndMeta`), in its order: deprecated node labels in the node selector, the node
 * affinity and topology spread constraints; a topology spread constraint or a pod (anti-)affinity term
 * without a label selector; deprecated annotations and volume types; duplicate host alias IPs and image
 * pull secret names, and empty ones; fractional byte quantities; seccomp and AppArmor annotations the
 * fields replaced; environment variables that hide an earlier one; port definitions that duplicate,
 * overlap or are ambiguous, ports named twice; a negative termination grace period.
 *
 * Also the paths of ConfigMap, Secret, downward API and projected volumes that overlap, and IP addresses
 * of DNS nameservers and host aliases in a non-standard form. Not yet: the claim template of an ephemeral
 * volume. Go visits maps in random order; here keys are sorted.
 */
import { FieldPath, goQuote, quantityDecimal, canonicalQuantity, type KubeObject } from '@kubekit/core';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { isDNS1123Label, isValidLabelValue } from '@kubekit/selectors';
import { isIPv4Sloppy } from './podStatus.js';

/** `GetNodeLabelDeprecatedMessage`: the deprecated node labels and what to say of each. */
export const deprecatedNodeLabels: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

const deprecatedAnnotations: readonly [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** Deprecated volume sources, in the order the apiserver checks them (gitRepo: the GitRepoVolumeDriver gate is off in 1.34). */
const deprecatedVolumes: readonly [string, string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11, and disabled by default in v1.33+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

/**
 * The warnings of a pod's spec and metadata (`base` undefined: a Pod) or of a pod template at `base`
 * (`spec.template`, `template`).
 */
export function podSpecWarnings(base: FieldPath | undefined, spec: unknown, meta: unknown): string[] {
  if (!isObject(spec)) return [];
  const at = (...names: string[]): FieldPath => (base === undefined ? FieldPath.root(...names) : base.child(...names));
  const annotations = isObject(meta) && isObject(meta.annotations) ? meta.annotations : {};
  const warnings: string[] = [];

  if (isObject(spec.nodeSelector)) {
    for (const k of Object.keys(spec.nodeSelector).sort()) {
      if (Object.hasOwn(deprecatedNodeLabels, k)) warnings.push(`${String(at('spec', 'nodeSelector').key(k))}: ${deprecatedNodeLabels[k]}`);
    }
  }
  const affinity = isObject(spec.affinity) ? spec.affinity : undefined;
  const nodeAffinity = isObject(affinity?.nodeAffinity) ? affinity.nodeAffinity : undefined;
  if (nodeAffinity !== undefined) {
    const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
    if (isObject(required)) {
      objects(required.nodeSelectorTerms).forEach((term, i) => warnings.push(...nodeSelectorTermWarnings(term, false, at('spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms').index(i))));
    }
    objects(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      warnings.push(...nodeSelectorTermWarnings(isObject(term.preference) ? term.preference : {}, true, at('spec', 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i).child('preference')));
    });
  }
  objects(spec.topologySpreadConstraints).forEach((t, i) => {
    const path = at('spec', 'topologySpreadConstraints').index(i);
    const key = str(t.topologyKey);
    if (Object.hasOwn(deprecatedNodeLabels, key)) warnings.push(`${String(path.child('topologyKey'))}: ${key} is ${deprecatedNodeLabels[key]}`);
    if (!isObject(t.labelSelector)) warnings.push(`${String(path.child('labelSelector'))}: a null labelSelector results in matching no pod`);
  });

  for (const [key, message] of deprecatedAnnotations) {
    if (Object.hasOwn(annotations, key)) warnings.push(`${String(at('metadata', 'annotations').key(key))}: ${message}`);
  }

  objects(spec.volumes).forEach((v, i) => {
    for (const [source, message] of deprecatedVolumes) {
      // An ephemeral volume's claim template is checked between the glusterfs and cephfs plugins.
      if (source === 'cephfs' && isObject(v.ephemeral) && isObject(v.ephemeral.volumeClaimTemplate)) {
        warnings.push(...claimSpecWarnings(at('spec', 'volumes').index(i).child('ephemeral', 'volumeClaimTemplate', 'spec'), v.ephemeral.volumeClaimTemplate.spec));
      }
      if (isObject(v[source])) warnings.push(`${String(at('spec', 'volumes').index(i).child(source === 'storageos' ? 'storageOS' : source))}: ${message}`);
    }
  });

  warnings.push(...overlappingVolumePaths(objects(spec.volumes)));

  const aliases = objects(spec.hostAliases);
  warnings.push(...repeated(aliases, 'ip', at('spec', 'hostAliases')));
  const pullSecrets = objects(spec.imagePullSecrets);
  warnings.push(...repeated(pullSecrets, 'name', at('spec', 'imagePullSecrets')));
  pullSecrets.forEach((s, i) => {
    if (str(s.name) === '') warnings.push(`${String(at('spec', 'imagePullSecrets').index(i).child('name'))}: invalid empty name ""`);
  });

  if (isObject(spec.overhead)) {
    for (const resource of ['memory', 'ephemeral-storage']) {
      const w = fractionalBytes(spec.overhead, resource, at('spec', 'overhead'));
      if (w !== undefined) warnings.push(w);
    }
  }

  const security = isObject(spec.securityContext) ? spec.securityContext : undefined;
  if (!isObject(security?.seccompProfile) && Object.hasOwn(annotations, 'seccomp.security.alpha.kubernetes.io/pod')) {
    warnings.push(`${String(at('metadata', 'annotations').key('seccomp.security.alpha.kubernetes.io/pod'))}: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  const podAppArmor = isObject(security?.appArmorProfile) ? security.appArmorProfile : undefined;

  const containers = visitContainers(spec, at('spec'));
  for (const [c, path] of containers) {
    const name = str(c.name);
    const containerSecurity = isObject(c.securityContext) ? c.securityContext : undefined;
    const seccompKey = `container.seccomp.security.alpha.kubernetes.io/${name}`;
    if (!isObject(containerSecurity?.seccompProfile) && Object.hasOwn(annotations, seccompKey)) {
      warnings.push(`${String(at('metadata', 'annotations').key(seccompKey))}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
    // Pod templates only (a Pod's come through its AppArmor version skew handling).
    const appArmorKey = `container.apparmor.security.beta.kubernetes.io/${name}`;
    if (base !== undefined && !isObject(containerSecurity?.appArmorProfile) && Object.hasOwn(annotations, appArmorKey)) {
      if (podAppArmor === undefined || !sameAppArmor(podAppArmor, appArmorFieldFor(str(annotations[appArmorKey])))) {
        warnings.push(`${String(at('metadata', 'annotations').key(appArmorKey))}: deprecated since v1.30; use the "appArmorProfile" field instead`);
      }
    }
    const resources = isObject(c.resources) ? c.resources : {};
    for (const [list, resource] of [['limits', 'memory'], ['requests', 'memory'], ['limits', 'ephemeral-storage'], ['requests', 'ephemeral-storage']] as const) {
      const w = isObject(resources[list]) ? fractionalBytes(resources[list], resource, path.child('resources', list)) : undefined;
      if (w !== undefined) warnings.push(w);
    }
    const env = objects(c.env);
    if (env.length > 1) {
      const seen = new Set<string>();
      env.forEach((e, i) => {
        const n = str(e.name);
        if (!seen.has(n)) {
          seen.add(n);
          return;
        }
        const ref = `$(${n})`;
        const value = str(e.value);
        if (isObject(e.valueFrom) || value === ref || !value.includes(ref)) {
          warnings.push(`${String(path.child('env').index(i))}: hides previous definition of ${goQuote(n)}, which may be dropped when using apply`);
        }
      });
    }
  }

  const ports = new Map<string, { path: FieldPath; port: JSONObject }[]>();
  for (const [c, path] of containers) {
    objects(c.ports).forEach((port, i) => {
      const portPath = path.child('ports').index(i);
      const hostIP = str(port.hostIP);
      const hostPort = int(port.hostPort);
      if (hostIP !== '' && hostPort === 0) warnings.push(`${String(portPath)}: hostIP set without hostPort: ${portStruct(port)}`);
      const key = `${int(port.containerPort)}/${str(port.protocol)}`;
      const others = ports.get(key) ?? [];
      for (const other of others) {
        const otherIP = str(other.port.hostIP);
        const otherPort = int(other.port.hostPort);
        if (hostIP === otherIP && hostPort === otherPort) warnings.push(`${String(portPath)}: duplicate port definition with ${String(other.path)}`);
        else if (hostPort === 0 || otherPort === 0) warnings.push(`${String(portPath)}: overlapping port definition with ${String(other.path)}`);
        else if (hostPort === otherPort && (hostIP === '') !== (otherIP === '')) warnings.push(`${String(portPath)}: dangerously ambiguous port definition with ${String(other.path)}`);
      }
      others.push({ path: portPath, port });
      ports.set(key, others);
    });
  }
  const portNames = new Map<string, FieldPath>();
  for (const [c, path] of containers) {
    objects(c.ports).forEach((port, i) => {
      const name = str(port.name);
      if (name === '') return;
      const other = portNames.get(name);
      if (other !== undefined) warnings.push(`${String(path.child('ports').index(i))}: duplicate port name ${goQuote(name)} with ${String(other)}, services and probes that select ports by name will use ${String(other)}`);
      else portNames.set(name, path.child('ports').index(i));
    });
  }

  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    warnings.push(`${String(at('spec', 'terminationGracePeriodSeconds'))}: must be >= 0; negative values are invalid and will be treated as 1`);
  }

  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = isObject(affinity?.[kind]) ? (affinity[kind] as JSONObject) : undefined;
    if (a === undefined) continue;
    objects(a.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (!isObject(t.labelSelector)) warnings.push(`${String(at('spec', 'affinity', kind, 'requiredDuringSchedulingIgnoredDuringExecution').index(i).child('labelSelector'))}: a null labelSelector results in matching no pod`);
    });
    objects(a.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const term = isObject(t.podAffinityTerm) ? t.podAffinityTerm : {};
      if (!isObject(term.labelSelector)) warnings.push(`${String(at('spec', 'affinity', kind, 'preferredDuringSchedulingIgnoredDuringExecution').index(i).child('podAffinityTerm', 'labelSelector'))}: a null labelSelector results in matching no pod`);
    });
  }
  if (isObject(spec.dnsConfig)) {
    (Array.isArray(spec.dnsConfig.nameservers) ? spec.dnsConfig.nameservers : []).forEach((ns, i) => warnings.push(...ipWarnings(at('spec', 'dnsConfig', 'nameservers').index(i), str(ns))));
  }
  aliases.forEach((a, i) => warnings.push(...ipWarnings(at('spec', 'hostAliases').index(i).child('ip'), str(a.ip))));
  return warnings;
}

/** The 16 bytes of an IPv6 address as Go's sloppy parser reads it (an embedded IPv4 part may have leading zeros), or undefined. */
export function ipv6Bytes(text: string): number[] | undefined {
  if (text.includes('%')) return undefined;
  let head = text;
  let v4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.slice(lastColon + 1).includes('.')) {
    if (!isIPv4Sloppy(text.slice(lastColon + 1))) return undefined;
    v4 = text.slice(lastColon + 1).split('.').map(Number);
    // Up to the last colon, keeping a `::` that ends there.
    head = text.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const want = 8 - v4.length / 2;
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (left === undefined || right === undefined) return undefined;
  let all: number[];
  if (halves.length === 2) {
    const fill = want - left.length - right.length;
    if (fill < 1) return undefined;
    all = [...left, ...new Array<number>(fill).fill(0), ...right];
  } else {
    if (left.length !== want) return undefined;
    all = left;
  }
  return [...all.flatMap((g) => [g >> 8, g & 0xff]), ...v4];
}

/** An address as Go's sloppy parser reads it: its 16 bytes, and whether it is IPv4 (`To4() != nil`, IPv4-mapped included). */
export interface ParsedIP {
  bytes: number[];
  v4: boolean;
}

export function parseIP(text: string): ParsedIP | undefined {
  if (isIPv4Sloppy(text)) return { bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, ...text.split('.').map(Number)], v4: true };
  if (!text.includes(':')) return undefined;
  const bytes = ipv6Bytes(text);
  if (bytes === undefined) return undefined;
  return { bytes, v4: bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255 };
}

/** `validation.IsValidIP`'s messages: an address Go's strict parser takes, in canonical form. */
export function strictIPMessages(value: string): string[] {
  const ip = parseIP(value);
  if (ip === undefined) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const msgs: string[] = [];
  const v4Part = value.slice(value.lastIndexOf(':') + 1);
  if (v4Part.includes('.') && v4Part.split('.').some((p) => p.length > 1 && p.startsWith('0'))) msgs.push('must not have leading 0s');
  if (ip.v4 && value.includes(':')) msgs.push('must not be an IPv4-mapped IPv6 address');
  if (msgs.length > 0) return msgs;
  const canonical = ip.v4 ? ip.bytes.slice(12).join('.') : ipv6Text(ip.bytes);
  return canonical === value ? [] : [`must be in canonical form (${goQuote(canonical)})`];
}

/** An IPv6 address in RFC 5952's form (lowercase, no leading zeros, the longest run of two or more zero groups as `::`), as Go's `net.IP.String` prints one that is not IPv4-mapped. */
export function ipv6Text(bytes: number[]): string {
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const hex = (gs: number[]): string => gs.map((g) => g.toString(16)).join(':');
  return best < 0 ? hex(groups) : `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

/**
 * `GetWarningsForIP`: an address in a form Go's strict parser refuses (IPv4 with leading zeros, an
 * IPv4-mapped IPv6 address) or an IPv6 address not in RFC 5952's form. Addresses that do not parse at
 * all were refused by validation.
 */
export function ipWarnings(path: FieldPath, value: string): string[] {
  if (isIPv4Sloppy(value)) {
    const canonical = value.split('.').map(Number).join('.');
    return canonical === value ? [] : [`${String(path)}: non-standard IP address ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(canonical)}`];
  }
  const bytes = ipv6Bytes(value);
  if (bytes === undefined) return [];
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  const tail = value.slice(value.lastIndexOf(':') + 1);
  const leadingZeros = tail.includes('.') && tail.split('.').some((p) => p.length > 1 && p.startsWith('0'));
  if (mapped || leadingZeros) {
    const preferred = mapped ? bytes.slice(12).join('.') : ipv6Text(bytes);
    return [`${String(path)}: non-standard IP address ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(preferred)}`];
  }
  const canonical = ipv6Text(bytes);
  return canonical === value ? [] : [`${String(path)}: IPv6 address ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(canonical)})`];
}

/** `podStatusStrategy.WarningsOnUpdate`: the pod's and host's addresses in a form a future release refuses. */
export function podStatusWarnings(o: KubeObject): string[] {
  const status = isObject(o.status) ? o.status : {};
  return (['podIPs', 'hostIPs'] as const).flatMap((field) => objects(status[field]).flatMap((entry, i) => ipWarnings(FieldPath.root('status', field).index(i).child('ip'), str(entry.ip))));
}

/**
 * The status warnings of Services and Ingresses (`serviceStatusStrategy` and `ingressStatusStrategy`'s
 * `WarningsOnUpdate`): load balancer addresses, at the entry's path (not its `ip`'s, as upstream).
 */
export function loadBalancerStatusWarnings(o: KubeObject): string[] {
  const status = isObject(o.status) ? o.status : {};
  const lb = isObject(status.loadBalancer) ? status.loadBalancer : {};
  const path = FieldPath.root('status', 'loadBalancer', 'ingress');
  return objects(lb.ingress).flatMap((entry, i) => (str(entry.ip) !== '' ? ipWarnings(path.index(i), str(entry.ip)) : []));
}

/**
 * `GetWarningsForCIDR` (for a value validation let through; one the sloppy parser refuses gets none): host
 * bits set after the prefix length (ambiguous), a form Go's strict parser refuses (leading zeros, an
 * IPv4-mapped IPv6 address), or else an IPv6 prefix not in RFC 5952's form.
 */
export function cidrWarnings(path: FieldPath, value: string): string[] {
  const slash = value.indexOf('/');
  if (slash < 0) return [];
  const addr = value.slice(0, slash);
  const bitsText = value.slice(slash + 1);
  const v4Text = isIPv4Sloppy(addr);
  const bytes = parseIP(addr)?.bytes;
  const total = v4Text ? 32 : 128;
  if (bytes === undefined || !/^[0-9]+$/.test(bitsText) || Number(bitsText) > total) return [];
  // The prefix as a 128-bit mask (an IPv4 one covers the last 32 bits).
  const bits = Number(bitsText) + (v4Text ? 96 : 0);
  const network = bytes.map((b, i) => b & (i * 8 + 8 <= bits ? 0xff : i * 8 >= bits ? 0 : (0xff << (8 - (bits - i * 8))) & 0xff));
  const mapped = (b: number[]): boolean => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  // net.IP and net.IPNet's String: an address with an IPv4 form prints it, and the mask its last 32 bits
  // (the single-address form keeps the parsed length: `10.0.0.0/128` for `::ffff:10.0.0.0/100`).
  const text = (b: number[]): string => (mapped(b) ? b.slice(12).join('.') : ipv6Text(b));
  const netText = `${text(network)}/${mapped(network) ? Math.max(0, bits - 96) : bits}`;
  const warnings: string[] = [];
  if (network.some((b, i) => b !== bytes[i])) {
    warnings.push(`${String(path)}: CIDR value ${goQuote(value)} is ambiguous in this context (should be ${goQuote(netText)} or ${goQuote(`${text(bytes)}/${total}`)}?)`);
  }
  const strictBits = /^(0|[1-9][0-9]*)$/.test(bitsText);
  const strictAddr = v4Text ? addr.split('.').every((o) => /^(0|[1-9][0-9]*)$/.test(o)) : !addr.slice(addr.lastIndexOf(':') + 1).split('.').some((o) => o.length > 1 && o.startsWith('0'));
  const in6Mapped = !v4Text && mapped(bytes);
  if (!strictBits || !strictAddr || in6Mapped) {
    warnings.push(`${String(path)}: non-standard CIDR value ${goQuote(value)} will be considered invalid in a future Kubernetes release: use ${goQuote(netText)}`);
  }
  if (warnings.length === 0 && !v4Text && `${ipv6Text(bytes)}/${bitsText}` !== value) {
    warnings.push(`${String(path)}: IPv6 CIDR value ${goQuote(value)} should be in RFC 5952 canonical format (${goQuote(`${ipv6Text(bytes)}/${bitsText}`)})`);
  }
  return warnings;
}

/** The items of a list (two or more) whose `member` repeats an earlier item's: `<path>[i].<member>: duplicate <member> "v"`. */
function repeated(items: readonly JSONObject[], member: string, path: FieldPath): string[] {
  if (items.length < 2) return [];
  const seen = new Set<string>();
  const warnings: string[] = [];
  items.forEach((item, i) => {
    const v = str(item[member]);
    if (seen.has(v)) warnings.push(`${String(path.index(i).child(member))}: duplicate ${member} ${goQuote(v)}`);
    else seen.add(v);
  });
  return warnings;
}

/** `GetWarningsForNodeSelectorTerm`: deprecated keys, and (for preferred terms) values that are not label values. */
export function nodeSelectorTermWarnings(term: JSONObject, checkValues: boolean, path: FieldPath): string[] {
  const warnings: string[] = [];
  objects(term.matchExpressions).forEach((e, i) => {
    const key = str(e.key);
    if (Object.hasOwn(deprecatedNodeLabels, key)) warnings.push(`${String(path.child('matchExpressions').index(i).child('key'))}: ${key} is ${deprecatedNodeLabels[key]}`);
    if (!checkValues || !Array.isArray(e.values)) return;
    e.values.forEach((v, j) => {
      const value = str(v);
      for (const msg of isValidLabelValue(value)) warnings.push(`${String(path.child('matchExpressions').index(i).child('values').index(j))}: ${value} is invalid, ${msg}`);
    });
  });
  return warnings;
}

/** `pods.VisitContainersWithPath`: init containers, containers, ephemeral containers, each with its path. */
function visitContainers(spec: JSONObject, path: FieldPath): [JSONObject, FieldPath][] {
  const out: [JSONObject, FieldPath][] = [];
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    if (!Array.isArray(spec[list])) continue;
    (spec[list] as unknown[]).forEach((c, i) => {
      if (isObject(c)) out.push([c, path.child(list).index(i)]);
    });
  }
  return out;
}

/** `GetWarningsForPersistentVolumeClaimSpec`: a storage request or limit that is not a whole number of bytes. */
export function claimSpecWarnings(path: FieldPath, spec: unknown): string[] {
  const resources = isObject(spec) && isObject(spec.resources) ? spec.resources : {};
  const out: string[] = [];
  for (const list of ['requests', 'limits']) {
    const w = isObject(resources[list]) ? fractionalBytes(resources[list], 'storage', path.child('resources', list)) : undefined;
    if (w !== undefined) out.push(w);
  }
  return out;
}

/** The warning for a byte quantity that is not a whole number of bytes (`MilliValue() % 1000 != 0`). */
function fractionalBytes(list: JSONObject, resource: string, path: FieldPath): string | undefined {
  if (!Object.hasOwn(list, resource)) return undefined;
  const value = quantityDecimal(list[resource]);
  if (value === undefined || value.digits === '' || value.exponent >= 0) return undefined;
  return `${String(path.key(resource))}: fractional byte value ${goQuote(canonicalQuantity(list[resource]) ?? '')} is invalid, must be an integer`;
}

/** Go's `%+v` of the internal ContainerPort. */
function portStruct(p: JSONObject): string {
  return `{Name:${str(p.name)} HostPort:${int(p.hostPort)} ContainerPort:${int(p.containerPort)} Protocol:${str(p.protocol)} HostIP:${str(p.hostIP)}}`;
}

/** `ApparmorFieldForAnnotation`: the profile an AppArmor annotation stands for, if any. */
function appArmorFieldFor(annotation: string): JSONObject | undefined {
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation.startsWith('localhost/')) return { type: 'Localhost', localhostProfile: annotation.slice('localhost/'.length) };
  return undefined;
}

function sameAppArmor(a: JSONObject, b: JSONObject | undefined): boolean {
  return b !== undefined && str(a.type) === str(b.type) && (a.localhostProfile ?? null) === (b.localhostProfile ?? null);
}

/** The warning about an object name that is no DNS label, for the kinds whose names become pod names and host names (`what`). */
export function podNameWarning(o: KubeObject, what: string): string[] {
  const msgs = isDNS1123Label(o.metadata.name ?? '');
  return msgs.length === 0 ? [] : [`metadata.name: this is used in ${what}, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
}

/**
 * The pod strategy's `applyAppArmorVersionSkew` (on create): a container without an AppArmor profile
 * whose deprecated annotation names a valid one that differs from the pod's gets it as its field; an
 * annotation that names none, or one that was copied, is warned about (here, before the strategy's
 * other warnings, as the apiserver sends it). Not for Windows pods.
 */
export function applyAppArmorVersionSkew(pod: KubeObject, warnings: string[]): void {
  const spec = isObject(pod.spec) ? pod.spec : undefined;
  if (spec === undefined || (isObject(spec.os) && spec.os.name === 'windows')) return;
  const annotations = isObject(pod.metadata.annotations) ? pod.metadata.annotations : {};
  const security = isObject(spec.securityContext) ? spec.securityContext : undefined;
  const podProfile = isObject(security?.appArmorProfile) ? security.appArmorProfile : undefined;
  for (const [c] of visitContainers(spec, FieldPath.root('spec'))) {
    const key = `container.apparmor.security.beta.kubernetes.io/${str(c.name)}`;
    if (!Object.hasOwn(annotations, key)) continue;
    if (isObject(c.securityContext) && c.securityContext.appArmorProfile !== undefined && c.securityContext.appArmorProfile !== null) continue;
    let field = appArmorFieldFor(str(annotations[key]));
    // A Localhost profile the field would refuse (empty, padded, over 4095 bytes) is not copied.
    if (field?.type === 'Localhost') {
      const profile = str(field.localhostProfile);
      if (profile === '' || profile.trim() !== profile || Buffer.byteLength(profile) > 4095) field = undefined;
    }
    let warn = field === undefined;
    if (field !== undefined && !(podProfile !== undefined && sameAppArmor(podProfile, field))) {
      if (!isObject(c.securityContext)) c.securityContext = {};
      (c.securityContext as JSONObject).appArmorProfile = field;
      warn = true;
    }
    if (warn) {
      const w = `${String(FieldPath.root('metadata', 'annotations').key(key))}: deprecated since v1.30; use the "appArmorProfile" field instead`;
      if (!warnings.includes(w)) warnings.push(w);
    }
  }
}

/** A volume file's path and where it comes from, as `pathAndSource` prints it. */
interface PathAndSource { path: string; source: string }

const pathText = (p: PathAndSource): string => (p.source === '' ? goQuote(p.path) : `${goQuote(p.path)} (${p.source})`);

function itemPaths(items: unknown, source: string): PathAndSource[] {
  return objects(items).map((i) => ({ path: str(i.path), source }));
}

/** `checkForOverlap`: the earlier paths that are `needle`, under it, or above it. */
function overlapsWith(haystack: readonly PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return [];
  return haystack.filter((item) => item.path !== '' && (`${item.path}/`.startsWith(`${needle.path}/`) || `${needle.path}/`.startsWith(`${item.path}/`)));
}

/** `warningsForOverlappingVirtualPaths`. */
function overlappingVolumePaths(volumes: readonly JSONObject[]): string[] {
  const warnings: string[] = [];
  const warn = (volume: JSONObject, what: string, body: string): void => {
    warnings.push(`volume ${goQuote(str(volume.name))} (${what}): overlapping paths: ${body}`);
  };
  const mapping = (paths: PathAndSource[]): string[] => {
    const out: string[] = [];
    const seen: PathAndSource[] = [];
    for (const p of paths) {
      const ps = { ...p, path: p.path.replace(/\/+$/, '') };
      for (const c of overlapsWith(seen, ps)) out.push(`${pathText(ps)} with ${pathText(c)}`);
      seen.push(ps);
    }
    return out;
  };
  for (const v of volumes) {
    if (isObject(v.configMap) && Array.isArray(v.configMap.items)) for (const o of mapping(itemPaths(v.configMap.items, ''))) warn(v, `ConfigMap ${goQuote(str(v.configMap.name))}`, o);
    if (isObject(v.secret) && Array.isArray(v.secret.items)) for (const o of mapping(itemPaths(v.secret.items, ''))) warn(v, `Secret ${goQuote(str(v.secret.secretName))}`, o);
    if (isObject(v.downwardAPI) && Array.isArray(v.downwardAPI.items)) for (const o of mapping(itemPaths(v.downwardAPI.items, ''))) warn(v, 'DownwardAPI', o);
    if (!isObject(v.projected)) continue;
    const all: PathAndSource[] = [];
    for (const source of objects(v.projected.sources)) {
      const set = (k: string): boolean => source[k] !== undefined && source[k] !== null;
      if (!['configMap', 'secret', 'downwardAPI', 'serviceAccountToken', 'clusterTrustBundle', 'podCertificate'].some(set)) {
        warnings.push(`volume ${goQuote(str(v.name))} (Projected) has no sources provided`);
        continue;
      }
      let paths: PathAndSource[] = [];
      if (isObject(source.configMap) && Array.isArray(source.configMap.items)) paths = itemPaths(source.configMap.items, `ConfigMap ${goQuote(str(source.configMap.name))}`);
      else if (isObject(source.secret) && Array.isArray(source.secret.items)) paths = itemPaths(source.secret.items, `Secret ${goQuote(str(source.secret.name))}`);
      else if (isObject(source.downwardAPI) && Array.isArray(source.downwardAPI.items)) paths = itemPaths(source.downwardAPI.items, 'DownwardAPI');
      else if (isObject(source.serviceAccountToken)) paths = [{ path: str(source.serviceAccountToken.path), source: 'ServiceAccountToken' }];
      else if (isObject(source.clusterTrustBundle)) {
        const b = source.clusterTrustBundle;
        paths = [{ path: str(b.path), source: `ClusterTrustBundle ${goQuote(typeof b.name === 'string' ? b.name : str(b.signerName))}` }];
      } else if (isObject(source.podCertificate)) {
        const c = source.podCertificate;
        for (const [k, what] of [['certificateChainPath', 'PodCertificate chain'], ['keyPath', 'PodCertificate key'], ['credentialBundlePath', 'PodCertificate credential bundle']] as const) {
          if (str(c[k]) !== '') paths.push({ path: str(c[k]), source: what });
        }
      }
      for (const p of paths) {
        const ps = { ...p, path: p.path.replace(/\/+$/, '') };
        for (const c of overlapsWith(all, ps)) warn(v, 'Projected', `${pathText(ps)} with ${pathText(c)}`);
        all.push(ps);
      }
    }
  }
  return warnings;
}
