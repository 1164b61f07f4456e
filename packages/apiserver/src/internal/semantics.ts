/**
 * The one seam between the API server and the packages whose semantics it serves: selectors
 * (`@kubekit/selectors`), field sets (`@kubekit/attrs`), CRD and custom resource validation
 * (`@kubekit/crd`) and pruning/defaulting (`@kubekit/defaulter`).
 *
 * The CRD validation functions are TEMPORARY stand-ins until `@kubekit/crd` exports them.
 */
export {
  isDNS1123Label, isDNS1123Subdomain, isQualifiedName, parseFieldSelector, parseLabelSelector, validateLabels,
} from '@kubekit/selectors';
export type { FieldSelector, LabelSelector } from '@kubekit/selectors';
export { compileSchema } from '@kubekit/defaulter';
export type { CompiledSchema } from '@kubekit/defaulter';
import type { FieldError } from '@kubekit/core';
import type { CustomResourceDefinition, JSONSchemaProps } from '@kubekit/crd';

export function validateCustomResourceDefinition(_crd: CustomResourceDefinition): FieldError[] {
  return [];
}

export function validateCustomResourceDefinitionUpdate(_crd: CustomResourceDefinition, _old: CustomResourceDefinition): FieldError[] {
  return [];
}

export function validateCustomResource(_crd: CustomResourceDefinition, _version: string, _obj: unknown, _old?: unknown): FieldError[] {
  return [];
}

export function openAPIV3Schema(crd: CustomResourceDefinition, version: string): JSONSchemaProps & Record<string, unknown> {
  const v = crd.spec.versions.find((x) => x.name === version);
  return {
    ...(v?.schema?.openAPIV3Schema ?? { type: 'object' }),
    'x-kubernetes-group-version-kind': [{ group: crd.spec.group, kind: crd.spec.names.kind, version }],
    ...(v?.selectableFields?.length ? { 'x-kubernetes-selectable-fields': v.selectableFields.map((f) => ({ fieldPath: f.jsonPath.slice(1) })) } : {}),
  };
}

