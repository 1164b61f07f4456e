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

/**
 * The formats a v1.34 apiserver validates: those of its minimum compatibility version, 1.33
 * (`environment.DefaultCompatibilityVersion()`), which lacks `k8s-short-name` and `k8s-long-name`
 * (introduced in 1.34, validated from 1.35 on).
 */
const supportedNormalized = new Set(supportedStringFormats.filter((f) => f !== 'k8s-short-name' && f !== 'k8s-long-name').map(normalizeFormatName));

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

/** The schemas held by a raw schema node (every keyword that holds schemas, as `SchemaHas` walks). */
function childSchemas(x: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (Array.isArray(x.items)) out.push(...(x.items as unknown[])); else out.push(x.items);
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(x[k])) out.push(...(x[k] as unknown[]));
  for (const k of ['not', 'additionalProperties', 'additionalItems']) out.push(x[k]);
  for (const k of ['properties', 'patternProperties', 'definitions', 'dependencies']) {
    const m = x[k];
    if (isObj(m)) for (const key of Object.keys(m)) out.push(m[key]);
  }
  return out.filter(isObj);
}

function crdFormats(crd: unknown): Set<string> {
  const out = new Set<string>();
  const spec = (crd as { spec?: { validation?: { openAPIV3Schema?: unknown }; versions?: { schema?: { openAPIV3Schema?: unknown } }[] } } | undefined)?.spec;
  const stack: unknown[] = [spec?.validation?.openAPIV3Schema, ...(Array.isArray(spec?.versions) ? spec.versions.map((v) => v?.schema?.openAPIV3Schema) : [])];
  for (let steps = 0; stack.length > 0 && steps < 1_000_000; steps++) {
    const x = stack.pop();
    if (x === null || typeof x !== 'object' || Array.isArray(x)) continue;
    const node = x as Record<string, unknown>;
    if (node.type === 'string' && typeof node.format === 'string' && node.format !== '' && !supportedNormalized.has(normalizeFormatName(node.format))) out.add(node.format);
    stack.push(...childSchemas(node));
  }
  return out;
}

/**
 * The formats of a CRD's string nodes that the apiserver does not validate, which it warns of
 * (`unrecognized format "colour"`) on create, and on update for those the `old` CRD did not have.
 *
 * @see https://github.com/kubernetes/apiextensions-apiserver/blob/master/pkg/registry/customresourcedefinition/strategy.go
 */
export function unrecognizedFormats(crd: unknown, old?: unknown): string[] {
  const before = old === undefined ? new Set<string>() : crdFormats(old);
  return [...crdFormats(crd)].filter((f) => !before.has(f));
}
