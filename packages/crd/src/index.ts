/**
 * `@kubekit/crd` owns the apiextensions.k8s.io/v1 types and every check the apiserver applies to a
 * CustomResourceDefinition and to custom resources.
 *
 * Start with {@link validateCustomResourceDefinition} (what `kubectl apply` of a CRD would say),
 * {@link validateStructuralSchema} (one version's schema), {@link validateCustomResource} (what the
 * apiserver says about an object of a CRD) and {@link openAPIV3Schema} (what it publishes). Schemas
 * are handled as plain {@link JSONSchemaProps} objects throughout: there is no separate "structural
 * schema" type, and {@link resolveFieldPath} answers what lies at a path of one.
 *
 * @packageDocumentation
 */

export { evaluateJSONPath, parseJSONPath } from './jsonPath.js';
export { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './validateCustomResourceDefinition.js';
export { validateStructuralSchema } from './structuralSchema.js';
export { maxSelectableFields, validateSelectableFields } from './selectableFields.js';
export { validateCustomResourceColumnDefinition } from './printerColumns.js';
export { validateCustomResourceSubresources } from './subresources.js';
export { validateCustomResourceDefinitionNames } from './names.js';
export { resolveFieldPath, validateSimpleJSONPath } from './simpleJsonPath.js';
export { validateCustomResource } from './validateCustomResource.js';
export { validateValue } from './validateValue.js';
export { definitionName, openAPIV3Schema } from './openAPIV3Schema.js';
export { effectiveFormat, isKnownFormat, normalizeFormatName, supportedStringFormats, unrecognizedFormats, validatesFormat } from './formats.js';
export { createValidationRulesCompiler } from './validationRules/compileRules.js';
export { schemaHasValidationRules, validateCustomResourceRules } from './validationRules/evaluateRules.js';
export { perCallLimit, runtimeCELCostBudget, staticEstimatedCRDCostLimit, staticEstimatedCostLimit } from '@kubekit/cel';

export type { JSONPathStep } from './jsonPath.js';
export type { ValidateCustomResourceDefinitionOptions } from './validateCustomResourceDefinition.js';
export type { ValidateStructuralSchemaOptions } from './structuralSchema.js';
export type { ValidateSelectableFieldsOptions } from './selectableFields.js';
export type { FieldPathResolution, ResolveFieldPathOptions } from './simpleJsonPath.js';
export type { CustomResourceCELValidator, ValidateCustomResourceOptions } from './validateCustomResource.js';
export type { ValidateValueOptions } from './validateValue.js';
export type { OpenAPIV3Document } from './openAPIV3Schema.js';
export type { ValidationRulesCompiler } from './validationRules/compileRules.js';
export type { ValidateRulesOptions } from './validationRules/evaluateRules.js';
export type {
  CustomResourceColumnDefinition,
  CustomResourceConversion,
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  CustomResourceSubresourceScale,
  CustomResourceSubresources,
  CustomResourceValidation,
  JSONSchemaProps,
  JSONSchemaType,
  JSONValue,
  PrinterColumnType,
  ResourceScope,
  SelectableField,
  ValidationRule,
  WebhookClientConfig,
} from './types.js';
