/**
 * `@kubekit/defaulter`: KEP-575 pruning, null pruning and defaulting of custom resources, compiled per schema.
 *
 * @packageDocumentation
 */

export {};
