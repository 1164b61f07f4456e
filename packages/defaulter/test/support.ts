// Shared by the defaulter tests: fixtures, and every operation in its uncompiled and compiled form so
// that each case runs through both.
import { readFileSync } from 'node:fs';
import type { JSONSchemaProps } from '@kubekit/crd';
import {
  applyDefaults,
  coerceObjectMeta,
  compileSchema,
  defaultAndPrune,
  prune,
  pruneNonNullableNullsWithoutDefaults,
  type CoerceObjectMetaOptions,
  type DefaultAndPruneOptions,
  type PruneOptions,
} from '@kubekit/defaulter';

/** Reads a JSON fixture of this package's `test/fixtures`. */
export function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

/** A schema as the fixtures write it. */
export type Schema = JSONSchemaProps | null | undefined;

/** The package's operations bound to one schema. */
export interface Operations {
  prune(object: unknown, options: PruneOptions): string[];
  pruneNonNullableNullsWithoutDefaults(object: unknown): void;
  applyDefaults(object: unknown): void;
  coerceObjectMeta(object: unknown, options: CoerceObjectMetaOptions): string[];
  defaultAndPrune(object: unknown, options: DefaultAndPruneOptions): string[];
}

/** One implementation: the uncompiled functions, or `compileSchema`. */
export interface Implementation {
  name: string;
  bind(schema: Schema): Operations;
}

export const implementations: readonly Implementation[] = [
  {
    name: 'functions',
    bind: (schema) => ({
      prune: (o, opts) => prune(o, schema, opts),
      pruneNonNullableNullsWithoutDefaults: (o) => pruneNonNullableNullsWithoutDefaults(o, schema),
      applyDefaults: (o) => applyDefaults(o, schema),
      coerceObjectMeta: (o, opts) => coerceObjectMeta(o, schema, opts),
      defaultAndPrune: (o, opts) => defaultAndPrune(o, schema, opts),
    }),
  },
  {
    name: 'compileSchema',
    bind: (schema) => compileSchema(schema),
  },
];

/** A deep copy of a JSON fixture value (`undefined` in a fixture stands for JSON null). */
export function copy<T>(value: T): T {
  return value === undefined ? (null as T) : structuredClone(value);
}

/** The docs page's "Defaulting and Nullable" schema. */
export const docsNullableSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        foo: { type: 'string', nullable: false, default: 'default' },
        bar: { type: 'string', nullable: true },
        baz: { type: 'string' },
      },
    },
  },
};

/** A schema whose property names and defaults try to reach prototypes. */
export const hostileSchemaText = `{
  "type": "object",
  "properties": {
    "__proto__": { "type": "object", "default": { "polluted": "proto-default" }, "properties": { "polluted": { "type": "string" } } },
    "constructor": { "type": "object", "x-kubernetes-preserve-unknown-fields": true, "default": { "prototype": { "polluted": "ctor-default" } } },
    "prototype": { "type": "object", "additionalProperties": { "type": "object", "default": { "polluted": "ap-default" } } },
    "spec": {
      "type": "object",
      "default": { "__proto__": { "polluted": "nested-default" } },
      "properties": { "__proto__": { "type": "object", "x-kubernetes-preserve-unknown-fields": true }, "toString": { "type": "string" } }
    },
    "list": { "type": "array", "items": { "type": "object", "properties": { "__proto__": { "type": "object", "default": { "polluted": "item-default" } } } } },
    "embedded": { "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true }
  }
}`;
