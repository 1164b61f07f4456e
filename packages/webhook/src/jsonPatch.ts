/**
 * RFC 6902 JSON Patch: the difference between two JSON documents as `add`/`remove`/`replace`
 * operations, the form in which a mutating admission webhook answers (`patchType: JSONPatch`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc6902
 */
import { KubeError } from '@kubekit/core';

/** One RFC 6902 operation of the kinds {@link createJSONPatch} emits. */
export type JSONPatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: unknown };

/** The deepest document {@link createJSONPatch} walks, as the apiserver's JSON decoder allows. */
const maxDepth = 10_000;

/** Escapes one reference token of a JSON Pointer (RFC 6901): `~` as `~0`, `/` as `~1`. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tooDeep(): KubeError {
  return new KubeError('BadRequest', `JSON document nested deeper than ${maxDepth} levels`);
}

function sameNumber(a: unknown, b: unknown): boolean {
  // bigint and number of one value are equal (lossless JSON keeps big integers as bigint).
  return (typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')
    && Number.isInteger(Number(a)) && Number.isInteger(Number(b)) && BigInt(a) === BigInt(b);
}

/** Deep equality of JSON values, reading own enumerable properties only (iterative: any depth up to the limit). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown, number][] = [[a, b, 0]];
  while (stack.length > 0) {
    const [x, y, depth] = stack.pop()!;
    if (x === y) continue;
    if (depth > maxDepth) throw tooDeep();
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      if (sameNumber(x, y)) continue;
      return false;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const yy = y as unknown[];
      if (x.length !== yy.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], yy[i], depth + 1]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      stack.push([xo[k], yo[k], depth + 1]);
    }
  }
  return true;
}

/**
 * The RFC 6902 patch that turns `from` into `to`: objects are compared key by key (own properties
 * only, so a `__proto__` key is data like any other), arrays element by element with additions or
 * removals at their end, and anything else that differs is replaced. Applying the result to `from`
 * gives a document equal to `to`; equal documents give an empty patch.
 *
 * @throws KubeError (reason `BadRequest`) when a document is nested deeper than 10,000 levels
 * @example
 * ```ts
 * createJSONPatch({ spec: { a: 1 } }, { spec: { a: 2, b: true } });
 * // [{ op: 'replace', path: '/spec/a', value: 2 }, { op: 'add', path: '/spec/b', value: true }]
 * ```
 */
export function createJSONPatch(from: unknown, to: unknown): JSONPatchOperation[] {
  const ops: JSONPatchOperation[] = [];
  // An explicit stack keeps deep documents off the call stack; tasks are pushed in reverse so that
  // operations come out in document order.
  type Task = { from: unknown; to: unknown; path: string; depth: number } | JSONPatchOperation;
  const stack: Task[] = [{ from, to, path: '', depth: 0 }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    if ('op' in task) {
      ops.push(task);
      continue;
    }
    const { from: a, to: b, path, depth } = task;
    if (depth > maxDepth) throw tooDeep();
    const tasks: Task[] = [];
    if (isObject(a) && isObject(b)) {
      for (const key of Object.keys(a)) {
        if (!Object.hasOwn(b, key)) tasks.push({ op: 'remove', path: `${path}/${escapePointerToken(key)}` });
      }
      for (const key of Object.keys(b)) {
        const child = `${path}/${escapePointerToken(key)}`;
        if (!Object.hasOwn(a, key)) tasks.push({ op: 'add', path: child, value: b[key] });
        else tasks.push({ from: a[key], to: b[key], path: child, depth: depth + 1 });
      }
    } else if (Array.isArray(a) && Array.isArray(b)) {
      const common = Math.min(a.length, b.length);
      for (let i = 0; i < common; i++) tasks.push({ from: a[i], to: b[i], path: `${path}/${i}`, depth: depth + 1 });
      for (let i = a.length - 1; i >= common; i--) tasks.push({ op: 'remove', path: `${path}/${i}` });
      for (let i = common; i < b.length; i++) tasks.push({ op: 'add', path: `${path}/${i}`, value: b[i] });
    } else if (!jsonEqual(a, b)) {
      tasks.push(b === undefined ? { op: 'remove', path } : { op: 'replace', path, value: b });
    }
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]);
  }
  return ops;
}
