// The text of JSON values as written, for the places where the apiserver compares JSON as bytes: a JSON
// patch's `test` operation (gopkg.in/evanphx/json-patch.v4 keeps each operation's value as a
// json.RawMessage and compares scalars by their compacted bytes). The texts these functions read have
// been parsed already, so they are valid JSON; every walk is iterative and linear in the text.
import { compareGoStrings, goJSON, goJSONString } from '@kubekit/core';
import { isObject } from './own.js';

/** The index of the bracket that closes each `{` or `[` of a JSON text (strings skipped), by position. */
function closingBrackets(text: string): Int32Array {
  const close = new Int32Array(text.length);
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) open.push(i);
    else if (c === 0x7d || c === 0x5d) close[open.pop() ?? 0] = i;
  }
  return close;
}

/** The index just past the string that starts (with its quote) at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  return text.length;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** A JSON text with the bracket table of {@link closingBrackets}, read one container level at a time. */
export class RawText {
  private readonly close: Int32Array;

  constructor(readonly text: string) {
    this.close = closingBrackets(text);
  }

  skipSpace(i: number): number {
    while (i < this.text.length && isSpace(this.text.charCodeAt(i))) i++;
    return i;
  }

  /** The index just past the value that starts at `i` (no leading space). */
  valueEnd(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return this.close[i] + 1;
    if (c === 0x22) return stringEnd(this.text, i);
    let j = i;
    while (j < this.text.length) {
      const d = this.text.charCodeAt(j);
      if (d === 0x2c || d === 0x5d || d === 0x7d || isSpace(d)) break;
      j++;
    }
    return j;
  }

  /** The members of the object at `start` in document order, duplicates kept: keys (unescaped) and value spans. */
  memberList(start: number): [string, number, number][] {
    const out: [string, number, number][] = [];
    let i = this.skipSpace(start + 1);
    while (this.text.charCodeAt(i) === 0x22) {
      const keyEnd = stringEnd(this.text, i);
      const key = JSON.parse(this.text.slice(i, keyEnd)) as string;
      i = this.skipSpace(this.skipSpace(keyEnd) + 1);
      const end = this.valueEnd(i);
      out.push([key, i, end]);
      i = this.skipSpace(end);
      if (this.text.charCodeAt(i) === 0x2c) i = this.skipSpace(i + 1);
    }
    return out;
  }

  /** The members of the object at `start`, as Go decodes them into a map: the last of a duplicated key wins. */
  members(start: number): Map<string, [number, number]> {
    const out = new Map<string, [number, number]>();
    for (const [key, s, e] of this.memberList(start)) out.set(key, [s, e]);
    return out;
  }

  /** The elements of the array at `start`. */
  elements(start: number): [number, number][] {
    const out: [number, number][] = [];
    let i = this.skipSpace(start + 1);
    while (i < this.text.length && this.text.charCodeAt(i) !== 0x5d) {
      const end = this.valueEnd(i);
      out.push([i, end]);
      i = this.skipSpace(end);
      if (this.text.charCodeAt(i) === 0x2c) i = this.skipSpace(i + 1);
    }
    return out;
  }
}

/** A JSON value's text, with the brackets of the text it was cut from. */
export interface RawValue {
  raw: RawText;
  start: number;
  end: number;
}

/**
 * The `value` member of each operation of a JSON patch text, as evanphx/json-patch v4 decodes a patch
 * (`[]Operation`, each a `map[string]*json.RawMessage`: keys unescaped, the last of a duplicate wins);
 * undefined for an operation without one, or that is no object.
 */
export function jsonPatchValueTexts(text: string): (RawValue | undefined)[] {
  const raw = new RawText(text);
  const start = raw.skipSpace(0);
  if (text.charCodeAt(start) !== 0x5b) return [];
  return raw.elements(start).map(([s]) => {
    if (text.charCodeAt(s) !== 0x7b) return undefined;
    const span = raw.members(s).get('value');
    return span === undefined ? undefined : { raw, start: span[0], end: span[1] };
  });
}

/** Where the text an earlier operation placed is looked up: a container and a member's key or an element's index. */
export type PlacedLookup = (container: object, key: string | number) => RawValue | undefined;

/**
 * evanphx/json-patch v4's `lazyNode.equal` of a document's value with an operation's value as written:
 * objects by their members (any order; a null member only matches a null one), arrays element by element,
 * and anything else by bytes — the document's value as Go's json.Marshal writes it against the
 * operation's text, so `1.0` is not `1` and `"\u0061"` is not `"a"`. A value that an earlier operation
 * of the patch placed (`placed`) is compared by the text that operation wrote, as json-patch keeps it.
 */
export function equalsRawJSON(value: unknown, written: RawValue, placed?: PlacedLookup): boolean {
  const stack: [unknown, RawValue][] = [[value, written]];
  // Each entry: the document's value and the operation's text for it.
  while (stack.length > 0) {
    const [v, w] = stack.pop()!;
    const { raw, start, end } = w;
    const c = raw.text.charCodeAt(start);
    if (isObject(v)) {
      if (c !== 0x7b) return false;
      const members = raw.members(start);
      const keys = Object.keys(v);
      if (keys.length !== members.size) return false;
      for (const k of keys) {
        const span = members.get(k);
        if (span === undefined) return false;
        const theirs: RawValue = { raw, start: span[0], end: span[1] };
        const mine = placed?.(v, k);
        if (mine !== undefined) {
          if (!equalsRaw(mine, theirs)) return false;
          continue;
        }
        const nullHere = v[k] === null;
        if (nullHere !== (raw.text.slice(span[0], span[1]) === 'null')) return false;
        if (!nullHere) stack.push([v[k], theirs]);
      }
    } else if (Array.isArray(v)) {
      if (c !== 0x5b) return false;
      const elements = raw.elements(start);
      if (elements.length !== v.length) return false;
      for (const [i, [s, e]] of elements.entries()) {
        const theirs: RawValue = { raw, start: s, end: e };
        const mine = placed?.(v, i);
        if (mine !== undefined) {
          if (!equalsRaw(mine, theirs)) return false;
        } else {
          stack.push([v[i], theirs]);
        }
      }
    } else if (goJSON(v) !== raw.text.slice(start, end)) {
      return false;
    }
  }
  return true;
}

/** `lazyNode.equal` of two written values: objects by members, arrays by elements, scalars by text. */
export function equalsRaw(a: RawValue, b: RawValue): boolean {
  const stack: [RawValue, RawValue][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    const cx = x.raw.text.charCodeAt(x.start);
    const cy = y.raw.text.charCodeAt(y.start);
    if (cx === 0x7b) {
      if (cy !== 0x7b) return false;
      const mx = x.raw.members(x.start);
      const my = y.raw.members(y.start);
      if (mx.size !== my.size) return false;
      for (const [k, [s, e]] of mx) {
        const other = my.get(k);
        if (other === undefined) return false;
        const nullX = x.raw.text.slice(s, e) === 'null';
        if (nullX !== (y.raw.text.slice(other[0], other[1]) === 'null')) return false;
        if (!nullX) stack.push([{ raw: x.raw, start: s, end: e }, { raw: y.raw, start: other[0], end: other[1] }]);
      }
    } else if (cx === 0x5b) {
      if (cy !== 0x5b) return false;
      const ex = x.raw.elements(x.start);
      const ey = y.raw.elements(y.start);
      if (ex.length !== ey.length) return false;
      ex.forEach(([s, e], i) => stack.push([{ raw: x.raw, start: s, end: e }, { raw: y.raw, start: ey[i][0], end: ey[i][1] }]));
    } else if (x.raw.text.slice(x.start, x.end) !== y.raw.text.slice(y.start, y.end)) {
      return false;
    }
  }
  return true;
}

/**
 * The values that a JSON patch's operations put into the document, as written, kept beside the
 * document's containers: evanphx/json-patch keeps an operation's value as its text (a `lazyNode`), so a
 * later `test` of it compares that text (`add` of `7.0`, then `test` of `7.0`, passes), wherever `move`,
 * `copy` or an array's inserts take it. An operation that goes into such a value parses it, as json-patch
 * does: its members keep their texts ({@link WrittenTexts.enter}).
 */
export class WrittenTexts {
  private readonly objects = new WeakMap<object, Map<string, RawValue>>();
  private readonly arrays = new WeakMap<unknown[], (RawValue | undefined)[]>();

  /** The text placed at `container[key]`, if any. */
  readonly get: PlacedLookup = (container, key) => {
    if (Array.isArray(container)) return this.arrays.get(container)?.[key as number];
    return this.objects.get(container)?.get(key as string);
  };

  /** The text placed at `container[key]` as Go's json.Marshal copies it (compacted), if any. */
  compactedAt(container: object, key: string | number): string | undefined {
    const text = this.get(container, key);
    return text === undefined ? undefined : compacted(text);
  }

  /** An object member or array element set (replaced) to a value written as `text` (or to one that is not). */
  set(container: object, key: string | number, text: RawValue | undefined): void {
    if (Array.isArray(container)) {
      const texts = this.arrays.get(container);
      if (texts !== undefined) texts[key as number] = text;
      else if (text !== undefined) this.arrays.set(container, Object.assign(new Array<RawValue | undefined>(container.length), { [key as number]: text }));
      return;
    }
    let texts = this.objects.get(container);
    if (text === undefined) {
      texts?.delete(key as string);
      return;
    }
    if (texts === undefined) this.objects.set(container, texts = new Map());
    texts.set(key as string, text);
  }

  /** An element inserted into `array` at `index` (after the insert). */
  inserted(array: unknown[], index: number, text: RawValue | undefined): void {
    const texts = this.arrays.get(array);
    if (texts !== undefined) texts.splice(index, 0, text);
    else if (text !== undefined) this.set(array, index, text);
  }

  /** An element removed from `array` at `index`. */
  removed(array: unknown[], index: number): void {
    this.arrays.get(array)?.splice(index, 1);
  }

  /**
   * An operation goes through `container[key]` (`child`) on its way down: a text placed there is parsed
   * into the child's members and elements, which keep their texts, and the child is no longer a text.
   */
  enter(container: object, key: string | number, child: unknown): void {
    const text = this.get(container, key);
    if (text === undefined || child === null || typeof child !== 'object') return;
    this.set(container, key, undefined);
    if (Array.isArray(child)) {
      this.arrays.set(child, text.raw.elements(text.start).map(([s, e]) => ({ raw: text.raw, start: s, end: e })));
    } else {
      const texts = new Map<string, RawValue>();
      for (const [k, [s, e]] of text.raw.members(text.start)) texts.set(k, { raw: text.raw, start: s, end: e });
      this.objects.set(child, texts);
    }
  }
}

/** A number literal that Go decodes as a float64 (it has a fraction or an exponent) and whose value is an integer kubekit holds as one. */
function integralFloatLiteral(text: string): boolean {
  if (!/[.eE]/.test(text)) return false;
  const n = Number(text);
  return Number.isSafeInteger(n) || Object.is(n, -0);
}

/**
 * The paths (keys and indexes) of the number literals in a JSON value that apimachinery decodes as
 * float64s (`1.0`, `1e2`) although their values are integers: parsed, they cannot be told from `1` and
 * `100`, which Go decodes as int64s. Iterative and linear in the text.
 */
export function integralFloatPaths(value: RawValue): string[][] {
  const out: string[][] = [];
  const stack: [RawValue, string[]][] = [[value, []]];
  while (stack.length > 0) {
    const [{ raw, start, end }, path] = stack.pop()!;
    const c = raw.text.charCodeAt(start);
    if (c === 0x7b) {
      for (const [k, [s, e]] of raw.members(start)) stack.push([{ raw, start: s, end: e }, [...path, k]]);
    } else if (c === 0x5b) {
      for (const [i, [s, e]] of raw.elements(start).entries()) stack.push([{ raw, start: s, end: e }, [...path, String(i)]]);
    } else if ((c === 0x2d || (c >= 0x30 && c <= 0x39)) && integralFloatLiteral(raw.text.slice(start, end))) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The paths of the integral float literals ({@link integralFloatPaths}) among the values a JSON patch
 * placed, wherever its operations left them in `doc` (`add` at `-`, `move`, `copy`, shifted indexes):
 * `texts` holds what it placed, as {@link applyJSONPatch} keeps it.
 */
export function placedIntegralFloats(doc: unknown, texts: WrittenTexts): string[][] {
  const out: string[][] = [];
  const stack: [unknown, string[]][] = [[doc, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const visit = (key: string | number, child: unknown): void => {
      const text = texts.get(v, key);
      const at = [...path, String(key)];
      if (text === undefined) stack.push([child, at]);
      else for (const inner of integralFloatPaths(text)) out.push([...at, ...inner]);
    };
    if (Array.isArray(v)) v.forEach((child, i) => visit(i, child));
    else for (const [k, child] of Object.entries(v)) visit(k, child);
  }
  return out;
}

/**
 * The first number beyond float64 (`1e400`) among the values a JSON patch placed, wherever its
 * operations left them in `doc` (members in sorted order, as the patched document is marshalled), or
 * `undefined`: Go's decoder of the patched document refuses it.
 */
export function placedFloatOverflow(doc: unknown, texts: WrittenTexts): string | undefined {
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const keys: (string | number)[] = Array.isArray(v) ? v.map((_x, i) => i) : Object.keys(v).sort();
    const children: unknown[] = [];
    for (const k of keys) {
      const text = texts.get(v, k);
      if (text !== undefined) {
        const literal = floatOverflowIn(text.raw.text, text.start, text.end);
        if (literal !== undefined) return literal;
      } else {
        children.push((v as Record<string | number, unknown>)[k]);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return undefined;
}

/**
 * The scalars a JSON merge patch placed in its result, as the patch wrote them: evanphx/json-patch v4's
 * MergePatch keeps each of the patch's values as its text (a `lazyNode`), parsing only the objects and
 * arrays it walks into, so the merged document it marshals writes `1e400`, `1.0` or `"\u0061"` as the
 * patch did. Objects are matched member by member (the last of a duplicate key, as Go's map keeps it),
 * arrays element by element; a scalar whose value is not the one in `patched` gets no text. Iterative.
 */
export function mergePatchTexts(patched: unknown, patchText: string): WrittenTexts {
  const texts = new WrittenTexts();
  const raw = new RawText(patchText);
  const stack: [unknown, number][] = [[patched, raw.skipSpace(0)]];
  const place = (container: object, key: string | number, value: unknown, start: number, end: number): void => {
    const c = patchText.charCodeAt(start);
    if (c === 0x7b || c === 0x5b) stack.push([value, start]);
    else if (sameScalar(value, patchText.slice(start, end))) texts.set(container, key, { raw, start, end });
  };
  while (stack.length > 0) {
    const [node, start] = stack.pop()!;
    const c = patchText.charCodeAt(start);
    if (c === 0x7b && isObject(node)) {
      for (const [key, [s, e]] of raw.members(start)) if (Object.hasOwn(node, key)) place(node, key, node[key], s, e);
    } else if (c === 0x5b && Array.isArray(node)) {
      const elements = raw.elements(start);
      if (elements.length === node.length) elements.forEach(([s, e], i) => place(node, i, node[i], s, e));
    }
  }
  return texts;
}

/** Whether a scalar's JSON text (a number, string or boolean; not null) has the value `value`. */
function sameScalar(value: unknown, text: string): boolean {
  switch (typeof value) {
    case 'number': return text !== 'null' && !text.startsWith('"') && Number(text) === value;
    case 'bigint': return /^-?\d+$/.test(text) && BigInt(text) === value;
    case 'string': return text.startsWith('"') && JSON.parse(text) === value;
    case 'boolean': return text === String(value);
    default: return false;
  }
}

/** The whole of a JSON text as a {@link RawValue}. */
export function rawValueOf(text: string): RawValue {
  const raw = new RawText(text);
  const start = raw.skipSpace(0);
  return { raw, start, end: raw.valueEnd(start) };
}

/**
 * A written value's text as encoding/json copies a Marshaler's output into what it writes: without the
 * spaces between tokens, and with `<`, `>`, `&`, U+2028 and U+2029 escaped (`compact` with escapeHTML).
 */
function compacted(v: RawValue): string {
  const text = v.raw.text.slice(v.start, v.end);
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (inString) {
      if (d === 0x5c) i++;
      else if (d === 0x22) inString = false;
      else if (d === 0x3c || d === 0x3e || d === 0x26 || d === 0x2028 || d === 0x2029) {
        out += `${text.slice(from, i)}\\u${d.toString(16).padStart(4, '0')}`;
        from = i + 1;
      }
    } else if (d === 0x22) {
      inString = true;
    } else if (isSpace(d)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/**
 * Go's json.Marshal of a JSON patch's result as evanphx/json-patch v4 writes it: the values the patch
 * placed as their operations wrote them (compacted: `9223372036854775808` keeps its digits, `1.0` its
 * point), everything else as {@link goJSON} writes it. Iterative: any depth is safe.
 */
export function goJSONWithTexts(value: unknown, texts: WrittenTexts): string {
  const out: string[] = [];
  // Each entry: text to write as it is, or a value to write (with the text placed for it, if any).
  const stack: (string | [unknown, RawValue | undefined])[] = [[value, undefined]];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (typeof top === 'string') {
      out.push(top);
      continue;
    }
    const [v, text] = top;
    if (text !== undefined) {
      out.push(compacted(text));
    } else if (Array.isArray(v)) {
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push([v[i], texts.get(v, i)]);
        if (i > 0) stack.push(',');
      }
      out.push('[');
    } else if (isObject(v)) {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort(compareGoStrings);
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push([v[keys[i]], texts.get(v, keys[i])]);
        stack.push(`${goJSONString(keys[i])}:`);
        if (i > 0) stack.push(',');
      }
      out.push('{');
    } else {
      out.push(goJSON(v));
    }
  }
  return out.join('');
}

/**
 * Go's compacted text of JSON a Go type keeps raw (a `runtime.RawExtension`: a ControllerRevision's
 * `data`): the members in the order they were written (as the object holds them), scalars as
 * {@link goJSON} writes them. Iterative: any depth is safe.
 */
export function goJSONInOrder(value: unknown): string {
  const out: string[] = [];
  const stack: (string | { v: unknown })[] = [{ v: value }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (typeof top === 'string') {
      out.push(top);
      continue;
    }
    const v = top.v;
    if (Array.isArray(v)) {
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] });
        if (i > 0) stack.push(',');
      }
      out.push('[');
    } else if (isObject(v)) {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ v: v[keys[i]] }, `${goJSONString(keys[i])}:`);
        if (i > 0) stack.push(',');
      }
      out.push('{');
    } else {
      out.push(goJSON(v));
    }
  }
  return out.join('');
}

const numberToken = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/**
 * The first number literal in a (valid) JSON text whose value is `value`, as written (`9223372036854775808`
 * for the float64 that rounds it), or undefined. Strings are skipped, so a number written inside one is
 * never taken for it.
 */
export function numberLiteralIn(text: string, value: number): string | undefined {
  return findNumberLiteral(text, 0, text.length, (literal) => Number(literal) === value);
}

/** The first number literal in `[start, end)` of a (valid) JSON text that `accept` takes (given its first character's code); strings skipped. */
function findNumberLiteral(text: string, start: number, end: number, accept: (literal: string, first: number) => boolean): string | undefined {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i) - 1;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    numberToken.lastIndex = i;
    const m = numberToken.exec(text);
    if (m === null) continue;
    if (accept(m[0], c)) return m[0];
    i += m[0].length - 1;
  }
  return undefined;
}

/**
 * The first number literal in `[start, end)` of a (valid) JSON text that float64 cannot hold (`1e400`),
 * as written, or undefined: what encoding/json's `convertNumber` refuses (`strconv.ParseFloat`'s range error).
 * Strings are skipped, so a number written inside one is never taken for it.
 */
export function floatOverflowIn(text: string, start: number, end: number, negative?: boolean): string | undefined {
  // With `negative`, only a literal of that sign counts.
  return findNumberLiteral(text, start, end, (literal, first) => !Number.isFinite(Number(literal)) && (negative === undefined || (first === 0x2d) === negative));
}

/** What goes wrong first, in document order, as encoding/json decodes a JSON patch into `[]handlers.jsonPatchOp`. */
export type JSONPatchOpProblem =
  | { kind: 'notObject'; index: number }
  | { kind: 'notString'; index: number; field: 'op' | 'path' | 'from' }
  | { kind: 'overflow'; index: number; literal: string };

/**
 * The first problem encoding/json meets, in document order, decoding a JSON patch text (an array) into
 * `[]handlers.jsonPatchOp` (strict field validation): an element that is no object (or null), a non-string
 * `op`, `path` or `from` (names matched case-sensitively, as sigs.k8s.io/json does), or a number in
 * `value` beyond float64. Go saves the first of these and decodes on, so the first one is its error.
 */
export function firstJSONPatchOpProblem(text: string): JSONPatchOpProblem | undefined {
  const raw = new RawText(text);
  const start = raw.skipSpace(0);
  if (text.charCodeAt(start) !== 0x5b) return undefined;
  for (const [index, [s, e]] of raw.elements(start).entries()) {
    const c = text.charCodeAt(s);
    if (c !== 0x7b) {
      if (text.slice(s, e) !== 'null') return { kind: 'notObject', index };
      continue;
    }
    for (const [key, vs, ve] of raw.memberList(s)) {
      const value = text.slice(vs, ve);
      if ((key === 'op' || key === 'path' || key === 'from') && value !== 'null' && text.charCodeAt(vs) !== 0x22) return { kind: 'notString', index, field: key };
      if (key === 'value') {
        const literal = floatOverflowIn(text, vs, ve);
        if (literal !== undefined) return { kind: 'overflow', index, literal };
      }
    }
  }
  return undefined;
}
