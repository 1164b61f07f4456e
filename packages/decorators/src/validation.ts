import type { ValidationRule } from '@kubekit/crd';
import { classOrPropertyDecorator, prepend } from './internal/decorate.js';
import type { ClassOrPropertyDecoratorFunction } from './types.js';

/**
 * Adds a CEL validation rule (`x-kubernetes-validations`) to a field, or to the object schema of a
 * class. `self` is the value at that place; `oldSelf` makes it a transition rule. Rules stacked on one
 * declaration keep their source order.
 *
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#validation-rules
 * @example
 * ```ts
 * @Validation({ rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas.' })
 * class ScalingSpec {
 *   @Field('integer') minReplicas?: number;
 *   @Field('integer') replicas?: number;
 * }
 * ```
 */
export function Validation(rule: ValidationRule): ClassOrPropertyDecoratorFunction {
  return classOrPropertyDecorator(
    '@Validation',
    (record) => prepend(record.validations, { ...rule }),
    (property) => prepend(property.validations, { ...rule }),
  );
}
