/**
 * The keyword rules apiextensions-apiserver applies to every node of a CRD schema
 * (`ValidateCustomResourceDefinitionOpenAPISchema` and `specStandardValidatorV3` in
 * `pkg/apis/apiextensions/validation/validation.go`): forbidden keywords, `uniqueItems`,
 * `additionalProperties` vs `properties`, the list/map type extensions and the static checks of
 * `x-kubernetes-validations`. Compiling the CEL rules is not done here (see the CEL issue).
 */
import { FieldError, FieldPath, forbidden, invalid, notSupported, required, trimSpace } from '@kubekit/core';
import { invalidJSON, jsonItems, jsonStringSlice, jsonValue } from './goJSON.js';
import type { JSONSchemaProps } from '../types.js';
import type { Schema } from './model.js';
import { newStructuralError } from './structural.js';
import { validFieldPath } from './validFieldPath.js';

/** The valid `type` values. */
const openAPIV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const supportedValidationReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/**
 * Compiles the `x-kubernetes-validations` of one schema node (`schema` is that node, at `fieldPath`) and
 * returns the problems, as the apiserver's CEL compilation step does.
 */
export type ValidationRulesCompiler = (schema: JSONSchemaProps, fieldPath: string) => FieldError[];

/** The ratcheted requirements (all true on create), and the CEL hook. */
export interface OpenAPISchemaOptions {
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  allowDefaults: boolean;
  /** Called for nodes with rules where CEL is compiled (structural schema, no errors in the subtree). */
  compileValidationRules?: ValidationRulesCompiler;
}

interface Context {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

/**
 * Validates the schema tree rooted at `schema` (the CRD's `openAPIV3Schema`). Rules are compiled only
 * when `celEnabled` (the schema is structural with valid defaults), as upstream's CEL context is.
 */
export function validateOpenAPISchema(schema: Schema, path: FieldPath, opts: OpenAPISchemaOptions, celEnabled = false): FieldError[] {
  const errs: FieldError[] = [];
  const celErrs: FieldError[] = [];
  walk(schema, path, { allowDefaults: opts.allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false }, true, opts, errs,
    celEnabled && opts.compileValidationRules !== undefined ? celErrs : undefined);
  // Upstream lists schema errors first, then CEL errors.
  return [...errs, ...celErrs];
}

function withForbiddenDefaults(ctx: Context, reason: string): Context {
  return { ...ctx, allowDefaults: false, disallowDefaultsReason: reason };
}

function keywordChecks(s: Schema, path: FieldPath, ctx: Context, opts: OpenAPISchemaOptions, errs: FieldError[]): void {
  if (opts.requireValidPropertyType && s.type.length > 0 && !openAPIV3Types.includes(s.type)) {
    errs.push(notSupported(path.child('type'), s.type, openAPIV3Types));
  }
  if (s.default !== undefined && !ctx.allowDefaults) {
    errs.push(forbidden(path.child('default'), ctx.disallowDefaultsReason.length > 0 ? `must not be set ${ctx.disallowDefaultsReason}` : 'must not be set'));
  }
  if (s.id !== '') errs.push(forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errs.push(forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (s.patternProperties !== undefined && s.patternProperties.size > 0) errs.push(forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (s.definitions !== undefined && s.definitions.size > 0) errs.push(forbidden(path.child('definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errs.push(forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.ref !== undefined) errs.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (s.type === 'null') errs.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (s.items?.schemas !== undefined && s.items.schemas.length > 0) errs.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && s.xEmbeddedResource) {
    errs.push(forbidden(path.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
}

function walk(s: Schema, path: FieldPath, ctx: Context, isRoot: boolean, opts: OpenAPISchemaOptions, errs: FieldError[],
  celErrs?: FieldError[]): void {
  const before = errs.length;
  keywordChecks(s, path, ctx, opts, errs);

  if (s.uniqueItems) {
    errs.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  }

  // additionalProperties and properties are mutually exclusive: properties are for structs,
  // additionalProperties for maps (Kubernetes' convention of ignoring unknown fields).
  if (s.additionalProperties !== undefined) {
    if (s.properties !== undefined && s.properties.size > 0 && (!s.additionalProperties.allows || s.additionalProperties.schema !== undefined)) {
      errs.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? withForbiddenDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    if (s.additionalProperties.schema !== undefined) walk(s.additionalProperties.schema, path.child('additionalProperties'), sub, false, opts, errs, celErrs);
  }

  if (s.properties !== undefined) {
    for (const [property, p] of s.properties) {
      let sub = ctx;
      if ((isRoot || s.xEmbeddedResource) && metaFields.has(property)) {
        sub = { ...sub, insideResourceMeta: true };
        if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${property}`);
      }
      walk(p, path.child('properties').key(property), sub, false, opts, errs, celErrs);
    }
  }

  if (s.not !== undefined) walk(s.not, path.child('not'), ctx, false, opts, errs);
  s.allOf?.forEach((x, i) => walk(x, path.child('allOf').index(i), ctx, false, opts, errs));
  s.oneOf?.forEach((x, i) => walk(x, path.child('oneOf').index(i), ctx, false, opts, errs));
  s.anyOf?.forEach((x, i) => walk(x, path.child('anyOf').index(i), ctx, false, opts, errs));
  for (const [name, d] of s.definitions ?? []) walk(d, path.child('definitions').key(name), ctx, false, opts, errs);
  if (s.items !== undefined) {
    if (s.items.schema !== undefined) walk(s.items.schema, path.child('items'), ctx, false, opts, errs, celErrs);
    s.items.schemas?.forEach((x, i) => walk(x, path.child('items').index(i), ctx, false, opts, errs, celErrs));
  }
  for (const [name, d] of s.dependencies ?? []) {
    if (d.schema !== undefined) walk(d.schema, path.child('dependencies').key(name), ctx, false, opts, errs);
  }

  if (s.xPreserveUnknownFields === false) {
    errs.push(invalid(path.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }

  listAndMapTypes(s, path, opts, errs);
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(s, path));
  if (s.xValidations !== undefined && s.xValidations.length > 0) {
    validationRules(s, path, errs);
    // CEL is compiled only where this node and everything below it has no schema errors.
    if (celErrs !== undefined && errs.length === before) celErrs.push(...opts.compileValidationRules!(s.raw, path.toString()));
  }
}

function listAndMapTypes(s: Schema, path: FieldPath, opts: OpenAPISchemaOptions, errs: FieldError[]): void {
  if (s.xMapType !== undefined && s.type !== 'object') {
    if (s.type.length === 0) errs.push(required(path.child('type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(path.child('type'), s.type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (s.xMapType !== undefined && s.xMapType !== 'atomic' && s.xMapType !== 'granular') {
    errs.push(notSupported(path.child('x-kubernetes-map-type'), s.xMapType, ['atomic', 'granular']));
  }

  const item = s.items?.schema;
  if (s.xListType !== undefined && s.type !== 'array') {
    if (s.type.length === 0) errs.push(required(path.child('type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(path.child('type'), s.type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && s.xListType === 'set' && item !== undefined) {
    if (item.type === 'array' && item.xListType !== undefined && item.xListType !== 'atomic') {
      errs.push(invalidJSON(path.child('items').child('x-kubernetes-list-type'), item.xListType, jsonValue(item.xListType),
        'must be atomic as item of a list with x-kubernetes-list-type=set'));
    } else if (item.type === 'object' && item.xMapType !== 'atomic') {
      // Upstream reports the item's list type as the bad value here.
      errs.push(invalid(path.child('items').child('x-kubernetes-map-type'), item.xListType ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (s.xListType !== undefined && s.xListType !== 'atomic' && s.xListType !== 'set' && s.xListType !== 'map') {
    errs.push(notSupported(path.child('x-kubernetes-list-type'), s.xListType, ['atomic', 'set', 'map']));
  }

  if (s.xListMapKeys !== undefined && s.xListMapKeys.length > 0) {
    if (s.xListType === undefined) {
      errs.push(required(path.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    } else if (s.xListType !== 'map') {
      errs.push(invalid(path.child('x-kubernetes-list-type'), s.xListType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    }
  }

  if (s.xListType === 'map') {
    if (s.xListMapKeys === undefined || s.xListMapKeys.length === 0) {
      errs.push(required(path.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    }
    if (s.items === undefined) errs.push(required(path.child('items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (s.items !== undefined && item === undefined) {
      errs.push(invalidJSON(path.child('items'), s.raw.items, jsonItems(s.items), 'must only have a single schema if x-kubernetes-list-type is map'));
    }
    if (item !== undefined && item.type !== 'object') {
      errs.push(invalid(path.child('items').child('type'), item.type, "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (item !== undefined && item.type === 'object') {
      const seen = new Set<string>();
      for (const k of s.xListMapKeys ?? []) {
        const keySchema = item.properties?.get(k);
        if (keySchema !== undefined) {
          if (keySchema.type === 'array' || keySchema.type === 'object') {
            errs.push(invalid(path.child('items').child('properties').key(k).child('type'), item.type,
              "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalidJSON(path.child('x-kubernetes-list-map-keys'), s.xListMapKeys, jsonStringSlice(s.xListMapKeys),
            'entries must all be names of item properties'));
        }
        if (seen.has(k)) {
          errs.push(invalidJSON(path.child('x-kubernetes-list-map-keys'), s.xListMapKeys, jsonStringSlice(s.xListMapKeys),
            'must not contain duplicate entries'));
        }
        seen.add(k);
      }
    }
  }
}

/** `validateMapListKeysMapSet`: set/map list items and map keys must not be nullable; keys required or defaulted. */
export function validateMapListKeysMapSet(s: Schema, path: FieldPath): FieldError[] {
  const item = s.items?.schema;
  if (item === undefined || s.xListType === undefined) return [];
  if (s.xListType !== 'set' && s.xListType !== 'map') return [];
  const errs: FieldError[] = [];
  if (item.nullable) errs.push(forbidden(path.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${s.xListType}`));
  if (s.xListType === 'map') {
    const isRequired = new Set(item.required ?? []);
    for (const k of s.xListMapKeys ?? []) {
      const obj = item.properties?.get(k);
      if (obj === undefined) continue;
      if (!isRequired.has(k) && obj.default === undefined) {
        errs.push(required(path.child('items').child('properties').key(k).child('default'),
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (obj.nullable) {
        errs.push(forbidden(path.child('items').child('properties').key(k).child('nullable'),
          'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
      }
    }
  }
  return errs;
}

const newlines = /[\n\r]+/;

function validationRules(s: Schema, path: FieldPath, errs: FieldError[]): void {
  s.xValidations?.forEach((rule, i) => {
    const p = path.child('x-kubernetes-validations').index(i);
    const trimmedRule = trimSpace(rule.rule);
    const trimmedMsg = trimSpace(rule.message);
    const trimmedMsgExpr = trimSpace(rule.messageExpression);
    if (trimmedRule.length === 0) {
      errs.push(required(p.child('rule'), 'rule is not specified'));
    } else if (rule.message.length > 0 && trimmedMsg.length === 0) {
      errs.push(invalid(p.child('message'), rule.message, 'must be non-empty if specified'));
    } else if (newlines.test(trimmedMsg)) {
      errs.push(invalid(p.child('message'), rule.message, 'must not contain line breaks'));
    } else if (newlines.test(trimmedRule) && trimmedMsg.length === 0) {
      errs.push(required(p.child('message'), 'message must be specified if rule contains line breaks'));
    }
    if (rule.messageExpression.length > 0 && trimmedMsgExpr.length === 0) {
      errs.push(required(p.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !supportedValidationReasons.includes(rule.reason)) {
      errs.push(notSupported(p.child('reason'), rule.reason, supportedValidationReasons));
    }
    const trimmedFieldPath = trimSpace(rule.fieldPath);
    if (rule.fieldPath.length > 0 && trimmedFieldPath.length === 0) {
      errs.push(invalid(p.child('fieldPath'), rule.fieldPath, 'must be non-empty if specified'));
    }
    if (newlines.test(rule.fieldPath)) errs.push(invalid(p.child('fieldPath'), rule.fieldPath, 'must not contain line breaks'));
    if (rule.fieldPath.length > 0 && !pathValid(s, rule.fieldPath)) {
      errs.push(invalid(p.child('fieldPath'), rule.fieldPath, 'must be a valid path'));
    }
  });
}

function pathValid(s: Schema, fieldPath: string): boolean {
  if (newStructuralError(s) !== undefined) return true;
  return validFieldPath(fieldPath, s, true).ok;
}
