/**
 * The one seam between the API server and the packages whose semantics it serves: selectors
 * (`@kubekit/selectors`), CRD and custom resource validation and OpenAPI publishing (`@kubekit/crd`)
 * and pruning/defaulting (`@kubekit/defaulter`). Field sets come from `@kubekit/attrs` directly.
 */
export {
  isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, labelSelectorFromObject, parseFieldSelector, parseLabelSelector, validateLabelSelector, validateLabels,
} from '@kubekit/selectors';
export type { FieldSelector, LabelSelector, LabelSelectorObject } from '@kubekit/selectors';
export { compileSchema } from '@kubekit/defaulter';
export type { CompiledSchema } from '@kubekit/defaulter';
export {
  openAPIV3Schema, unrecognizedFormats, validateCustomResource, validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate,
} from '@kubekit/crd';
export type { OpenAPIV3Document } from '@kubekit/crd';

/** `IsConfigMapKey`: why `key` cannot be a key of a ConfigMap's or Secret's data (or of a key selector). */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) {
    errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}
