/**
 * The network formats of kube-openapi's registry, ported from the Go functions they call:
 * `ipv4` (k8s.io/utils `ParseIPSloppy`, which allows leading zeros, and a `.`), `ipv6` (`net.ParseIP`
 * and a `:`), `cidr` (`ParseCIDRSloppy`), `mac` (`net.ParseMAC`), `uri` (`url.ParseRequestURI`) and
 * `email` (`net/mail.ParseAddress`).
 */

type Bytes = number[] | null;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function hexValue(c: string | undefined): number {
  if (c === undefined) return -1;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Go's `dtoi`: leading decimal digits, their count, and whether there was at least one (capped at 0xFFFFFF). */
function dtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return [0xffffff, i, false];
  }
  return [n, i, i > 0];
}

/** Go's `xtoi`: leading hex digits, their count, and whether there was at least one. */
function xtoi(s: string): [number, number, boolean] {
  let n = 0;
  let i = 0;
  for (; i < s.length && hexValue(s[i]) >= 0; i++) {
    n = n * 16 + hexValue(s[i]);
    if (n >= 0xffffff) return [0, i, false];
  }
  return [n, i, i > 0];
}

/** IPv4 as Go parses it: `strict` is netip (no leading zeros), otherwise Go 1.16 (leading zeros allowed). */
function parseIPv4(s: string, strict: boolean): Bytes {
  const out: number[] = [];
  let rest = s;
  for (let i = 0; i < 4; i++) {
    if (rest.length === 0) return null;
    if (i > 0) {
      if (rest[0] !== '.') return null;
      rest = rest.slice(1);
    }
    const [n, c, ok] = dtoi(rest);
    if (!ok || n > 0xff) return null;
    if (strict && c > 1 && rest[0] === '0') return null;
    rest = rest.slice(c);
    out.push(n);
  }
  return rest.length === 0 ? out : null;
}

function parseIPv6(s: string, strict: boolean): Bytes {
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  let rest = s;
  if (rest.length >= 2 && rest[0] === ':' && rest[1] === ':') {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const [n, c, ok] = xtoi(rest);
    if (!ok || n > 0xffff || (strict && c > 4)) return null;
    if (c < rest.length && rest[c] === '.') {
      if (ellipsis < 0 && i !== 12) return null;
      if (i + 4 > 16) return null;
      const ip4 = parseIPv4(rest, strict);
      if (ip4 === null) return null;
      ip.splice(i, 4, ...ip4);
      rest = '';
      i += 4;
      break;
    }
    ip[i] = n >> 8;
    ip[i + 1] = n & 0xff;
    i += 2;
    rest = rest.slice(c);
    if (rest.length === 0) break;
    if (rest[0] !== ':' || rest.length === 1) return null;
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) return null;
      ellipsis = i;
      rest = rest.slice(1);
      if (rest.length === 0) break;
    }
  }
  if (rest.length !== 0) return null;
  if (i < 16) {
    if (ellipsis < 0) return null;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return null;
  }
  return ip;
}

/** `net.ParseIP` (strict) or k8s.io/utils `ParseIPSloppy`: the first `.` or `:` decides the family. */
export function parseIP(s: string, strict: boolean): Bytes {
  for (const c of s) {
    if (c === '.') return parseIPv4(s, strict);
    if (c === ':') return parseIPv6(s, strict);
    if (strict && c === '%') return null;
  }
  return null;
}

/** The `ipv4` format: parses sloppily and contains a dot (so `::ffff:1.2.3.4` passes, as in Go). */
export function isIPv4(s: string): boolean {
  return parseIP(s, false) !== null && s.includes('.');
}

/** The `ipv6` format: parses strictly and contains a colon. */
export function isIPv6(s: string): boolean {
  return parseIP(s, true) !== null && s.includes(':');
}

/** The `cidr` format: k8s.io/utils `ParseCIDRSloppy` succeeds. */
export function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let ipLen = 4;
  let ip = parseIPv4(addr, false);
  if (ip === null) {
    ipLen = 16;
    ip = parseIPv6(addr, false);
  }
  const [n, c, ok] = dtoi(mask);
  return ip !== null && ok && c === mask.length && n >= 0 && n <= 8 * ipLen;
}

/** Go's `xtoi2`: two hex digits, followed by `sep` or the end. */
function hexPair(s: string, at: number, sep: string): boolean {
  if (s.length > at + 2 && s[at + 2] !== sep) return false;
  return hexValue(s[at]) >= 0 && hexValue(s[at + 1]) >= 0;
}

/** The `mac` format: `net.ParseMAC` (6, 8 or 20 octets; `:`/`-` pairs or `.` quads). */
export function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i++, x += 3) if (!hexPair(s, x, s[2])) return false;
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i += 2, x += 5) {
      if (hexValue(s[x]) < 0 || hexValue(s[x + 1]) < 0) return false;
      if (!hexPair(s, x + 2, '.')) return false;
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// url.ParseRequestURI

function hasCTLByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

const hostAllowed = new Set('!$&\'()*+,;=:[]<>"-_.~'.split(''));

/** Go's `unescape` validity: `%XX` escapes well-formed; in hosts only non-ASCII may be escaped (or `%25`). */
function unescapeOK(s: string, mode: 'path' | 'host' | 'zone' | 'user'): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      if (i + 2 >= s.length || hexValue(s[i + 1]) < 0 || hexValue(s[i + 2]) < 0) return false;
      if (mode === 'host' && hexValue(s[i + 1]) < 8 && s.slice(i, i + 3) !== '%25') return false;
      if (mode === 'zone') {
        const v = hexValue(s[i + 1]) * 16 + hexValue(s[i + 2]);
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && (v >= 0x80 || !isUnreservedOrHostChar(String.fromCharCode(v)))) return false;
      }
      i += 2;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && !isUnreservedOrHostChar(c)) return false;
  }
  return true;
}

function isUnreservedOrHostChar(c: string): boolean {
  return /^[A-Za-z0-9]$/.test(c) || hostAllowed.has(c);
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (const c of port.slice(1)) if (!isDigit(c)) return false;
  return true;
}

function parseHostOK(host: string): boolean {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) return false;
    if (!validOptionalPort(host.slice(i + 1))) return false;
    const zone = host.slice(0, i).indexOf('%25');
    // Go 1.25.2+ (CVE-2025-47912): the bracketed part must be an IPv6 address.
    const literal = host.slice(1, zone >= 0 ? zone : i);
    const ip = parseIP(literal, true);
    if (ip === null || !literal.includes(':')) return false;
    if (zone >= 0) return unescapeOK(host.slice(0, zone), 'host') && unescapeOK(host.slice(zone, i), 'zone');
    return unescapeOK(host, 'host');
  }
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !validOptionalPort(host.slice(colon))) return false;
  return unescapeOK(host, 'host');
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function parseAuthorityOK(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at < 0) return parseHostOK(authority);
  if (!parseHostOK(authority.slice(at + 1))) return false;
  const userinfo = authority.slice(0, at);
  return validUserinfo(userinfo) && unescapeOK(userinfo, 'user');
}

/** The `uri` format: Go's `url.ParseRequestURI` succeeds (an absolute URI or an absolute path). */
export function isRequestURI(raw: string): boolean {
  if (hasCTLByte(raw)) return false;
  if (raw === '') return false;
  if (raw === '*') return true;
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if (isDigit(c) || c === '+' || c === '-' || c === '.') {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false;
      scheme = raw.slice(0, i);
      rest = raw.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    const authority = slash < 0 ? after : after.slice(0, slash);
    if (!parseAuthorityOK(authority)) return false;
    rest = slash < 0 ? '' : after.slice(slash);
  }
  return unescapeOK(rest, 'path');
}

// ---------------------------------------------------------------------------------------------------
// net/mail.ParseAddress

const specials = new Set('()<>[]:;@\\,"'.split(''));

function isVchar(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return (cp >= 0x21 && cp <= 0x7e) || cp >= 0x80;
}

function isAtext(c: string, dot: boolean): boolean {
  if (c === '.') return dot;
  return !specials.has(c) && isVchar(c);
}

class MailParser {
  constructor(public s: string) {}

  empty(): boolean { return this.s.length === 0; }
  peek(): string { return this.s[0]; }
  consume(c: string): boolean {
    if (this.s[0] !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  skipSpace(): void { this.s = this.s.replace(/^[ \t]+/, ''); }

  skipComment(): boolean {
    let depth = 1;
    while (!this.empty() && depth > 0) {
      if (this.s[0] === '\\' && this.s.length > 1) this.s = this.s.slice(1);
      else if (this.s[0] === '(') depth++;
      else if (this.s[0] === ')') depth--;
      this.s = this.s.slice(1);
    }
    return depth === 0;
  }

  skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume('(')) {
      if (!this.skipComment()) return false;
      this.skipSpace();
    }
    return true;
  }

  atom(dot: boolean, permissive: boolean): string | null {
    let i = 0;
    for (const c of this.s) {
      if (!isAtext(c, dot)) break;
      i += c.length;
    }
    if (i === 0) return null;
    const a = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive && (a.startsWith('.') || a.includes('..') || a.endsWith('.'))) return null;
    return a;
  }

  quotedString(): string | null {
    let i = 1;
    let out = '';
    let escaped = false;
    for (;;) {
      const cp = this.s.codePointAt(i);
      if (cp === undefined) return null;
      const c = String.fromCodePoint(cp);
      if (escaped) {
        if (!isVchar(c) && c !== ' ' && c !== '\t') return null;
        out += c;
        escaped = false;
      } else if ((isVchar(c) && c !== '\\' && c !== '"') || c === ' ' || c === '\t') {
        out += c;
      } else if (c === '"') {
        break;
      } else if (c === '\\') {
        escaped = true;
      } else {
        return null;
      }
      i += c.length;
    }
    this.s = this.s.slice(i + 1);
    return out;
  }

  domainLiteral(): string | null {
    if (!this.consume('[')) return null;
    let dtext = '';
    for (;;) {
      if (this.empty()) return null;
      if (this.peek() === ']') break;
      const c = String.fromCodePoint(this.s.codePointAt(0)!);
      if (c === '[' || c === ']' || c === '\\' || !isVchar(c)) return null;
      dtext += c;
      this.s = this.s.slice(c.length);
    }
    if (!this.consume(']')) return null;
    return parseIP(dtext, true) === null ? null : `[${dtext}]`;
  }

  addrSpec(): string | null {
    const orig = this.s;
    const fail = (): null => {
      this.s = orig;
      return null;
    };
    this.skipSpace();
    if (this.empty()) return fail();
    let local: string | null;
    if (this.peek() === '"') {
      local = this.quotedString();
      if (local === '') return fail();
    } else {
      local = this.atom(true, false);
    }
    if (local === null || !this.consume('@')) return fail();
    this.skipSpace();
    if (this.empty()) return fail();
    const domain = this.peek() === '[' ? this.domainLiteral() : this.atom(true, false);
    if (domain === null) return fail();
    return `${local}@${domain}`;
  }

  phrase(): boolean {
    let words = 0;
    for (;;) {
      if (words > 0 && !this.skipCFWS()) return false;
      this.skipSpace();
      if (this.empty()) break;
      const w = this.peek() === '"' ? this.quotedString() : this.atom(true, true);
      if (w === null) break;
      words++;
    }
    return words > 0;
  }

  /** One address (or a group when allowed); the number of addresses parsed, or -1 on error. */
  address(handleGroup: boolean): number {
    this.skipSpace();
    if (this.empty()) return -1;
    const spec = this.addrSpec();
    if (spec !== null) {
      this.skipSpace();
      if (!this.empty() && this.peek() === '(') {
        this.consume('(');
        if (!this.skipComment()) return -1;
      }
      return 1;
    }
    if (this.peek() !== '<' && !this.phrase()) return -1;
    this.skipSpace();
    if (handleGroup && this.consume(':')) return this.groupList();
    if (!this.consume('<')) return -1;
    if (this.addrSpec() === null) return -1;
    return this.consume('>') ? 1 : -1;
  }

  groupList(): number {
    let count = 0;
    this.skipSpace();
    if (this.consume(';')) return this.skipCFWS() ? 0 : -1;
    for (let guard = 0; guard <= this.s.length + 1; guard++) {
      this.skipSpace();
      const n = this.address(false);
      if (n < 0) return -1;
      count += n;
      if (!this.skipCFWS()) return -1;
      if (this.consume(';')) return this.skipCFWS() ? count : -1;
      if (!this.consume(',')) return -1;
    }
    return -1;
  }
}

/** The `email` format: `net/mail.ParseAddress` finds exactly one address (`a@b`, `Name <a@b>`, …). */
export function isEmail(s: string): boolean {
  const p = new MailParser(s);
  const n = p.address(true);
  if (n !== 1) return false;
  if (!p.skipCFWS()) return false;
  return p.empty();
}
