// JSON text for values nested deeper than V8's recursive `JSON.stringify` reaches on Node's default stack
// (about 4,000 levels; the apiserver accepts 10,000), and JSON parsing with exact big integers at any depth
// (lossless-json's parser recurses). Both walk an explicit stack: their depth is bounded by memory only.
// They are the slow paths of `stringifyJSON`/`parseJSON`, taken only when the fast ones run out of stack.

/** One open object or array of the serializer: its keys (objects), the next index, and the indent. */
interface Frame {
  value: unknown[] | Record<string, unknown>;
  keys: string[] | undefined;
  next: number;
  wrote: boolean;
  indent: string;
}

/** The value `JSON.stringify` would serialise in place of `v` (its `toJSON`), before the type check. */
function serializable(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    return (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  return v;
}

/** A scalar's JSON text, or undefined for what `JSON.stringify` leaves out (undefined, functions, symbols). */
function scalarText(v: unknown, quote: (s: string) => string): string | undefined {
  switch (typeof v) {
    case 'string': return quote(v);
    case 'number': return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean': return v ? 'true' : 'false';
    case 'bigint': return v.toString();
    case 'object': return 'null'; // only null reaches here
    default: return undefined;
  }
}

/** How {@link stringifyIterative} writes: Go's `json.Marshal` sorts keys and escapes strings its own way. */
export interface IterativeStringifyOptions {
  /** Writes a string (keys included). @defaultValue `JSON.stringify` */
  quote?: (s: string) => string;
  /** Writes object keys in this order. @defaultValue insertion order, as `JSON.stringify` */
  sortKeys?: (keys: string[]) => string[];
}

/**
 * `JSON.stringify(value, null, space)` without recursion, `bigint`s written as plain integers. Cycles
 * are refused with the `TypeError` `JSON.stringify` throws.
 */
export function stringifyIterative(value: unknown, space?: number, options: IterativeStringifyOptions = {}): string | undefined {
  const quote = options.quote ?? ((s: string) => JSON.stringify(s));
  const order = options.sortKeys ?? ((keys: string[]) => keys);
  const gap = space === undefined || space < 1 ? '' : ' '.repeat(Math.min(10, Math.floor(space)));
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();
  const begin = (v: unknown, indent: string): boolean => {
    if (v === null || typeof v !== 'object') {
      const text = scalarText(v, quote);
      if (text === undefined) return false;
      out.push(text);
      return true;
    }
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    open.add(v);
    const isArray = Array.isArray(v);
    out.push(isArray ? '[' : '{');
    stack.push({ value: v as unknown[] | Record<string, unknown>, keys: isArray ? undefined : order(Object.keys(v)), next: 0, wrote: false, indent });
    return true;
  };
  const root = serializable(value, '');
  if (!begin(root, '')) return undefined;
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    const inner = f.indent + gap;
    const sep = gap === '' ? '' : '\n' + inner;
    if (f.keys === undefined) {
      const arr = f.value as unknown[];
      if (f.next < arr.length) {
        const i = f.next++;
        out.push(f.wrote ? ',' + sep : sep);
        f.wrote = true;
        if (!begin(serializable(arr[i], String(i)), inner)) out.push('null');
        continue;
      }
      out.push(f.wrote && gap !== '' ? '\n' + f.indent + ']' : ']');
    } else {
      const obj = f.value as Record<string, unknown>;
      if (f.next < f.keys.length) {
        const k = f.keys[f.next++];
        const v = serializable(obj[k], k);
        if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
        out.push((f.wrote ? ',' + sep : sep) + quote(k) + (gap === '' ? ':' : ': '));
        f.wrote = true;
        begin(v, inner);
        continue;
      }
      out.push(f.wrote && gap !== '' ? '\n' + f.indent + '}' : '}');
    }
    open.delete(f.value);
    stack.pop();
  }
  return out.join('');
}

/** Where and why the iterative parser stopped. */
export class IterativeParseError extends SyntaxError {}

const ws = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Sets a decoded member as `JSON.parse` does: `__proto__` becomes an own data property. */
function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Parses JSON text without recursion, numbers through `parseNumber` (its own text), as `JSON.parse`
 * does otherwise (later duplicate keys win).
 *
 * @throws IterativeParseError naming the position of the first problem.
 */
export function parseIterative(text: string, parseNumber: (text: string) => unknown): unknown {
  let i = 0;
  const n = text.length;
  const fail = (what: string): never => {
    throw new IterativeParseError(`${what} at position ${i}`);
  };
  const skip = (): void => {
    while (i < n && ws(text.charCodeAt(i))) i++;
  };
  const readString = (): string => {
    const start = i;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c < 0x20) fail('Bad control character in string literal');
    }
    if (i >= n) fail('Unterminated string in JSON');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Containers being filled: an array, or an object with the key its next value goes to.
  const stack: { container: unknown[] | Record<string, unknown>; key: string | undefined }[] = [];
  let result: unknown;
  let done = false;
  while (!done) {
    skip();
    if (i >= n) fail('Unexpected end of JSON input');
    const c = text.charCodeAt(i);
    let value: unknown;
    let scalar = true;
    if (c === 0x7b || c === 0x5b) { // { [
      i++;
      skip();
      const isArray = c === 0x5b;
      const container: unknown[] | Record<string, unknown> = isArray ? [] : {};
      if (text.charCodeAt(i) === (isArray ? 0x5d : 0x7d)) {
        i++;
        value = container;
      } else {
        let key: string | undefined;
        if (!isArray) {
          if (text.charCodeAt(i) !== 0x22) fail('Expected property name');
          key = readString();
          skip();
          if (text.charCodeAt(i) !== 0x3a) fail("Expected ':' after property name");
          i++;
        }
        stack.push({ container, key });
        scalar = false;
      }
    } else if (c === 0x22) {
      value = readString();
    } else if (text.startsWith('true', i)) {
      value = true;
      i += 4;
    } else if (text.startsWith('false', i)) {
      value = false;
      i += 5;
    } else if (text.startsWith('null', i)) {
      value = null;
      i += 4;
    } else {
      numberPattern.lastIndex = i;
      const m = numberPattern.exec(text);
      if (m === null) fail(`Unexpected token '${text[i]}'`);
      value = parseNumber(m![0]);
      i += m![0].length;
    }
    if (!scalar) continue;
    // Place the value, then close every container that ends here.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        result = value;
        done = true;
        break;
      }
      if (top.key === undefined) (top.container as unknown[]).push(value);
      else setMember(top.container as Record<string, unknown>, top.key, value);
      skip();
      const d = text.charCodeAt(i);
      const isArray = Array.isArray(top.container);
      if (d === 0x2c) { // ,
        i++;
        if (!isArray) {
          skip();
          if (text.charCodeAt(i) !== 0x22) fail('Expected property name');
          top.key = readString();
          skip();
          if (text.charCodeAt(i) !== 0x3a) fail("Expected ':' after property name");
          i++;
        }
        break;
      }
      if (d !== (isArray ? 0x5d : 0x7d)) fail(i >= n ? 'Unexpected end of JSON input' : `Expected ',' or '${isArray ? ']' : '}'}'`);
      i++;
      value = top.container;
      stack.pop();
    }
  }
  skip();
  if (i < n) fail('Unexpected non-whitespace character after JSON');
  return result;
}
