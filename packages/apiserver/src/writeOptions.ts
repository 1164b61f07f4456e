/**
 * The options of a write (`metav1.CreateOptions`, `UpdateOptions`, `PatchOptions`) from the query, checked
 * as the apiserver's handlers do before anything else (`ValidateCreateOptions`, `ValidateUpdateOptions`,
 * `ValidatePatchOptions` in apimachinery's meta/v1/validation): every problem at once, as a 422 on the
 * options kind.
 */
import { FieldError, KubeError, forbidden, invalid, notSupported, required, tooLong } from '@kubekit/core';
import type { PatchType } from './patch.js';

/** The checked options of a write. */
export interface WriteOptions {
  /** `dryRun=All`. */
  dryRun: boolean;
  /** `fieldValidation`, defaulted to `Warn` as the handlers do. */
  fieldValidation: 'Ignore' | 'Warn' | 'Strict';
  /** `fieldManager`, `''` when not given. */
  fieldManager: string;
}

/** The longest field manager name, in bytes (`FieldManagerMaxLength`). */
export const fieldManagerMaxLength = 128;

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * Reads and checks the write options of a request: `verb` picks the options kind, `patchType` the
 * rules of `ValidatePatchOptions` (apply needs a field manager; `force` is only for apply).
 *
 * @throws KubeError `Invalid` on `CreateOptions`/`UpdateOptions`/`PatchOptions.meta.k8s.io` with every problem
 */
export function validateWriteOptions(query: URLSearchParams, verb: 'create' | 'update' | 'patch', patchType?: PatchType): WriteOptions {
  const errs: FieldError[] = [];
  const fieldManager = query.get('fieldManager') ?? '';
  if (verb === 'patch') {
    if (patchType === 'apply') {
      if (fieldManager === '') errs.push(required('fieldManager', 'is required for apply patch'));
    } else if (query.has('force')) {
      errs.push(forbidden('force', 'may not be specified for non-apply patch'));
    }
  }
  if (Buffer.byteLength(fieldManager) > fieldManagerMaxLength) errs.push(tooLong('fieldManager', '', fieldManagerMaxLength));
  let at = 0;
  for (const ch of fieldManager) {
    if (!printable.test(ch)) {
      const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid('fieldManager', fieldManager, `invalid character U+${hex} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((v) => v !== 'All')) errs.push(notSupported('dryRun', dryRun, ['All']));
  const fv = query.get('fieldValidation') ?? '';
  if (fv !== '' && fv !== 'Ignore' && fv !== 'Strict' && fv !== 'Warn') errs.push(notSupported('fieldValidation', fv, ['', 'Ignore', 'Strict', 'Warn']));
  if (errs.length > 0) {
    const kind = verb === 'create' ? 'CreateOptions' : verb === 'update' ? 'UpdateOptions' : 'PatchOptions';
    throw KubeError.invalid({ group: 'meta.k8s.io', kind }, '', errs);
  }
  return { dryRun: dryRun.length > 0, fieldValidation: fv === '' ? 'Warn' : fv as WriteOptions['fieldValidation'], fieldManager };
}
