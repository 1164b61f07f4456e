/**
 * Go's `%#v` of the apiserver's internal `apiextensions.ValidationRule`, the bad value of rule
 * compile errors (`Invalid value: apiextensions.ValidationRule{Rule:"self == true", Message:"", …}`).
 */
import { goQuote } from '@kubekit/core';
import type { ValidationRule } from '../types.js';

/** The address Go would print for a set pointer; the apiserver's value differs from run to run. */
const placeholderAddress = '0xc000000000';

function ptr(type: string, present: boolean): string {
  return `(*${type})(${present ? placeholderAddress : 'nil'})`;
}

const str = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');

/** `%#v` of a rule. */
export function goValidationRule(r: ValidationRule): string {
  return `apiextensions.ValidationRule{Rule:${str(r.rule)}, Message:${str(r.message)}, MessageExpression:${str(r.messageExpression)}, ` +
    `Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, FieldPath:${str(r.fieldPath)}, ` +
    `OptionalOldSelf:${ptr('bool', r.optionalOldSelf !== undefined)}}`;
}
