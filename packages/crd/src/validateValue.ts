/**
 * Validation of a value against an OpenAPI v3 schema exactly as the apiserver validates custom
 * resources (and CRD `default`s): kube-openapi's schema validator with the Kubernetes string formats,
 * its errors converted to field errors as apiextensions-apiserver converts them.
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/validation/validation.go
 * @see https://github.com/kubernetes/kube-openapi/tree/master/pkg/validation/validate
 */
import { internalError, invalid } from '@kubekit/core';
import type { FieldError, FieldPathLike } from '@kubekit/core';
import type { JSONSchemaProps } from './types.js';
import { basePath, pathText, toFieldError } from './internal/valueConvert.js';
import { exceedsDepth } from './internal/valueGo.js';
import { SchemaTooDeepError, compileSchema } from './internal/valueSchema.js';
import { validateFresh } from './internal/valueValidator.js';

/** Options of {@link validateValue}. */
export interface ValidateValueOptions {
  /**
   * Ignore formats the apiserver does not support for custom resources (as it strips them before
   * validating). Set to `false` to validate every format kube-openapi knows, wherever it appears.
   *
   * @defaultValue true
   */
  stripUnsupportedFormats?: boolean;
  /**
   * The deepest nesting of arrays and objects accepted. Go's JSON decoder, and so the apiserver,
   * rejects anything nested deeper than 10000 levels; deeper values get one error at `fieldPath`.
   *
   * @defaultValue 10000
   */
  maxDepth?: number;
}

const defaults: Required<ValidateValueOptions> = { stripUnsupportedFormats: true, maxDepth: 10000 };

/**
 * Validates `value` against `schema` as the apiserver does (kube-openapi's `SchemaValidator` with the
 * Kubernetes formats) and returns every error with the apiserver's paths and texts:
 * `spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10`.
 *
 * Paths inside the value are reported below `fieldPath`. With `''` (what the apiserver uses for a
 * custom resource) they start at the value's root, and errors about the root itself read `<nil>` as
 * in the apiserver; with a path such as `spec.validation.openAPIV3Schema.default` they are prefixed.
 * Numbers follow the apiserver's decoding: integral numbers and `bigint`s within int64 are integers,
 * anything else is a float64. Patterns are Go (RE2) regular expressions, not ECMAScript ones. Never
 * throws for bad input; a schema nested impossibly deep is reported as an internal error.
 *
 * @example
 * ```ts
 * const schema: JSONSchemaProps = { type: 'integer', minimum: 1, maximum: 10 };
 * validateValue(schema, 15, 'spec.replicas').map(String);
 * // ['spec.replicas: Invalid value: 15:  in body should be less than or equal to 10']
 * ```
 */
export function validateValue(schema: JSONSchemaProps, value: unknown, fieldPath: FieldPathLike, options?: ValidateValueOptions): FieldError[] {
  const opts = { ...defaults, ...options };
  const base = basePath(fieldPath);
  if (exceedsDepth(value, opts.maxDepth)) {
    return [invalid(pathText(base), '', `value nested more than ${opts.maxDepth} levels deep (the apiserver's JSON decoder rejects it)`)];
  }
  try {
    const compiled = compileSchema(schema, { stripUnsupportedFormats: opts.stripUnsupportedFormats });
    const result = validateFresh(compiled, value, '');
    return result.errors.map((e) => toFieldError(base, e));
  } catch (err) {
    if (err instanceof SchemaTooDeepError || err instanceof RangeError) {
      return [internalError(pathText(base), `cannot validate: ${err instanceof SchemaTooDeepError ? err.message : 'schema and value nested too deeply'}`)];
    }
    throw err;
  }
}
