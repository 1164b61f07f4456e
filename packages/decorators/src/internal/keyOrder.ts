/**
 * The key order kubekit writes schema nodes in, so generated YAML is stable and reads like hand-written
 * CRDs: description and type first, then the keywords that constrain the value, then nested schemas,
 * then the Kubernetes extensions and CEL rules. Unknown keys follow, alphabetically.
 */
import type { JSONSchemaProps } from '@kubekit/crd';

const schemaKeys = [
  'description', 'title', 'type', 'format', 'enum', 'default', 'nullable',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'items', 'properties', 'additionalProperties', 'required',
  'allOf', 'anyOf', 'oneOf', 'not',
  'x-kubernetes-int-or-string', 'x-kubernetes-embedded-resource', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
  'x-kubernetes-validations', 'example', 'externalDocs',
];
const known = new Set(schemaKeys);

/** A shallow copy of `schema` with its keys in kubekit's order. */
export function orderSchemaKeys(schema: JSONSchemaProps): JSONSchemaProps {
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of schemaKeys) if (source[key] !== undefined) out[key] = source[key];
  for (const key of Object.keys(source).filter((k) => !known.has(k)).sort()) {
    if (source[key] !== undefined) out[key] = source[key];
  }
  return out as JSONSchemaProps;
}
