/**
 * networking.k8s.io/v1 ServiceCIDRs and IPAddresses, as kube-apiserver 1.34.4 serves them with the
 * MultiCIDRServiceAllocator allocator (on by default since 1.33):
 *
 * - ServiceCIDRs (pkg/registry/networking/servicecidr): `ValidateServiceCIDR` on create (at most two CIDRs,
 *   one per family, each strictly canonical), `ValidateServiceCIDRUpdate` on update (the CIDRs immutable, but
 *   a single-family range may gain the other family), a `/status` that keeps the spec. Neither strategy
 *   resets the status: a create keeps the one it was sent, and an update of the main resource takes the one
 *   it sends. The default ServiceCIDR `kubernetes` holds the server's service range, `Ready` (the apiserver's
 *   default-servicecidr controller). The `networking.k8s.io/service-cidr-finalizer` is the
 *   kube-controller-manager's, which neither the reference test server nor kubekit runs.
 * - IPAddresses (pkg/registry/networking/ipaddress): named after the address in canonical form, the name
 *   taken as it is from `generateName` (the strategy's name generator is a no-op), `ValidateIPAddress` on
 *   create and update, the parent reference immutable. The Service allocator writes one per cluster IP,
 *   labelled with its family and `managed-by: ipallocator.k8s.io`, and deletes it with the Service
 *   ({@link ServiceIPAddresses}); a cluster IP asked for that an IPAddress already holds is refused.
 *
 * @see https://github.com/kubernetes/enhancements/tree/master/keps/sig-network/1880-multiple-service-cidrs
 */
import { randomUUID } from 'node:crypto';
import { FieldError, FieldPath, goQuote, invalid, required, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { isObject, str, valueAt, type JSONObject } from './internal/own.js';
import { isDNS1123Subdomain } from './internal/semantics.js';
import { pathSegmentErrors } from './objectMeta.js';
import { ipv6Text, parseIP } from './podWarnings.js';
import { isIPv4Sloppy } from './podStatus.js';
import { isCIDRSloppy } from './serviceValidation.js';
import { ageCell } from './table.js';
import type { ObjectStore, StoreEvent } from './storage/objectStore.js';
import { heldBy, ipAddressesBucket } from './internal/serviceAddresses.js';

export { ipAddressesBucket, serviceCIDRsBucket } from './internal/serviceAddresses.js';

const servicesBucket = '/services';
const ipAddressGR = { group: 'networking.k8s.io', resource: 'ipaddresses' };

/** The name of the default ServiceCIDR, and the label values the Service allocator writes. */
export const defaultServiceCIDRName = 'kubernetes';
const managedByLabel = 'ipaddress.kubernetes.io/managed-by';
const familyLabel = 'ipaddress.kubernetes.io/ip-family';
const allocatorName = 'ipallocator.k8s.io';

const invalidCIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});
const cidrsOf = (o: KubeObject): string[] => (Array.isArray(specOf(o).cidrs) ? (specOf(o).cidrs as unknown[]).map(str) : []);

/** `validation.IsValidCIDR`: a range Go's strict parser takes, without host bits, in canonical form. */
export function strictCIDRErrors(path: FieldPath, value: string): FieldError[] {
  if (!isCIDRSloppy(value)) return [invalid(path, value, invalidCIDR)];
  const slash = value.indexOf('/');
  const addr = value.slice(0, slash);
  const bitsText = value.slice(slash + 1);
  const v4Text = isIPv4Sloppy(addr);
  const v4Part = addr.slice(addr.lastIndexOf(':') + 1);
  // netip.ParsePrefix refuses leading zeros in an IPv4 address (or IPv6's dotted tail) and in the length.
  if ((v4Part.includes('.') && v4Part.split('.').some((p) => p.length > 1 && p.startsWith('0'))) || (bitsText.length > 1 && bitsText.startsWith('0'))) {
    return [invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  }
  const ip = parseIP(addr)!;
  if (!v4Text && ip.v4) return [invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  const bytes = v4Text ? ip.bytes.slice(12) : ip.bytes;
  const bits = Number(bitsText);
  const network = bytes.map((b, i) => b & (i * 8 + 8 <= bits ? 0xff : i * 8 >= bits ? 0 : (0xff << (8 - (bits - i * 8))) & 0xff));
  if (network.some((b, i) => b !== bytes[i])) return [invalid(path, value, 'must not have bits set beyond the prefix length')];
  const canonical = `${v4Text ? network.join('.') : ipv6Text(network)}/${bits}`;
  return canonical === value ? [] : [invalid(path, value, `must be in canonical form (${goQuote(canonical)})`)];
}

/** `netutils.IPFamilyOfCIDRString`: 4, 6, or undefined for what does not parse. */
function cidrFamily(value: string): 4 | 6 | undefined {
  if (!isCIDRSloppy(value)) return undefined;
  // The parsed address's family: an IPv4-mapped IPv6 range is IPv4.
  return parseIP(value.slice(0, value.indexOf('/')))?.v4 === true ? 4 : 6;
}

/** `validateServiceCIDRSpec`. */
function serviceCIDRSpecErrors(cidrs: readonly string[]): FieldError[] {
  const path = FieldPath.root('spec', 'cidrs');
  if (cidrs.length === 0) return [required(path, 'at least one CIDR required')];
  // The value is the internal spec struct, printed with its Go field name.
  if (cidrs.length > 2) return [new FieldError('FieldValueInvalid', path, cidrs, 'may only hold up to 2 values', JSON.stringify({ CIDRs: cidrs }))];
  const errs = cidrs.flatMap((c, i) => strictCIDRErrors(path.index(i), c));
  const family = cidrFamily(cidrs[0]);
  if (cidrs.length === 2 && family !== undefined && family === cidrFamily(cidrs[1])) {
    errs.push(invalid(path, cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errs;
}

/** `ValidateServiceCIDRUpdate` (after the metadata checks): the CIDRs kept, or one family's range given the other's. */
function serviceCIDRUpdateErrors(o: KubeObject, old: KubeObject): FieldError[] {
  const cidrs = cidrsOf(o);
  const was = cidrsOf(old);
  const path = FieldPath.root('spec', 'cidrs');
  if (cidrs.length === was.length) return was.flatMap((c, i) => (c === cidrs[i] ? [] : [invalid(path.index(i), cidrs[i], 'field is immutable')]));
  if (was.length === 1 && cidrs.length === 2) {
    return [...(cidrs[0] === was[0] ? [] : [invalid(path.index(0), cidrs[0], 'field is immutable')]), ...serviceCIDRSpecErrors(cidrs)];
  }
  return [invalid(path, cidrs, 'field is immutable')];
}

const serviceCIDR: BuiltinSpec = {
  names: { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs', singular: 'servicecidr', kind: 'ServiceCIDR', namespaced: false, shortNames: [], status: true, nameValidation: 'subdomain' },
  columns: [{ def: { name: 'CIDRs', type: 'string', priority: 0 }, cell: (o) => cidrsOf(o).join(',') }],
  validateCreate: (o) => serviceCIDRSpecErrors(cidrsOf(o)),
  validateUpdate: serviceCIDRUpdateErrors,
  // ValidateServiceCIDRStatusUpdate: the metadata only.
  validateStatusUpdate: (_o, _old, meta) => meta,
};

/** The Go form of an internal ParentReference (no JSON tags), as an immutable-field error prints it. */
function parentRefText(ref: unknown): string {
  if (!isObject(ref)) return 'null';
  return JSON.stringify({ Group: str(ref.group), Resource: str(ref.resource), Namespace: str(ref.namespace), Name: str(ref.name) });
}

/** `validateIPAddressParentReference`. */
function parentRefErrors(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const path = FieldPath.root('spec', 'parentRef');
  if (!isObject(spec.parentRef)) return [required(path, '')];
  const ref = spec.parentRef;
  const errs: FieldError[] = [];
  const group = str(ref.group);
  if (group !== '') errs.push(...isDNS1123Subdomain(group).map((msg) => invalid(path.child('group'), group, msg)));
  for (const f of ['resource', 'name']) {
    const value = str(ref[f]);
    if (value === '') errs.push(required(path.child(f), ''));
    else errs.push(...pathSegmentErrors(value, false).map((msg) => invalid(path.child(f), value, msg)));
  }
  const namespace = str(ref.namespace);
  if (namespace !== '') errs.push(...pathSegmentErrors(namespace, false).map((msg) => invalid(path.child('namespace'), namespace, msg)));
  return errs;
}

/** `printIPAddress`'s parent: `resource.group[/namespace]/name`, `<none>` without one. */
function parentRefCell(o: KubeObject): string {
  const ref = valueAt(o, 'spec', 'parentRef');
  if (!isObject(ref)) return '<none>';
  const group = str(ref.group);
  const resource = `${str(ref.resource)}${group === '' ? '' : `.${group}`}`.toLowerCase();
  return `${resource}${str(ref.namespace) === '' ? '' : `/${str(ref.namespace)}`}/${str(ref.name)}`;
}

const ipAddress: BuiltinSpec = {
  names: { group: 'networking.k8s.io', version: 'v1', resource: 'ipaddresses', singular: 'ipaddress', kind: 'IPAddress', namespaced: false, shortNames: ['ip'], status: false, nameValidation: 'ip' },
  // The printer gives an Age cell that no column definition announces.
  printer: (o, now) => [o.metadata.name ?? '', parentRefCell(o), ageCell(o, now)],
  // ValidateIPAddress on create and update (its ValidateObjectMeta included), then ValidateIPAddressUpdate.
  updateValidatesMeta: true,
  validate: parentRefErrors,
  validateUpdate: (o, old) => (parentRefText(valueAt(o, 'spec', 'parentRef')) === parentRefText(valueAt(old, 'spec', 'parentRef'))
    ? []
    : [new FieldError('FieldValueInvalid', 'spec.parentRef', valueAt(o, 'spec', 'parentRef') ?? null, 'field is immutable', parentRefText(valueAt(o, 'spec', 'parentRef')))]),
};

/** The ServiceCIDR and IPAddress kinds the embedded server serves. */
export function serviceCIDRResourceTypes(): BuiltinResourceType[] {
  const serviceCIDRType = new BuiltinResourceType(serviceCIDR);
  const prepare = serviceCIDRType.prepareForUpdate.bind(serviceCIDRType);
  serviceCIDRType.prepareForUpdate = (o, old, ctx) => {
    // The strategy's PrepareForUpdate keeps nothing of the old object: the status sent is the one stored.
    const sent = o.status;
    prepare(o, old, ctx);
    if (ctx.subresource !== '') return;
    if (sent === undefined) delete o.status;
    else o.status = sent;
  };
  return [serviceCIDRType, new BuiltinResourceType(ipAddress)];
}

/** The default ServiceCIDR for the server's service range, `Ready` as the default-servicecidr controller leaves it. */
export function defaultServiceCIDR(range: string, now: string): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR',
    metadata: { name: defaultServiceCIDRName, uid: randomUUID(), creationTimestamp: now },
    spec: { cidrs: [range] },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now, reason: '', message: 'Kubernetes default Service CIDR is ready' }] },
  };
}

/** The cluster IPs a Service holds (`None` and empty ones are not addresses). */
function clusterIPsOf(svc: KubeObject | undefined): string[] {
  if (svc === undefined) return [];
  const ips = valueAt(svc, 'spec', 'clusterIPs');
  return (Array.isArray(ips) ? ips.map(str) : []).filter((ip) => ip !== '' && ip !== 'None');
}

/**
 * The IPAddress objects of the Services' cluster IPs, kept as the Service REST's allocator keeps them: one
 * written for each cluster IP a Service comes to hold, deleted when it lets the address go or is deleted.
 *
 * Contract: it follows the store's events for Services, each handled on the microtask after its delivery
 * (never inside another write), so an IPAddress is there before the Service's write is answered; at start
 * it writes those missing for the Services already stored.
 */
export class ServiceIPAddresses {
  private readonly unsubscribe: () => void;

  /** @param onError - told of a write that failed (the store's persistence refusing it); the others go on */
  constructor(private readonly store: ObjectStore, private readonly now: () => string, private readonly onError: (err: unknown) => void) {
    this.unsubscribe = store.subscribe((e) => {
      if (e.bucket === servicesBucket) queueMicrotask(() => this.guarded(() => this.observe(e)));
    });
    for (const [, svc] of store.values(servicesBucket)) this.guarded(() => this.hold(svc, []));
  }

  private guarded(work: () => void): void {
    try {
      work();
    } catch (err) {
      this.onError(err);
    }
  }

  /** Stops following the store. */
  close(): void {
    this.unsubscribe();
  }

  private observe(e: StoreEvent): void {
    const before = e.prevObject === undefined ? [] : clusterIPsOf(e.prevObject);
    if (e.type === 'DELETED') {
      this.release(e.object, before);
      return;
    }
    const now = clusterIPsOf(e.object);
    this.hold(e.object, before);
    this.release(e.object, before.filter((ip) => !now.includes(ip)));
  }

  private hold(svc: KubeObject, already: readonly string[]): void {
    const namespace = svc.metadata.namespace ?? '';
    const name = svc.metadata.name ?? '';
    for (const ip of clusterIPsOf(svc)) {
      if (already.includes(ip) || this.store.get(ipAddressesBucket, ip) !== undefined) continue;
      const object: KubeObject = {
        apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress',
        metadata: { name: ip, uid: randomUUID(), creationTimestamp: this.now(), labels: { [familyLabel]: ip.includes(':') ? 'IPv6' : 'IPv4', [managedByLabel]: allocatorName } },
        spec: { parentRef: { resource: 'services', namespace, name } },
      };
      this.store.create(ipAddressGR, ip, ip, object).durable.catch(this.onError);
    }
  }

  private release(svc: KubeObject, ips: readonly string[]): void {
    const namespace = svc.metadata.namespace ?? '';
    const name = svc.metadata.name ?? '';
    for (const ip of ips) {
      const held = this.store.get(ipAddressesBucket, ip);
      if (held !== undefined && heldBy(held, namespace, name)) this.store.delete(ipAddressGR, ip, ip).durable.catch(this.onError);
    }
  }
}
