/**
 * `@kubekit/decorators`: Declare custom resources as decorated TypeScript classes and generate validated CRDs from them.
 *
 * @packageDocumentation
 */

export {};
