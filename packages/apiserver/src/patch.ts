/**
 * Patches: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch. Server-side
 * apply, with its managed fields and conflicts, is the field manager's (managedFields/fieldManager.ts).
 */
import { KubeError, goJSON } from '@kubekit/core';
import { goUnmarshalTypeError } from './internal/goJSON.js';
import { deepEqual } from './internal/deepEqual.js';
import { cloneJSON, cloneJSONWith, getOwn, isObject, setOwn } from './internal/own.js';
import { inGoMapOrder, sortMembersInPlace } from './internal/goMapKeys.js';
import { WrittenTexts, equalsRaw, equalsRawJSON, goJSONWithTexts, jsonPatchValueTexts, rawValueOf, type RawValue } from './internal/rawJSON.js';
import { strategicMerge } from './strategicMergePatch.js';

/** The patch media types the apiserver accepts. */
export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

/** The patch type of a `Content-Type`, or undefined for others. */
export function patchTypeOf(contentType: string): PatchType | undefined {
  switch (contentType) {
    case 'application/merge-patch+json': return 'merge';
    case 'application/json-patch+json': return 'json';
    case 'application/strategic-merge-patch+json': return 'strategic';
    case 'application/apply-patch+yaml': case 'application/apply-patch+cbor': return 'apply';
    default: return undefined;
  }
}

/**
 * RFC 7386: applies a merge patch to (a copy of) `target`, as the apiserver does with
 * gopkg.in/evanphx/json-patch.v4's `MergePatch`: a value set where the target has none, null or a
 * non-object has its nulls pruned at every depth (inside arrays too, whose null elements stay); an array
 * or scalar that replaces an object is kept as sent. Members are in the order of the text MergePatch
 * writes, which is what the apiserver decodes (and keeps, in a `runtime.RawExtension` such as a DRA
 * claim's opaque parameters): every object it parsed into a map (the root, each object merged with a
 * patch object, and every object inside a value whose nulls it pruned) in Go's map order (sorted); what
 * it did not parse (the target's members the patch did not reach, a value kept as sent) in its own.
 * Iterative: patches as deep as the apiserver accepts (10,000 levels) never touch the stack.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJSON(patch);
  const root: Record<string, unknown> = isObject(target) ? { ...target } : {};
  // The objects merged with a patch object (parsed, and so re-marshalled sorted).
  const merged: Record<string, unknown>[] = [root];
  // Each entry: a (shallow-copied) object of the result and the patch object merged into it.
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [[root, patch]];
  while (stack.length > 0) {
    const [out, p] = stack.pop()!;
    for (const k of Object.keys(p)) {
      const v = p[k];
      if (v === null) {
        delete out[k];
        continue;
      }
      const cur = getOwn(out, k);
      if (isObject(cur) && isObject(v)) {
        const m: Record<string, unknown> = { ...cur };
        setOwn(out, k, m);
        merged.push(m);
        stack.push([m, v]);
      } else if (isObject(cur)) {
        setOwn(out, k, cloneJSON(v));
      } else {
        setOwn(out, k, inGoMapOrder(withoutNulls(cloneJSON(v))));
      }
    }
  }
  for (const m of merged) sortMembersInPlace(m);
  return root;
}

/** `pruneNulls` of evanphx/json-patch, in place: drops null-valued keys of objects at every depth, arrays included. */
function withoutNulls(value: unknown): unknown {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') stack.push(x);
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (x === null) delete v[k];
        else if (typeof x === 'object') stack.push(x);
      }
    }
  }
  return value;
}

/**
 * A strategic merge patch of a built-in kind: lists merged by their merge keys, with the directives
 * kubectl sends (see strategicMergePatch.ts).
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  return strategicMerge(target, patch);
}

/** A JSON patch operation as json-patch holds it: raw members, each read when it is needed. */
interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: unknown;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw patchError(`invalid JSON pointer: "${path}"`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function patchError(message: string): KubeError {
  return new KubeError('Invalid', message, { details: {} });
}

/**
 * The container that holds the last token of `parts`, and that token. With `texts`, the values written
 * as text on the way down are parsed into their members ({@link WrittenTexts.enter}), as json-patch's
 * `findObject` parses its lazy nodes.
 */
function parentOf(doc: unknown, parts: string[], op: string, path: string, walk: Walk): { parent: Record<string, unknown> | unknown[]; key: string } {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = child(cur, parts[i]);
    if (next === undefined) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    walk.enter(cur as object, Array.isArray(cur) ? goIndex(parts[i], cur.length)! : parts[i], next);
    cur = next;
  }
  if (!Array.isArray(cur) && !isObject(cur)) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  return { parent: cur, key: parts[parts.length - 1] };
}

/**
 * An array index as evanphx/json-patch v4 reads it: `strconv.Atoi` (a sign and leading zeros allowed),
 * negative indexes counting from the end (`SupportNegativeIndices`, on by default); undefined when it is
 * not an index of an array of `length` (`length` is one more for an add).
 */
function goIndex(key: string, length: number): number | undefined {
  if (!/^[+-]?\d+$/.test(key)) return undefined;
  const n = BigInt(key);
  if (n >= BigInt(length) || n < -BigInt(length)) return undefined;
  const i = Number(n);
  return i < 0 ? i + length : i;
}

/** The member `p` of an object (own properties only) or array (v4's indexes), or undefined. */
function child(cur: unknown, p: string): unknown {
  if (Array.isArray(cur)) {
    const i = goIndex(p, cur.length);
    return i === undefined ? undefined : cur[i];
  }
  if (isObject(cur)) return getOwn(cur, p);
  return undefined;
}

/**
 * The value at `path` (the `from` of a move or copy), and the text it was written as, if kept. A copy
 * from a missing member of an object copies nothing, which json-patch v4 adds as null (its `get` of a
 * missing key is no error); `missing` says so.
 */
function getAt(doc: unknown, path: string, op: string, walk: Walk): { value: unknown; text?: RawValue; missing?: boolean } {
  const parts = pointer(path);
  let cur: unknown = doc;
  let text: RawValue | undefined;
  for (const [i, p] of parts.entries()) {
    const next = child(cur, p);
    if (next === undefined && op === 'copy' && i === parts.length - 1 && isObject(cur)) return { value: null, missing: true };
    if (next === undefined) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    const key = Array.isArray(cur) ? goIndex(p, cur.length)! : p;
    if (i < parts.length - 1) walk.enter(cur as object, key, next);
    else text = walk.texts?.get(cur as object, key);
    cur = next;
  }
  return { value: cur, text };
}

function arrayIndex(arr: unknown[], key: string, allowEnd: boolean, op: string, path: string): number {
  if (key === '-' && allowEnd) return arr.length;
  const i = goIndex(key, allowEnd ? arr.length + 1 : arr.length);
  if (i === undefined) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": index out of range`);
  return i;
}

/**
 * evanphx/json-patch v4's replace: the parent must exist; an array item must be there, an object member
 * need not (its `get` of a missing key is no error, so replace adds it).
 */
function replace(doc: unknown, path: string, value: unknown, walk: Walk, text?: RawValue): unknown {
  const texts = walk.texts;
  const { parent, key } = parentOf(doc, pointer(path), 'replace', path, walk);
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, key, false, 'replace', path);
    parent[i] = value;
    texts?.set(parent, i, text);
  } else {
    setOwn(parent, key, value);
    texts?.set(parent, key, text);
  }
  return doc;
}

/**
 * evanphx/json-patch v4's test: a missing object member or a null one passes against a null or absent
 * value; otherwise the values must be equal as `lazyNode.equal` compares them: objects by members in any
 * order, and scalars by their JSON text when the operation's is at hand (`written`: `1.0` is not `1`).
 * Without it (a webhook's patch), scalars compare by value.
 */
function test(doc: unknown, raw: Operation, path: string, written: RawValue | undefined, walk: Walk): void {
  const texts = walk.texts;
  const fail = (): KubeError => patchError(`testing value ${path} failed: test failed`);
  const equal = (v: unknown, mine: RawValue | undefined): boolean => {
    if (written === undefined) return deepEqual(v, raw.value);
    return mine !== undefined ? equalsRaw(mine, written) : equalsRawJSON(v, written, texts?.get);
  };
  if (path === '') {
    if (!equal(doc, undefined)) throw fail();
    walk.enterAll(doc);
    return;
  }
  const { parent, key } = parentOf(doc, pointer(path), 'test', path, walk);
  let v: unknown;
  let mine: RawValue | undefined;
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, key, false, 'test', path);
    v = parent[i];
    mine = texts?.get(parent, i);
  } else {
    v = getOwn(parent, key);
    mine = texts?.get(parent, key);
  }
  if (v === undefined || v === null) {
    if (raw.value === undefined || raw.value === null) return;
    throw fail();
  }
  if (raw.value === undefined || !equal(v, mine)) throw fail();
  walk.enterAll(v);
}

/**
 * evanphx/json-patch v4 finds no parent for the whole document (`findObject` of ""): `add`, and the
 * `from` of `move` and `copy`, do not apply there.
 */
function fromNotRoot(from: string, op: string): void {
  if (from === '') throw patchError(`${op} operation does not apply: doc is missing from path: "${from}"`);
}

/**
 * An operation's `path` or `from` as json-patch's `Operation.Path` and `From` read it (encoding/json into a
 * string): absent or null is its missing field, another type encoding/json's error.
 */
function member(raw: Operation, name: 'path' | 'from'): string | { error: string } {
  const v: unknown = raw[name];
  if (v === undefined || v === null) return { error: name === 'path' ? 'operation missing path field: missing value' : 'operation, missing from field: missing value' };
  return typeof v === 'string' ? v : { error: goUnmarshalTypeError(v, 'string') };
}

/** The operation's `path`, or its error as `op` words it (add, remove and copy wrap json-patch's ErrMissing whatever the cause). */
function opPath(raw: Operation, op: string): string {
  const path = member(raw, 'path');
  if (typeof path === 'string') return path;
  throw patchError(`${op} operation failed to decode path: ${op === 'add' || op === 'remove' || op === 'copy' ? 'missing value' : path.error}`);
}

/** The operation's `from`, or its error as `op` words it. */
function opFrom(raw: Operation, op: string): string {
  const from = member(raw, 'from');
  if (typeof from === 'string') return from;
  throw patchError(`${op} operation failed to decode from: ${from.error}`);
}

function add(doc: unknown, path: string, value: unknown, op: string, walk: Walk, text?: RawValue): unknown {
  const texts = walk.texts;
  const parts = pointer(path);
  if (parts.length === 0) throw patchError(`${op} operation does not apply: doc is missing path: "${path}"`);
  const { parent, key } = parentOf(doc, parts, op, path, walk);
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, key, true, op, path);
    parent.splice(i, 0, value);
    texts?.inserted(parent, i, text);
  } else {
    setOwn(parent, key, value);
    texts?.set(parent, key, text);
  }
  return doc;
}

function remove(doc: unknown, path: string, op: string, walk: Walk): unknown {
  const texts = walk.texts;
  const parts = pointer(path);
  const { parent, key } = parentOf(doc, parts, op, path, walk);
  if (Array.isArray(parent)) {
    const i = arrayIndex(parent, key, false, op, path);
    parent.splice(i, 1);
    texts?.removed(parent, i);
  } else {
    if (!Object.hasOwn(parent, key)) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    delete parent[key];
    texts?.set(parent, key, undefined);
  }
  return doc;
}

/**
 * What one patch's operations went through. evanphx/json-patch v4 keeps each value as its JSON text (a
 * lazy node) until an operation needs its members: `findObject` parses every container on the way to an
 * operation's parent, and a `test` that passes has parsed the whole value it compared. A parsed object is a
 * Go map from then on, which json-patch writes with its members sorted, and so do a `copy` (it marshals the
 * node) and the patched document; a value nothing went through keeps its text's order. What keeps the
 * text sees it (a `runtime.RawExtension`'s stored bytes, a quoted object), and so does the decoder of the
 * result (the order of its type errors and unknown fields).
 */
class Walk {
  /** The objects json-patch has parsed into maps. */
  private readonly parsed = new Set<Record<string, unknown>>();

  constructor(readonly texts: WrittenTexts | undefined) {}

  /** An operation goes from `container` through its member `key`, `next`. */
  enter(container: object, key: string | number, next: unknown): void {
    if (isObject(next)) this.parsed.add(next);
    this.texts?.enter(container, key, next);
  }

  /** Every object in a value a passing `test` compared (lazyNode.equal parses both sides as it goes). */
  enterAll(value: unknown): void {
    const stack = [value];
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (isObject(v)) {
        this.parsed.add(v);
        for (const k of Object.keys(v)) stack.push(v[k]);
      }
    }
  }

  /** A deep copy of `value` as json-patch's deepCopy writes it: the parsed objects' members sorted. */
  copy(value: unknown): unknown {
    return cloneJSONWith(value, (from, to) => {
      if (this.parsed.has(from)) sortMembersInPlace(to);
    });
  }

  /** Writes the parsed objects' members in Go's map order, as json-patch marshals the document (its root, a `partialDoc`, always a map). */
  finish(doc: unknown): void {
    if (isObject(doc)) this.parsed.add(doc);
    for (const o of this.parsed) sortMembersInPlace(o);
  }
}

/** The most operations one JSON patch may hold (`maxJSONPatchOperations` in handlers/patch.go). */
export const maxJSONPatchOperations = 10_000;

/**
 * The most a JSON patch's `copy` operations may add to a document, in bytes of JSON
 * (`JSONPatchMaxCopyBytes`, 3 MiB, in the generic apiserver's config). Without it, a patch that copies
 * the document into itself doubles it with every operation.
 */
export const maxJSONPatchCopyBytes = 3 * 1024 * 1024;

/** Options of {@link applyJSONPatch}. */
export interface JSONPatchOptions {
  /**
   * The patch's JSON text, from which a `test` operation reads its value as written: evanphx/json-patch
   * compares scalars by their text. Without it, `test` compares values.
   * @defaultValue undefined
   */
  text?: string;
  /**
   * Filled, when given with `text`, with the texts of the values the operations placed, as json-patch
   * keeps them (for {@link goJSONWithTexts}).
   * @defaultValue undefined
   */
  texts?: WrittenTexts;
  /**
   * With `texts`: the text `target` was encoded as (the apiserver's encoding of the current object).
   * json-patch v4 parses the document's root into a map and keeps each member as that text until an
   * operation goes through it, so a value nothing went through is copied, moved and written in the
   * encoder's order. Without it, every object is written sorted.
   * @defaultValue undefined
   */
  documentText?: string;
}

/** RFC 6902: applies a JSON patch to (a copy of) `target`. */
export function applyJSONPatch(target: unknown, patch: unknown, options: JSONPatchOptions = {}): unknown {
  if (!Array.isArray(patch)) throw KubeError.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  if (patch.length > maxJSONPatchOperations) {
    throw new KubeError('RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${patch.length}`);
  }
  let doc: unknown = cloneJSON(target);
  let copied = 0;
  // The operations' values as written, for the tests, and the texts of values that earlier operations
  // placed, which the tests compare (json-patch keeps both as text).
  const tracked = options.text !== undefined && (options.texts !== undefined || (patch as unknown[]).some((op) => isObject(op) && op.op === 'test'));
  const written = tracked ? jsonPatchValueTexts(options.text!) : undefined;
  const texts = tracked ? options.texts ?? new WrittenTexts() : undefined;
  const walk = new Walk(texts);
  if (texts !== undefined && options.documentText !== undefined && isObject(doc)) {
    const root = rawValueOf(options.documentText);
    if (root.raw.text.charCodeAt(root.start) === 0x7b) {
      for (const [key, [start, end]] of root.raw.members(root.start)) if (Object.hasOwn(doc, key)) texts.set(doc, key, { raw: root.raw, start, end });
    }
  }
  for (const [index, given] of (patch as unknown[]).entries()) {
    // An operation is a map of raw members: `op` not a string (or absent) is the kind `unknown`; `path` and
    // `from` are read when the operation needs them. A null operation has no members.
    const raw: Operation = isObject(given) ? given : {};
    const kind = typeof raw.op === 'string' ? raw.op : 'unknown';
    const text = written?.[index];
    switch (kind) {
      // v4 adds and replaces with an absent value's nil node, which marshals as null.
      case 'add': doc = add(doc, opPath(raw, 'add'), cloneJSON(raw.value ?? null), 'add', walk, text); break;
      case 'remove': doc = remove(doc, opPath(raw, 'remove'), 'remove', walk); break;
      case 'replace': {
        const path = opPath(raw, 'replace');
        // evanphx/json-patch v4 replaces the whole document only with an object or an array; another
        // value at "" is no error and no change (its error is wrapped from a nil one).
        if (path === '') {
          if (isObject(raw.value) || Array.isArray(raw.value)) doc = cloneJSON(raw.value);
          break;
        }
        doc = replace(doc, path, cloneJSON(raw.value ?? null), walk, text); break;
      }
      case 'move': {
        const fromPath = opFrom(raw, 'move');
        fromNotRoot(fromPath, 'move');
        const from = getAt(doc, fromPath, 'move', walk);
        doc = remove(doc, fromPath, 'move', walk);
        doc = add(doc, opPath(raw, 'move'), from.value, 'move', walk, from.text);
        break;
      }
      case 'copy': {
        const fromPath = opFrom(raw, 'copy');
        fromNotRoot(fromPath, 'copy');
        const from = getAt(doc, fromPath, 'copy', walk);
        const path = opPath(raw, 'copy');
        // Measured before the value is copied, as json-patch's deepCopy measures what it marshals (nothing for a missing member).
        if (from.missing !== true) copied += Buffer.byteLength(goJSON(from.value));
        if (copied > maxJSONPatchCopyBytes) {
          throw patchError(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${maxJSONPatchCopyBytes}`);
        }
        // json-patch's deepCopy marshals the node and copies that text: a container an earlier operation
        // walked through is written with its members' own texts (those it did not walk keep theirs).
        const copiedText = from.text ?? (texts !== undefined && from.missing !== true && from.value !== null && typeof from.value === 'object' ? rawValueOf(goJSONWithTexts(from.value, texts)) : undefined);
        doc = add(doc, path, walk.copy(from.value), 'copy', walk, copiedText);
        break;
      }
      case 'test': test(doc, raw, opPath(raw, 'test'), text, walk); break;
      default: throw patchError(`Unexpected kind: ${kind}`);
    }
  }
  walk.finish(doc);
  return doc;
}
