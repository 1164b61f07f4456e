import type { JSONSchemaProps } from '@kubekit/crd';
import { checkDepth } from './internal/depth.js';
import type { JSONObject } from './internal/json.js';
import { asSchema, defaultOf, fieldSchema, isNullable, itemsSchema, type Schema } from './internal/schema.js';

/**
 * Removes, in place, the object fields whose value is `null` while their schema is neither
 * `nullable: true` nor has a default (`defaulting.PruneNonNullableNullsWithoutDefaults`). Non-nullable
 * nulls with a default stay for {@link applyDefaults} to replace; nulls in arrays and nulls of fields
 * without a schema are kept.
 *
 * This is the docs page's "Defaulting and Nullable" rule: with `foo` non-nullable with a default,
 * `bar` nullable and `baz` neither, `{foo: null, bar: null, baz: null}` loses `baz` here, and
 * defaulting then turns it into `{foo: "default", bar: null}`.
 *
 * @param object - the decoded value (modified in place).
 * @param schema - the structural schema; `undefined` or `null` for none.
 * @throws KubeError (`BadRequest`) when the walk nests deeper than {@link maxNestingDepth}.
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#defaulting-and-nullable
 *
 * @example
 * ```ts
 * const obj = { spec: { bar: null, baz: null } };
 * pruneNonNullableNullsWithoutDefaults(obj, { properties: { spec: { properties: { bar: { nullable: true }, baz: {} } } } });
 * // obj is { spec: { bar: null } }
 * ```
 */
export function pruneNonNullableNullsWithoutDefaults(object: unknown, schema: JSONSchemaProps | null | undefined): void {
  pruneNulls(object, asSchema(schema), 0);
}

function pruneNulls(x: unknown, s: Schema, depth: number): void {
  // Without a schema nothing below can be removed, so the walk stops (upstream walks on to no effect).
  if (s === undefined || typeof x !== 'object' || x === null) return;
  checkDepth(depth);
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    for (let i = 0; i < x.length; i++) pruneNulls(x[i], items, depth + 1);
    return;
  }
  const obj = x as JSONObject;
  for (const k of Object.keys(obj)) {
    const child = fieldSchema(s, k);
    const v = obj[k];
    if (v === null && child !== undefined && !isNullable(child) && defaultOf(child) === undefined) {
      delete obj[k];
    } else {
      pruneNulls(v, child, depth + 1);
    }
  }
}
