/**
 * CEL's standard library (cel-go common/stdlib) with cel-go's overload ids and runtime errors:
 * operators, `size`, type conversions, string predicates, regular expressions (RE2) and the
 * timestamp/duration accessors. `_==_`, `_!=_`, `_[_]`, `@in`, the logical operators and the
 * conditional are evaluated by the interpreter; their declarations here serve type checking.
 */
import { goFormatFloat } from '@kubekit/core';
import {
  DurationVal, ErrVal, ListVal, TimestampVal, TypeVal, UintVal, compareValues, concatLists, sizeOf, typeOfValue,
} from '../internal/values.js';
import type { CelVal } from '../internal/values.js';
import {
  BoolType, BytesType, DoubleType, DurationType, DynType, IntType, NullType, StringType, TimestampType, UintType,
  listType, mapType, objectType, opaqueType, typeOfType, typeParam,
} from '../internal/types.js';
import {
  MAX_DURATION_NS, MAX_TIMESTAMP_NS, MIN_DURATION_NS, MIN_TIMESTAMP_NS, NS_PER_SECOND, civilTime, formatDuration,
  formatRFC3339Nano, parseGoDuration, parseRFC3339, zoneOffsetSeconds,
} from '../internal/time.js';
import { compileRegex } from '../internal/regex.js';
import { err, func, memberOverload, overload } from './library.js';
import type { FunctionDecl } from './library.js';

const A = typeParam('A');
const B = typeParam('B');
const listA = listType(A);
const mapAB = mapType(A, B);

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

const intOverflow = (): ErrVal => err('integer overflow');
const uintOverflow = (): ErrVal => err('unsigned integer overflow');

/** An int64 result, or the overflow error. */
export function checkedInt(v: bigint): CelVal {
  return v < INT64_MIN || v > INT64_MAX ? intOverflow() : v;
}

function checkedUint(v: bigint): CelVal {
  return v < 0n || v > UINT64_MAX ? uintOverflow() : new UintVal(v);
}

function checkedTimestamp(ns: bigint, offset = 0): CelVal {
  return ns < MIN_TIMESTAMP_NS || ns > MAX_TIMESTAMP_NS ? err('timestamp overflow') : new TimestampVal(ns, offset);
}

const zone = (v: CelVal): number => (v as TimestampVal).offset;

function checkedDuration(ns: bigint): CelVal {
  return ns < MIN_DURATION_NS || ns > MAX_DURATION_NS ? err('duration overflow') : new DurationVal(ns);
}

const i = (v: CelVal): bigint => v as bigint;
const u = (v: CelVal): bigint => (v as UintVal).value;
const d = (v: CelVal): number => v as number;
const s = (v: CelVal): string => v as string;
const ts = (v: CelVal): bigint => (v as TimestampVal).ns;
const du = (v: CelVal): bigint => (v as DurationVal).ns;

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const cmp = (name: string, opName: string, test: (c: number) => boolean): FunctionDecl => {
  const pairs: [string, ReturnType<typeof typeParam>, ReturnType<typeof typeParam>][] = [
    ['bool', BoolType, BoolType], ['int64', IntType, IntType], ['int64_double', IntType, DoubleType], ['int64_uint64', IntType, UintType],
    ['uint64', UintType, UintType], ['uint64_double', UintType, DoubleType], ['uint64_int64', UintType, IntType],
    ['double', DoubleType, DoubleType], ['double_int64', DoubleType, IntType], ['double_uint64', DoubleType, UintType],
    ['string', StringType, StringType], ['bytes', BytesType, BytesType], ['timestamp', TimestampType, TimestampType],
    ['duration', DurationType, DurationType],
  ];
  return func(opName, ...pairs.map(([suffix, a, b]) => overload(`${name}_${suffix}`, [a, b], BoolType, compareImpl(test))));
};

function compareImpl(test: (c: number) => boolean) {
  return (a: CelVal, b: CelVal): CelVal => {
    const c = compareValues(a, b);
    return c instanceof ErrVal ? c : test(c);
  };
}

function parseGoInt(text: string, unsigned: boolean): bigint | ErrVal {
  const fn = unsigned ? 'strconv.ParseUint' : 'strconv.ParseInt';
  if (!(unsigned ? /^\+?[0-9]+$/ : /^[+-]?[0-9]+$/).test(text)) return err(`${fn}: parsing ${JSON.stringify(text)}: invalid syntax`);
  const v = BigInt(text);
  if (unsigned ? v > UINT64_MAX : v < INT64_MIN || v > INT64_MAX) return err(`${fn}: parsing ${JSON.stringify(text)}: value out of range`);
  return v;
}

function parseGoFloat(text: string): number | ErrVal {
  const t = text.trim() === text ? text : '';
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(t)) return NaN;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return err(`strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(t);
}

function isValidUTF8(b: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

function accessor(id: string, recv: typeof TimestampType, pick: (t: ReturnType<typeof civilTime>) => number) {
  return [
    memberOverload(id, [recv], IntType, (v) => BigInt(pick(civilTime(ts(v))))),
    memberOverload(id.replace(/_seconds$/, '_seconds_tz').replace(/(_tz)?$/, (m) => (m === '_tz' ? '_tz' : '_with_tz')), [recv, StringType], IntType,
      (v, zone) => {
        const off = zoneOffsetSeconds(s(zone), ts(v));
        if (off === undefined) return err(`unknown time zone ${s(zone)}`);
        return BigInt(pick(civilTime(ts(v), off)));
      }),
  ];
}

const timestampAccessors: FunctionDecl[] = [
  func('getFullYear', ...accessor('timestamp_to_year', TimestampType, (t) => t.year)),
  func('getMonth', ...accessor('timestamp_to_month', TimestampType, (t) => t.month - 1)),
  func('getDayOfYear', ...accessor('timestamp_to_day_of_year', TimestampType, (t) => t.dayOfYear)),
  func('getDayOfMonth', ...accessor('timestamp_to_day_of_month', TimestampType, (t) => t.day - 1)),
  func('getDate', ...accessor('timestamp_to_day_of_month_1_based', TimestampType, (t) => t.day)),
  func('getDayOfWeek', ...accessor('timestamp_to_day_of_week', TimestampType, (t) => t.dayOfWeek)),
  func('getHours', ...accessor('timestamp_to_hours', TimestampType, (t) => t.hour),
    memberOverload('duration_to_hours', [DurationType], IntType, (v) => du(v) / (3600n * NS_PER_SECOND))),
  func('getMinutes', ...accessor('timestamp_to_minutes', TimestampType, (t) => t.minute),
    memberOverload('duration_to_minutes', [DurationType], IntType, (v) => du(v) / (60n * NS_PER_SECOND))),
  func('getSeconds', ...accessor('timestamp_to_seconds', TimestampType, (t) => t.second),
    memberOverload('duration_to_seconds', [DurationType], IntType, (v) => du(v) / NS_PER_SECOND)),
  func('getMilliseconds', ...accessor('timestamp_to_milliseconds', TimestampType, (t) => Math.floor(t.nanos / 1e6)),
    memberOverload('duration_to_milliseconds', [DurationType], IntType, (v) => du(v) / 1_000_000n)),
];

function matches(str: CelVal, re: CelVal): CelVal {
  const r = compileRegex(s(re));
  return r instanceof ErrVal ? r : r.test(s(str));
}

/** The standard library. */
export const standardLibrary: readonly FunctionDecl[] = [
  func('_?_:_', overload('conditional', [BoolType, A, A], A)),
  func('_&&_', overload('logical_and', [BoolType, BoolType], BoolType)),
  func('_||_', overload('logical_or', [BoolType, BoolType], BoolType)),
  func('!_', overload('logical_not', [BoolType], BoolType, (v) => !v)),
  func('@not_strictly_false', overload('not_strictly_false', [BoolType], BoolType)),
  func('_==_', overload('equals', [A, A], BoolType)),
  func('_!=_', overload('not_equals', [A, A], BoolType)),
  func('_+_',
    overload('add_bytes', [BytesType, BytesType], BytesType, (a, b) => concatBytes(a as Uint8Array, b as Uint8Array)),
    overload('add_double', [DoubleType, DoubleType], DoubleType, (a, b) => d(a) + d(b)),
    overload('add_duration_duration', [DurationType, DurationType], DurationType, (a, b) => checkedDuration(du(a) + du(b))),
    overload('add_duration_timestamp', [DurationType, TimestampType], TimestampType, (a, b) => checkedTimestamp(du(a) + ts(b), zone(b))),
    overload('add_timestamp_duration', [TimestampType, DurationType], TimestampType, (a, b) => checkedTimestamp(ts(a) + du(b), zone(a))),
    overload('add_int64', [IntType, IntType], IntType, (a, b) => checkedInt(i(a) + i(b))),
    overload('add_list', [listA, listA], listA, (a, b) => concatLists(a as ListVal, b as ListVal)),
    overload('add_string', [StringType, StringType], StringType, (a, b) => s(a) + s(b)),
    overload('add_uint64', [UintType, UintType], UintType, (a, b) => checkedUint(u(a) + u(b)))),
  func('_/_',
    overload('divide_double', [DoubleType, DoubleType], DoubleType, (a, b) => d(a) / d(b)),
    overload('divide_int64', [IntType, IntType], IntType, (a, b) => {
      if (i(b) === 0n) return err('division by zero');
      if (i(a) === INT64_MIN && i(b) === -1n) return intOverflow();
      return i(a) / i(b);
    }),
    overload('divide_uint64', [UintType, UintType], UintType, (a, b) => (u(b) === 0n ? err('division by zero') : new UintVal(u(a) / u(b))))),
  func('_%_',
    overload('modulo_int64', [IntType, IntType], IntType, (a, b) => {
      if (i(b) === 0n) return err('modulus by zero');
      if (i(a) === INT64_MIN && i(b) === -1n) return intOverflow();
      return i(a) % i(b);
    }),
    overload('modulo_uint64', [UintType, UintType], UintType, (a, b) => (u(b) === 0n ? err('modulus by zero') : new UintVal(u(a) % u(b))))),
  func('_*_',
    overload('multiply_double', [DoubleType, DoubleType], DoubleType, (a, b) => d(a) * d(b)),
    overload('multiply_int64', [IntType, IntType], IntType, (a, b) => checkedInt(i(a) * i(b))),
    overload('multiply_uint64', [UintType, UintType], UintType, (a, b) => checkedUint(u(a) * u(b)))),
  func('-_',
    overload('negate_double', [DoubleType], DoubleType, (a) => -d(a)),
    overload('negate_int64', [IntType], IntType, (a) => checkedInt(-i(a)))),
  func('_-_',
    overload('subtract_double', [DoubleType, DoubleType], DoubleType, (a, b) => d(a) - d(b)),
    overload('subtract_duration_duration', [DurationType, DurationType], DurationType, (a, b) => checkedDuration(du(a) - du(b))),
    overload('subtract_int64', [IntType, IntType], IntType, (a, b) => checkedInt(i(a) - i(b))),
    overload('subtract_timestamp_duration', [TimestampType, DurationType], TimestampType, (a, b) => checkedTimestamp(ts(a) - du(b), zone(a))),
    overload('subtract_timestamp_timestamp', [TimestampType, TimestampType], DurationType, (a, b) => checkedDuration(ts(a) - ts(b))),
    overload('subtract_uint64', [UintType, UintType], UintType, (a, b) => checkedUint(u(a) - u(b)))),
  cmp('less', '_<_', (c) => c < 0),
  cmp('less_equals', '_<=_', (c) => c <= 0),
  cmp('greater', '_>_', (c) => c > 0),
  cmp('greater_equals', '_>=_', (c) => c >= 0),
  func('_[_]', overload('index_list', [listA, IntType], A), overload('index_map', [mapAB, A], B)),
  func('@in', overload('in_list', [A, listA], BoolType), overload('in_map', [A, mapAB], BoolType)),
  func('size',
    overload('size_bytes', [BytesType], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    memberOverload('bytes_size', [BytesType], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    overload('size_list', [listA], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    memberOverload('list_size', [listA], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    overload('size_map', [mapAB], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    memberOverload('map_size', [mapAB], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    overload('size_string', [StringType], IntType, (v) => BigInt(sizeOf(v) ?? 0)),
    memberOverload('string_size', [StringType], IntType, (v) => BigInt(sizeOf(v) ?? 0))),
  func('type', overload('type', [A], typeOfType(A), (v) => new TypeVal(typeOfValue(v)))),
  func('bool',
    overload('bool_to_bool', [BoolType], BoolType, (v) => v),
    overload('string_to_bool', [StringType], BoolType, (v) => {
      const t = s(v);
      if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(t)) return true;
      if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(t)) return false;
      return err(`type conversion error from 'string' to 'bool'`);
    })),
  func('bytes',
    overload('bytes_to_bytes', [BytesType], BytesType, (v) => v),
    overload('string_to_bytes', [StringType], BytesType, (v) => new TextEncoder().encode(s(v)))),
  func('double',
    overload('double_to_double', [DoubleType], DoubleType, (v) => v),
    overload('int64_to_double', [IntType], DoubleType, (v) => Number(i(v))),
    overload('string_to_double', [StringType], DoubleType, (v) => parseGoFloat(s(v))),
    overload('uint64_to_double', [UintType], DoubleType, (v) => Number(u(v)))),
  func('duration',
    overload('duration_to_duration', [DurationType], DurationType, (v) => v),
    overload('string_to_duration', [StringType], DurationType, (v) => {
      const ns = parseGoDuration(s(v));
      return ns === undefined ? err(`invalid duration: ${JSON.stringify(s(v))}`) : new DurationVal(ns);
    })),
  func('dyn', overload('to_dyn', [A], DynType, (v) => v)),
  func('int',
    overload('int64_to_int64', [IntType], IntType, (v) => v),
    overload('double_to_int64', [DoubleType], IntType, (v) => {
      const x = d(v);
      if (!Number.isFinite(x) || x <= -(2 ** 63) || x >= 2 ** 63) return intOverflow();
      return BigInt(Math.trunc(x));
    }),
    overload('duration_to_int64', [DurationType], IntType, (v) => du(v)),
    overload('string_to_int64', [StringType], IntType, (v) => parseGoInt(s(v), false)),
    overload('timestamp_to_int64', [TimestampType], IntType, (v) => {
      const n = ts(v);
      return n >= 0n ? n / NS_PER_SECOND : -((-n + NS_PER_SECOND - 1n) / NS_PER_SECOND);
    }),
    overload('uint64_to_int64', [UintType], IntType, (v) => (u(v) > INT64_MAX ? intOverflow() : u(v)))),
  func('string',
    overload('string_to_string', [StringType], StringType, (v) => v),
    overload('bool_to_string', [BoolType], StringType, (v) => String(v)),
    overload('bytes_to_string', [BytesType], StringType, (v) => (isValidUTF8(v as Uint8Array)
      ? new TextDecoder().decode(v as Uint8Array) : err('invalid UTF-8 in bytes, cannot convert to string'))),
    overload('double_to_string', [DoubleType], StringType, (v) => goFormatFloat(d(v))),
    overload('duration_to_string', [DurationType], StringType, (v) => formatDuration(du(v))),
    overload('int64_to_string', [IntType], StringType, (v) => String(i(v))),
    overload('timestamp_to_string', [TimestampType], StringType, (v) => formatRFC3339Nano(ts(v), zone(v))),
    overload('uint64_to_string', [UintType], StringType, (v) => String(u(v)))),
  func('timestamp',
    overload('timestamp_to_timestamp', [TimestampType], TimestampType, (v) => v),
    overload('int64_to_timestamp', [IntType], TimestampType, (v) => checkedTimestamp(i(v) * NS_PER_SECOND)),
    overload('string_to_timestamp', [StringType], TimestampType, (v) => {
      const t = parseRFC3339(s(v));
      return t === undefined ? err(`parsing time ${JSON.stringify(s(v))} as "2006-01-02T15:04:05Z07:00": cannot parse`) : new TimestampVal(t.ns, t.offset);
    })),
  func('uint',
    overload('uint64_to_uint64', [UintType], UintType, (v) => v),
    overload('double_to_uint64', [DoubleType], UintType, (v) => {
      const x = d(v);
      if (!Number.isFinite(x) || x < 0 || x >= 2 ** 64) return uintOverflow();
      return new UintVal(BigInt(Math.trunc(x)));
    }),
    overload('int64_to_uint64', [IntType], UintType, (v) => (i(v) < 0n ? uintOverflow() : new UintVal(i(v)))),
    overload('string_to_uint64', [StringType], UintType, (v) => {
      const r = parseGoInt(s(v), true);
      return r instanceof ErrVal ? r : new UintVal(r);
    })),
  func('contains', memberOverload('contains_string', [StringType, StringType], BoolType, (a, b) => s(a).includes(s(b)))),
  func('endsWith', memberOverload('ends_with_string', [StringType, StringType], BoolType, (a, b) => s(a).endsWith(s(b)))),
  func('startsWith', memberOverload('starts_with_string', [StringType, StringType], BoolType, (a, b) => s(a).startsWith(s(b)))),
  func('matches', overload('matches', [StringType, StringType], BoolType, matches),
    memberOverload('matches_string', [StringType, StringType], BoolType, matches)),
  ...timestampAccessors,
];

/** The type identifiers (`int`, `string`, `list`, …) and their `type(T)` types. */
export const typeIdentifiers: ReadonlyMap<string, ReturnType<typeof typeOfType>> = new Map([
  ['bool', typeOfType(BoolType)], ['bytes', typeOfType(BytesType)], ['double', typeOfType(DoubleType)],
  ['duration', typeOfType(DurationType)], ['int', typeOfType(IntType)], ['list', typeOfType(listType(A))],
  ['map', typeOfType(mapType(A, B))], ['null_type', typeOfType(NullType)], ['string', typeOfType(StringType)],
  ['timestamp', typeOfType(TimestampType)], ['type', typeOfType(typeOfType())], ['uint', typeOfType(UintType)],
  ['google.protobuf.Timestamp', typeOfType(TimestampType)], ['google.protobuf.Duration', typeOfType(DurationType)],
  // The Kubernetes libraries' types.
  ['net.IP', typeOfType(opaqueType('net.IP'))], ['net.CIDR', typeOfType(opaqueType('net.CIDR'))],
  ['kubernetes.Quantity', typeOfType(objectType('kubernetes.Quantity'))], ['kubernetes.URL', typeOfType(objectType('kubernetes.URL'))],
  ['kubernetes.NamedFormat', typeOfType(objectType('kubernetes.NamedFormat'))], ['kubernetes.Semver', typeOfType(objectType('kubernetes.Semver'))],
]);

/** The runtime value of a type identifier. */
export function typeIdentifierValue(name: string): TypeVal | undefined {
  const t = typeIdentifiers.get(name);
  if (t === undefined) return undefined;
  const inner = t.params[0];
  if (inner.kind === 'list') return new TypeVal(listType(DynType));
  if (inner.kind === 'map') return new TypeVal(mapType(DynType, DynType));
  return new TypeVal(inner);
}

