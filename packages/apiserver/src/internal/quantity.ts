/**
 * A resource quantity (`resource.Quantity` of k8s.io/apimachinery) as kube-apiserver writes it back:
 * decoded, then encoded in its canonical form (`1000m` → `1`, `1024Ki` → `1Mi`, `0.5` → `500m`,
 * `1.5Gi` → `1536Mi`), except that a text the parser already finds canonical is kept as written
 * (`+1`, `01`, `1E3` stay). Values are rounded up to a multiple of 10⁻⁹; binary-suffixed values are
 * capped at 2⁶³−1.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/common-definitions/quantity/
 */

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binaryByPower = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const maxBinary = 2n ** 63n - 1n;
const nanoPerUnit = 10n ** 9n;

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** `resource.ParseQuantity`'s errors. */
export const quantityFormatError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixError = "unable to parse quantity's suffix";

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
  return typeof value === 'string' ? value.trim() : undefined;
}

function parseQuantityText(str: string): string | { error: string } {
  if (str === '') return { error: quantityFormatError };
  if (str === '0') return str;
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
    const e = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (e === null) return { error: quantitySuffixError };
    format = 'DecimalExponent';
    exponent = Number(e[1]);
    if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 2 ** 31) return { error: quantitySuffixError };
  }
  const negative = sign === '-';
  // The parser's fast path: a small value whose text is already canonical is kept as written.
  const shifted = num + denom;
  const precision = format === 'BinarySI'
    ? (denom === '' ? 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 : -1)
    : 18 - (num.length + denom.length);
  const scale = (format === 'BinarySI' ? 0 : exponent) - denom.length;
  if (precision >= 0 && scale >= -9) {
    const kept = format === 'BinarySI'
      ? exponent % 10 === 0 && (BigInt(shifted) & 7n) !== 0n
      : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
    if (kept) return str;
  }
  // The value in units of 10⁻⁹, rounded up (away from zero) where finer.
  let magnitude = BigInt(shifted);
  let tenPower = (format === 'BinarySI' ? 0 : exponent) - denom.length + 9;
  if (format === 'BinarySI') magnitude <<= BigInt(exponent);
  let nanos: bigint;
  if (tenPower >= 0) {
    nanos = magnitude * 10n ** BigInt(tenPower);
  } else {
    const divisor = 10n ** BigInt(-tenPower);
    nanos = (magnitude + divisor - 1n) / divisor;
  }
  tenPower = 0;
  if (format === 'BinarySI' && nanos > maxBinary * nanoPerUnit) nanos = maxBinary * nanoPerUnit;
  if (format === 'BinarySI' && nanos > 0n && nanos < nanoPerUnit) format = 'DecimalSI';
  if (nanos === 0n) return '0';
  const minus = negative ? '-' : '';
  if (format === 'BinarySI') {
    // Small or fractional binary values are written in decimal.
    if (nanos < 1024n * nanoPerUnit || nanos % nanoPerUnit !== 0n) format = 'DecimalSI';
    else {
      let amount = nanos / nanoPerUnit;
      let power = 0;
      while (amount >= 1024n && amount % 1024n === 0n) {
        amount /= 1024n;
        power++;
      }
      return `${minus}${amount}${binaryByPower[power]}`;
    }
  }
  let amount = nanos;
  let e = -9;
  while (amount >= 10n && amount % 10n === 0n) {
    amount /= 10n;
    e++;
  }
  while (e % 3 !== 0) {
    amount *= 10n;
    e--;
  }
  if (format === 'DecimalExponent') return `${minus}${amount}${e === 0 ? '' : `e${e}`}`;
  // Beyond the largest suffix the apiserver writes the number alone (its suffixer knows no other).
  return `${minus}${amount}${decimalByExponent.get(e) ?? ''}`;
}
