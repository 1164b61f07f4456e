/**
 * How CEL functions are declared for kubekit's checker and interpreter: a function has overloads,
 * each with cel-go's overload id (cost estimation keys on it), its argument types (the receiver
 * first for member overloads), its result type and an implementation.
 */
import { ErrVal, ListVal, MapVal, ObjectVal, OpaqueVal, OptionalVal, TimestampVal, DurationVal, TypeVal, UintVal } from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import type { CelType } from '../internal/types.js';

/** An implementation: receives non-error arguments (receiver first), returns a value or an {@link ErrVal}. */
export type Impl = (...args: CelVal[]) => CelVal;

/** One overload of a function. */
export interface OverloadDecl {
  readonly id: string;
  readonly member: boolean;
  readonly args: readonly CelType[];
  readonly result: CelType;
  readonly impl?: Impl;
}

/** A function and its overloads. */
export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
}

/** A global overload. */
export function overload(id: string, args: readonly CelType[], result: CelType, impl?: Impl): OverloadDecl {
  return { id, member: false, args, result, impl };
}

/** A member (receiver-style) overload; `args[0]` is the receiver. */
export function memberOverload(id: string, args: readonly CelType[], result: CelType, impl?: Impl): OverloadDecl {
  return { id, member: true, args, result, impl };
}

/** A function declaration. */
export function func(name: string, ...overloads: OverloadDecl[]): FunctionDecl {
  return { name, overloads };
}

const typeParamsCache = new WeakMap<OverloadDecl, readonly string[]>();

function collectTypeParams(t: CelType, out: Set<string>): void {
  if (t.kind === 'typeParam') out.add(t.name);
  for (const p of t.params) collectTypeParams(p, out);
}

/** The type parameters an overload mentions (computed once per overload). */
export function typeParamsOf(o: OverloadDecl): readonly string[] {
  let params = typeParamsCache.get(o);
  if (params === undefined) {
    const out = new Set<string>();
    for (const a of o.args) collectTypeParams(a, out);
    collectTypeParams(o.result, out);
    params = [...out];
    typeParamsCache.set(o, params);
  }
  return params;
}

/** Whether a runtime value may be passed where `t` is declared (dispatch of dynamic calls). */
export function valueMatchesType(v: CelVal, t: CelType): boolean {
  switch (t.kind) {
    case 'dyn': case 'any': case 'typeParam': return true;
    case 'int': return typeof v === 'bigint';
    case 'uint': return v instanceof UintVal;
    case 'double': return typeof v === 'number';
    case 'string': return typeof v === 'string';
    case 'bool': return typeof v === 'boolean';
    case 'bytes': return v instanceof Uint8Array;
    case 'null': return v === null;
    case 'timestamp': return v instanceof TimestampVal;
    case 'duration': return v instanceof DurationVal;
    case 'list': return v instanceof ListVal;
    case 'map': return v instanceof MapVal;
    case 'type': return v instanceof TypeVal;
    case 'object': return v instanceof ObjectVal || (v instanceof OpaqueVal && v.celType.name === t.name);
    case 'opaque':
      if (t.name === 'optional_type') return v instanceof OptionalVal;
      return v instanceof OpaqueVal && v.celType.name === t.name;
    default: return false;
  }
}

/** An error value with a message. */
export function err(message: string): ErrVal {
  return new ErrVal(message);
}
