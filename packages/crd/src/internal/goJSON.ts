/**
 * Go's `json.Marshal` of the apiserver's internal apiextensions values, which is how current
 * apimachinery prints a field error's bad value when it is not a string, number or boolean
 * (`spec.versions: Invalid value: [{"Name":"v1",…}]: must contain unique version names`). The internal
 * types carry no JSON tags, so fields appear under their Go names, in declaration order, none omitted.
 */
import { FieldError, goJSON, goJSONString } from '@kubekit/core';
import type { FieldPathLike } from '@kubekit/core';
import type { ColumnDef, Rule, Schema, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, Version } from './model.js';

/** `field.Invalid` with a bad value printed from `valueText`. */
export function invalidJSON(field: FieldPathLike, badValue: unknown, valueText: string, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', field, badValue, detail, valueText);
}

const str = goJSONString;

/** `json.Marshal` of a decoded JSON value (an `interface{}`). */
export const jsonValue = goJSON;

/** `json.Marshal` of a `[]string` (`null` when nil). */
export function jsonStringSlice(values: readonly string[] | undefined): string {
  return values === undefined ? 'null' : `[${values.map(str).join(',')}]`;
}

function struct(fields: [string, string][]): string {
  return `{${fields.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`;
}

function list<T>(values: readonly T[] | undefined, render: (v: T) => string): string {
  return values === undefined ? 'null' : `[${values.map(render).join(',')}]`;
}

function num(v: number | undefined): string {
  return v === undefined ? 'null' : jsonValue(v);
}

function schemaMap(m: ReadonlyMap<string, Schema> | undefined): string {
  if (m === undefined) return 'null';
  return `{${[...m.keys()].sort().map((k) => `${str(k)}:${jsonSchema(m.get(k)!)}`).join(',')}}`;
}

function orBool(v: SchemaOrBool | undefined): string {
  return v === undefined ? 'null' : struct([['Allows', String(v.allows)], ['Schema', v.schema === undefined ? 'null' : jsonSchema(v.schema)]]);
}

/** `json.Marshal` of an internal `JSONSchemaPropsOrArray` (the value behind `items`). */
export function jsonItems(v: SchemaOrArray): string {
  return struct([['Schema', v.schema === undefined ? 'null' : jsonSchema(v.schema)], ['JSONSchemas', list(v.schemas, jsonSchema)]]);
}

function dependencies(m: ReadonlyMap<string, SchemaOrStringArray> | undefined): string {
  if (m === undefined) return 'null';
  return `{${[...m.keys()].sort().map((k) => {
    const d = m.get(k)!;
    return `${str(k)}:${struct([['Schema', d.schema === undefined ? 'null' : jsonSchema(d.schema)], ['Property', jsonStringSlice(d.property)]])}`;
  }).join(',')}}`;
}

/** `json.Marshal` of an internal `ValidationRule` (nil `Reason`/`OptionalOldSelf` as null). */
export function jsonRule(r: Rule): string {
  return struct([['Rule', str(r.rule)], ['Message', str(r.message)], ['MessageExpression', str(r.messageExpression)],
    ['Reason', r.reason === undefined ? 'null' : str(r.reason)], ['FieldPath', str(r.fieldPath)],
    ['OptionalOldSelf', r.optionalOldSelf === undefined ? 'null' : String(r.optionalOldSelf)]]);
}

/** `json.Marshal` of an internal `JSONSchemaProps`. */
export function jsonSchema(s: Schema): string {
  return struct([
    ['ID', str(s.id)], ['Schema', str(s.$schema)], ['Ref', s.ref === undefined ? 'null' : str(s.ref)], ['Description', str(s.description)],
    ['Type', str(s.type)], ['Nullable', String(s.nullable)], ['Format', str(s.format)], ['Title', str(s.title)],
    ['Default', s.default === undefined ? 'null' : jsonValue(s.default.value)], ['Maximum', num(s.maximum)],
    ['ExclusiveMaximum', String(s.exclusiveMaximum)], ['Minimum', num(s.minimum)], ['ExclusiveMinimum', String(s.exclusiveMinimum)],
    ['MaxLength', num(s.maxLength)], ['MinLength', num(s.minLength)], ['Pattern', str(s.pattern)], ['MaxItems', num(s.maxItems)],
    ['MinItems', num(s.minItems)], ['UniqueItems', String(s.uniqueItems)], ['MultipleOf', num(s.multipleOf)],
    ['Enum', list(s.enum, jsonValue)], ['MaxProperties', num(s.maxProperties)], ['MinProperties', num(s.minProperties)],
    ['Required', jsonStringSlice(s.required)], ['Items', s.items === undefined ? 'null' : jsonItems(s.items)],
    ['AllOf', list(s.allOf, jsonSchema)], ['OneOf', list(s.oneOf, jsonSchema)], ['AnyOf', list(s.anyOf, jsonSchema)],
    ['Not', s.not === undefined ? 'null' : jsonSchema(s.not)], ['Properties', schemaMap(s.properties)],
    ['AdditionalProperties', orBool(s.additionalProperties)], ['PatternProperties', schemaMap(s.patternProperties)],
    ['Dependencies', dependencies(s.dependencies)], ['AdditionalItems', orBool(s.additionalItems)], ['Definitions', schemaMap(s.definitions)],
    ['ExternalDocs', s.externalDocs === undefined ? 'null' : struct([['Description', str(s.externalDocs.description)], ['URL', str(s.externalDocs.url)]])],
    ['Example', s.example === undefined ? 'null' : jsonValue(s.example.value)],
    ['XPreserveUnknownFields', s.xPreserveUnknownFields === undefined ? 'null' : String(s.xPreserveUnknownFields)],
    ['XEmbeddedResource', String(s.xEmbeddedResource)], ['XIntOrString', String(s.xIntOrString)],
    ['XListMapKeys', jsonStringSlice(s.xListMapKeys)], ['XListType', s.xListType === undefined ? 'null' : str(s.xListType)],
    ['XMapType', s.xMapType === undefined ? 'null' : str(s.xMapType)], ['XValidations', list(s.xValidations, jsonRule)],
  ]);
}

function column(c: ColumnDef): string {
  return struct([['Name', str(c.name)], ['Type', str(c.type)], ['Format', str(c.format)], ['Description', str(c.description)],
    ['Priority', String(c.priority)], ['JSONPath', str(c.jsonPath)]]);
}

function version(v: Version): string {
  const sub = v.subresources;
  const scale = sub?.scale;
  return struct([
    ['Name', str(v.name)], ['Served', String(v.served)], ['Storage', String(v.storage)], ['Deprecated', String(v.deprecated)],
    ['DeprecationWarning', v.deprecationWarning === undefined ? 'null' : str(v.deprecationWarning)],
    ['Schema', v.schema === undefined ? 'null' : struct([['OpenAPIV3Schema', v.schema.openAPIV3Schema === undefined ? 'null' : jsonSchema(v.schema.openAPIV3Schema)]])],
    ['Subresources', sub === undefined ? 'null' : struct([
      ['Status', sub.status === undefined ? 'null' : '{}'],
      ['Scale', scale === undefined ? 'null' : struct([['SpecReplicasPath', str(scale.specReplicasPath)], ['StatusReplicasPath', str(scale.statusReplicasPath)],
        ['LabelSelectorPath', scale.labelSelectorPath === undefined ? 'null' : str(scale.labelSelectorPath)]])],
    ])],
    ['AdditionalPrinterColumns', list(v.additionalPrinterColumns, column)],
    ['SelectableFields', list(v.selectableFields, (f) => struct([['JSONPath', str(f.jsonPath)]]))],
  ]);
}

/** `json.Marshal` of the internal `[]apiextensions.CustomResourceDefinitionVersion`. */
export function jsonVersions(versions: readonly Version[] | undefined): string {
  return list(versions, version);
}
