/**
 * Patches: JSON merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch. Server-side
 * apply, with its managed fields and conflicts, is the field manager's (managedFields/fieldManager.ts).
 */
import { KubeError, goJSON, stringifyJSON } from '@kubekit/core';
import { cloneJSON, getOwn, isObject, setOwn } from './internal/own.js';
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
 * or scalar that replaces an object is kept as sent. Iterative: patches as deep as the apiserver accepts
 * (10,000 levels) never touch the stack.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJSON(patch);
  const root: Record<string, unknown> = isObject(target) ? { ...target } : {};
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
        const merged: Record<string, unknown> = { ...cur };
        setOwn(out, k, merged);
        stack.push([merged, v]);
      } else if (isObject(cur)) {
        setOwn(out, k, cloneJSON(v));
      } else {
        setOwn(out, k, withoutNulls(cloneJSON(v)));
      }
    }
  }
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

interface Operation {
  op: string;
  path: string;
  from?: string;
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

function parentOf(doc: unknown, parts: string[], op: string, path: string): { parent: Record<string, unknown> | unknown[]; key: string } {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    cur = child(cur, parts[i]);
    if (cur === undefined) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
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

function getAt(doc: unknown, path: string, op: string): unknown {
  let cur: unknown = doc;
  for (const p of pointer(path)) {
    cur = child(cur, p);
    if (cur === undefined) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return cur;
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
function replace(doc: unknown, path: string, value: unknown): unknown {
  const { parent, key } = parentOf(doc, pointer(path), 'replace', path);
  if (Array.isArray(parent)) parent[arrayIndex(parent, key, false, 'replace', path)] = value;
  else setOwn(parent, key, value);
  return doc;
}

/**
 * evanphx/json-patch v4's test: a missing object member or a null one passes against a null or absent
 * value; otherwise the values must be equal.
 */
function test(doc: unknown, raw: Operation): void {
  const fail = (): KubeError => patchError(`testing value ${raw.path} failed: test failed`);
  if (raw.path === '') {
    if (stringifyJSON(doc) !== stringifyJSON(raw.value)) throw fail();
    return;
  }
  const { parent, key } = parentOf(doc, pointer(raw.path), 'test', raw.path);
  let v: unknown;
  if (Array.isArray(parent)) v = parent[arrayIndex(parent, key, false, 'test', raw.path)];
  else v = getOwn(parent, key);
  if (v === undefined || v === null) {
    if (raw.value === undefined || raw.value === null) return;
    throw fail();
  }
  if (raw.value === undefined || stringifyJSON(v) !== stringifyJSON(raw.value)) throw fail();
}

/**
 * evanphx/json-patch v4 finds no parent for the whole document (`findObject` of ""): `add`, and the
 * `from` of `move` and `copy`, do not apply there.
 */
function fromNotRoot(raw: Operation, op: string): void {
  if ((raw.from ?? '') === '') throw patchError(`${op} operation does not apply: doc is missing from path: "${raw.from ?? ''}"`);
}

function add(doc: unknown, path: string, value: unknown, op = 'add'): unknown {
  const parts = pointer(path);
  if (parts.length === 0) throw patchError(`${op} operation does not apply: doc is missing path: "${path}"`);
  const { parent, key } = parentOf(doc, parts, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, op, path), 0, value);
  else setOwn(parent, key, value);
  return doc;
}

function remove(doc: unknown, path: string, op = 'remove'): unknown {
  const parts = pointer(path);
  const { parent, key } = parentOf(doc, parts, op, path);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, false, op, path), 1);
  else {
    if (!Object.hasOwn(parent, key)) throw patchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    delete parent[key];
  }
  return doc;
}

/** The most operations one JSON patch may hold (`maxJSONPatchOperations` in handlers/patch.go). */
export const maxJSONPatchOperations = 10_000;

/**
 * The most a JSON patch's `copy` operations may add to a document, in bytes of JSON
 * (`JSONPatchMaxCopyBytes`, 3 MiB, in the generic apiserver's config). Without it, a patch that copies
 * the document into itself doubles it with every operation.
 */
export const maxJSONPatchCopyBytes = 3 * 1024 * 1024;

/** RFC 6902: applies a JSON patch to (a copy of) `target`. */
export function applyJSONPatch(target: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw KubeError.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  if (patch.length > maxJSONPatchOperations) {
    throw new KubeError('RequestEntityTooLarge', `Request entity too large: The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${patch.length}`);
  }
  let doc: unknown = cloneJSON(target);
  let copied = 0;
  for (const raw of patch as Operation[]) {
    if (!isObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') throw patchError('invalid JSON patch operation');
    switch (raw.op) {
      case 'add': doc = add(doc, raw.path, cloneJSON(raw.value)); break;
      case 'remove': doc = remove(doc, raw.path); break;
      case 'replace':
        // evanphx/json-patch v4 replaces the whole document only with an object or an array; another
        // value at "" is no error and no change (its error is wrapped from a nil one).
        if (raw.path === '') {
          if (isObject(raw.value) || Array.isArray(raw.value)) doc = cloneJSON(raw.value);
          break;
        }
        doc = replace(doc, raw.path, cloneJSON(raw.value)); break;
      case 'move': {
        fromNotRoot(raw, 'move');
        const v = getAt(doc, raw.from ?? '', 'move');
        doc = remove(doc, raw.from ?? '', 'move');
        doc = add(doc, raw.path, v, 'move');
        break;
      }
      case 'copy': {
        fromNotRoot(raw, 'copy');
        const v = getAt(doc, raw.from ?? '', 'copy');
        // Measured before the value is copied, as json-patch's deepCopy measures what it marshals.
        copied += Buffer.byteLength(goJSON(v));
        if (copied > maxJSONPatchCopyBytes) {
          throw patchError(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${maxJSONPatchCopyBytes}`);
        }
        doc = add(doc, raw.path, cloneJSON(v), 'copy');
        break;
      }
      case 'test': test(doc, raw); break;
      default: throw patchError(`Unexpected kind: ${raw.op}`);
    }
  }
  return doc;
}
