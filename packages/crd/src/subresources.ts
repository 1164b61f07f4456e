/**
 * Validation of a version's `subresources`, as the apiserver's
 * `ValidateCustomResourceDefinitionSubresources` does it: the scale subresource's paths are simple JSON
 * paths, `specReplicasPath` under `.spec.`, `statusReplicasPath` under `.status.`, and
 * `labelSelectorPath` (optional) under either.
 */
import { FieldError, FieldPath, invalid, required, type FieldPathLike } from '@kubekit/core';
import { Decoder } from './internal/decode.js';
import { invalidJSON, jsonValue } from './internal/goJSON.js';
import type { Subresources } from './internal/model.js';
import { validateSimpleJSONPath } from './simpleJsonPath.js';
import type { CustomResourceSubresources } from './types.js';

/** The checks on decoded subresources at `path`. */
export function subresourceErrors(subresources: Subresources | undefined, path: FieldPath): FieldError[] {
  const scale = subresources?.scale;
  if (scale === undefined) return [];
  const errs: FieldError[] = [];
  const specPath = path.child('scale.specReplicasPath');
  if (scale.specReplicasPath.length === 0) {
    errs.push(required(specPath, ''));
  } else {
    const e = validateSimpleJSONPath(scale.specReplicasPath, specPath);
    if (e.length > 0) errs.push(...e);
    else if (!scale.specReplicasPath.startsWith('.spec.')) errs.push(invalid(specPath, scale.specReplicasPath, 'should be a json path under .spec'));
  }
  const statusPath = path.child('scale.statusReplicasPath');
  if (scale.statusReplicasPath.length === 0) {
    errs.push(required(statusPath, ''));
  } else {
    const e = validateSimpleJSONPath(scale.statusReplicasPath, statusPath);
    if (e.length > 0) errs.push(...e);
    else if (!scale.statusReplicasPath.startsWith('.status.')) errs.push(invalid(statusPath, scale.statusReplicasPath, 'should be a json path under .status'));
  }
  const selector = scale.labelSelectorPath;
  if (selector !== undefined && selector.length > 0) {
    const selectorPath = path.child('scale.labelSelectorPath');
    const e = validateSimpleJSONPath(selector, selectorPath);
    if (e.length > 0) errs.push(...e);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      // The bad value is a *string, which the apiserver prints with json.Marshal.
      errs.push(invalidJSON(selectorPath, selector, jsonValue(selector), 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

/**
 * Validates `subresources` (of a version) at `fieldPath`. Never throws.
 *
 * @example
 * ```ts
 * validateCustomResourceSubresources({ scale: { specReplicasPath: '.replicas', statusReplicasPath: '.status.replicas' } },
 *   'spec.versions[0].subresources')[0].toString();
 * // 'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec'
 * ```
 */
export function validateCustomResourceSubresources(subresources: CustomResourceSubresources | undefined, fieldPath: FieldPathLike): FieldError[] {
  const path = typeof fieldPath === 'string' ? FieldPath.root(fieldPath) : fieldPath;
  const d = new Decoder();
  const decoded = d.subresources(subresources, path);
  if (d.errors.length > 0) return d.errors;
  return subresourceErrors(decoded, path);
}
