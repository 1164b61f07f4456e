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
