/**
 * A port of apiextensions-apiserver's `defaulting.ValidateDefaults`: every `default` in the structural
 * part of a schema must be pruned (no unknown fields, except inside embedded-resource metadata), must
 * result in valid embedded TypeMeta/ObjectMeta, and must validate against its schema and its node's CEL
 * rules. Defaults under
 * `additionalProperties` are not visited (they are forbidden there when it matters).
 */
import { FieldError, FieldPath, aggregateMessage, invalid } from '@kubekit/core';
import type { JSONSchemaProps } from '../types.js';
import { coerceEmbedded, validateEmbedded } from './embeddedMeta.js';
import type { Schema } from './model.js';
import { structuralItems, structuralProperties } from './structural.js';
import { validateCustomResourceRules } from '../validationRules/evaluateRules.js';

/** Validates a value against a schema as the apiserver's OpenAPI validator does, errors under `path`. */
export type ValueValidator = (schema: JSONSchemaProps, value: unknown, path: string) => FieldError[];

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

type Step = { key: string } | { index: true };

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether `pruning.Prune(x, s, isResourceRoot)` would remove anything from `x`. */
export function wouldPrune(x: unknown, s: Schema | undefined, isResourceRoot: boolean): boolean {
  const stack: [unknown, Schema | undefined, boolean, boolean][] = [[x, s, isResourceRoot, false]];
  while (stack.length > 0) {
    const [v, schema, embeddedRoot, skip] = stack.pop()!;
    const embedded = embeddedRoot || (schema?.xEmbeddedResource ?? false);
    if (schema !== undefined && schema.xPreserveUnknownFields === true && !skip) {
      stack.push([v, schema, embeddedRoot, true]);
      continue;
    }
    if (Array.isArray(v)) {
      if (schema === undefined) {
        if (!skip) for (const item of v) stack.push([item, undefined, false, false]);
      } else {
        for (const item of v) stack.push([item, structuralItems(schema), false, skip]);
      }
      continue;
    }
    if (!isObj(v)) continue;
    if (schema === undefined) {
      if (skip) continue;
      if (Object.keys(v).length > 0) return true;
      continue;
    }
    const props = structuralProperties(schema);
    for (const [k, child] of Object.entries(v)) {
      if (embedded && metaFields.has(k)) continue;
      const prop = props?.get(k);
      // Values below a preserve-unknown-fields node are pruned again where the schema specifies them.
      if (prop !== undefined) stack.push([child, prop, false, false]);
      else if (schema.additionalProperties !== undefined) stack.push([child, schema.additionalProperties.schema, false, false]);
      else if (!skip) return true;
    }
  }
  return false;
}

function surroundingObject(value: unknown, steps: readonly Step[]): Record<string, unknown> {
  let x: unknown = structuredClone(value);
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    x = 'key' in s ? { [s.key]: x } : [x];
  }
  const obj = isObj(x) ? x : {};
  if (!Object.hasOwn(obj, 'kind')) obj.kind = 'Validation';
  if (!Object.hasOwn(obj, 'apiVersion')) obj.apiVersion = 'validation/v1';
  return obj;
}

/** `ValidateDefaults(pth, s, isResourceRoot=true, requirePrunedDefaults)`, CEL rules included (without sharing one cost budget across defaults). */
export function validateDefaults(root: Schema, path: FieldPath, requirePrunedDefaults: boolean, validateValue: ValueValidator): FieldError[] {
  const errs: FieldError[] = [];
  // The schema root is treated as an embedded resource.
  visit(root, path, root, true, [], false, requirePrunedDefaults, validateValue, errs);
  return errs;
}

/**
 * The schema validation of a default and, when it passes, the node's CEL rules on it: once with the
 * default as its own old value and, as with CRDValidationRatcheting, once without an old value.
 */
function valueAndRules(s: Schema, isResourceRoot: boolean, value: unknown, dp: FieldPath, validateValue: ValueValidator): FieldError[] {
  const errs = validateValue(structuralOpenAPI(s.raw), value, dp.toString());
  if (errs.length > 0) return errs;
  const options = { isResourceRoot, ratcheting: false, fieldPath: dp.toString() };
  const withOld = validateCustomResourceRules(s.raw, value, value, options);
  return withOld.length > 0 ? withOld : validateCustomResourceRules(s.raw, value, undefined, options);
}

const structuralViews = new WeakMap<JSONSchemaProps, JSONSchemaProps>();

/**
 * The schema a default is checked against, `Structural.ToKubeOpenAPI()`: as written, except that
 * `x-kubernetes-int-or-string` stays an extension and adds no `[integer, string]` type (the custom
 * resource validator's conversion adds it). A copy when the schema has such a node; iterative, for
 * schemas of any depth.
 */
function structuralOpenAPI(schema: JSONSchemaProps): JSONSchemaProps {
  const cached = structuralViews.get(schema);
  if (cached !== undefined) return cached;
  const hasIntOrString = (root: JSONSchemaProps): boolean => {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const n = stack.pop();
      if (n === null || typeof n !== 'object' || Array.isArray(n)) continue;
      const node = n as JSONSchemaProps;
      if (node['x-kubernetes-int-or-string'] === true) return true;
      stack.push(...Object.values(node.properties ?? {}), node.items, node.additionalProperties);
    }
    return false;
  };
  if (!hasIntOrString(schema)) {
    structuralViews.set(schema, schema);
    return schema;
  }
  const copy = (n: JSONSchemaProps): JSONSchemaProps => {
    const c = { ...n };
    if (c['x-kubernetes-int-or-string'] === true) delete c['x-kubernetes-int-or-string'];
    return c;
  };
  const out = copy(schema);
  const stack: JSONSchemaProps[] = [out];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.properties !== null && typeof n.properties === 'object') {
      const props: Record<string, JSONSchemaProps> = {};
      for (const [k, v] of Object.entries(n.properties)) {
        const child = v !== null && typeof v === 'object' ? copy(v) : v;
        Object.defineProperty(props, k, { value: child, enumerable: true, writable: true, configurable: true });
        if (child !== v) stack.push(child);
      }
      n.properties = props;
    }
    for (const key of ['items', 'additionalProperties'] as const) {
      const v = n[key];
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const child = copy(v);
        (n as Record<string, unknown>)[key] = child;
        stack.push(child);
      }
    }
  }
  structuralViews.set(schema, out);
  return out;
}

function visit(s: Schema, path: FieldPath, rootSchema: Schema, rootIsEmbedded: boolean, steps: Step[], insideMeta: boolean,
  requirePruned: boolean, validateValue: ValueValidator, errs: FieldError[]): void {
  const embedded = (s === rootSchema && rootIsEmbedded) || s.xEmbeddedResource;
  if (embedded) {
    insideMeta = false;
    steps = [];
    rootSchema = s;
  }

  if (s.default !== undefined) {
    const value = s.default.value;
    const dp = path.child('default');
    if (insideMeta) {
      const obj = surroundingObject(value, steps);
      // rootSchema is the schema root or an embedded resource: either way a resource root.
      const coerceErr = coerceEmbedded(FieldPath.root(''), obj, rootSchema, true);
      if (coerceErr !== undefined) {
        errs.push(invalid(dp, value, `must result in valid metadata: ${coerceErr.toString()}`));
      } else {
        const metaErrs = validateEmbedded(FieldPath.root(''), obj, rootSchema, true);
        if (metaErrs.length > 0) errs.push(invalid(dp, value, `must result in valid metadata: ${aggregateMessage(metaErrs)}`));
        else errs.push(...valueAndRules(s, s === rootSchema, value, dp, validateValue));
      }
    } else {
      if (requirePruned && wouldPrune(value, s, embedded)) errs.push(invalid(dp, value, 'must not have unknown fields'));
      const coerceErr = coerceEmbedded(dp, value, s, embedded);
      if (coerceErr !== undefined) {
        errs.push(coerceErr);
      } else {
        const metaErrs = validateEmbedded(dp, value, s, embedded);
        if (metaErrs.length > 0) errs.push(...metaErrs);
        else errs.push(...valueAndRules(s, s === rootSchema, value, dp, validateValue));
      }
    }
  }

  const items = structuralItems(s);
  if (items !== undefined) {
    visit(items, path.child('items'), rootSchema, rootIsEmbedded, [...steps, { index: true }], insideMeta, requirePruned, validateValue, errs);
  }
  for (const [k, sub] of structuralProperties(s) ?? []) {
    const subInsideMeta = insideMeta || (embedded && metaFields.has(k));
    visit(sub, path.child('properties').key(k), rootSchema, rootIsEmbedded, [...steps, { key: k }], subInsideMeta, requirePruned, validateValue, errs);
  }
}
