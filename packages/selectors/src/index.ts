/**
 * `@kubekit/selectors` owns field and label selectors with exact `k8s.io/apimachinery` parity: every
 * canonical string, match result and error message is the apiserver's.
 *
 * - Field selectors (`pkg/fields`): {@link parseFieldSelector}, {@link fieldSelectorFromSet},
 *   {@link escapeFieldValue} / {@link unescapeFieldValue}, and the {@link FieldSelector} they build
 *   (`matches`, `toString`, `requirements`, `requiresExactMatch`, `transform`). For resources whose
 *   selectable fields are known at compile time, {@link fieldSelectorFor} checks field labels in the
 *   type system.
 * - Label selectors (`pkg/labels`): {@link parseLabelSelector}, {@link labelSelectorFromSet},
 *   {@link labelSelectorFromObject} (`matchLabels`/`matchExpressions`) and the {@link LabelSelector}
 *   they build.
 * - Validation with the apiserver's messages: {@link validateLabelKey} and {@link validateLabelValue}
 *   (the label selector parser's words), {@link isQualifiedName} and {@link isValidLabelValue} (object
 *   metadata's words), {@link isDNS1123Subdomain}, {@link isDNS1123Label}, {@link validateLabels},
 *   {@link validateLabelSelector}.
 *
 * Errors are {@link SelectorParseError}s (a `KubeError` with reason `BadRequest`). Matching is
 * precompiled and allocation-free: it is what informers and the embedded API server run per object
 * per watcher.
 *
 * @packageDocumentation
 */

export { escapeFieldValue, unescapeFieldValue } from './escapeFieldValue.js';
export {
  FieldSelector,
  andFieldSelectors,
  everythingFieldSelector,
  fieldSelectorFromSet,
  formatFieldSet,
  nothingFieldSelector,
  oneTermEqualFieldSelector,
  oneTermNotEqualFieldSelector,
  parseFieldSelector,
} from './fieldSelector.js';
export { fieldLabels, fieldSelectorFor, typedFieldSelector } from './typedFieldSelector.js';
export {
  LabelSelector,
  everythingLabelSelector,
  labelSelectorFromSet,
  nothingLabelSelector,
  parseLabelSelector,
  validatedLabelSelectorFromSet,
} from './labelSelector.js';
export { formatLabelRequirement, labelOperators, newLabelRequirement, validateLabelRequirement } from './labelRequirement.js';
export { labelSelectorAsMap, labelSelectorFromObject, validateLabelSelector, validateLabelSelectorRequirement } from './labelSelectorFromObject.js';
export {
  convertSelectorToLabelsMap, formatLabelSet, formatLabels, labelSetsConflict, labelSetsEqual, mergeLabelSets,
} from './labelSet.js';
export {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, validateLabelKey, validateLabelValue, validateLabels,
} from './validation.js';
export { SelectorParseError } from './selectorParseError.js';

export type { FieldRequirement, FieldSelectorTransform, FieldSet } from './fieldSelector.js';
export type {
  FieldLabelsOf, FieldSelectorText, TypedFieldSelectors, UnknownFieldTerms, WithFieldLabels,
} from './typedFieldSelector.js';
export type { LabelSet } from './labelSelector.js';
export type { LabelOperator, LabelRequirement, LabelRequirementOptions } from './labelRequirement.js';
export type {
  LabelSelectorObject, LabelSelectorOperator, LabelSelectorRequirementObject, LabelSelectorValidationOptions,
} from './labelSelectorFromObject.js';
export type { SelectorParseErrorOptions } from './selectorParseError.js';
