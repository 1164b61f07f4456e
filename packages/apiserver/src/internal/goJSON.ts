// The words of Go's encoding/json decoder, which the apiserver quotes when a request body or a patch is
// not JSON of the expected shape: the syntax errors of its scanner (encoding/json/scanner.go, which
// sigs.k8s.io/json's strict decoder shares) and the `UnmarshalTypeError` of a value of the wrong JSON
// type. kubekit parses with `JSON.parse`, which accepts exactly the texts Go's scanner accepts (both
// follow RFC 8259); these functions only find the words once a text or a value is refused.

/** What the scanner expects next. */
const enum S {
  BeginValue, BeginValueOrEmpty, BeginStringOrEmpty, BeginString, EndValue, EndTop,
  InString, InStringEsc, InStringEscU, InStringEscU1, InStringEscU12, InStringEscU123,
  Neg, Num1, Num0, Dot, Dot0, E, ESign, E0,
  T, Tr, Tru, F, Fa, Fal, Fals, N, Nu, Nul,
}

/** Where the scanner is inside a container. */
const enum P { ObjectKey, ObjectValue, ArrayValue }

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** The letters the literal states expect, and the literal each belongs to. */
const literals: Partial<Record<S, [expect: string, literal: string, next: S]>> = {
  [S.T]: ['r', 'true', S.Tr], [S.Tr]: ['u', 'true', S.Tru], [S.Tru]: ['e', 'true', S.EndValue],
  [S.F]: ['a', 'false', S.Fa], [S.Fa]: ['l', 'false', S.Fal], [S.Fal]: ['s', 'false', S.Fals], [S.Fals]: ['e', 'false', S.EndValue],
  [S.N]: ['u', 'null', S.Nu], [S.Nu]: ['l', 'null', S.Nul], [S.Nul]: ['l', 'null', S.EndValue],
};

/**
 * A byte as Go's `quoteChar` prints it in a syntax error: the byte read as a code point (so the first
 * byte of `é` is `'Ã'`), quoted the way `strconv.Quote` quotes it, between single quotes.
 */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // Go's strconv.IsPrint: the C1 controls, no-break space and soft hyphen are not printable.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/**
 * Go's encoding/json syntax error for a text (`unexpected end of JSON input`, `invalid character 'x'
 * looking for beginning of value`, …), or undefined when the text is JSON. Iterative over the bytes;
 * containers nested deeper than `maxDepth` get Go's `exceeded max depth` error.
 */
export function goJSONSyntaxError(input: string | Uint8Array, maxDepth = 10_000): string | undefined {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const stack: P[] = [];
  let s = S.BeginValue as S;
  const bad = (c: number, context: string): string => `invalid character ${goQuoteChar(c)} ${context}`;
  // One byte through the state machine; a string is the error, undefined moves on. `step` re-runs a
  // byte in the state a number or literal ends into, as Go's scanner does.
  const step = (c: number): string | undefined => {
    for (;;) {
      switch (s) {
        case S.BeginValueOrEmpty:
          if (isSpace(c)) return undefined;
          if (c === 0x5d) { s = S.EndValue; continue; }
          s = S.BeginValue; continue;
        case S.BeginValue:
          if (isSpace(c)) return undefined;
          switch (c) {
            case 0x7b: if (stack.length >= maxDepth) return bad(c, 'exceeded max depth'); stack.push(P.ObjectKey); s = S.BeginStringOrEmpty; return undefined;
            case 0x5b: if (stack.length >= maxDepth) return bad(c, 'exceeded max depth'); stack.push(P.ArrayValue); s = S.BeginValueOrEmpty; return undefined;
            case 0x22: s = S.InString; return undefined;
            case 0x2d: s = S.Neg; return undefined;
            case 0x30: s = S.Num0; return undefined;
            case 0x74: s = S.T; return undefined;
            case 0x66: s = S.F; return undefined;
            case 0x6e: s = S.N; return undefined;
          }
          if (c >= 0x31 && c <= 0x39) { s = S.Num1; return undefined; }
          return bad(c, 'looking for beginning of value');
        case S.BeginStringOrEmpty:
          if (isSpace(c)) return undefined;
          if (c === 0x7d) { stack[stack.length - 1] = P.ObjectValue; s = S.EndValue; continue; }
          s = S.BeginString; continue;
        case S.BeginString:
          if (isSpace(c)) return undefined;
          if (c === 0x22) { s = S.InString; return undefined; }
          return bad(c, 'looking for beginning of object key string');
        case S.EndValue: {
          if (stack.length === 0) { s = S.EndTop; continue; }
          if (isSpace(c)) return undefined;
          const top = stack[stack.length - 1];
          if (top === P.ObjectKey) {
            if (c === 0x3a) { stack[stack.length - 1] = P.ObjectValue; s = S.BeginValue; return undefined; }
            return bad(c, 'after object key');
          }
          if (top === P.ObjectValue) {
            if (c === 0x2c) { stack[stack.length - 1] = P.ObjectKey; s = S.BeginString; return undefined; }
            if (c === 0x7d) { stack.pop(); s = S.EndValue; return undefined; }
            return bad(c, 'after object key:value pair');
          }
          if (c === 0x2c) { s = S.BeginValue; return undefined; }
          if (c === 0x5d) { stack.pop(); s = S.EndValue; return undefined; }
          return bad(c, 'after array element');
        }
        case S.EndTop:
          return isSpace(c) ? undefined : bad(c, 'after top-level value');
        case S.InString:
          if (c === 0x22) { s = S.EndValue; return undefined; }
          if (c === 0x5c) { s = S.InStringEsc; return undefined; }
          return c < 0x20 ? bad(c, 'in string literal') : undefined;
        case S.InStringEsc:
          if ('bfnrt\\/"'.includes(String.fromCharCode(c))) { s = S.InString; return undefined; }
          if (c === 0x75) { s = S.InStringEscU; return undefined; }
          return bad(c, 'in string escape code');
        case S.InStringEscU: case S.InStringEscU1: case S.InStringEscU12: case S.InStringEscU123:
          if (!isHex(c)) return bad(c, 'in \\u hexadecimal character escape');
          s = s === S.InStringEscU ? S.InStringEscU1 : s === S.InStringEscU1 ? S.InStringEscU12 : s === S.InStringEscU12 ? S.InStringEscU123 : S.InString;
          return undefined;
        case S.Neg:
          if (c === 0x30) { s = S.Num0; return undefined; }
          if (c >= 0x31 && c <= 0x39) { s = S.Num1; return undefined; }
          return bad(c, 'in numeric literal');
        case S.Num1:
          if (isDigit(c)) return undefined;
          s = S.Num0; continue;
        case S.Num0:
          if (c === 0x2e) { s = S.Dot; return undefined; }
          if (c === 0x65 || c === 0x45) { s = S.E; return undefined; }
          s = S.EndValue; continue;
        case S.Dot:
          if (isDigit(c)) { s = S.Dot0; return undefined; }
          return bad(c, 'after decimal point in numeric literal');
        case S.Dot0:
          if (isDigit(c)) return undefined;
          if (c === 0x65 || c === 0x45) { s = S.E; return undefined; }
          s = S.EndValue; continue;
        case S.E:
          if (c === 0x2b || c === 0x2d) { s = S.ESign; return undefined; }
          s = S.ESign; continue;
        case S.ESign:
          if (isDigit(c)) { s = S.E0; return undefined; }
          return bad(c, 'in exponent of numeric literal');
        case S.E0:
          if (isDigit(c)) return undefined;
          s = S.EndValue; continue;
        default: {
          const [expect, literal, next] = literals[s]!;
          if (c === expect.charCodeAt(0)) { s = next; return undefined; }
          return bad(c, `in literal ${literal} (expecting '${expect}')`);
        }
      }
    }
  };
  for (const c of bytes) {
    const err = step(c);
    if (err !== undefined) return err;
  }
  // End of input, as scanner.eof: a space ends a number or exposes an unfinished literal.
  const ended = (): boolean => s === S.EndTop;
  if (ended()) return undefined;
  const err = step(0x20);
  if (err !== undefined) return err;
  return ended() ? undefined : 'unexpected end of JSON input';
}

/** The JSON type of a decoded value as Go's `UnmarshalTypeError` names it. */
export function goJSONTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': case 'bigint': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}

/**
 * Go's `UnmarshalTypeError` text: `json: cannot unmarshal <JSON type> into Go value of type <T>`, or
 * `… into Go struct field <Struct>.<field> of type <T>` for a struct field.
 */
export function goUnmarshalTypeError(value: unknown, goType: string, field?: { struct: string; name: string }): string {
  const into = field === undefined ? `Go value of type ${goType}` : `Go struct field ${field.struct}.${field.name} of type ${goType}`;
  return `json: cannot unmarshal ${goJSONTypeName(value)} into ${into}`;
}

/**
 * The first member of a decoded object that Go would unmarshal into a `string` struct field named
 * `name` (ASCII) but is neither a string nor null. encoding/json matches JSON keys to field names by
 * case folding ({@link goFoldASCIIName}); sigs.k8s.io/json's strict decoder (`caseSensitive`) does not.
 */
export function goStringFieldMismatch(obj: Record<string, unknown>, names: readonly string[], caseSensitive = false): { name: string; value: unknown } | undefined {
  const fold = (k: string): string => (caseSensitive ? k : goFoldASCIIName(k));
  for (const [key, value] of Object.entries(obj)) {
    const name = names.find((n) => fold(n) === fold(key));
    if (name !== undefined && value !== null && typeof value !== 'string') return { name, value };
  }
  return undefined;
}

/**
 * A JSON object key folded as encoding/json folds keys to match them with struct field names whose
 * names are ASCII (fold.go's `foldName`, compared in lower case): ASCII letters fold to lower case, and
 * the only other runes whose simple case folding reaches an ASCII letter are U+017F (ſ, folds to `s`)
 * and U+212A (the Kelvin sign, folds to `k`). Every other rune stays itself, so it matches no ASCII name.
 * (`toLowerCase`/`toUpperCase` would not do: they map `ß` to `ss` and `ﬅ` to `st`, which Go does not.)
 */
export function goFoldASCIIName(key: string): string {
  let out = '';
  for (const ch of key) {
    if (ch === '\u017f') out += 's';
    else if (ch === '\u212a') out += 'k';
    else if (ch >= 'A' && ch <= 'Z') out += ch.toLowerCase();
    else out += ch;
  }
  return out;
}

/** One member of a JSON object: its key (unescaped) and its value as written. */
export interface GoJSONMember {
  key: string;
  /** The value's text as it stands in the input (`7.0` stays `7.0`). */
  raw: string;
}

/**
 * The members of the top-level object of a JSON text, in document order, duplicates kept — what
 * `JSON.parse` loses and encoding/json's struct decoding sees. The text must be valid JSON (check it
 * with {@link goJSONSyntaxError} first) whose top-level value is an object.
 */
export function goJSONObjectMembers(text: string): GoJSONMember[] {
  const members: GoJSONMember[] = [];
  let i = text.indexOf('{') + 1;
  const skipSpace = (): void => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  };
  // The end (exclusive) of the string literal opening at `at`.
  const stringEnd = (at: number): number => {
    let j = at + 1;
    while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
    return j + 1;
  };
  // The end (exclusive) of the value starting at `at`; containers are skipped over by their brackets.
  const valueEnd = (at: number): number => {
    const c = text.charCodeAt(at);
    if (c === 0x22) return stringEnd(at);
    if (c !== 0x7b && c !== 0x5b) {
      let j = at;
      while (j < text.length && !isSpace(text.charCodeAt(j)) && !',}]'.includes(text[j])) j++;
      return j;
    }
    let depth = 0;
    let j = at;
    for (;;) {
      const d = text.charCodeAt(j);
      if (d === 0x22) { j = stringEnd(j); continue; }
      if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) depth--;
      j++;
      if (depth === 0) return j;
    }
  };
  for (;;) {
    skipSpace();
    if (text.charCodeAt(i) === 0x7d) return members;
    const keyEnd = stringEnd(i);
    const rawKey = text.slice(i, keyEnd);
    const key = rawKey.includes('\\') ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1);
    i = keyEnd;
    skipSpace();
    i++; // the colon
    skipSpace();
    const end = valueEnd(i);
    members.push({ key, raw: text.slice(i, end) });
    i = end;
    skipSpace();
    if (text.charCodeAt(i) === 0x7d) return members;
    i++; // the comma
  }
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** The JSON type of a value's text, as `UnmarshalTypeError` names it (the text is valid JSON, not null). */
function rawJSONType(raw: string): string {
  switch (raw[0]) {
    case '"': return 'string';
    case '{': return 'object';
    case '[': return 'array';
    case 't': case 'f': return 'bool';
    default: return 'number';
  }
}

/** The Go type of a struct field {@link goUnmarshalStruct} fills. */
export type GoFieldType = 'string' | 'int64';

/** What {@link goUnmarshalStruct} decoded: each field's value (absent when never set) and the error Go returns. */
export interface GoStructDecoded {
  values: Map<string, string | bigint>;
  /** The first error encoding/json saved while decoding, in its words; undefined when it decoded. */
  error: string | undefined;
}

/**
 * `json.Unmarshal` of a valid JSON text into a Go struct of `string` and `int64` fields (names in ASCII,
 * as their json tags spell them), as encoding/json's decode.go does it: members are read in order; a
 * key finds its field exactly or by case folding ({@link goFoldASCIIName}); a later member overwrites
 * an earlier one and a null leaves the field as it was; a value of the wrong JSON type, or a number
 * `strconv.ParseInt` does not read as an int64 (`7.0`, `1e2`, beyond ±2^63), is an `UnmarshalTypeError`
 * that is saved — the first one only — while decoding goes on; unknown members are skipped.
 *
 * @param goType - the struct's qualified type (`storage.continueToken`), named when the text is not an object.
 */
export function goUnmarshalStruct(text: string, goType: string, fields: Readonly<Record<string, GoFieldType>>): GoStructDecoded {
  const values = new Map<string, string | bigint>();
  const top = JSON.parse(text) as unknown;
  if (top === null) return { values, error: undefined };
  if (typeof top !== 'object' || Array.isArray(top)) return { values, error: goUnmarshalTypeError(top, goType) };
  const struct = goType.slice(goType.lastIndexOf('.') + 1);
  const byFolded = new Map<string, string>();
  for (const name of Object.keys(fields)) byFolded.set(goFoldASCIIName(name), name);
  let error: string | undefined;
  for (const { key, raw } of goJSONObjectMembers(text)) {
    const name = Object.hasOwn(fields, key) ? key : byFolded.get(goFoldASCIIName(key));
    if (name === undefined || raw === 'null') continue;
    const type = fields[name];
    const jsonType = rawJSONType(raw);
    let bad: string | undefined;
    if (type === 'string') {
      if (jsonType === 'string') values.set(name, JSON.parse(raw) as string);
      else bad = jsonType;
    } else if (jsonType === 'number') {
      const n = /^-?\d+$/.test(raw) ? BigInt(raw) : undefined;
      if (n !== undefined && n >= int64Min && n <= int64Max) values.set(name, n);
      else bad = `number ${raw}`;
    } else {
      bad = jsonType;
    }
    if (bad !== undefined) error ??= `json: cannot unmarshal ${bad} into Go struct field ${struct}.${name} of type ${type}`;
  }
  return { values, error };
}
