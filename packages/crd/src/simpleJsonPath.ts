/**
 * The JSON-path rules of CRDs: the "simple JSON path" check the apiserver applies to printer columns and
 * scale subresource paths, and the resolution of a relative field path (`.spec.color`,
 * `.spec.labels['app']`) in a version's schema, as `selectableFields` and
 * `x-kubernetes-validations[].fieldPath` use it.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go (`ValidFieldPath`)
 */
import { FieldError, FieldPath, invalid, type FieldPathLike } from '@kubekit/core';
import { decodeSchema } from './internal/decode.js';
import { segmentsToString, validFieldPath } from './internal/validFieldPath.js';
import type { JSONSchemaProps } from './types.js';

function toPath(p: FieldPathLike): FieldPath {
  return typeof p === 'string' ? FieldPath.root(p) : p;
}

/**
 * `validateSimpleJSONPath`: a non-empty path starting with `.`. (The apiserver checks nothing more: a
 * path's segments are not validated.)
 *
 * @example
 * ```ts
 * validateSimpleJSONPath('spec.replicas', 'spec.additionalPrinterColumns[0].JSONPath')[0].toString();
 * // 'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .'
 * ```
 */
export function validateSimpleJSONPath(jsonPath: string, fieldPath: FieldPathLike): FieldError[] {
  if (typeof jsonPath !== 'string') return [invalid(fieldPath, jsonPath, 'must be a string')];
  if (jsonPath.length === 0) return [invalid(fieldPath, jsonPath, 'must not be empty')];
  if (jsonPath[0] !== '.') return [invalid(toPath(fieldPath), jsonPath, 'must be a simple json path starting with .')];
  return [];
}

/** Options of {@link resolveFieldPath}. */
export interface ResolveFieldPathOptions {
  /** Whether `['key']` segments are accepted (they are not in `selectableFields`). @defaultValue true */
  allowArrayNotation?: boolean;
}

/** The outcome of {@link resolveFieldPath}. */
export type FieldPathResolution =
  | {
    ok: true;
    /** The canonical field path without the leading dot, map keys in brackets: `spec.labels[app]`. */
    path: string;
    /** The schema found at the path; `undefined` below `additionalProperties: true`. */
    schema: JSONSchemaProps | undefined;
  }
  | {
    ok: false;
    /** The apiserver's reason: `does not refer to a valid field`, `array notation is not allowed`, … */
    error: string;
  };

/**
 * Resolves a relative JSON path in a structural schema the way the apiserver does for
 * `selectableFields` and `x-kubernetes-validations[].fieldPath`: `.name` segments follow `properties`,
 * or, where a schema has no properties, `additionalProperties` (the segment is then a map key).
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } as const;
 * resolveFieldPath('.spec.color', schema); // { ok: true, path: 'spec.color', schema: { type: 'string' } }
 * resolveFieldPath('.spec.size', schema);  // { ok: false, error: 'does not refer to a valid field' }
 * ```
 */
export function resolveFieldPath(jsonPath: string, schema: JSONSchemaProps, options: ResolveFieldPathOptions = {}): FieldPathResolution {
  const { schema: decoded, errors } = decodeSchema(schema, FieldPath.root('openAPIV3Schema'));
  if (errors.length > 0) return { ok: false, error: `the schema is malformed: ${errors[0].toString()}` };
  if (typeof jsonPath !== 'string') return { ok: false, error: 'the path must be a string' };
  const r = validFieldPath(jsonPath, decoded, options.allowArrayNotation ?? true);
  if (!r.ok) return r;
  return { ok: true, path: segmentsToString(r.segments), schema: r.schema?.raw };
}
