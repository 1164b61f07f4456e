/**
 * Reading a decoded pod spec as the apiserver's Go structs read it — a string member that is not a
 * string is "", a list that is not a list is empty, a pointer is set when present and not null — and the
 * path rules its validation shares (`validatePathNoBacksteps`, `validateLocalDescendingPath`,
 * `ValidateLocalNonReservedPath` in pkg/apis/core/validation).
 */
import { FieldPath, invalid, type FieldError } from '@kubekit/core';
import { isObject, type JSONObject } from './own.js';

/** A string member ("" when unset, as Go's zero value). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A list member (empty when unset). */
export function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** An object member (empty when unset). */
export function obj(v: unknown): JSONObject {
  return isObject(v) ? v : {};
}

/** An integer member as a number (int32 members always fit), or undefined when unset. */
export function int(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** An int64 member as a bigint, or undefined when unset (the decoder refused other types). */
export function int64(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  return undefined;
}

/** Set as a Go pointer is: present and not null. */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** `validatePathNoBacksteps`: no `..` element (one error however many). */
export function validatePathNoBacksteps(target: string, path: FieldPath): FieldError[] {
  return target.split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** `validateLocalDescendingPath`: relative, without `..` elements. */
export function validateLocalDescendingPath(target: string, path: FieldPath): FieldError[] {
  const errs = target.startsWith('/') ? [invalid(path, target, 'must be a relative path')] : [];
  return [...errs, ...validatePathNoBacksteps(target, path)];
}

/** `ValidateLocalNonReservedPath`: a local descending path that does not start with `..`. */
export function validateLocalNonReservedPath(target: string, path: FieldPath): FieldError[] {
  const errs = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}

/**
 * Appends `items` to `to` one by one: `to.push(...items)` passes each item as an argument, and V8 refuses
 * about 125,000 of them (a pod with 200,000 volumes made its errors overflow the stack).
 */
export function append<T>(to: T[], items: readonly T[]): void {
  for (const x of items) to.push(x);
}
