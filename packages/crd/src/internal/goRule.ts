/**
 * The bad value of rule compile errors: kube-apiserver 1.34's field errors print a struct value as Go's
 * `json.Marshal` of it (HTML-escaped, fields in declaration order under their Go names, nil pointers
 * as null): `Invalid value: {"Rule":"self.x \u003c= 1","Message":"",…,"Reason":null,…}`. Releases up
 * to 1.33 printed `%#v` (`apiextensions.ValidationRule{Rule:"self.x <= 1", …}`).
 */
import { goJSONString } from '@kubekit/core';
import type { ValidationRule } from '../types.js';

const str = (v: unknown): string => goJSONString(typeof v === 'string' ? v : '');

/** The internal `apiextensions.ValidationRule` of a rule, as 1.34 prints it in a field error. */
export function goValidationRule(r: ValidationRule): string {
  const reason = typeof r.reason === 'string' ? goJSONString(r.reason) : 'null';
  const optionalOldSelf = typeof r.optionalOldSelf === 'boolean' ? String(r.optionalOldSelf) : 'null';
  return `{"Rule":${str(r.rule)},"Message":${str(r.message)},"MessageExpression":${str(r.messageExpression)},` +
    `"Reason":${reason},"FieldPath":${str(r.fieldPath)},"OptionalOldSelf":${optionalOldSelf}}`;
}
