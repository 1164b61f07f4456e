/**
 * The CEL environment of Dynamic Resource Allocation's device selectors (k8s.io/dynamic-resource-allocation/cel,
 * 1.34 with `DRAConsumableCapacity` off): the Kubernetes base environment and one variable, `device`, a
 * `kubernetes.DRADevice` with `driver`, `attributes` (a map of domains to maps of names to values of any
 * type) and `capacity` (the same, of quantities). A selector compiles there and evaluates to a bool or to
 * the unknown type.
 *
 * Not done: `cel.bind` (cel-go's ext.Bindings, which the DRA environment adds): an expression that uses it is
 * taken without checking; and the cost estimate (the apiserver refuses an estimated cost above 1,000,000).
 */
import { compileExpression, environmentFunctions, type ExpressionEnvironment } from './celEnvironment.js';
import { celTypeString } from './admission.js';
import type { CheckEnv } from './internal/checker.js';
import { AnyType, StringType, mapType, objectType, type CelType } from './internal/types.js';
import { QuantityType } from './libraries/quantity.js';
import { typeIdentifiers } from './libraries/standard.js';

const deviceTypeName = 'kubernetes.DRADevice';
const deviceFields: ReadonlyMap<string, CelType> = new Map([
  ['driver', StringType],
  ['attributes', mapType(StringType, mapType(StringType, AnyType))],
  ['capacity', mapType(StringType, mapType(StringType, QuantityType))],
]);

const envs = new Map<ExpressionEnvironment, CheckEnv>();

function deviceEnv(environment: ExpressionEnvironment): CheckEnv {
  let env = envs.get(environment);
  if (env === undefined) {
    const { functions, unsupported } = environmentFunctions(environment);
    env = { variables: new Map([['device', objectType(deviceTypeName)]]), functions, unsupported, objectTypes: new Map([[deviceTypeName, deviceFields]]), typeIdents: typeIdentifiers };
    envs.set(environment, env);
  }
  return env;
}

/**
 * Compiles a device selector's expression as the apiserver validates it: `undefined` when it compiles to a
 * bool (or the unknown type), else the detail of its error (`compilation failed: ERROR: <input>:1:7: …`,
 * `must evaluate to bool or the unknown type, not int`). `environment`: `'new'` for an expression a write
 * introduces, `'stored'` for one unchanged since stored.
 */
export function deviceSelectorError(expression: string, environment: ExpressionEnvironment): string | undefined {
  if (/\bcel\s*\.\s*bind\b/.test(expression)) return undefined;
  const r = compileExpression(expression, deviceEnv(environment), undefined, undefined, 'compilation failed: ', '');
  if (!r.ok) return r.detail;
  const t = r.expr.checked.resultType;
  if (t.kind === 'bool' || t.kind === 'any') return undefined;
  return `must evaluate to bool or the unknown type, not ${celTypeString(t)}`;
}
