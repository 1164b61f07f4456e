/**
 * The CEL environment of `x-kubernetes-validations` rules: the Kubernetes base environment's
 * libraries (standard, strings v2, lists, regex, URLs, IP/CIDR, quantity, format, semver, sets,
 * optionals, two-variable comprehensions) and the variables `self` and `oldSelf` typed from the schema; and the compilation of
 * one expression in it (parse, type-check, estimate cost).
 *
 * Functions Kubernetes declares that kubekit does not implement (authorization checks, `sortBy` where it is
 * declared) fail to compile with "… is not supported by kubekit", so that a rule kubekit cannot check is
 * never passed silently. Two environments, as the apiserver has them: see {@link ExpressionEnvironment}.
 */
import type { Expr } from './internal/ast.js';
import { parseExprCached } from './internal/ast.js';
import { checkExpr } from './internal/checker.js';
import type { CheckEnv, CheckedExpr } from './internal/checker.js';
import { CelIssues } from './internal/issues.js';
import { compileRegex } from './internal/regex.js';
import { ErrVal } from './internal/values.js';
import type { CelType } from './internal/types.js';
import { mapType, optionalType, typeParam } from './internal/types.js';
import type { FunctionDecl, OverloadDecl } from './libraries/library.js';
import { func, overload } from './libraries/library.js';
import { formatLibrary } from './libraries/format.js';
import { listsLibrary } from './libraries/lists.js';
import { netLibrary } from './libraries/net.js';
import { optionalIndexOverloads, optionalsLibrary } from './libraries/optionals.js';
import { quantityLibrary } from './libraries/quantity.js';
import { regexLibrary } from './libraries/regex.js';
import { semverLibrary } from './libraries/semver.js';
import { setsLibrary } from './libraries/sets.js';
import { standardLibrary, typeIdentifiers } from './libraries/standard.js';
import { stringsLibrary } from './libraries/strings.js';
import { urlsLibrary } from './libraries/urls.js';
import { estimateCost } from './cost.js';
import type { Range } from './cost.js';
import type { Runtime } from './internal/interpreter.js';
import type { DeclType } from './schemaTypes.js';
import { collectObjectTypes } from './schemaTypes.js';

const K = typeParam('K');
const V = typeParam('V');

const mapInsert = func('cel.@mapInsert',
  overload('@mapInsert_map_key_value', [mapType(K, V), K, V], mapType(K, V)),
  overload('@mapInsert_map_map', [mapType(K, V), mapType(K, V)], mapType(K, V)));

function mergeLibraries(...libs: (readonly FunctionDecl[])[]): Map<string, FunctionDecl> {
  const out = new Map<string, FunctionDecl>();
  for (const lib of libs) {
    for (const f of lib) {
      const prev = out.get(f.name);
      out.set(f.name, prev === undefined ? f : { name: f.name, overloads: [...prev.overloads, ...f.overloads] });
    }
  }
  const index = out.get('_[_]');
  if (index !== undefined) out.set('_[_]', { name: '_[_]', overloads: [...index.overloads, ...optionalIndexOverloads] });
  return out;
}

/** Every function rules may call, by name. */
const functions = mergeLibraries(
  standardLibrary, stringsLibrary, listsLibrary, regexLibrary, setsLibrary, optionalsLibrary, urlsLibrary, netLibrary, quantityLibrary,
  formatLibrary, semverLibrary, [mapInsert],
);

const overloads = new Map<string, OverloadDecl>();
for (const f of functions.values()) for (const o of f.overloads) overloads.set(o.id, o);

/** The functions and overloads the interpreter dispatches to. */
export const celRuntime: Runtime = { functions, overloads };

const notSupported = (what: string): string => `${what} is not supported by kubekit`;

/** Names Kubernetes declares that kubekit does not implement. */
const unsupported = new Map<string, string>([
  ...['path', 'group', 'serviceAccount', 'resource', 'subresource', 'name', 'check', 'allowed', 'reason', 'errored', 'error',
    'fieldSelector', 'labelSelector']
    .map((n): [string, string] => [n, notSupported(`function '${n}' (Kubernetes authorization library)`)]),
  ['sortBy', notSupported("macro 'sortBy'")],
]);

/**
 * The functions of cel-go's `ext.Lists` (version 3), which kube-apiserver 1.34 declares from compatibility
 * version 1.34 on: its environment for stored expressions has them, its environment for new ones
 * (compatibility version 1.33) does not (`sortBy` is their macro).
 */
const listsExtension = new Set(['distinct', 'flatten', 'lists.range', 'reverse', 'slice', 'sort']);
const newFunctions = new Map([...functions].filter(([name]) => !listsExtension.has(name)));
const newUnsupported = new Map([...unsupported].filter(([name]) => name !== 'sortBy'));

/**
 * The functions of an environment and the names it declares without kubekit implementing them, for the
 * environments built on this one (admission expressions add the authorizer library).
 */
export function environmentFunctions(environment: ExpressionEnvironment): { functions: ReadonlyMap<string, FunctionDecl>; unsupported: ReadonlyMap<string, string> } {
  return environment === 'stored' ? { functions, unsupported } : { functions: newFunctions, unsupported: newUnsupported };
}

/** Functions of both maps, the overloads of a name in both joined (libraries that add overloads to a name). */
export function withLibrary(base: ReadonlyMap<string, FunctionDecl>, library: readonly FunctionDecl[]): Map<string, FunctionDecl> {
  const out = new Map(base);
  for (const f of library) {
    const prev = out.get(f.name);
    out.set(f.name, prev === undefined ? f : { name: f.name, overloads: [...prev.overloads, ...f.overloads] });
  }
  return out;
}

/**
 * Which of kube-apiserver's CEL environments an expression compiles in: `'new'` for an expression a write
 * introduces (a CRD created, or a rule or messageExpression its old version did not have: `NewExpressionsEnv`,
 * kube-apiserver 1.34's compatibility version 1.33), `'stored'` for one already stored (a CRD's unchanged
 * rules, and every rule a custom resource is validated with: `StoredExpressionsEnv`).
 */
export type ExpressionEnvironment = 'new' | 'stored';

/** The variables of a rule: `self`, and `oldSelf` (optional with `optionalOldSelf`); and its environment (default `'stored'`). */
export interface RuleVariables {
  readonly self: DeclType;
  readonly optionalOldSelf: boolean;
  readonly environment?: ExpressionEnvironment;
}

/** A compiled expression. */
export interface CompiledExpression {
  readonly source: string;
  readonly checked: CheckedExpr;
  /** Whether the expression refers to `oldSelf` (a transition rule). */
  readonly usesOldSelf: boolean;
  /** The estimated cost range. */
  readonly cost: Range;
}

/**
 * The outcome of {@link compileExpression}: the compiled expression, or the apiserver's error detail
 * (`program`: it type-checked, but its program could not be built: a constant regular expression that
 * does not compile).
 */
export type CompileResult = { ok: true; expr: CompiledExpression } | { ok: false; detail: string; program?: true };

/** Per `self` type: its object types (collected once) and its checking environments by environment and `optionalOldSelf`. */
const envCache = new WeakMap<DeclType, { objectTypes: ReturnType<typeof collectObjectTypes>; envs: Map<string, CheckEnv> }>();

/** The checking environment of rules whose `self` has the given type. */
export function ruleEnvironment(vars: RuleVariables): CheckEnv {
  let cached = envCache.get(vars.self);
  if (cached === undefined) {
    cached = { objectTypes: collectObjectTypes(vars.self), envs: new Map() };
    envCache.set(vars.self, cached);
  }
  const environment = vars.environment ?? 'stored';
  const key = `${environment}/${vars.optionalOldSelf}`;
  let env = cached.envs.get(key);
  if (env === undefined) {
    const stored = environment === 'stored';
    env = {
      variables: new Map<string, CelType>([['self', vars.self.celType], ['oldSelf', vars.optionalOldSelf ? optionalType(vars.self.celType) : vars.self.celType]]),
      functions: stored ? functions : newFunctions, objectTypes: cached.objectTypes, typeIdents: typeIdentifiers,
      unsupported: stored ? unsupported : newUnsupported,
    };
    cached.envs.set(key, env);
  }
  return env;
}

function refersTo(e: Expr, checked: CheckedExpr, name: string): boolean {
  const ref = checked.references.get(e.id);
  if (ref?.kind === 'ident' && ref.name === name) return true;
  switch (e.kind) {
    case 'select': return refersTo(e.operand, checked, name);
    case 'call': return (e.target !== undefined && refersTo(e.target, checked, name)) || e.args.some((a) => refersTo(a, checked, name));
    case 'list': return e.elements.some((x) => refersTo(x, checked, name));
    case 'map': return e.entries.some((x) => refersTo(x.key, checked, name) || refersTo(x.value, checked, name));
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].some((x) => refersTo(x, checked, name));
    default: return false;
  }
}

/** What `cel.Program` rejects: constant regular expressions of `find`/`findAll` that do not compile. */
function programError(e: Expr): string | undefined {
  const sub = (x: Expr | undefined): string | undefined => (x === undefined ? undefined : programError(x));
  switch (e.kind) {
    case 'call': {
      const pattern = e.args[0];
      if ((e.fn === 'find' || e.fn === 'findAll') && e.target !== undefined && pattern?.kind === 'literal' && typeof pattern.value === 'string') {
        const re = compileRegex(pattern.value);
        if (re instanceof ErrVal) return re.message;
      }
      return sub(e.target) ?? e.args.map(programError).find((x) => x !== undefined);
    }
    case 'select': return programError(e.operand);
    case 'list': return e.elements.map(programError).find((x) => x !== undefined);
    case 'map': return e.entries.flatMap((en) => [programError(en.key), programError(en.value)]).find((x) => x !== undefined);
    case 'comprehension': return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].map(programError).find((x) => x !== undefined);
    default: return undefined;
  }
}

/**
 * Parses, type-checks and cost-estimates `source` in `env`. A syntax or type error gives
 * `<prefix>ERROR: <input>:1:6: …`; a result type other than `resultType` (when given) gives `mismatch`; a constant
 * regular expression that does not compile gives `<programPrefix>error parsing regexp: …`. `root` bounds
 * the sizes the cost estimate sees (of `rootVariable`'s paths only, when given; of every path otherwise,
 * as the CRD estimator does).
 */
export function compileExpression(
  source: string, env: CheckEnv, root: DeclType | undefined, resultType: CelType | undefined, prefix: string, mismatch: string,
  programPrefix = 'program instantiation failed: ',
  rootVariable?: string,
): CompileResult {
  const issues = new CelIssues(source);
  const parsed = parseExprCached(source, issues, { bindings: env.bindings });
  if (parsed === undefined || issues.length > 0) return { ok: false, detail: prefix + issues.toString() };
  const checked = checkExpr(env, parsed, issues);
  if (issues.length > 0) return { ok: false, detail: prefix + issues.toString() };
  if (resultType !== undefined && checked.resultType.kind !== resultType.kind) return { ok: false, detail: mismatch };
  const invalidProgram = programError(parsed.expr);
  if (invalidProgram !== undefined) return { ok: false, detail: programPrefix + invalidProgram, program: true };
  const cost = estimateCost(checked, root, rootVariable);
  return { ok: true, expr: { source, checked, usesOldSelf: refersTo(parsed.expr, checked, 'oldSelf'), cost } };
}
