import type { JSONSchemaProps } from '@kubekit/crd';
import { checkDepth } from './internal/depth.js';
import type { JSONObject } from './internal/json.js';
import { PrunedPaths } from './internal/prunedPaths.js';
import {
  additionalProperties,
  asSchema,
  hasProperty,
  isEmbeddedResource,
  isMetaField,
  itemsSchema,
  preservesUnknownFields,
  propertySchema,
  type Schema,
} from './internal/schema.js';

/** Options of {@link prune}. */
export interface PruneOptions {
  /**
   * Whether the value is a resource root: its `apiVersion`, `kind` and `metadata` are kept as they
   * are, as if the schema had `x-kubernetes-embedded-resource: true`.
   */
  isResourceRoot: boolean;
  /** Whether to collect and return the paths of pruned fields. @defaultValue true */
  returnPruned?: boolean;
}

/**
 * Removes the fields of `object` that `schema` does not specify, in place, and returns their paths
 * sorted as the apiserver reports them (`spec.foo`, `array[1].b`). This is the apiserver's pruning
 * of custom resources (`pruning.PruneWithOptions`):
 *
 * - a field is kept when it is a declared property or when `additionalProperties` is present (a schema
 *   or a boolean); values are then pruned against that schema;
 * - `x-kubernetes-preserve-unknown-fields: true` keeps unknown fields, and pruning resumes under
 *   declared properties and `additionalProperties` (not inherited by them); items of a preserving
 *   array keep preserving;
 * - `x-kubernetes-embedded-resource: true` (and the root when `isResourceRoot`) keeps `apiVersion`,
 *   `kind` and `metadata` untouched; {@link coerceObjectMeta} prunes such `metadata` to `ObjectMeta`;
 * - without a schema an object loses all its fields; arrays are descended; scalars and values of the
 *   wrong type are left alone; `allOf`, `anyOf`, `oneOf` and `not` play no part.
 *
 * `apiVersion`, `kind` and `metadata` pruned at the top level are not reported, as upstream.
 *
 * @param object - the decoded value (objects and arrays are modified in place).
 * @param schema - the structural schema; `undefined` or `null` for none.
 * @returns the pruned paths, or `[]` when `returnPruned` is false.
 * @throws KubeError (`BadRequest`) when the walk nests deeper than {@link maxNestingDepth}; the
 *   object may then be partly pruned.
 * @see https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go
 *
 * @example
 * ```ts
 * const obj = { spec: { color: 'red', someRandomField: 42 } };
 * prune(obj, { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } }, { isResourceRoot: true });
 * // → ['spec.someRandomField'], obj is { spec: { color: 'red' } }
 * ```
 */
export function prune(object: unknown, schema: JSONSchemaProps | null | undefined, options: PruneOptions): string[] {
  const paths = options.returnPruned === false ? undefined : new PrunedPaths();
  let s = asSchema(schema);
  let rootEmbedded = false;
  if (options.isResourceRoot) {
    s ??= {};
    rootEmbedded = true;
  }
  pruneValue(object, s, paths, 0, rootEmbedded);
  return paths === undefined ? [] : paths.sorted();
}

function pruneValue(x: unknown, s: Schema, t: PrunedPaths | undefined, depth: number, forceEmbedded = false): void {
  if (s !== undefined && preservesUnknownFields(s)) {
    skipPrune(x, s, t, depth, forceEmbedded);
    return;
  }
  if (typeof x !== 'object' || x === null) return;
  checkDepth(depth);
  if (Array.isArray(x)) {
    const items = s === undefined ? undefined : itemsSchema(s);
    for (let i = 0; i < x.length; i++) {
      t?.pushIndex(i);
      pruneValue(x[i], items, t, depth + 1);
      t?.pop();
    }
    return;
  }
  const obj = x as JSONObject;
  if (s === undefined) {
    for (const k of Object.keys(obj)) {
      t?.record(k);
      delete obj[k];
    }
    return;
  }
  const embedded = forceEmbedded || isEmbeddedResource(s);
  const ap = additionalProperties(s);
  for (const k of Object.keys(obj)) {
    if (embedded && isMetaField(k)) continue;
    if (hasProperty(s, k)) {
      t?.pushKey(k);
      pruneValue(obj[k], propertySchema(s, k), t, depth + 1);
      t?.pop();
    } else if (ap.present) {
      t?.pushKey(k);
      pruneValue(obj[k], ap.schema, t, depth + 1);
      t?.pop();
    } else {
      if (t !== undefined && (!isMetaField(k) || !t.atRoot())) t.record(k);
      delete obj[k];
    }
  }
}

/** Pruning under `x-kubernetes-preserve-unknown-fields`: unknown fields stay, known ones are pruned. */
function skipPrune(x: unknown, s: Schema, t: PrunedPaths | undefined, depth: number, forceEmbedded = false): void {
  if (s === undefined || typeof x !== 'object' || x === null) return;
  checkDepth(depth);
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items === undefined) return;
    for (let i = 0; i < x.length; i++) {
      t?.pushIndex(i);
      skipPrune(x[i], items, t, depth + 1);
      t?.pop();
    }
    return;
  }
  const obj = x as JSONObject;
  const embedded = forceEmbedded || isEmbeddedResource(s);
  const ap = additionalProperties(s);
  for (const k of Object.keys(obj)) {
    if (embedded && isMetaField(k)) continue;
    if (hasProperty(s, k)) {
      t?.pushKey(k);
      pruneValue(obj[k], propertySchema(s, k), t, depth + 1);
      t?.pop();
    } else if (ap.present) {
      t?.pushKey(k);
      pruneValue(obj[k], ap.schema, t, depth + 1);
      t?.pop();
    }
  }
}
