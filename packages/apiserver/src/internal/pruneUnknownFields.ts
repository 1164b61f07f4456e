/**
 * Dropping the fields a built-in kind's schema does not know, as the apiserver's JSON decoding into its
 * Go types does, and naming them as its strict decoder does (`spec.template.spec.containers[0].colour`),
 * in document order, for `fieldValidation`.
 */
import { KubeError } from '@kubekit/core';
import { itemSchema, propertySchema, resolveSchema, type OpenAPISchema } from '../builtinSchemas.js';
import { isObject } from './own.js';
import { goMapKeys } from './goMapKeys.js';
import type { PlacedLookup } from './rawJSON.js';

const maxDepth = 1000;

/** Removes the fields of `value` its schema has no place for (mutates); returns their paths. */
export function pruneUnknownFields(value: unknown, schema: OpenAPISchema, options: { sorted?: boolean; placed?: PlacedLookup } = {}): string[] {
  const unknown: string[] = [];
  // A value placed as text (a JSON patch's) is written in its own order, whatever holds it.
  const keys = options.sorted === true ? goMapKeys : Object.keys;
  const placed = options.placed;
  const within = placed === undefined ? undefined : (container: object, key: string | number): typeof keys | undefined => (placed(container, key) === undefined ? undefined : Object.keys);
  walk(value, resolveSchema(schema), '', 0, unknown, keys, within);
  return unknown;
}

type Keys = (o: Record<string, unknown>) => string[];

function walk(value: unknown, schema: OpenAPISchema, path: string, depth: number, unknown: string[], keys: Keys, within?: (container: object, key: string | number) => Keys | undefined): void {
  if (depth > maxDepth) throw KubeError.badRequest(`the object is nested more than ${maxDepth} levels`);
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    if (items === undefined) return;
    value.forEach((v, i) => walk(v, items, `${path}[${i}]`, depth + 1, unknown, within?.(value, i) ?? keys, within));
    return;
  }
  if (!isObject(value)) return;
  const props = schema.properties;
  if (isObject(props)) {
    for (const key of keys(value)) {
      const child = `${path === '' ? '' : `${path}.`}${key}`;
      const sub = Object.hasOwn(props, key) ? propertySchema(schema, key) : undefined;
      if (sub === undefined) {
        unknown.push(child);
        delete value[key];
      } else {
        walk(value[key], sub, child, depth + 1, unknown, within?.(value, key) ?? keys, within);
      }
    }
    return;
  }
  // A map (additionalProperties) walks its values; a schema with neither (RawExtension, FieldsV1) keeps all.
  if (isObject(schema.additionalProperties)) {
    const values = resolveSchema(schema.additionalProperties);
    for (const key of keys(value)) walk(value[key], values, `${path === '' ? '' : `${path}.`}${key}`, depth + 1, unknown, within?.(value, key) ?? keys, within);
  }
}
