import { invalid, trimSpace } from '@kubekit/core';
import { sortGoStrings } from './internal/goStrings.js';
import { labelKeyError, toPath, type LabelRequirementOptions } from './labelRequirement.js';
import { SelectorParseError } from './selectorParseError.js';
import { validateLabelValue } from './validation.js';

type Labels = Readonly<Record<string, string>>;

/**
 * A label set printed as sorted `key=value` pairs joined with commas (`labels.Set.String`), which is
 * also a label selector matching exactly those labels. Keys and values are printed as they are.
 */
export function formatLabelSet(labels: Labels | null | undefined): string {
  if (labels == null) return '';
  return sortGoStrings(Object.keys(labels).map((k) => `${k}=${labels[k]}`)).join(',');
}

/** {@link formatLabelSet}, or `<none>` for no labels (`labels.FormatLabels`, as `kubectl` prints them). */
export function formatLabels(labels: Labels | null | undefined): string {
  const s = formatLabelSet(labels);
  return s === '' ? '<none>' : s;
}

/** Whether some key is in both sets with different values (`labels.Conflicts`). */
export function labelSetsConflict(a: Labels, b: Labels): boolean {
  for (const k of Object.keys(a)) {
    if (Object.hasOwn(b, k) && b[k] !== a[k]) return true;
  }
  return false;
}

/** Both sets in one new object; on a shared key the second wins (`labels.Merge`). */
export function mergeLabelSets(a: Labels, b: Labels): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of [a, b]) {
    for (const k of Object.keys(set)) Object.defineProperty(out, k, { value: set[k], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Whether the two sets hold the same keys with the same values (`labels.Equals`). */
export function labelSetsEqual(a: Labels, b: Labels): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

/**
 * The labels of a simple `k=v,k2=v2` selector (`labels.ConvertSelectorToLabelsMap`): split on `,`
 * then on `=` (exactly one per entry), spaces around keys and values trimmed, keys and values
 * validated.
 *
 * @throws {@link SelectorParseError} with the apiserver's text, e.g. `invalid selector: [x]` for an
 *   entry without `=`, or `[x]: Invalid value: "$y": a valid label must be ...` for a bad value.
 */
export function convertSelectorToLabelsMap(text: string, options: LabelRequirementOptions = {}): Record<string, string> {
  if (typeof text !== 'string') {
    throw new SelectorParseError(`invalid selector: expected a string, got ${text === null ? 'null' : typeof text}`);
  }
  const out: Record<string, string> = {};
  if (text.length === 0) return out;
  const path = toPath(options.path);
  for (const label of text.split(',')) {
    const parts = label.split('=');
    if (parts.length !== 2) throw new SelectorParseError(`invalid selector: [${parts.join(' ')}]`);
    const key = trimSpace(parts[0]);
    const keyError = labelKeyError(key, path ?? '<nil>');
    if (keyError !== undefined) throw new SelectorParseError(keyError.toString(), { fieldErrors: [keyError] });
    const value = trimSpace(parts[1]);
    const msgs = validateLabelValue(value);
    if (msgs.length > 0) {
      const err = invalid(path === undefined ? `[${key}]` : path.key(key), value, msgs.join('; '));
      throw new SelectorParseError(err.toString(), { fieldErrors: [err] });
    }
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
