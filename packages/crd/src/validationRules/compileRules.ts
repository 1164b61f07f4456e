/**
 * Compilation of `x-kubernetes-validations` rules as the apiserver does it when a CRD is written
 * (apiextensions-apiserver `cel.Compile` and the CEL part of `ValidateCustomResourceDefinitionOpenAPISchema`):
 * each rule and `messageExpression` parsed and type-checked against the schema at its location, the
 * estimated cost checked per rule (times how often the rule can run) and per CRD, `oldSelf` allowed only
 * on correlatable parts of the schema, and `optionalOldSelf` only on transition rules.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules
 */
import { FieldError, FieldPath, forbidden, internalError, invalid, trimSpace } from '@kubekit/core';
import type { CustomResourceDefinition, JSONSchemaProps, ValidationRule } from '../types.js';
import { resolveFieldPath } from '../simpleJsonPath.js';
import {
  BoolType, StringType, compileExpression, costErrorMessage, maxRequestSizeBytes, ruleDeclType, ruleEnvironment, staticEstimatedCRDCostLimit,
  staticEstimatedCostLimit,
} from '@kubekit/cel';
import type { CompiledExpression, DeclType } from '@kubekit/cel';
import { goValidationRule } from '../internal/goRule.js';
import { invalidGo } from '../internal/goSyntax.js';

/** One rule after compilation. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** The compiled rule; absent when it failed to compile or is empty. */
  readonly program?: CompiledExpression;
  /** Why the rule did not compile (the apiserver's detail). */
  readonly error?: string;
  /** Whether the rule refers to `oldSelf` (a transition rule). */
  readonly usesOldSelf: boolean;
  /** The estimated worst-case cost of one evaluation. */
  readonly maxCost: bigint;
  /** How many times the rule can run for one object, from the schema's minimal serialized size. */
  readonly maxCardinality: bigint;
  readonly messageExpression?: CompiledExpression;
  readonly messageExpressionError?: string;
  readonly messageExpressionMaxCost: bigint;
  /** `fieldPath` resolved in the schema (`foo.test.x`, `testMap[foo]`). */
  readonly normalizedFieldPath?: string;
}

/**
 * The rules and messageExpressions a CRD had before an update (`findPreexistingExpressions`): they compile
 * in the apiserver's environment for stored expressions, every other one in its environment for new ones.
 */
export interface PreexistingExpressions {
  readonly rules: ReadonlySet<string>;
  readonly messageExpressions: ReadonlySet<string>;
}

/** The rules and messageExpressions of every schema of `crd` (none for `undefined`: a create). */
export function preexistingExpressions(crd: CustomResourceDefinition | undefined): PreexistingExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  const spec = crd?.spec as { validation?: { openAPIV3Schema?: unknown }; versions?: unknown } | undefined;
  // Iterative: a schema nests as deep as the request that wrote it.
  const stack: unknown[] = [spec?.validation?.openAPIV3Schema];
  if (Array.isArray(spec?.versions)) for (const v of spec.versions) stack.push((v as { schema?: { openAPIV3Schema?: unknown } } | null)?.schema?.openAPIV3Schema);
  while (stack.length > 0) {
    const s = stack.pop();
    if (s === null || typeof s !== 'object') continue;
    if (Array.isArray(s)) {
      for (const x of s) stack.push(x);
      continue;
    }
    // Own members only (Object.entries); values are data, not schemas, below default, example and enum.
    for (const [k, v] of Object.entries(s)) {
      if (k === 'x-kubernetes-validations' && Array.isArray(v)) {
        for (const r of v) {
          if (r === null || typeof r !== 'object') continue;
          const { rule, messageExpression } = r as { rule?: unknown; messageExpression?: unknown };
          if (typeof rule === 'string') rules.add(rule);
          if (typeof messageExpression === 'string' && messageExpression !== '') messageExpressions.add(messageExpression);
        }
      } else if (k !== 'default' && k !== 'example' && k !== 'enum') {
        stack.push(v);
      }
    }
  }
  return { rules, messageExpressions };
}

/**
 * Compiles the rules of one schema node. `isResourceRoot` is true at the root of a custom resource and
 * at embedded resources. Returns `undefined` when the node's type cannot be exposed to CEL (the
 * apiserver's "failed to convert to declType" error). With `preexisting` (a CRD being written), a rule or
 * messageExpression it does not hold compiles in the environment for new expressions; without it (a
 * custom resource being validated), every one compiles in the environment for stored expressions.
 */
export function compileRules(schema: JSONSchemaProps, isResourceRoot: boolean, declType = ruleDeclType(schema, isResourceRoot), preexisting?: PreexistingExpressions): CompiledRule[] | undefined {
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length === 0) return [];
  if (declType === undefined) return undefined;
  const maxCardinality = BigInt(Math.floor(maxRequestSizeBytes / (declType.minSerializedSize + 1)));
  return rules.map((rule) => compileRule(schema, rule, declType, maxCardinality, preexisting));
}

function compileRule(schema: JSONSchemaProps, rule: ValidationRule, declType: DeclType, maxCardinality: bigint, preexisting: PreexistingExpressions | undefined): CompiledRule {
  const base = { rule, usesOldSelf: false, maxCost: 0n, maxCardinality: 0n, messageExpressionMaxCost: 0n };
  const source = typeof rule.rule === 'string' ? rule.rule : '';
  if (trimSpace(source).length === 0) return base;
  const environment = (held: ReadonlySet<string> | undefined, expression: string): 'new' | 'stored' => (held === undefined || held.has(expression) ? 'stored' : 'new');
  const env = ruleEnvironment({ self: declType, optionalOldSelf: rule.optionalOldSelf === true, environment: environment(preexisting?.rules, source) });
  const compiled = compileExpression(source, env, declType, BoolType, 'compilation failed: ', 'cel expression must evaluate to a bool');
  if (!compiled.ok) return { ...base, error: compiled.detail };
  let out: CompiledRule = {
    ...base, program: compiled.expr, usesOldSelf: compiled.expr.usesOldSelf, maxCost: compiled.expr.cost.max, maxCardinality,
  };
  const msgSource = typeof rule.messageExpression === 'string' ? rule.messageExpression : '';
  if (msgSource !== '') {
    const msgEnv = ruleEnvironment({ self: declType, optionalOldSelf: rule.optionalOldSelf === true, environment: environment(preexisting?.messageExpressions, msgSource) });
    const msg = compileExpression(msgSource, msgEnv, declType, StringType, 'messageExpression compilation failed: ', 'messageExpression must evaluate to a string',
      'messageExpression instantiation failed: ');
    if (!msg.ok) return { ...out, messageExpressionError: msg.detail };
    out = { ...out, messageExpression: msg.expr, messageExpressionMaxCost: msg.expr.cost.max };
  }
  if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '') {
    const r = resolveFieldPath(rule.fieldPath, schema);
    if (r.ok) out = { ...out, normalizedFieldPath: r.path };
  }
  return out;
}

function multiplyWithOverflowGuard(a: bigint, b: bigint): bigint {
  const max = 2n ** 64n - 1n;
  if (a === 0n) return 0n;
  return max / a < b ? max : a * b;
}

/** `extractMaxElements`: how much a schema multiplies the cardinality of its children. */
function maxElements(s: JSONSchemaProps): bigint | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties !== undefined) return s.maxProperties !== undefined ? BigInt(Math.max(0, s.maxProperties)) : undefined;
      return 1n;
    case 'array': return s.maxItems !== undefined ? BigInt(Math.max(0, s.maxItems)) : undefined;
    default: return 1n;
  }
}

/** Where a schema node sits: what multiplies its cardinality and what makes `oldSelf` unusable. */
interface NodeContext {
  /** The product of the parents' `maxItems`/`maxProperties`, or `undefined` when unbounded. */
  cardinality: bigint | undefined;
  /** The outermost list path below which items cannot be correlated with old items. */
  uncorrelatablePath: string | undefined;
  isRoot: boolean;
}

/** Locates a schema node given by its field path below a version's `openAPIV3Schema`. */
function locate(root: JSONSchemaProps, rootPath: string, rest: string): NodeContext | undefined {
  let cur = root;
  let path = rootPath;
  const ctx: NodeContext = { cardinality: 1n, uncorrelatablePath: undefined, isRoot: true };
  const re = /^\.(properties\[([^\]]*)\]|items|additionalProperties)/;
  let remaining = rest;
  for (let guard = 0; remaining.length > 0 && guard < 10000; guard++) {
    const m = re.exec(remaining);
    if (m === null) return undefined;
    const factor = maxElements(cur);
    ctx.cardinality = ctx.cardinality === undefined || factor === undefined ? undefined : multiplyWithOverflowGuard(ctx.cardinality, factor);
    let next: JSONSchemaProps | undefined;
    if (m[1] === 'items') {
      if (cur['x-kubernetes-list-type'] !== 'map') ctx.uncorrelatablePath ??= path;
      next = Array.isArray(cur.items) ? undefined : cur.items;
    } else if (m[1] === 'additionalProperties') {
      next = typeof cur.additionalProperties === 'object' ? cur.additionalProperties : undefined;
    } else {
      const mapType = cur['x-kubernetes-map-type'];
      if (mapType !== undefined && mapType !== 'granular' && mapType !== 'atomic') ctx.uncorrelatablePath ??= path;
      next = cur.properties?.[m[2]];
    }
    if (next === undefined) return undefined;
    path += m[0];
    cur = next;
    remaining = remaining.slice(m[0].length);
    ctx.isRoot = false;
  }
  return ctx;
}

/** Compiles the rules of a CRD's schemas and accumulates the CRD's total estimated cost. */
export interface ValidationRulesCompiler {
  /** The errors of one schema node's rules (`fieldPath` is the node's path). */
  compile(schema: JSONSchemaProps, fieldPath: string): FieldError[];
  /** The errors of the per-CRD cost limit, once every node has been compiled. */
  totalCostErrors(): FieldError[];
}

interface TotalCost {
  total: bigint;
  mostExpensive: { path: string; cost: bigint }[];
}

/**
 * A compiler of the `x-kubernetes-validations` of `crd`'s schemas, for
 * `validateCustomResourceDefinition`'s `compileValidationRules` hook: rule compile errors
 * (`…x-kubernetes-validations[0].rule: Invalid value: {"Rule":…}: compilation
 * failed: ERROR: <input>:1:6: …`), messageExpression errors, per-rule cost (`Forbidden: estimated rule
 * cost exceeds budget by factor of …`), `oldSelf` on uncorrelatable nodes and `optionalOldSelf` misuse.
 */
export function createValidationRulesCompiler(crd: CustomResourceDefinition, oldCrd?: CustomResourceDefinition): ValidationRulesCompiler {
  const totals = new Map<string, TotalCost>();
  const preexisting = preexistingExpressions(oldCrd);
  const rootFor = (prefix: string): JSONSchemaProps | undefined => {
    const versions = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
    if (prefix === 'spec.validation') return versions.find((v) => v?.schema?.openAPIV3Schema !== undefined)?.schema?.openAPIV3Schema;
    const m = /^spec\.versions\[(\d+)\]\.schema$/.exec(prefix);
    return m === null ? undefined : versions[Number(m[1])]?.schema?.openAPIV3Schema;
  };
  return {
    compile(schema, fieldPath) {
      const at = fieldPath.indexOf('.openAPIV3Schema');
      const prefix = at < 0 ? '' : fieldPath.slice(0, at);
      const rootPath = at < 0 ? fieldPath : fieldPath.slice(0, at + '.openAPIV3Schema'.length);
      const root = rootFor(prefix);
      const ctx = (root === undefined ? undefined : locate(root, rootPath, fieldPath.slice(rootPath.length)))
        ?? { cardinality: 1n, uncorrelatablePath: undefined, isRoot: fieldPath === rootPath };
      let total = totals.get(rootPath);
      if (total === undefined) {
        total = { total: 0n, mostExpensive: [] };
        totals.set(rootPath, total);
      }
      return compileNodeErrors(schema, FieldPath.root(fieldPath), ctx, total, preexisting);
    },
    totalCostErrors() {
      const errs: FieldError[] = [];
      for (const [rootPath, t] of totals) {
        if (t.total <= BigInt(staticEstimatedCRDCostLimit)) continue;
        for (const e of t.mostExpensive) errs.push(forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
        errs.push(forbidden(rootPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', t.total, staticEstimatedCRDCostLimit)));
      }
      return errs;
    },
  };
}

function observe(total: TotalCost, path: string, cost: bigint): void {
  const max = 2n ** 64n - 1n;
  total.total = max - total.total < cost ? max : total.total + cost;
  if (cost < BigInt(staticEstimatedCRDCostLimit / 100)) return;
  total.mostExpensive.push({ path, cost });
  total.mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
  if (total.mostExpensive.length > 4) total.mostExpensive.length = 4;
}

function compileNodeErrors(schema: JSONSchemaProps, path: FieldPath, ctx: NodeContext, total: TotalCost, preexisting: PreexistingExpressions): FieldError[] {
  const isResourceRoot = ctx.isRoot || schema['x-kubernetes-embedded-resource'] === true;
  const results = compileRules(schema, isResourceRoot, undefined, preexisting);
  const vpath = path.child('x-kubernetes-validations');
  if (results === undefined) {
    return [internalError(vpath, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations')];
  }
  const errs: FieldError[] = [];
  results.forEach((cr, i) => {
    const rulePath = vpath.index(i).child('rule');
    const rule = schema['x-kubernetes-validations']![i];
    const cost = ctx.cardinality !== undefined ? multiplyWithOverflowGuard(cr.maxCost, ctx.cardinality) : multiplyWithOverflowGuard(cr.maxCost, cr.maxCardinality);
    if (cost > BigInt(staticEstimatedCostLimit)) errs.push(forbidden(rulePath, costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit)));
    observe(total, rulePath.toString(), cost);
    if (cr.error !== undefined) errs.push(invalidGo(rulePath, rule, goValidationRule(rule), cr.error));
    const msgPath = vpath.index(i).child('messageExpression');
    if (cr.messageExpressionError !== undefined) {
      errs.push(invalidGo(msgPath, rule, goValidationRule(rule), cr.messageExpressionError));
    } else if (cr.messageExpression !== undefined) {
      if (cr.messageExpressionMaxCost > BigInt(staticEstimatedCostLimit)) {
        errs.push(forbidden(msgPath, costErrorMessage('estimated messageExpression cost', cr.messageExpressionMaxCost, staticEstimatedCostLimit)));
      }
      observe(total, msgPath.toString(), cr.messageExpressionMaxCost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatablePath !== undefined) {
        errs.push(invalid(rulePath, rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatablePath}`));
      }
    } else if (rule.optionalOldSelf !== undefined) {
      errs.push(invalid(vpath.index(i).child('optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}

