// go-yaml v2's scalar typing (go.yaml.in/yaml/v2@v2.4.2 resolve.go, encode.go, sorter.go), the facts
// sigs.k8s.io/yaml's JSONToYAML leans on: which strings must be quoted because they would read back as
// another type, how a number from the JSON text is typed and written, and the order of map keys.

/** Strings go-yaml resolves to a bool, null, float, or the merge key, by exact text. */
const resolvedWords = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
]);

const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/**
 * Whether encode.go's stringv may write `s` unquoted: resolve gives it the str tag and it is not a
 * YAML 1.1 base 60 float (`1:20`). A string that fails this is written double-quoted.
 */
export function goYAMLPlainString(s: string): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  // resolveTable's hints: a sign or digit may be a number or timestamp, '.' a float, one of
  // "yYnNtTfFoO~" a word from the table; anything else is a string without further looking.
  const signOrDigit = c === 0x2b || c === 0x2d || (c >= 0x30 && c <= 0x39);
  if (!signOrDigit && c !== 0x2e && 'yYnNtTfFoO~'.indexOf(s[0]!) < 0) return true;
  if (resolvedWords.has(s)) return false;
  // Digits alone are an int, a uint, or (beyond both, or "08") a float: never a string.
  if (s.length < 300 && /^[-+]?[0-9]+$/.test(s)) return false;
  if (c === 0x2e) return !goParseFloatOK(s);
  if (!signOrDigit) return true;
  if (s.indexOf(':') >= 0 && base60Float.test(s)) return false;
  return !resolvesAsNumberOrTime(s);
}

/** The 'D' and 'S' hints of resolve: a timestamp, an int, a uint, a float, or a 0b binary integer. */
function resolvesAsNumberOrTime(s: string): boolean {
  if (isGoYAMLTimestamp(s)) return true;
  const plain = s.indexOf('_') >= 0 ? s.replace(/_/g, '') : s;
  if (parseIntBase0(plain, true) !== undefined) return true;
  if (parseIntBase0(plain, false) !== undefined) return true;
  if (yamlStyleFloat.test(plain) && Number.isFinite(Number(plain))) return true;
  if (plain.startsWith('0b')) {
    const v = parseIntBase2(plain.slice(2));
    return v !== undefined && v >= int64Min && v <= uint64Max;
  }
  if (plain.startsWith('-0b')) {
    const v = parseIntBase2('-' + plain.slice(3));
    return v !== undefined && v >= int64Min && v <= int64Max;
  }
  return false;
}

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64): the value, or undefined on error. */
function parseIntBase0(s: string, signed: boolean): bigint | undefined {
  let body = s;
  let neg = false;
  if (signed && (body[0] === '+' || body[0] === '-')) {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  if (body.length === 0) return undefined;
  let digits: RegExp = /^[0-9]+$/;
  let prefix = '';
  if (body[0] === '0') {
    const p = body.length >= 3 ? body[1]!.toLowerCase() : '';
    if (p === 'b') [digits, prefix, body] = [/^[01]+$/, '0b', body.slice(2)];
    else if (p === 'o') [digits, prefix, body] = [/^[0-7]+$/, '0o', body.slice(2)];
    else if (p === 'x') [digits, prefix, body] = [/^[0-9a-fA-F]+$/, '0x', body.slice(2)];
    else {
      // A leading 0 means octal; "0" alone is zero.
      body = body.slice(1);
      if (body.length === 0) return 0n;
      [digits, prefix] = [/^[0-7]+$/, '0o'];
    }
  }
  if (!digits.test(body)) return undefined;
  let v = BigInt(prefix + body);
  if (neg) v = -v;
  if (signed ? v < int64Min || v > int64Max : v > uint64Max) return undefined;
  return v;
}

/** strconv.ParseInt(s, 2, 64)'s syntax (a sign, then binary digits); the range is the caller's. */
function parseIntBase2(s: string): bigint | undefined {
  const m = /^([+-]?)([01]+)$/.exec(s);
  if (!m) return undefined;
  const v = BigInt('0b' + m[2]!);
  return m[1] === '-' ? -v : v;
}

/**
 * strconv.ParseFloat(s, 64) without error for a string that starts with '.': digits with Go's digit
 * separators, an optional exponent, the whole text consumed and the value finite (an overflow is an
 * ErrRange, which resolve treats as not a float).
 */
function goParseFloatOK(s: string): boolean {
  const m = /^\.([0-9_]*)(?:[eE][+-]?([0-9][0-9_]*))?$/.exec(s);
  if (!m || !/[0-9]/.test(m[1]!)) return false;
  if (s.indexOf('_') >= 0 && !goUnderscoreOK(s)) return false;
  return Number.isFinite(Number(s.replace(/_/g, '')));
}

/** strconv's underscoreOK for a decimal literal: each '_' between digits. */
function goUnderscoreOK(s: string): boolean {
  let saw = '^';
  let i = s[0] === '+' || s[0] === '-' ? 1 : 0;
  for (; i < s.length; i++) {
    const ch = s[i]!;
    if (ch >= '0' && ch <= '9') {
      saw = '0';
      continue;
    }
    if (ch === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

// resolve.go's parseTimestamp: time.Parse with "2006-1-2T15:4:5.999999999Z07:00" (also with 't'),
// "2006-1-2 15:4:5.999999999" and "2006-1-2". Go's getnum takes one or two digits; a space in the
// layout matches one or more spaces; the fraction may follow '.' or ','.
const timestampForms = /^(\d{4})-(\d\d?)-(\d\d?)(?:([Tt])(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(?:Z|([+-])(\d\d):(\d\d))|( +)(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?)?$/;

function isGoYAMLTimestamp(s: string): boolean {
  const m = timestampForms.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const hour = m[5] ?? m[12];
  if (hour !== undefined) {
    if (Number(hour) >= 24 || Number(m[6] ?? m[13]) >= 60 || Number(m[7] ?? m[14]) >= 60) return false;
    if (m[8] !== undefined && (Number(m[9]) > 24 || Number(m[10]) > 60)) return false;
  }
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysIn = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= daysIn;
}

/**
 * The text go-yaml writes for a JSON number: an int64 or uint64 in decimal, else a float64 as
 * strconv.FormatFloat(f, 'g', -1, 64) with YAML's special values; undefined when the number overflows
 * a float64 (go-yaml then keeps the text as a string).
 */
export function goYAMLNumberText(text: string): string | undefined {
  if (/^-?[0-9]+$/.test(text)) {
    if (text.length < 16) return String(Number(text)).replace(/^-0$/, '0');
    const v = BigInt(text);
    if (v >= int64Min && v <= uint64Max) return v.toString();
  }
  const f = Number(text);
  if (!Number.isFinite(f)) return undefined;
  return goFormatFloat(f);
}

/** strconv.FormatFloat(f, 'g', -1, 64) for a finite f: the shortest digits, %e from exponent 6 or below -4. */
export function goFormatFloat(f: number): string {
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const neg = f < 0;
  const [mant, expText] = Math.abs(f).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  let out: string;
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    out = `${digits[0]}${digits.length > 1 ? '.' + digits.slice(1) : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  } else if (exp < 0) {
    out = '0.' + '0'.repeat(-exp - 1) + digits;
  } else if (exp + 1 >= digits.length) {
    out = digits + '0'.repeat(exp + 1 - digits.length);
  } else {
    out = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  }
  return neg ? '-' + out : out;
}

const letter = /\p{L}/u;
const digit = /\p{Nd}/u;

/**
 * sorter.go's keyList.Less for two string keys: rune by rune, letters after other characters, and
 * runs of digits compared by value (with Go's int64 arithmetic, wrapping included).
 */
export function goYAMLKeyLess(a: string | readonly number[], b: string | readonly number[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ai0 = at(a, i);
    const bi0 = at(b, i);
    if (ai0 === bi0) continue;
    const al = isLetter(ai0);
    const bl = isLetter(bi0);
    if (al && bl) return ai0 < bi0;
    if (al || bl) return bl;
    let start = 0;
    if (ai0 === 0x30 || bi0 === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(at(a, j)); j--) {
        if (at(a, j) !== 0x30) {
          start = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    while (ai < a.length && isDigit(at(a, ai))) ai++;
    while (bi < b.length && isDigit(at(b, bi))) bi++;
    let an = digitRunValue(a, i, ai, start);
    let bn = digitRunValue(b, i, bi, start);
    if (typeof an !== typeof bn) [an, bn] = [BigInt(an), BigInt(bn)];
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ai0 < bi0;
  }
  return a.length < b.length;
}

function at(x: string | readonly number[], i: number): number {
  return typeof x === 'string' ? x.charCodeAt(i) : x[i]!;
}

/** Go's `n = n*10 + int64(r-'0')` over a run of digits, in int64 (wrapping); a number while that is exact. */
function digitRunValue(x: string | readonly number[], from: number, to: number, start: number): number | bigint {
  let ascii = to - from <= 15;
  for (let i = from; ascii && i < to; i++) if (at(x, i) > 0x39) ascii = false;
  if (ascii) {
    let v = start;
    for (let i = from; i < to; i++) v = v * 10 + (at(x, i) - 0x30);
    return v;
  }
  let v = BigInt(start);
  for (let i = from; i < to; i++) v = BigInt.asIntN(64, v * 10n + BigInt(at(x, i) - 0x30));
  return v;
}

function isLetter(c: number): boolean {
  if (c < 0x80) return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return letter.test(String.fromCodePoint(c));
}

function isDigit(c: number): boolean {
  if (c < 0x80) return c >= 0x30 && c <= 0x39;
  return digit.test(String.fromCodePoint(c));
}
