import { parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector, type LabelSet } from '@kubekit/selectors';
import { convertFieldSelector } from './convertFieldSelector.js';
import { createCustomResourceFields, type CustomResourceFieldsOptions } from './customResourceFields.js';
import type { FieldExtractor, ResourceFields } from './resourceFields.js';

/** Options of {@link selectorMatcher}. */
export interface SelectorMatcherOptions {
  /**
   * The resource whose objects are matched (its field set and the field labels it accepts): any
   * {@link ResourceFields}, or the options of a custom resource version.
   */
  fields: ResourceFields | CustomResourceFieldsOptions;
  /** The field selector, parsed or as text (`spec.color=blue,metadata.name!=x`). @defaultValue everything */
  fieldSelector?: FieldSelector | string;
  /** The label selector, parsed or as text (`app=shop,tier in (web)`). @defaultValue everything */
  labelSelector?: LabelSelector | string;
  /**
   * Whether to pass the field selector through the resource's `ConvertFieldLabel` first (rejecting
   * unsupported labels, renaming legacy ones). Turn it off only for a selector that was converted
   * already: converting twice rejects renamed labels (events.k8s.io's `regarding.name` becomes
   * `involvedObject.name`, which that API does not accept).
   * @defaultValue true
   */
  convertFieldLabels?: boolean;
}

/**
 * A compiled answer to "does this object match these selectors?" (the apiserver's
 * `SelectionPredicate` with the resource's `GetAttrs`). Immutable and safe to share.
 */
export interface SelectionPredicate {
  /** The field selector after label conversion, as the apiserver evaluates it. */
  readonly fieldSelector: FieldSelector;
  readonly labelSelector: LabelSelector;
  /** Whether both selectors are empty, so every object matches. */
  readonly empty: boolean;
  /**
   * Whether the object's labels and fields satisfy both selectors. Computes only the fields the
   * field selector names; allocates nothing. Never throws on JSON data.
   */
  readonly matches: (object: unknown) => boolean;
}

const noLabels: LabelSet = Object.freeze({});

/**
 * The labels of an object as the apiserver's accessor reads them: `metadata.labels` when it is an
 * object, no labels otherwise.
 */
function labelsOf(object: unknown): LabelSet {
  if (typeof object !== 'object' || object === null) return noLabels;
  const meta = (object as { metadata?: unknown }).metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return noLabels;
  const labels = Object.hasOwn(meta, 'labels') ? (meta as { labels?: unknown }).labels : undefined;
  return typeof labels === 'object' && labels !== null && !Array.isArray(labels) ? labels as LabelSet : noLabels;
}

const blank: FieldExtractor = () => '';

/**
 * Compiles a field selector and a label selector into one predicate with the apiserver's semantics:
 * the field selector's labels are converted as `ConvertFieldLabel` converts them (errors are the
 * apiserver's 400s), each term reads one field of the object's field set (a field the set does not
 * hold reads as `""`), and the label selector is matched against `metadata.labels`.
 *
 * Built for the hot path of informers and the embedded API server: the requirements are resolved to
 * field extractors once; an empty predicate answers without looking at the object; a match reads only
 * the fields named by the field selector.
 *
 * @throws SelectorParseError for selector text that does not parse (`invalid selector: ...`).
 * @throws UnsupportedFieldLabelError for a field label the resource does not accept.
 *
 * @example
 * ```ts
 * const shirts = createCustomResourceFields({ namespaced: true, selectableFields: [{ jsonPath: '.spec.color' }] });
 * const p = selectorMatcher({ fields: shirts, fieldSelector: 'spec.color=blue', labelSelector: 'app=shop' });
 * p.matches({ metadata: { name: 's', labels: { app: 'shop' } }, spec: { color: 'blue' } }); // true
 * ```
 */
export function selectorMatcher(options: SelectorMatcherOptions): SelectionPredicate {
  const fields = typeof (options.fields as Partial<ResourceFields>).extractor === 'function'
    ? options.fields as ResourceFields
    : createCustomResourceFields(options.fields as CustomResourceFieldsOptions);
  const labelSelector = typeof options.labelSelector === 'string' ? parseLabelSelector(options.labelSelector) : options.labelSelector ?? parseLabelSelector('');
  const parsed = typeof options.fieldSelector === 'string' ? parseFieldSelector(options.fieldSelector) : options.fieldSelector ?? parseFieldSelector('');
  const fieldSelector = options.convertFieldLabels === false ? parsed : convertFieldSelector(fields, parsed);

  const never = fieldSelector.matchesNothing() || labelSelector.matchesNothing();
  const labelsEmpty = labelSelector.isEmpty();
  const reqs = fieldSelector.requirements();
  const extractors = reqs.map((r) => fields.extractor(r.field) ?? blank);
  const values = reqs.map((r) => r.value);
  const negate = reqs.map((r) => r.operator === '!=');
  const n = reqs.length;
  const empty = !never && n === 0 && labelsEmpty;

  let matches: (object: unknown) => boolean;
  if (never) {
    matches = () => false;
  } else if (empty) {
    matches = () => true;
  } else if (n === 0) {
    matches = (o) => labelSelector.matches(labelsOf(o));
  } else if (n === 1 && labelsEmpty) {
    const [extract] = extractors;
    const [value] = values;
    matches = negate[0] ? (o) => extract(o) !== value : (o) => extract(o) === value;
  } else {
    matches = (o) => {
      for (let i = 0; i < n; i++) {
        if ((extractors[i](o) === values[i]) === negate[i]) return false;
      }
      return labelsEmpty || labelSelector.matches(labelsOf(o));
    };
  }
  return Object.freeze({ fieldSelector, labelSelector, empty, matches });
}
