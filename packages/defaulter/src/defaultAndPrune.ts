import type { JSONSchemaProps } from '@kubekit/crd';
import { applyDefaults } from './applyDefaults.js';
import { coerceObjectMeta } from './coerceObjectMeta.js';
import { runDecodePipeline } from './internal/decodePipeline.js';
import { prune } from './prune.js';
import { pruneDefaults } from './pruneDefaults.js';
import { pruneNonNullableNullsWithoutDefaults } from './pruneNonNullableNullsWithoutDefaults.js';

/** Options of {@link defaultAndPrune}. */
export interface DefaultAndPruneOptions {
  /** Whether the value is a whole custom resource (its `apiVersion`, `kind`, `metadata` are kept and coerced). */
  isResourceRoot: boolean;
  /** Whether to return the unknown field paths (pruned fields and dropped metadata fields). @defaultValue true */
  returnPruned?: boolean;
  /**
   * Whether malformed metadata fields are dropped (the apiserver does so when reading from storage)
   * instead of failing with `BadRequest` (as when decoding a request).
   * @defaultValue false
   */
  dropInvalidMetadata?: boolean;
}

/**
 * Treats a decoded custom resource exactly as the apiserver's decoder does, in place, in its order:
 *
 * 1. the root's `apiVersion`, `kind` and `metadata` are read (the latter through Go's `ObjectMeta`);
 * 2. {@link prune} (unknown fields);
 * 3. {@link pruneNonNullableNullsWithoutDefaults};
 * 4. {@link coerceObjectMeta} of embedded resources;
 * 5. the root's `apiVersion`, `kind` and coerced `metadata` are written back;
 * 6. {@link applyDefaults}, with defaults pruned as the apiserver prunes them ({@link pruneDefaults}).
 *
 * Give the schema of the request's version when decoding a request, and the storage version's
 * schema when reading from storage (with `dropInvalidMetadata: true`).
 *
 * This form re-derives the pruned defaults on every call; {@link compileSchema} does that once.
 *
 * @returns the paths the apiserver reports as unknown fields (`metadata.foo`, then the sorted pruned
 *   paths, then dropped embedded metadata fields), or `[]` when `returnPruned` is false.
 * @throws KubeError (`BadRequest`) for malformed TypeMeta or metadata (unless dropped), or nesting
 *   deeper than {@link maxNestingDepth}.
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
 *
 * @example
 * ```ts
 * const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: {
 *   image: { type: 'string' }, replicas: { type: 'integer', default: 1 } } } } };
 * const cr = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: { image: 'i', junk: 1 } };
 * defaultAndPrune(cr, schema, { isResourceRoot: true }); // → ['spec.junk']; cr.spec is { image: 'i', replicas: 1 }
 * ```
 */
export function defaultAndPrune(object: unknown, schema: JSONSchemaProps | null | undefined, options: DefaultAndPruneOptions): string[] {
  const pruned = pruneDefaults(schema);
  return runDecodePipeline(object, {
    prune: (o, isResourceRoot, returnPruned) => prune(o, pruned, { isResourceRoot, returnPruned }),
    pruneNulls: (o) => pruneNonNullableNullsWithoutDefaults(o, pruned),
    coerce: (o, dropInvalidFields) => coerceObjectMeta(o, pruned, { isResourceRoot: false, dropInvalidFields }),
    applyDefaults: (o) => applyDefaults(o, pruned),
  }, {
    isResourceRoot: options.isResourceRoot,
    returnPruned: options.returnPruned !== false,
    dropInvalidMetadata: options.dropInvalidMetadata === true,
  });
}
