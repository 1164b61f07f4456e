/**
 * Validation of one CRD version's `openAPIV3Schema`, with every rule the apiserver applies to it.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema
 */
import { FieldError, FieldPath, type FieldPathLike } from '@kubekit/core';
import { decodeSchema } from './internal/decode.js';
import { validateSchema } from './internal/schemaValidation.js';
import type { JSONSchemaProps } from './types.js';
import { validateValue } from './validateValue.js';

/** Options of {@link validateStructuralSchema}. */
export interface ValidateStructuralSchemaOptions {
  /**
   * Whether the version enables the status subresource, which restricts the root of the schema to
   * `type: object` and a few keywords.
   * @defaultValue false
   */
  statusSubresource?: boolean;
  /**
   * Allow `additionalProperties` under `allOf`/`anyOf`/`oneOf`/`not`. The apiserver never does for
   * CRDs; the option exists for schemas of other origin, as upstream's `ValidationOptions`.
   * @defaultValue false
   */
  allowNestedAdditionalProperties?: boolean;
  /**
   * Allow `x-kubernetes-validations` under `allOf`. Never for CRDs.
   * @defaultValue false
   */
  allowNestedXValidations?: boolean;
  /**
   * Accept value validations of specific properties under a junctor when the structure only has
   * `additionalProperties`. Never for CRDs.
   * @defaultValue false
   */
  allowValidationPropertiesWithAdditionalProperties?: boolean;
  /**
   * Compiles a node's `x-kubernetes-validations` (CEL), as in
   * `ValidateCustomResourceDefinitionOptions.compileValidationRules`.
   * @defaultValue rules are not compiled
   */
  compileValidationRules?: (schema: JSONSchemaProps, fieldPath: string) => FieldError[];
}

/**
 * Validates a CRD version's `openAPIV3Schema` as the apiserver does on create: the structural-schema
 * rules (a type everywhere, junctors only restating the structure, no `type`/`description`/`default`/
 * `nullable`/`additionalProperties` under junctors except the two int-or-string patterns, root
 * `metadata` restricted to `name` and `generateName`, embedded resources), forbidden keywords (`id`,
 * `$ref`, `definitions`, `dependencies`, `patternProperties`, `additionalItems`, `uniqueItems: true`,
 * `items` as a list, `type: null`), `additionalProperties` next to `properties`, list and map types,
 * `x-kubernetes-validations` entries (not their CEL), `nullable` at the root, and defaults (pruned,
 * not in the root `metadata`, valid against their schema). Errors are listed in the apiserver's order
 * with its paths below `fieldPath` and its texts. Never throws.
 *
 * @example
 * ```ts
 * validateStructuralSchema({ type: 'object', properties: { foo: { pattern: 'abc' } } }).map(String);
 * // ['openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields']
 * ```
 */
export function validateStructuralSchema(schema: JSONSchemaProps, fieldPath: FieldPathLike = 'openAPIV3Schema',
  options: ValidateStructuralSchemaOptions = {}): FieldError[] {
  const path = typeof fieldPath === 'string' ? FieldPath.root(fieldPath) : fieldPath;
  const { schema: decoded, errors } = decodeSchema(schema, path);
  if (errors.length > 0) return errors;
  if (decoded === undefined) return [];
  return validateSchema(decoded, path, {
    statusEnabled: options.statusSubresource ?? false,
    allowDefaults: true,
    requireStructuralSchema: true,
    requirePrunedDefaults: true,
    requireValidPropertyType: true,
    requireAtomicSetType: true,
    requireMapListKeysMapSetValidation: true,
    structural: {
      allowNestedAdditionalProperties: options.allowNestedAdditionalProperties,
      allowNestedXValidations: options.allowNestedXValidations,
      allowValidationPropertiesWithAdditionalProperties: options.allowValidationPropertiesWithAdditionalProperties,
    },
    validateValue: (s, v, p) => validateValue(s, v, p),
    compileValidationRules: options.compileValidationRules,
  });
}
