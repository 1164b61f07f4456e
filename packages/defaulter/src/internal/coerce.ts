// The per-object step of ObjectMeta coercion shared by the plain and the compiled walk.
import { invalid, type FieldError } from '@kubekit/core';
import { checkValueDepth } from './depth.js';
import type { JSONObject } from './json.js';
import { decodeObjectMeta } from './objectMeta.js';

/** The state of one coercion walk. */
export interface CoerceState {
  /** Whether malformed fields are dropped instead of failing. */
  drop: boolean;
  /** Paths of dropped unknown metadata fields. */
  unknown: string[];
}

/** `field.Path.Child`: `a.b`. */
export function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** `field.Path.Key`: `a[b]`. */
export function keyPath(path: string, key: string): string {
  return `${path}[${key}]`;
}

/** `field.Path.Index`: `a[0]`. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/**
 * Coerces the field `key` (with value `v`) of the embedded resource `obj` at `path` when it is
 * `apiVersion`, `kind` or `metadata`; other keys are left alone.
 */
export function coerceEmbeddedMeta(obj: JSONObject, key: string, v: unknown, path: string, st: CoerceState): FieldError | undefined {
  if (key === 'apiVersion' || key === 'kind') {
    if (typeof v === 'string') return undefined;
    if (st.drop) {
      delete obj[key];
      return undefined;
    }
    checkValueDepth(v);
    return invalid(childPath(path, key), v, 'must be a string');
  }
  if (key !== 'metadata') return undefined;
  const metaPath = childPath(path, 'metadata');
  const r = decodeObjectMeta(v, st.drop);
  if (!r.ok) {
    if (st.drop) return undefined;
    checkValueDepth(v);
    return invalid(metaPath, v, r.error);
  }
  for (const f of r.unknownFields) st.unknown.push(`${metaPath}.${f}`);
  if (r.meta.creationTimestamp === null) delete r.meta.creationTimestamp;
  obj.metadata = r.meta;
  return undefined;
}
