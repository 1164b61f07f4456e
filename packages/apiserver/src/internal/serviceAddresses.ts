/**
 * What the Service allocator reads of the stored ServiceCIDRs and IPAddresses (serviceCIDRKinds.ts serves
 * the kinds): the ranges addresses are given from, and the addresses held.
 */
import type { KubeObject } from '@kubekit/core';
import { isObject, str, valueAt } from './own.js';
import type { ObjectStore } from '../storage/objectStore.js';

/** The store buckets of the two kinds. */
export const serviceCIDRsBucket = 'networking.k8s.io/servicecidrs';
export const ipAddressesBucket = 'networking.k8s.io/ipaddresses';

const cidrsOf = (o: KubeObject): string[] => {
  const cidrs = valueAt(o, 'spec', 'cidrs');
  return Array.isArray(cidrs) ? cidrs.map(str) : [];
};

/** Whether an IPAddress's parent is the Service `namespace/name`. */
export function heldBy(ip: KubeObject, namespace: string, name: string): boolean {
  const ref = valueAt(ip, 'spec', 'parentRef');
  return isObject(ref) && str(ref.group) === '' && ref.resource === 'services' && str(ref.namespace) === namespace && ref.name === name;
}

/**
 * An IPv4 CIDR written `a.b.c.d/n` as its address (a number) and the size of its range; undefined for
 * anything else (IPv6, an octet past 255, a prefix past 32). Whether the address is the network's is the
 * caller's to check.
 */
export function parseIPv4Range(cidr: string): { base: number; size: number } | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (m === null) return undefined;
  const octets = m.slice(1, 5).map(Number);
  const bits = Number(m[5]);
  if (octets.some((x) => x > 255) || bits > 32) return undefined;
  return { base: octets.reduce((n, x) => n * 256 + x, 0), size: 2 ** (32 - bits) };
}

/** The IPv4 ranges of the stored ServiceCIDRs not being deleted, as network address and size. */
export function storedServiceRanges(store: ObjectStore): { base: number; size: number }[] {
  const out: { base: number; size: number }[] = [];
  for (const [, o] of store.values(serviceCIDRsBucket)) {
    if (o.metadata.deletionTimestamp !== undefined) continue;
    for (const cidr of cidrsOf(o)) {
      const range = parseIPv4Range(cidr);
      if (range !== undefined) out.push(range);
    }
  }
  return out;
}

/** The names the IPAddresses hold, but those of the Service `self` (`namespace/name`). */
export function heldAddresses(store: ObjectStore, self: string | undefined): string[] {
  const out: string[] = [];
  for (const [name, ip] of store.values(ipAddressesBucket)) {
    if (self !== undefined && heldBy(ip, self.slice(0, self.indexOf('/')), self.slice(self.indexOf('/') + 1))) continue;
    out.push(name);
  }
  return out;
}
