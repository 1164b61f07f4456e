import { cloneJSON } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';
import { checkDepth } from './internal/depth.js';
import { getOwn, setOwn, type JSONObject } from './internal/json.js';
import {
  additionalProperties,
  asSchema,
  defaultOf,
  hasProperty,
  isNullable,
  itemsSchema,
  propertyEntries,
  propertySchema,
  type Schema,
} from './internal/schema.js';

/**
 * Applies the schema's defaults to `object`, in place (`defaulting.Default`, KEP-575):
 *
 * - a property is defaulted when it is undefined (absent, or `undefined` in JavaScript) or `null`
 *   while its schema is not `nullable: true`; empty strings, zeros, empty lists and maps are kept;
 * - defaulting is top-down: an object's own defaults are applied first, then every field (defaulted
 *   ones included) is defaulted inside, so a defaulted object receives its fields' defaults;
 * - `null` array items and `null` values of `additionalProperties` under a non-nullable schema become
 *   that schema's default (when it has one); no map key is ever created from `additionalProperties`;
 * - every default is deep-copied, so no two objects (and never the schema) share a default value;
 * - the root itself is never defaulted; without a schema nothing happens.
 *
 * Run {@link pruneNonNullableNullsWithoutDefaults} first, as the apiserver does (see
 * {@link defaultAndPrune}), so that non-nullable nulls without defaults are gone.
 *
 * @param object - the decoded value (modified in place).
 * @param schema - the structural schema; `undefined` or `null` for none.
 * @throws KubeError (`BadRequest`) when the walk nests deeper than {@link maxNestingDepth}.
 * @see https://github.com/kubernetes/enhancements/tree/master/keps/sig-api-machinery/575-crd-defaulting
 *
 * @example
 * ```ts
 * const obj = {};
 * applyDefaults(obj, { type: 'object', properties: { foo: { type: 'object', default: { b: 'def' },
 *   properties: { a: { type: 'string', default: 'abc' }, b: { type: 'string' } } } } });
 * // obj is { foo: { b: 'def', a: 'abc' } }
 * ```
 */
export function applyDefaults(object: unknown, schema: JSONSchemaProps | null | undefined): void {
  defaultValue(object, asSchema(schema), 0);
}

function defaultValue(x: unknown, s: Schema, depth: number): void {
  if (s === undefined || typeof x !== 'object' || x === null) return;
  checkDepth(depth);
  if (Array.isArray(x)) {
    const items = itemsSchema(s);
    if (items === undefined) return;
    const d = isNullable(items) ? undefined : defaultOf(items);
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && d !== undefined) x[i] = cloneJSON(d);
      defaultValue(x[i], items, depth + 1);
    }
    return;
  }
  const obj = x as JSONObject;
  for (const [k, prop] of propertyEntries(s)) {
    const d = defaultOf(prop);
    if (d === undefined) continue;
    const v = getOwn(obj, k);
    if (v === undefined || (v === null && !isNullable(prop))) setOwn(obj, k, cloneJSON(d));
  }
  const ap = additionalProperties(s);
  for (const k of Object.keys(obj)) {
    if (hasProperty(s, k)) {
      defaultValue(obj[k], propertySchema(s, k), depth + 1);
    } else if (ap.present) {
      const aps = ap.schema;
      if (obj[k] === null && aps !== undefined && !isNullable(aps)) {
        const d = defaultOf(aps);
        if (d !== undefined) obj[k] = cloneJSON(d);
      }
      defaultValue(obj[k], aps, depth + 1);
    }
  }
}
