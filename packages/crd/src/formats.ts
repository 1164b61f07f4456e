/**
 * The string formats the apiserver validates in custom resources: kube-openapi's `strfmt.Default`
 * registry, restricted to the formats apiextensions-apiserver supports (others are ignored, as the
 * apiserver strips them before validating).
 *
 * @see https://github.com/kubernetes/kube-openapi/tree/master/pkg/validation/strfmt
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/apiserver/validation/formats.go
 */
import { stringFormatValidators as formatValidators } from '@kubekit/cel';

/**
 * Go-openapi's format-name normalisation: dashes are dropped, so `date-time` and `datetime` (and, as
 * in Go, `u-u-i-d`) name the same format.
 */
export function normalizeFormatName(name: string): string {
  return name.includes('-') ? name.replaceAll('-', '') : name;
}

/**
 * Every string format a CRD schema may use with effect, by their documented names. Other formats are
 * accepted in a schema but not validated.
 */
export const supportedStringFormats: readonly string[] = Object.freeze([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4',
  'uuid5', 'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password',
  'date', 'duration', 'date-time', 'k8s-short-name', 'k8s-long-name',
]);

const supportedNormalized = new Set(supportedStringFormats.map(normalizeFormatName));

/**
 * The format the apiserver keeps for a schema node (apiextensions-apiserver v1.34's
 * `StripUnsupportedFormatsPostProcessorForVersion`): a format of {@link supportedStringFormats} (after name
 * normalisation), whatever the node's `type`; anything else, `int32`, `int64`, `float` and `double`
 * included, becomes `''` (not validated). Later apiservers keep those four on integers and numbers;
 * `type` is taken for them and unused here.
 */
export function effectiveFormat(type: string | undefined, format: string | undefined): string {
  void type;
  if (format === undefined || format === '') return '';
  return supportedNormalized.has(normalizeFormatName(format)) ? format : '';
}

/** Whether kube-openapi's default format registry knows `format` (after name normalisation). */
export function isKnownFormat(format: string): boolean {
  return formatValidators.has(normalizeFormatName(format));
}

/**
 * Whether `value` is valid for the string `format`, as kube-openapi's default registry checks it.
 * Unknown formats validate nothing and return `true`.
 *
 * @example
 * ```ts
 * validatesFormat('date', '2026-02-29'); // false
 * validatesFormat('ipv4', '10.0.0.1');   // true
 * ```
 */
export function validatesFormat(format: string, value: string): boolean {
  const check = formatValidators.get(normalizeFormatName(format));
  return check === undefined ? true : check(value);
}
