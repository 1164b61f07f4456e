import {
  jsonTypeName, KubeError, parseApiVersion, realClock, resourcePath, stringifyJSON, type Clock, type KubeList, type KubeObject,
} from '@kubekit/core';
import type { KubeConfigLike } from './kubeConfig.js';
import { RestClient } from './internal/restClient.js';
import { untilAborted } from './internal/untilAborted.js';

/** client-go's limit on sending one request again at the server's request (`rest.Request`'s maxRetries). */
const maxRetries = 10;

/**
 * How long to wait before sending a request again, when the server asked for it: a 429 or a 5xx with
 * `Retry-After` (folded into the error's `retryAfterSeconds`; the apiserver sends the header whenever
 * its Status has them). `undefined` for any other failure.
 */
function retryWaitMs(err: unknown): number | undefined {
  if (!(err instanceof KubeError) || !(err.code === 429 || err.code >= 500)) return undefined;
  const seconds = err.details?.retryAfterSeconds;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** A meta.k8s.io/v1 Table: what `kubectl get` prints. */
export interface Table {
  columnDefinitions: { name: string; type: string; format?: string; priority?: number; description?: string }[];
  rows: { cells: unknown[]; object?: unknown }[];
}

/** Options of a {@link KubeClient}. */
export interface KubeClientOptions {
  /** The `User-Agent` header. @defaultValue `kubekit` */
  userAgent?: string;
  /** Abort a request when no byte arrives for this long. @defaultValue 60000 ms */
  requestIdleTimeoutMs?: number;
  /** @defaultValue realClock */
  clock?: Clock;
}

/** A resource a {@link ResourceClient} reads and writes. */
export interface ResourceClientRef {
  /** `v1` or `<group>/<version>`. */
  apiVersion: string;
  /** The plural resource name used in URLs. */
  plural: string;
  /**
   * Whether objects live in namespaces. @defaultValue read from the server's discovery document
   * (`/api/v1` or `/apis/<group>/<version>`) on first use
   */
  namespaced?: boolean;
}

/** Options every write accepts. */
export interface WriteOptions {
  /** Validate and admit, but do not persist (`dryRun=All`). @defaultValue false */
  dryRun?: boolean;
  /** The field manager recorded in managedFields. @defaultValue the server's default */
  fieldManager?: string;
  /** How the server treats unknown and duplicate fields. @defaultValue the server's default (kubectl sends Strict) */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  signal?: AbortSignal;
}

/** The patch formats of the Kubernetes API. */
export type PatchType = 'merge' | 'json' | 'apply' | 'strategic';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
  strategic: 'application/strategic-merge-patch+json',
};

/** Options of a list. */
export interface ListRequest {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  signal?: AbortSignal;
}

/**
 * Reads and writes the objects of any resource of a cluster with the credentials of a `KubeConfig`,
 * over kubekit's own keep-alive HTTP (the same transport as the informers). Failures are `KubeError`s
 * carrying the server's `reason` (`NotFound`, `Conflict`, `Invalid` with its causes, …).
 *
 * @example
 * ```ts
 * const client = new KubeClient(kc);
 * const shirts = client.resource<Shirt>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
 * await shirts.create({ metadata: { name: 'example1', namespace: 'default' }, spec: { color: 'blue' } });
 * ```
 */
export class KubeClient {
  private readonly rest: RestClient;
  private readonly clock: Clock;
  private readonly idleTimeoutMs: number;
  /** Discovery per group-version: plural → namespaced. */
  private readonly scopes = new Map<string, Promise<Map<string, boolean>>>();

  constructor(kubeConfig: KubeConfigLike, options: KubeClientOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.rest = new RestClient(kubeConfig, this.clock, options.userAgent ?? 'kubekit');
    this.idleTimeoutMs = options.requestIdleTimeoutMs ?? 60_000;
  }

  /** A client for one resource; its scope comes from discovery unless `ref.namespaced` says it. */
  resource<T extends KubeObject = KubeObject>(ref: ResourceClientRef): ResourceClient<T> {
    return new ResourceClient<T>(this, ref);
  }

  /**
   * Whether a resource is namespaced, from the server's discovery document of its group-version (read
   * once per group-version and client, and again when it does not list the resource yet, such as
   * right after its CRD was created).
   *
   * @throws KubeError `NotFound` when the server does not serve the resource; the signal's reason when it
   * aborts first (a discovery other callers wait for goes on); the discovery request's error otherwise.
   */
  async isNamespaced(apiVersion: string, plural: string, signal?: AbortSignal): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      let cached = this.scopes.get(apiVersion);
      if (cached === undefined || attempt > 0) {
        // Shared by every caller until it settles: no one caller's signal may end it for the others.
        cached = this.discover(apiVersion);
        this.scopes.set(apiVersion, cached);
        cached.catch(() => this.scopes.delete(apiVersion));
      }
      const scopes = await untilAborted(cached, signal);
      const namespaced = scopes.get(plural);
      if (namespaced !== undefined) return namespaced;
    }
    throw new KubeError('NotFound', `the server doesn't have a resource type "${plural}" in ${apiVersion}`);
  }

  private async discover(apiVersion: string): Promise<Map<string, boolean>> {
    const { group, version } = parseApiVersion(apiVersion);
    let list: unknown;
    try {
      list = await this.request('GET', group === '' ? `/api/${version}` : `/apis/${group}/${version}`);
    } catch (err) {
      if (err instanceof KubeError && err.reason === 'NotFound') return new Map();
      throw err;
    }
    const scopes = new Map<string, boolean>();
    const resources = (list as { resources?: unknown }).resources;
    for (const r of Array.isArray(resources) ? resources : []) {
      const { name, namespaced } = (r ?? {}) as { name?: unknown; namespaced?: unknown };
      if (typeof name === 'string' && typeof namespaced === 'boolean') scopes.set(name, namespaced);
    }
    return scopes;
  }

  /**
   * Sends a request to any path of the API and returns the decoded JSON body.
   *
   * An answer that asks for the request again later — a 429 (API Priority and Fairness, max-in-flight),
   * or a 5xx with `Retry-After` — is waited out and the request sent again, as client-go's rest client
   * does (`checkWait`, at most 10 times); the wait ends with `signal`.
   *
   * @throws KubeError for a non-2xx answer (from its `Status` body), or the network error.
   */
  async request(method: string, path: string, body?: unknown, options: { contentType?: string; accept?: string; signal?: AbortSignal } = {}): Promise<unknown> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : stringifyJSON(body);
    for (let retries = 0; ; retries++) {
      try {
        return await this.rest.requestJSON({
          method, path, body: text, contentType: options.contentType, accept: options.accept, signal: options.signal, idleTimeoutMs: this.idleTimeoutMs,
        });
      } catch (err) {
        const waitMs = retryWaitMs(err);
        if (waitMs === undefined || retries >= maxRetries || options.signal?.aborted === true) throw err;
        await this.clock.sleep(waitMs, options.signal);
      }
    }
  }

  /**
   * A list as the server renders it for `kubectl get` (a meta.k8s.io/v1 Table with the resource's
   * printer columns).
   */
  async table(path: string, signal?: AbortSignal): Promise<Table> {
    return (await this.request('GET', path, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', signal })) as Table;
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.rest.destroy();
  }
}

/** Create, read, update, patch and delete for one resource; see {@link KubeClient}. */
export class ResourceClient<T extends KubeObject = KubeObject> {
  private readonly group: string;
  private readonly version: string;

  constructor(private readonly client: KubeClient, readonly ref: ResourceClientRef) {
    ({ group: this.group, version: this.version } = parseApiVersion(ref.apiVersion));
  }

  /** Reads one object. @throws KubeError `NotFound` when it does not exist. */
  async get(name: string, options: { namespace?: string; signal?: AbortSignal } = {}): Promise<T> {
    return this.object('GET', await this.path(options.namespace, name, undefined, options.signal), undefined, options);
  }

  /** Reads one object, or `undefined` when it does not exist. */
  async tryGet(name: string, options: { namespace?: string; signal?: AbortSignal } = {}): Promise<T | undefined> {
    try {
      return await this.get(name, options);
    } catch (err) {
      if (err instanceof KubeError && err.reason === 'NotFound') return undefined;
      throw err;
    }
  }

  /** Lists one page (all namespaces unless `namespace` is given). */
  async list(options: ListRequest = {}): Promise<KubeList<T>> {
    const query = new URLSearchParams();
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    if (options.limit) query.set('limit', String(options.limit));
    if (options.continue) query.set('continue', options.continue);
    if (options.resourceVersion !== undefined) query.set('resourceVersion', options.resourceVersion);
    const path = withQuery(await this.path(options.namespace, undefined, undefined, options.signal), query);
    const list = await this.object('GET', path, undefined, options) as unknown as KubeList<T>;
    // Go decodes `"items": null` as an empty list.
    if (list.items === null || list.items === undefined) return { ...list, items: [] };
    if (!Array.isArray(list.items)) throw new KubeError('InternalError', `unable to decode the response of GET ${path}: its items are ${jsonTypeName(list.items)}; expected an array`);
    return list;
  }

  /** Creates an object in its `metadata.namespace`. @throws KubeError `AlreadyExists`, `Invalid`, … */
  async create(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.object('POST', withQuery(await this.path(await this.namespaceOf(obj, options.signal), undefined, undefined, options.signal), writeQuery(options)), this.withTypeMeta(obj), options);
  }

  /** Replaces an object (PUT); a stale `metadata.resourceVersion` gets `Conflict`. */
  async update(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.object('PUT', withQuery(await this.path(await this.namespaceOf(obj, options.signal), this.nameOf(obj), undefined, options.signal), writeQuery(options)), this.withTypeMeta(obj), options);
  }

  /** Replaces an object's status through the `status` subresource; a stale resourceVersion gets `Conflict`. */
  async updateStatus(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.object('PUT', withQuery(await this.path(await this.namespaceOf(obj, options.signal), this.nameOf(obj), 'status', options.signal), writeQuery(options)), this.withTypeMeta(obj), options);
  }

  /**
   * Patches an object: JSON merge patch (the default), JSON patch, server-side apply (`apply`, which
   * requires `fieldManager`) or strategic merge patch (built-in kinds only).
   */
  async patch(name: string, patch: unknown, options: WriteOptions & { type?: PatchType; namespace?: string; subresource?: 'status' | 'scale'; force?: boolean } = {}): Promise<T> {
    const type = options.type ?? 'merge';
    if (type === 'apply' && !options.fieldManager) throw KubeError.badRequest('fieldManager is required for apply patch');
    const query = writeQuery(options);
    if (options.force) query.set('force', 'true');
    const path = withQuery(await this.path(options.namespace, name, options.subresource, options.signal), query);
    return this.object('PATCH', path, patch, { contentType: patchContentTypes[type], signal: options.signal });
  }

  /** Server-side apply of a whole object as `fieldManager`, creating it when it does not exist. */
  async apply(obj: T, options: WriteOptions & { fieldManager: string; force?: boolean; subresource?: 'status' }): Promise<T> {
    return this.patch(this.nameOf(obj), this.withTypeMeta(obj), { ...options, type: 'apply', namespace: await this.namespaceOf(obj, options.signal) });
  }

  /**
   * Deletes an object; with finalizers it is only marked for deletion. Returns what the server
   * returned (the object, or a `Status`).
   */
  async delete(name: string, options: { namespace?: string; propagationPolicy?: 'Orphan' | 'Background' | 'Foreground'; preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: boolean; signal?: AbortSignal } = {}): Promise<unknown> {
    const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.preconditions) body.preconditions = options.preconditions;
    if (options.dryRun) body.dryRun = ['All'];
    return this.client.request('DELETE', await this.path(options.namespace, name, undefined, options.signal), body, options);
  }

  /** Whether the resource is namespaced: `ref.namespaced`, else discovery (see {@link KubeClient.isNamespaced}). */
  namespaced(signal?: AbortSignal): Promise<boolean> {
    return this.ref.namespaced !== undefined ? Promise.resolve(this.ref.namespaced) : this.client.isNamespaced(this.ref.apiVersion, this.ref.plural, signal);
  }

  /** A request whose answer is one object (not `null`, an array or a scalar, which no apiserver sends). */
  private async object(method: string, path: string, body: unknown, options: { contentType?: string; signal?: AbortSignal }): Promise<T> {
    const value = await this.client.request(method, path, body, options);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new KubeError('InternalError', `unable to decode the response of ${method} ${path}: expected an object, got ${jsonTypeName(value)}`);
    }
    return value as T;
  }

  private async path(namespace: string | undefined, name?: string, subresource?: string, signal?: AbortSignal): Promise<string> {
    const namespaced = await this.namespaced(signal);
    return resourcePath({ group: this.group, version: this.version, resource: this.ref.plural }, namespaced ? namespace : undefined, name, subresource);
  }

  private async namespaceOf(obj: T, signal?: AbortSignal): Promise<string | undefined> {
    if (!(await this.namespaced(signal))) return undefined;
    return obj.metadata?.namespace ?? 'default';
  }

  private nameOf(obj: T): string {
    const name = obj.metadata?.name;
    if (!name) throw KubeError.badRequest('the object has no metadata.name');
    return name;
  }

  private withTypeMeta(obj: T): T {
    if (obj.apiVersion !== undefined && obj.kind !== undefined) return obj;
    return { apiVersion: this.ref.apiVersion, ...obj };
  }
}

function writeQuery(options: WriteOptions): URLSearchParams {
  const q = new URLSearchParams();
  if (options.dryRun) q.set('dryRun', 'All');
  if (options.fieldManager) q.set('fieldManager', options.fieldManager);
  if (options.fieldValidation) q.set('fieldValidation', options.fieldValidation);
  return q;
}

function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}
