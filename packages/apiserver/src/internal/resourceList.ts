/**
 * Resource lists (`corev1.ResourceList`) as the LimitRanger and ResourceQuota admission plugins compute
 * with them: quantities with the format Go's `resource.Quantity` carries (which decides how a sum is
 * written: `500m` + `500m` is `1`, `1Gi` + `512Mi` is `1536Mi`), `Add` and `Sub` with Go's rule for the
 * format of a result (the receiver's, or the other's when the receiver is zero), `Cmp`, `Value` and
 * `MilliValue` (rounded up), and the helpers of k8s.io/apiserver/pkg/quota/v1 (`Add`, `Mask`,
 * `LessThanOrEqual`, `RemoveZeros`, `prettyPrint`).
 *
 * A list is a `Map` in key order: Go walks its maps in no fixed order, kubekit in key order.
 */
import { Decimal, Quantity, canonicalQuantity, decimalOfWritten } from '@kubekit/core';
import { isObject } from './own.js';

/** `resource.Format`. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A `resource.Quantity`: its value as Go holds it (an int64 amount or an `inf.Dec`), and its format. */
export interface Amount {
  readonly q: Quantity;
  readonly format: QuantityFormat;
}

/** A `corev1.ResourceList`, in key order. */
export type ResourceList = Map<string, Amount>;

const decimalSuffixes = new Map([[-9, 'n'], [-6, 'u'], [-3, 'm'], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E']]);
const binarySuffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const minInt64 = -(2n ** 63n);
/** `resource.MaxMilliValue`: the largest value whose thousandths fit an int64. */
export const maxMilliValue = (2n ** 63n - 1n) / 1000n;

/** `resource.NewQuantity(n, DecimalSI)`. */
export function amountOf(n: number): Amount {
  return { q: Quantity.fromInt64(BigInt(n)), format: 'DecimalSI' };
}

/**
 * The quantity a decoded JSON value holds (the text kube-apiserver wrote for it, read again, as a
 * quantity read back from storage is), or undefined when it is none.
 */
export function parseAmount(v: unknown): Amount | undefined {
  const text = canonicalQuantity(v);
  const q = text === undefined ? undefined : Quantity.parse(text);
  if (text === undefined || q === undefined || typeof q === 'string') return undefined;
  // `1E` is an exa (DecimalSI); `1e3` and `1E3` are exponents.
  const format: QuantityFormat = /[KMGTPE]i$/.test(text) ? 'BinarySI' : /[eE][-+]?\d+$/.test(text) ? 'DecimalExponent' : 'DecimalSI';
  return { q, format };
}

/** The quantities of a JSON `ResourceList` (entries that are no quantity left out: the decoder refused them). */
export function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isObject(v)) return out;
  for (const name of Object.keys(v).sort()) {
    const a = parseAmount(v[name]);
    if (a !== undefined) out.set(name, a);
  }
  return out;
}

/** `Quantity.Sign`. */
export function amountSign(a: Amount): number {
  return a.q.sign();
}

/** The exact value. */
function decimalOf(a: Amount): Decimal {
  const v = a.q.value;
  return v.kind === 'dec' ? v.value : Decimal.of(v.value < 0n, String(v.value < 0n ? -v.value : v.value), v.scale);
}

/** Whether the value is a whole number. */
export function amountIsInteger(a: Amount): boolean {
  return decimalOf(a).isInteger();
}

/** `Quantity.RoundUp(-3)`: a value finer than thousandths rounded up (away from zero) to them. */
export function roundUpToMilli(value: unknown): unknown {
  const text = canonicalQuantity(value);
  const d = text === undefined ? undefined : decimalOfWritten(text);
  if (text === undefined || d === undefined || d.digits === '' || d.exponent >= -3) return value;
  const cut = -3 - d.exponent;
  const whole = cut >= d.digits.length ? 0n : BigInt(d.digits.slice(0, d.digits.length - cut));
  const sign = d.negative ? '-' : '';
  // The digits cut are not all zero (trailing zeros are stripped): the rounding adds one.
  return canonicalQuantity(/[eE]/.test(text) ? `${sign}${whole + 1n}e-3` : `${sign}${whole + 1n}m`) ?? value;
}

/** `SetDefaults_ResourceList`: each quantity of a JSON list rounded up to thousandths, in place. */
export function roundUpListToMilli(list: unknown): void {
  if (isObject(list)) for (const k of Object.keys(list)) list[k] = roundUpToMilli(list[k]);
}

/** `Quantity.Add`: the sum, in the receiver's format unless the receiver is zero. */
export function addAmounts(a: Amount, b: Amount): Amount {
  return { q: a.q.add(b.q), format: a.q.sign() === 0 ? b.format : a.format };
}

/** `Quantity.Sub`, with the same rule for the format. */
export function subAmounts(a: Amount, b: Amount): Amount {
  return { q: a.q.sub(b.q), format: a.q.sign() === 0 ? b.format : a.format };
}

/** `Quantity.Cmp`. */
export function compareAmounts(a: Amount, b: Amount): number {
  return a.q.cmp(b.q);
}

/** `RoundUp(0)` of a quantity with a fraction: the next whole number (away from zero), the format kept. */
export function roundUpToWhole(a: Amount): Amount {
  if (amountIsInteger(a)) return a;
  const q = Quantity.parse(String(scaledValue(a, 0)));
  return typeof q === 'string' ? a : { q, format: a.format };
}

const wrap = (n: bigint): bigint => BigInt.asIntN(64, n);

/** `int64MultiplyScale`: the product wrapped to 64 bits, and whether it did not overflow. */
function multiplyInt64(a: bigint, b: bigint): [bigint, boolean] {
  if (a === 0n || a === 1n) return [a * b, true];
  if (a === minInt64 && b !== 1n) return [0n, false];
  const c = wrap(a * b);
  return [c, c / b === a];
}

/**
 * `positiveScaleInt64`, as `ScaledValue` uses it (its `ok` ignored): the factors 10, 100, 1000, 10⁶ and
 * 10⁹ multiply once (a wrapped product when it overflows), any other scale one ten at a time (0 when it
 * overflows).
 */
function positiveScale(base: bigint, scale: number): bigint {
  if (scale === 0) return base;
  const once = [1, 2, 3, 6, 9].includes(scale);
  if (once) return multiplyInt64(base, 10n ** BigInt(scale))[0];
  let value = base;
  for (let i = 0; i < scale; i++) {
    const [next, ok] = multiplyInt64(value, 10n);
    if (!ok) return 0n;
    value = next;
  }
  return value;
}

/** `negativeScaleInt64`: divided by 10^`scale`, rounded away from zero. */
function negativeScale(base: bigint, scale: number): bigint {
  let value = base;
  let fraction = false;
  for (let i = 0; i < scale; i++) {
    if (!fraction && value % 10n !== 0n) fraction = true;
    value /= 10n;
    if (value === 0n) return fraction ? (base > 0n ? 1n : -1n) : 0n;
  }
  if (fraction) value += base > 0n ? 1n : -1n;
  return value;
}

/** `big.Int.Int64` of ±digits×10^zeros: the low 64 bits of the magnitude, with the sign. */
function lowInt64(negative: boolean, digits: string, zeros: number): bigint {
  const mod = 2n ** 64n;
  let m = BigInt(digits) % mod;
  // 10^zeros mod 2^64 by squaring: a huge exponent costs its bits, not its digits.
  let base = 10n;
  for (let e = zeros; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) m = (m * base) % mod;
    base = (base * base) % mod;
  }
  return wrap(negative ? -m : m);
}

/**
 * `Quantity.ScaledValue`: the value in units of 10^`scale`, rounded up, as Go computes it from the way the
 * quantity holds its value: an int64 amount through `AsScaledInt64` (whose overflows wrap or give 0), an
 * `inf.Dec` through `scaledValue` (the result's low 64 bits).
 */
export function scaledValue(a: Amount, scale: number): bigint {
  const v = a.q.value;
  if (v.kind === 'int64') return v.scale < scale ? negativeScale(v.value, scale - v.scale) : positiveScale(v.value, v.scale - scale);
  // An inf.Dec: unscaled × 10^−decScale.
  const { negative, digits, exponent } = v.value.toDigits();
  if (digits === '') return 0n;
  const decScale = v.scale;
  const dif = decScale - (-scale);
  // The unscaled integer: the digits followed by (exponent + decScale) zeros (never negative: the Dec holds it exactly).
  const zeros = exponent + decScale;
  if (dif === 0) return lowInt64(negative, digits, zeros);
  if (dif < 0) {
    // unscaled.Int64() * int64(math.Pow10(-dif)): a power beyond int64 converts to the smallest int64.
    const factor = -dif <= 18 ? 10n ** BigInt(-dif) : minInt64;
    return wrap(lowInt64(negative, digits, zeros) * factor);
  }
  // Divided by 10^dif, one added when anything remains (Euclidean division, as big.Int.DivMod).
  if (zeros >= dif) return lowInt64(negative, digits, zeros - dif);
  const unscaled = BigInt(digits);
  const signed = negative ? -unscaled : unscaled;
  const divisor = 10n ** BigInt(dif - zeros);
  let quotient = signed / divisor;
  let remainder = signed % divisor;
  if (remainder < 0n) {
    remainder += divisor;
    quotient -= 1n;
  }
  if (remainder !== 0n) quotient += 1n;
  return wrap(quotient);
}

/** `Quantity.Value`: the value rounded up to a whole number. */
export function amountValue(a: Amount): bigint {
  return scaledValue(a, 0);
}

/** `Quantity.MilliValue`: the value in thousandths, rounded up. */
export function amountMilliValue(a: Amount): bigint {
  return scaledValue(a, -3);
}

/**
 * `Quantity.String`: the canonical text of the value in its format (`CanonicalizeBytes`): a BinarySI
 * value below 1024 or not whole is written in DecimalSI; a DecimalSI exponent beyond the suffixes is
 * written as the number alone, as Go's suffixer leaves it.
 */
export function amountText(a: Amount): string {
  const { negative, digits, exponent } = decimalOf(a).toDigits();
  if (digits === '') return '0';
  const sign = negative ? '-' : '';
  if (a.format === 'BinarySI' && digits.length + exponent <= 40 && exponent >= 0) {
    const whole = BigInt(digits) * 10n ** BigInt(exponent);
    if (whole >= 1024n) {
      let n = whole;
      let power = 0;
      while (power < binarySuffixes.length - 1 && n % 1024n === 0n) {
        n /= 1024n;
        power++;
      }
      return `${sign}${n}${binarySuffixes[power]}`;
    }
  }
  // Written in DecimalExponent first (its text is read back exactly), then with the format's suffix.
  const text = canonicalQuantity(exponent === 0 ? `${sign}${digits}` : `${sign}${digits}e${exponent}`) ?? '0';
  if (a.format === 'DecimalExponent') return text;
  const m = /^(-?\d+)e(-?\d+)$/.exec(text);
  if (m === null) return text;
  return `${m[1]}${decimalSuffixes.get(Number(m[2])) ?? ''}`;
}

/** `quota.Add`: every key of both, summed where both have it. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    out.set(k, other === undefined ? v : addAmounts(v, other));
  }
  for (const [k, v] of b) if (!out.has(k)) out.set(k, v);
  return sorted(out);
}

/** `quota.SubtractWithNonNegativeResult`: `a − b` per key, below zero read as zero; keys only in `b` are zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const zero = amountOf(0);
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    const d = other === undefined ? v : subAmounts(v, other);
    out.set(k, amountSign(d) > 0 ? d : zero);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, zero);
  return sorted(out);
}

/** `quota.Mask`: the entries whose names are in `names`. */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([k]) => keep.has(k)));
}

/** `quota.RemoveZeros`. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => amountSign(v) !== 0));
}

/** `quota.IsNegative`: the names below zero. */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => amountSign(v) < 0).map(([k]) => k);
}

/** `quota.Equals`. */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const other = b.get(k);
    if (other === undefined || compareAmounts(v, other) !== 0) return false;
  }
  return true;
}

/** `quota.LessThanOrEqual`: whether each entry of `a` that `b` has is at most `b`'s, and the names that are not. */
export function exceededNames(a: ResourceList, b: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, limit] of b) {
    const v = a.get(k);
    if (v !== undefined && compareAmounts(v, limit) > 0) out.push(k);
  }
  return out;
}

/** The resource quota plugin's `prettyPrint`: `name=quantity` pairs, sorted, joined with commas. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((k) => `${k}=${amountText(list.get(k)!)}`).join(',');
}

/** `addResourceList` of the pod resource helpers: `b` added into `into`. */
export function addInto(into: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) {
    const cur = into.get(k);
    into.set(k, cur === undefined ? v : addAmounts(cur, v));
  }
}

/** `maxResourceList`: each entry of `b` that is above `into`'s (or that `into` lacks) taken. */
export function maxInto(into: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) {
    const cur = into.get(k);
    if (cur === undefined || compareAmounts(v, cur) > 0) into.set(k, v);
  }
}

function sorted(list: ResourceList): ResourceList {
  return new Map([...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
