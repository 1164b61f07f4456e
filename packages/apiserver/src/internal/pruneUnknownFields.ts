/**
 * Dropping the fields a built-in kind's schema does not know, as the apiserver's JSON decoding into its
 * Go types does, and naming them as its strict decoder does (`spec.template.spec.containers[0].colour`),
 * in document order, for `fieldValidation`.
 */
import { KubeError } from '@kubekit/core';
import { itemSchema, propertySchema, resolveSchema, type OpenAPISchema } from '../builtinSchemas.js';
import { isObject } from './own.js';
import { goMapKeys } from './goMapKeys.js';
import type { PlacedLookup, RawValue } from './rawJSON.js';

const maxDepth = 1000;

/** Removes the fields of `value` its schema has no place for (mutates); returns their paths. */
export function pruneUnknownFields(value: unknown, schema: OpenAPISchema, options: { sorted?: boolean; placed?: PlacedLookup } = {}): string[] {
  const unknown: string[] = [];
  const keys = options.sorted === true ? goMapKeys : Object.keys;
  walk(value, resolveSchema(schema), '', 0, { unknown, keys, placed: options.placed }, undefined);
  return unknown;
}

interface Walk {
  unknown: string[];
  /** The order of an object's members where no text says it. */
  keys: (o: Record<string, unknown>) => string[];
  /** The texts values were placed as (a JSON patch's): such a value is written, so read, in its text's order, whatever holds it. */
  placed?: PlacedLookup;
}

/** The text of `value[key]`: from `spans`, the spans of the members or elements of the text of `value`, or as placed. */
function childText(w: Walk, value: object, key: string | number, text: RawValue | undefined, spans: ReadonlyMap<string, [number, number]> | readonly [number, number][] | undefined): RawValue | undefined {
  if (text === undefined || spans === undefined) return w.placed?.(value, key);
  const span = typeof key === 'number' ? (spans as readonly [number, number][])[key] : (spans as ReadonlyMap<string, [number, number]>).get(key);
  return span === undefined ? undefined : { raw: text.raw, start: span[0], end: span[1] };
}

function walk(value: unknown, schema: OpenAPISchema, path: string, depth: number, w: Walk, text: RawValue | undefined): void {
  if (depth > maxDepth) throw KubeError.badRequest(`the object is nested more than ${maxDepth} levels`);
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    if (items === undefined) return;
    const spans = text?.raw.elements(text.start);
    value.forEach((v, i) => walk(v, items, `${path}[${i}]`, depth + 1, w, childText(w, value, i, text, spans)));
    return;
  }
  if (!isObject(value)) return;
  const spans = text?.raw.members(text.start);
  const order = spans === undefined ? w.keys(value) : [...spans.keys()].filter((k) => Object.hasOwn(value, k));
  const props = schema.properties;
  if (isObject(props)) {
    for (const key of order) {
      const child = `${path === '' ? '' : `${path}.`}${key}`;
      const sub = Object.hasOwn(props, key) ? propertySchema(schema, key) : undefined;
      if (sub === undefined) {
        w.unknown.push(child);
        delete value[key];
      } else {
        walk(value[key], sub, child, depth + 1, w, childText(w, value, key, text, spans));
      }
    }
    return;
  }
  // A map (additionalProperties) walks its values; a schema with neither (RawExtension, FieldsV1) keeps all.
  if (isObject(schema.additionalProperties)) {
    const values = resolveSchema(schema.additionalProperties);
    for (const key of order) walk(value[key], values, `${path === '' ? '' : `${path}.`}${key}`, depth + 1, w, childText(w, value, key, text, spans));
  }
}
