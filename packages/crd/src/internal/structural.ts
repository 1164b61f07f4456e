/**
 * The structural-schema rules of apiextensions-apiserver's `pkg/apiserver/schema`: `NewStructural`'s
 * refusals (`convert.go`), `ValidateStructural`'s invariants (`validation.go`) and completeness
 * (`complete.go`). The decoded {@link Schema} stands in for both `Structural` (the nodes reachable
 * through `properties`, `items` and `additionalProperties`) and `NestedValueValidation` (the nodes under
 * `allOf`/`anyOf`/`oneOf`/`not`); the helpers below apply Go's conversion rules where they differ.
 */
import { FieldError, FieldPath, forbidden, invalid, required } from '@kubekit/core';
import { RE2JS } from '@bufbuild/re2';
import type { Schema } from './model.js';

/** Options of `ValidateStructuralWithOptions`; CRD validation uses all-false. */
export interface StructuralOptions {
  allowNestedAdditionalProperties?: boolean;
  allowNestedXValidations?: boolean;
  allowValidationPropertiesWithAdditionalProperties?: boolean;
}

type Level = 'root' | 'item' | 'field';

/** `Structural.Properties`: set only when non-empty. */
export function structuralProperties(s: Schema): Map<string, Schema> | undefined {
  return s.properties !== undefined && s.properties.size > 0 ? s.properties : undefined;
}

/** `Structural.Items`: the single item schema. */
export function structuralItems(s: Schema): Schema | undefined {
  return s.items?.schema;
}

function unsupportedField(s: Schema): string | undefined {
  if (s.id.length > 0) return "OpenAPIV3Schema 'id' is not supported";
  if (s.$schema.length > 0) return "OpenAPIV3Schema 'schema' is not supported";
  if (s.ref !== undefined && s.ref.length > 0) return "OpenAPIV3Schema '$ref' is not supported";
  if (s.patternProperties !== undefined && s.patternProperties.size > 0) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (s.dependencies !== undefined && s.dependencies.size > 0) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (s.definitions !== undefined && s.definitions.size > 0) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

function valueValidationError(s: Schema): string | undefined {
  for (const j of [s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    if (j === undefined) continue;
    const e = nestedError(j);
    if (e !== undefined) return e;
  }
  return undefined;
}

function extensionsError(s: Schema): string | undefined {
  if (s.xPreserveUnknownFields === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  return undefined;
}

function nestedError(s: Schema): string | undefined {
  const e = unsupportedField(s) ?? valueValidationError(s) ?? extensionsError(s);
  if (e !== undefined) return e;
  if (s.items !== undefined) {
    if (s.items.schemas !== undefined && s.items.schemas.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
    if (s.items.schema !== undefined) {
      const ie = nestedError(s.items.schema);
      if (ie !== undefined) return ie;
    }
  }
  for (const p of s.properties?.values() ?? []) {
    const pe = nestedError(p);
    if (pe !== undefined) return pe;
  }
  if (s.additionalProperties?.schema !== undefined) return nestedError(s.additionalProperties.schema);
  return undefined;
}

/** Why `NewStructural` refuses `s`, or undefined when it converts. */
export function newStructuralError(s: Schema): string | undefined {
  const e = unsupportedField(s) ?? valueValidationError(s) ?? extensionsError(s);
  if (e !== undefined) return e;
  if (s.items !== undefined) {
    if (s.items.schemas !== undefined && s.items.schemas.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
    if (s.items.schema !== undefined) {
      const ie = newStructuralError(s.items.schema);
      if (ie !== undefined) return ie;
    }
  }
  for (const p of s.properties?.values() ?? []) {
    const pe = newStructuralError(p);
    if (pe !== undefined) return pe;
  }
  if (s.additionalProperties?.schema !== undefined) return newStructuralError(s.additionalProperties.schema);
  return undefined;
}

const patternCache = new Map<string, string | null>();

/** Go's `regexp.Compile(pattern)` error text, or undefined when the pattern compiles. */
export function regexpCompileError(pattern: string): string | undefined {
  const cached = patternCache.get(pattern);
  if (cached !== undefined) return cached ?? undefined;
  let error: string | null = null;
  try {
    RE2JS.compile(pattern);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  if (patternCache.size >= 1000) patternCache.clear();
  patternCache.set(pattern, error);
  return error ?? undefined;
}

/** Whether `s` converted to a `NestedValueValidation` equals `{ForbiddenGenerics: {Type: type}}` (Go's `reflect.DeepEqual`). */
function isBareType(s: Schema, type: string): boolean {
  return s.type === type && s.id === '' && s.$schema === '' && s.ref === undefined && s.description === '' && !s.nullable &&
    s.format === '' && s.title === '' && s.default === undefined && s.maximum === undefined && !s.exclusiveMaximum &&
    s.minimum === undefined && !s.exclusiveMinimum && s.maxLength === undefined && s.minLength === undefined && s.pattern === '' &&
    s.maxItems === undefined && s.minItems === undefined && !s.uniqueItems && s.multipleOf === undefined &&
    (s.enum === undefined || s.enum.length === 0) && s.maxProperties === undefined && s.minProperties === undefined &&
    s.required === undefined && s.items?.schema === undefined && (s.allOf === undefined || s.allOf.length === 0) &&
    (s.oneOf === undefined || s.oneOf.length === 0) && (s.anyOf === undefined || s.anyOf.length === 0) && s.not === undefined &&
    s.properties === undefined && (s.additionalProperties === undefined || (!s.additionalProperties.allows && s.additionalProperties.schema === undefined)) &&
    s.externalDocs === undefined && s.example === undefined && s.xPreserveUnknownFields !== true && !s.xEmbeddedResource &&
    !s.xIntOrString && s.xListMapKeys === undefined && s.xListType === undefined && s.xMapType === undefined && s.xValidations === undefined;
}

function isIntOrStringAnyOf(anyOf: Schema[] | undefined): boolean {
  return anyOf !== undefined && anyOf.length === 2 && isBareType(anyOf[0], 'integer') && isBareType(anyOf[1], 'string');
}

/** The `anyOf: [{type: integer}, {type: string}]` exception. */
export function isIntOrStringAnyOfPattern(s: Schema): boolean {
  return isIntOrStringAnyOf(s.anyOf);
}

/** The `allOf: [{anyOf: [{type: integer}, {type: string}]}, …]` exception. */
export function isIntOrStringAllOfPattern(s: Schema): boolean {
  return s.allOf !== undefined && s.allOf.length >= 1 && isIntOrStringAnyOf(s.allOf[0].anyOf);
}

/** `ValidateStructuralWithOptions`: invariants and completeness, sorted by message as upstream does. */
export function validateStructural(s: Schema, path: FieldPath, opts: StructuralOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  invariants(s, 'root', path, opts, errs);
  completenessOfValueValidation(s, s, path, path, opts, errs);
  const keyed = errs.map((e) => [e.toString(), e] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, e]) => e);
}

function invariants(s: Schema, lvl: Level, path: FieldPath, opts: StructuralOptions, errs: FieldError[]): void {
  const items = structuralItems(s);
  const properties = structuralProperties(s);
  if (s.type === 'array' && items === undefined) errs.push(required(path.child('items'), 'must be specified'));
  if (items !== undefined) invariants(items, 'item', path.child('items'), opts, errs);
  for (const [k, v] of properties ?? []) invariants(v, 'field', path.child('properties').key(k), opts, errs);
  if (s.additionalProperties !== undefined) {
    if (lvl === 'root') errs.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.schema !== undefined) invariants(s.additionalProperties.schema, 'field', path.child('additionalProperties'), opts, errs);
  }

  const preserve = s.xPreserveUnknownFields === true;
  if (s.xIntOrString && preserve) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (s.xIntOrString && s.xEmbeddedResource) {
    errs.push(invalid(path.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  }

  valueValidation(s, isIntOrStringAnyOfPattern(s), isIntOrStringAllOfPattern(s), lvl, path, opts, errs);

  const checkMetadata = lvl === 'root' || s.xEmbeddedResource;
  if (s.xEmbeddedResource && s.type !== 'object') {
    if (s.type.length === 0) errs.push(required(path.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(path.child('type'), s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (s.type.length === 0 && !s.xIntOrString && !preserve) {
    const detail = lvl === 'root' ? 'must not be empty at the root'
      : lvl === 'item' ? 'must not be empty for specified array items' : 'must not be empty for specified object fields';
    errs.push(required(path.child('type'), detail));
  }
  if (s.xEmbeddedResource && s.additionalProperties !== undefined) {
    errs.push(forbidden(path.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && s.type.length > 0 && s.type !== 'object') {
    errs.push(invalid(path.child('type'), s.type, 'must be object at the root'));
  }
  const kind = properties?.get('kind');
  if (kind !== undefined && checkMetadata && kind.type !== 'string') {
    errs.push(invalid(path.child('properties').key('kind').child('type'), kind.type, 'must be string'));
  }
  const apiVersion = properties?.get('apiVersion');
  if (apiVersion !== undefined && checkMetadata && apiVersion.type !== 'string') {
    errs.push(invalid(path.child('properties').key('apiVersion').child('type'), apiVersion.type, 'must be string'));
  }
  const metadata = properties?.get('metadata');
  if (metadata !== undefined) metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata'), errs);
  if (s.xEmbeddedResource && !preserve && properties === undefined) {
    errs.push(required(path.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** Whether the root `metadata` schema restricts only `name` and/or `generateName`. */
function onlyNameAndGenerateName(s: Schema): boolean {
  const props = structuralProperties(s);
  let propsLeft = props !== undefined;
  if (props !== undefined) {
    const hasName = props.has('name');
    const hasGenerateName = props.has('generateName');
    if ((hasName && hasGenerateName && props.size === 2) || ((hasName || hasGenerateName) && props.size === 1)) propsLeft = false;
  }
  // Everything else of the Structural (type and default cleared) must be zero; ValueValidation is an
  // empty struct, so its fields must be zero too (an empty `required`/list-map-keys slice is not nil).
  return !propsLeft && structuralItems(s) === undefined && s.additionalProperties === undefined && s.description === '' &&
    s.title === '' && !s.nullable && s.externalDocs === undefined && s.example === undefined && s.xPreserveUnknownFields !== true &&
    !s.xEmbeddedResource && !s.xIntOrString && s.xListMapKeys === undefined && s.xListType === undefined && s.xMapType === undefined &&
    s.xValidations === undefined && s.format === '' && s.maximum === undefined && !s.exclusiveMaximum && s.minimum === undefined &&
    !s.exclusiveMinimum && s.maxLength === undefined && s.minLength === undefined && s.pattern === '' && s.maxItems === undefined &&
    s.minItems === undefined && !s.uniqueItems && s.multipleOf === undefined && (s.enum === undefined || s.enum.length === 0) &&
    s.maxProperties === undefined && s.minProperties === undefined && s.required === undefined &&
    (s.allOf === undefined || s.allOf.length === 0) && (s.oneOf === undefined || s.oneOf.length === 0) &&
    (s.anyOf === undefined || s.anyOf.length === 0) && s.not === undefined;
}

function metadataInvariants(s: Schema, checkMetadata: boolean, lvl: Level, path: FieldPath, errs: FieldError[]): void {
  if (checkMetadata && s.type !== 'object') errs.push(invalid(path.child('type'), s.type, 'must be object'));
  if (lvl === 'root' && !onlyNameAndGenerateName(s)) {
    errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

function valueValidation(v: Schema, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: FieldPath,
  opts: StructuralOptions, errs: FieldError[]): void {
  const noCEL = { ...opts, allowNestedXValidations: false };
  if (!skipAnyOf) v.anyOf?.forEach((x, i) => nested(x, false, false, lvl, path.child('anyOf').index(i), noCEL, errs));
  v.allOf?.forEach((x, i) => nested(x, skipFirstAllOfAnyOf && i === 0, false, lvl, path.child('allOf').index(i), opts, errs));
  v.oneOf?.forEach((x, i) => nested(x, false, false, lvl, path.child('oneOf').index(i), noCEL, errs));
  if (v.not !== undefined) nested(v.not, false, false, lvl, path.child('not'), noCEL, errs);
  if (v.pattern.length > 0) {
    const e = regexpCompileError(v.pattern);
    if (e !== undefined) errs.push(invalid(path.child('pattern'), v.pattern, `must be a valid regular expression, but isn't: ${e}`));
  }
}

function nested(v: Schema, skipAnyOf: boolean, skipAllOfAnyOf: boolean, lvl: Level, path: FieldPath, opts: StructuralOptions, errs: FieldError[]): void {
  valueValidation(v, skipAnyOf, skipAllOfAnyOf, lvl, path, opts, errs);
  if (v.items?.schema !== undefined) nested(v.items.schema, false, false, lvl, path.child('items'), opts, errs);
  for (const [k, p] of v.properties ?? []) nested(p, false, false, 'field', path.child('properties').key(k), opts, errs);
  if (v.type.length > 0) errs.push(forbidden(path.child('type'), 'must be empty to be structural'));
  const ap = nestedAdditionalProperties(v);
  if (ap !== undefined && !opts.allowNestedAdditionalProperties) {
    errs.push(forbidden(path.child('additionalProperties'), 'must be undefined to be structural'));
  } else if (ap !== undefined && ap !== true) {
    nested(ap, false, false, lvl, path.child('additionalProperties'), opts, errs);
  }
  if (v.default !== undefined) errs.push(forbidden(path.child('default'), 'must be undefined to be structural'));
  if (v.title.length > 0) errs.push(forbidden(path.child('title'), 'must be empty to be structural'));
  if (v.description.length > 0) errs.push(forbidden(path.child('description'), 'must be empty to be structural'));
  if (v.nullable) errs.push(forbidden(path.child('nullable'), 'must be false to be structural'));
  if (v.xPreserveUnknownFields === true) errs.push(forbidden(path.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (v.xEmbeddedResource) errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (v.xIntOrString) errs.push(forbidden(path.child('x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (v.xListMapKeys !== undefined && v.xListMapKeys.length > 0) errs.push(forbidden(path.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (v.xListType !== undefined) errs.push(forbidden(path.child('x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (v.xMapType !== undefined) errs.push(forbidden(path.child('x-kubernetes-map-type'), 'must be undefined to be structural'));
  if (v.xValidations !== undefined && v.xValidations.length > 0 && !opts.allowNestedXValidations) {
    errs.push(forbidden(path.child('x-kubernetes-validations'), 'must be empty to be structural'));
  }
  if (v.properties?.has('metadata')) errs.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
}

/** `NestedValueValidation.AdditionalProperties`: a schema, `true` for `additionalProperties: true`, or undefined. */
function nestedAdditionalProperties(v: Schema): Schema | true | undefined {
  if (v.additionalProperties === undefined) return undefined;
  if (v.additionalProperties.schema !== undefined) return v.additionalProperties.schema;
  return v.additionalProperties.allows ? true : undefined;
}

function completenessOfValueValidation(v: Schema, s: Schema | undefined, sPath: FieldPath, vPath: FieldPath, opts: StructuralOptions,
  errs: FieldError[]): void {
  const junctors: [Schema, FieldPath][] = [];
  if (v.not !== undefined) junctors.push([v.not, vPath.child('not')]);
  v.allOf?.forEach((x, i) => junctors.push([x, vPath.child('allOf').index(i)]));
  v.anyOf?.forEach((x, i) => junctors.push([x, vPath.child('anyOf').index(i)]));
  v.oneOf?.forEach((x, i) => junctors.push([x, vPath.child('oneOf').index(i)]));
  if (junctors.length === 0) return;
  if (s === undefined) {
    errs.push(required(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  for (const [x, p] of junctors) completenessOfNested(x, s, sPath, p, opts, errs);
}

function completenessOfNested(v: Schema | true, s: Schema | undefined, sPath: FieldPath, vPath: FieldPath, opts: StructuralOptions,
  errs: FieldError[]): void {
  if (s === undefined) {
    errs.push(required(sPath, `because it is defined in ${vPath.toString()}`));
    return;
  }
  if (v === true) return;
  completenessOfValueValidation(v, s, sPath, vPath, opts, errs);
  if (v.items?.schema !== undefined) completenessOfNested(v.items.schema, structuralItems(s), sPath.child('items'), vPath.child('items'), opts, errs);
  const sAdditional = s.additionalProperties?.schema;
  const sProps = structuralProperties(s);
  for (const [k, vFld] of v.properties ?? []) {
    const sFld = sProps?.get(k);
    if (sFld === undefined) {
      if (sAdditional === undefined || !opts.allowValidationPropertiesWithAdditionalProperties) {
        errs.push(required(sPath.child('properties').key(k), `because it is defined in ${vPath.child('properties').key(k).toString()}`));
      } else {
        completenessOfNested(vFld, sAdditional, sPath.child('additionalProperties'), vPath.child('properties').key(k), opts, errs);
      }
    } else {
      completenessOfNested(vFld, sFld, sPath.child('properties').key(k), vPath.child('properties').key(k), opts, errs);
    }
  }
  const vAdditional = nestedAdditionalProperties(v);
  if (vAdditional !== undefined && opts.allowNestedAdditionalProperties) {
    completenessOfNested(vAdditional, sAdditional, sPath.child('additionalProperties'), vPath.child('additionalProperties'), opts, errs);
  }
}
