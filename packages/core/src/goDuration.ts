/**
 * Go's `time.ParseDuration`, its errors worded as Go words them (`time: invalid duration "abc"`,
 * `time: missing unit in duration "1"`, `time: unknown unit "x" in duration "1x"`), so that a message quoting
 * one reads as the apiserver's.
 */
import { goTimeQuote } from './goTime.js';

const units = new Map<string, bigint>([
  ['ns', 1n], ['us', 1_000n], ['\u00b5s', 1_000n], ['\u03bcs', 1_000n], ['ms', 1_000_000n],
  ['s', 1_000_000_000n], ['m', 60_000_000_000n], ['h', 3_600_000_000_000n],
]);

const limit = 2n ** 63n;
const utf8 = new TextEncoder();

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** A duration in nanoseconds (an int64), or Go's error for the text. */
export type GoDurationResult = { nanoseconds: bigint; error?: undefined } | { error: string; nanoseconds?: undefined };

/** `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+` (`1h30m`, `-1.5s`, `2µs`), or `0`. */
export function parseGoDuration(text: string): GoDurationResult {
  const fail = (message: string): GoDurationResult => ({ error: `time: ${message} ${goTimeQuote(utf8.encode(text))}` });
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { nanoseconds: 0n };
  if (s === '') return fail('invalid duration');
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return fail('invalid duration');
    // leadingInt: [0-9]*, refused past 2^63.
    let i = 0;
    let whole = 0n;
    for (; isDigit(s[i]); i++) {
      if (whole > limit / 10n) return fail('invalid duration');
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
      if (whole > limit) return fail('invalid duration');
    }
    const pre = i > 0;
    s = s.slice(i);
    // leadingFraction: (\.[0-9]*)?, its precision kept while it fits.
    let fraction = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; isDigit(s[j]); j++) {
        if (overflow) continue;
        if (fraction > (limit - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const next = fraction * 10n + BigInt(s.charCodeAt(j) - 48);
        if (next > limit) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return fail('invalid duration');
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) return fail('missing unit in duration');
    const name = s.slice(0, u);
    s = s.slice(u);
    const unit = units.get(name);
    if (unit === undefined) return fail(`unknown unit ${goTimeQuote(utf8.encode(name))} in duration`);
    if (whole > limit / unit) return fail('invalid duration');
    let v = whole * unit;
    if (fraction > 0n) {
      // As Go: float64 arithmetic, truncated.
      v += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (v > limit) return fail('invalid duration');
    }
    total += v;
    if (total > limit) return fail('invalid duration');
  }
  if (negative) return { nanoseconds: -total };
  if (total > limit - 1n) return fail('invalid duration');
  return { nanoseconds: total };
}
