/**
 * The downward API's field and resource selectors, checked as kube-apiserver 1.34 checks them for env
 * vars and downward API volume files (`validateObjectFieldSelector`, `validateContainerResourceFieldSelector`
 * and `validateContainerResourceDivisor` in pkg/apis/core/validation, with `ConvertDownwardAPIFieldLabel`).
 */
import { canonicalQuantity, decimalOfWritten, FieldPath, invalid, notSupported, required, type FieldError } from '@kubekit/core';
import { isQualifiedName } from './semantics.js';
import { type JSONObject } from './own.js';
import { append, str } from './podFields.js';

/** The v1 field labels `ConvertDownwardAPIFieldLabel` accepts (`spec.host` is `spec.nodeName`). */
const downwardAPILabels = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName',
  'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs',
  'status.podIP', 'status.podIPs',
]);
const resourceFieldPaths = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

/** `validateObjectFieldSelector`: a downward API field path among `expressions`, or a label or annotation. */
export function validateObjectFieldSelector(fs: JSONObject, expressions: readonly string[], path: FieldPath): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (apiVersion === '') return [required(path.child('apiVersion'), '')];
  if (fieldPath === '') return [required(path.child('fieldPath'), '')];
  const split = splitSubscript(fieldPath);
  let internal = fieldPath;
  let conversion: string | undefined;
  if (apiVersion !== 'v1') conversion = `unsupported pod version: ${apiVersion}`;
  else if (split !== undefined) {
    if (split[0] !== 'metadata.annotations' && split[0] !== 'metadata.labels') conversion = `field label does not support subscript: ${fieldPath}`;
  } else if (fieldPath === 'spec.host') internal = 'spec.nodeName';
  else if (!downwardAPILabels.has(fieldPath)) conversion = `field label not supported: ${fieldPath}`;
  if (conversion !== undefined) return [invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: ${conversion}`)];
  if (split !== undefined) {
    const [name, subscript] = split;
    return (name === 'metadata.annotations' ? isQualifiedName(subscript.toLowerCase()) : isQualifiedName(subscript))
      .map((msg) => invalid(path, name === 'metadata.annotations' ? subscript.toLowerCase() : subscript, msg));
  }
  return expressions.includes(internal) ? [] : [notSupported(path.child('fieldPath'), internal, expressions)];
}

/** `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['x']` as `['metadata.labels', 'x']`. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** `validateContainerResourceFieldSelector` with the downward API's hugepages prefixes; `volume` requires a container name. */
export function validateResourceFieldSelector(fs: JSONObject, path: FieldPath, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (volume && str(fs.containerName) === '') errs.push(required(path.child('containerName'), ''));
  else if (resource === '') errs.push(required(path.child('resource'), ''));
  else if (!resourceFieldPaths.includes(resource) && !resource.startsWith('limits.hugepages-') && !resource.startsWith('requests.hugepages-')) {
    errs.push(notSupported(path.child('resource'), resource, resourceFieldPaths));
  }
  append(errs, validateDivisor(resource, fs.divisor, path));
  return errs;
}

const byteDivisors = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const byteDivisorWords = 'only divisor\'s values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the';

/** `validateContainerResourceDivisor`: a divisor that is set must suit the resource. */
function validateDivisor(resource: string, divisor: unknown, path: FieldPath): FieldError[] {
  const text = canonicalQuantity(divisor);
  const value = text === undefined ? undefined : decimalOfWritten(text);
  if (text === undefined || value === undefined || value.digits === '') return [];
  const errs: FieldError[] = [];
  const p = path.child('divisor');
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && text !== '1m' && text !== '1') {
    errs.push(invalid(p, resource, 'only divisor\'s values 1m and 1 are supported with the cpu resource'));
  }
  if ((resource === 'limits.memory' || resource === 'requests.memory') && !byteDivisors.includes(text)) errs.push(invalid(p, resource, `${byteDivisorWords} memory resource`));
  if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !byteDivisors.includes(text)) {
    errs.push(invalid(p, resource, `${byteDivisorWords} local ephemeral storage resource`));
  }
  if ((resource.startsWith('requests.hugepages-') || resource.startsWith('limits.hugepages-')) && !byteDivisors.includes(text)) {
    errs.push(invalid(p, resource, `${byteDivisorWords} hugepages resource`));
  }
  return errs;
}
