// Assembles a ResourceFields from ordered extractors and a label conversion function.
import type { FieldExtractor, FieldGetter, FieldSet, ResourceFields } from '../resourceFields.js';
import { stringValue } from './goValue.js';
import { compileReader } from './jsonPath.js';

const readName = compileReader(['metadata', 'name']);
const readNamespace = compileReader(['metadata', 'namespace']);

/** `metadata.name` as `ObjectMeta.GetName()` reads it from unstructured content: a string or "". */
export const metadataName: FieldExtractor = (o) => stringValue(readName(o));

/** `metadata.namespace`, read as `metadata.name` is. */
export const metadataNamespace: FieldExtractor = (o) => stringValue(readNamespace(o));

/** What a ResourceFields is made of. */
export interface ResourceFieldsParts {
  namespaced: boolean;
  /** Whether `metadata.namespace` is in the field set (`ObjectMetaFieldsSet(meta, hasNamespaceField)`). */
  metadataNamespaceField: boolean;
  /** Field set entries after the metadata ones; a later entry replaces an earlier one of the same key. */
  fields: ReadonlyArray<readonly [string, FieldExtractor]>;
  fieldLabels: readonly string[];
  labelAliases: Readonly<Record<string, string>>;
  convertFieldLabel: (label: string, value: string) => [string, string];
}

/** Builds the bound functions of a ResourceFields. */
export function makeResourceFields(parts: ResourceFieldsParts): ResourceFields {
  const byKey = new Map<string, FieldExtractor>();
  byKey.set('metadata.name', metadataName);
  if (parts.metadataNamespaceField) byKey.set('metadata.namespace', metadataNamespace);
  // MergeFieldsSets(objectMetaFields, specificFields): the specific value wins for the same key.
  for (const [key, extractor] of parts.fields) byKey.set(key, extractor);

  const keys = [...byKey.keys()];
  const extractors = [...byKey.values()];
  const fieldSet = compileRecordBuilder(keys, extractors);

  const fieldGetter = (object: unknown): FieldGetter => (field) => {
    const extractor = byKey.get(field);
    return extractor === undefined ? undefined : extractor(object);
  };

  return Object.freeze({
    namespaced: parts.namespaced,
    fieldLabels: Object.freeze([...parts.fieldLabels]),
    labelAliases: Object.freeze({ ...parts.labelAliases }),
    fieldSetKeys: Object.freeze(keys),
    fieldSet,
    fieldGetter,
    extractor: (field: string) => byKey.get(field),
    convertFieldLabel: parts.convertFieldLabel,
  });
}

/**
 * Builds `(object) => ({ [key]: extractor(object), ... })`. The keys are fixed per resource, so the
 * record is written as one object literal (generated once: V8 then gives every field set the same
 * shape and skips per-key dictionary stores); where code generation is disallowed, a loop does it.
 * Keys are embedded as JSON string literals, and `__proto__` as a computed key, so no key can act
 * as code or set the record's prototype.
 */
function compileRecordBuilder(keys: readonly string[], extractors: readonly FieldExtractor[]): (object: unknown) => FieldSet {
  try {
    const props = keys.map((k, i) => `${k === '__proto__' ? `[${JSON.stringify(k)}]` : JSON.stringify(k)}: e[${i}](o)`).join(', ');
    const make = new Function('e', `'use strict'; return function fieldSet(o) { return { ${props} }; };`) as
      (e: readonly FieldExtractor[]) => (object: unknown) => FieldSet;
    return make(extractors);
  } catch {
    return loopRecordBuilder(keys, extractors);
  }
}

/** The record builder used where code generation is disallowed. */
export function loopRecordBuilder(keys: readonly string[], extractors: readonly FieldExtractor[]): (object: unknown) => FieldSet {
  const n = keys.length;
  return (object) => {
    const out: FieldSet = {};
    for (let i = 0; i < n; i++) {
      Object.defineProperty(out, keys[i], { value: extractors[i](object), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
}
