/**
 * The CEL environment of admission expressions (`ValidatingAdmissionPolicy` validations, messages, audit
 * annotations, variables and match conditions), as k8s.io/apiserver's admission `plugin/cel` compiler
 * declares it: `object` and `oldObject` (`dyn`), `request` (`kubernetes.AdmissionRequest`),
 * `namespaceObject` (`kubernetes.Namespace`), `params` (`dyn`, when the policy has a `paramKind`),
 * `authorizer` and `authorizer.requestResource` (when the expression may ask the authorizer) and
 * `variables` (`kubernetes.variables`, whose fields are the policy's variables, each typed by what its
 * expression compiled to), over the Kubernetes libraries plus the authorizer library.
 *
 * An {@link AdmissionCompiler} is one policy's composition environment: variables are compiled in order
 * (each sees the ones before it), then the other expressions. An {@link AdmissionActivation} is one
 * evaluation's input; it evaluates the variables lazily, once each, as expressions select them.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
 */
import { compileExpression, environmentFunctions, withLibrary } from './celEnvironment.js';
import type { CompiledExpression, ExpressionEnvironment } from './celEnvironment.js';
import { dynFromJSON, toJS } from './compile.js';
import { perCallLimit } from './cost.js';
import type { CheckEnv } from './internal/checker.js';
import { CostLimitExceededError, evaluate } from './internal/interpreter.js';
import type { Runtime } from './internal/interpreter.js';
import type { CelType } from './internal/types.js';
import {
  BoolType, DynType, IntType, StringType, TimestampType, listType, mapType, objectType,
} from './internal/types.js';
import { ErrVal, MapVal } from './internal/values.js';
import type { CelVal } from './internal/values.js';
import { AuthorizerType, AuthorizerVal, ResourceCheckType, authzLibrary, requestResourceCheck } from './libraries/authz.js';
import type { Authorize, AuthorizationUser } from './libraries/authz.js';
import type { OverloadDecl } from './libraries/library.js';
import { typeIdentifiers } from './libraries/standard.js';

const gvk = objectType('kubernetes.GroupVersionKind');
const gvr = objectType('kubernetes.GroupVersionResource');
const userInfo = objectType('kubernetes.UserInfo');
const requestType = objectType('kubernetes.AdmissionRequest');
const namespaceType = objectType('kubernetes.Namespace');
const namespaceMetadata = objectType('kubernetes.NamespaceMetadata');
const namespaceSpec = objectType('kubernetes.NamespaceSpec');
const namespaceStatus = objectType('kubernetes.NamespaceStatus');
const namespaceCondition = objectType('kubernetes.NamespaceCondition');
const strings = listType(StringType);

/** `BuildRequestType` and `BuildNamespaceType`: the fields of the declared object types. */
const declaredTypes: ReadonlyMap<string, ReadonlyMap<string, CelType>> = new Map<string, ReadonlyMap<string, CelType>>([
  [gvk.name, new Map([['group', StringType], ['version', StringType], ['kind', StringType]])],
  [gvr.name, new Map([['group', StringType], ['version', StringType], ['resource', StringType]])],
  [userInfo.name, new Map([['username', StringType], ['uid', StringType], ['groups', strings], ['extra', mapType(StringType, strings)]])],
  [requestType.name, new Map<string, CelType>([
    ['kind', gvk], ['resource', gvr], ['subResource', StringType], ['requestKind', gvk], ['requestResource', gvr],
    ['requestSubResource', StringType], ['name', StringType], ['namespace', StringType], ['operation', StringType],
    ['userInfo', userInfo], ['dryRun', BoolType], ['options', DynType],
  ])],
  [namespaceSpec.name, new Map([['finalizers', strings]])],
  [namespaceCondition.name, new Map([['status', StringType], ['type', StringType], ['lastTransitionTime', TimestampType], ['message', StringType], ['reason', StringType]])],
  [namespaceStatus.name, new Map<string, CelType>([['conditions', listType(namespaceCondition)], ['phase', StringType]])],
  [namespaceMetadata.name, new Map<string, CelType>([
    ['name', StringType], ['generateName', StringType], ['namespace', StringType], ['labels', mapType(StringType, StringType)],
    ['annotations', mapType(StringType, StringType)], ['UID', StringType], ['creationTimestamp', TimestampType],
    ['deletionGracePeriodSeconds', IntType], ['deletionTimestamp', TimestampType], ['generation', IntType],
    ['resourceVersion', StringType], ['finalizers', strings],
  ])],
  [namespaceType.name, new Map([['metadata', namespaceMetadata], ['spec', namespaceSpec], ['status', namespaceStatus]])],
]);

const variablesTypeName = 'kubernetes.variables';
const variablesType = objectType(variablesTypeName);

const authzNames = new Set(authzLibrary.map((f) => f.name));

/** The functions of an environment with the authorizer library, the runtime that dispatches them. */
const libraries = new Map<ExpressionEnvironment, { env: Pick<CheckEnv, 'functions' | 'unsupported'>; runtime: Runtime }>();
for (const environment of ['new', 'stored'] as const) {
  const base = environmentFunctions(environment);
  const functions = withLibrary(base.functions, authzLibrary);
  const overloads = new Map<string, OverloadDecl>();
  for (const f of functions.values()) for (const o of f.overloads) overloads.set(o.id, o);
  const unsupported = new Map([...base.unsupported].filter(([name]) => !authzNames.has(name)));
  libraries.set(environment, { env: { functions, unsupported }, runtime: { functions, overloads } });
}

const storedRuntime = (libraries.get('stored') as { runtime: Runtime }).runtime;

/** Which optional variables an expression sees (`OptionalVariableDeclarations`), and its environment. */
export interface AdmissionDeclarations {
  /** Whether `params` is declared (the policy has a `paramKind`). */
  readonly params: boolean;
  /** Whether `authorizer` and `authorizer.requestResource` are declared. */
  readonly authorizer: boolean;
  /**
   * The environment: `'new'` for an expression a write introduces, `'stored'` for one stored (and every
   * expression evaluated at admission). @defaultValue 'stored'
   */
  readonly environment?: ExpressionEnvironment;
}

/**
 * What an expression must evaluate to: `bool` (validations, match conditions), `string` (messages),
 * `stringOrNull` (audit annotation values), `any` (variables).
 */
export type AdmissionResultType = 'bool' | 'string' | 'stringOrNull' | 'any';

/** A compiled admission expression. */
export interface AdmissionProgram {
  readonly expression: string;
  /** The checked result type, as cel-go's `Type.String()` writes it (`bool`, `list(int)`, `null_type`). */
  readonly resultType: string;
  /** @internal */
  readonly compiled: CompiledExpression;
}

/**
 * The outcome of a compilation: the program, or the apiserver's detail (`compilation failed: ERROR: …`,
 * `must evaluate to bool but got dyn`); `internal` when the apiserver reports it as an internal error
 * (`program instantiation failed: …`).
 */
export type AdmissionCompileResult =
  | { readonly ok: true; readonly program: AdmissionProgram }
  | { readonly ok: false; readonly detail: string; readonly internal: boolean };

/** cel-go's `Type.String()`: the declared name, and the parameters in parentheses. */
export function celTypeString(t: CelType): string {
  return t.params.length === 0 ? t.name : `${t.name}(${t.params.map(celTypeString).join(', ')})`;
}

/** `convertCelTypeToDeclType`: what a variable's type is to later expressions (lists and maps kept, other composite types `dyn`). */
function variableFieldType(t: CelType): CelType {
  switch (t.kind) {
    case 'any': case 'bool': case 'bytes': case 'double': case 'duration': case 'int': case 'null': case 'string': case 'timestamp': case 'uint':
      return t;
    case 'list': return listType(variableFieldType(t.params[0]));
    case 'map': return mapType(variableFieldType(t.params[0]), variableFieldType(t.params[1]));
    default: return DynType;
  }
}

function resultMatches(t: CelType, want: AdmissionResultType): boolean {
  switch (want) {
    case 'any': return true;
    case 'bool': return t.kind === 'bool';
    case 'string': return t.kind === 'string';
    case 'stringOrNull': return t.kind === 'string' || t.kind === 'null';
  }
}

function mismatch(want: AdmissionResultType, got: CelType): string {
  const g = celTypeString(got);
  return want === 'stringOrNull' ? `must evaluate to one of [string null_type] but got ${g}` : `must evaluate to ${want} but got ${g}`;
}

/** A compiled variable: its program, or why it did not compile. */
interface CompiledVariable {
  readonly name: string;
  readonly result: AdmissionCompileResult;
}

/**
 * One policy's compiler. With `composition`, `variables` is declared (its fields grow as variables are
 * compiled, as `CompositedCompiler.CompileAndStoreVariable` adds them); without, it is not, as the
 * apiserver's stateless compiler for a policy without variables.
 */
export class AdmissionCompiler {
  private readonly fields = new Map<string, CelType>();
  private readonly variables = new Map<string, CompiledVariable>();

  constructor(private readonly composition: boolean) {}

  /** The checking environment for `decls`, with the variables compiled so far. */
  private env(decls: AdmissionDeclarations): CheckEnv {
    const lib = libraries.get(decls.environment ?? 'stored');
    if (lib === undefined) throw new Error(`unknown CEL environment ${String(decls.environment)}`);
    const variables = new Map<string, CelType>([
      ['object', DynType], ['oldObject', DynType], ['namespaceObject', namespaceType], ['request', requestType],
    ]);
    if (decls.params) variables.set('params', DynType);
    if (decls.authorizer) {
      variables.set('authorizer', AuthorizerType);
      variables.set('authorizer.requestResource', ResourceCheckType);
    }
    const objectTypes = new Map(declaredTypes);
    if (this.composition) {
      variables.set('variables', variablesType);
      objectTypes.set(variablesTypeName, new Map(this.fields));
    }
    return { variables, functions: lib.env.functions, unsupported: lib.env.unsupported, objectTypes, typeIdents: typeIdentifiers };
  }

  /** Compiles `expression` to a program whose result is of `want`. */
  compile(expression: string, want: AdmissionResultType, decls: AdmissionDeclarations): AdmissionCompileResult {
    const r = compileExpression(expression, this.env(decls), undefined, undefined, 'compilation failed: ', '');
    if (!r.ok) return { ok: false, detail: r.detail, internal: r.detail.startsWith('program instantiation failed: ') };
    const t = r.expr.checked.resultType;
    if (!resultMatches(t, want)) return { ok: false, detail: mismatch(want, t), internal: false };
    return { ok: true, program: { expression, resultType: celTypeString(t), compiled: r.expr } };
  }

  /**
   * Compiles a variable and declares it to the expressions compiled after it (as `dyn` when it did not
   * compile); a later variable of the same name replaces it.
   */
  compileVariable(name: string, expression: string, decls: AdmissionDeclarations): AdmissionCompileResult {
    const result = this.compile(expression, 'any', decls);
    this.fields.set(name, result.ok ? variableFieldType(result.program.compiled.checked.resultType) : DynType);
    this.variables.set(name, { name, result });
    return result;
  }

  /** An evaluation's input, with this compiler's variables. */
  activation(input: AdmissionInput): AdmissionActivation {
    return new AdmissionActivation(input, this.composition ? [...this.variables.values()] : []);
  }
}

/** The authorizer of an evaluation: who asks, whom to ask, and the request's own resource. */
export interface AdmissionAuthorizer {
  readonly authorize: Authorize;
  readonly user: AuthorizationUser;
  /** The request's resource, for `authorizer.requestResource`. */
  readonly requestResource: { group: string; resource: string; subresource: string; namespace: string; name: string };
}

/** What one evaluation sees, as JSON (`null` for what the request has not: `oldObject` of a create). */
export interface AdmissionInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  /** The admission request's attributes (`CreateAdmissionRequest`, without the objects). */
  readonly request: unknown;
  readonly namespaceObject: unknown;
  /** @defaultValue null */
  readonly params?: unknown;
  /** Absent: `authorizer` is not bound. */
  readonly authorizer?: AdmissionAuthorizer;
}

/** An evaluation's outcome: the value (see `Evaluation.value` of {@link compile}), or the error's message. */
export type AdmissionEvaluation =
  | { readonly ok: true; readonly value: unknown; readonly cost: number }
  | { readonly ok: false; readonly error: string; readonly cost: number };

function json(v: unknown): CelVal {
  return v === undefined || v === null ? null : dynFromJSON(v, 0);
}

/** `variables`: each evaluated once, when first selected (`lazy.MapValue`), its cost counted apart. */
class LazyVariables extends MapVal {
  private readonly values = new Map<string, CelVal>();

  constructor(private readonly compiled: ReadonlyMap<string, CompiledVariable>, private readonly owner: AdmissionActivation) {
    super();
  }

  size(): number {
    return this.compiled.size;
  }

  keys(): Iterable<CelVal> {
    return this.compiled.keys();
  }

  find(key: CelVal): CelVal | undefined {
    if (typeof key !== 'string') return undefined;
    const v = this.compiled.get(key);
    if (v === undefined) return undefined;
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.owner.evaluateVariable(v);
      this.values.set(key, value);
    }
    return value;
  }
}

/** One evaluation's input; evaluate each expression of the policy with it. */
export class AdmissionActivation {
  private readonly vars: Map<string, CelVal>;
  private variableCost = 0;

  constructor(input: AdmissionInput, variables: readonly CompiledVariable[]) {
    this.vars = new Map<string, CelVal>([
      ['object', json(input.object)], ['oldObject', json(input.oldObject)], ['request', json(input.request)],
      ['namespaceObject', json(input.namespaceObject)], ['params', json(input.params)],
    ]);
    if (input.authorizer !== undefined) {
      const authorizer = new AuthorizerVal(input.authorizer.authorize, input.authorizer.user);
      this.vars.set('authorizer', authorizer);
      this.vars.set('authorizer.requestResource', requestResourceCheck(authorizer, input.authorizer.requestResource));
    }
    this.vars.set('variables', new LazyVariables(new Map(variables.map((v) => [v.name, v])), this));
  }

  /** Evaluates a program with the per-call cost limit; the variables it selects are evaluated on the way. */
  evaluate(program: AdmissionProgram, costLimit = perCallLimit): AdmissionEvaluation {
    try {
      const r = evaluate(program.compiled.checked, storedRuntime, this.vars, costLimit);
      if (r.value instanceof ErrVal) return { ok: false, error: r.value.message, cost: r.cost };
      return { ok: true, value: toJS(r.value, 0), cost: r.cost };
    } catch (err) {
      if (err instanceof CostLimitExceededError) return { ok: false, error: err.message, cost: costLimit };
      throw err;
    }
  }

  /** The cost of the variables evaluated since the last call (`CompositionContext.GetAndResetCost`). */
  takeVariableCost(): number {
    const c = this.variableCost;
    this.variableCost = 0;
    return c;
  }

  /** @internal A variable's value, or the error `variables.<name>` gives. */
  evaluateVariable(v: CompiledVariable): CelVal {
    if (!v.result.ok) return new ErrVal(`composited variable "${v.name}" fails to compile: ${v.result.detail}`);
    try {
      const r = evaluate(v.result.program.compiled.checked, storedRuntime, this.vars, perCallLimit);
      this.variableCost += r.cost;
      return r.value instanceof ErrVal ? new ErrVal(`composited variable "${v.name}" fails to evaluate: ${r.value.message}`) : r.value;
    } catch (err) {
      if (err instanceof CostLimitExceededError) {
        this.variableCost += perCallLimit;
        return new ErrVal(`composited variable "${v.name}" fails to evaluate: ${err.message}`);
      }
      throw err;
    }
  }
}

