import { KubeError, type FieldError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { checkDepth } from './internal/depth.js';
import { compareGoStrings, type JSONObject } from './internal/json.js';
import { coerceEmbeddedMeta, childPath, indexPath, keyPath, type CoerceState } from './internal/coerce.js';
import {
  additionalProperties,
  asSchema,
  hasProperty,
  isEmbeddedResource,
  itemsSchema,
  propertySchema,
  type Schema,
} from './internal/schema.js';

/** Options of {@link coerceObjectMeta}. */
export interface CoerceObjectMetaOptions {
  /** Whether the value is a resource root, whose `apiVersion`, `kind` and `metadata` are coerced too. */
  isResourceRoot: boolean;
  /**
   * Whether malformed fields are dropped (as when reading from storage) instead of failing (as when
   * decoding a request). A `metadata` that is not an object is then left as it is.
   * @defaultValue false
   */
  dropInvalidFields?: boolean;
}

/**
 * Checks and prunes the `apiVersion`, `kind` and `metadata` of embedded resources
 * (`x-kubernetes-embedded-resource: true`, and the root when `isResourceRoot`), in place, as the
 * apiserver does (`objectmeta.CoerceWithOptions`): `apiVersion` and `kind` must be strings, and
 * `metadata` goes through Go's `ObjectMeta`, which drops unknown fields, omits empty ones and writes
 * timestamps as RFC 3339 UTC seconds; a zero `creationTimestamp` is removed.
 *
 * @param object - the decoded value (modified in place).
 * @param schema - the structural schema; `undefined` or `null` for none.
 * @returns the sorted paths of unknown metadata fields that were dropped (`spec.template.metadata.foo`).
 * @throws KubeError (`BadRequest`) with the field error's text when a field has the wrong type and
 *   `dropInvalidFields` is false, or when the walk nests deeper than {@link maxNestingDepth}.
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta/algorithm.go
 */
export function coerceObjectMeta(object: unknown, schema: JSONSchemaProps | null | undefined, options: CoerceObjectMetaOptions): string[] {
  let s = asSchema(schema);
  if (options.isResourceRoot) s ??= {};
  const state: CoerceState = { drop: options.dropInvalidFields === true, unknown: [] };
  const err = coerce(object, s, '', state, 0, options.isResourceRoot);
  if (err !== undefined) throw new KubeError('BadRequest', err.toString(), { details: { causes: [{ reason: err.type, message: err.body(), field: err.field }] } });
  return state.unknown.sort(compareGoStrings);
}

function coerce(x: unknown, s: Schema, path: string, st: CoerceState, depth: number, forceEmbedded = false): FieldError | undefined {
  if (s === undefined || typeof x !== 'object' || x === null) return undefined;
  checkDepth(depth);
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      const err = coerce(x[i], items, indexPath(path, i), st, depth + 1);
      if (err !== undefined) return err;
    }
    return undefined;
  }
  const obj = x as JSONObject;
  const embedded = forceEmbedded || isEmbeddedResource(s);
  const ap = additionalProperties(s);
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (embedded) {
      const err = coerceEmbeddedMeta(obj, k, v, path, st);
      if (err !== undefined) return err;
    }
    let err: FieldError | undefined;
    if (hasProperty(s, k)) err = coerce(v, propertySchema(s, k), childPath(path, k), st, depth + 1);
    else if (ap.present) err = coerce(v, ap.schema, keyPath(path, k), st, depth + 1);
    if (err !== undefined) return err;
  }
  return undefined;
}
