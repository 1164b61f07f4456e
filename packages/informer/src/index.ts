/**
 * `@kubekit/informer`: field-selected informers with client-go-grade reliability.
 *
 * The layers, bottom up, as in client-go's `tools/cache`:
 * - {@link ListerWatcher}: list (paginated) and watch (bookmarks, streaming lists) over kubekit's own
 *   keep-alive HTTP, with credentials from a `KubeConfig` of `@kubernetes/client-node`.
 * - {@link Reflector}: list, then watch from the list's resource version, forever — relist on
 *   `410 Gone`, resume broken watches at once, back off on errors, reconnect silent watches.
 * - {@link Store}: the cache, with indexes ({@link IndexFunc}) by namespace, label, field or your own.
 * - {@link Informer}: the cache plus ordered, buffered events (`add`, `update(new, old)`,
 *   `delete(obj, { reason: 'deleted' | 'leftSelection' })`), field and label selectors evaluated by
 *   the server — or client-side when the server cannot (KEP-4358).
 * - {@link SharedInformerFactory}: one informer per resource and selectors, shared.
 *
 * Start with {@link Informer}.
 *
 * @packageDocumentation
 */

export { Backoff, defaultBackoffPolicy } from './backoff.js';
export { Informer, dropManagedFields } from './informer.js';
export { KubeClient, ResourceClient } from './kubeClient.js';
export { loadKubeConfig } from './kubeConfig.js';
export { ListerWatcher, WatchStream } from './listerWatcher.js';
export { consoleLogger, defaultLogger, logSettingsFromEnv, streamLogger } from './logger.js';
export { registerRestClientMetrics } from './metrics.js';
export { backoffCapMs } from './backoff.js';
export { Reflector } from './reflector.js';
export { SharedInformerFactory } from './sharedInformerFactory.js';
export {
  Store,
  labelsIndex,
  labelsIndexFunc,
  metaNamespaceIndexFunc,
  namespaceIndex,
} from './store.js';
export { WatchClosedError } from './watchClosedError.js';
export { WatchDecoder, decodeWatchLine, decodeWatchStream, watchStreamFailure } from './watchDecoder.js';

export type { BackoffPolicy } from './backoff.js';
export type { LogFormat, LogLevel, LogSettings, StreamLoggerOptions } from './logger.js';
export type { InformerMetricsSink, RestClientMetricsSink } from './metrics.js';
export type { DeleteInfo, DeleteReason, EventHandlers, HandlerRegistration, RegistrationOptions } from './events.js';
export type { InformerOptions, InformerStatus, SelectionMode } from './informer.js';
export type { DeleteReasonOptions } from './internal/deleteReasons.js';
export type { KubeClientOptions, ListRequest, PatchType, ResourceClientRef, Table, WriteOptions } from './kubeClient.js';
export type { KubeConfigCluster, KubeConfigLike, KubeConfigSource, LoadKubeConfigOptions } from './kubeConfig.js';
export type { ListOptions, ListerWatcherOptions, RequestOptions, ResourceRef, WatchOptions } from './listerWatcher.js';
export type {
  ListerWatcherLike,
  ObjectEvent,
  ReflectorEvents,
  ReflectorOptions,
  ReflectorPhase,
  ReflectorStatus,
  ReflectorTarget,
  StreamingListSupport,
  WatchStreamLike,
} from './reflector.js';
export type { SharedInformerDefaults } from './sharedInformerFactory.js';
export type { IndexFunc, Indexers, KeyFunc, StoreOptions } from './store.js';
export type { FieldPath, FieldRequirementInput, FieldSelectorSet, FieldValue, KubeObjectLike } from './types.js';
export type { FieldSelectorInput, LabelSelectorInput } from './internal/selection.js';
export type { SelectableFieldRef } from './internal/resourceInfo.js';
export type { WatchClosedDetails } from './watchClosedError.js';
export type { WatchDecoderOptions } from './watchDecoder.js';
