import type { FieldSelector } from '@kubekit/selectors';
import { convertFieldLabel, type CustomResourceFieldsOptions } from './customResourceFields.js';
import type { ResourceFields } from './resourceFields.js';

/** Whether `x` is a built {@link ResourceFields} rather than the options of a custom resource. */
function isResourceFields(x: ResourceFields | CustomResourceFieldsOptions): x is ResourceFields {
  return typeof (x as Partial<ResourceFields>).convertFieldLabel === 'function';
}

/**
 * Converts every term of a parsed field selector through the resource's `ConvertFieldLabel`, as the
 * apiserver does before it lists, watches or deletes a collection (`opts.FieldSelector.Transform`):
 * labels are checked (and, for some built-in kinds, renamed); terms and their order are kept.
 *
 * @param resource a custom resource version's options or any {@link ResourceFields}
 * @throws UnsupportedFieldLabelError for the first term (in the selector's sorted order) whose label
 *   the resource does not accept, with the apiserver's message (HTTP 400).
 *
 * @example
 * ```ts
 * const sel = convertFieldSelector(builtinResourceFields('v1', 'Pod')!, parseFieldSelector('spec.host=n1'));
 * sel.toString(); // 'spec.nodeName=n1'
 * ```
 */
export function convertFieldSelector(resource: ResourceFields | CustomResourceFieldsOptions, selector: FieldSelector): FieldSelector {
  if (isResourceFields(resource)) return selector.transform(resource.convertFieldLabel);
  return selector.transform((label, value) => convertFieldLabel(resource, label, value));
}
