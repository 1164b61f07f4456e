/**
 * The bad value of rule compile errors: kube-apiserver 1.34's field errors print a struct value as Go's
 * `json.Marshal` of it (HTML-escaped, fields in declaration order under their Go names, nil pointers
 * as null): `Invalid value: {"Rule":"self.x \u003c= 1","Message":"",…,"Reason":null,…}`. Releases up
 * to 1.33 printed `%#v` (`apiextensions.ValidationRule{Rule:"self.x <= 1", …}`).
 */
import type { ValidationRule } from '../types.js';
import { jsonRule } from './goJSON.js';

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The internal `apiextensions.ValidationRule` of a rule, as 1.34 prints it in a field error. */
export function goValidationRule(r: ValidationRule): string {
  return jsonRule({
    rule: text(r.rule), message: text(r.message), messageExpression: text(r.messageExpression),
    reason: typeof r.reason === 'string' ? r.reason : undefined, fieldPath: text(r.fieldPath),
    optionalOldSelf: typeof r.optionalOldSelf === 'boolean' ? r.optionalOldSelf : undefined,
  });
}
