import { KubeError } from '@kubekit/core';

/**
 * A field selector used a field label the resource does not accept. The apiserver answers such a
 * list, watch or deletecollection with 400 `BadRequest` and the conversion function's own text, which
 * differs between resources: `field label not supported: spec.colorx` (custom resources and most
 * built-in kinds), `"x" is not a known field selector: only "metadata.name", "metadata.namespace"`
 * (built-in kinds without their own conversion), `field label "x" not supported for Job`, …
 */
export class UnsupportedFieldLabelError extends KubeError {
  override name = 'UnsupportedFieldLabelError';
  /** The rejected field label. */
  readonly label: string;

  constructor(label: string, message: string) {
    super('BadRequest', message);
    this.label = label;
  }
}
