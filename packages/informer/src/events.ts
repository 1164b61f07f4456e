/**
 * Why an object left an informer's cache.
 *
 * - `deleted`: the object no longer exists (or was replaced by a new object of the same name, with
 *   another `uid`).
 * - `leftSelection`: the object still exists but no longer matches the informer's field or label
 *   selector. The apiserver sends `DELETED` in both cases; see `Informer` for how kubekit tells them apart.
 * - `unknown`: either, unconfirmed: the server could not be asked (the lookup budget was spent, the
 *   lookup failed or was forbidden, `confirmDeletes: false`, the informer was stopping). Never a guess.
 */
export type DeleteReason = 'deleted' | 'leftSelection' | 'unknown';

/** The second argument of a `delete` handler. */
export interface DeleteInfo {
  reason: DeleteReason;
}

/**
 * Handlers of an informer's object events. Each may return a promise; the next notification for that
 * registration waits for it (see `Informer` for ordering and buffering).
 */
export interface EventHandlers<T> {
  /** An object entered the cache (created, listed at start, or moved into the selection). */
  add?(obj: T): unknown;
  /** An object in the cache changed; `old` is the state this handler last saw. Also called by resync with `obj === old`. */
  update?(obj: T, old: T): unknown;
  /** An object left the cache; `info.reason` says whether it was deleted or left the selection (or that this is unknown). */
  delete?(obj: T, info: DeleteInfo): unknown;
  /** Every object of the initial state has been delivered to this registration. */
  synced?(): unknown;
}

/** Options of one registration (`Informer.addEventHandler`). */
export interface RegistrationOptions {
  /**
   * Whether this registration's `delete` handler needs to know why an object left (`info.reason`).
   * With `false` it gets each delete at once, with the reason when it is known without asking the
   * server (a `deletionTimestamp`, a state that visibly no longer matches) and `'unknown'` otherwise;
   * the informer confirms reasons with the server only for registrations that need them. A
   * controller that enqueues the object's key and reads its current state in the reconcile does not
   * (`@kubekit/controller` registers so). @defaultValue true
   */
  deleteReasons?: boolean;
}

/** A registered set of {@link EventHandlers}. */
export interface HandlerRegistration {
  /** Whether this registration has been handed the whole initial state. */
  hasSynced(): boolean;
  /** The number of notifications waiting for these handlers. */
  pending(): number;
  /** Resolves once this registration has nothing pending (useful in tests). */
  idle(): Promise<void>;
  /** Stops delivering to these handlers; pending notifications are dropped. */
  remove(): void;
}
