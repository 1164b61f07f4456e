/**
 * The part of an OpenAPI v3 structural schema that CEL reads: what types `self` and `oldSelf`, how JSON
 * values convert to CEL values, and the size bounds cost estimation uses. `@kubekit/crd`'s
 * `JSONSchemaProps` is assignable to it, so a version's `openAPIV3Schema` (or any node of it) can be
 * passed as is.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules
 */
export interface Schema {
  /** `object`, `array`, `string`, `integer`, `number` or `boolean`; absent with `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`. */
  type?: string;
  /** String formats `byte`, `duration`, `date` and `date-time` change the CEL type; others are plain strings. */
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema | Schema[];
  required?: string[];
  nullable?: boolean;
  /** Only its presence is read (a defaulted required property does not count toward the minimal size). */
  default?: unknown;
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}
