/**
 * `@kubekit/defaulter` is KEP-575 and the apiserver's treatment of custom resources on decode:
 * pruning of unknown fields ({@link prune}), pruning of non-nullable nulls
 * ({@link pruneNonNullableNullsWithoutDefaults}), `ObjectMeta` coercion of embedded resources
 * ({@link coerceObjectMeta}) and top-down defaulting ({@link applyDefaults}), each exactly as the
 * apiserver does it. {@link defaultAndPrune} runs them in the apiserver's order.
 *
 * Start with {@link compileSchema}: it compiles a CRD version's schema once into functions that
 * touch only what can change, for use on every object.
 *
 * All functions treat objects as untrusted: keys such as `__proto__` are data, recursion is bounded
 * ({@link maxNestingDepth}) and defaults are deep-copied for every object.
 *
 * @see https://github.com/kubernetes/enhancements/tree/master/keps/sig-api-machinery/575-crd-defaulting
 * @see https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#field-pruning
 *
 * @packageDocumentation
 */

export { applyDefaults } from './applyDefaults.js';
export { coerceObjectMeta } from './coerceObjectMeta.js';
export { compileSchema } from './compileSchema.js';
export { defaultAndPrune } from './defaultAndPrune.js';
export { maxNestingDepth } from './internal/depth.js';
export { prune } from './prune.js';
export { pruneDefaults } from './pruneDefaults.js';
export { pruneNonNullableNullsWithoutDefaults } from './pruneNonNullableNullsWithoutDefaults.js';

export type { CoerceObjectMetaOptions } from './coerceObjectMeta.js';
export type { CompiledSchema } from './compileSchema.js';
export type { DefaultAndPruneOptions } from './defaultAndPrune.js';
export type { PruneOptions } from './prune.js';
