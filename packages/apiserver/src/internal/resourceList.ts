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
import { Decimal, canonicalQuantity, decimalOfWritten } from '@kubekit/core';
import { isObject } from './own.js';

/** `resource.Format`. */
export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** A `resource.Quantity`: its exact value and its format. */
export interface Amount {
  readonly value: Decimal;
  readonly format: QuantityFormat;
}

/** A `corev1.ResourceList`, in key order. */
export type ResourceList = Map<string, Amount>;

const decimalSuffixes = new Map([[-9, 'n'], [-6, 'u'], [-3, 'm'], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E']]);
const binarySuffixes = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
/** `resource.MaxMilliValue`: the largest value whose thousandths fit an int64. */
export const maxMilliValue = (2n ** 63n - 1n) / 1000n;

/** `resource.NewQuantity(n, DecimalSI)`. */
export function amountOf(n: number): Amount {
  return { value: Decimal.fromBigInt(BigInt(n)), format: 'DecimalSI' };
}

/** A zero `resource.Quantity{Format: DecimalSI}` (what a missing entry of a list reads as). */
export const zeroAmount: Amount = { value: Decimal.zero, format: 'DecimalSI' };

/**
 * The quantity a decoded JSON value holds (the text kube-apiserver wrote for it, read again, as a
 * quantity read back from storage is), or undefined when it is none.
 */
export function parseAmount(v: unknown): Amount | undefined {
  const text = canonicalQuantity(v);
  const d = text === undefined ? undefined : decimalOfWritten(text);
  if (text === undefined || d === undefined) return undefined;
  const format: QuantityFormat = /[KMGTPE]i$/.test(text) ? 'BinarySI' : /[eE]/.test(text) ? 'DecimalExponent' : 'DecimalSI';
  return { value: d.digits === '' ? Decimal.zero : Decimal.of(d.negative, d.digits, d.exponent), format };
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

/** A list as JSON (its quantities written as Go writes them). */
export function resourceListJSON(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of [...list.keys()].sort()) out[name] = amountText(list.get(name)!);
  return { ...out };
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

/** `Quantity.Add`: the sum, in the receiver's format unless the receiver is zero. */
export function addAmounts(a: Amount, b: Amount): Amount {
  return { value: a.value.add(b.value), format: a.value.sign() === 0 ? b.format : a.format };
}

/** `Quantity.Sub`, with the same rule for the format. */
export function subAmounts(a: Amount, b: Amount): Amount {
  return { value: a.value.sub(b.value), format: a.value.sign() === 0 ? b.format : a.format };
}

/** `Quantity.Cmp`. */
export function compareAmounts(a: Amount, b: Amount): number {
  return a.value.compare(b.value);
}

/**
 * `Quantity.ScaledValue`: the value in units of 10^`scale`, rounded up (away from zero below it), wrapped
 * to an int64 as Go's `big.Int.Int64` does for what does not fit.
 */
export function scaledValue(a: Amount, scale: number): bigint {
  const { negative, digits, exponent } = a.value.toDigits();
  if (digits === '') return 0n;
  const e = exponent - scale;
  // Beyond 10^40 the low 64 bits are all Go keeps; such values only come from hostile input.
  if (digits.length + e > 40) return BigInt.asIntN(64, BigInt(digits.slice(0, 40)) * 10n ** BigInt(Math.max(0, Math.min(e, 40))));
  let whole: bigint;
  if (e >= 0) whole = BigInt(digits) * 10n ** BigInt(e);
  else {
    const cut = -e;
    whole = cut >= digits.length ? 0n : BigInt(digits.slice(0, digits.length - cut));
    // Anything cut is not zero (the digits have no trailing zeros): rounded away from zero.
    whole += 1n;
  }
  return BigInt.asIntN(64, negative ? -whole : whole);
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
  const { negative, digits, exponent } = a.value.toDigits();
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
    out.set(k, d.value.sign() > 0 ? d : zero);
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
  return new Map([...list].filter(([, v]) => v.value.sign() !== 0));
}

/** `quota.IsNegative`: the names below zero. */
export function negativeNames(list: ResourceList): string[] {
  return [...list].filter(([, v]) => v.value.sign() < 0).map(([k]) => k);
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
