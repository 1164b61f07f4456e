/**
 * What request handlers share: the store, the watch fan-out, the wait for resourceVersions not reached
 * yet, the clock and the server's limits.
 */
import type { Clock } from '@kubekit/core';
import type { Admission } from './admission.js';
import type { DeepYAMLParser } from './internal/deepYAML.js';
import type { ResourceType } from './resourceType.js';
import type { ServiceAccountTokens } from './serviceAccountTokens.js';
import type { ObjectStore } from './storage/objectStore.js';
import type { ResourceVersionWaiter } from './storage/resourceVersionWaiter.js';
import type { WatchHub } from './watchHub.js';

/** Limits and tunables, resolved from the server options. */
export interface ServerLimits {
  /** The largest request body, in bytes. */
  maxRequestBodyBytes: number;
  /** The most events that may wait for one watcher before it is disconnected. */
  watchMaxQueue: number;
  /** The most bytes that may sit unsent in one watch response before it is disconnected. */
  watchMaxBufferedBytes: number;
  /** The interval of watch bookmarks, in milliseconds. */
  bookmarkIntervalMs: number;
  /** Watches without `timeoutSeconds` end after a random time between this and twice this, in seconds. */
  minRequestTimeoutSeconds: number;
  /** Whether lists may use field indexes on selectable fields. */
  fieldIndexes: boolean;
  /** Whether writes keep `metadata.managedFields` (apply always does). */
  managedFields: boolean;
}

/** The lifecycle phase of a namespace, or undefined when it does not exist. */
export type NamespacePhase = 'Active' | 'Terminating' | undefined;

/** Shared by request handlers. */
export interface ServerContext {
  readonly store: ObjectStore;
  readonly hub: WatchHub;
  /** Where reads at a resourceVersion the store has not reached wait for it. */
  readonly resourceVersions: ResourceVersionWaiter;
  readonly clock: Clock;
  readonly limits: ServerLimits;
  /** Parses YAML bodies nested too deeply for the calling thread, on worker threads. */
  readonly deepYAML: DeepYAMLParser;
  /** The phase of a namespace. */
  namespacePhase(namespace: string): NamespacePhase;
  /** The admission webhooks of the stored webhook configurations. @defaultValue none */
  admission?: Admission;
  /** The service account tokens this server issues and authenticates. @defaultValue none */
  serviceAccountTokens?: ServiceAccountTokens;
  /** The served resource of a group, version and resource (the Pods a `bindings` POST binds). @defaultValue none */
  resolveType?: (group: string, version: string, resource: string) => ResourceType | undefined;
}
