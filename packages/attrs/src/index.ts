/**
 * `@kubekit/attrs`: Field sets for field selection (the apiserver's GetAttrs) for custom resources and built-in kinds.
 *
 * @packageDocumentation
 */

export {};
