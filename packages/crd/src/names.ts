/**
 * Validation of `spec.names` (and `status.acceptedNames`), as the apiserver's
 * `ValidateCustomResourceDefinitionNames` does it: plural, singular, short names and categories are
 * DNS-1035 labels; kind and listKind are too, in any case; kind and listKind differ.
 */
import { FieldError, FieldPath, invalid, type FieldPathLike } from '@kubekit/core';
import { Decoder } from './internal/decode.js';
import { isDNS1035Label } from '@kubekit/selectors';
import type { Names } from './internal/model.js';
import type { CustomResourceDefinitionNames } from './types.js';

/** The checks on decoded names at `path`. */
export function namesErrors(names: Names, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const label = (value: string, p: FieldPath): void => {
    const e = isDNS1035Label(value);
    if (e.length > 0) errs.push(invalid(p, value, e.join(',')));
  };
  const mixedCase = (value: string, p: FieldPath): void => {
    const e = isDNS1035Label(value.toLowerCase());
    if (e.length > 0) errs.push(invalid(p, value, `may have mixed case, but should otherwise match: ${e.join(',')}`));
  };
  if (names.plural.length > 0) label(names.plural, path.child('plural'));
  if (names.singular.length > 0) label(names.singular, path.child('singular'));
  if (names.kind.length > 0) mixedCase(names.kind, path.child('kind'));
  if (names.listKind.length > 0) mixedCase(names.listKind, path.child('listKind'));
  names.shortNames?.forEach((s, i) => label(s, path.child('shortNames').index(i)));
  if (names.kind.length > 0 && names.kind === names.listKind) {
    errs.push(invalid(path.child('listKind'), names.listKind, 'kind and listKind may not be the same'));
  }
  names.categories?.forEach((c, i) => label(c, path.child('categories').index(i)));
  return errs;
}

/**
 * Validates a CRD's names at `fieldPath` (`spec.names`). Required names are checked by
 * {@link validateCustomResourceDefinition}, after the apiserver's defaults (`singular` is the
 * lower-cased kind, `listKind` the kind + `List`). Never throws.
 *
 * @example
 * ```ts
 * validateCustomResourceDefinitionNames({ plural: 'CronTabs', kind: 'CronTab' }, 'spec.names')[0].toString();
 * // 'spec.names.plural: Invalid value: "CronTabs": a DNS-1035 label must consist of lower case alphanumeric characters …'
 * ```
 */
export function validateCustomResourceDefinitionNames(names: CustomResourceDefinitionNames, fieldPath: FieldPathLike = 'spec.names'): FieldError[] {
  const path = typeof fieldPath === 'string' ? FieldPath.root(fieldPath) : fieldPath;
  const d = new Decoder();
  const decoded = d.names(names, path);
  if (d.errors.length > 0) return d.errors;
  return namesErrors(decoded, path);
}
