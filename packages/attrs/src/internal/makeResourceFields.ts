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
  const n = keys.length;
  // A key spelled `__proto__` must become an own property, not the record's prototype.
  const needsDefine = keys.includes('__proto__');

  const fieldSet = (object: unknown): FieldSet => {
    const out: FieldSet = {};
    if (needsDefine) {
      for (let i = 0; i < n; i++) {
        Object.defineProperty(out, keys[i], { value: extractors[i](object), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    for (let i = 0; i < n; i++) out[keys[i]] = extractors[i](object);
    return out;
  };

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
