/**
 * `@kubekit/crd` owns the apiextensions.k8s.io/v1 types and every check the apiserver applies to a
 * CustomResourceDefinition and to custom resources.
 *
 * @packageDocumentation
 */

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
