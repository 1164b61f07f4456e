/**
 * The apiextensions.k8s.io/v1 types, in their JSON form.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/extend-resources/custom-resource-definition-v1/
 */
import type { ObjectMeta } from '@kubekit/core';

/** The OpenAPI v3 types a structural schema may use. */
export type JSONSchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

/** One `x-kubernetes-validations` rule (CEL). */
export interface ValidationRule {
  /** The CEL expression; `self` is the value at the rule's location. */
  rule: string;
  /** The message on failure. */
  message?: string;
  /** A CEL expression that evaluates to the message on failure. */
  messageExpression?: string;
  /** The reason returned to the caller: `FieldValueInvalid` when unset. */
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  /** A relative JSON path (`.spec.x`, `.map['key']`) that the failure is reported at. */
  fieldPath?: string;
  /** Whether a transition rule is also evaluated when there is no old value (`oldSelf` optional). */
  optionalOldSelf?: boolean;
}

/** A JSON value, as `default`, `enum` and `example` hold. */
export type JSONValue = null | boolean | number | bigint | string | JSONValue[] | { [key: string]: JSONValue };

/** `JSONSchemaProps`: every OpenAPI v3 keyword and `x-kubernetes-*` extension Kubernetes accepts. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: JSONSchemaType;
  format?: string;
  title?: string;
  default?: JSONValue;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: JSONValue[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  /** A schema for every item, or (forbidden in structural schemas) a list of schemas. */
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  /** A schema for every value of a map, or a boolean allowing (true) or forbidding (false) extra keys. */
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: { description?: string; url?: string };
  example?: JSONValue;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-map-type'?: 'granular' | 'atomic';
  'x-kubernetes-validations'?: ValidationRule[];
}

/** `spec.versions[].schema`. */
export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

/** The type of a printer column. */
export type PrinterColumnType = 'integer' | 'number' | 'string' | 'boolean' | 'date';

/** `spec.versions[].additionalPrinterColumns[]`. */
export interface CustomResourceColumnDefinition {
  name: string;
  type: PrinterColumnType;
  format?: 'int32' | 'int64' | 'float' | 'double' | 'byte' | 'date' | 'date-time' | 'password' | (string & {});
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** `spec.versions[].selectableFields[]` (KEP-4358). */
export interface SelectableField {
  /** A simple path (`.spec.color`) to a string, integer or boolean field. */
  jsonPath: string;
}

/** `spec.versions[].subresources.scale`. */
export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** `spec.versions[].subresources`. */
export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: CustomResourceSubresourceScale;
}

/** One entry of `spec.versions`. */
export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

/** `spec.names` and `status.acceptedNames`. */
export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

/** The scope of a custom resource. */
export type ResourceScope = 'Namespaced' | 'Cluster';

/** `spec.conversion.webhook.clientConfig`. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  caBundle?: string;
}

/** `spec.conversion`. */
export interface CustomResourceConversion {
  strategy: 'None' | 'Webhook';
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] };
}

/** `spec` of a CustomResourceDefinition. */
export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: ResourceScope;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

/** A condition of a CRD's status. */
export interface CustomResourceDefinitionCondition {
  type: 'Established' | 'NamesAccepted' | 'NonStructuralSchema' | 'Terminating' | 'KubernetesAPIApprovalPolicyConformant' | (string & {});
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

/** `status` of a CustomResourceDefinition. */
export interface CustomResourceDefinitionStatus {
  /** The conditions; `null` on a CRD no controller has looked at yet (the apiserver's nil slice). */
  conditions?: CustomResourceDefinitionCondition[] | null;
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

/** An apiextensions.k8s.io/v1 CustomResourceDefinition. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: ObjectMeta;
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}
