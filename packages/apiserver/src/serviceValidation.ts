/**
 * A v1 Service as kube-apiserver 1.34.4 takes it, on this single-stack IPv4 cluster (service range
 * `10.96.0.0/12` unless `serviceClusterIPRange` says otherwise, node ports `30000-32767`):
 *
 * - its defaults (`SetDefaults_Service`);
 * - what the Service REST storage does before the strategy runs (`beginCreate`/`beginUpdate`): the
 *   singular and plural cluster IPs kept in step, the IP family fields inferred and checked
 *   (`initIPFamilyFields`), cluster IPs and node ports allocated — with the allocators' own errors,
 *   which come before any validation;
 * - the strategy: type-dependent fields dropped on an update (`dropTypeDependentFields`);
 * - `ValidateService` on create and `ValidateServiceUpdate` on update, in their order and words.
 *
 * Not modelled: dual-stack clusters, and the placeholder values a dry run allocates (kubekit allocates
 * in a dry run as it would for real, without keeping anything).
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/v1/defaults.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/service/storage/alloc.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/service/strategy.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { FieldError, FieldPath, KubeError, duplicate, forbidden, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { childObject, isObject, objects, setDefault, str, valueAt, type JSONObject } from './internal/own.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, validateLabels } from './internal/semantics.js';
import { portProtocols, validatePortNumOrName } from './podContainers.js';
import { ipFamily, isIPv4Sloppy } from './podStatus.js';
import { ipv6Bytes, parseIP } from './podWarnings.js';
import { parseIPv4Range } from './internal/serviceAddresses.js';
import type { ObjectStore } from './storage/objectStore.js';

const serviceKind = { group: '', kind: 'Service' };
const topologyHints = 'service.kubernetes.io/topology-aware-hints';
const topologyMode = 'service.kubernetes.io/topology-mode';
const sourceRangesAnnotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const affinities = ['ClientIP', 'None'];
const families = ['IPv4', 'IPv6'];
const familyPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const trafficPolicies = ['Cluster', 'Local'];
const trafficDistributions = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
/** `core.MaxClientIPServiceAffinitySeconds`, and the default timeout. */
const maxAffinitySeconds = 86400;
const defaultAffinitySeconds = 10800;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});

/** `SetDefaults_Service` (the IP family fields are the storage's, see {@link prepareServiceCreate}). */
export function defaultService(o: KubeObject): void {
  const spec = childObject(o, 'spec');
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = valueAt(spec, 'sessionAffinityConfig', 'clientIP');
    if (!isObject(clientIP) || typeof clientIP.timeoutSeconds !== 'number') spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: defaultAffinitySeconds } };
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const p of objects(spec.ports)) {
    setDefault(p, 'protocol', 'TCP');
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = int(p.port);
  }
  if (externallyAccessible(spec)) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && typeof spec.allocateLoadBalancerNodePorts !== 'boolean') spec.allocateLoadBalancerNodePorts = true;
  // LoadBalancerIPMode (GA): an ingress point with an IP is a VIP unless it says otherwise.
  if (spec.type === 'LoadBalancer') {
    for (const ing of objects(valueAt(o, 'status', 'loadBalancer', 'ingress'))) if (str(ing.ip) !== '' && (ing.ipMode === undefined || ing.ipMode === null)) ing.ipMode = 'VIP';
  }
}

/** `service.ExternallyAccessible`: a load balancer, node ports, or a cluster IP with external IPs. */
function externallyAccessible(spec: JSONObject): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && strings(spec.externalIPs).length > 0);
}

/** `service.NeedsHealthCheck`: a load balancer that keeps traffic on the local node. */
function needsHealthCheck(spec: JSONObject): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

function isHeadless(spec: JSONObject): boolean {
  const ips = strings(spec.clusterIPs);
  return ips.length === 1 && ips[0] === 'None';
}

const needsNodePorts = (spec: JSONObject): boolean => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const sameList = (a: unknown, b: unknown): boolean => {
  const x = strings(a);
  const y = strings(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};
const sameClusterIPs = (old: JSONObject, spec: JSONObject): boolean => str(old.clusterIP) === str(spec.clusterIP) && sameList(old.clusterIPs, spec.clusterIPs);
const sameFamilies = (old: JSONObject, spec: JSONObject): boolean => sameList(old.ipFamilies, spec.ipFamilies) && Array.isArray(old.ipFamilies) === Array.isArray(spec.ipFamilies);

/** `netutils.ParseCIDRSloppy` accepts it: an address, `/`, and a prefix length no longer than the address (leading zeros allowed). */
export function isCIDRSloppy(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const addr = text.slice(0, slash);
  const bits = isIPv4Sloppy(addr) ? 32 : addr.includes(':') && ipv6Bytes(addr) !== undefined ? 128 : 0;
  const prefix = text.slice(slash + 1);
  return bits > 0 && /^[0-9]+$/.test(prefix) && Number(prefix) <= bits;
}

/** `IsValidIPForLegacyField` (StrictIPCIDRValidation is off): a value the sloppy parser reads, or one the old object had. */
export function legacyIPErrors(path: FieldPath, value: string, old: readonly string[]): FieldError[] {
  if (old.includes(value) || parseIP(value) !== undefined) return [];
  return [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** `ValidateEndpointIP`: an address that parses, and is not unspecified, loopback or link-local (Endpoints, EndpointSlices, external IPs). */
export function endpointIPErrors(path: FieldPath, value: string): FieldError[] {
  const ip = parseIP(value);
  if (ip === undefined) return [invalid(path, value, 'must be a valid IP address')];
  const b = ip.bytes;
  const errs: FieldError[] = [];
  if (ip.v4 ? b.slice(12).every((x) => x === 0) : b.every((x) => x === 0)) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (ip.v4 ? b[12] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1) errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (ip.v4 ? b[12] === 169 && b[13] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80) errs.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (ip.v4 ? b[12] === 224 && b[13] === 0 && b[14] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 0x02) errs.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** The family of a cluster IP that validated (`familyOf`), by podStatus's `ipFamily`. */
const familyOf = (ip: string): string => (ipFamily(ip) === 6 ? 'IPv6' : 'IPv4');

/** A pointer-typed policy as `field.Invalid` prints it (`"null"` when unset). */
const policyValue = (spec: JSONObject): string => (typeof spec.ipFamilyPolicy === 'string' ? spec.ipFamilyPolicy : 'null');

/** `normalizeClusterIPs`: the singular and plural cluster IPs kept in step, as the storage does before anything reads them. */
function normalizeClusterIPs(spec: JSONObject, old: JSONObject | undefined): void {
  const ips = strings(spec.clusterIPs);
  if (old === undefined) {
    if (str(spec.clusterIP) !== '' && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  if (strings(old.clusterIPs).length > 0 && ips.length === 0 && str(old.clusterIP) === str(spec.clusterIP)) spec.clusterIPs = old.clusterIPs;
  if (str(old.clusterIP) !== str(spec.clusterIP)) {
    if (str(old.clusterIP) !== '' && str(spec.clusterIP) === '') {
      if (sameList(old.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
    } else if (sameList(old.clusterIPs, spec.clusterIPs)) {
      spec.clusterIPs = [spec.clusterIP];
    }
  }
}

/** `patchAllocatedValues`: what an update left out of the allocated values is kept from the old object. */
function patchAllocatedValues(spec: JSONObject, old: JSONObject): void {
  if (spec.type !== 'ExternalName' && old.type !== 'ExternalName') {
    if (str(spec.clusterIP) === '' && old.clusterIP !== undefined) spec.clusterIP = old.clusterIP;
    if (strings(spec.clusterIPs).length === 0 && strings(old.clusterIPs).length > 0) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const usedNew = new Set(objects(spec.ports).map((p) => int(p.nodePort)).filter((n) => n !== 0));
    const used = new Set(objects(old.ports).map((p) => int(p.nodePort)).filter((n) => n !== 0 && usedNew.has(n)));
    const byName = new Map(objects(old.ports).map((p) => [str(p.name), int(p.nodePort)]));
    for (const p of objects(spec.ports)) {
      const oldPort = byName.get(str(p.name)) ?? 0;
      if (int(p.nodePort) === 0 && !used.has(oldPort) && oldPort !== 0) p.nodePort = oldPort;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && int(spec.healthCheckNodePort) === 0 && old.healthCheckNodePort !== undefined) spec.healthCheckNodePort = old.healthCheckNodePort;
}

/**
 * `initIPFamilyFields` on this single-stack IPv4 cluster: the policy defaulted (kept from the old object,
 * `RequireDualStack` for a headless Service without a selector, else `SingleStack`), the cluster IP
 * fields checked, the families inferred; its errors (a 422) come before validation.
 */
function initIPFamilyFields(spec: JSONObject, old: JSONObject | undefined): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  if (old !== undefined && spec.ipFamilyPolicy === 'PreferDualStack' && old.type === spec.type && ['ClusterIP', 'NodePort', 'LoadBalancer'].includes(str(spec.type)) &&
    sameClusterIPs(old, spec) && sameFamilies(old, spec)) return [];
  const selectorless = !isObject(spec.selector) || Object.keys(spec.selector).length === 0;
  if (typeof spec.ipFamilyPolicy !== 'string') {
    if (old !== undefined && typeof old.ipFamilyPolicy === 'string') spec.ipFamilyPolicy = old.ipFamilyPolicy;
    else spec.ipFamilyPolicy = spec.clusterIP === 'None' && selectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const related = validateClusterIPsRelatedFields(spec, old);
  if (related.length > 0) return related;
  const errs: FieldError[] = [];
  const policyPath = FieldPath.root('spec', 'ipFamilyPolicy');
  if (old !== undefined) {
    if (spec.ipFamilyPolicy === 'SingleStack') {
      if (sameClusterIPs(old, spec) && strings(spec.clusterIPs).length > 1) spec.clusterIPs = strings(spec.clusterIPs).slice(0, 1);
      if (sameFamilies(old, spec) && strings(spec.ipFamilies).length > 1) spec.ipFamilies = strings(spec.ipFamilies).slice(0, 1);
    } else {
      const reduced = (member: string): boolean => strings(spec[member]).length > 0 && strings(spec[member]).length < strings(old[member]).length;
      if (reduced('clusterIPs')) errs.push(invalid(policyPath, policyValue(spec), "must be 'SingleStack' to release the secondary cluster IP"));
      if (reduced('ipFamilies')) errs.push(invalid(policyPath, policyValue(spec), "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (strings(spec.clusterIPs).length === 2) errs.push(invalid(policyPath, policyValue(spec), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (strings(spec.ipFamilies).length === 2) errs.push(invalid(policyPath, policyValue(spec), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const ips = strings(spec.clusterIPs);
  for (let i = 0; i < ips.length && ips[i] !== 'None'; i++) {
    if (i < strings(spec.ipFamilies).length) continue;
    const family = familyOf(ips[i]);
    if (family !== 'IPv4') errs.push(invalid(FieldPath.root('spec', 'clusterIPs').index(i), ips, `${family} is not configured on this cluster`));
    else spec.ipFamilies = [...strings(spec.ipFamilies), family];
  }
  if (errs.length > 0) return errs;
  if (spec.clusterIP === 'None' && selectorless) {
    if (strings(spec.ipFamilies).length === 0) spec.ipFamilies = ['IPv4'];
    if (strings(spec.ipFamilies).length < 2 && spec.ipFamilyPolicy !== 'SingleStack') spec.ipFamilies = [...strings(spec.ipFamilies), strings(spec.ipFamilies)[0] === 'IPv4' ? 'IPv6' : 'IPv4'];
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') errs.push(invalid(policyPath, policyValue(spec), 'this cluster is not configured for dual-stack services'));
  strings(spec.ipFamilies).forEach((family, i) => {
    if (family !== 'IPv4') errs.push(invalid(FieldPath.root('spec', 'ipFamilies').index(i), family, 'not configured on this cluster'));
  });
  if (errs.length > 0) return errs;
  if (strings(spec.ipFamilies).length === 0) spec.ipFamilies = ['IPv4'];
  return [];
}

/** `ValidateServiceClusterIPsRelatedFields`: cluster IPs and IP families, on their own and together. */
function validateClusterIPsRelatedFields(spec: JSONObject, old: JSONObject | undefined): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ipsPath = FieldPath.root('spec', 'clusterIPs');
  const ips = strings(spec.clusterIPs);
  if (str(spec.clusterIP) !== '') {
    if (ips.length === 0) errs.push(required(ipsPath, ''));
    else if (ips[0] !== spec.clusterIP) errs.push(invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  strings(spec.ipFamilies).forEach((family, i) => {
    const path = FieldPath.root('spec', 'ipFamilies').index(i);
    if (!families.includes(family)) errs.push(notSupported(path, family, families));
    if (seen.has(family)) errs.push(duplicate(path, family));
    seen.add(family);
  });
  if (typeof spec.ipFamilyPolicy === 'string' && !familyPolicies.includes(spec.ipFamilyPolicy)) errs.push(notSupported(FieldPath.root('spec', 'ipFamilyPolicy'), spec.ipFamilyPolicy, familyPolicies));
  const oldIPs = old === undefined ? [] : strings(old.clusterIPs);
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(invalid(ipsPath, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = legacyIPErrors(ipsPath.index(i), ip, oldIPs);
    if (ipErrs.length > 0) invalidIPs = true;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (ips.length > 1 && familyOf(ips[0]) === familyOf(ips[1])) errs.push(invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
  const fams = strings(spec.ipFamilies);
  if (!isHeadless(spec) && ips.length > 0 && fams.length > 0) {
    ips.forEach((ip, i) => {
      if (i > fams.length - 1) return;
      const v6 = ipFamily(ip) === 6;
      if (fams[i] === 'IPv4' && v6) errs.push(invalid(ipsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (fams[i] === 'IPv6' && !v6) errs.push(invalid(ipsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/** kube-apiserver's `--service-cluster-ip-range` default, and kubekit's. */
export const defaultServiceRange = '10.96.0.0/12';

/**
 * An IPv4 service range (`10.96.0.0/12`): its network address and size, and the offset of the first
 * address given out (`.10`: `.1` is the `kubernetes` Service's; `.2` in a range of 32 addresses or fewer).
 *
 * @throws KubeError when `cidr` is not an IPv4 range of 4 to 2^24 addresses in canonical form.
 */
export function parseServiceRange(cidr: string): { base: number; size: number; first: number } {
  const range = parseIPv4Range(cidr);
  if (range === undefined || range.size > 2 ** 24 || range.size < 4 || range.base % range.size !== 0) {
    throw KubeError.badRequest(`serviceClusterIPRange must be an IPv4 CIDR in canonical form with a prefix length of 8 to 30 (such as ${defaultServiceRange}), got ${JSON.stringify(cidr)}`);
  }
  return { ...range, first: range.size > 32 ? 10 : 2 };
}
const nodePortBase = 30000;
const nodePortCount = 2768;
const nodePortRange = '30000-32767';

/** `errors.NewInternalError`: a 500 whose one cause is the message. */
function internalError(message: string): KubeError {
  return new KubeError('InternalError', `Internal error occurred: ${message}`, { details: { causes: [{ message }] } });
}

/** An IPv4 address as a number, its dotted text. */
export function ipText(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** An IPv4 address's text as a number (undefined for anything else). */
function ipv4Number(text: string): number | undefined {
  const ip = parseIP(text);
  return ip?.v4 === true ? ((ip.bytes[12] << 24) | (ip.bytes[13] << 16) | (ip.bytes[14] << 8) | ip.bytes[15]) >>> 0 : undefined;
}

/**
 * The error of a dry run's IP allocator for an address asked for (`allocateService` with dryRun: only the
 * range is checked, its network and broadcast addresses excluded).
 */
function dryRunIPProblem(text: string, range: { base: number; size: number }): string | undefined {
  const n = ipv4Number(text);
  if (n !== undefined && n > range.base && n < range.base + range.size - 1) return undefined;
  return `the provided IP (${text}) is not in the valid range. The range of valid IPs is ${ipText(range.base)}/${32 - Math.log2(range.size)}`;
}

/**
 * The node ports one create or update allocates (portallocator's `PortAllocationOperation`): in a dry run
 * nothing is allocated; a port asked for is refused only when a stored Service or this operation holds it
 * (its range is not checked), and the next port is one above the highest this operation took, 32769 first.
 */
interface PortOperation {
  dryRun: boolean;
  allocated: number[];
}

/** The dry-run operation's next port (`AllocateNext` with dryRun). */
function dryRunNextPort(op: PortOperation): number {
  const port = (op.allocated.length === 0 ? 32768 : Math.max(...op.allocated)) + 1;
  op.allocated.push(port);
  return port;
}

/** What the Service allocator reads of the ServiceCIDRs and IPAddresses. */
export interface ServiceAddresses {
  /** The IPv4 ranges of the ServiceCIDRs, as network address and number of addresses. */
  ranges(): { base: number; size: number }[];
  /** The addresses IPAddresses hold, but those of the Service `self` (`namespace/name`). */
  held(self: string | undefined): string[];
}

/**
 * Allocates cluster IPs and node ports not used by another stored Service (bounded scans), and
 * checks the ones a request asks for, with the allocators' errors.
 */
export class ServiceAllocator {
  private nextIP = 0;
  private nextPort = 0;
  private readonly range: { base: number; size: number; first: number };

  /**
   * @param serviceRange - the IPv4 service range, as kube-apiserver's `--service-cluster-ip-range`
   * @param addresses - the ServiceCIDRs and IPAddresses (without: the service range, and the Services' IPs)
   */
  constructor(private readonly store: ObjectStore | undefined, private readonly bucket: string, serviceRange = defaultServiceRange, private readonly addresses?: ServiceAddresses) {
    this.range = parseServiceRange(serviceRange);
  }

  /** The addresses and node ports of every stored Service but `self` (`namespace/name`). */
  private used(self: string | undefined): { ips: Set<string>; ports: Set<number> } {
    const ips = new Set<string>();
    const ports = new Set<number>();
    if (this.store === undefined) return { ips, ports };
    for (const [, svc] of this.store.values(this.bucket)) {
      if (self !== undefined && `${svc.metadata.namespace ?? ''}/${svc.metadata.name ?? ''}` === self) continue;
      const spec = specOf(svc);
      for (const ip of strings(spec.clusterIPs)) ips.add(ip);
      for (const p of objects(spec.ports)) if (int(p.nodePort) !== 0) ports.add(int(p.nodePort));
      if (int(spec.healthCheckNodePort) !== 0) ports.add(int(spec.healthCheckNodePort));
    }
    for (const ip of this.addresses?.held(self) ?? []) ips.add(ip);
    return { ips, ports };
  }

  /**
   * The cluster IPs of `spec` (its families are set): the ones asked for checked, the others allocated. A dry
   * run's allocator (one ServiceCIDR's, `MetaAllocator.DryRun`) checks only that an address asked for is in
   * its range, and gives the range's network address for one not asked for.
   */
  private clusterIPs(o: KubeObject, spec: JSONObject, used: Set<string>, op: PortOperation): void {
    const ips = strings(spec.clusterIPs);
    strings(spec.ipFamilies).forEach((_, i) => {
      if (i > ips.length - 1) ips.push('');
    });
    const dryRange = op.dryRun ? this.addresses?.ranges()[0] ?? this.range : undefined;
    for (let i = 0; i < ips.length; i++) {
      if (dryRange !== undefined && ips[i] === '') {
        ips[i] = ipText(dryRange.base);
      } else if (ips[i] === '') {
        const ip = this.nextFreeIP(used);
        if (ip === undefined) throw internalError('failed to allocate a serviceIP: range is full');
        ips[i] = ip;
      } else {
        const why = dryRange !== undefined ? dryRunIPProblem(ips[i], dryRange) : this.ipProblem(ips[i], used);
        if (why !== undefined) throw KubeError.invalid(serviceKind, o.metadata.name ?? '', [invalid('spec.clusterIPs', strings(spec.clusterIPs), `failed to allocate IP ${ips[i]}: ${why}`)]);
      }
      used.add(ips[i]);
    }
    spec.clusterIPs = ips;
    if (ips.length > 0) spec.clusterIP = ips[0];
  }

  private ipProblem(text: string, used: Set<string>): string | undefined {
    const n = ipv4Number(text);
    // The ServiceCIDR allocator's error for an address no range gives out (the network and broadcast
    // addresses of the range included); a dry run's allocator words it `the provided IP (…) is not in
    // the valid range. The range of valid IPs is 10.96.0.0/12`.
    // Any ServiceCIDR's range gives addresses out (the configured one when none is stored).
    const stored = this.addresses?.ranges() ?? [];
    const ranges = stored.length > 0 ? stored : [this.range];
    if (n === undefined || !ranges.some(({ base, size }) => n > base && n < base + size - 1)) return 'the provided network does not match the current range';
    return used.has(ipText(n)) || used.has(text) ? 'provided IP is already allocated' : undefined;
  }

  private nextFreeIP(used: Set<string>): string | undefined {
    const { base, size: rangeSize, first } = this.range;
    const size = rangeSize - first - 1;
    for (let i = 0; i < size; i++) {
      const ip = ipText(base + first + ((this.nextIP + i) % size));
      if (!used.has(ip)) {
        this.nextIP = (this.nextIP + i + 1) % size;
        return ip;
      }
    }
    return undefined;
  }

  private portProblem(port: number, used: Set<number>): string | undefined {
    if (port < nodePortBase || port >= nodePortBase + nodePortCount) return `provided port is not in the valid range. The range of valid ports is ${nodePortRange}`;
    return used.has(port) ? 'provided port is already allocated' : undefined;
  }

  private nextFreePort(used: Set<number>): number | undefined {
    for (let i = 0; i < nodePortCount; i++) {
      const port = nodePortBase + ((this.nextPort + i) % nodePortCount);
      if (!used.has(port)) {
        this.nextPort = (this.nextPort + i + 1) % nodePortCount;
        return port;
      }
    }
    return undefined;
  }

  /**
   * `initNodePorts`/`updateNodePorts`: every port gets a node port (the same service port number shares
   * one) unless a load balancer asks for none; a requested one must be free and in range. `kept`: the
   * node ports the old object held (an update keeps them without asking again).
   */
  private nodePorts(o: KubeObject, spec: JSONObject, used: Set<number>, kept: Set<number>, op: PortOperation): void {
    const allocate = spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
    const byServicePort = new Map<number, number>();
    const ports = objects(spec.ports);
    const take = (port: number, i: number): void => {
      if (kept.has(port)) return;
      const why = op.dryRun ? (used.has(port) || op.allocated.includes(port) ? 'provided port is already allocated' : undefined) : this.portProblem(port, used);
      if (why !== undefined) throw KubeError.invalid(serviceKind, o.metadata.name ?? '', [invalid(FieldPath.root('spec', 'ports').index(i).child('nodePort'), port, why)]);
      if (op.dryRun) op.allocated.push(port);
      else used.add(port);
    };
    ports.forEach((p, i) => {
      const nodePort = int(p.nodePort);
      if (nodePort === 0 && !allocate) return;
      const shared = byServicePort.get(int(p.port));
      if (shared === undefined) {
        const requested = ports.find((q) => int(q.port) === int(p.port) && int(q.nodePort) !== 0);
        if (requested !== undefined) {
          take(int(requested.nodePort), i);
          p.nodePort = int(requested.nodePort);
        } else if (op.dryRun) {
          p.nodePort = dryRunNextPort(op);
        } else {
          const next = this.nextFreePort(used);
          if (next === undefined) throw internalError('failed to allocate a nodePort: range is full');
          used.add(next);
          p.nodePort = next;
        }
        byServicePort.set(int(p.port), int(p.nodePort));
      } else if (nodePort !== shared) {
        if (nodePort === 0) p.nodePort = shared;
        else take(nodePort, i);
      }
    });
  }

  /** `allocHealthCheckNodePort`: a load balancer with the `Local` policy gets one; failing to is a 500. */
  private healthCheckNodePort(spec: JSONObject, used: Set<number>, op: PortOperation): void {
    const port = int(spec.healthCheckNodePort);
    if (port !== 0) {
      const why = op.dryRun ? (used.has(port) || op.allocated.includes(port) ? 'provided port is already allocated' : undefined) : this.portProblem(port, used);
      if (why !== undefined) throw internalError(`failed to allocate requested HealthCheck NodePort ${port}: ${why}`);
      if (op.dryRun) op.allocated.push(port);
      else used.add(port);
      return;
    }
    if (op.dryRun) {
      spec.healthCheckNodePort = dryRunNextPort(op);
      return;
    }
    const next = this.nextFreePort(used);
    if (next === undefined) throw internalError('failed to allocate a HealthCheck NodePort 0: range is full');
    spec.healthCheckNodePort = next;
    used.add(next);
  }

  /**
   * `allocateCreate`, after `normalizeClusterIPs`: the IP family fields, cluster IPs, node ports (`dryRun`:
   * the dry-run allocators', see {@link PortOperation}).
   */
  allocateCreate(o: KubeObject, dryRun = false): void {
    const spec = childObject(o, 'spec');
    normalizeClusterIPs(spec, undefined);
    const errs = initIPFamilyFields(spec, undefined);
    if (errs.length > 0) throw KubeError.invalid(serviceKind, o.metadata.name ?? '', errs);
    const used = this.used(undefined);
    const op: PortOperation = { dryRun, allocated: [] };
    if (spec.type !== 'ExternalName' && strings(spec.clusterIPs)[0] !== 'None') this.clusterIPs(o, spec, used.ips, op);
    if (needsNodePorts(spec)) this.nodePorts(o, spec, used.ports, new Set(), op);
    if (needsHealthCheck(spec)) this.healthCheckNodePort(spec, used.ports, op);
  }

  /**
   * `beginUpdate`, then the spec part of the strategy's `PrepareForUpdate`: values kept, IP family
   * fields, what a new type needs allocated, type-dependent fields dropped (the load balancer status is
   * the caller's, once the status is back from the old object).
   */
  allocateUpdate(o: KubeObject, old: KubeObject, dryRun = false): void {
    const spec = childObject(o, 'spec');
    const was = specOf(old);
    patchAllocatedValues(spec, was);
    normalizeClusterIPs(spec, was);
    const errs = initIPFamilyFields(spec, was);
    if (errs.length > 0) throw KubeError.invalid(serviceKind, o.metadata.name ?? '', errs);
    const used = this.used(`${old.metadata.namespace ?? ''}/${old.metadata.name ?? ''}`);
    const op: PortOperation = { dryRun, allocated: [] };
    if (was.type === 'ExternalName' && spec.type !== 'ExternalName' && strings(spec.clusterIPs)[0] !== 'None') this.clusterIPs(o, spec, used.ips, op);
    if (needsNodePorts(spec)) this.nodePorts(o, spec, used.ports, needsNodePorts(was) ? new Set(objects(was.ports).map((p) => int(p.nodePort)).filter((n) => n !== 0)) : new Set(), op);
    // updateHealthCheckNodePort: allocated when the Service comes to need one; a change while it needs one
    // is validation's (`field is immutable`).
    if (needsHealthCheck(spec) && !needsHealthCheck(was)) this.healthCheckNodePort(spec, used.ports, op);
    dropTypeDependentFields(spec, was);
    // defaultOnReadInternalTrafficPolicy: an ExternalName Service is read without one (it was defaulted by mistake once).
    if (spec.type === 'ExternalName') delete spec.internalTrafficPolicy;
  }
}

/** `dropTypeDependentFields`: what a change of type made meaningless and the update did not change itself. */
function dropTypeDependentFields(spec: JSONObject, old: JSONObject): void {
  if (old.type !== 'ExternalName' && spec.type === 'ExternalName') {
    if (sameClusterIPs(old, spec)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameFamilies(old, spec)) delete spec.ipFamilies;
    if (str(old.ipFamilyPolicy) === str(spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePorts(old) && !needsNodePorts(spec)) {
    const before = new Set(objects(old.ports).map((p) => int(p.nodePort)).filter((n) => n !== 0));
    if (objects(spec.ports).every((p) => int(p.nodePort) === 0 || before.has(int(p.nodePort)))) for (const p of objects(spec.ports)) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && int(old.healthCheckNodePort) === int(spec.healthCheckNodePort)) delete spec.healthCheckNodePort;
  if (old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (str(old.loadBalancerClass) === str(spec.loadBalancerClass) && (old.loadBalancerClass === undefined) === (spec.loadBalancerClass === undefined)) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && str(old.externalTrafficPolicy) === str(spec.externalTrafficPolicy)) delete spec.externalTrafficPolicy;
}

/** `validateServicePort`. */
function validateServicePort(p: JSONObject, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(p.name);
  if (requireName && name === '') {
    errs.push(required(path.child('name'), ''));
  } else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push(invalid(path.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  const port = int(p.port);
  if (port < 1 || port > 65535) errs.push(invalid(path.child('port'), port, 'must be between 1 and 65535, inclusive'));
  const protocol = str(p.protocol);
  if (protocol === '') errs.push(required(path.child('protocol'), ''));
  else if (!portProtocols.includes(protocol)) errs.push(notSupported(path.child('protocol'), protocol, portProtocols));
  errs.push(...validatePortNumOrName(p.targetPort, path.child('targetPort')));
  if (typeof p.appProtocol === 'string') for (const msg of isQualifiedName(p.appProtocol)) errs.push(invalid(path.child('appProtocol'), p.appProtocol, msg));
  return errs;
}

/** A service port's `(protocol, port)` key as the internal `ServicePort` struct marshals. */
function portKey(protocol: string, port: number, nodePort: number): string {
  return `{"Name":"","Protocol":${JSON.stringify(protocol)},"AppProtocol":null,"Port":${port},"TargetPort":0,"NodePort":${nodePort}}`;
}

/** `validateService` (the part `ValidateServiceCreate` and `ValidateServiceUpdate` share). */
function validateServiceSpec(o: KubeObject, oldObject: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(o);
  const old = oldObject === undefined ? undefined : specOf(oldObject);
  const annotations = o.metadata.annotations ?? {};
  if (Object.hasOwn(annotations, topologyMode) && Object.hasOwn(annotations, topologyHints) && annotations[topologyMode] !== annotations[topologyHints]) {
    errs.push(invalid(FieldPath.root('metadata', 'annotations').key(topologyMode), annotations[topologyMode], `must match annotations[${topologyHints}] when both are specified`));
  }
  const headless = isHeadless(spec);
  const ports = objects(spec.ports);
  const type = str(spec.type);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports', ''));
  const ips = strings(spec.clusterIPs);
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errs.push(invalid(FieldPath.root('spec', 'clusterIPs').index(0), ips[0], `may not be set to 'None' for ${type} services`));
  } else if (type === 'ExternalName') {
    if (ips.length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (strings(spec.ipFamilies).length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (typeof spec.ipFamilyPolicy === 'string') errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = str(spec.externalName).replace(/\.$/, '');
    if (cname !== '') for (const msg of isDNS1123Subdomain(cname)) errs.push(invalid('spec.externalName', cname, msg));
    else errs.push(required('spec.externalName', ''));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, FieldPath.root('spec', 'ports').index(i))));
  if (isObject(spec.selector)) errs.push(...validateLabels(spec.selector as Record<string, string>, FieldPath.root('spec', 'selector')));
  const affinity = str(spec.sessionAffinity);
  if (affinity === '') errs.push(required('spec.sessionAffinity', ''));
  else if (!affinities.includes(affinity)) errs.push(notSupported('spec.sessionAffinity', affinity, affinities));
  if (affinity === 'ClientIP') {
    errs.push(...clientIPAffinityErrors(spec.sessionAffinityConfig));
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPsRelatedFields(spec, old));
  const oldExternal = old === undefined ? [] : strings(old.externalIPs);
  strings(spec.externalIPs).forEach((ip, i) => {
    const path = FieldPath.root('spec', 'externalIPs').index(i);
    const ipErrs = legacyIPErrors(path, ip, oldExternal);
    errs.push(...(ipErrs.length > 0 ? ipErrs : endpointIPErrors(path, ip)));
  });
  if (type === '') errs.push(required('spec.type', ''));
  else if (!serviceTypes.includes(type)) errs.push(notSupported('spec.type', type, serviceTypes));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (int(p.nodePort) !== 0) errs.push(forbidden(FieldPath.root('spec', 'ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (int(p.nodePort) === 0) return;
    const key = `${str(p.protocol)}/${int(p.nodePort)}`;
    if (nodePorts.has(key)) errs.push(duplicate(FieldPath.root('spec', 'ports').index(i).child('nodePort'), int(p.nodePort)));
    nodePorts.add(key);
  });
  const servicePorts = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p.protocol)}/${int(p.port)}`;
    if (servicePorts.has(key)) errs.push(new FieldError('FieldValueDuplicate', FieldPath.root('spec', 'ports').index(i), key, '', portKey(str(p.protocol), int(p.port), 0)));
    servicePorts.add(key);
  });
  const ranges = strings(spec.loadBalancerSourceRanges);
  if (ranges.length > 0) {
    const path = FieldPath.root('spec', 'LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const oldRanges = old === undefined ? [] : strings(old.loadBalancerSourceRanges).map((r) => r.trim());
    ranges.forEach((r, i) => {
      const value = r.trim();
      if (!oldRanges.includes(value) && !isCIDRSloppy(value)) errs.push(invalid(path.index(i), value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    });
  } else if (Object.hasOwn(annotations, sourceRangesAnnotation)) {
    const path = FieldPath.root('metadata', 'annotations').key(sourceRangesAnnotation);
    if (type !== 'LoadBalancer') errs.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotations[sourceRangesAnnotation];
    const oldValue = oldObject?.metadata.annotations === undefined || !Object.hasOwn(oldObject.metadata.annotations, sourceRangesAnnotation) ? undefined : oldObject.metadata.annotations[sourceRangesAnnotation];
    if (oldObject === undefined || oldValue !== value) {
      const trimmed = value.trim();
      if (trimmed !== '') {
        for (const cidr of trimmed.split(',')) if (!isCIDRSloppy(cidr.trim())) errs.push(invalid(path, cidr.trim(), 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
      }
    }
  }
  if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && type !== 'LoadBalancer') errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  if (type === 'LoadBalancer' && typeof spec.allocateLoadBalancerNodePorts !== 'boolean') errs.push(required('allocateLoadBalancerNodePorts', ''));
  errs.push(...loadBalancerClassErrors(spec, undefined));
  errs.push(...externalTrafficPolicyErrors(spec));
  const internal = spec.internalTrafficPolicy;
  if (internal === undefined || internal === null) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(required('spec.internalTrafficPolicy', ''));
  } else if (!trafficPolicies.includes(str(internal))) {
    errs.push(notSupported('spec.internalTrafficPolicy', internal, trafficPolicies));
  }
  if (typeof spec.trafficDistribution === 'string' && !trafficDistributions.includes(spec.trafficDistribution)) {
    errs.push(notSupported('spec.trafficDistribution', spec.trafficDistribution, trafficDistributions));
  }
  return errs;
}

/** `validateClientIPAffinityConfig`. */
function clientIPAffinityErrors(config: unknown): FieldError[] {
  const path = FieldPath.root('spec', 'sessionAffinityConfig');
  if (!isObject(config)) return [required(path, 'when session affinity type is ClientIP')];
  if (!isObject(config.clientIP)) return [required(path.child('clientIP'), 'when session affinity type is ClientIP')];
  const timeout = config.clientIP.timeoutSeconds;
  const timeoutPath = path.child('clientIP', 'timeoutSeconds');
  if (typeof timeout !== 'number') return [required(timeoutPath, 'when session affinity type is ClientIP')];
  return timeout <= 0 || timeout > maxAffinitySeconds ? [invalid(timeoutPath, timeout, `must be greater than 0 and less than ${maxAffinitySeconds}`)] : [];
}

/** `validateLoadBalancerClassField`: immutable while a load balancer, a qualified name, and only for load balancers. */
function loadBalancerClassErrors(spec: JSONObject, old: JSONObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const cls = spec.loadBalancerClass;
  const set = typeof cls === 'string';
  if (old !== undefined && old.type === 'LoadBalancer' && spec.type === 'LoadBalancer') {
    const oldSet = typeof old.loadBalancerClass === 'string';
    if (oldSet !== set || (set && old.loadBalancerClass !== cls)) errs.push(invalid('spec.loadBalancerClass', set ? cls : 'null', 'may not change once set'));
  }
  if (spec.type === 'LoadBalancer') {
    if (set) for (const msg of isQualifiedName(cls)) errs.push(invalid('spec.loadBalancerClass', cls, msg));
  } else if (set) {
    errs.push(forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}

/** `validateServiceExternalTrafficPolicy`: the policy and the health check node port. */
function externalTrafficPolicyErrors(spec: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const policy = str(spec.externalTrafficPolicy);
  if (!externallyAccessible(spec)) {
    if (policy !== '') errs.push(invalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'));
  } else if (policy === '') {
    errs.push(required('spec.externalTrafficPolicy', ''));
  } else if (!trafficPolicies.includes(policy)) {
    errs.push(notSupported('spec.externalTrafficPolicy', policy, trafficPolicies));
  }
  const hc = int(spec.healthCheckNodePort);
  if (!needsHealthCheck(spec)) {
    if (hc !== 0) errs.push(invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errs.push(required('spec.healthCheckNodePort', ''));
  } else if (hc < 1 || hc > 65535) {
    errs.push(invalid('spec.healthCheckNodePort', hc, 'must be between 1 and 65535, inclusive'));
  }
  return errs;
}

/** `ValidateServiceCreate`, past the object's metadata. */
export function validateServiceCreate(o: KubeObject): FieldError[] {
  return validateServiceSpec(o, undefined);
}

/** `ValidateServiceUpdate`, past the metadata update: what may not change, then `validateService`. */
export function validateServiceUpdate(o: KubeObject, oldObject: KubeObject): FieldError[] {
  const spec = specOf(o);
  const old = specOf(oldObject);
  const errs: FieldError[] = [];
  if (spec.type !== 'ExternalName' && old.type !== 'ExternalName') {
    errs.push(...clusterIPChangeErrors(spec, old), ...familyChangeErrors(spec, old));
  }
  // All of validateLoadBalancerClassField's errors: validateService repeats its checks of the class (a
  // class on another type is reported twice, as the apiserver does).
  errs.push(...loadBalancerClassErrors(spec, old));
  if (needsHealthCheck(old) && needsHealthCheck(spec) && int(spec.healthCheckNodePort) !== int(old.healthCheckNodePort)) {
    errs.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return [...errs, ...validateServiceSpec(o, oldObject)];
}

/** `validateUpgradeDowngradeClusterIPs`. */
function clusterIPChangeErrors(spec: JSONObject, old: JSONObject): FieldError[] {
  if (isHeadless(spec) && isHeadless(old)) return [];
  const ips = strings(spec.clusterIPs);
  const was = strings(old.clusterIPs);
  const path = FieldPath.root('spec', 'clusterIPs');
  const errs: FieldError[] = [];
  if (was.length === ips.length) {
    was.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalid(path.index(i), ips, 'may not change once set'));
    });
  } else if (was.length > ips.length) {
    if (ips.length === 0) errs.push(invalid(path.index(0), ips, 'primary clusterIP can not be unset'));
    if (was.length > 0 && ips.length > 0 && ips[0] !== was[0]) errs.push(invalid(path.index(0), ips, 'may not change once set'));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be set to 'SingleStack' when releasing the secondary clusterIP"));
  } else if (was.length > 0 && ips[0] !== was[0]) {
    errs.push(invalid(path.index(0), ips, 'may not change once set'));
  }
  return errs;
}

/** `validateUpgradeDowngradeIPFamilies` (its downgrade messages quote the cluster IPs, as upstream's do). */
function familyChangeErrors(spec: JSONObject, old: JSONObject): FieldError[] {
  if (isHeadless(spec) !== isHeadless(old) || isHeadless(spec)) return [];
  const fams = strings(spec.ipFamilies);
  const was = strings(old.ipFamilies);
  const path = FieldPath.root('spec', 'ipFamilies').index(0);
  const errs: FieldError[] = [];
  if (was.length === fams.length) {
    was.forEach((f, i) => {
      if (f !== fams[i]) errs.push(invalid(path, fams, 'may not change once set'));
    });
  } else if (was.length > fams.length) {
    if (strings(spec.clusterIPs).length === 0) errs.push(invalid(path, fams, 'primary ipFamily can not be unset'));
    if (fams.length > 0 && fams[0] !== was[0]) errs.push(invalid(path, strings(spec.clusterIPs), 'may not change once set'));
    if (fams.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') errs.push(invalid('spec.ipFamilyPolicy', policyValue(spec), "must be set to 'SingleStack' when releasing the secondary ipFamily"));
  } else if (was.length > 0 && fams.length > 0 && fams[0] !== was[0]) {
    errs.push(invalid(path, strings(spec.clusterIPs), 'may not change once set'));
  }
  return errs;
}

/**
 * `ValidateServiceStatusUpdate` past the metadata update: `ValidateLoadBalancerStatus` against the spec
 * kept from the old object (ingress points only for a load balancer; their addresses, IP modes and host
 * names).
 */
export function validateServiceStatusUpdate(o: KubeObject, oldObject: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('status', 'loadBalancer', 'ingress');
  const ingress = objects(valueAt(o, 'status', 'loadBalancer', 'ingress'));
  const raw = valueAt(o, 'status', 'loadBalancer', 'ingress');
  if (specOf(o).type !== 'LoadBalancer' && Array.isArray(raw) && raw.length > 0) return [forbidden(path, "may only be used when `spec.type` is 'LoadBalancer'")];
  const oldIPs = objects(valueAt(oldObject, 'status', 'loadBalancer', 'ingress')).map((i) => str(i.ip)).filter((ip) => ip !== '');
  ingress.forEach((ing, i) => {
    const at = path.index(i);
    const ip = str(ing.ip);
    if (ip !== '') errs.push(...legacyIPErrors(at.child('ip'), ip, oldIPs));
    const mode = ing.ipMode;
    if (mode === undefined || mode === null) {
      if (ip !== '') errs.push(required(at.child('ipMode'), 'must be specified when `ip` is set'));
    } else if (ip === '') {
      errs.push(forbidden(at.child('ipMode'), 'may not be specified when `ip` is not set'));
    } else if (mode !== 'Proxy' && mode !== 'VIP') {
      errs.push(notSupported(at.child('ipMode'), mode, ['Proxy', 'VIP']));
    }
    const hostname = str(ing.hostname);
    if (hostname !== '') {
      for (const msg of isDNS1123Subdomain(hostname)) errs.push(invalid(at.child('hostname'), hostname, msg));
      if (parseIP(hostname) !== undefined) errs.push(invalid(at.child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
