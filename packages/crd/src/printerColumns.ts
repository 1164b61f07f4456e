/**
 * Validation of `additionalPrinterColumns` entries, as the apiserver's
 * `ValidateCustomResourceColumnDefinition` does it.
 */
import { FieldError, FieldPath, invalid, required, type FieldPathLike } from '@kubekit/core';
import { Decoder } from './internal/decode.js';
import type { ColumnDef } from './internal/model.js';
import { validateSimpleJSONPath } from './simpleJsonPath.js';
import type { CustomResourceColumnDefinition } from './types.js';

const printerColumnDatatypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** The checks on a decoded column; `path` is the column's path. */
export function columnErrors(col: ColumnDef, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (col.name.length === 0) errs.push(required(path.child('name'), ''));
  if (col.type.length === 0) {
    errs.push(required(path.child('type'), `must be one of ${printerColumnDatatypes.join(',')}`));
  } else if (!printerColumnDatatypes.includes(col.type)) {
    errs.push(invalid(path.child('type'), col.type, `must be one of ${printerColumnDatatypes.join(',')}`));
  }
  if (col.format.length > 0 && !columnFormats.includes(col.format)) {
    errs.push(invalid(path.child('format'), col.format, `must be one of ${columnFormats.join(',')}`));
  }
  // The apiserver names the field by its Go name here.
  if (col.jsonPath.length === 0) errs.push(required(path.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, path.child('JSONPath')));
  return errs;
}

/**
 * Validates one printer column: `name` and `jsonPath` are required, `type` is one of `boolean`, `date`,
 * `integer`, `number`, `string`, `format` (if set) one of the OpenAPI formats the apiserver knows, and
 * `jsonPath` a simple JSON path starting with `.`. Never throws.
 *
 * @example
 * ```ts
 * validateCustomResourceColumnDefinition({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
 *   'spec.versions[0].additionalPrinterColumns[0]'); // []
 * ```
 */
export function validateCustomResourceColumnDefinition(column: CustomResourceColumnDefinition, fieldPath: FieldPathLike): FieldError[] {
  const path = typeof fieldPath === 'string' ? FieldPath.root(fieldPath) : fieldPath;
  const d = new Decoder();
  const col = d.column(column, path);
  if (d.errors.length > 0) return d.errors;
  return columnErrors(col ?? { name: '', type: '', format: '', description: '', priority: 0, jsonPath: '' }, path);
}
