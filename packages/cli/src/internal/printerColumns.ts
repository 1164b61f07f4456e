/**
 * The cells of `kubectl get` for a custom resource: NAME, then the version's
 * `additionalPrinterColumns`, valued as the apiserver's table convertor values them (first JSONPath
 * result; a value of the wrong type is left empty; `date` columns as ages).
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresource/tableconvertor/tableconvertor.go
 */
import { goSprint, humanDuration } from '@kubekit/core';
import { evaluateJSONPath, type CustomResourceColumnDefinition } from '@kubekit/crd';

/** The column the apiserver serves when a version declares none (`serveDefaultColumnsIfEmpty`). */
const defaultColumns: readonly CustomResourceColumnDefinition[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

/** The columns shown: the version's (or the default `Age`), priority 0 only unless `wide`. */
export function visibleColumns(columns: readonly CustomResourceColumnDefinition[] | undefined, wide: boolean): CustomResourceColumnDefinition[] {
  const served = columns === undefined || columns.length === 0 ? defaultColumns : columns;
  return served.filter((c) => wide || (c.priority ?? 0) === 0);
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The text of one cell; `''` for the apiserver's nil cell. */
export function cellText(object: unknown, column: CustomResourceColumnDefinition, now: Date): string {
  const results = evaluateJSONPath(object, column.jsonPath);
  if (results.length === 0) return '';
  const value = results[0];
  if (value === null || value === undefined) return '';
  switch (column.type) {
    case 'string':
      // jsonpath's PrintResults: JSON for maps and lists, fmt.Sprint otherwise.
      return typeof value === 'object' ? JSON.stringify(value) : goSprint(value);
    case 'integer':
      if (typeof value === 'bigint') return value.toString();
      return typeof value === 'number' ? goSprint(Math.trunc(value)) : '';
    case 'number':
      return typeof value === 'number' || typeof value === 'bigint' ? goSprint(Number(value) + 0.0) : '';
    case 'boolean':
      return typeof value === 'boolean' ? String(value) : '';
    case 'date': {
      if (typeof value !== 'string') return '';
      // metav1.Time.UnmarshalQueryParameter: empty and "null" are the zero time, shown as <unknown>.
      if (value === '' || value === 'null') return '<unknown>';
      if (!rfc3339.test(value) || Number.isNaN(Date.parse(value))) return '<invalid>';
      return humanDuration(now.getTime() - Date.parse(value));
    }
    default:
      return '';
  }
}
