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

/** The IPv4 ranges of the stored ServiceCIDRs not being deleted, as network address and size. */
export function storedServiceRanges(store: ObjectStore): { base: number; size: number }[] {
  const out: { base: number; size: number }[] = [];
  for (const [, o] of store.values(serviceCIDRsBucket)) {
    if (o.metadata.deletionTimestamp !== undefined) continue;
    for (const cidr of cidrsOf(o)) {
      const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
      if (m === null) continue;
      const bits = Number(m[5]);
      if (bits > 32) continue;
      out.push({ base: m.slice(1, 5).map(Number).reduce((n, x) => n * 256 + x, 0), size: 2 ** (32 - bits) });
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
