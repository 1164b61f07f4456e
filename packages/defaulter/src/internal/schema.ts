// The structural reading of a JSONSchemaProps (apiextensions-apiserver's NewStructural), used by the
// uncompiled algorithms: only type-free structure matters, and allOf/anyOf/oneOf/not are ignored.
import { KubeError } from '@kubekit/core';
import type { JSONSchemaProps } from '@kubekit/crd';

/** A schema or `undefined` for "no schema" (Go's nil `*Structural`). */
export type Schema = JSONSchemaProps | undefined;

const emptySchema: JSONSchemaProps = Object.freeze({}) as JSONSchemaProps;

/** A schema value as given by the caller: `null` and `undefined` both mean "no schema". */
export function asSchema(s: JSONSchemaProps | null | undefined): Schema {
  return s === null || s === undefined ? undefined : s;
}

function nodeOf(x: unknown): JSONSchemaProps {
  // A property or additionalProperties value that is not an object decodes to Go's zero struct.
  return typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as JSONSchemaProps) : emptySchema;
}

/** Whether `s` declares the property `key` (own keys only: `constructor` is a property only if declared). */
export function hasProperty(s: JSONSchemaProps, key: string): boolean {
  const props = s.properties;
  return typeof props === 'object' && props !== null && Object.hasOwn(props, key);
}

/** The schema of the declared property `key` (call only when {@link hasProperty}). */
export function propertySchema(s: JSONSchemaProps, key: string): JSONSchemaProps {
  return nodeOf((s.properties as Record<string, unknown>)[key]);
}

/** The declared properties, in declaration order. */
export function propertyEntries(s: JSONSchemaProps): [string, JSONSchemaProps][] {
  const props = s.properties;
  if (typeof props !== 'object' || props === null) return [];
  return Object.keys(props).map((k) => [k, nodeOf((props as Record<string, unknown>)[k])]);
}

/** `additionalProperties`: absent, or present with a schema or without one (a boolean). */
export type AdditionalProperties = { present: false } | { present: true; schema: Schema };

const absent: AdditionalProperties = { present: false };

/** The structural `additionalProperties` of `s`. */
export function additionalProperties(s: JSONSchemaProps): AdditionalProperties {
  const ap: unknown = s.additionalProperties;
  if (ap === undefined || ap === null) return absent;
  if (typeof ap === 'boolean') return { present: true, schema: undefined };
  return { present: true, schema: nodeOf(ap) };
}

/**
 * The schema a field `key` of an object under `s` follows: its property, else the
 * additionalProperties schema, else none (`getSchemaForField` upstream).
 */
export function fieldSchema(s: Schema, key: string): Schema {
  if (s === undefined) return undefined;
  if (hasProperty(s, key)) return propertySchema(s, key);
  const ap = additionalProperties(s);
  return ap.present ? ap.schema : undefined;
}

/** The `items` schema of `s`, or none. */
export function itemsSchema(s: JSONSchemaProps): Schema {
  const items: unknown = s.items;
  if (items === undefined || items === null) return undefined;
  if (Array.isArray(items)) throw itemsArrayError();
  return nodeOf(items);
}

/** The error for `items` given as a list of schemas, which structural schemas forbid. */
export function itemsArrayError(): KubeError {
  return new KubeError('BadRequest', "OpenAPIV3Schema 'items' must be a schema, but is an array");
}

/** The default of `s`, or `undefined` when it has none (a `null` default is no default, as upstream). */
export function defaultOf(s: JSONSchemaProps): unknown {
  const d: unknown = s.default;
  return d === null ? undefined : d;
}

/** Whether `s` has `nullable: true`. */
export function isNullable(s: JSONSchemaProps): boolean {
  return s.nullable === true;
}

/** Whether `s` has `x-kubernetes-preserve-unknown-fields: true`. */
export function preservesUnknownFields(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-preserve-unknown-fields'] === true;
}

/** Whether `s` has `x-kubernetes-embedded-resource: true`. */
export function isEmbeddedResource(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-embedded-resource'] === true;
}

/** `apiVersion`, `kind` and `metadata`: the fields an embedded resource or a resource root keeps. */
export function isMetaField(key: string): boolean {
  return key === 'apiVersion' || key === 'kind' || key === 'metadata';
}
