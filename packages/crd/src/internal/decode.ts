/**
 * Decoding of an untrusted CRD or schema into the well-typed {@link Crd} / {@link Schema} model, the way
 * the apiserver's strict JSON decoding does: wrong JSON types and unknown fields are errors (kubectl
 * applies with strict field validation), `null` stands for an absent value, and integers must be
 * integral. Decoding never throws; it bounds nesting depth and total size so hostile input gets a
 * field error instead of a stack overflow.
 */
import { FieldError, FieldPath } from '@kubekit/core';
import type { JSONSchemaProps } from '../types.js';
import type { ColumnDef, JSONBox, Names, Rule, Scale, Schema, SchemaOrArray, SchemaOrBool, SchemaOrStringArray, Subresources } from './model.js';

/**
 * The deepest nesting of schemas (each `properties`, `items`, `additionalProperties`, `allOf`, … step is
 * one level) that kubekit validates. The apiserver's own bound is its JSON decoder's nesting limit of
 * 10,000 JSON levels; real CRDs stay far below 100 levels.
 */
export const maxSchemaDepth = 256;

/** The most schema nodes one CRD may hold (a 3 MiB request holds fewer). */
export const maxSchemaNodes = 1_000_000;

/** The deepest nesting of a JSON value (`default`, `enum`, `example`) that kubekit accepts. */
export const maxValueDepth = 1_000;

type Obj = Record<string, unknown>;

const schemaKeys = new Set([
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems',
  'multipleOf', 'enum', 'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not',
  'properties', 'additionalProperties', 'patternProperties', 'dependencies', 'additionalItems', 'definitions',
  'externalDocs', 'example', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);


const externalDocsKeys = new Set(['description', 'url']);
const ruleKeys = new Set(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf']);
const namesKeys = new Set(['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories']);
const subresourcesKeys = new Set(['status', 'scale']);
const scaleKeys = new Set(['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath']);
const columnKeys = new Set(['name', 'type', 'format', 'description', 'priority', 'jsonPath']);
const noKeys = new Set<string>();

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number':
    case 'bigint': return 'number';
    case 'boolean': return 'bool';
    case 'object': return 'object';
    default: return `non-JSON ${typeof v}`;
  }
}

function isPlainObject(v: unknown): v is Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A JSON number as a float64, or undefined when `v` is no number. */
function toFloat(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** Collects decode errors and enforces the size bounds. */
export class Decoder {
  readonly errors: FieldError[] = [];
  private nodes = 0;
  private tooLarge = false;

  typeError(path: FieldPath, value: unknown, goType: string): void {
    this.errors.push(new FieldError('FieldValueTypeInvalid', path, safeBadValue(value),
      `json: cannot unmarshal ${jsonKind(value)} into Go value of type ${goType}`));
  }

  /** An object, or undefined (with an error unless null/undefined). */
  object(v: unknown, path: FieldPath, goType: string): Obj | undefined {
    if (v === null || v === undefined) return undefined;
    if (isPlainObject(v)) return v;
    this.typeError(path, v, goType);
    return undefined;
  }

  /** Reports keys of `obj` outside `known` as unknown fields (strict decoding). */
  unknownKeys(obj: Obj, known: ReadonlySet<string>, path: FieldPath): void {
    for (const k of Object.keys(obj)) {
      // A key holding `undefined` is absent from the JSON the object stands for.
      if (!known.has(k) && obj[k] !== undefined) this.errors.push(new FieldError('FieldValueForbidden', path.child(k), '', 'unknown field'));
    }
  }

  // The readers below take the parent path and the key, and build the field's path only for an error.

  string(v: unknown, path: FieldPath, key?: string): string | undefined {
    if (typeof v === 'string') return v;
    if (v === null || v === undefined) return undefined;
    this.typeError(key === undefined ? path : path.child(key), v, 'string');
    return undefined;
  }

  bool(v: unknown, path: FieldPath, key?: string): boolean | undefined {
    if (typeof v === 'boolean') return v;
    if (v === null || v === undefined) return undefined;
    this.typeError(key === undefined ? path : path.child(key), v, 'bool');
    return undefined;
  }

  int(v: unknown, parent: FieldPath, key: string | undefined, bits: 32 | 64): number | undefined {
    if (v === null || v === undefined) return undefined;
    const path = key === undefined ? parent : parent.child(key);
    const goType = bits === 32 ? 'int32' : 'int64';
    const limit = bits === 32 ? 2n ** 31n : 2n ** 63n;
    if (typeof v === 'bigint') {
      if (v >= -limit && v < limit) return Number(v);
    } else if (typeof v === 'number' && Number.isInteger(v)) {
      if (bits === 64 || (v >= -(2 ** 31) && v < 2 ** 31)) return v;
    }
    this.typeError(path, v, goType);
    return undefined;
  }

  float(v: unknown, path: FieldPath, key?: string): number | undefined {
    if (v === null || v === undefined) return undefined;
    const f = toFloat(v);
    if (f !== undefined) return f;
    this.typeError(key === undefined ? path : path.child(key), v, 'float64');
    return undefined;
  }

  stringArray(v: unknown, parent: FieldPath, key?: string): string[] | undefined {
    if (v === null || v === undefined) return undefined;
    const path = key === undefined ? parent : parent.child(key);
    if (!Array.isArray(v)) {
      this.typeError(path, v, '[]string');
      return undefined;
    }
    const out: string[] = [];
    v.forEach((item, i) => {
      const s = this.string(item, path.index(i));
      out.push(s ?? '');
    });
    return out;
  }

  array<T>(v: unknown, path: FieldPath, goType: string, item: (x: unknown, p: FieldPath) => T | undefined): T[] | undefined {
    if (v === null || v === undefined) return undefined;
    if (!Array.isArray(v)) {
      this.typeError(path, v, goType);
      return undefined;
    }
    const out: T[] = [];
    v.forEach((x, i) => {
      const d = item(x, path.index(i));
      if (d !== undefined) out.push(d);
    });
    return out;
  }

  stringMap(v: unknown, path: FieldPath): Record<string, string> | undefined {
    const o = this.object(v, path, 'map[string]string');
    if (o === undefined) return undefined;
    const out: Record<string, string> = {};
    for (const [k, x] of Object.entries(o)) if (x !== undefined) out[k] = this.string(x, path.key(k)) ?? '';
    return out;
  }

  /** A JSON value (for `default`, `enum`, `example`); undefined for null. */
  json(v: unknown, path: FieldPath, key?: string): JSONBox | undefined {
    if (v === null || v === undefined) return undefined;
    const problem = jsonProblem(v);
    if (problem !== undefined) {
      this.errors.push(new FieldError('FieldValueTypeInvalid', key === undefined ? path : path.child(key), safeBadValue(v), problem));
      return undefined;
    }
    return { value: v };
  }

  // ---- schemas ----

  schema(v: unknown, path: FieldPath, depth: number): Schema | undefined {
    if (this.tooLarge) return undefined;
    if (v === null || v === undefined) return undefined;
    if (depth > maxSchemaDepth) {
      this.errors.push(new FieldError('FieldValueForbidden', path, '',
        `must not be nested more than ${maxSchemaDepth} levels deep (kubekit's bound; the schema below this point is not validated)`));
      this.tooLarge = true;
      return undefined;
    }
    if (++this.nodes > maxSchemaNodes) {
      this.errors.push(new FieldError('FieldValueForbidden', path, '', `must not hold more than ${maxSchemaNodes} schemas in total (kubekit's bound)`));
      this.tooLarge = true;
      return undefined;
    }
    const o = this.object(v, path, 'v1.JSONSchemaProps');
    if (o === undefined) return undefined;
    this.unknownKeys(o, schemaKeys, path);
    const d = depth + 1;
    const s: Schema = {
      raw: o as JSONSchemaProps,
      id: this.string(o.id, path, 'id') ?? '',
      $schema: this.string(o.$schema, path, '$schema') ?? '',
      ref: this.string(o.$ref, path, '$ref'),
      description: this.string(o.description, path, 'description') ?? '',
      type: this.string(o.type, path, 'type') ?? '',
      nullable: this.bool(o.nullable, path, 'nullable') ?? false,
      format: this.string(o.format, path, 'format') ?? '',
      title: this.string(o.title, path, 'title') ?? '',
      default: this.json(o.default, path, 'default'),
      maximum: this.float(o.maximum, path, 'maximum'),
      exclusiveMaximum: this.bool(o.exclusiveMaximum, path, 'exclusiveMaximum') ?? false,
      minimum: this.float(o.minimum, path, 'minimum'),
      exclusiveMinimum: this.bool(o.exclusiveMinimum, path, 'exclusiveMinimum') ?? false,
      maxLength: this.int(o.maxLength, path, 'maxLength', 64),
      minLength: this.int(o.minLength, path, 'minLength', 64),
      pattern: this.string(o.pattern, path, 'pattern') ?? '',
      maxItems: this.int(o.maxItems, path, 'maxItems', 64),
      minItems: this.int(o.minItems, path, 'minItems', 64),
      uniqueItems: this.bool(o.uniqueItems, path, 'uniqueItems') ?? false,
      multipleOf: this.float(o.multipleOf, path, 'multipleOf'),
      enum: o.enum == null ? undefined : this.array(o.enum, path.child('enum'), '[]v1.JSON', (x, p) => {
        if (x === null) return null;
        return this.json(x, p)?.value;
      }),
      maxProperties: this.int(o.maxProperties, path, 'maxProperties', 64),
      minProperties: this.int(o.minProperties, path, 'minProperties', 64),
      required: this.stringArray(o.required, path, 'required'),
      items: o.items == null ? undefined : this.schemaOrArray(o.items, path.child('items'), d),
      allOf: o.allOf == null ? undefined : this.schemaList(o.allOf, path.child('allOf'), d),
      oneOf: o.oneOf == null ? undefined : this.schemaList(o.oneOf, path.child('oneOf'), d),
      anyOf: o.anyOf == null ? undefined : this.schemaList(o.anyOf, path.child('anyOf'), d),
      not: o.not == null ? undefined : this.schema(o.not, path.child('not'), d),
      properties: o.properties == null ? undefined : this.schemaMap(o.properties, path.child('properties'), d),
      additionalProperties: o.additionalProperties == null ? undefined : this.schemaOrBool(o.additionalProperties, path.child('additionalProperties'), d),
      patternProperties: o.patternProperties == null ? undefined : this.schemaMap(o.patternProperties, path.child('patternProperties'), d),
      dependencies: o.dependencies == null ? undefined : this.dependencies(o.dependencies, path.child('dependencies'), d),
      additionalItems: o.additionalItems == null ? undefined : this.schemaOrBool(o.additionalItems, path.child('additionalItems'), d),
      definitions: o.definitions == null ? undefined : this.schemaMap(o.definitions, path.child('definitions'), d),
      externalDocs: o.externalDocs == null ? undefined : this.externalDocs(o.externalDocs, path.child('externalDocs')),
      example: this.json(o.example, path, 'example'),
      xPreserveUnknownFields: this.bool(o['x-kubernetes-preserve-unknown-fields'], path, 'x-kubernetes-preserve-unknown-fields'),
      xEmbeddedResource: this.bool(o['x-kubernetes-embedded-resource'], path, 'x-kubernetes-embedded-resource') ?? false,
      xIntOrString: this.bool(o['x-kubernetes-int-or-string'], path, 'x-kubernetes-int-or-string') ?? false,
      xListMapKeys: this.stringArray(o['x-kubernetes-list-map-keys'], path, 'x-kubernetes-list-map-keys'),
      xListType: this.string(o['x-kubernetes-list-type'], path, 'x-kubernetes-list-type'),
      xMapType: this.string(o['x-kubernetes-map-type'], path, 'x-kubernetes-map-type'),
      xValidations: o['x-kubernetes-validations'] == null ? undefined : this.array(o['x-kubernetes-validations'], path.child('x-kubernetes-validations'), 'v1.ValidationRules',
        (x, p) => this.rule(x, p)),
    };
    return s;
  }

  private schemaList(v: unknown, path: FieldPath, depth: number): Schema[] | undefined {
    return this.array(v, path, '[]v1.JSONSchemaProps', (x, p) => this.schema(x, p, depth) ?? (x === null ? emptySchema() : undefined));
  }

  private schemaMap(v: unknown, path: FieldPath, depth: number): Map<string, Schema> | undefined {
    const o = this.object(v, path, 'map[string]v1.JSONSchemaProps');
    if (o === undefined) return undefined;
    const out = new Map<string, Schema>();
    for (const [k, x] of Object.entries(o)) {
      const s = x === null ? emptySchema() : this.schema(x, path.key(k), depth);
      if (s !== undefined) out.set(k, s);
    }
    return out;
  }

  private schemaOrArray(v: unknown, path: FieldPath, depth: number): SchemaOrArray | undefined {
    if (v === null || v === undefined) return undefined;
    // JSONSchemaPropsOrArray.UnmarshalJSON: an object is one schema, an array a list, anything else nothing.
    if (Array.isArray(v)) return { schemas: this.schemaList(v, path, depth) ?? [] };
    if (isPlainObject(v)) return { schema: this.schema(v, path, depth) };
    return {};
  }

  private schemaOrBool(v: unknown, path: FieldPath, depth: number): SchemaOrBool | undefined {
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'boolean') return { allows: v };
    if (isPlainObject(v)) return { allows: true, schema: this.schema(v, path, depth) };
    this.errors.push(new FieldError('FieldValueTypeInvalid', path, safeBadValue(v), 'boolean or JSON schema expected'));
    return undefined;
  }

  private dependencies(v: unknown, path: FieldPath, depth: number): Map<string, SchemaOrStringArray> | undefined {
    const o = this.object(v, path, 'v1.JSONSchemaDependencies');
    if (o === undefined) return undefined;
    const out = new Map<string, SchemaOrStringArray>();
    for (const [k, x] of Object.entries(o)) {
      if (Array.isArray(x)) out.set(k, { property: this.stringArray(x, path.key(k)) });
      else if (isPlainObject(x)) out.set(k, { schema: this.schema(x, path.key(k), depth) });
      else out.set(k, {});
    }
    return out;
  }

  private externalDocs(v: unknown, path: FieldPath): Schema['externalDocs'] {
    const o = this.object(v, path, 'v1.ExternalDocumentation');
    if (o === undefined) return undefined;
    this.unknownKeys(o, externalDocsKeys, path);
    return { description: this.string(o.description, path, 'description') ?? '', url: this.string(o.url, path, 'url') ?? '' };
  }

  private rule(v: unknown, path: FieldPath): Rule | undefined {
    const o = this.object(v, path, 'v1.ValidationRule');
    if (o === undefined) return v === null ? { rule: '', message: '', messageExpression: '', fieldPath: '' } : undefined;
    this.unknownKeys(o, ruleKeys, path);
    return {
      rule: this.string(o.rule, path, 'rule') ?? '',
      message: this.string(o.message, path, 'message') ?? '',
      messageExpression: this.string(o.messageExpression, path, 'messageExpression') ?? '',
      reason: this.string(o.reason, path, 'reason'),
      fieldPath: this.string(o.fieldPath, path, 'fieldPath') ?? '',
      optionalOldSelf: this.bool(o.optionalOldSelf, path, 'optionalOldSelf'),
    };
  }

  // ---- parts of a CRD that the part validators decode on their own ----

  names(v: unknown, path: FieldPath): Names {
    const o = this.object(v, path, 'v1.CustomResourceDefinitionNames') ?? {};
    this.unknownKeys(o, namesKeys, path);
    return {
      plural: this.string(o.plural, path, 'plural') ?? '',
      singular: this.string(o.singular, path, 'singular') ?? '',
      shortNames: this.stringArray(o.shortNames, path, 'shortNames'),
      kind: this.string(o.kind, path, 'kind') ?? '',
      listKind: this.string(o.listKind, path, 'listKind') ?? '',
      categories: this.stringArray(o.categories, path, 'categories'),
    };
  }
  column(v: unknown, path: FieldPath): ColumnDef | undefined {
    const o = this.object(v, path, 'v1.CustomResourceColumnDefinition');
    if (o === undefined) return v === null ? { name: '', type: '', format: '', description: '', priority: 0, jsonPath: '' } : undefined;
    this.unknownKeys(o, columnKeys, path);
    return {
      name: this.string(o.name, path, 'name') ?? '',
      type: this.string(o.type, path, 'type') ?? '',
      format: this.string(o.format, path, 'format') ?? '',
      description: this.string(o.description, path, 'description') ?? '',
      priority: this.int(o.priority, path, 'priority', 32) ?? 0,
      jsonPath: this.string(o.jsonPath, path, 'jsonPath') ?? '',
    };
  }
  subresources(v: unknown, path: FieldPath): Subresources | undefined {
    const o = this.object(v, path, 'v1.CustomResourceSubresources');
    if (o === undefined) return undefined;
    this.unknownKeys(o, subresourcesKeys, path);
    const out: Subresources = {};
    const status = this.object(o.status, path.child('status'), 'v1.CustomResourceSubresourceStatus');
    if (status !== undefined) {
      this.unknownKeys(status, noKeys, path.child('status'));
      out.status = true;
    }
    const scale = this.object(o.scale, path.child('scale'), 'v1.CustomResourceSubresourceScale');
    if (scale !== undefined) {
      const p = path.child('scale');
      this.unknownKeys(scale, scaleKeys, p);
      out.scale = {
        specReplicasPath: this.string(scale.specReplicasPath, p, 'specReplicasPath') ?? '',
        statusReplicasPath: this.string(scale.statusReplicasPath, p, 'statusReplicasPath') ?? '',
        labelSelectorPath: this.string(scale.labelSelectorPath, p, 'labelSelectorPath'),
      } satisfies Scale;
    }
    return out;
  }
}

/** An empty decoded schema (what Go holds for a `null` list element). */
export function emptySchema(): Schema {
  return {
    raw: {}, id: '', $schema: '', description: '', type: '', nullable: false, format: '', title: '', exclusiveMaximum: false,
    exclusiveMinimum: false, pattern: '', uniqueItems: false, xEmbeddedResource: false, xIntOrString: false,
  };
}

/** Why `v` is not a JSON value kubekit can validate (non-JSON types, too deep), or undefined. Iterative. */
export function jsonProblem(v: unknown): string | undefined {
  const stack: [unknown, number][] = [[v, 0]];
  let visited = 0;
  while (stack.length > 0) {
    const [x, depth] = stack.pop()!;
    if (++visited > maxSchemaNodes) return `must not hold more than ${maxSchemaNodes} values (kubekit's bound)`;
    if (depth > maxValueDepth) return `must not be nested more than ${maxValueDepth} levels deep (kubekit's bound)`;
    if (x === null || typeof x === 'string' || typeof x === 'boolean' || typeof x === 'bigint') continue;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return `must be a JSON value, but holds ${String(x)}`;
      continue;
    }
    if (Array.isArray(x)) {
      for (const item of x) stack.push([item, depth + 1]);
      continue;
    }
    if (isPlainObject(x)) {
      for (const item of Object.values(x)) stack.push([item, depth + 1]);
      continue;
    }
    return `must be a JSON value, but holds a ${x === undefined ? 'undefined' : typeof x === 'object' ? 'non-plain object' : typeof x}`;
  }
  return undefined;
}

/** A bad value safe to print: JSON values as they are, anything else (deep, non-JSON) as a short description. */
export function safeBadValue(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'object' && jsonProblem(v) === undefined && JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)).length <= 1024) return v;
  return Array.isArray(v) ? '[…]' : typeof v === 'object' ? '{…}' : String(typeof v);
}

/** Decodes a schema on its own, as the public schema validators take it. */
export function decodeSchema(raw: unknown, path: FieldPath): { schema?: Schema; errors: FieldError[] } {
  const d = new Decoder();
  const schema = d.schema(raw, path, 0);
  return { schema, errors: d.errors };
}
