/**
 * A JSONSchemaProps converted once into the shape kube-openapi's validator works on
 * (apiextensions-apiserver's `ConvertJSONSchemaPropsWithPostProcess`): `x-kubernetes-int-or-string`
 * becomes the type list `integer,string`, unsupported formats are dropped, properties are listed in a
 * fixed order, and patterns are compiled with an RE2 engine, as Go's `regexp` is RE2.
 */
import { effectiveFormat, isKnownFormat } from '../formats.js';
import type { JSONSchemaProps } from '../types.js';
import { goKind } from './valueGo.js';
import { compileGoRegexp } from './valuePattern.js';
import type { GoRegexp } from './valuePattern.js';

/** A compiled pattern, or the Go-style message of why it does not compile. */
export type CompiledPattern = GoRegexp;

/** `additionalProperties` / `additionalItems`: allowed or not, with an optional schema. */
export interface SchemaOrBool {
  allows: boolean;
  schema: CompiledSchema | undefined;
}

/** One schema node, ready for validation. */
export interface CompiledSchema {
  readonly types: readonly string[];
  readonly typeText: string;
  readonly nullable: boolean;
  readonly format: string;
  readonly formatKnown: boolean;
  readonly enum: readonly unknown[] | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: string;
  readonly patternRe: CompiledPattern | undefined;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly items: CompiledSchema | undefined;
  readonly itemsList: readonly CompiledSchema[] | undefined;
  readonly additionalItems: SchemaOrBool | undefined;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly required: readonly string[];
  readonly properties: ReadonlyMap<string, CompiledSchema>;
  readonly propertyList: readonly (readonly [string, CompiledSchema])[];
  readonly additionalProperties: SchemaOrBool | undefined;
  readonly patternProperties: readonly (readonly [string, CompiledPattern, CompiledSchema])[];
  readonly allOf: readonly CompiledSchema[];
  readonly anyOf: readonly CompiledSchema[];
  readonly oneOf: readonly CompiledSchema[];
  readonly not: CompiledSchema | undefined;
  readonly dependencies: readonly (readonly [string, CompiledSchema | readonly string[]])[];
  /** Whether any of allOf/anyOf/oneOf/not/dependencies is present. */
  readonly hasSchemaProps: boolean;
  /** Whether the type list contains integer / number (precomputed for the type check). */
  readonly hasInteger: boolean;
  readonly hasNumber: boolean;
  /** `x-kubernetes-list-type` and `x-kubernetes-list-map-keys`, for ratcheting's correlation. */
  readonly listType: string;
  readonly listMapKeys: readonly string[];
}

/** Options of {@link compileSchema}. */
export interface CompileOptions {
  /** Drop formats the apiserver does not support for custom resources, as it does. */
  stripUnsupportedFormats: boolean;
}

/** The deepest schema compiled; beyond it the schema is reported as too deep rather than overflowing. */
export const maxSchemaDepth = 5000;

/** Thrown (and caught by the caller) when a schema nests deeper than {@link maxSchemaDepth}. */
export class SchemaTooDeepError extends Error {
  constructor() {
    super(`schema nested more than ${maxSchemaDepth} levels deep`);
    this.name = 'SchemaTooDeepError';
  }
}

const patternCache = new Map<string, CompiledPattern>();

/** Compiles a Go regular expression (cached, as kube-openapi caches them). */
export function compilePattern(pattern: string): CompiledPattern {
  let c = patternCache.get(pattern);
  if (c === undefined) {
    c = compileGoRegexp(pattern);
    if (patternCache.size > 10000) patternCache.clear();
    patternCache.set(pattern, c);
  }
  return c;
}

function num(v: unknown): number | undefined {
  const k = goKind(v);
  return k === 'int' || k === 'float' ? Number(v) : undefined;
}

const caches = { strip: new WeakMap<object, CompiledSchema>(), keep: new WeakMap<object, CompiledSchema>() };

/**
 * Compiles `schema` (cached per schema object; a schema must not be mutated after it was used).
 *
 * @throws SchemaTooDeepError when the schema nests deeper than {@link maxSchemaDepth}.
 */
export function compileSchema(schema: JSONSchemaProps, options: CompileOptions): CompiledSchema {
  const cache = options.stripUnsupportedFormats ? caches.strip : caches.keep;
  let c = cache.get(schema);
  if (c === undefined) {
    c = compile(schema, options, 0);
    cache.set(schema, c);
  }
  return c;
}

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compile(s: JSONSchemaProps, options: CompileOptions, depth: number): CompiledSchema {
  if (depth > maxSchemaDepth) throw new SchemaTooDeepError();
  const sub = (x: unknown): CompiledSchema => compile(isSchema(x) ? x : {}, options, depth + 1);
  const list = (x: unknown): CompiledSchema[] => (Array.isArray(x) ? x.map(sub) : []);
  const orBool = (x: unknown): SchemaOrBool | undefined => {
    if (typeof x === 'boolean') return { allows: x, schema: undefined };
    if (isSchema(x)) return { allows: true, schema: sub(x) };
    return undefined;
  };

  // A CRD schema's type is one name; kube-openapi's is a list, which arbitrary schemas may use.
  const rawType: unknown = s.type;
  const declared = typeof rawType === 'string' ? (rawType === '' ? [] : [rawType])
    : Array.isArray(rawType) ? rawType.filter((t): t is string => typeof t === 'string') : [];
  const types = s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : declared;
  const rawFormat = typeof s.format === 'string' ? s.format : '';
  const format = options.stripUnsupportedFormats ? effectiveFormat(types.length === 1 ? types[0] : '', rawFormat) : rawFormat;

  const properties = new Map<string, CompiledSchema>();
  if (isSchema(s.properties)) {
    // Go iterates a map in random order; a sorted order keeps messages deterministic.
    for (const k of Object.keys(s.properties).sort()) properties.set(k, sub(s.properties[k]));
  }
  const patternProperties: [string, CompiledPattern, CompiledSchema][] = [];
  if (isSchema(s.patternProperties)) {
    for (const k of Object.keys(s.patternProperties).sort()) patternProperties.push([k, compilePattern(k), sub(s.patternProperties[k])]);
  }
  const dependencies: [string, CompiledSchema | string[]][] = [];
  if (isSchema(s.dependencies)) {
    for (const k of Object.keys(s.dependencies).sort()) {
      const d: unknown = s.dependencies[k];
      dependencies.push([k, Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : sub(d)]);
    }
  }
  const items = s.items;
  const pattern = typeof s.pattern === 'string' ? s.pattern : '';
  const allOf = list(s.allOf);
  const anyOf = list(s.anyOf);
  const oneOf = list(s.oneOf);
  const not = isSchema(s.not) ? sub(s.not) : undefined;

  return {
    types,
    typeText: types.join(','),
    nullable: s.nullable === true,
    format,
    formatKnown: format !== '' && isKnownFormat(format),
    enum: Array.isArray(s.enum) && s.enum.length > 0 ? s.enum : undefined,
    maximum: num(s.maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum: num(s.minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    multipleOf: num(s.multipleOf),
    maxLength: num(s.maxLength),
    minLength: num(s.minLength),
    pattern,
    patternRe: pattern !== '' ? compilePattern(pattern) : undefined,
    maxItems: num(s.maxItems),
    minItems: num(s.minItems),
    uniqueItems: s.uniqueItems === true,
    items: isSchema(items) ? sub(items) : undefined,
    itemsList: Array.isArray(items) ? items.map(sub) : undefined,
    additionalItems: orBool(s.additionalItems),
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [],
    properties,
    propertyList: [...properties],
    additionalProperties: orBool(s.additionalProperties),
    patternProperties,
    allOf,
    anyOf,
    oneOf,
    not,
    dependencies,
    hasSchemaProps: allOf.length > 0 || anyOf.length > 0 || oneOf.length > 0 || not !== undefined || dependencies.length > 0,
    hasInteger: types.includes('integer'),
    hasNumber: types.includes('number'),
    listType: typeof s['x-kubernetes-list-type'] === 'string' ? s['x-kubernetes-list-type'] : '',
    listMapKeys: Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'].filter((x): x is string => typeof x === 'string') : [],
  };
}
