/**
 * Go's `time.Parse(time.RFC3339, value)` as `metav1.Time` decodes JSON: which strings it accepts (more
 * than RFC 3339: a one-digit hour, a comma before the fraction, offsets up to ±24:60), the instant they
 * name, and its errors word for word (`parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot
 * parse "yesterday" as "2006"`, `parsing time "2026-02-30T10:00:00Z": day out of range`).
 *
 * The scan follows the layout `2006-01-02T15:04:05Z07:00` element by element, as Go's generic parser
 * does (its RFC 3339 fast path accepts a subset of what the generic parser accepts, with the same
 * result), over the value's UTF-8 bytes.
 *
 * @see https://pkg.go.dev/time#Parse
 * @see https://github.com/kubernetes/apimachinery/blob/master/pkg/apis/meta/v1/time.go
 */

/** The layout Go names `time.RFC3339`, as its parse errors quote it. */
export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';

/** A time `parseRFC3339` accepted. */
export interface GoTime {
  readonly ok: true;
  /** Seconds since the Unix epoch (UTC). */
  readonly seconds: number;
  /** The fraction of the second, in nanoseconds (0 to 999,999,999). */
  readonly nanos: number;
  /** Whether it is Go's zero time (0001-01-01T00:00:00Z), which `metav1.Time` writes as `null`. */
  readonly zero: boolean;
  /** `t.UTC().Format(time.RFC3339)`: how `metav1.Time` writes it back (whole seconds, UTC). */
  readonly text: string;
}

/** A value `parseRFC3339` refused, with Go's error text. */
export interface GoTimeError {
  readonly ok: false;
  readonly error: string;
}

const hex = '0123456789abcdef';

/**
 * The `quote` of Go's time package (not strconv's): `"` and `\` escaped with a backslash, control
 * characters and every byte of a non-ASCII character as `\xNN`.
 */
export function goTimeQuote(bytes: Uint8Array): string {
  let s = '"';
  for (const b of bytes) {
    if (b >= 0x80 || b < 0x20) s += `\\x${hex[b >> 4]}${hex[b & 0xf]}`;
    else if (b === 0x22 || b === 0x5c) s += `\\${String.fromCharCode(b)}`;
    else s += String.fromCharCode(b);
  }
  return `${s}"`;
}

const isDigit = (b: Uint8Array, i: number): boolean => i < b.length && b[i] >= 0x30 && b[i] <= 0x39;

/** Go's `getnum`: one or two digits (`fixed`: exactly two); undefined when there is no digit. */
function getnum(b: Uint8Array, fixed: boolean): [number, number] | undefined {
  if (!isDigit(b, 0)) return undefined;
  if (!isDigit(b, 1)) return fixed ? undefined : [b[0] - 0x30, 1];
  return [(b[0] - 0x30) * 10 + (b[1] - 0x30), 2];
}

const isLeap = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (any year). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The date of a day number from 1970-01-01. */
function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** Seconds since the epoch as Go's `Format(time.RFC3339)` writes them in UTC (a year past 9999 in full). */
export function formatRFC3339Seconds(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const year = y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}T${pad(Math.floor(rest / 3600), 2)}:${pad(Math.floor(rest / 60) % 60, 2)}:${pad(rest % 60, 2)}Z`;
}

/** Seconds from 0001-01-01T00:00:00Z, Go's zero time, to the Unix epoch. */
const zeroTimeSeconds = daysFromCivil(1, 1, 1) * 86400;

/**
 * Parses `value` as Go's `time.Parse(time.RFC3339, value)` does, returning the instant or Go's error.
 *
 * @example
 * ```ts
 * parseRFC3339('2026-11-26T10:00:00+02:00'); // { ok: true, text: '2026-11-26T08:00:00Z', ... }
 * parseRFC3339('yesterday').ok;              // false
 * ```
 */
export function parseRFC3339(value: string): GoTime | GoTimeError {
  const all = new TextEncoder().encode(value);
  const quoted = goTimeQuote(all);
  const cannot = (rest: Uint8Array, elem: string): GoTimeError => ({
    ok: false, error: `parsing time ${quoted} as "${rfc3339Layout}": cannot parse ${goTimeQuote(rest)} as "${elem}"`,
  });
  const outOfRange = (what: string): GoTimeError => ({ ok: false, error: `parsing time ${quoted}: ${what} out of range` });
  let b = all;
  /** A literal between elements (Go's `skip`). */
  const literal = (c: string): boolean => {
    if (b.length === 0 || b[0] !== c.charCodeAt(0)) return false;
    b = b.subarray(1);
    return true;
  };

  // 2006: four bytes, the first a digit, all digits.
  if (b.length < 4 || !isDigit(b, 0) || !isDigit(b, 1) || !isDigit(b, 2) || !isDigit(b, 3)) return cannot(b, '2006');
  const year = Number(new TextDecoder().decode(b.subarray(0, 4)));
  b = b.subarray(4);
  if (!literal('-')) return cannot(b, '-');
  // 01
  const month = getnum(b, true);
  if (month === undefined) return cannot(b, '01');
  b = b.subarray(month[1]);
  if (month[0] < 1 || month[0] > 12) return outOfRange('month');
  if (!literal('-')) return cannot(b, '-');
  // 02 (its range is checked at the end, against the month)
  const day = getnum(b, true);
  if (day === undefined) return cannot(b, '02');
  b = b.subarray(day[1]);
  if (!literal('T')) return cannot(b, 'T');
  // 15: one or two digits
  const hour = getnum(b, false);
  if (hour === undefined) return cannot(b, '15');
  b = b.subarray(hour[1]);
  if (hour[0] >= 24) return outOfRange('hour');
  if (!literal(':')) return cannot(b, ':');
  // 04
  const min = getnum(b, true);
  if (min === undefined) return cannot(b, '04');
  b = b.subarray(min[1]);
  if (min[0] >= 60) return outOfRange('minute');
  if (!literal(':')) return cannot(b, ':');
  // 05, and a fraction after it (`.` or `,` and at least one digit), which the layout need not name
  const sec = getnum(b, true);
  if (sec === undefined) return cannot(b, '05');
  b = b.subarray(sec[1]);
  if (sec[0] >= 60) return outOfRange('second');
  let nanos = 0;
  if (b.length >= 2 && (b[0] === 0x2e || b[0] === 0x2c) && isDigit(b, 1)) {
    let n = 2;
    while (isDigit(b, n)) n++;
    // Nine digits count; Go reads ten bytes (the separator and nine digits) and ignores the rest.
    const digits = new TextDecoder().decode(b.subarray(1, Math.min(n, 10)));
    nanos = Number(digits.padEnd(9, '0'));
    b = b.subarray(n);
  }
  // Z07:00: `Z`, or a sign, two digits, `:` and two digits
  let offset = 0;
  if (b.length >= 1 && b[0] === 0x5a) {
    b = b.subarray(1);
  } else {
    const hold = b;
    if (b.length < 6 || b[3] !== 0x3a) return cannot(hold, 'Z07:00');
    const oh = getnum(b.subarray(1, 3), true);
    const om = oh === undefined ? undefined : getnum(b.subarray(4, 6), true);
    let range = '';
    if (oh !== undefined && oh[0] > 24) range = 'time zone offset hour';
    if (om !== undefined && om[0] > 60) range = 'time zone offset minute';
    if (range !== '') {
      b = b.subarray(6);
      return outOfRange(range);
    }
    if (oh === undefined || om === undefined || (b[0] !== 0x2b && b[0] !== 0x2d)) return cannot(hold, 'Z07:00');
    offset = (b[0] === 0x2d ? -1 : 1) * (oh[0] * 60 + om[0]) * 60;
    b = b.subarray(6);
  }
  if (b.length !== 0) return { ok: false, error: `parsing time ${quoted}: extra text: ${goTimeQuote(b)}` };
  if (day[0] < 1 || day[0] > daysIn(month[0], year)) return outOfRange('day');
  const seconds = daysFromCivil(year, month[0], day[0]) * 86400 + hour[0] * 3600 + min[0] * 60 + sec[0] - offset;
  return { ok: true, seconds, nanos, zero: seconds === zeroTimeSeconds && nanos === 0, text: formatRFC3339Seconds(seconds) };
}
