/**
 * The face of `@kubekit/cel` for callers who want CEL itself rather than a CRD's rules: compile an
 * expression once in the Kubernetes environment (the apiserver's libraries, `self` and `oldSelf` typed
 * from a schema), see its estimated cost, and evaluate it against JSON objects with the apiserver's
 * per-call cost limit.
 *
 * @see https://kubernetes.io/docs/reference/using-api/cel/
 */
import { KubeError } from '@kubekit/core';
import { celRuntime, compileExpression, ruleEnvironment } from './celEnvironment.js';
import type { CompiledExpression, ExpressionEnvironment } from './celEnvironment.js';
import { perCallLimit } from './cost.js';
import type { Range } from './cost.js';
import { unescapeProperty } from './internal/escaping.js';
import { goKind } from './internal/goKind.js';
import { CostLimitExceededError, evaluate } from './internal/interpreter.js';
import { formatDuration, formatRFC3339Nano } from './internal/time.js';
import { DynType, formatType } from './internal/types.js';
import {
  ArrayList, DurationVal, ErrVal, ListVal, LiteralMap, MapVal, ObjectVal, OptionalVal, TimestampVal, TypeVal, UintVal, UnknownVal,
  fromJSON, typeAndObjectMeta,
} from './internal/values.js';
import type { CelVal } from './internal/values.js';
import type { Schema } from './schema.js';
import type { DeclType } from './schemaTypes.js';
import { ruleDeclType } from './schemaTypes.js';

/** Options of {@link compile} and {@link estimateCost}. */
export interface CompileOptions {
  /**
   * The structural schema of `self` and `oldSelf`: fields, formats and size bounds (`maxLength`,
   * `maxItems`, `maxProperties`) as a rule at that schema node sees them.
   * @defaultValue none: `self` and `oldSelf` are `dyn`, and sizes are unbounded
   */
  schema?: Schema;
  /**
   * Whether the schema is the root of a resource (or an embedded resource), which exposes
   * `apiVersion`, `kind`, `metadata.name` and `metadata.generateName`.
   * @defaultValue false
   */
  isResourceRoot?: boolean;
  /**
   * Whether `oldSelf` is `optional_type(T)` (`optionalOldSelf: true` of a transition rule).
   * @defaultValue false
   */
  optionalOldSelf?: boolean;
  /**
   * Which of kube-apiserver's CEL environments the expression compiles in: `'new'` is where a CRD's new or
   * changed rules compile (`NewExpressionsEnv`: kube-apiserver 1.34 at compatibility version 1.33, without
   * `ext.Lists`' `sort`, `distinct`, `flatten`, `lists.range`, `reverse` and `slice`); `'stored'` where rules
   * already stored compile, and where custom resources are validated.
   * @defaultValue 'stored'
   */
  environment?: ExpressionEnvironment;
}

/** Options of {@link Program.evaluate}. */
export interface EvaluateOptions {
  /**
   * The runtime cost limit of this evaluation; past it evaluation stops with a {@link CelError}.
   * @defaultValue {@link perCallLimit} (1,000,000, the apiserver's limit per rule)
   */
  costLimit?: number;
}

/** What one evaluation gave: the value as plain JavaScript, and the runtime cost it was charged. */
export interface Evaluation {
  /**
   * The result: `boolean`, `string`, `number` (double), `bigint` (int and uint), `null`, `Uint8Array`
   * (bytes), arrays (lists), null-prototype objects (maps, objects), RFC 3339 strings (timestamps),
   * durations as CEL prints them (`5400s`), type names (types) and `undefined` (an empty optional). Values of
   * the library types (URL, IP, CIDR, quantity, semver, format) are opaque objects: convert them in the
   * expression (`string(ip(x))`, `quantity(x).asInteger()`) to see their content.
   */
  readonly value: unknown;
  /** The runtime cost, as cel-go with the Kubernetes libraries charges it. */
  readonly cost: number;
}

/** The estimated cost range of an expression, in CEL cost units (uint64, hence `bigint`). */
export interface CostEstimate {
  readonly min: bigint;
  readonly max: bigint;
}

/** A compiled CEL expression; compile once, evaluate many times (it holds no per-evaluation state). */
export interface Program {
  /** The source text. */
  readonly expression: string;
  /** The checked result type, as CEL prints it (`bool`, `list(string)`, `selfType1`). */
  readonly resultType: string;
  /** Whether the expression refers to `oldSelf`. */
  readonly usesOldSelf: boolean;
  /** The static cost estimate, as the apiserver computes it when a CRD is written. */
  readonly estimatedCost: CostEstimate;
  /**
   * Evaluates the expression with `self` (and `oldSelf`, when given) bound to JSON values; throws a
   * {@link CelError} (stage `evaluate`) for a runtime error (`no such key: x`, a failed conversion) or
   * when the cost limit is passed.
   */
  evaluate(self: unknown, oldSelf?: unknown, options?: EvaluateOptions): Evaluation;
}

/** A CEL expression that does not compile, or whose evaluation failed; `reason` is `Invalid`. */
export class CelError extends KubeError {
  override name = 'CelError';
  /** Whether compilation or evaluation failed. */
  readonly stage: 'compile' | 'evaluate';

  constructor(stage: 'compile' | 'evaluate', message: string) {
    super('Invalid', message);
    this.stage = stage;
  }
}

/** A dyn `self` for the schema-less environment (all of its object types are open maps). */
const dynDecl: DeclType = { celType: DynType, maxElements: Number.MAX_SAFE_INTEGER, minSerializedSize: 1 };

function declFor(options: CompileOptions): DeclType {
  if (options.schema === undefined) return dynDecl;
  const decl = ruleDeclType(options.schema, options.isResourceRoot === true);
  if (decl === undefined) {
    throw new CelError('compile', 'unable to convert the schema to CEL declarations: it has no type CEL can see (type, x-kubernetes-int-or-string or items missing)');
  }
  return decl;
}

function compileOrThrow(expression: string, options: CompileOptions): { compiled: CompiledExpression } {
  const decl = declFor(options);
  const env = ruleEnvironment({ self: decl, optionalOldSelf: options.optionalOldSelf === true, environment: options.environment });
  const r = compileExpression(expression, env, decl === dynDecl ? undefined : decl, undefined, '', '');
  if (!r.ok) throw new CelError('compile', r.detail);
  return { compiled: r.expr };
}

/**
 * Parses and type-checks `expression` in the Kubernetes CEL environment (the apiserver's standard
 * library, strings, lists, regex, URLs, IP/CIDR, quantity, format, semver, sets and optionals) with
 * `self` and `oldSelf` typed from `options.schema`, and estimates its cost. Throws a {@link CelError}
 * (stage `compile`) with cel-go's message when it does not compile.
 *
 * @example
 * ```ts
 * const program = compile('self.replicas <= self.maxReplicas', {
 *   schema: { type: 'object', properties: { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } },
 * });
 * program.evaluate({ replicas: 3, maxReplicas: 5 }).value; // true
 * program.estimatedCost;                                    // { min: 5n, max: 5n }
 * ```
 */
export function compile(expression: string, options: CompileOptions = {}): Program {
  const { compiled } = compileOrThrow(expression, options);
  const valueSchema = options.schema === undefined ? undefined : options.isResourceRoot === true ? typeAndObjectMeta(options.schema) : options.schema;
  const toCel = (v: unknown): CelVal => (valueSchema === undefined ? dynFromJSON(v, 0) : fromJSON(v, valueSchema));
  return {
    expression,
    resultType: formatType(compiled.checked.resultType),
    usesOldSelf: compiled.usesOldSelf,
    estimatedCost: { min: compiled.cost.min, max: compiled.cost.max },
    evaluate(self, oldSelf, evalOptions = {}) {
      const vars = new Map<string, CelVal>([['self', toCel(self)]]);
      if (options.optionalOldSelf === true) vars.set('oldSelf', new OptionalVal(oldSelf === undefined ? undefined : toCel(oldSelf)));
      else if (oldSelf !== undefined) vars.set('oldSelf', toCel(oldSelf));
      let r: { value: CelVal; cost: number };
      try {
        r = evaluate(compiled.checked, celRuntime, vars, evalOptions.costLimit ?? perCallLimit);
      } catch (err) {
        if (err instanceof CostLimitExceededError) throw new CelError('evaluate', err.message);
        throw err;
      }
      if (r.value instanceof ErrVal) throw new CelError('evaluate', r.value.message);
      return { value: toJS(r.value, 0), cost: r.cost };
    },
  };
}

/**
 * The static cost estimate of `expression` with `self` of `schema`, as the apiserver computes it for
 * a rule at that schema node (cel-go's estimator with Kubernetes' size estimates); the apiserver
 * rejects a rule whose `max`, times how often the rule can run, exceeds 10,000,000. Throws a
 * {@link CelError} when the expression does not compile.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { names: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 64 } } } };
 * estimateCost("self.names.all(n, n.startsWith('a'))", schema); // { min: 3n, max: 53n }
 * ```
 */
export function estimateCost(expression: string, schema: Schema, options: Omit<CompileOptions, 'schema'> = {}): CostEstimate {
  const r: Range = compileOrThrow(expression, { ...options, schema }).compiled.cost;
  return { min: r.min, max: r.max };
}

const maxDepth = 10_000;

/** A JSON value as CEL sees it without a schema: objects are maps, integers `int`, other numbers `double`. */
export function dynFromJSON(raw: unknown, depth: number): CelVal {
  if (depth > maxDepth) return new ErrVal(`invalid data, nested deeper than ${maxDepth} levels`);
  switch (goKind(raw)) {
    case 'nil': return null;
    case 'bool': return raw as boolean;
    case 'string': return raw as string;
    case 'int': return BigInt(raw as number | bigint);
    case 'float': return Number(raw);
    case 'slice': return new ArrayList((raw as unknown[]).map((x) => dynFromJSON(x, depth + 1)));
    default: {
      const m = new LiteralMap();
      for (const k of Object.keys(raw as object)) m.set(k, dynFromJSON((raw as Record<string, unknown>)[k], depth + 1));
      return m;
    }
  }
}

/** A CEL value as plain JavaScript (see {@link Evaluation.value}). */
export function toJS(v: CelVal, depth: number): unknown {
  if (depth > maxDepth) throw new CelError('evaluate', `result nested deeper than ${maxDepth} levels`);
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Uint8Array) return v;
  if (v instanceof UintVal) return v.value;
  if (v instanceof TimestampVal) return formatRFC3339Nano(v.ns, v.offset);
  if (v instanceof DurationVal) return formatDuration(v.ns);
  if (v instanceof TypeVal) return formatType(v.type);
  if (v instanceof OptionalVal) return v.value === undefined ? undefined : toJS(v.value, depth + 1);
  if (v instanceof UnknownVal) return v.raw;
  if (v instanceof ListVal) return Array.from(v, (x) => toJS(x, depth + 1));
  if (v instanceof MapVal) {
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of v.keys()) {
      // Object fields are selected by their escaped names (`x__dash__prop`); give back the property.
      const name = v instanceof ObjectVal && typeof k === 'string' ? unescapeProperty(k) ?? k : String(toJS(k, depth + 1));
      out[name] = toJS(v.find(k) ?? null, depth + 1);
    }
    return out;
  }
  return v;
}
