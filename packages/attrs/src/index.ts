/**
 * `@kubekit/attrs` owns what the apiserver selects on: the field sets of `GetAttrs` and the field
 * labels of `ConvertFieldLabel`, for custom resources (a CRD version's `selectableFields`, KEP-4358)
 * and for the built-in kinds (the KEP's table, with every legacy conversion and error text).
 *
 * Start with {@link compileFieldSet} / {@link createCustomResourceFields} for custom resources,
 * {@link builtinResourceFields} for built-in kinds, and {@link selectorMatcher} to answer "does this
 * object match these selectors?" exactly as the apiserver would.
 *
 * @packageDocumentation
 */

export {
  compileFieldGetter,
  compileFieldSet,
  convertFieldLabel,
  createCustomResourceFields,
  customResourceFieldLabels,
  customResourceFieldsOptionsFor,
} from './customResourceFields.js';
export {
  builtinFieldGetter,
  builtinFieldLabels,
  builtinFieldSet,
  builtinKinds,
  builtinResourceFields,
  convertBuiltinFieldLabel,
} from './builtinFields.js';
export { convertFieldSelector } from './convertFieldSelector.js';
export { selectorMatcher } from './selectorMatcher.js';
export { UnsupportedFieldLabelError } from './unsupportedFieldLabelError.js';

export type { CustomResourceFieldsOptions } from './customResourceFields.js';
export type { BuiltinKindFields } from './builtinFields.js';
export type { SelectionPredicate, SelectorMatcherOptions } from './selectorMatcher.js';
export type {
  FieldExtractor,
  FieldGetter,
  FieldGetterFunc,
  FieldSet,
  FieldSetFunc,
  ResourceFields,
} from './resourceFields.js';
