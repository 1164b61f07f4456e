/**
 * `@kubekit/cli`: The kubekit command: generate and validate CRDs, list selectable fields, select and default offline, serve the embedded API server.
 *
 * @packageDocumentation
 */

export {};
