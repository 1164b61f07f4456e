import { defaultConversion, kindSpecs, type KindSpec, type LabelConversion } from './internal/builtinTable.js';
import { makeResourceFields } from './internal/makeResourceFields.js';
import type { FieldGetterFunc, FieldSetFunc, ResourceFields } from './resourceFields.js';
import { UnsupportedFieldLabelError } from './unsupportedFieldLabelError.js';

/**
 * What field selection offers on one built-in kind in one API version: the table KEP-4358 had to
 * assemble from the Kubernetes source because no API publishes it.
 *
 * @see KEP-4358, "Background: Field selection as it exists before this enhancement"
 */
export interface BuiltinKindFields {
  /** `v1`, `apps/v1`, `events.k8s.io/v1`, … */
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Every field label the apiserver accepts in a field selector, in its conversion function's order. */
  readonly fieldLabels: readonly string[];
  /** Accepted labels the apiserver rewrites before matching, label → field set key. */
  readonly labelAliases: Readonly<Record<string, string>>;
  /** The keys of the field set the apiserver computes (`GetAttrs`); not always the accepted labels. */
  readonly fieldSetKeys: readonly string[];
  /**
   * `custom` when the kind registers its own field label conversion; `default` when the apiserver
   * uses `DefaultMetaV1FieldSelectorConversion` (only `metadata.name` and `metadata.namespace`).
   */
  readonly conversion: 'custom' | 'default';
  /** Legacy behaviour per field label or field set key (fallback values, renamed fields, quirks). */
  readonly notes: Readonly<Record<string, string>>;
}

function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

function converterFor(conversion: LabelConversion, apiVersion: string, kind: string): (label: string, value: string) => [string, string] {
  const accepted = new Set(conversion.labels);
  const aliases = conversion.aliases ?? {};
  return (label, value) => {
    if (!accepted.has(label)) throw new UnsupportedFieldLabelError(label, conversion.error(label, apiVersion, kind));
    return [Object.hasOwn(aliases, label) ? aliases[label] : label, value];
  };
}

function buildResourceFields(spec: KindSpec, apiVersion: string): ResourceFields {
  const conversion = spec.conversion ?? defaultConversion;
  return makeResourceFields({
    namespaced: spec.namespaced,
    metadataNamespaceField: spec.metadataNamespaceField ?? spec.namespaced,
    fields: spec.fields ?? [],
    fieldLabels: conversion.labels,
    labelAliases: conversion.aliases ?? {},
    convertFieldLabel: converterFor(conversion, apiVersion, spec.kind),
  });
}

const byKey = new Map<string, { spec: KindSpec; apiVersion: string; fields?: ResourceFields }>();
for (const spec of kindSpecs) {
  for (const version of spec.versions) {
    const apiVersion = apiVersionOf(spec.group, version);
    byKey.set(`${apiVersion}\0${spec.kind}`, { spec, apiVersion });
  }
}

/**
 * The {@link ResourceFields} of a built-in kind in an API version, or `undefined` for a kind kubekit
 * does not list. Built once per kind and shared.
 *
 * @example
 * ```ts
 * const pods = builtinResourceFields('v1', 'Pod')!;
 * pods.fieldSet({ metadata: { name: 'p', namespace: 'ns' }, spec: {} })['spec.hostNetwork']; // 'false'
 * pods.convertFieldLabel('spec.host', 'node-1'); // ['spec.nodeName', 'node-1']
 * ```
 */
export function builtinResourceFields(apiVersion: string, kind: string): ResourceFields | undefined {
  const entry = byKey.get(`${apiVersion}\0${kind}`);
  if (entry === undefined) return undefined;
  entry.fields ??= buildResourceFields(entry.spec, entry.apiVersion);
  return entry.fields;
}

/** The field set function of a built-in kind (see {@link builtinResourceFields}), or `undefined`. */
export function builtinFieldSet(apiVersion: string, kind: string): FieldSetFunc | undefined {
  return builtinResourceFields(apiVersion, kind)?.fieldSet;
}

/** The lazy field getter of a built-in kind (see {@link builtinResourceFields}), or `undefined`. */
export function builtinFieldGetter(apiVersion: string, kind: string): FieldGetterFunc | undefined {
  return builtinResourceFields(apiVersion, kind)?.fieldGetter;
}

/**
 * The field labels the apiserver accepts for a built-in kind (including legacy aliases such as Pod's
 * `spec.host`), or `undefined` for a kind kubekit does not list.
 */
export function builtinFieldLabels(apiVersion: string, kind: string): readonly string[] | undefined {
  return builtinResourceFields(apiVersion, kind)?.fieldLabels;
}

/**
 * The apiserver's `ConvertFieldLabel` for a built-in kind. A kind kubekit does not list gets
 * `DefaultMetaV1FieldSelectorConversion`, as every kind without its own function does upstream.
 *
 * @throws UnsupportedFieldLabelError with the kind's own message.
 */
export function convertBuiltinFieldLabel(apiVersion: string, kind: string, label: string, value: string): [string, string] {
  const fields = builtinResourceFields(apiVersion, kind);
  if (fields !== undefined) return fields.convertFieldLabel(label, value);
  return converterFor(defaultConversion, apiVersion, kind)(label, value);
}

/** Every built-in kind kubekit knows, one entry per API version, in a stable order. */
export const builtinKinds: readonly BuiltinKindFields[] = Object.freeze(
  [...byKey.values()].map(({ spec, apiVersion }): BuiltinKindFields => {
    const fields = builtinResourceFields(apiVersion, spec.kind)!;
    return Object.freeze({
      apiVersion,
      kind: spec.kind,
      namespaced: spec.namespaced,
      fieldLabels: fields.fieldLabels,
      labelAliases: fields.labelAliases,
      fieldSetKeys: fields.fieldSetKeys,
      conversion: spec.conversion === undefined ? 'default' : 'custom',
      notes: Object.freeze({ ...spec.notes }),
    });
  }),
);
