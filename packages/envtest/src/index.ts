/**
 * `@kubekit/envtest`: the real kube-apiserver, with an embedded etcd, built from the official
 * Kubernetes Go modules (k8s.io/kubernetes and its staging modules) on first use: no binaries to
 * download. It has the shape of `@kubekit/apiserver`'s `startApiServer`, so a test can run against
 * kubekit's embedded server and against the real one.
 *
 * Start with {@link startReferenceApiServer}. Go (the version the module's go.mod names, or newer)
 * must be on PATH; {@link buildReferenceApiServer} builds ahead of time (CI does so before the tests).
 *
 * @packageDocumentation
 */

export { startReferenceApiServer } from './startReferenceApiServer.js';
export { buildReferenceApiServer, defaultReferenceVersion, normalizeReferenceVersion } from './buildReferenceApiServer.js';
export { EnvtestError } from './envtestError.js';

export type { ReferenceApiServer, ReferenceApiServerOptions } from './startReferenceApiServer.js';
export type { BuildReferenceOptions, ReferenceBuild } from './buildReferenceApiServer.js';
