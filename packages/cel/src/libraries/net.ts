/**
 * Kubernetes' IP and CIDR libraries (`ip`, `isIP`, `ip.isCanonical`, `family`, `isUnspecified`,
 * `isLoopback`, `isLinkLocalMulticast`, `isLinkLocalUnicast`, `isGlobalUnicast`, `cidr`, `isCIDR`,
 * `containsIP`, `containsCIDR`, `prefixLength`, `masked`, `string`) over `netip` parsing: strict
 * dotted quads, no zones, no IPv4-mapped IPv6 addresses.
 */
import { OpaqueVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { BoolType, IntType, StringType, opaqueType } from '../internal/types.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

/** `net.IP`. */
export const IPType = opaqueType('net.IP');
/** `net.CIDR`. */
export const CIDRType = opaqueType('net.CIDR');

function parseIPv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | undefined {
  if (s.includes('%')) return undefined;
  const dbl = s.indexOf('::');
  if (dbl !== s.lastIndexOf('::')) return undefined;
  const toGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const groups = part.split(':');
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i];
      if (i === groups.length - 1 && g.includes('.')) {
        const v4 = parseIPv4(g);
        if (v4 === undefined) return undefined;
        out.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  let words: number[];
  if (dbl >= 0) {
    const head = toGroups(s.slice(0, dbl));
    const tail = toGroups(s.slice(dbl + 2));
    if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined;
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    const all = toGroups(s);
    if (all === undefined || all.length !== 8) return undefined;
    words = all;
  }
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 0xff);
  return bytes;
}

/** An address. */
export class IPVal extends OpaqueVal {
  readonly celType = IPType;

  constructor(readonly bytes: readonly number[]) {
    super();
  }

  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof IPVal && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i]);
  }

  override size(): number {
    return this.bytes.length;
  }

  override toString(): string {
    if (this.family === 4) return this.bytes.join('.');
    const words: number[] = [];
    for (let i = 0; i < 16; i += 2) words.push(this.bytes[i] * 256 + this.bytes[i + 1]);
    let bestStart = -1;
    let bestLen = 0;
    for (let i = 0; i < 8;) {
      if (words[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && words[j] === 0) j++;
      if (j - i > bestLen && j - i >= 2) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    const hex = words.map((w) => w.toString(16));
    if (bestStart < 0) return hex.join(':');
    return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
  }
}

/** `netip.ParseAddr` with Kubernetes' restrictions, or the error. */
export function parseIP(s: string): IPVal | string {
  if (s.includes('%')) return `IP address with zone value is not allowed: ${s}`;
  const v4 = parseIPv4(s);
  if (v4 !== undefined) return new IPVal(v4);
  if (!s.includes(':')) return `IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): unable to parse IP`;
  const v6 = parseIPv6(s);
  if (v6 === undefined) return `IP Address ${JSON.stringify(s)} parse error during conversion from string: ParseAddr(${JSON.stringify(s)}): unable to parse IP`;
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  return new IPVal(v6);
}

/** A prefix. */
export class CIDRVal extends OpaqueVal {
  readonly celType = CIDRType;

  constructor(readonly ip: IPVal, readonly prefix: number) {
    super();
  }

  equals(other: OpaqueVal): boolean {
    return other instanceof CIDRVal && other.prefix === this.prefix && other.ip.equals(this.ip);
  }

  override size(): number {
    return this.ip.bytes.length;
  }

  masked(): CIDRVal {
    const bytes = this.ip.bytes.map((b, i) => {
      const bits = Math.max(0, Math.min(8, this.prefix - i * 8));
      return b & ((0xff << (8 - bits)) & 0xff);
    });
    return new CIDRVal(new IPVal(bytes), this.prefix);
  }

  contains(ip: IPVal): boolean {
    if (ip.family !== this.ip.family) return false;
    return new CIDRVal(ip, this.prefix).masked().ip.equals(this.masked().ip);
  }

  override toString(): string {
    return `${this.ip.toString()}/${this.prefix}`;
  }
}

/** `netip.ParsePrefix` with Kubernetes' restrictions, or the error. */
export function parseCIDR(s: string): CIDRVal | string {
  const slash = s.indexOf('/');
  const fail = `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): invalid prefix`;
  if (slash < 0) return `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(s)}): no '/'`;
  const ip = parseIP(s.slice(0, slash));
  if (typeof ip === 'string') return fail;
  const bits = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bits)) return fail;
  const n = Number(bits);
  if (n > ip.bytes.length * 8) return fail;
  return new CIDRVal(ip, n);
}

const ip = (v: CelVal): IPVal => v as IPVal;
const cidr = (v: CelVal): CIDRVal => v as CIDRVal;

function linkLocalUnicast(a: IPVal): boolean {
  return a.family === 4 ? a.bytes[0] === 169 && a.bytes[1] === 254 : a.bytes[0] === 0xfe && (a.bytes[1] & 0xc0) === 0x80;
}

function linkLocalMulticast(a: IPVal): boolean {
  return a.family === 4 ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0 : a.bytes[0] === 0xff && (a.bytes[1] & 0x0f) === 0x02;
}

function loopback(a: IPVal): boolean {
  return a.family === 4 ? a.bytes[0] === 127 : a.bytes.slice(0, 15).every((b) => b === 0) && a.bytes[15] === 1;
}

function unspecified(a: IPVal): boolean {
  return a.bytes.every((b) => b === 0);
}

function globalUnicast(a: IPVal): boolean {
  if (a.family === 4 && a.bytes.every((b) => b === 255)) return false;
  const multicast = a.family === 4 ? a.bytes[0] >= 224 && a.bytes[0] <= 239 : a.bytes[0] === 0xff;
  return !unspecified(a) && !loopback(a) && !multicast && !linkLocalUnicast(a);
}

function toIP(v: CelVal): CelVal {
  const r = parseIP(v as string);
  return typeof r === 'string' ? err(r) : r;
}

function toCIDR(v: CelVal): CelVal {
  const r = parseCIDR(v as string);
  return typeof r === 'string' ? err(r) : r;
}

/** The IP and CIDR libraries. */
export const netLibrary: readonly FunctionDecl[] = [
  func('ip', overload('string_to_ip', [StringType], IPType, toIP), memberOverload('cidr_ip', [CIDRType], IPType, (c) => cidr(c).ip)),
  func('family', memberOverload('ip_family', [IPType], IntType, (v) => BigInt(ip(v).family))),
  func('ip.isCanonical', overload('ip_is_canonical', [StringType], BoolType, (v) => {
    const r = parseIP(v as string);
    return typeof r === 'string' ? err(r) : r.toString() === v;
  })),
  func('isUnspecified', memberOverload('ip_is_unspecified', [IPType], BoolType, (v) => unspecified(ip(v)))),
  func('isLoopback', memberOverload('ip_is_loopback', [IPType], BoolType, (v) => loopback(ip(v)))),
  func('isLinkLocalMulticast', memberOverload('ip_is_link_local_multicast', [IPType], BoolType, (v) => linkLocalMulticast(ip(v)))),
  func('isLinkLocalUnicast', memberOverload('ip_is_link_local_unicast', [IPType], BoolType, (v) => linkLocalUnicast(ip(v)))),
  func('isGlobalUnicast', memberOverload('ip_is_global_unicast', [IPType], BoolType, (v) => globalUnicast(ip(v)))),
  func('isIP', overload('is_ip', [StringType], BoolType, (v) => typeof parseIP(v as string) !== 'string')),
  func('string', overload('ip_to_string', [IPType], StringType, (v) => ip(v).toString()),
    overload('cidr_to_string', [CIDRType], StringType, (v) => cidr(v).toString())),
  func('cidr', overload('string_to_cidr', [StringType], CIDRType, toCIDR)),
  func('containsIP',
    memberOverload('cidr_contains_ip_string', [CIDRType, StringType], BoolType, (c, s) => {
      const a = toIP(s);
      return a instanceof IPVal ? cidr(c).contains(a) : a;
    }),
    memberOverload('cidr_contains_ip_ip', [CIDRType, IPType], BoolType, (c, a) => cidr(c).contains(ip(a)))),
  func('containsCIDR',
    memberOverload('cidr_contains_cidr_string', [CIDRType, StringType], BoolType, (c, s) => {
      const o = toCIDR(s);
      return o instanceof CIDRVal ? cidr(c).prefix <= o.prefix && cidr(c).contains(o.ip) : o;
    }),
    memberOverload('cidr_contains_cidr', [CIDRType, CIDRType], BoolType, (c, o) => cidr(c).prefix <= cidr(o).prefix && cidr(c).contains(cidr(o).ip))),
  func('prefixLength', memberOverload('cidr_prefix_length', [CIDRType], IntType, (c) => BigInt(cidr(c).prefix))),
  func('masked', memberOverload('cidr_masked', [CIDRType], CIDRType, (c) => cidr(c).masked())),
  func('isCIDR', overload('is_cidr', [StringType], BoolType, (v) => typeof parseCIDR(v as string) !== 'string')),
];
