/**
 * CEL types as the type checker sees them, with cel-go's formatting (`list(string)`,
 * `map(string, int)`, `optional_type(int)`) and its assignability and substitution rules
 * (checker/types.go), which decide the "found no matching overload" errors.
 */

/** The kinds of CEL types. */
export type CelKind =
  | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null' | 'dyn' | 'any' | 'error'
  | 'timestamp' | 'duration' | 'list' | 'map' | 'object' | 'opaque' | 'type' | 'typeParam';

/** A CEL type. `object` types are Kubernetes schema objects or library structs (`kubernetes.Quantity`). */
export interface CelType {
  readonly kind: CelKind;
  /** The type name: `int`, `list`, an object's qualified name, an opaque type's name. */
  readonly name: string;
  readonly params: readonly CelType[];
}

function simple(kind: CelKind, name: string = kind): CelType {
  return Object.freeze({ kind, name, params: [] });
}

/** The CEL type `bool`. */
export const BoolType = simple('bool');
/** The CEL type `int`. */
export const IntType = simple('int');
export const UintType = simple('uint');
export const DoubleType = simple('double');
/** The CEL type `string`. */
export const StringType = simple('string');
export const BytesType = simple('bytes');
export const NullType = simple('null', 'null_type');
/** The CEL type `dyn`. */
export const DynType = simple('dyn');
export const AnyType = simple('any', 'google.protobuf.Any');
export const ErrorType = simple('error', '*error*');
export const TimestampType = simple('timestamp', 'google.protobuf.Timestamp');
export const DurationType = simple('duration', 'google.protobuf.Duration');
export const TypeType = simple('type');

/** `list(elem)`. */
export function listType(elem: CelType): CelType {
  return { kind: 'list', name: 'list', params: [elem] };
}

/** `map(key, value)`. */
export function mapType(key: CelType, value: CelType): CelType {
  return { kind: 'map', name: 'map', params: [key, value] };
}

/** A named struct type. */
export function objectType(name: string): CelType {
  return { kind: 'object', name, params: [] };
}

/** An opaque type such as `optional_type(T)` or `net.IP`. */
export function opaqueType(name: string, ...params: CelType[]): CelType {
  return { kind: 'opaque', name, params };
}

/** `optional_type(T)`. */
export function optionalType(t: CelType): CelType {
  return opaqueType('optional_type', t);
}

/** `type(T)`. */
export function typeOfType(t?: CelType): CelType {
  return { kind: 'type', name: 'type', params: t === undefined ? [] : [t] };
}

/** A type parameter (`A`, `_var0`). */
export function typeParam(name: string): CelType {
  return { kind: 'typeParam', name, params: [] };
}

/** cel-go's `FormatCELType`. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'any': return 'any';
    case 'duration': return 'duration';
    case 'error': return '!error!';
    case 'null': return 'null';
    case 'timestamp': return 'timestamp';
    case 'typeParam': return t.name;
    case 'opaque':
      if (t.name === 'function') return `(${t.params.slice(1).map(formatType).join(', ')}) -> ${formatType(t.params[0])}`;
      break;
    default: break;
  }
  if (t.params.length === 0) return t.name;
  return `${t.name}(${t.params.map(formatType).join(', ')})`;
}

/** cel-go's `IsExactType`: same kind, name and (exact) parameters. */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.name !== b.name || a.params.length !== b.params.length) return false;
  for (let i = 0; i < a.params.length; i++) if (!isExactType(a.params[i], b.params[i])) return false;
  return true;
}

export function isDyn(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'any';
}

export function isError(t: CelType): boolean {
  return t.kind === 'error';
}

export function isDynOrError(t: CelType): boolean {
  return isDyn(t) || isError(t);
}

export function isOptionalType(t: CelType): boolean {
  return t.kind === 'opaque' && t.name === 'optional_type';
}

/** Unwraps `optional_type(T)` to `T`. */
export function maybeUnwrapOptional(t: CelType): [CelType, boolean] {
  return isOptionalType(t) ? [t.params[0], true] : [t, false];
}

/**
 * Type-parameter substitutions, keyed by the formatted type parameter. Keys are type parameters in
 * practice, whose formatted form is their name; other types are formatted only once one was added.
 */
export class TypeMapping {
  private readonly map: Map<string, CelType>;
  private hasOtherKeys: boolean;

  constructor(from?: Map<string, CelType>, hasOtherKeys = false) {
    this.map = new Map(from);
    this.hasOtherKeys = hasOtherKeys;
  }

  add(from: CelType, to: CelType): void {
    if (from.kind !== 'typeParam') this.hasOtherKeys = true;
    this.map.set(from.kind === 'typeParam' ? from.name : formatType(from), to);
  }

  find(from: CelType): CelType | undefined {
    if (from.kind === 'typeParam') return this.map.get(from.name);
    return this.hasOtherKeys ? this.map.get(formatType(from)) : undefined;
  }

  copy(): TypeMapping {
    return new TypeMapping(this.map, this.hasOtherKeys);
  }
}

/** `defaultIsAssignableType` of cel-go's types (t accepts values of `from`). */
function typeAccepts(t: CelType, from: CelType): boolean {
  if (t === from || isExactType(t, from) || isDyn(t)) return true;
  if (t.kind !== from.kind || t.name !== from.name || t.params.length !== from.params.length) return false;
  for (let i = 0; i < t.params.length; i++) if (!typeAccepts(t.params[i], from.params[i])) return false;
  return true;
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === 'typeParam') return true;
  if (isDyn(t2) || t2.kind === 'typeParam') return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque':
      if (t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      return t1.params.every((p, i) => isEqualOrLessSpecific(p, t2.params[i]));
    case 'list': return isEqualOrLessSpecific(t1.params[0], t2.params[0]);
    case 'map': return isEqualOrLessSpecific(t1.params[0], t2.params[0]) && isEqualOrLessSpecific(t1.params[1], t2.params[1]);
    case 'type': return true;
    default: return isExactType(t1, t2);
  }
}

/** The more general of two compatible types. */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'object' || t.kind === 'any' || t.kind === 'duration' || t.kind === 'timestamp';
}

function notReferencedIn(m: TypeMapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case 'typeParam': {
      const sub = m.find(within);
      return sub === undefined ? true : notReferencedIn(m, t, sub);
    }
    case 'opaque': case 'list': case 'map': case 'type':
      return within.params.every((p) => notReferencedIn(m, t, p));
    default: return true;
  }
}

function isValidTypeSubstitution(m: TypeMapping, t1: CelType, t2: CelType): [boolean, boolean] {
  if (t1.kind === t2.kind && isExactType(t1, t2)) return [true, true];
  const t2Sub = m.find(t2);
  if (t2Sub !== undefined) {
    if (t1.kind === t2Sub.kind && isExactType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

function internalIsAssignable(m: TypeMapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'typeParam') {
    const [valid, hasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'typeParam') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return isLegacyNullable(t2) || typeAccepts(t2, NullType);
  if (t2.kind === 'null') return isLegacyNullable(t1) || typeAccepts(t1, NullType);
  switch (t1.kind) {
    case 'bool': case 'bytes': case 'double': case 'int': case 'string': case 'uint':
    case 'duration': case 'timestamp': case 'object':
      return typeAccepts(t2, t1);
    case 'type': return t2.kind === 'type';
    case 'opaque': case 'list': case 'map':
      return t1.kind === t2.kind && t1.name === t2.name && internalIsAssignableList(m, t1.params, t2.params);
    default: return false;
  }
}

function internalIsAssignableList(m: TypeMapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(m, l1[i], l2[i])) return false;
  return true;
}

/** The mapping under which `t1` accepts `t2`, or `undefined`. */
export function isAssignable(m: TypeMapping, t1: CelType, t2: CelType): TypeMapping | undefined {
  const c = m.copy();
  return internalIsAssignable(c, t1, t2) ? c : undefined;
}

/** The mapping under which each of `l1` accepts its counterpart in `l2`, or `undefined`. */
export function isAssignableList(m: TypeMapping, l1: readonly CelType[], l2: readonly CelType[]): TypeMapping | undefined {
  const c = m.copy();
  return internalIsAssignableList(c, l1, l2) ? c : undefined;
}

/** Applies the substitutions (`typeParamToDyn` turns free parameters into `dyn`). */
export function substitute(m: TypeMapping, t: CelType, typeParamToDyn: boolean): CelType {
  const sub = m.find(t);
  if (sub !== undefined) return substitute(m, sub, typeParamToDyn);
  if (typeParamToDyn && t.kind === 'typeParam') return DynType;
  switch (t.kind) {
    case 'opaque': return opaqueType(t.name, ...t.params.map((p) => substitute(m, p, typeParamToDyn)));
    case 'list': return listType(substitute(m, t.params[0], typeParamToDyn));
    case 'map': return mapType(substitute(m, t.params[0], typeParamToDyn), substitute(m, t.params[1], typeParamToDyn));
    case 'type': return t.params.length > 0 ? typeOfType(substitute(m, t.params[0], typeParamToDyn)) : t;
    default: return t;
  }
}

/** Whether `t` is a type of fixed size for cost estimation (cel-go `isScalar`). */
export function isScalarType(t: CelType): boolean {
  switch (t.kind) {
    case 'bool': case 'double': case 'duration': case 'int': case 'timestamp': case 'uint': return true;
    case 'opaque': return t.name === 'optional_type' && isScalarType(t.params[0]);
    default: return false;
  }
}
