/**
 * The decoded, well-typed form of a CustomResourceDefinition that validation works on: what the
 * apiserver holds after decoding the v1 JSON, applying v1 defaults and converting to its internal
 * version. Absent Go pointers are `undefined`; Go zero values (`""`, `false`, `0`) stand for absent
 * strings, booleans and numbers where the Go field is not a pointer.
 */
import type { JSONSchemaProps } from '../types.js';

/** A non-null JSON value held by `default` or `example` (a Go `*JSON` that is set). */
export interface JSONBox {
  value: unknown;
}

/** `x-kubernetes-validations[]`. */
export interface Rule {
  rule: string;
  message: string;
  messageExpression: string;
  reason?: string;
  fieldPath: string;
  optionalOldSelf?: boolean;
}

/** `additionalProperties` / `additionalItems`: a boolean or a schema (`allows` is true with a schema). */
export interface SchemaOrBool {
  allows: boolean;
  schema?: Schema;
}

/** `items`: a single schema or (forbidden) a list of schemas; both unset when the JSON was neither. */
export interface SchemaOrArray {
  schema?: Schema;
  schemas?: Schema[];
}

/** `dependencies` entries. */
export interface SchemaOrStringArray {
  schema?: Schema;
  property?: string[];
}

/** A decoded `JSONSchemaProps`. `raw` is the object it was decoded from. */
export interface Schema {
  raw: JSONSchemaProps;
  id: string;
  $schema: string;
  ref?: string;
  description: string;
  type: string;
  nullable: boolean;
  format: string;
  title: string;
  default?: JSONBox;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  pattern: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: SchemaOrArray;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  properties?: Map<string, Schema>;
  additionalProperties?: SchemaOrBool;
  patternProperties?: Map<string, Schema>;
  dependencies?: Map<string, SchemaOrStringArray>;
  additionalItems?: SchemaOrBool;
  definitions?: Map<string, Schema>;
  externalDocs?: { description: string; url: string };
  example?: JSONBox;
  xPreserveUnknownFields?: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys?: string[];
  xListType?: string;
  xMapType?: string;
  xValidations?: Rule[];
}

/** `spec.versions[].additionalPrinterColumns[]`. */
export interface ColumnDef {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath: string;
}

/** `subresources.scale`. */
export interface Scale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** `subresources`. */
export interface Subresources {
  status?: true;
  scale?: Scale;
}

/** `schema` (`CustomResourceValidation`). */
export interface Validation {
  openAPIV3Schema?: Schema;
}

/** `selectableFields[]`. */
export interface Selectable {
  jsonPath: string;
}

/** One version. */
export interface Version {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: Validation;
  subresources?: Subresources;
  additionalPrinterColumns?: ColumnDef[];
  selectableFields?: Selectable[];
}

/** `spec.names` / `status.acceptedNames`. */
export interface Names {
  plural: string;
  singular: string;
  shortNames?: string[];
  kind: string;
  listKind: string;
  categories?: string[];
}

/** `spec.conversion` in the internal shape (`webhookClientConfig` and `conversionReviewVersions` flattened). */
export interface Conversion {
  strategy: string;
  webhookClientConfig?: {
    url?: string;
    service?: { namespace: string; name: string; path?: string; port: number };
    caBundle?: string;
  };
  conversionReviewVersions?: string[];
}

/** `spec` in the internal shape: identical per-version fields hoisted to the top level. */
export interface Spec {
  group: string;
  version: string;
  names: Names;
  scope: string;
  validation?: Validation;
  subresources?: Subresources;
  versions?: Version[];
  additionalPrinterColumns?: ColumnDef[];
  selectableFields?: Selectable[];
  conversion?: Conversion;
  preserveUnknownFields?: boolean;
}

/** A status condition. */
export interface Condition {
  type: string;
  status: string;
}

/** `status`. */
export interface Status {
  conditions?: Condition[];
  acceptedNames: Names;
  storedVersions?: string[];
}

/** `metadata` (the parts validation reads). */
export interface Meta {
  name: string;
  generateName: string;
  namespace: string;
  annotations?: Record<string, string>;
}

/** A decoded CustomResourceDefinition. */
export interface Crd {
  metadata: Meta;
  spec: Spec;
  status: Status;
}
