import { KubeError } from '@kubekit/core';
import { escapeFieldValue, parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector } from '@kubekit/selectors';
import { builtinResourceFields, createCustomResourceFields, type ResourceFields } from '@kubekit/attrs';
import type { FieldSelectorSet, FieldValue } from '../types.js';
import type { ResourceInfo } from './resourceInfo.js';

/** A field selector as text, parsed, or as an object of requirements. */
export type FieldSelectorInput<T> = string | FieldSelector | FieldSelectorSet<T>;

/** A label selector as text, parsed, or as a set of `key: value` equalities. */
export type LabelSelectorInput = string | LabelSelector | Readonly<Record<string, string>>;

function isParsedSelector(v: unknown): v is { toString(): string; requirements(): unknown; matches(x: unknown): boolean } {
  return typeof v === 'object' && v !== null && typeof (v as { matches?: unknown }).matches === 'function' && typeof (v as { requirements?: unknown }).requirements === 'function';
}

function valueText(label: string, value: FieldValue): string {
  switch (typeof value) {
    case 'string': return value;
    case 'boolean':
    case 'bigint': return String(value);
    case 'number':
      if (Number.isInteger(value)) return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
      break;
  }
  throw new KubeError('BadRequest', `field selector value for ${label} must be a string, an integer or a boolean, got ${String(value)}`);
}

/**
 * Parses (and so validates) a field selector the way the apiserver does.
 *
 * @throws SelectorParseError with the apiserver's text for a selector that does not parse.
 */
export function toFieldSelector<T>(input: FieldSelectorInput<T> | undefined): FieldSelector {
  if (input === undefined) return parseFieldSelector('');
  if (typeof input === 'string') return parseFieldSelector(input);
  if (isParsedSelector(input)) return input as FieldSelector;
  const terms: string[] = [];
  for (const [label, req] of Object.entries(input as Record<string, unknown>)) {
    if (req === undefined) continue;
    if (typeof req === 'object' && req !== null && '!=' in req) {
      terms.push(`${label}!=${escapeFieldValue(valueText(label, (req as { '!=': FieldValue })['!=']))}`);
    } else {
      terms.push(`${label}=${escapeFieldValue(valueText(label, req as FieldValue))}`);
    }
  }
  return parseFieldSelector(terms.join(','));
}

/**
 * Parses (and so validates) a label selector the way the apiserver does.
 *
 * @throws SelectorParseError with the apiserver's text for a selector that does not parse.
 */
export function toLabelSelector(input: LabelSelectorInput | undefined): LabelSelector {
  if (input === undefined) return parseLabelSelector('');
  if (typeof input === 'string') return parseLabelSelector(input);
  if (isParsedSelector(input)) return input as LabelSelector;
  const terms = Object.entries(input as Record<string, string>).map(([k, v]) => `${k}=${v}`);
  return parseLabelSelector(terms.join(','));
}

/**
 * The field set of the informer's resource as well as it is known: a built-in kind's table, a custom
 * resource version's `selectableFields`, or — when neither is known — the simple paths named by
 * `labels`, read as a custom resource's selectable fields would be (what the server would do had the
 * CRD declared them).
 */
export function resourceFieldsFor(apiVersion: string, info: ResourceInfo, labels: readonly string[]): { fields: ResourceFields; known: boolean } {
  if (info.kind !== undefined) {
    const builtin = builtinResourceFields(apiVersion, info.kind);
    if (builtin !== undefined) return { fields: builtin, known: true };
  }
  // An empty list read from the cluster says nothing: a server with the CustomResourceFieldSelectors
  // gate off drops selectableFields from CRDs, and older servers never had them.
  if (info.selectableFields !== undefined && (info.selectableFields.length > 0 || info.source === 'options')) {
    return { fields: createCustomResourceFields({ namespaced: info.namespaced ?? true, selectableFields: info.selectableFields }), known: true };
  }
  const paths = [...new Set(labels)].filter((l) => l !== 'metadata.name' && l !== 'metadata.namespace' && isSimplePath(l));
  return { fields: createCustomResourceFields({ namespaced: info.namespaced ?? true, selectableFields: paths.map((p) => ({ jsonPath: `.${p}` })) }), known: false };
}

/** A dotted path of identifiers, such as `spec.color`. */
export function isSimplePath(path: string): boolean {
  return /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/.test(path);
}
