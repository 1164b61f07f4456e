// The explicit recursion bound of every algorithm in this package.
import { KubeError } from '@kubekit/core';

/**
 * How deeply objects, arrays and schemas may nest before the algorithms give up with a `BadRequest`.
 * Recursion is bounded by this explicitly so that hostile input gets a clear error, never a stack
 * overflow; real custom resources nest a few dozen levels at most.
 */
export const maxNestingDepth = 1000;

/** The error for a value or schema nested deeper than {@link maxNestingDepth}. */
export function depthError(what: 'object' | 'schema' = 'object'): KubeError {
  return new KubeError('BadRequest', `${what} nesting exceeds the maximum depth of ${maxNestingDepth}`);
}

/** Throws {@link depthError} when `depth` is beyond {@link maxNestingDepth}. */
export function checkDepth(depth: number): void {
  if (depth > maxNestingDepth) throw depthError();
}

/**
 * Throws {@link depthError} when `value` nests deeper than {@link maxNestingDepth}. Iterative, so it
 * is safe on any input; used before a value is printed into an error message.
 */
export function checkValueDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    checkDepth(depth);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
}
