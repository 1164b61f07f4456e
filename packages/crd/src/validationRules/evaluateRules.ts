/**
 * Enforcement of `x-kubernetes-validations` on custom resources, as the apiserver's
 * `cel.Validator` does on create and update: every rule runs where its schema node has a value
 * (`null` values are skipped), transition rules (those using `oldSelf`) only where the old object has a
 * correlatable value (or with `optionalOldSelf`), and a failing rule reports `message`, an evaluated
 * `messageExpression`, or `failed rule: <rule>` at the node's path (or its `fieldPath`) with its
 * `reason`. Each evaluation is limited to {@link perCallLimit} and all of an object's rules together
 * to {@link runtimeCELCostBudget}; past either, validation stops with the apiserver's error. On update,
 * failures of rules without `oldSelf` on values the update did not change are ratcheted (dropped).
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules
 */
import { FieldError, duplicate, forbidden, internalError, invalid, required, trimSpace } from '@kubekit/core';
import type { JSONSchemaProps, ValidationRule } from '../types.js';
import { deepEqual, goKind } from '../internal/valueGo.js';
import {
  CostLimitExceededError, ErrVal, OptionalVal, celRuntime, evaluateChecked as evaluate, fromJSON, perCallLimit, ruleDeclType, runtimeCELCostBudget,
  withTypeAndObjectMeta,
} from '@kubekit/cel';
import type { CelVal, CompiledExpression } from '@kubekit/cel';
import type { CompiledRule } from './compileRules.js';
import { compileRules } from './compileRules.js';
import { joinFieldPath } from './fieldPath.js';

/** Options of {@link validateCustomResourceRules}. */
export interface ValidateRulesOptions {
  /**
   * The runtime cost budget shared by all rules of the object.
   * @defaultValue {@link runtimeCELCostBudget} (10,000,000)
   */
  costBudget?: number;
  /**
   * The runtime cost limit of one evaluation of one rule.
   * @defaultValue {@link perCallLimit} (1,000,000)
   */
  perCallLimit?: number;
  /**
   * Whether `schema` is a resource's root (its `self` has apiVersion, kind and metadata) rather than a
   * node inside one, as for a default value.
   * @defaultValue true
   */
  isResourceRoot?: boolean;
  /**
   * Whether failures of rules without `oldSelf` on values the update did not change are dropped
   * (CRDValidationRatcheting on updates). Validation of a CRD's defaults passes the default as its own
   * old value without ratcheting.
   * @defaultValue true
   */
  ratcheting?: boolean;
  /**
   * The field path errors are reported under.
   * @defaultValue `''` (the object's root)
   */
  fieldPath?: string;
}

/** A schema node with rules somewhere at or below it, with its compiled rules. */
interface ValidatorNode {
  schema: JSONSchemaProps;
  isResourceRoot: boolean;
  rules: CompiledRule[];
  compilationError?: string;
  items?: ValidatorNode;
  additionalProperties?: ValidatorNode;
  properties?: Map<string, ValidatorNode>;
}

function hasRules(s: JSONSchemaProps | undefined, depth = 0): boolean {
  if (s === undefined || s === null || typeof s !== 'object' || depth > 1000) return false;
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) return true;
  if (!Array.isArray(s.items) && hasRules(s.items, depth + 1)) return true;
  if (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties, depth + 1)) return true;
  return Object.values(s.properties ?? {}).some((p) => hasRules(p, depth + 1));
}

function buildNode(s: JSONSchemaProps, isResourceRoot: boolean, depth: number): ValidatorNode | undefined {
  if (!hasRules(s) || depth > 1000) return undefined;
  const node: ValidatorNode = { schema: s, isResourceRoot, rules: [] };
  if ((s['x-kubernetes-validations']?.length ?? 0) > 0) {
    const compiled = compileRules(s, isResourceRoot, ruleDeclType(s, isResourceRoot));
    if (compiled === undefined) node.compilationError = 'failed to convert to declType for CEL validation rules';
    else node.rules = compiled;
  }
  if (s.items !== undefined && !Array.isArray(s.items)) node.items = buildNode(s.items, s.items['x-kubernetes-embedded-resource'] === true, depth + 1);
  if (typeof s.additionalProperties === 'object') {
    node.additionalProperties = buildNode(s.additionalProperties, s.additionalProperties['x-kubernetes-embedded-resource'] === true, depth + 1);
  }
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const child = buildNode(p, p['x-kubernetes-embedded-resource'] === true, depth + 1);
    if (child !== undefined) (node.properties ??= new Map()).set(k, child);
  }
  return node;
}

const caches = { root: new WeakMap<JSONSchemaProps, ValidatorNode | null>(), inner: new WeakMap<JSONSchemaProps, ValidatorNode | null>() };

function validatorFor(schema: JSONSchemaProps, isResourceRoot = true): ValidatorNode | undefined {
  const cache = isResourceRoot ? caches.root : caches.inner;
  let v = cache.get(schema);
  if (v === undefined) {
    v = buildNode(schema, isResourceRoot, 0) ?? null;
    cache.set(schema, v);
  }
  return v ?? undefined;
}

/** Whether a schema declares any `x-kubernetes-validations`. */
export function schemaHasValidationRules(schema: JSONSchemaProps): boolean {
  return validatorFor(schema) !== undefined;
}

/** Ratcheting: the correlated old value of a node, or whether its nearest correlated parent is unchanged. */
interface Correlation {
  /** The old value at this node when it is correlatable (`undefined` value when the old object lacks it). */
  current?: { old: unknown; found: boolean; value: unknown };
  parentUnchanged: boolean;
}

function shouldRatchet(c: Correlation | undefined): boolean {
  if (c === undefined) return false;
  if (c.current !== undefined) return c.current.found && deepEqual(c.current.value, c.current.old);
  return c.parentUnchanged;
}

function childCorrelation(c: Correlation | undefined, value: unknown, found: boolean, old: unknown, correlatable: boolean): Correlation | undefined {
  if (c === undefined) return undefined;
  if (c.current === undefined) return c;
  const parentUnchanged = shouldRatchet(c);
  if (!correlatable) return { parentUnchanged };
  return { current: { value, found, old }, parentUnchanged };
}

class Run {
  readonly errors: FieldError[] = [];
  remaining: number;

  constructor(budget: number, private readonly callLimit: number, private readonly ratcheting = true) {
    this.remaining = budget;
  }

  /** Returns false once validation must stop. */
  validate(node: ValidatorNode, path: string, obj: unknown, oldObj: unknown, corr: Correlation | undefined): boolean {
    if (obj === null || obj === undefined) return true;
    if (!this.validateExpressions(node, path, obj, oldObj === null ? undefined : oldObj, corr)) return false;
    if (Array.isArray(obj)) {
      if (node.items === undefined) return true;
      const old = Array.isArray(oldObj) ? oldObj : [];
      const correlate = mapListCorrelator(node.schema, old);
      for (let i = 0; i < obj.length; i++) {
        const o = correlate(obj[i]);
        const child = childCorrelation(corr, obj[i], o !== undefined, o, node.schema['x-kubernetes-list-type'] === 'map');
        if (!this.validate(node.items, `${path}[${i}]`, obj[i], o, child)) return false;
      }
      return true;
    }
    if (goKind(obj) === 'map') {
      const m = obj as Record<string, unknown>;
      const old = goKind(oldObj) === 'map' ? oldObj as Record<string, unknown> : undefined;
      const mapType = node.schema['x-kubernetes-map-type'];
      const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic';
      for (const [k, v] of Object.entries(m)) {
        const found = old !== undefined && Object.hasOwn(old, k);
        const oldV = correlatable && found ? old[k] : undefined;
        const child = node.additionalProperties ?? node.properties?.get(k);
        if (child === undefined) continue;
        const childPath = node.additionalProperties !== undefined ? `${path}[${k}]` : joinFieldPath(path, k);
        if (!this.validate(child, childPath, v, oldV, childCorrelation(corr, v, correlatable && found, oldV, correlatable))) return false;
      }
    }
    return true;
  }

  private fail(path: string, schema: JSONSchemaProps, detail: string): void {
    this.errors.push(invalid(path, schema.type ?? '', detail));
  }

  private validateExpressions(node: ValidatorNode, path: string, obj: unknown, oldObj: unknown, corr: Correlation | undefined): boolean {
    const schema = node.schema;
    if (node.compilationError !== undefined) {
      this.fail(path, schema, `rule compiler initialization error: ${node.compilationError}`);
      return true;
    }
    if (node.rules.length === 0) return true;
    if (this.remaining <= 0) {
      this.fail(path, schema, 'validation failed due to running out of cost budget, no further validation rules will be run');
      return false;
    }
    const valueSchema = node.isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
    let self: CelVal | undefined;
    let oldSelf: CelVal | undefined;
    for (const cr of node.rules) {
      const rule = cr.rule;
      if (cr.error !== undefined) {
        this.fail(path, schema, `rule compile error: ${cr.error}`);
        continue;
      }
      if (cr.program === undefined) continue;
      const optionalOldSelf = rule.optionalOldSelf === true;
      if (cr.usesOldSelf && oldObj === undefined && !optionalOldSelf) continue;
      self ??= fromJSON(obj, valueSchema);
      if (cr.usesOldSelf && oldObj !== undefined) oldSelf ??= fromJSON(oldObj, valueSchema);
      const vars = new Map<string, CelVal>([['self', self]]);
      if (cr.usesOldSelf) vars.set('oldSelf', optionalOldSelf ? new OptionalVal(oldSelf) : oldSelf ?? null);
      let value: CelVal;
      let cost: number;
      try {
        ({ value, cost } = evaluate(cr.program.checked, celRuntime, vars, this.callLimit));
      } catch (err) {
        if (!(err instanceof CostLimitExceededError)) throw err;
        this.fail(path, schema, `'${err.message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`);
        return false;
      }
      if (cost > this.remaining) {
        this.fail(path, schema, 'validation failed due to running out of cost budget, no further validation rules will be run');
        return false;
      }
      this.remaining -= cost;
      if (value instanceof ErrVal) {
        if (value.message.startsWith('no such overload')) {
          this.fail(path, schema, `'${value.message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`);
        } else {
          this.fail(path, schema, `${value.message} evaluating rule: ${ruleErrorString(rule)}`);
        }
        continue;
      }
      if (value === true) continue;
      const errPath = cr.normalizedFieldPath !== undefined ? joinFieldPath(path, cr.normalizedFieldPath) : path;
      let detail: string | undefined;
      if (cr.messageExpression !== undefined) {
        const m = this.messageExpression(cr.messageExpression, rule, vars);
        if (m.stop !== undefined) {
          this.addError(cr, corr, invalid(errPath, schema.type ?? '', m.stop));
          return false;
        }
        detail = m.message;
      }
      detail ??= ruleMessageOrDefault(rule);
      // v1.34's cel.Validator reports the node's schema type as the bad value (`Invalid value: "object"`),
      // not the value itself (apiextensions-apiserver v0.34.4 pkg/apiserver/schema/cel/validation.go).
      this.addError(cr, corr, fieldErrorForReason(errPath, schema.type ?? '', detail, rule.reason));
    }
    return true;
  }

  private addError(cr: CompiledRule, corr: Correlation | undefined, e: FieldError): void {
    // Ratcheted failures are warnings in the apiserver; they do not fail the request.
    if (this.ratcheting && !cr.usesOldSelf && shouldRatchet(corr)) return;
    this.errors.push(e);
  }

  private messageExpression(expr: CompiledExpression, rule: ValidationRule, vars: Map<string, CelVal>): { message?: string; stop?: string } {
    let result: { value: CelVal; cost: number };
    try {
      result = evaluate(expr.checked, celRuntime, vars, this.callLimit);
    } catch (err) {
      if (!(err instanceof CostLimitExceededError)) throw err;
      return { stop: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}` };
    }
    if (result.cost > this.remaining) return { stop: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' };
    this.remaining -= result.cost;
    if (typeof result.value !== 'string') return {};
    const trimmed = trimSpace(result.value);
    if (Buffer.byteLength(trimmed) > 5 * 1024 || /\n/.test(trimmed) || trimmed.length === 0) return {};
    return { message: trimmed };
  }
}

/** Correlates new list items with old ones by their `x-kubernetes-list-map-keys` (`MakeMapList`). */
function mapListCorrelator(schema: JSONSchemaProps, old: readonly unknown[]): (item: unknown) => unknown {
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (schema['x-kubernetes-list-type'] !== 'map' || keys.length === 0 || old.length === 0) return () => undefined;
  const keyOf = (v: unknown): string | undefined => {
    if (goKind(v) !== 'map') return undefined;
    const parts: string[] = [];
    for (const k of keys) {
      const x = (v as Record<string, unknown>)[k];
      const kind = goKind(x);
      if (kind !== 'bool' && kind !== 'int' && kind !== 'float' && kind !== 'string') return undefined;
      parts.push(`${kind}:${String(x)}`);
    }
    return JSON.stringify(parts);
  };
  const index = new Map<string, unknown>();
  for (const o of old) {
    const k = keyOf(o);
    if (k !== undefined && !index.has(k)) index.set(k, o);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : index.get(k);
  };
}

function ruleErrorString(rule: ValidationRule): string {
  const message = typeof rule.message === 'string' ? rule.message : '';
  return message.length > 0 ? message.trim() : (typeof rule.rule === 'string' ? rule.rule : '').trim();
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  const message = typeof rule.message === 'string' ? rule.message : '';
  return message.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : message.trim();
}

function fieldErrorForReason(path: string, value: unknown, detail: string, reason: ValidationRule['reason']): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return forbidden(path, detail);
    case 'FieldValueRequired': return required(path, detail);
    case 'FieldValueDuplicate': return duplicate(path, value);
    default: return invalid(path, value, detail);
  }
}

/**
 * Evaluates the `x-kubernetes-validations` rules of a version's `schema` on a custom resource, as the
 * apiserver does on create (`oldObject` undefined) and update, and returns the failures with the
 * apiserver's paths and messages (`spec: Invalid value: "object": replicas should be smaller than or
 * equal to maxReplicas.`). Rules that do not compile report `rule compile error: …`. Never throws for
 * bad input.
 *
 * @example
 * ```ts
 * validateCustomResourceRules(schema, { spec: { minReplicas: 0, replicas: 20, maxReplicas: 10 } }).map(String);
 * // ['spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.']
 * ```
 */
export function validateCustomResourceRules(
  schema: JSONSchemaProps, object: unknown, oldObject?: unknown, options: ValidateRulesOptions = {},
): FieldError[] {
  const root = validatorFor(schema, options.isResourceRoot ?? true);
  if (root === undefined) return [];
  const run = new Run(options.costBudget ?? runtimeCELCostBudget, options.perCallLimit ?? perCallLimit, options.ratcheting ?? true);
  const corr: Correlation | undefined = oldObject === undefined ? undefined : { current: { value: object, found: true, old: oldObject }, parentUnchanged: false };
  try {
    run.validate(root, options.fieldPath ?? '', object, oldObject, corr);
  } catch (err) {
    if (err instanceof RangeError) return [...run.errors, internalError('', 'cannot validate: object nested too deeply')];
    throw err;
  }
  return run.errors;
}

