/**
 * `@kubekit/apiserver`: An embedded Kubernetes API server for CRDs, custom resources and a few core kinds, with field selectors and defaults.
 *
 * @packageDocumentation
 */

export {};
