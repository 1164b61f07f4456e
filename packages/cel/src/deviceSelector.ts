/**
 * The CEL environment of Dynamic Resource Allocation's device selectors (k8s.io/dynamic-resource-allocation/cel,
 * 1.34 with `DRAConsumableCapacity` off): the Kubernetes base environment, ext.Bindings' `cel.bind`, and one
 * variable, `device`, a `kubernetes.DRADevice` with `driver`, `attributes` (a map of domains to maps of names
 * to values of any type) and `capacity` (the same, of quantities). A selector compiles there, evaluates to a
 * bool or to the unknown type, and its estimated cost is at most 1,000,000, with the sizes the DRA API bounds
 * (32 attributes or capacities per device, names of at most 63 and 32 characters, values of at most 64).
 */
import { compileExpression, environmentFunctions, type ExpressionEnvironment } from './celEnvironment.js';
import { celTypeString } from './admission.js';
import type { CheckEnv } from './internal/checker.js';
import { AnyType, StringType, mapType, objectType, type CelType } from './internal/types.js';
import { QuantityType } from './libraries/quantity.js';
import { typeIdentifiers } from './libraries/standard.js';
import type { DeclField, DeclType } from './schemaTypes.js';

const deviceTypeName = 'kubernetes.DRADevice';
const deviceFields: ReadonlyMap<string, CelType> = new Map([
  ['driver', StringType],
  ['attributes', mapType(StringType, mapType(StringType, AnyType))],
  ['capacity', mapType(StringType, mapType(StringType, QuantityType))],
]);

/** `resource.CELSelectorExpressionMaxCost`: the largest estimated cost of a selector. */
export const celSelectorExpressionMaxCost = 1_000_000;

// The bounds the DRA API puts on a device (k8s.io/api/resource/v1): ResourceSliceMaxAttributesAndCapacitiesPerDevice,
// DeviceMaxDomainLength, DeviceMaxIDLength, DriverNameMaxLength, DeviceAttributeMaxValueLength.
const maxAttributes = 32;
const string = (maxElements: number): DeclType => ({ celType: StringType, maxElements, minSerializedSize: 2 });
const domain = string(63);
const id = string(32);
/** An attribute's value: of any type, at most 64 characters long. */
const attribute: DeclType = { celType: AnyType, maxElements: 64, minSerializedSize: 1 };
const quantity: DeclType = { celType: QuantityType, maxElements: 0, minSerializedSize: 8 };
const map = (key: DeclType, elem: DeclType, extra: Partial<DeclType> = {}): DeclType => ({ celType: mapType(key.celType, elem.celType), key, elem, maxElements: maxAttributes, minSerializedSize: 2, ...extra });
const field = (name: string, type: DeclType): [string, DeclField] => [name, { name, property: name, type, required: true }];

/**
 * What the cost estimate knows of `device` (the DRA compiler's `sizeEstimator`): a field of any name selected on
 * one domain's attributes is an attribute (`device.attributes["d"].model`).
 */
const deviceDecl: DeclType = {
  celType: objectType(deviceTypeName),
  fields: new Map([
    field('driver', string(63)),
    field('attributes', map(domain, map(id, attribute, { anyField: attribute }))),
    field('capacity', map(domain, map(id, quantity))),
  ]),
  maxElements: 0,
  minSerializedSize: 2,
};

const envs = new Map<ExpressionEnvironment, CheckEnv>();

function deviceEnv(environment: ExpressionEnvironment): CheckEnv {
  let env = envs.get(environment);
  if (env === undefined) {
    const { functions, unsupported } = environmentFunctions(environment);
    env = { variables: new Map([['device', objectType(deviceTypeName)]]), functions, unsupported, objectTypes: new Map([[deviceTypeName, deviceFields]]), typeIdents: typeIdentifiers, bindings: true };
    envs.set(environment, env);
  }
  return env;
}

/**
 * Why a device selector is refused, as `validateCELSelector` reports it: `Invalid` (it does not compile:
 * `compilation failed: ERROR: <input>:1:7: …`, or `must evaluate to bool or the unknown type, not int`),
 * `Forbidden` (`too complex, exceeds cost limit`), or `InternalError` (its program cannot be built: a
 * regular expression literal that does not compile).
 */
export interface DeviceSelectorIssue {
  readonly type: 'Invalid' | 'Forbidden' | 'InternalError';
  readonly detail: string;
}

/**
 * Compiles a device selector's expression as the apiserver validates it: `undefined` when it is accepted,
 * else why not. `environment`: `'new'` for an expression a write introduces, `'stored'` for one unchanged
 * since stored.
 */
export function deviceSelectorIssue(expression: string, environment: ExpressionEnvironment): DeviceSelectorIssue | undefined {
  const r = compileExpression(expression, deviceEnv(environment), deviceDecl, undefined, 'compilation failed: ', '', undefined, 'device');
  if (!r.ok) return { type: r.program === true ? 'InternalError' : 'Invalid', detail: r.detail };
  const t = r.expr.checked.resultType;
  if (t.kind !== 'bool' && t.kind !== 'any') return { type: 'Invalid', detail: `must evaluate to bool or the unknown type, not ${celTypeString(t)}` };
  if (r.expr.cost.max > BigInt(celSelectorExpressionMaxCost)) return { type: 'Forbidden', detail: 'too complex, exceeds cost limit' };
  return undefined;
}
