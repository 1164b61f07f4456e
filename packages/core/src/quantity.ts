/**
 * A resource quantity (`resource.Quantity` of k8s.io/apimachinery) as kube-apiserver writes it back:
 * decoded, then encoded in its canonical form (`1000m` → `1`, `1024Ki` → `1Mi`, `0.5` → `500m`,
 * `1.5Gi` → `1536Mi`), except that a text the parser already finds canonical is kept as written
 * (`+1`, `01`, `1E3` stay). Values are rounded up to a multiple of 10⁻⁹; binary-suffixed values are
 * capped at 2⁶³−1.
 *
 * {@link Quantity} is the value `resource.ParseQuantity` returns, with its comparison and arithmetic
 * (what kube-apiserver's CEL `quantity()` library runs on), exact for every exponent the parser
 * accepts and never building a power of ten for one.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/
 */
import { Decimal } from './internal/decimal.js';
import { trimSpace } from './goStrings.js';

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const nanoPerUnit = 10n ** 9n;

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** `resource.ParseQuantity`'s error for text that is no quantity at all (`resource.ErrFormatWrong`). */
export const quantityFormatError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** `resource.ParseQuantity`'s error for a suffix or exponent it cannot read (`resource.ErrSuffix`). */
export const quantitySuffixError = "unable to parse quantity's suffix";
/** `resource.ParseQuantity`'s error for a number part it cannot read (`resource.ErrNumeric`). */
export const quantityNumericError = "unable to parse quantity's numeric value";

/**
 * The text kube-apiserver writes for a quantity it decoded from `value` (a JSON string, number or
 * null), or `undefined` when `value` is no quantity (the decoder refuses it; see {@link quantityError}).
 */
export function canonicalQuantity(value: unknown): string | undefined {
  const text = quantityText(value);
  if (text === undefined) return undefined;
  const result = parseQuantityText(text);
  return typeof result === 'string' ? result : undefined;
}

/**
 * Why `resource.Quantity`'s UnmarshalJSON refuses `value` (the words of `resource.ParseQuantity`), or
 * `undefined` when it reads it.
 */
export function quantityError(value: unknown): string | undefined {
  const text = quantityText(value);
  // Anything but a string or a number reaches the parser as its JSON text (`true`, `{…}`): not a number.
  if (text === undefined) return quantityFormatError;
  const result = parseQuantityText(text);
  return typeof result === 'string' ? undefined : result.error;
}

/** What the parser reads of a JSON value: a string's trimmed text, a number's text; `undefined` for other types. */
function quantityText(value: unknown): string | undefined {
  if (value === null) return '0';
  // A JSON number is read from its text by the apiserver; here from its value (`1e3` reads as `1000`,
  // so it is written `1k` where the apiserver keeps `1e3`).
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return String(value);
  // Go's strings.TrimSpace (JavaScript's trim also strips U+FEFF, which Go keeps and then refuses).
  return typeof value === 'string' ? trimSpace(value) : undefined;
}

/**
 * `digits` without its trailing zeros. (Not `/0+$/`: a regular expression retries from every zero of a
 * run that is not at the end, which is quadratic in the run: 20 s for `1` + 100,000 zeros + `1`.)
 */
export function stripTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return end === digits.length ? digits : digits.slice(0, end);
}

/** Go's int32 arithmetic: `n` wrapped to 32 bits, as the parser's scales and exponents are. */
const int32 = (n: number): number => n | 0;
const maxInt64 = 2n ** 63n - 1n;
/** Fraction digits kept of a binary-suffixed value (the rest only matter as "some"): see {@link binaryNanos}. */
const binaryFractionDigits = 80;

/**
 * `resource.ParseQuantity` followed by `Quantity.MarshalJSON`: the text written, or the parser's error.
 *
 * It follows the parser's arithmetic, including its 32-bit scales and exponents (`1000e2147483647` is
 * written `1e-2147483646`, as the apiserver writes it), but never materialises a power of ten: digits
 * are strings and exponents numbers, so a hostile `1e2000000000` costs what `1e3` costs. (For texts
 * whose exact value the apiserver computes with big integers, such as `1234567890123456789e10000000`,
 * the apiserver itself takes minutes or never answers; kubekit writes the value the arithmetic defines.)
 */
function parseQuantityText(str: string): string | { error: string } {
  const parsed = parseQuantityParts(str);
  return 'error' in parsed ? parsed : parsed.text;
}

/** `parseQuantityText` with the value `resource.ParseQuantity` holds beside the text. */
export function parseQuantityParts(str: string): { text: string; value: QuantityValue } | { error: string } {
  if (str === '') return { error: quantityFormatError };
  if (str === '0') return { text: str, value: { kind: 'int64', value: 0n, scale: 0 } };
  const parsed = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(str);
  if (parsed === null) return { error: quantityFormatError };
  const [, sign, digits, fraction = '', suffix] = parsed;
  // The suffix's shape: SI letters, then an optional signed exponent.
  if (!/^[eEinumkKMGTP]*[-+]?\d*$/.test(suffix)) return { error: quantityFormatError };
  const num = digits.replace(/^0+/, '') || '0';
  const denom = fraction;
  let format: Format;
  let exponent: number;
  if (Object.hasOwn(decimalSuffixes, suffix)) {
    format = 'DecimalSI';
    exponent = decimalSuffixes[suffix];
  } else if (Object.hasOwn(binarySuffixes, suffix)) {
    format = 'BinarySI';
    exponent = binarySuffixes[suffix];
  } else {
    // An exponent is read as a 64-bit integer, then kept in 32 bits.
    const e = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (e === null) return { error: quantitySuffixError };
    // More than 19 significant digits cannot be an int64: refused before BigInt reads them (linear in the text).
    if (e[1].replace(/^[+-]?0*/, '').length > 19) return { error: quantitySuffixError };
    const wide = BigInt(e[1]);
    if (wide > maxInt64 || wide < -maxInt64 - 1n) return { error: quantitySuffixError };
    format = 'DecimalExponent';
    exponent = Number(BigInt.asIntN(32, wide));
  }
  const minus = sign === '-' ? '-' : '';
  const shifted = num + denom;
  if (format === 'BinarySI') {
    // The parser's fast path: a whole number small enough for an int64 with its suffix.
    const precision = denom === '' ? 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 : -1;
    if (precision >= 0) {
      const value = BigInt(num);
      const int64: QuantityValue = { kind: 'int64', value: signed(minus, value << BigInt(exponent)), scale: 0 };
      if (exponent % 10 === 0 && (value & 7n) !== 0n) return { text: str, value: int64 };
      return { text: binaryText(minus, value << BigInt(exponent), 0), value: int64 };
    }
    // The general path reads the number as written, which needs a digit (`Pi` alone is refused, `Ki` is 0).
    if (digits === '' && denom === '') return { error: quantityNumericError };
    const [amount, scale] = binaryNanos(num, denom, exponent);
    return { text: binaryText(minus, amount, scale), value: { kind: 'dec', value: Decimal.of(minus === '-', String(amount), -scale), scale } };
  }
  const precision = 18 - (num.length + denom.length);
  if (precision >= 0) {
    const scale = int32(exponent - denom.length);
    if (scale >= -9) {
      // Kept as written when it looks canonical already; otherwise an int64 amount at `scale`.
      const int64: QuantityValue = { kind: 'int64', value: signed(minus, BigInt(shifted)), scale };
      if (scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') return { text: str, value: int64 };
      return { text: int64AmountText(minus, BigInt(shifted), scale, format), value: int64 };
    }
  }
  // The general path: the digits at scale len(denom) − exponent, rounded up to 10⁻⁹; it reads the
  // number as written, which needs a digit (`E-19` alone is refused, `k` is 0).
  if (digits === '' && denom === '') return { error: quantityNumericError };
  const digitsOnly = shifted.replace(/^0+/, '');
  const scale = int32(denom.length + int32(-exponent));
  // A zero is not rounded, so it keeps its scale (which AsApproximateFloat64 reads).
  if (digitsOnly === '') return { text: '0', value: { kind: 'dec', value: Decimal.zero, scale } };
  let unscaled: string;
  let zeros = 0;
  if (scale > 9) {
    const cut = scale - 9;
    const kept = cut >= digitsOnly.length ? '' : digitsOnly.slice(0, digitsOnly.length - cut);
    const dropped = cut >= digitsOnly.length ? digitsOnly : digitsOnly.slice(digitsOnly.length - cut);
    unscaled = /[1-9]/.test(dropped) ? increment(kept) : kept;
  } else {
    unscaled = digitsOnly;
    zeros = 9 - scale;
  }
  // Rounded up to 10⁻⁹, the amount is held at scale 9.
  const value = Decimal.of(minus === '-', unscaled, zeros - 9);
  return { text: `${minus}${decimalCanonical(unscaled, zeros, -9, format)}`, value: { kind: 'dec', value, scale: 9 } };
}

const signed = (minus: string, n: bigint): bigint => (minus === '-' ? -n : n);

/**
 * `infDecAmount.AsCanonicalBytes` and the suffix: `unscaled` followed by `zeros` zeros, times
 * 10^`exponent` (a 32-bit number), written with its factors of ten moved to a multiple-of-3 exponent.
 */
function decimalCanonical(unscaled: string, zeros: number, exponent: number, format: Format): string {
  const stripped = stripTrailingZeros(unscaled);
  if (stripped === '') return '0';
  // The parser counts the factors of ten it removes in 32 bits too.
  let e = int32(exponent + int32(zeros + unscaled.length - stripped.length));
  let amount = stripped;
  while (e % 3 !== 0) {
    amount += '0';
    e = int32(e - 1);
  }
  return amount + suffixFor(e, format);
}

/** `int64Amount.AsCanonicalBytes` (for an amount of at most 18 digits) and the suffix. */
function int64AmountText(minus: string, value: bigint, scale: number, format: Format): string {
  if (value === 0n) return '0';
  let amount = value;
  let times = 0;
  while (amount >= 10n && amount % 10n === 0n) {
    amount /= 10n;
    times++;
  }
  let e = int32(scale + times);
  const r = e % 3;
  if (r !== 0) {
    const times10 = r === 1 || r === -2 ? 10n : 100n;
    // An int64 overflow falls back to the exact form (the parser's infDecAmount), which needs no room.
    if (amount * times10 > maxInt64) return `${minus}${decimalCanonical(String(value), 0, scale, format)}`;
    amount *= times10;
    e = int32(e - (times10 === 10n ? 1 : 2));
  }
  return `${minus}${amount}${suffixFor(e, format)}`;
}

/** The suffix written for a power of ten: a decimal SI letter (none beyond the table), or `eN`. */
function suffixFor(exponent: number, format: Format): string {
  if (format === 'DecimalExponent') return exponent === 0 ? '' : `e${exponent}`;
  // Beyond the table the apiserver writes the number alone (its suffixer knows no other).
  return decimalByExponent.get(exponent) ?? '';
}

/** Adds one to a decimal digit string ('' is 0). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, i)}${String(Number(digits[i]) + 1)}${'0'.repeat(digits.length - i - 1)}`;
}

/**
 * A binary-suffixed value (`num.denom` × 2^`power`) rounded up to 10⁻⁹, capped at 2⁶³−1, in units of
 * 10⁻⁹ (the second member is the scale, 9, or 0 when capped). Only the first 80 fraction digits are
 * needed: the value's nanoseconds-like units are n / (2^power · 10⁹) with at most 69 fraction digits,
 * so digits beyond those only decide "more than", which the round-up reads as one unit more.
 */
function binaryNanos(num: string, denom: string, power: number): [bigint, number] {
  // More than 40 integer digits is beyond the cap whatever the suffix.
  if (num.length > 40) return [maxInt64, 0];
  const kept = denom.slice(0, binaryFractionDigits).padEnd(binaryFractionDigits, '0');
  const more = /[1-9]/.test(denom.slice(binaryFractionDigits));
  const divisor = 10n ** BigInt(binaryFractionDigits);
  const exact = (BigInt(num) * divisor + BigInt(kept)) << BigInt(power);
  const scaled = exact * nanoPerUnit;
  let nanos = scaled / divisor;
  if (more || scaled % divisor !== 0n) nanos += 1n;
  if (nanos > maxInt64 * nanoPerUnit) return [maxInt64, 0];
  return [nanos, 9];
}

/**
 * A BinarySI quantity's text: `amount` × 10^−`scale` (scale 0 or 9). Under 1024, or not a whole
 * number, it is written in decimal; otherwise with the largest binary suffix that divides it.
 */
function binaryText(minus: string, amount: bigint, scale: number): string {
  if (amount === 0n) return '0';
  const unit = scale === 0 ? 1n : nanoPerUnit;
  if (amount < 1024n * unit || amount % unit !== 0n) {
    // A value under 1 is DecimalSI from the parser already; either way it is written in decimal.
    return `${minus}${decimalCanonical(String(amount), 0, -scale, 'DecimalSI')}`;
  }
  let whole = amount / unit;
  let power = 0;
  while (whole >= 1024n && whole % 1024n === 0n) {
    whole /= 1024n;
    power++;
  }
  return `${minus}${whole}${binaryByPower[power]}`;
}

/**
 * A quantity's exact value as the apiserver holds it after decoding: `digits` (no trailing zeros, no
 * sign) × 10^`exponent`, negative or not; `undefined` when `value` is no quantity. Zero is `digits: ''`.
 */
export interface QuantityDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

/** The value of a quantity (a JSON string, number or null), read from the text the apiserver writes for it. */
export function quantityDecimal(value: unknown): QuantityDecimal | undefined {
  const text = canonicalQuantity(value);
  return text === undefined ? undefined : decimalOfWritten(text);
}

/** {@link quantityDecimal} of a text {@link canonicalQuantity} wrote (canonical, or kept as written when small: either reads the same way). */
export function decimalOfWritten(text: string): QuantityDecimal | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  if (m === null) return undefined;
  const [, sign, whole, fraction = '', suffix] = m;
  let exponent = -fraction.length;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (Object.hasOwn(decimalSuffixes, suffix)) exponent += decimalSuffixes[suffix];
  else if (Object.hasOwn(binarySuffixes, suffix)) digits = digits === '' ? '' : String(BigInt(digits) << BigInt(binarySuffixes[suffix]));
  else if (/^[eE][-+]?\d+$/.test(suffix)) exponent += Number(suffix.slice(1));
  else return undefined;
  const stripped = stripTrailingZeros(digits);
  return { negative: sign === '-' && stripped !== '', digits: stripped, exponent: stripped === '' ? 0 : exponent + digits.length - stripped.length };
}

/**
 * How `resource.Quantity` holds a value: an `int64Amount` (`value` × 10^`scale`, an int64 and a 32-bit
 * scale) or an `inf.Dec` (`value`, exact, with the scale Go's `inf.Dec` has, which only
 * `AsApproximateFloat64` reads). Which of the two a quantity is decides `AsInt64`: `1000m` is an
 * int64Amount at scale −3, so it is not an integer to it.
 */
export type QuantityValue =
  | { readonly kind: 'int64'; readonly value: bigint; readonly scale: number }
  | { readonly kind: 'dec'; readonly value: Decimal; readonly scale: number };

const minInt64 = -maxInt64 - 1n;
const fitsInt64 = (n: bigint): boolean => n >= minInt64 && n <= maxInt64;

/** `value` × 10^`by` when it fits in an int64 (`positiveScaleInt64`). */
function scaleUpInt64(value: bigint, by: number): bigint | undefined {
  if (value === 0n) return 0n;
  if (by > 19) return undefined;
  const n = value * 10n ** BigInt(by);
  return fitsInt64(n) ? n : undefined;
}

/** Go's `math.Pow10`: exact table products, +Inf above 10^308, 0 below 10^−323. */
function pow10(n: number): number {
  if (n >= 0 && n <= 308) return Number(`1e${32 * Math.floor(n / 32)}`) * Number(`1e${n % 32}`);
  if (n < 0 && n >= -323) return Number(`1e-${32 * Math.floor(-n / 32)}`) / Number(`1e${-n % 32}`);
  return n > 0 ? Infinity : 0;
}

/**
 * A `resource.Quantity` (k8s.io/apimachinery) with the operations kube-apiserver's CEL quantity
 * library calls: `Cmp`, `Add`, `Sub`, `Sign`, `AsInt64`, `AsApproximateFloat64`. Immutable: each
 * operation returns a new quantity (Go's `Add` and `Cmp` may also change their receiver's
 * representation in place; kubekit does not copy that).
 *
 * @example
 * ```ts
 * const q = Quantity.parse('1e2000');
 * if (typeof q !== 'string') q.cmp(Quantity.parse('1') as Quantity); // 1
 * ```
 */
export class Quantity {
  private constructor(private readonly v: QuantityValue) {}

  /** `resource.ParseQuantity`: the quantity, or the parser's error text. */
  static parse(text: string): Quantity | string {
    const parsed = parseQuantityParts(text);
    return 'error' in parsed ? parsed.error : new Quantity(parsed.value);
  }

  /** `resource.NewQuantity(n, …)`: an int64Amount at scale 0. */
  static fromInt64(n: bigint): Quantity {
    return new Quantity({ kind: 'int64', value: BigInt.asIntN(64, n), scale: 0 });
  }

  /** How the value is held. */
  get value(): QuantityValue {
    return this.v;
  }

  /** The exact value. */
  private decimal(): Decimal {
    return this.v.kind === 'dec' ? this.v.value : Decimal.of(this.v.value < 0n, String(this.v.value < 0n ? -this.v.value : this.v.value), this.v.scale);
  }

  /** The scale Go's `inf.Dec` has for this value (an int64Amount's `AsDec` negates its scale). */
  private decScale(): number {
    return this.v.kind === 'dec' ? this.v.scale : -this.v.scale;
  }

  /** `Sign`: -1, 0 or 1. */
  sign(): number {
    return this.v.kind === 'dec' ? this.v.value.sign() : this.v.value > 0n ? 1 : this.v.value < 0n ? -1 : 0;
  }

  /** `Cmp`: -1, 0 or 1, exactly. */
  cmp(other: Quantity): number {
    return this.decimal().compare(other.decimal());
  }

  /** `Add`: an int64Amount while `int64Amount.Add` fits, else an `inf.Dec` at the larger scale. */
  add(other: Quantity): Quantity {
    const a = this.v;
    const b = other.v;
    if (a.kind === 'int64' && b.kind === 'int64') {
      const sum = addInt64(a.value, a.scale, b.value, b.scale);
      if (sum !== undefined) return new Quantity(sum);
    }
    return new Quantity({ kind: 'dec', value: this.decimal().add(other.decimal()), scale: Math.max(this.decScale(), other.decScale()) });
  }

  /** `Sub`: as {@link add}, the int64 path adding the 64-bit negation (which wraps for −2⁶³, as Go's does). */
  sub(other: Quantity): Quantity {
    const a = this.v;
    const b = other.v;
    if (a.kind === 'int64' && b.kind === 'int64') {
      const diff = addInt64(a.value, a.scale, BigInt.asIntN(64, -b.value), b.scale);
      if (diff !== undefined) return new Quantity(diff);
    }
    return new Quantity({ kind: 'dec', value: this.decimal().sub(other.decimal()), scale: Math.max(this.decScale(), other.decScale()) });
  }

  /** `AsInt64`: the integer, or `undefined` for an `inf.Dec`, a negative scale, or one beyond int64. */
  asInt64(): bigint | undefined {
    if (this.v.kind === 'dec') return undefined;
    if (this.v.scale === 0) return this.v.value;
    return this.v.scale < 0 ? undefined : scaleUpInt64(this.v.value, this.v.scale);
  }

  /** `AsApproximateFloat64`: the held amount as a double times `math.Pow10` of its exponent. */
  asApproximateFloat64(): number {
    const base = this.v.kind === 'dec' ? this.v.value.toNumber(this.v.scale) : Number(this.v.value);
    const exponent = this.v.kind === 'dec' ? -this.v.scale : this.v.scale;
    return exponent === 0 ? base : base * pow10(exponent);
  }
}

/** `int64Amount.Add`: the sum when it fits, at the smaller scale. */
function addInt64(a: bigint, as: number, b: bigint, bs: number): QuantityValue | undefined {
  if (b === 0n) return { kind: 'int64', value: a, scale: as };
  if (a === 0n) return { kind: 'int64', value: b, scale: bs };
  let x = a;
  let y = b;
  if (as > bs) {
    const up = scaleUpInt64(a, as - bs);
    if (up === undefined) return undefined;
    x = up;
  } else if (bs > as) {
    const up = scaleUpInt64(b, bs - as);
    if (up === undefined) return undefined;
    y = up;
  }
  const sum = x + y;
  return fitsInt64(sum) ? { kind: 'int64', value: sum, scale: Math.min(as, bs) } : undefined;
}
