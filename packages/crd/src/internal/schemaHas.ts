/**
 * `SchemaHas` and the schema predicates the apiserver's update ratcheting is built on (which rules an
 * existing CRD already broke, so that an update is not held to them).
 */
import { FieldPath } from '@kubekit/core';
import { wouldPrune } from './defaults.js';
import type { Schema, Spec } from './model.js';
import { validateMapListKeysMapSet } from './openAPISchema.js';
import { newStructuralError, structuralItems, structuralProperties, validateStructural } from './structural.js';

const openAPIV3Types = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);

/** Whether `pred` holds for `s` or any schema below it (every keyword that holds schemas). Iterative. */
export function schemaHas(s: Schema | undefined, pred: (s: Schema) => boolean): boolean {
  const stack: Schema[] = s === undefined ? [] : [s];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (pred(x)) return true;
    if (x.items?.schema !== undefined) stack.push(x.items.schema);
    if (x.items?.schemas !== undefined) stack.push(...x.items.schemas);
    for (const list of [x.allOf, x.anyOf, x.oneOf]) if (list !== undefined) stack.push(...list);
    if (x.not !== undefined) stack.push(x.not);
    for (const map of [x.properties, x.patternProperties, x.definitions]) if (map !== undefined) stack.push(...map.values());
    if (x.additionalProperties?.schema !== undefined) stack.push(x.additionalProperties.schema);
    if (x.additionalItems?.schema !== undefined) stack.push(x.additionalItems.schema);
    for (const d of x.dependencies?.values() ?? []) if (d.schema !== undefined) stack.push(d.schema);
  }
  return false;
}

/** The schemas of a spec: the top-level one and each version's. */
export function specSchemas(spec: Spec): Schema[] {
  const out: Schema[] = [];
  if (spec.validation?.openAPIV3Schema !== undefined) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions ?? []) if (v.schema?.openAPIV3Schema !== undefined) out.push(v.schema.openAPIV3Schema);
  return out;
}

/** `specHasDefaults`. */
export function specHasDefaults(spec: Spec): boolean {
  return specSchemas(spec).some((s) => schemaHas(s, (x) => x.default !== undefined));
}

/** `specHasKubernetesExtensions`. */
export function specHasKubernetesExtensions(spec: Spec): boolean {
  return specSchemas(spec).some((s) => schemaHas(s, (x) => x.xEmbeddedResource || x.xPreserveUnknownFields !== undefined || x.xIntOrString ||
    (x.xListMapKeys?.length ?? 0) > 0 || x.xListType !== undefined || (x.xValidations?.length ?? 0) > 0));
}

/** `allVersionsSpecifyOpenAPISchema`. */
export function allVersionsSpecifyOpenAPISchema(spec: Spec): boolean {
  if (spec.validation?.openAPIV3Schema !== undefined) return true;
  return (spec.versions ?? []).every((v) => v.schema?.openAPIV3Schema !== undefined);
}

function schemaIsNonStructural(s: Schema): boolean {
  if (newStructuralError(s) !== undefined) return true;
  return validateStructural(s, FieldPath.root('')).length > 0;
}

/** `specHasNonStructuralSchema`. */
export function specHasNonStructuralSchema(spec: Spec): boolean {
  return specSchemas(spec).some(schemaIsNonStructural);
}

/**
 * `schemaHasUnprunedDefaults`: a structural schema with a default that `PruneDefaults` would change
 * (each default pruned inside its surrounding object, against the whole schema as resource root).
 */
function schemaHasUnprunedDefaults(s: Schema): boolean {
  if (!schemaHas(s, (x) => x.default !== undefined)) return false;
  if (schemaIsNonStructural(s)) return false;
  const stack: [Schema, (string | null)[]][] = [[s, []]];
  while (stack.length > 0) {
    const [x, steps] = stack.pop()!;
    if (x.default !== undefined) {
      let obj: unknown = x.default.value;
      for (let i = steps.length - 1; i >= 0; i--) obj = steps[i] === null ? [obj] : { [steps[i] as string]: obj };
      if (wouldPrune(obj, s, true)) return true;
    }
    if (x.additionalProperties?.schema !== undefined) stack.push([x.additionalProperties.schema, [...steps, '*']]);
    const items = structuralItems(x);
    if (items !== undefined) stack.push([items, [...steps, null]]);
    for (const [k, p] of structuralProperties(x) ?? []) stack.push([p, [...steps, k]]);
  }
  return false;
}

/** `requirePrunedDefaults(old)`: false when the old spec already has unpruned defaults. */
export function requirePrunedDefaults(old: Spec): boolean {
  return !specSchemas(old).some(schemaHasUnprunedDefaults);
}

/** `requireAtomicSetType(old)`. */
export function requireAtomicSetType(old: Spec): boolean {
  return !specSchemas(old).some((s) => schemaHas(s, (x) => {
    const item = x.items?.schema;
    if (x.xListType !== 'set' || item === undefined) return false;
    if (item.type === 'array') return item.xListType !== undefined && item.xListType !== 'atomic';
    if (item.type === 'object') return item.xMapType !== 'atomic';
    return false;
  }));
}

/** `requireMapListKeysMapSetValidation(old)`. */
export function requireMapListKeysMapSetValidation(old: Spec): boolean {
  return !specSchemas(old).some((s) => schemaHas(s, (x) => validateMapListKeysMapSet(x, FieldPath.root('')).length > 0));
}

/** `requireValidPropertyType(old)`. */
export function requireValidPropertyType(old: Spec): boolean {
  return !specSchemas(old).some((s) => schemaHas(s, (x) => x.type.length > 0 && !openAPIV3Types.has(x.type)));
}
