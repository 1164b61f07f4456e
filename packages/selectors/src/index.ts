/**
 * `@kubekit/selectors`: Field and label selectors with exact apimachinery parity: parse, print, match, requirements, validation.
 *
 * @packageDocumentation
 */

export {};
