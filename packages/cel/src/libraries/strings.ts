/**
 * cel-go's `ext.Strings` at version 2, as Kubernetes enables it: `charAt`, `indexOf`,
 * `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`,
 * `format` and `strings.quote`. Indices count code points, as in cel-go.
 */
import { goFormatFloat, trimSpace } from '@kubekit/core';
import { ArrayList, DurationVal, ErrVal, ListVal, MapVal, OptionalVal, TimestampVal, TypeVal, UintVal, typeNameOf } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import { DynType, IntType, StringType, listType } from '../internal/types.js';
import { formatDuration, formatRFC3339Nano } from '../internal/time.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

const cps = (s: CelVal): string[] => [...(s as string)];
const int = (v: CelVal): number => Number(v as bigint);

function indexOf(str: string[], sub: string[], from: number): number {
  outer: for (let i = from; i + sub.length <= str.length; i++) {
    for (let j = 0; j < sub.length; j++) if (str[i + j] !== sub[j]) continue outer;
    return i;
  }
  return -1;
}

function lastIndexOf(str: string[], sub: string[], from: number): number {
  for (let i = Math.min(from, str.length - sub.length); i >= 0; i--) {
    let ok = true;
    for (let j = 0; j < sub.length && ok; j++) ok = str[i + j] === sub[j];
    if (ok) return i;
  }
  return -1;
}

/** Go's `strings.Replace`. */
function goReplace(s: string, old: string, rep: string, n: number): string {
  if (old === rep || n === 0) return s;
  if (old === '') {
    const chars = [...s];
    const limit = n < 0 ? chars.length + 1 : Math.min(n, chars.length + 1);
    let out = '';
    for (let i = 0; i < chars.length; i++) out += (i < limit ? rep : '') + chars[i];
    return out + (chars.length < limit ? rep : '');
  }
  let out = '';
  let count = 0;
  let i = 0;
  while (n < 0 || count < n) {
    const j = s.indexOf(old, i);
    if (j < 0) break;
    out += s.slice(i, j) + rep;
    i = j + old.length;
    count++;
  }
  return out + s.slice(i);
}

/** Go's `strings.SplitN`. */
function goSplitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const chars = [...s];
    if (n < 0 || n > chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const out: string[] = [];
  let i = 0;
  while (n < 0 || out.length < n - 1) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07': out += '\\a'; break;
      case '\b': out += '\\b'; break;
      case '\f': out += '\\f'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\t': out += '\\t'; break;
      case '\v': out += '\\v'; break;
      case '\\': out += '\\\\'; break;
      case '"': out += '\\"'; break;
      default: out += ch;
    }
  }
  return out + '"';
}

/** `%s` of a value, as cel-go's string formatter prints it. */
function formatString(v: CelVal): string | ErrVal {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : goFormatFloat(v);
  if (v instanceof UintVal) return String(v.value);
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (v instanceof TimestampVal) return formatRFC3339Nano(v.ns, v.offset);
  if (v instanceof DurationVal) return formatDuration(v.ns);
  if (v instanceof TypeVal) return v.type.name;
  if (v instanceof ListVal) {
    const parts: string[] = [];
    for (const x of v) {
      const s = formatString(x);
      if (s instanceof ErrVal) return s;
      parts.push(typeof x === 'string' ? quote(x) : s);
    }
    return `[${parts.join(', ')}]`;
  }
  if (v instanceof MapVal) {
    const parts: string[] = [];
    for (const k of v.keys()) {
      const ks = formatString(k);
      const val = v.find(k) ?? null;
      const vs = formatString(val);
      if (ks instanceof ErrVal) return ks;
      if (vs instanceof ErrVal) return vs;
      parts.push(`${typeof k === 'string' ? quote(k) : ks}: ${typeof val === 'string' ? quote(val) : vs}`);
    }
    return `{${parts.sort().join(', ')}}`;
  }
  if (v instanceof OptionalVal) return v.value === undefined ? 'optional.none()' : `optional.of(${String(formatString(v.value))})`;
  return err('string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps');
}

function formatNumber(v: CelVal, verb: string, precision: number | undefined): string | ErrVal {
  switch (verb) {
    case 'd':
      if (typeof v === 'bigint') return String(v);
      if (v instanceof UintVal) return String(v.value);
      if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
      return err('decimal clause can only be used on integers, was given ' + typeof v);
    case 'f': case 'e': {
      // cel-go formats through golang.org/x/text's en-US printer: grouped thousands, and a
      // superscript exponent ("3.140000×10⁰⁰").
      const special = typeof v === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(v) ? v : undefined;
      if (typeof v !== 'number' && special === undefined) {
        return err(`${verb === 'f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${typeNameOf(v)}`);
      }
      const n = special !== undefined ? Number(special) : (v as number);
      if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '∞' : '-∞';
      const p = precision ?? 6;
      if (verb === 'f') {
        const [whole, frac] = n.toFixed(p).split('.');
        const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
        return frac === undefined ? grouped : `${grouped}.${frac}`;
      }
      const [m, e] = n.toExponential(6).split('e');
      const exp = Number(e);
      const sup = '⁰¹²³⁴⁵⁶⁷⁸⁹';
      const digits = String(Math.abs(exp)).padStart(2, '0').split('').map((c) => sup[Number(c)]).join('');
      return `${m}×10${exp < 0 ? '⁻' : ''}${digits}`;
    }
    default: {
      const base = verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
      let text: string;
      if (typeof v === 'bigint') text = v < 0n ? '-' + (-v).toString(base) : v.toString(base);
      else if (v instanceof UintVal) text = v.value.toString(base);
      else if (typeof v === 'string' && base === 16) text = Buffer.from(v, 'utf8').toString('hex');
      else if (v instanceof Uint8Array && base === 16) text = Buffer.from(v).toString('hex');
      else return err('only integers, byte buffers, and strings can be formatted as hex');
      return verb === 'X' ? text.toUpperCase() : text;
    }
  }
}

function format(fmt: CelVal, args: CelVal): CelVal {
  const f = fmt as string;
  const list = args as ListVal;
  let out = '';
  let argi = 0;
  for (let i = 0; i < f.length; i++) {
    if (f[i] !== '%') {
      out += f[i];
      continue;
    }
    i++;
    if (f[i] === '%') {
      out += '%';
      continue;
    }
    let precision: number | undefined;
    if (f[i] === '.') {
      let p = '';
      i++;
      while (f[i] >= '0' && f[i] <= '9') p += f[i++];
      precision = Number(p);
    }
    const verb = f[i];
    if (verb === undefined) return err('unexpected end of format string');
    if (argi >= list.size()) return err(`index ${argi} out of range`);
    const v = list.get(argi++);
    const s = verb === 's' ? formatString(v) : 'dfeboxX'.includes(verb) ? formatNumber(v, verb, precision) : err(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    if (s instanceof ErrVal) return s;
    out += s;
  }
  return out;
}

/** The strings extension. */
export const stringsLibrary: readonly FunctionDecl[] = [
  func('charAt', memberOverload('string_char_at_int', [StringType, IntType], StringType, (s, idx) => {
    const c = cps(s);
    const i = int(idx);
    if (i < 0 || i > c.length) return err(`index out of range: ${i}`);
    return c[i] ?? '';
  })),
  func('indexOf',
    memberOverload('string_index_of_string', [StringType, StringType], IntType, (s, sub) => BigInt(indexOf(cps(s), cps(sub), 0))),
    memberOverload('string_index_of_string_int', [StringType, StringType, IntType], IntType, (s, sub, off) => {
      const c = cps(s);
      const o = int(off);
      if (o < 0 || o > c.length) return err(`index out of range: ${o}`);
      return BigInt(indexOf(c, cps(sub), o));
    })),
  func('lastIndexOf',
    memberOverload('string_last_index_of_string', [StringType, StringType], IntType, (s, sub) => {
      const c = cps(s);
      return BigInt(lastIndexOf(c, cps(sub), c.length));
    }),
    memberOverload('string_last_index_of_string_int', [StringType, StringType, IntType], IntType, (s, sub, off) => {
      const c = cps(s);
      const o = int(off);
      if (o < 0 || o > c.length) return err(`index out of range: ${o}`);
      return BigInt(lastIndexOf(c, cps(sub), o));
    })),
  func('lowerAscii', memberOverload('string_lower_ascii', [StringType], StringType, (s) => (s as string).replace(/[A-Z]/g, (c) => c.toLowerCase()))),
  func('upperAscii', memberOverload('string_upper_ascii', [StringType], StringType, (s) => (s as string).replace(/[a-z]/g, (c) => c.toUpperCase()))),
  func('replace',
    memberOverload('string_replace_string_string', [StringType, StringType, StringType], StringType, (s, a, b) => goReplace(s as string, a as string, b as string, -1)),
    memberOverload('string_replace_string_string_int', [StringType, StringType, StringType, IntType], StringType,
      (s, a, b, n) => goReplace(s as string, a as string, b as string, int(n)))),
  func('split',
    memberOverload('string_split_string', [StringType, StringType], listType(StringType), (s, sep) => new ArrayList(goSplitN(s as string, sep as string, -1))),
    memberOverload('string_split_string_int', [StringType, StringType, IntType], listType(StringType),
      (s, sep, n) => new ArrayList(goSplitN(s as string, sep as string, int(n))))),
  func('substring',
    memberOverload('string_substring_int', [StringType, IntType], StringType, (s, start) => {
      const c = cps(s);
      const a = int(start);
      if (a < 0 || a > c.length) return err(`index out of range: ${a}`);
      return c.slice(a).join('');
    }),
    memberOverload('string_substring_int_int', [StringType, IntType, IntType], StringType, (s, start, end) => {
      const c = cps(s);
      const a = int(start);
      const b = int(end);
      if (a < 0 || a > c.length) return err(`index out of range: ${a}`);
      if (b < 0 || b > c.length) return err(`index out of range: ${b}`);
      if (a > b) return err(`invalid substring range. start: ${a}, end: ${b}`);
      return c.slice(a, b).join('');
    })),
  func('trim', memberOverload('string_trim', [StringType], StringType, (s) => trimSpace(s as string))),
  func('join',
    memberOverload('list_join', [listType(StringType)], StringType, (l) => [...(l as ListVal)].join('')),
    memberOverload('list_join_string', [listType(StringType), StringType], StringType, (l, sep) => [...(l as ListVal)].join(sep as string))),
  func('format', memberOverload('string_format', [StringType, listType(DynType)], StringType, format)),
  func('strings.quote', overload('strings_quote', [StringType], StringType, (s) => quote(s as string))),
];


