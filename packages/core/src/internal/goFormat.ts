/**
 * Go's `fmt` formatting of JSON-shaped values, so messages read exactly as the apiserver writes them.
 *
 * Values are what an unstructured Go object holds after decoding JSON: integers are int64 (here:
 * integral `number`s and `bigint`s), other numbers float64, strings, booleans, nil, `[]interface{}`
 * and `map[string]interface{}`.
 */
import { isStackOverflow } from '../json.js';
import { stringifyIterative } from './iterativeJSON.js';

/** Go's `strconv.Quote`: a double-quoted string literal with Go escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // A lone surrogate: Go's JSON decoder has made it the replacement rune, which %q prints as it is
      // (a `\udcff` in a name reads `"a�b"` in kube-apiserver 1.34.4's messages).
      out += '\ufffd';
    } else if (isGoPrintable(cp)) {
      out += ch;
    } else if (cp < 0x80) {
      out += '\\x' + cp.toString(16).padStart(2, '0');
    } else if (cp < 0x10000) {
      out += '\\u' + cp.toString(16).padStart(4, '0');
    } else {
      out += '\\U' + cp.toString(16).padStart(8, '0');
    }
  }
  return out + '"';
}

const nonPrintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

function isGoPrintable(cp: number): boolean {
  if (cp === 0x20) return true;
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp < 0x7f) return true;
  // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  const ch = String.fromCodePoint(cp);
  if (/\p{Zs}/u.test(ch)) return false;
  return !nonPrintable.test(ch);
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)`, which is what `%v` prints for a float64. */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // Shortest round-trip digits, then Go's choice for %v (`'g'` with the shortest precision): the
  // exponent form when the exponent is below -4 or at least 6 (JSON encoding uses 21; fmt does not).
  const [mantissa, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const abs = Math.abs(exp);
    return `${mantissa}e${sign}${abs < 10 ? '0' : ''}${abs}`;
  }
  const digits = mantissa.replace('-', '').replace('.', '');
  const negative = f < 0 ? '-' : '';
  const pointAt = exp + 1;
  if (pointAt <= 0) return `${negative}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${negative}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${negative}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

/**
 * Go's `fmt.Sprint` of a decoded JSON value (`%v`). A safe integral `number` or a `bigint` prints as an
 * int64; any other number as a float64: `parseJSON` gives an integer literal beyond 2^53 as a `bigint`,
 * so an integral `number` beyond it was a float (`1e18` prints `1e+18`).
 */
export function goSprint(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  switch (typeof value) {
    case 'string': return value;
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'number': return Number.isSafeInteger(value) ? integerText(value) : goFormatFloat(value);
    default: break;
  }
  if (Array.isArray(value)) return `[${value.map(goSprint).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value).sort(compareGoStrings).map((k) => `${k}:${goSprint((value as Record<string, unknown>)[k])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

/**
 * Go's `sort.Strings` order: byte-wise over UTF-8, which is code point order. JavaScript's default
 * order compares UTF-16 code units and differs for characters above U+FFFF against U+E000–U+FFFF.
 */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800) {
      // Surrogates (U+D800–U+DFFF) encode code points above U+FFFF: move them above U+E000–U+FFFF.
      ca = ca < 0xe000 ? ca + 0x2000 : ca - 0x800;
      cb = cb < 0xe000 ? cb + 0x2000 : cb - 0x800;
    }
    return ca - cb;
  }
  return a.length - b.length;
}

/**
 * Go's `len(s)`: the number of UTF-8 bytes. A lone surrogate counts as the three bytes of U+FFFD,
 * which is what it becomes when the text reaches a Go server.
 */
export function utf8ByteLength(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (u < 0x80) bytes += 1;
    else if (u < 0x800) bytes += 2;
    else if (u >= 0xd800 && u < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function integerText(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : BigInt(n).toString();
}

/**
 * Go's `json.Marshal` of a decoded JSON value: compact, map keys sorted, strings as {@link goJSONString};
 * `bigint`s as plain integers.
 */
export function goJSON(value: unknown): string {
  try {
    return goJSONRecursive(value);
  } catch (err) {
    // Nested deeper than the stack reaches (a few thousand levels; the apiserver accepts 10,000).
    if (!isStackOverflow(err)) throw err;
    return stringifyIterative(value, undefined, { quote: goJSONString, sortKeys: (keys) => keys.sort(compareGoStrings) }) ?? 'null';
  }
}

function goJSONRecursive(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string': return goJSONString(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'number': return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    default: break;
  }
  if (Array.isArray(value)) return `[${value.map(goJSONRecursive).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(record).sort(compareGoStrings).filter((k) => record[k] !== undefined)
      .map((k) => `${goJSONString(k)}:${goJSONRecursive(record[k])}`);
    return `{${entries.join(',')}}`;
  }
  return 'null';
}

const hex = '0123456789abcdef';

/**
 * Go's `json.Marshal` of a string: `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c`-style
 * sequences, control characters as `\u00XX` (except `\b \f \n \r \t`), and a lone surrogate as
 * U+FFFD, which is what it becomes when the text reaches a Go server as UTF-8.
 */
export function goJSONString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    switch (u) {
      case 0x22: out += '\\"'; continue;
      case 0x5c: out += '\\\\'; continue;
      case 0x08: out += '\\b'; continue;
      case 0x0c: out += '\\f'; continue;
      case 0x0a: out += '\\n'; continue;
      case 0x0d: out += '\\r'; continue;
      case 0x09: out += '\\t'; continue;
      case 0x3c: case 0x3e: case 0x26: case 0x2028: case 0x2029:
        out += '\\u' + u.toString(16).padStart(4, '0');
        continue;
    }
    if (u < 0x20) {
      out += '\\u00' + hex[u >> 4] + hex[u & 0xf];
    } else if (u >= 0xd800 && u < 0xe000) {
      const next = s.charCodeAt(i + 1);
      if (u < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        out += s[i] + s[i + 1];
        i++;
      } else {
        out += '\ufffd';
      }
    } else {
      out += s[i];
    }
  }
  return out + '"';
}
