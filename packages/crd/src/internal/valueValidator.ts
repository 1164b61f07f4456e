/**
 * A port of kube-openapi's `validate.SchemaValidator` (k8s.io/kube-openapi/pkg/validation/validate)
 * with `strfmt.Default`, as apiextensions-apiserver runs it on custom resources.
 *
 * The port keeps what shapes the apiserver's output: the order in which the sub-validators run (type,
 * anyOf/oneOf/allOf/not, string, format, number, array, enum, object), that they all run even after
 * a type mismatch, the `MatchCount` bookkeeping that picks which failing `anyOf`/`oneOf` branch's
 * errors are reported, the de-duplication of identical messages, Go's numeric conversions, and every
 * message text. Where Go iterates a map (schema properties, object keys) the order is random upstream;
 * here schema properties go in sorted order and object keys in insertion order.
 */
import { goQuote, goJSON } from '@kubekit/core';
import { validatesFormat } from '../formats.js';
import type { CompiledPattern, CompiledSchema } from './valueSchema.js';
import {
  asFloat64,
  asInt64,
  compareInt64,
  deepEqual,
  enumMatches,
  goKind,
  goNumberText,
  int64OfFloat,
  isFloat64AJSONInteger,
  remInt64,
} from './valueGo.js';
import type { GoKind, Int64 } from './valueGo.js';

/** kube-openapi's error codes (`errors.InvalidTypeCode` …); `0` marks a plain (non-`Validation`) error. */
export const Code = {
  Plain: 0,
  InvalidType: 600,
  RequiredFail: 601,
  TooLongFail: 602,
  TooShortFail: 603,
  PatternFail: 604,
  EnumFail: 605,
  MultipleOfFail: 606,
  MaxFail: 607,
  MinFail: 608,
  UniqueFail: 609,
  MaxItemsFail: 610,
  MinItemsFail: 611,
  NoAdditionalItems: 612,
  TooFewProperties: 613,
  TooManyProperties: 614,
  UnallowedProperty: 615,
  FailedAllPatternProps: 616,
  MultipleOfMustBePositive: 617,
} as const;

/** One kube-openapi error: an `errors.Validation` (code ≥ 600) or a plain `error` (code 0). */
export interface ValidationError {
  readonly code: number;
  /** The path kube-openapi reports (`spec.replicas`, `.name`, `spec.items[0]`). */
  readonly name: string;
  /** The offending value; `undefined` stands for Go's nil. */
  readonly value: unknown;
  /** The limit for TooLong/TooMany errors. */
  readonly valid?: number;
  /** The enum values for EnumFail. */
  readonly values?: readonly unknown[];
  readonly message: string;
}

/** `validate.Result`: errors without duplicate messages, and the match count. */
export class Result {
  readonly errors: ValidationError[] = [];
  matchCount = 0;

  add(e: ValidationError): void {
    for (const x of this.errors) if (x.message === e.message) return;
    this.errors.push(e);
  }

  merge(r: Result): void {
    for (const e of r.errors) this.add(e);
    this.matchCount += r.matchCount;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

const IN = 'body';

function vErr(code: number, name: string, value: unknown, message: string, extra?: { valid?: number; values?: readonly unknown[] }): ValidationError {
  return { code, name, value, message, ...extra };
}

function plain(message: string): ValidationError {
  return { code: Code.Plain, name: '', value: undefined, message };
}

function invalidType(path: string, typeName: string, value: string): ValidationError {
  return vErr(Code.InvalidType, path, value, `${path} in ${IN} must be of type ${typeName}: ${goQuote(value)}`);
}

/** The JSON type and (Go) format that kube-openapi infers from a decoded value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool': return ['boolean', ''];
    case 'string': return ['string', ''];
    case 'int': return ['integer', 'int64'];
    case 'float': return ['number', 'float64'];
    case 'slice': return ['array', ''];
    case 'map': return ['object', ''];
    default: return ['', ''];
  }
}

/** Validates `data` against `s` and returns a fresh result (`SchemaValidator.Validate`). */
export function validateFresh(s: CompiledSchema, data: unknown, path: string): Result {
  const r = new Result();
  validateNode(s, data, path, r);
  return r;
}

/**
 * The old value a node correlates with during an update (apiserver's `CorrelatedObject`), which turns
 * on validation ratcheting for it: errors in a node whose value did not change are dropped.
 */
export interface Correlation {
  readonly old: unknown;
}

/**
 * Validates a property or item: plainly without a correlation, otherwise as apiextensions-apiserver's
 * `ratchetingValueValidator` (errors become warnings when the value equals its old value).
 */
function validateChild(s: CompiledSchema, data: unknown, path: string, acc: Result, corr: Correlation | undefined): void {
  if (corr === undefined) {
    validateNode(s, data, path, acc);
    return;
  }
  const r = new Result();
  validateNode(s, data, path, r, corr);
  if (!r.valid && ratchetEqual(s, data, corr.old)) acc.matchCount += r.matchCount;
  else acc.merge(r);
}

/** Validates the root of an update with ratcheting against `old`. */
export function validateUpdateRoot(s: CompiledSchema, data: unknown, old: unknown): Result {
  const r = new Result();
  validateChild(s, data, '', r, { old });
  return r;
}

/** `CorrelatedObject.Key`: the old value of a property that exists in both objects and in the schema. */
function correlateKey(corr: Correlation | undefined, data: Record<string, unknown>, key: string, hasSchema: boolean): Correlation | undefined {
  if (corr === undefined || !hasSchema || goKind(corr.old) !== 'map') return undefined;
  const old = corr.old as Record<string, unknown>;
  if (!Object.hasOwn(old, key) || !Object.hasOwn(data, key)) return undefined;
  return { old: old[key] };
}

function mapListKey(s: CompiledSchema, x: unknown): string | undefined {
  if (goKind(x) !== 'map' || s.listMapKeys.length === 0) return undefined;
  const m = x as Record<string, unknown>;
  const parts: string[] = [];
  for (const k of s.listMapKeys) {
    if (!Object.hasOwn(m, k)) return undefined;
    parts.push(goJSON(m[k]));
  }
  return parts.join('\u0000');
}

/** `correlateOldValueForChildAtNewIndex`: only `x-kubernetes-list-type: map` lists correlate, by key. */
function correlateIndex(s: CompiledSchema, corr: Correlation | undefined, data: readonly unknown[], i: number): Correlation | undefined {
  if (corr === undefined || s.listType !== 'map' || s.items === undefined || !Array.isArray(corr.old)) return undefined;
  const key = mapListKey(s, data[i]);
  if (key === undefined) return undefined;
  for (const o of corr.old as unknown[]) {
    if (mapListKey(s, o) === key) return o === null || o === undefined ? undefined : { old: o };
  }
  return undefined;
}

/** `CorrelatedObject.CachedDeepEqual`: deep equality where map-lists compare by key, not position. */
function ratchetEqual(s: CompiledSchema | undefined, data: unknown, old: unknown): boolean {
  const kn = goKind(data);
  const ko = goKind(old);
  if (kn === 'nil' || ko === 'nil') return kn === ko;
  if (s === undefined) return deepEqual(data, old);
  if ((kn === 'slice') !== (ko === 'slice') || (kn === 'map') !== (ko === 'map')) return false;
  if (kn === 'slice') {
    const xs = data as unknown[];
    const os = old as unknown[];
    if (xs.length !== os.length) return false;
    const corr = { old };
    for (let i = 0; i < xs.length; i++) {
      const c = correlateIndex(s, corr, xs, i);
      if (c === undefined) return s.listType === 'map' && s.items !== undefined ? false : deepEqual(old, data);
      if (!ratchetEqual(s.items, xs[i], c.old)) return false;
    }
    return true;
  }
  if (kn === 'map') {
    const xm = data as Record<string, unknown>;
    const om = old as Record<string, unknown>;
    const keys = Object.keys(xm);
    if (keys.length !== Object.keys(om).length) return false;
    for (const k of keys) {
      const sub = s.properties.get(k) ?? s.additionalProperties?.schema;
      if (sub === undefined || !Object.hasOwn(om, k)) return false;
      if (!ratchetEqual(sub, xm[k], om[k])) return false;
    }
    return true;
  }
  return deepEqual(data, old);
}

/** `SchemaValidator.Validate`, merging into `acc` (equivalent to Go's `Merge` of a fresh result). */
export function validateNode(s: CompiledSchema, data: unknown, path: string, acc: Result, corr?: Correlation): void {
  const kind = goKind(data);
  if (kind === 'nil') {
    if (s.types.length > 0 && !s.types.includes('null') && !s.nullable) acc.add(invalidType(path, s.typeText, 'null'));
    else acc.matchCount++;
    validateEnum(s, data, kind, path, acc);
    return;
  }
  if (s.types.length > 0 || s.format !== '') {
    validateType(s, data, kind, path, acc);
    acc.matchCount++;
  }
  if (s.hasSchemaProps) validateSchemaProps(s, data, kind, path, acc);
  else acc.matchCount++;
  acc.matchCount++;
  switch (kind) {
    case 'string':
      validateString(s, data as string, path, acc);
      acc.matchCount++;
      if (s.formatKnown) {
        if (!validatesFormat(s.format, data as string)) acc.add(invalidTypeData(path, s.format, data as string));
        acc.matchCount++;
      }
      break;
    case 'int':
    case 'float':
      validateNumber(s, data, kind, path, acc);
      acc.matchCount++;
      break;
    case 'slice':
      validateSlice(s, data as unknown[], path, acc, corr);
      acc.matchCount++;
      break;
    default:
      break;
  }
  validateEnum(s, data, kind, path, acc);
  acc.matchCount++;
  if (kind === 'map') {
    validateObject(s, data as Record<string, unknown>, path, acc, corr);
    acc.matchCount++;
  }
  acc.matchCount++;
}

function invalidTypeData(path: string, format: string, data: string): ValidationError {
  return vErr(Code.InvalidType, path, data, `${path} in ${IN} must be of type ${format}: ${goQuote(data)}`);
}

/**
 * The paths (as this validator writes them: `spec.list[0].n`) of the numbers the request wrote as floats
 * (`1.0`, `1e2`) although they are integers, while {@link withIntegralFloats} runs: Go decodes those as
 * float64, so a type error names them `number` (and `float64`), not `integer`.
 */
let integralFloats: ReadonlySet<string> | undefined;

/** Runs `fn` with {@link integralFloats} set to `paths` (none when `undefined` or empty). */
export function withIntegralFloats<T>(paths: ReadonlySet<string> | undefined, fn: () => T): T {
  const saved = integralFloats;
  integralFloats = paths !== undefined && paths.size > 0 ? paths : undefined;
  try {
    return fn();
  } finally {
    integralFloats = saved;
  }
}

function validateType(s: CompiledSchema, data: unknown, decoded: GoKind, path: string, acc: Result): void {
  const kind = decoded === 'int' && integralFloats?.has(path) === true ? 'float' : decoded;
  const [schType, format] = schemaInfo(kind);
  const typeMatches = s.types.includes(schType);
  const isFloatInt = schType === 'number' && s.hasInteger && isFloat64AJSONInteger(asFloat64(data));
  const isIntFloat = schType === 'integer' && s.hasNumber;
  const stringOrSlice = kind === 'string' || kind === 'slice';
  if (!stringOrSlice && s.format !== '' && !(typeMatches || format === s.format || isFloatInt || isIntFloat)) {
    acc.add(invalidType(path, s.format, format));
    return;
  }
  if (!(s.hasNumber || s.hasInteger) && s.format !== '' && stringOrSlice) {
    acc.matchCount++;
    return;
  }
  if (!(typeMatches || isFloatInt || isIntFloat)) {
    acc.add(invalidType(path, s.typeText, schType));
    return;
  }
  acc.matchCount++;
}

/** `keepRelevantErrors`: errors whose text starts with `IMPORTANT!`, stripped of it, as plain errors. */
function keepRelevant(r: Result, into: Result): void {
  for (const e of r.errors) if (e.message.startsWith('IMPORTANT!')) into.add(plain(e.message.slice('IMPORTANT!'.length)));
}

function validateSchemaProps(s: CompiledSchema, data: unknown, kind: GoKind, path: string, acc: Result): void {
  let keepAnyOf = new Result();
  let keepOneOf = new Result();
  const keepAllOf = new Result();

  if (s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const branch of s.anyOf) {
      const r = validateFresh(branch, data, path);
      keepRelevant(r, keepAnyOf);
      if (r.valid) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        keepAnyOf = new Result();
        break;
      }
      if (best === undefined || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) acc.add(plain(`${goQuote(path)} must validate at least one schema (anyOf)`));
    if (best !== undefined) acc.merge(best);
    else if (firstSuccess !== undefined) acc.merge(firstSuccess);
  }

  if (s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const branch of s.oneOf) {
      const r = validateFresh(branch, data, path);
      keepRelevant(r, keepOneOf);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        keepOneOf = new Result();
        continue;
      }
      if (validated === 0 && (best === undefined || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      acc.add(plain(`${goQuote(path)} must validate one and only one schema (oneOf). ${more}`));
      if (best !== undefined) acc.merge(best);
    } else if (firstSuccess !== undefined) {
      acc.merge(firstSuccess);
    }
  }

  if (s.allOf.length > 0) {
    let validated = 0;
    for (const branch of s.allOf) {
      const r = validateFresh(branch, data, path);
      keepRelevant(r, keepAllOf);
      if (r.valid) validated++;
      acc.merge(r);
    }
    if (validated !== s.allOf.length) {
      acc.add(plain(`${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
    }
  }

  if (s.not !== undefined && validateFresh(s.not, data, path).valid) {
    acc.add(plain(`${goQuote(path)} must not validate the schema (not)`));
  }

  if (s.dependencies.length > 0 && kind === 'map') {
    const val = data as Record<string, unknown>;
    for (const key of Object.keys(val)) {
      const dep = s.dependencies.find(([k]) => k === key)?.[1];
      if (dep === undefined) continue;
      if (!Array.isArray(dep)) {
        validateNode(dep as CompiledSchema, data, `${path}.${key}`, acc);
        continue;
      }
      for (const depKey of dep as readonly string[]) {
        if (!Object.hasOwn(val, depKey)) acc.add(plain(`${goQuote(path)} has a dependency on ${depKey}`));
      }
    }
  }

  acc.matchCount++;
  for (const k of [keepAllOf, keepOneOf, keepAnyOf]) acc.merge(k);
}

/** Go's `utf8.RuneCountInString`: code points (a lone surrogate counts as one, as U+FFFD does in Go). */
function runeCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

function matchPattern(p: CompiledPattern, data: string): boolean | string {
  return p.error ?? p.test(data);
}

function validateString(s: CompiledSchema, data: string, path: string, acc: Result): void {
  if (s.maxLength !== undefined && data.length > s.maxLength && runeCount(data) > s.maxLength) {
    acc.add(vErr(Code.TooLongFail, path, data, `${path} in ${IN} should be at most ${s.maxLength} chars long`, { valid: s.maxLength }));
    return;
  }
  if (s.minLength !== undefined && (data.length < s.minLength || runeCount(data) < s.minLength)) {
    acc.add(vErr(Code.TooShortFail, path, data, `${path} in ${IN} should be at least ${s.minLength} chars long`, { valid: s.minLength }));
    return;
  }
  if (s.patternRe !== undefined) {
    const m = matchPattern(s.patternRe, data);
    if (typeof m === 'string') {
      acc.add(vErr(Code.PatternFail, path, data, `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${m}'`));
    } else if (!m) {
      acc.add(vErr(Code.PatternFail, path, data, `${path} in ${IN} should match '${s.pattern}'`));
    }
  }
}

type Num = { kind: 'int'; v: Int64 } | { kind: 'float'; v: number };

/**
 * `numberValidator.Validate` as kube-openapi vendored by v1.34 (f3f2b991d03b) runs it: multipleOf,
 * minimum and maximum (merged in that order), compared natively. That version gives the validator
 * neither type nor format, so nothing is ever out of its type's range (no "Checked value must be of type
 * integer" error); later kube-openapi checks ranges against int32/int64/float/double.
 */
function validateNumber(s: CompiledSchema, data: unknown, kind: 'int' | 'float', path: string, acc: Result): void {
  if (s.multipleOf !== undefined || s.minimum !== undefined || s.maximum !== undefined) {
    const native: Num = kind === 'int' ? { kind, v: asInt64(data) } : { kind, v: asFloat64(data) };
    if (s.multipleOf !== undefined) {
      const err = multipleOf(path, native, s.multipleOf);
      if (err !== undefined) acc.add(err);
    }
    if (s.minimum !== undefined) {
      const err = bound(path, native, s.minimum, s.exclusiveMinimum, false);
      if (err !== undefined) acc.add(err);
    }
    if (s.maximum !== undefined) {
      const err = bound(path, native, s.maximum, s.exclusiveMaximum, true);
      if (err !== undefined) acc.add(err);
    }
  }
  acc.matchCount++;
}

function multipleOf(path: string, n: Num, factor: number): ValidationError | undefined {
  if (n.kind === 'int') {
    const f = int64OfFloat(factor);
    if (compareInt64(f, 0) <= 0) {
      return vErr(Code.MultipleOfMustBePositive, path, f, `factor MultipleOf declared for ${path} must be positive: ${String(f)}`);
    }
    if (compareInt64(remInt64(n.v, f), 0) !== 0) {
      return vErr(Code.MultipleOfFail, path, n.v, `${path} in ${IN} should be a multiple of ${String(f)}`);
    }
    return undefined;
  }
  const factorText = goNumberText(factor, 'float');
  if (factor <= 0) {
    return vErr(Code.MultipleOfMustBePositive, path, factor, `factor MultipleOf declared for ${path} must be positive: ${factorText}`);
  }
  const mult = factor < 1 ? (1 / factor) * n.v : n.v / factor;
  if (!isFloat64AJSONInteger(mult)) return vErr(Code.MultipleOfFail, path, n.v, `${path} in ${IN} should be a multiple of ${factorText}`);
  return undefined;
}

function bound(path: string, n: Num, limit: number, exclusive: boolean, isMax: boolean): ValidationError | undefined {
  let cmp: number;
  let limitText: string;
  if (n.kind === 'int') {
    const l = int64OfFloat(limit);
    cmp = compareInt64(n.v, l);
    limitText = String(l);
  } else {
    // NaN compares false both ways, as in Go.
    cmp = n.v > limit ? 1 : n.v < limit ? -1 : n.v === limit ? 0 : NaN;
    limitText = goNumberText(limit, 'float');
  }
  if (Number.isNaN(cmp)) return undefined;
  if (isMax) {
    if ((!exclusive && cmp > 0) || (exclusive && cmp >= 0)) {
      const word = exclusive ? 'less than' : 'less than or equal to';
      return vErr(Code.MaxFail, path, n.v, `${path} in ${IN} should be ${word} ${limitText}`);
    }
  } else if ((!exclusive && cmp < 0) || (exclusive && cmp <= 0)) {
    const word = exclusive ? 'greater than' : 'greater than or equal to';
    return vErr(Code.MinFail, path, n.v, `${path} in ${IN} should be ${word} ${limitText}`);
  }
  return undefined;
}

function validateSlice(s: CompiledSchema, data: unknown[], path: string, acc: Result, corr: Correlation | undefined): void {
  const size = data.length;
  if (s.items !== undefined) {
    for (let i = 0; i < size; i++) validateChild(s.items, data[i], `${path}[${i}]`, acc, correlateIndex(s, corr, data, i));
  }
  let itemsSize = 0;
  if (s.itemsList !== undefined && s.itemsList.length > 0) {
    itemsSize = s.itemsList.length;
    for (let i = 0; i < itemsSize && i < size; i++) validateNode(s.itemsList[i], data[i], `${path}[${i}]`, acc);
  }
  if (s.additionalItems !== undefined && itemsSize < size) {
    if (itemsSize > 0 && !s.additionalItems.allows) acc.add(plain("array doesn't allow for additional items"));
    const extra = s.additionalItems.schema;
    if (extra !== undefined) {
      // Go loops to `size-itemsSize+1` (and panics past the end); stop at the end instead.
      const end = Math.min(size, size - itemsSize + 1);
      for (let i = itemsSize; i < end; i++) validateNode(extra, data[i], `${path}[${i}]`, acc);
    }
  }
  if (s.minItems !== undefined && size < s.minItems) {
    acc.add(vErr(Code.MinItemsFail, path, size, `${path} in ${IN} should have at least ${s.minItems} items`, { valid: s.minItems }));
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    acc.add(vErr(Code.MaxItemsFail, path, size, `${path} in ${IN} should have at most ${s.maxItems} items`, { valid: s.maxItems }));
  }
  if (s.uniqueItems && hasDuplicates(data)) acc.add(vErr(Code.UniqueFail, path, undefined, `${path} in ${IN} shouldn't contain duplicates`));
  acc.matchCount++;
}

function hasDuplicates(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) {
    for (let j = 0; j < i; j++) if (deepEqual(items[i], items[j])) return true;
  }
  return false;
}

function validateEnum(s: CompiledSchema, data: unknown, kind: GoKind, path: string, acc: Result): void {
  if (s.enum === undefined) return;
  for (const e of s.enum) if (enumMatches(data, kind, e)) return;
  acc.add(vErr(Code.EnumFail, path, kind === 'nil' ? undefined : data, `${path} in ${IN} should be one of ${enumText(s.enum)}`, { values: s.enum }));
}

/** Go's `%v` of the enum's `[]interface{}` (only used in a message the apiserver replaces). */
function enumText(values: readonly unknown[]): string {
  return `[${values.map((v) => (typeof v === 'string' ? v : String(v))).join(' ')}]`;
}

function patternMatches(p: CompiledPattern, key: string): boolean {
  return p.error === undefined && p.test(key);
}

/** `validatePatternProperty`: validates `value` against every matching pattern; returns the patterns. */
function validatePatternProperty(s: CompiledSchema, key: string, value: unknown, path: string, acc: Result, corr: Correlation | undefined): CompiledSchema[] {
  const matched: CompiledSchema[] = [];
  for (const [, p, schema] of s.patternProperties) {
    if (patternMatches(p, key)) {
      matched.push(schema);
      validateChild(schema, value, `${path}.${key}`, acc, corr);
    }
  }
  return matched;
}

/** The correlation of a property; ratcheting never applies to the root's apiVersion and kind. */
function keyCorrelation(corr: Correlation | undefined, path: string, val: Record<string, unknown>, k: string, hasSchema: boolean): Correlation | undefined {
  if (corr === undefined || (path === '' && (k === 'kind' || k === 'apiVersion'))) return undefined;
  return correlateKey(corr, val, k, hasSchema);
}

function validateObject(s: CompiledSchema, val: Record<string, unknown>, path: string, acc: Result, corr: Correlation | undefined): void {
  const apSchema = s.additionalProperties?.schema !== undefined;
  const needKeys = s.minProperties !== undefined || s.maxProperties !== undefined || s.additionalProperties !== undefined || s.patternProperties.length > 0;
  const keys = needKeys ? Object.keys(val) : [];
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    acc.add(vErr(Code.TooFewProperties, path, keys.length, `${path} in ${IN} should have at least ${s.minProperties} properties`, { valid: s.minProperties }));
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    acc.add(vErr(Code.TooManyProperties, path, keys.length, `${path} in ${IN} should have at most ${s.maxProperties} properties`, { valid: s.maxProperties }));
  }
  const ap = s.additionalProperties;
  if (ap !== undefined && !ap.allows) {
    for (const k of keys) {
      if (s.properties.has(k) || s.patternProperties.some(([, p]) => patternMatches(p, k))) continue;
      acc.add(vErr(Code.UnallowedProperty, path, k, `${path}.${k} in ${IN} is a forbidden property`));
    }
  } else if (ap?.schema !== undefined || s.patternProperties.length > 0) {
    for (const k of keys) {
      const regular = s.properties.has(k);
      const matched = validatePatternProperty(s, k, val[k], path, acc, keyCorrelation(corr, path, val, k, regular || apSchema));
      if (!regular && matched.length === 0 && ap?.schema !== undefined) validateChild(ap.schema, val[k], `${path}.${k}`, acc, keyCorrelation(corr, path, val, k, true));
    }
  }
  for (const [name, schema] of s.propertyList) {
    if (Object.hasOwn(val, name)) validateChild(schema, val[name], path === '' ? name : `${path}.${name}`, acc, keyCorrelation(corr, path, val, name, true));
  }
  for (const k of s.required) {
    if (!Object.hasOwn(val, k)) acc.add(vErr(Code.RequiredFail, `${path}.${k}`, undefined, `${path}.${k} in ${IN} is required`));
  }
  if (s.patternProperties.length > 0) {
    for (const k of keys) {
      const regular = s.properties.has(k);
      const c = keyCorrelation(corr, path, val, k, regular || apSchema);
      const matched = validatePatternProperty(s, k, val[k], path, acc, c);
      if (!regular) for (const schema of matched) validateChild(schema, val[k], `${path}.${k}`, acc, c);
    }
  }
}
