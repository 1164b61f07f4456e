/** The CRD check, from @kubekit/crd (reached through a namespace import until its validation lands). */
import type { FieldError } from '@kubekit/core';
import * as crdPackage from '@kubekit/crd';
import type { CustomResourceDefinition } from '@kubekit/crd';

type Validate = (crd: CustomResourceDefinition) => FieldError[];

/** Runs `validateCustomResourceDefinition` of @kubekit/crd. */
export function validateDefinition(crd: CustomResourceDefinition): FieldError[] {
  const validate = (crdPackage as unknown as { validateCustomResourceDefinition?: Validate }).validateCustomResourceDefinition;
  if (validate === undefined && process.env.KUBEKIT_DEV_SKIP_CRD_VALIDATION === '1') return [];
  if (validate === undefined) throw new Error('@kubekit/crd does not export validateCustomResourceDefinition yet');
  return validate(crd);
}
