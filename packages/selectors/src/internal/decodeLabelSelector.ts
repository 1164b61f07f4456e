// Checks an untyped `metav1.LabelSelector` (as it arrives in JSON, or from JavaScript callers that do
// not use the types) and reads it the way Go's decoder would: `null` is the zero value, unknown
// fields are ignored, and a value of the wrong kind is an error worded like encoding/json's.

import { SelectorParseError } from '../selectorParseError.js';

/** A decoded requirement: `values` is `null` where Go would hold a nil slice. */
export interface DecodedRequirement {
  key: string;
  operator: string;
  values: string[] | null;
}

/** A decoded label selector; `undefined` for a nil selector. */
export interface DecodedLabelSelector {
  matchLabels: Record<string, string>;
  matchExpressions: DecodedRequirement[];
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'number': case 'bigint': return 'number';
    case 'boolean': return 'bool';
    case 'string': return 'string';
    case 'object': return 'object';
    default: return typeof v;
  }
}

function typeError(v: unknown, field: string, goType: string): SelectorParseError {
  return new SelectorParseError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field LabelSelector.${field} of type ${goType}`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decodeString(v: unknown, field: string, goType: string): string {
  if (v == null) return '';
  if (typeof v !== 'string') throw typeError(v, field, goType);
  return v;
}

/** Reads `input` as a `metav1.LabelSelector`, or throws a {@link SelectorParseError}. */
export function decodeLabelSelector(input: unknown): DecodedLabelSelector | undefined {
  if (input == null) return undefined;
  if (!isPlainObject(input)) {
    throw new SelectorParseError(`json: cannot unmarshal ${jsonKind(input)} into Go value of type v1.LabelSelector`);
  }
  const matchLabels: Record<string, string> = {};
  const labels = input.matchLabels;
  if (labels != null) {
    if (!isPlainObject(labels)) throw typeError(labels, 'matchLabels', 'map[string]string');
    for (const key of Object.keys(labels)) {
      Object.defineProperty(matchLabels, key, {
        value: decodeString(labels[key], 'matchLabels', 'string'), enumerable: true, writable: true, configurable: true,
      });
    }
  }
  const matchExpressions: DecodedRequirement[] = [];
  const exprs = input.matchExpressions;
  if (exprs != null) {
    if (!Array.isArray(exprs)) throw typeError(exprs, 'matchExpressions', '[]v1.LabelSelectorRequirement');
    for (const expr of exprs as unknown[]) {
      if (expr == null) {
        matchExpressions.push({ key: '', operator: '', values: null });
        continue;
      }
      if (!isPlainObject(expr)) throw typeError(expr, 'matchExpressions', 'v1.LabelSelectorRequirement');
      const key = decodeString(expr.key, 'matchExpressions.key', 'string');
      const operator = decodeString(expr.operator, 'matchExpressions.operator', 'v1.LabelSelectorOperator');
      let values: string[] | null = null;
      if (expr.values != null) {
        if (!Array.isArray(expr.values)) throw typeError(expr.values, 'matchExpressions.values', '[]string');
        values = (expr.values as unknown[]).map((v) => decodeString(v, 'matchExpressions.values', 'string'));
      }
      matchExpressions.push({ key, operator, values });
    }
  }
  return { matchLabels, matchExpressions };
}
