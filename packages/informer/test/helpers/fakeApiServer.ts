/**
 * A small, scriptable apiserver for one custom resource (`stable.example.com/v1` `shirts`), written
 * for the informer's fault tests: it serves lists (paginated from consistent snapshots), watches
 * (history replay from a resource version, selector semantics of the apiserver's cacher, bookmarks,
 * streaming lists) and misbehaves on request (statuses, resets, truncated or garbage lines, silence,
 * 410s, restarts with resource versions going backwards). It listens on 127.0.0.1 only.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { KubeObject, Status } from '@kubekit/core';
import { createCustomResourceFields, selectorMatcher, type SelectionPredicate } from '@kubekit/attrs';
import type { KubeConfigLike } from '../../src/kubeConfig.js';

export const group = 'stable.example.com';
export const version = 'v1';
export const apiVersion = `${group}/${version}`;
export const plural = 'shirts';

export type Shirt = KubeObject<{ color?: string; size?: string; quantity?: number }>;

/** A fault the server applies to the next matching request. */
export type Fault =
  | { on: FaultTarget; kind: 'status'; code: number; reason?: string; message?: string; retryAfter?: number; causes?: { reason: string; message: string }[]; plainText?: boolean }
  /** The connection closes under the response (FIN), or with `rst` is reset (RST). */
  | { on: FaultTarget; kind: 'reset'; afterEvents?: number; rst?: boolean }
  | { on: FaultTarget; kind: 'truncate'; afterEvents?: number }
  | { on: FaultTarget; kind: 'garbage'; afterEvents?: number }
  | { on: FaultTarget; kind: 'end'; afterEvents?: number }
  | { on: FaultTarget; kind: 'errorEvent'; afterEvents?: number; code: number; reason: string; message?: string }
  | { on: FaultTarget; kind: 'silent' }
  | { on: FaultTarget; kind: 'noResponse' };

/** `list` is a first page, `continue` a later one, `watch` any watch, `get` a GET of one object. */
export type FaultTarget = 'list' | 'continue' | 'watch' | 'streamingList' | 'get' | 'any';

interface HistoryEntry {
  rv: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  obj: Shirt;
  prev: Shirt | undefined;
}

interface Watcher {
  res: http.ServerResponse;
  /** A watch from a resource version the server has not reached: silent until it passes it (as kube-apiserver). */
  after?: number;
  match: SelectionPredicate;
  budget: WatchBudget | undefined;
  allowBookmarks: boolean;
}

interface WatchBudget {
  fault: Extract<Fault, { afterEvents?: number }>;
  left: number;
}

interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  accept: string;
}

export interface FakeApiServerOptions {
  /** Declared selectable fields (labels without the leading dot). @defaultValue ['spec.color', 'spec.size'] */
  selectableFields?: string[];
  /** Whether the server serves streaming lists. @defaultValue false */
  streamingList?: boolean;
  /** Whether `410` on watch comes as an HTTP status (true) or an `ERROR` event in a 200 stream. @defaultValue true */
  goneAsStatus?: boolean;
}

function key(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function status(code: number, reason: string, message: string, extra: Partial<Status> = {}): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

export class FakeApiServer {
  readonly server: http.Server;
  url = '';
  rv = 1;
  compactedRv = 0;
  readonly objects = new Map<string, Shirt>();
  history: HistoryEntry[] = [];
  readonly faults: Fault[] = [];
  readonly requests: Request[] = [];
  readonly watchers = new Set<Watcher>();
  selectableFields: string[];
  streamingList: boolean;
  goneAsStatus: boolean;
  private uidSeq = 0;
  private snapshots = new Map<string, Shirt[]>();
  private snapshotSeq = 0;
  private readonly sockets = new Set<Socket>();

  constructor(options: FakeApiServerOptions = {}) {
    this.selectableFields = options.selectableFields ?? ['spec.color', 'spec.size'];
    this.streamingList = options.streamingList ?? false;
    this.goneAsStatus = options.goneAsStatus ?? true;
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A `KubeConfigLike` pointing here, with a bearer token. */
  kubeConfig(): KubeConfigLike {
    const server = this.url;
    return {
      getCurrentCluster: () => ({ server, skipTLSVerify: false }),
      applyToHTTPSOptions: async (opts) => {
        opts.headers = { ...(opts.headers ?? {}), Authorization: 'Bearer test-token' };
      },
    };
  }

  /** Kubeconfig YAML text pointing here, for `@kubernetes/client-node`'s `KubeConfig`. */
  kubeconfigYAML(): string {
    return [
      'apiVersion: v1', 'kind: Config', 'current-context: fake',
      'clusters:', '- name: fake', '  cluster:', `    server: ${this.url}`,
      'users:', '- name: fake', '  user:', '    token: yaml-token',
      'contexts:', '- name: fake', '  context:', '    cluster: fake', '    user: fake',
    ].join('\n');
  }

  // ---- writes ----

  create(obj: Shirt): Shirt {
    const stored = clone(obj);
    stored.apiVersion = apiVersion;
    stored.kind = 'Shirt';
    stored.metadata.uid ??= `uid-${++this.uidSeq}`;
    stored.metadata.resourceVersion = String(++this.rv);
    if (this.objects.has(key(stored))) throw new Error(`exists: ${key(stored)}`);
    this.objects.set(key(stored), stored);
    this.record('ADDED', stored, undefined);
    return stored;
  }

  update(namespace: string, name: string, mutate: (o: Shirt) => void): Shirt {
    const prev = this.objects.get(`${namespace}/${name}`);
    if (prev === undefined) throw new Error(`missing: ${namespace}/${name}`);
    const next = clone(prev);
    mutate(next);
    next.metadata.resourceVersion = String(++this.rv);
    this.objects.set(key(next), next);
    this.record('MODIFIED', next, prev);
    return next;
  }

  delete(namespace: string, name: string): void {
    const prev = this.objects.get(`${namespace}/${name}`);
    if (prev === undefined) throw new Error(`missing: ${namespace}/${name}`);
    this.objects.delete(key(prev));
    const gone = clone(prev);
    gone.metadata.resourceVersion = String(++this.rv);
    this.record('DELETED', gone, prev);
  }

  /** Sends a bookmark at the current resource version to every watcher that asked for bookmarks. */
  bookmark(): void {
    for (const w of this.watchers) {
      if (w.allowBookmarks && !(w.after !== undefined && this.rv <= w.after)) this.write(w, { type: 'BOOKMARK', object: { kind: 'Shirt', apiVersion, metadata: { resourceVersion: String(this.rv) } } });
    }
  }

  /** Forgets history up to the current resource version: older watches get 410. */
  compact(): void {
    this.compactedRv = this.rv;
    this.history = [];
    this.snapshots.clear();
  }

  /** Ends every open watch cleanly (as the server's `timeoutSeconds` does). */
  endWatches(): void {
    for (const w of this.watchers) w.res.end();
    this.watchers.clear();
  }

  /** Sends an `ERROR` event with this status to every open watch and ends it, as the apiserver does for a compacted watch. */
  errorWatches(code: number, reason: string, message = reason): void {
    for (const w of this.watchers) w.res.end(JSON.stringify({ type: 'ERROR', object: status(code, reason, message) }) + '\n');
    this.watchers.clear();
  }

  /** Resets every open watch connection. */
  resetWatches(): void {
    for (const w of this.watchers) w.res.socket?.destroy();
    this.watchers.clear();
  }

  /**
   * A restart from an older state: open connections are reset, history is lost and resource
   * versions start again from `fromRv` (lower than before), so a client resuming from its last
   * resource version is ahead of the server.
   */
  restart(fromRv = 1): void {
    for (const s of this.sockets) s.destroy();
    this.watchers.clear();
    this.rv = fromRv;
    this.history = [];
    this.snapshots.clear();
    this.compactedRv = fromRv;
    for (const o of this.objects.values()) o.metadata.resourceVersion = String(++this.rv);
  }

  /** Objects matching the selectors, as a fresh list would return them. */
  select(fieldSelector = '', labelSelector = ''): Shirt[] {
    const match = this.matcher(fieldSelector, labelSelector);
    return [...this.objects.values()].filter((o) => match.matches(o));
  }

  // ---- internals ----

  private matcher(fieldSelector: string, labelSelector: string): SelectionPredicate {
    const fields = createCustomResourceFields({ namespaced: true, selectableFields: this.selectableFields.map((f) => ({ jsonPath: `.${f}` })) });
    return selectorMatcher({ fields, fieldSelector, labelSelector });
  }

  private record(type: HistoryEntry['type'], obj: Shirt, prev: Shirt | undefined): void {
    const entry: HistoryEntry = { rv: this.rv, type, obj, prev };
    this.history.push(entry);
    for (const w of this.watchers) if (!(w.after !== undefined && entry.rv <= w.after)) this.send(w, entry);
  }

  private send(w: Watcher, entry: HistoryEntry): void {
    const cur = entry.type !== 'DELETED' && w.match.matches(entry.obj);
    const old = entry.prev !== undefined && w.match.matches(entry.prev);
    if (cur && !old) this.write(w, { type: 'ADDED', object: entry.obj });
    else if (cur && old) this.write(w, { type: 'MODIFIED', object: entry.obj });
    else if (!cur && old) {
      // The cacher's DELETED for an object leaving the selection: the previous state with the event's resource version.
      const last = clone(entry.prev!);
      last.metadata.resourceVersion = String(entry.rv);
      this.write(w, { type: 'DELETED', object: last });
    }
  }

  private write(w: Watcher, event: unknown): void {
    if (w.res.writableEnded || w.res.destroyed) return;
    const line = JSON.stringify(event) + '\n';
    const b = w.budget;
    if (b !== undefined) {
      if (b.left === 0) {
        this.fire(w, b.fault, line);
        return;
      }
      b.left--;
    }
    w.res.write(line);
  }

  private fire(w: Watcher, fault: WatchBudget['fault'], line: string): void {
    w.budget = undefined;
    switch (fault.kind) {
      case 'reset':
        this.watchers.delete(w);
        if (fault.rst === true) w.res.socket?.resetAndDestroy();
        else w.res.socket?.destroy();
        return;
      case 'truncate':
        this.watchers.delete(w);
        w.res.end(line.slice(0, Math.max(1, Math.floor(line.length / 2))));
        return;
      case 'garbage':
        w.res.write('{"type":"MODIFIED","object":{"metadata":\n');
        w.res.write(line);
        return;
      case 'end':
        this.watchers.delete(w);
        w.res.end();
        return;
      case 'errorEvent':
        this.watchers.delete(w);
        w.res.end(JSON.stringify({ type: 'ERROR', object: status(fault.code, fault.reason, fault.message ?? fault.reason) }) + '\n');
        return;
    }
  }

  private takeFault(target: FaultTarget): Fault | undefined {
    const i = this.faults.findIndex((f) => f.on === target || f.on === 'any');
    if (i === -1) return undefined;
    return this.faults.splice(i, 1)[0];
  }

  private json(res: http.ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = url.searchParams;
    const accept = req.headers.accept ?? '';
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, accept });
    const m = /^\/apis\/stable\.example\.com\/v1\/(?:namespaces\/([^/]+)\/)?shirts(?:\/([^/]+))?$/.exec(url.pathname);
    if (m === null) {
      this.json(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
      return;
    }
    const namespace = m[1] ? decodeURIComponent(m[1]) : undefined;
    const metadataOnly = /as=PartialObjectMetadata/.test(accept);
    if (m[2] !== undefined) {
      const fault = this.takeFault('get');
      if (fault?.kind === 'status') {
        const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
        if (fault.plainText === true) {
          // As API Priority and Fairness answers (apiserver filters' tooManyRequests: http.Error, text/plain).
          res.writeHead(fault.code, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
          res.end(`${fault.message ?? 'injected failure'}\n`);
          return;
        }
        this.json(res, fault.code, status(fault.code, fault.reason ?? 'InternalError', fault.message ?? 'injected failure'), headers);
        return;
      }
      if (fault?.kind === 'noResponse') return;
      const o = this.objects.get(`${namespace ?? ''}/${decodeURIComponent(m[2])}`);
      if (o === undefined) this.json(res, 404, status(404, 'NotFound', `shirts.stable.example.com "${m[2]}" not found`));
      else this.json(res, 200, metadataOnly ? { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata } : o);
      return;
    }
    const watch = query.get('watch') === 'true' || query.get('watch') === '1';
    const streaming = watch && query.get('sendInitialEvents') === 'true';
    const target: FaultTarget = watch ? (streaming ? 'streamingList' : 'watch') : query.has('continue') ? 'continue' : 'list';
    const fault = this.takeFault(target);
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) };
      const details = fault.causes === undefined ? undefined : { causes: fault.causes };
      this.json(res, fault.code, status(fault.code, fault.reason ?? 'InternalError', fault.message ?? 'injected failure', details === undefined ? {} : { details }), headers);
      return;
    }
    if (fault?.kind === 'noResponse') return;
    if ((fault?.kind === 'reset' || fault?.kind === 'truncate') && !watch) {
      res.socket?.destroy();
      return;
    }
    let match: SelectionPredicate;
    try {
      const fs = query.get('fieldSelector') ?? '';
      match = this.matcher(fs, query.get('labelSelector') ?? '');
    } catch (err) {
      this.json(res, 400, status(400, 'BadRequest', (err as Error).message));
      return;
    }
    const inNamespace = (o: Shirt): boolean => namespace === undefined || o.metadata.namespace === namespace;
    if (!watch) {
      this.list(res, query, (o) => inNamespace(o) && match.matches(o));
      return;
    }
    if (fault?.kind === 'silent') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      return;
    }
    this.watch(req, res, query, streaming, { matches: (o: unknown) => inNamespace(o as Shirt) && match.matches(o) } as SelectionPredicate, fault);
  }

  private list(res: http.ServerResponse, query: URLSearchParams, keep: (o: Shirt) => boolean): void {
    const limit = Number(query.get('limit') ?? '0');
    const asked = Number(query.get('resourceVersion') ?? '0');
    if (!query.get('continue') && asked > this.rv) {
      // kube-apiserver waits up to 3 s for its watch cache to reach the version first; this fake answers at once.
      this.json(res, 504, status(504, 'Timeout', `Too large resource version: ${asked}, current: ${this.rv}`, { details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 } }));
      return;
    }
    let items: Shirt[];
    let id: string;
    let start = 0;
    let rv = this.rv;
    const cont = query.get('continue');
    if (cont) {
      const token = JSON.parse(Buffer.from(cont, 'base64url').toString()) as { id: string; start: number; rv: number };
      const snap = this.snapshots.get(token.id);
      if (snap === undefined) {
        this.json(res, 410, status(410, 'Expired', 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'));
        return;
      }
      items = snap;
      id = token.id;
      start = token.start;
      rv = token.rv;
    } else {
      items = [...this.objects.values()].filter(keep).sort((a, b) => key(a).localeCompare(key(b))).map(clone);
      id = String(++this.snapshotSeq);
      this.snapshots.set(id, items);
    }
    const end = limit > 0 ? Math.min(items.length, start + limit) : items.length;
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (end < items.length) metadata.continue = Buffer.from(JSON.stringify({ id, start: end, rv })).toString('base64url');
    else this.snapshots.delete(id);
    this.json(res, 200, { kind: 'ShirtList', apiVersion, metadata, items: items.slice(start, end) });
  }

  private watch(req: http.IncomingMessage, res: http.ServerResponse, query: URLSearchParams, streaming: boolean, match: SelectionPredicate, fault: Fault | undefined): void {
    if (streaming && !this.streamingList) {
      this.json(res, 422, status(422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
      return;
    }
    const rvText = query.get('resourceVersion') ?? '';
    const from = rvText === '' ? undefined : Number(rvText);
    // A watch from a version not reached yet stays open and silent until the store passes it (no
    // events up to it, no bookmarks), as kube-apiserver's watch cache keeps it.
    const future = !streaming && from !== undefined && from > this.rv;
    if (!streaming && from !== undefined && from < this.compactedRv) {
      const gone = status(410, 'Expired', `too old resource version: ${from} (${this.compactedRv})`);
      if (this.goneAsStatus) {
        this.json(res, 410, gone);
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ type: 'ERROR', object: gone }) + '\n');
      }
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const w: Watcher = {
      res,
      after: future ? from : undefined,
      match,
      allowBookmarks: query.get('allowWatchBookmarks') === 'true',
      budget: fault !== undefined && 'afterEvents' in fault ? { fault, left: fault.afterEvents ?? 0 } : fault !== undefined && fault.kind !== 'silent' && fault.kind !== 'noResponse' && fault.kind !== 'status' ? { fault, left: 0 } : undefined,
    };
    this.watchers.add(w);
    req.on('close', () => this.watchers.delete(w));
    if (fault !== undefined && w.budget !== undefined && !('afterEvents' in fault && fault.afterEvents !== undefined)) {
      // No event count: misbehave at once.
      this.fire(w, w.budget.fault, JSON.stringify({ type: 'BOOKMARK', object: { metadata: { resourceVersion: String(this.rv) } } }) + '\n');
      return;
    }
    if (streaming) {
      for (const o of [...this.objects.values()].sort((a, b) => key(a).localeCompare(key(b)))) {
        if (match.matches(o)) this.write(w, { type: 'ADDED', object: o });
      }
      this.write(w, { type: 'BOOKMARK', object: { kind: 'Shirt', apiVersion, metadata: { resourceVersion: String(this.rv), annotations: { 'k8s.io/initial-events-end': 'true' } } } });
    } else if (future) {
      // Silent until the store passes `from`.
    } else if (from !== undefined) {
      for (const entry of this.history) if (entry.rv > from) this.send(w, entry);
    } else {
      for (const o of this.objects.values()) if (match.matches(o)) this.write(w, { type: 'ADDED', object: o });
    }
  }
}
