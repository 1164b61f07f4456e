/**
 * Go's `%#v` rendering of the apiserver's internal apiextensions values, so that field errors whose bad
 * value is a Go struct or typed slice (`spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{…}`)
 * read as the apiserver writes them.
 *
 * Go prints a non-nil pointer nested inside a struct as its address, which differs per apiserver
 * process; kubekit prints the fixed placeholder `0xc000000000` there.
 */
import { FieldError, goFormatFloat, goQuote } from '@kubekit/core';
import type { FieldErrorType, FieldPathLike } from '@kubekit/core';
import type { ColumnDef, Rule, Schema, Version } from './model.js';

/** The address printed for non-nil pointers nested in a struct. */
const placeholderAddress = '0xc000000000';

/** A field error whose bad value is printed from a precomputed Go `%#v` text. */
export class GoValueFieldError extends FieldError {
  /** The Go `%#v` text of the bad value. */
  readonly goText: string;

  constructor(type: FieldErrorType, field: FieldPathLike, badValue: unknown, goText: string, detail: string) {
    super(type, field, badValue, detail);
    this.goText = goText;
  }

  override body(): string {
    return this.detail.length > 0 ? `Invalid value: ${this.goText}: ${this.detail}` : `Invalid value: ${this.goText}`;
  }

  override withPrefix(prefix: string): FieldError {
    const field = this.field === '' ? prefix : this.field.startsWith('[') ? prefix + this.field : `${prefix}.${this.field}`;
    return new GoValueFieldError(this.type, field, this.badValue, this.goText, this.detail);
  }
}

/** `field.Invalid` with a bad value printed from `goText`. */
export function invalidGo(field: FieldPathLike, badValue: unknown, goText: string, detail: string): FieldError {
  return new GoValueFieldError('FieldValueInvalid', field, badValue, goText, detail);
}

/** `%#v` of a `[]string`. */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

/** `%#v` of a decoded JSON value held in an `interface{}` (int64 for integers, float64 otherwise). */
export function goJSON(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  switch (typeof value) {
    case 'string': return goQuote(value);
    case 'boolean': return value ? 'true' : 'false';
    case 'bigint': return value.toString();
    case 'number': return Number.isSafeInteger(value) ? String(value) : goFormatFloat(value);
    default: break;
  }
  if (Array.isArray(value)) return `[]interface {}{${value.map(goJSON).join(', ')}}`;
  if (typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${goQuote(k)}:${goJSON((value as Record<string, unknown>)[k])}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return String(value);
}

function ptr(type: string, present: boolean): string {
  return `(*${type})(${present ? placeholderAddress : 'nil'})`;
}

function float(v: number | undefined, type = 'float64'): string {
  return ptr(type, v !== undefined);
}

function structSlice<T>(type: string, values: readonly T[] | undefined, render: (v: T) => string): string {
  if (values === undefined) return `[]${type}(nil)`;
  return `[]${type}{${values.map(render).join(', ')}}`;
}

function schemaMap(type: string, values: ReadonlyMap<string, Schema> | undefined): string {
  if (values === undefined) return `${type}(nil)`;
  const keys = [...values.keys()].sort();
  return `${type}{${keys.map((k) => `${goQuote(k)}:${goSchema(values.get(k)!)}`).join(', ')}}`;
}

/** `%#v` of an internal `apiextensions.JSONSchemaProps`. */
export function goSchema(s: Schema): string {
  const fields: [string, string][] = [
    ['ID', goQuote(s.id)],
    ['Schema', goQuote(s.$schema)],
    ['Ref', ptr('string', s.ref !== undefined)],
    ['Description', goQuote(s.description)],
    ['Type', goQuote(s.type)],
    ['Nullable', String(s.nullable)],
    ['Format', goQuote(s.format)],
    ['Title', goQuote(s.title)],
    ['Default', ptr('apiextensions.JSON', s.default !== undefined)],
    ['Maximum', float(s.maximum)],
    ['ExclusiveMaximum', String(s.exclusiveMaximum)],
    ['Minimum', float(s.minimum)],
    ['ExclusiveMinimum', String(s.exclusiveMinimum)],
    ['MaxLength', float(s.maxLength, 'int64')],
    ['MinLength', float(s.minLength, 'int64')],
    ['Pattern', goQuote(s.pattern)],
    ['MaxItems', float(s.maxItems, 'int64')],
    ['MinItems', float(s.minItems, 'int64')],
    ['UniqueItems', String(s.uniqueItems)],
    ['MultipleOf', float(s.multipleOf)],
    ['Enum', s.enum === undefined ? '[]apiextensions.JSON(nil)' : `[]apiextensions.JSON{${s.enum.map(goJSON).join(', ')}}`],
    ['MaxProperties', float(s.maxProperties, 'int64')],
    ['MinProperties', float(s.minProperties, 'int64')],
    ['Required', goStringSlice(s.required)],
    ['Items', ptr('apiextensions.JSONSchemaPropsOrArray', s.items !== undefined)],
    ['AllOf', structSlice('apiextensions.JSONSchemaProps', s.allOf, goSchema)],
    ['OneOf', structSlice('apiextensions.JSONSchemaProps', s.oneOf, goSchema)],
    ['AnyOf', structSlice('apiextensions.JSONSchemaProps', s.anyOf, goSchema)],
    ['Not', ptr('apiextensions.JSONSchemaProps', s.not !== undefined)],
    ['Properties', schemaMap('map[string]apiextensions.JSONSchemaProps', s.properties)],
    ['AdditionalProperties', ptr('apiextensions.JSONSchemaPropsOrBool', s.additionalProperties !== undefined)],
    ['PatternProperties', schemaMap('map[string]apiextensions.JSONSchemaProps', s.patternProperties)],
    ['Dependencies', goDependencies(s.dependencies)],
    ['AdditionalItems', ptr('apiextensions.JSONSchemaPropsOrBool', s.additionalItems !== undefined)],
    ['Definitions', schemaMap('apiextensions.JSONSchemaDefinitions', s.definitions)],
    ['ExternalDocs', ptr('apiextensions.ExternalDocumentation', s.externalDocs !== undefined)],
    ['Example', ptr('apiextensions.JSON', s.example !== undefined)],
    ['XPreserveUnknownFields', ptr('bool', s.xPreserveUnknownFields !== undefined)],
    ['XEmbeddedResource', String(s.xEmbeddedResource)],
    ['XIntOrString', String(s.xIntOrString)],
    ['XListMapKeys', goStringSlice(s.xListMapKeys)],
    ['XListType', ptr('string', s.xListType !== undefined)],
    ['XMapType', ptr('string', s.xMapType !== undefined)],
    ['XValidations', s.xValidations === undefined ? 'apiextensions.ValidationRules(nil)' : `apiextensions.ValidationRules{${s.xValidations.map(goValidationRule).join(', ')}}`],
  ];
  return `apiextensions.JSONSchemaProps{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

function goDependencies(deps: Schema['dependencies']): string {
  if (deps === undefined) return 'apiextensions.JSONSchemaDependencies(nil)';
  const entries = [...deps.keys()].sort().map((k) => {
    const d = deps.get(k)!;
    return `${goQuote(k)}:apiextensions.JSONSchemaPropsOrStringArray{Schema:${ptr('apiextensions.JSONSchemaProps', d.schema !== undefined)}, Property:${goStringSlice(d.property)}}`;
  });
  return `apiextensions.JSONSchemaDependencies{${entries.join(', ')}}`;
}

function goValidationRule(r: Rule): string {
  return `apiextensions.ValidationRule{Rule:${goQuote(r.rule)}, Message:${goQuote(r.message)}, MessageExpression:${goQuote(r.messageExpression)}, ` +
    `Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, FieldPath:${goQuote(r.fieldPath)}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf !== undefined)}}`;
}

/** `%#v` of an `apiextensions.JSONSchemaPropsOrArray` (the value behind the `items` pointer). */
export function goItems(items: NonNullable<Schema['items']>): string {
  return `apiextensions.JSONSchemaPropsOrArray{Schema:${ptr('apiextensions.JSONSchemaProps', items.schema !== undefined)}, ` +
    `JSONSchemas:${structSlice('apiextensions.JSONSchemaProps', items.schemas, goSchema)}}`;
}

function goColumn(c: ColumnDef): string {
  return `apiextensions.CustomResourceColumnDefinition{Name:${goQuote(c.name)}, Type:${goQuote(c.type)}, Format:${goQuote(c.format)}, ` +
    `Description:${goQuote(c.description)}, Priority:${c.priority}, JSONPath:${goQuote(c.jsonPath)}}`;
}

function goVersion(v: Version): string {
  return `apiextensions.CustomResourceDefinitionVersion{Name:${goQuote(v.name)}, Served:${v.served}, Storage:${v.storage}, ` +
    `Deprecated:${v.deprecated}, DeprecationWarning:${ptr('string', v.deprecationWarning !== undefined)}, ` +
    `Schema:${ptr('apiextensions.CustomResourceValidation', v.schema !== undefined)}, ` +
    `Subresources:${ptr('apiextensions.CustomResourceSubresources', v.subresources !== undefined)}, ` +
    `AdditionalPrinterColumns:${structSlice('apiextensions.CustomResourceColumnDefinition', v.additionalPrinterColumns, goColumn)}, ` +
    `SelectableFields:${structSlice('apiextensions.SelectableField', v.selectableFields, (f) => `apiextensions.SelectableField{JSONPath:${goQuote(f.jsonPath)}}`)}}`;
}

/** `%#v` of the internal `[]apiextensions.CustomResourceDefinitionVersion`. */
export function goVersions(versions: readonly Version[] | undefined): string {
  return structSlice('apiextensions.CustomResourceDefinitionVersion', versions, goVersion);
}
