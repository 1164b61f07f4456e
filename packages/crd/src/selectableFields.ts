/**
 * Validation of a version's `selectableFields` (KEP-4358), as the apiserver's
 * `ValidateCustomResourceSelectableFields` does it.
 *
 * @see https://github.com/kubernetes/enhancements/tree/master/keps/sig-api-machinery/4358-custom-resource-field-selectors
 */
import { FieldError, FieldPath, duplicate, invalid, required, tooMany, type FieldPathLike } from '@kubekit/core';
import { Decoder } from './internal/decode.js';
import type { Schema, Selectable } from './internal/model.js';
import { segmentsToString, validFieldPath } from './internal/validFieldPath.js';
import type { JSONSchemaProps, SelectableField } from './types.js';

/** The most selectable fields one version may declare. */
export const maxSelectableFields = 8;

const allowedTypes = new Set(['string', 'boolean', 'integer']);

/** The checks on decoded selectable fields at `path` (the list's path). */
export function selectableFieldErrors(fields: readonly Selectable[], schema: Schema | undefined, path: FieldPath, allowTooMany: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = path.index(i).child('jsonPath');
    if (f.jsonPath.length === 0) {
      errs.push(required(p, ''));
      return;
    }
    const r = validFieldPath(f.jsonPath, schema, false);
    if (!r.ok) {
      errs.push(invalid(p, f.jsonPath, `is an invalid path: ${r.error}`));
      return;
    }
    if (r.segments.length > 0 && segmentsToString(r.segments.slice(0, 1)) === 'metadata') {
      errs.push(invalid(p, f.jsonPath, 'must not point to fields in metadata'));
    }
    if (r.schema === undefined || !allowedTypes.has(r.schema.type)) {
      errs.push(invalid(p, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const canonical = segmentsToString(r.segments);
    if (unique.has(canonical)) errs.push(duplicate(p, f.jsonPath));
    else unique.add(canonical);
  });
  if (unique.size > maxSelectableFields && !allowTooMany) errs.push(tooMany(path, unique.size, maxSelectableFields));
  return errs;
}

/** Options of {@link validateSelectableFields}. */
export interface ValidateSelectableFieldsOptions {
  /**
   * Whether more than {@link maxSelectableFields} are accepted: the apiserver's ratcheting on update,
   * when the stored CRD already had that many and the list is unchanged.
   * @defaultValue false
   */
  allowTooMany?: boolean;
}

/**
 * Validates `selectableFields` against a version's structural schema: each `jsonPath` is a simple path
 * starting with `.` without array notation that resolves in the schema, not into `metadata`, to a
 * `string`, `integer` or `boolean` field (enums and formats allowed); no duplicates; at most 8.
 * Messages and paths are the apiserver's. Never throws.
 *
 * @param schema - the version's `openAPIV3Schema`; `undefined` when the version has none.
 * @param fieldPath - the path of the list, e.g. `spec.versions[0].selectableFields`.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { spec: { type: 'object', properties: { color: { type: 'string' } } } } } as const;
 * validateSelectableFields(schema, [{ jsonPath: '.spec.colour' }], 'spec.versions[0].selectableFields')[0].toString();
 * // 'spec.versions[0].selectableFields[0].jsonPath: Invalid value: ".spec.colour": is an invalid path: does not refer to a valid field'
 * ```
 */
export function validateSelectableFields(schema: JSONSchemaProps | undefined, selectableFields: readonly SelectableField[],
  fieldPath: FieldPathLike = 'selectableFields', options: ValidateSelectableFieldsOptions = {}): FieldError[] {
  const path = typeof fieldPath === 'string' ? FieldPath.root(fieldPath) : fieldPath;
  const d = new Decoder();
  const fields = d.array(selectableFields, path, '[]v1.SelectableField', (x, p) => {
    const o = d.object(x, p, 'v1.SelectableField');
    if (o === undefined) return x === null ? { jsonPath: '' } : undefined;
    d.unknownKeys(o, new Set(['jsonPath']), p);
    return { jsonPath: d.string(o.jsonPath, p.child('jsonPath')) ?? '' };
  }) ?? [];
  const decoded = d.schema(schema, FieldPath.root('openAPIV3Schema'), 0);
  if (d.errors.length > 0) return d.errors;
  if (fields.length === 0) return [];
  if (decoded === undefined) return [invalid(path, '', 'may only be set when `version.schema.openAPIV3Schema` is not included')];
  return selectableFieldErrors(fields, decoded, path, options.allowTooMany ?? false);
}
