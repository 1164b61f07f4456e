import { isInteger, parse as losslessParse } from 'lossless-json';
import { parseIterative, stringifyIterative } from './internal/iterativeJSON.js';
import { KubeError } from './kubeError.js';

/**
 * JSON that keeps integers exact beyond 2^53.
 *
 * The apiserver decodes integers as int64 and prints them in full (in responses and in field
 * selectors), so `12345678901234567890`-style values must not be rounded. Integers outside the safe
 * range become `bigint`s; everything else is what `JSON.parse` returns.
 *
 * Speed: text without a run of 16 or more digits cannot hold an unsafe integer, so it goes straight to
 * `JSON.parse` after a look at every 16th character (or none, when the caller looked already:
 * `digitsChecked`); only the rest goes through lossless-json.
 *
 * Depth: the apiserver accepts JSON nested 10,000 levels deep. `JSON.parse` is iterative, but
 * lossless-json's parser and `JSON.stringify` recurse and run out of Node's default stack after a few
 * thousand levels; there both fall back to iterative code, so nesting costs memory, never the stack.
 */

/** Whether a character code is an ASCII digit. */
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Whether `text` (or its part `[start, end)`) has a run of 16 or more ASCII digits: without one, no
 * integer in it can lie beyond 2^53, and {@link parseJSON} may be told so (`digitsChecked`), for
 * example for each line of a chunk checked once as a whole. `text` may be a string or its UTF-8
 * bytes (a digit is one byte in UTF-8, and no byte of a multi-byte character is one): the bytes are
 * read about twice as fast as the decoded string's characters, so a caller holding them
 * should pass them. Such a run covers one of every 16th character, so only those are looked at (and
 * the digits around a digit among them): about a sixteenth of the text, where a regular expression
 * (`/\d{16}/`) reads all of it.
 */
export function hasLongDigitRun(text: string | Uint8Array, start = 0, end = text.length): boolean {
  return typeof text === 'string' ? digitRunInText(text, start, end) : digitRunInBytes(text, start, end);
}

function digitRunInText(text: string, start: number, end: number): boolean {
  for (let i = start + 15; i < end; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let first = i;
    while (first > start && isDigit(text.charCodeAt(first - 1))) first--;
    let last = i + 1;
    while (last < end && isDigit(text.charCodeAt(last))) last++;
    if (last - first >= 16) return true;
  }
  return false;
}

function digitRunInBytes(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start + 15; i < end; i += 16) {
    if (!isDigit(bytes[i])) continue;
    let first = i;
    while (first > start && isDigit(bytes[first - 1])) first--;
    let last = i + 1;
    while (last < end && isDigit(bytes[last])) last++;
    if (last - first >= 16) return true;
  }
  return false;
}

/** Options of {@link parseJSON}. */
export interface ParseJSONOptions {
  /**
   * The caller has made sure that the text holds no run of 16 or more ASCII digits (for example with
   * {@link hasLongDigitRun} over a text it was cut from), so it cannot hold an integer beyond 2^53: it
   * goes to `JSON.parse` without a scan of its own. Vouching wrongly rounds such integers.
   * @defaultValue false
   */
  digitsChecked?: boolean;
}

function parseNumber(text: string): number | bigint {
  if (isInteger(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
    // int64 range, as Go decodes it; larger integers are float64 in Go too.
    const big = BigInt(text);
    return big >= -(2n ** 63n) && big < 2n ** 63n ? big : n;
  }
  return Number(text);
}

/**
 * Parses JSON text, keeping integers beyond 2^53 (within int64) exact as `bigint`.
 *
 * @throws KubeError (`BadRequest`) naming the problem when the text is not JSON or nests too deeply.
 */
export function parseJSON(text: string, options?: ParseJSONOptions): unknown {
  try {
    if (options?.digitsChecked === true || !hasLongDigitRun(text)) return JSON.parse(text);
    try {
      return losslessParse(text, null, parseNumber);
    } catch (err) {
      if (!isStackOverflow(err)) throw err;
      return parseIterative(text, parseNumber);
    }
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    throw new KubeError('BadRequest', `invalid JSON: ${detail}`, { cause: err });
  }
}

/**
 * Serialises a value as JSON, writing `bigint`s as plain integers; values nested deeper than
 * `JSON.stringify` reaches on the stack are written by an iterative serialiser.
 */
export function stringifyJSON(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space);
  } catch (err) {
    const bigint = err instanceof TypeError && /BigInt/i.test(err.message);
    if (!bigint && !isStackOverflow(err)) throw err;
    return stringifyIterative(value, space) ?? 'null';
  }
}

/** Whether `err` is V8's "Maximum call stack size exceeded" (not, for example, "Invalid string length"). */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}

/** The JSON type of a decoded value, as Go's JSON errors name it (`cannot unmarshal number into …`). */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': case 'bigint': return 'number';
    case 'boolean': return 'bool';
    case 'object': return 'object';
    default: return typeof value;
  }
}
