/**
 * `@kubekit/apiserver`: an embedded Kubernetes API server for CRDs, custom resources and a few core
 * kinds, faithful where clients notice — discovery (legacy and aggregated), OpenAPI v3 with
 * `x-kubernetes-selectable-fields`, CustomResourceDefinitions validated as the apiserver does,
 * custom resources with pruning, defaulting (KEP-575), field selectors on `selectableFields`
 * (KEP-4358), watches with bookmarks, Tables for `kubectl get`, optimistic concurrency and optional
 * durable storage.
 *
 * Start with {@link startApiServer}.
 *
 * @packageDocumentation
 */

export { isLoopback, startApiServer } from './startApiServer.js';
export { kubeconfigYAML } from './kubeconfig.js';
export { DataDirectoryError } from './persistence.js';
export { builtinKindSchema, builtinOpenAPISchemas, builtinSchemaClosure, builtinSchemaName, itemSchema, mergeSemantics, propertySchema, resolveSchema, schemaAtPath } from './builtinSchemas.js';

export type { ApiServer, ApiServerOptions, ServingCertificate } from './startApiServer.js';
export type { KubeconfigOptions } from './kubeconfig.js';
export type { GroupVersionKind, MergeSemantics, OpenAPISchema } from './builtinSchemas.js';
export type { WebhookServiceResolver } from './internal/webhookClient.js';
export type { DeepYAMLOptions } from './internal/deepYAML.js';
