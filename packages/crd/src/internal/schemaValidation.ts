/**
 * apiextensions-apiserver's `validateCustomResourceDefinitionValidation` for one `openAPIV3Schema`: the
 * status-subresource root restrictions, `nullable` at the root, the structural rules, the defaults, and
 * the keyword rules, combined in upstream's order (structural-conversion errors are shown only when
 * nothing else is wrong).
 */
import { FieldError, FieldPath, forbidden, invalid } from '@kubekit/core';
import { validateDefaults, type ValueValidator } from './defaults.js';
import { jsonSchema, invalidJSON } from './goJSON.js';
import type { Schema } from './model.js';
import { validateOpenAPISchema, type ValidationRulesCompiler } from './openAPISchema.js';
import { newStructuralError, validateStructural, type StructuralOptions } from './structural.js';

/** What one schema's validation requires; all true on create, ratcheted on update. */
export interface SchemaValidationOptions {
  statusEnabled: boolean;
  allowDefaults: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireValidPropertyType: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
  structural?: StructuralOptions;
  validateValue: ValueValidator;
  compileValidationRules?: ValidationRulesCompiler;
}

const allowedFieldsAtRootSchema = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum',
  'ExclusiveMinimum', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required',
  'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

/** The non-zero fields of the internal `JSONSchemaProps`, in its declaration order. */
function nonZeroFields(s: Schema): string[] {
  const fields: [string, boolean][] = [
    ['ID', s.id !== ''], ['Schema', s.$schema !== ''], ['Ref', s.ref !== undefined], ['Description', s.description !== ''],
    ['Type', s.type !== ''], ['Nullable', s.nullable], ['Format', s.format !== ''], ['Title', s.title !== ''],
    ['Default', s.default !== undefined], ['Maximum', s.maximum !== undefined], ['ExclusiveMaximum', s.exclusiveMaximum],
    ['Minimum', s.minimum !== undefined], ['ExclusiveMinimum', s.exclusiveMinimum], ['MaxLength', s.maxLength !== undefined],
    ['MinLength', s.minLength !== undefined], ['Pattern', s.pattern !== ''], ['MaxItems', s.maxItems !== undefined],
    ['MinItems', s.minItems !== undefined], ['UniqueItems', s.uniqueItems], ['MultipleOf', s.multipleOf !== undefined],
    ['Enum', s.enum !== undefined], ['MaxProperties', s.maxProperties !== undefined], ['MinProperties', s.minProperties !== undefined],
    ['Required', s.required !== undefined], ['Items', s.items !== undefined], ['AllOf', s.allOf !== undefined],
    ['OneOf', s.oneOf !== undefined], ['AnyOf', s.anyOf !== undefined], ['Not', s.not !== undefined],
    ['Properties', s.properties !== undefined], ['AdditionalProperties', s.additionalProperties !== undefined],
    ['PatternProperties', s.patternProperties !== undefined], ['Dependencies', s.dependencies !== undefined],
    ['AdditionalItems', s.additionalItems !== undefined], ['Definitions', s.definitions !== undefined],
    ['ExternalDocs', s.externalDocs !== undefined], ['Example', s.example !== undefined],
    ['XPreserveUnknownFields', s.xPreserveUnknownFields !== undefined], ['XEmbeddedResource', s.xEmbeddedResource],
    ['XIntOrString', s.xIntOrString], ['XListMapKeys', s.xListMapKeys !== undefined], ['XListType', s.xListType !== undefined],
    ['XMapType', s.xMapType !== undefined], ['XValidations', s.xValidations !== undefined],
  ];
  return fields.filter(([, set]) => set).map(([name]) => name);
}

function statusRootErrors(s: Schema, path: FieldPath): FieldError[] {
  for (const name of nonZeroFields(s)) {
    if (name === 'Type') {
      if (s.type !== 'object') {
        return [invalid(path.child('type'), s.type,
          'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      }
      continue;
    }
    if (!allowedFieldsAtRootSchema.includes(name)) {
      return [invalidJSON(path, s.raw, jsonSchema(s),
        `only [${allowedFieldsAtRootSchema.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** Validates `schema`, a CRD's `openAPIV3Schema` at `path` (`spec.versions[i].schema.openAPIV3Schema`). */
export function validateSchema(schema: Schema, path: FieldPath, opts: SchemaValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.statusEnabled) errs.push(...statusRootErrors(schema, path));
  if (schema.nullable) errs.push(forbidden(path.child('nullable'), 'nullable cannot be true at the root'));

  const initErrs: FieldError[] = [];
  let celEnabled = false;
  if (opts.requireStructuralSchema) {
    const convertError = newStructuralError(schema);
    if (convertError !== undefined) {
      initErrs.push(invalid(path, '', convertError));
    } else {
      const structuralErrs = validateStructural(schema, path, opts.structural);
      if (structuralErrs.length > 0) {
        errs.push(...structuralErrs);
      } else {
        const defaultErrs = validateDefaults(schema, path, opts.requirePrunedDefaults, opts.validateValue);
        errs.push(...defaultErrs);
        // Upstream builds its CEL context only for a structural schema with valid defaults.
        celEnabled = defaultErrs.length === 0;
      }
    }
  }
  errs.push(...validateOpenAPISchema(schema, path, {
    requireValidPropertyType: opts.requireValidPropertyType,
    requireAtomicSetType: opts.requireAtomicSetType,
    requireMapListKeysMapSetValidation: opts.requireMapListKeysMapSetValidation,
    allowDefaults: opts.allowDefaults,
    compileValidationRules: opts.compileValidationRules,
  }, celEnabled));
  if (errs.length === 0) errs.push(...initErrs);
  return errs;
}
