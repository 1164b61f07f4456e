/**
 * Timestamps and durations as CEL holds them (nanoseconds in a `bigint`), with Go's parsing and
 * printing: `time.ParseDuration`, strfmt's `ParseDuration` and `ParseDateTime` (schema values),
 * RFC 3339 (`timestamp('…')`), `time.RFC3339Nano` output, and IANA or `±hh:mm` time zones.
 */
import { parseGoDuration as parseCoreGoDuration } from '@kubekit/core';

export const NS_PER_SECOND = 1_000_000_000n;
/** cel-go's timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z. */
export const MIN_TIMESTAMP_NS = -62135596800n * NS_PER_SECOND;
export const MAX_TIMESTAMP_NS = 253402300799n * NS_PER_SECOND + 999999999n;
/** Go's `time.Duration` range. */
export const MIN_DURATION_NS = -(2n ** 63n);
export const MAX_DURATION_NS = 2n ** 63n - 1n;

/** Go's `time.ParseDuration` (core's), in nanoseconds, or `undefined` when invalid or out of range. */
export function parseGoDuration(s: string): bigint | undefined {
  return parseCoreGoDuration(s).nanoseconds;
}

const strfmtUnits: [string[], bigint][] = [
  [['ns', 'nano'], 1n], [['us', 'µs', 'micro'], 1000n], [['ms', 'milli'], 1_000_000n], [['s', 'sec'], NS_PER_SECOND],
  [['m', 'min'], 60n * NS_PER_SECOND], [['h', 'hr', 'hour'], 3600n * NS_PER_SECOND], [['d', 'day'], 86400n * NS_PER_SECOND],
  [['w', 'wk', 'week'], 7n * 86400n * NS_PER_SECOND],
];

/** strfmt's `ParseDuration` (the `duration` format): Go's syntax, or pairs such as `3 days`. */
export function parseStrfmtDuration(s: string): bigint | undefined {
  const go = parseGoDuration(s);
  if (go !== undefined) return go;
  let total = 0n;
  let ok = false;
  for (const m of s.matchAll(/([0-9]+)[\t\n\f\r ]*([A-Za-zµ]+)/gu)) {
    const n = BigInt(m[1]);
    if (n > 2n ** 63n - 1n) return undefined;
    const unit = m[2].toLowerCase();
    for (const [variants, factor] of strfmtUnits) {
      const last = variants.length - 1;
      if (variants.some((v, i) => v === unit || (i === last && unit.startsWith(v)))) {
        total += n * factor;
        ok = true;
        break;
      }
    }
  }
  return ok && total <= MAX_DURATION_NS ? total : undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to the civil date (proleptic Gregorian). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date of a day count from 1970-01-01. */
export function civilFromDays(z: number): { year: number; month: number; day: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp + (mp < 10 ? 3 : -9);
  return { year: y + (month <= 2 ? 1 : 0), month, day };
}

const rxDateTime = /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})?$/;

/** A parsed instant and the zone offset (seconds east of UTC) it was written in. */
export interface ZonedInstant {
  ns: bigint;
  offset: number;
}

function parseWith(s: string, opts: { requireSeconds: boolean; requireZone: boolean; allowSpace: boolean }): ZonedInstant | undefined {
  const m = rxDateTime.exec(s);
  if (m === null) return undefined;
  if (m[4] === ' ' && !opts.allowSpace) return undefined;
  if (opts.requireSeconds && m[7] === undefined) return undefined;
  if (opts.requireZone && m[9] === undefined) return undefined;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[5], m[6]].map(Number);
  const second = m[7] === undefined ? 0 : Number(m[7]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined && m[9] !== 'Z' && m[9] !== 'z') {
    const sign = m[9][0] === '-' ? -1 : 1;
    const oh = Number(m[9].slice(1, 3));
    const om = Number(m[9].slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const secs = BigInt(daysFromCivil(year, month, day)) * 86400n + BigInt(hour * 3600 + minute * 60 + second) - BigInt(offsetMinutes * 60);
  const nanos = m[8] === undefined ? 0n : BigInt(m[8].padEnd(9, '0'));
  return { ns: secs * NS_PER_SECOND + nanos, offset: offsetMinutes * 60 };
}

/** RFC 3339 as cel-go's `timestamp(string)` accepts it. */
export function parseRFC3339(s: string): ZonedInstant | undefined {
  const t = parseWith(s, { requireSeconds: true, requireZone: true, allowSpace: false });
  if (t === undefined || t.ns < MIN_TIMESTAMP_NS || t.ns > MAX_TIMESTAMP_NS) return undefined;
  return t;
}

/** strfmt's `ParseDateTime` (the `date-time` format): RFC 3339 and its ISO 8601 relatives. */
export function parseStrfmtDateTime(s: string): ZonedInstant | undefined {
  return parseWith(s, { requireSeconds: false, requireZone: false, allowSpace: true });
}

/** Go's `time.Parse("2006-01-02", s)`. */
export function parseDate(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return undefined;
  const [year, month, day] = [m[1], m[2], m[3]].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return BigInt(daysFromCivil(year, month, day)) * 86400n * NS_PER_SECOND;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

/** The broken-down civil time of `ns` shifted by `offsetSeconds`. */
export function civilTime(ns: bigint, offsetSeconds = 0): {
  year: number; month: number; day: number; hour: number; minute: number; second: number; nanos: number; dayOfWeek: number; dayOfYear: number;
} {
  const secs = floorDiv(ns, NS_PER_SECOND) + BigInt(offsetSeconds);
  const nanos = Number(ns - floorDiv(ns, NS_PER_SECOND) * NS_PER_SECOND);
  const days = Number(floorDiv(secs, 86400n));
  const rem = Number(secs - BigInt(days) * 86400n);
  const { year, month, day } = civilFromDays(days);
  return {
    year, month, day, hour: Math.floor(rem / 3600), minute: Math.floor((rem % 3600) / 60), second: rem % 60, nanos,
    dayOfWeek: ((days % 7) + 11) % 7, dayOfYear: days - daysFromCivil(year, 1, 1),
  };
}

/** Go's `time.Time.Format(time.RFC3339Nano)` in the zone at `offset` seconds east of UTC. */
export function formatRFC3339Nano(ns: bigint, offset = 0): string {
  const t = civilTime(ns, offset);
  let s = `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}`;
  if (t.nanos > 0) s += '.' + pad(t.nanos, 9).replace(/0+$/, '');
  if (offset === 0) return s + 'Z';
  const a = Math.abs(offset);
  return `${s}${offset < 0 ? '-' : '+'}${pad(Math.floor(a / 3600), 2)}:${pad(Math.floor((a % 3600) / 60), 2)}`;
}

/** cel-go's `string(duration)`: seconds with the shortest decimal fraction and an `s`. */
export function formatDuration(ns: bigint): string {
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const whole = abs / NS_PER_SECOND;
  const frac = abs % NS_PER_SECOND;
  let s = String(whole);
  if (frac > 0n) s += '.' + String(frac).padStart(9, '0').replace(/0+$/, '');
  return (neg ? '-' : '') + s + 's';
}

/**
 * The offset in seconds of a time zone at an instant: an IANA name (`America/New_York`, `UTC`) or
 * a fixed `±hh:mm` offset, as cel-go's timestamp accessors accept them; `undefined` if unknown.
 */
export function zoneOffsetSeconds(zone: string, ns: bigint): number | undefined {
  const fixed = /^([+-])?(\d{1,2}):(\d{2})$/.exec(zone);
  if (fixed !== null) {
    const h = Number(fixed[2]);
    const m = Number(fixed[3]);
    if (m > 59) return undefined;
    return (fixed[1] === '-' ? -1 : 1) * (h * 3600 + m * 60);
  }
  let fmt: Intl.DateTimeFormat;
  try {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    return undefined;
  }
  const ms = Number(floorDiv(ns, 1_000_000n));
  const clamp = Math.max(-8.64e15, Math.min(8.64e15, ms));
  const parts = Object.fromEntries(fmt.formatToParts(new Date(clamp)).map((p) => [p.type, p.value]));
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((local - Math.floor(clamp / 1000) * 1000) / 1000);
}
