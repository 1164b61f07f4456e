/** A scenario's view of one backend: requests that are recorded as steps, and helpers that are not. */
import { send, watch, type Reply, type RequestOptions, type Target, type Watch, type WatchEvent } from './client.js';
import type { Step } from './normalize.js';

/** What a step keeps of an answer. */
export type Keep = 'all' | 'status' | ((body: unknown) => unknown);

export interface StepOptions extends RequestOptions {
  /** `all` (default): status, warnings and body; `status`: only the status code; a function: its result as body. */
  keep?: Keep;
}

export class Session {
  readonly steps: Step[] = [];
  private readonly watches: Watch[] = [];

  constructor(readonly target: Target) {}

  /** Sends a request and records the answer as a step. */
  async req(label: string, method: string, path: string, options: StepOptions = {}): Promise<Reply> {
    const r = await send(this.target, method, path, options);
    const keep = options.keep ?? 'all';
    const step: Step = { label, status: r.status };
    if (keep !== 'status') {
      if (r.warnings.length > 0) step.warnings = r.warnings;
      step.body = typeof keep === 'function' ? keep(r.body) : r.body;
    }
    this.steps.push(step);
    return r;
  }

  /** Sends a request that is setup, not under test; fails the scenario if it does not succeed. */
  async must(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const r = await send(this.target, method, path, options);
    if (r.status >= 300) throw new Error(`${this.target.name}: setup ${method} ${path} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  }

  /** Sends a request without recording it or checking the answer. */
  raw(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    return send(this.target, method, path, options);
  }

  /** Polls a condition (bounded: 60 s). */
  async until(cond: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await cond())) {
      if (Date.now() > deadline) throw new Error(`${this.target.name}: no ${what} within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Records a value computed by the scenario. */
  record(label: string, value: unknown): void {
    this.steps.push({ label, value });
  }

  /** Creates a CRD (recording the answer) and waits until every served version answers a list. */
  async createCRD(label: string, crd: CrdLike, options: StepOptions = {}): Promise<Reply> {
    const r = await this.req(label, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd, ...options });
    if (r.status < 300) await this.served(crd);
    return r;
  }

  /** Creates a CRD without recording it, and waits until it is served. */
  async setupCRD(crd: CrdLike): Promise<void> {
    await this.must('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    await this.served(crd);
  }

  /** Waits until every served version of a CRD answers a list, and the CRD is Established. */
  async served(crd: CrdLike): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (const v of crd.spec.versions) {
      if (v.served === false) continue;
      const ns = crd.spec.scope === 'Cluster' ? '' : '/namespaces/default';
      const path = `/apis/${crd.spec.group}/${v.name}${ns}/${crd.spec.names.plural}`;
      for (;;) {
        const r = await send(this.target, 'GET', path);
        if (r.status === 200) break;
        if (Date.now() > deadline) throw new Error(`${this.target.name}: ${path} not served within 60 s (last ${r.status})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    for (;;) {
      const r = await send(this.target, 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
      const conditions = ((r.body as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? []);
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True') && conditions.some((c) => c.type === 'NamesAccepted' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`${this.target.name}: CRD ${crd.metadata.name} not Established within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Opens a watch; `close()` of the session closes it. */
  async watch(path: string): Promise<Watch> {
    const w = await watch(this.target, path);
    this.watches.push(w);
    return w;
  }

  /** Records a watch's events (optionally without BOOKMARKs) as a step. */
  recordEvents(label: string, w: Watch, options: { bookmarks?: boolean; project?: (e: WatchEvent) => unknown } = {}): void {
    if (w.status >= 300) { this.steps.push({ label, status: w.status, body: w.error }); return; }
    const events = w.events.filter((e) => options.bookmarks || e.type !== 'BOOKMARK');
    this.steps.push({ label, events: events.map(options.project ?? ((e) => e)) });
  }

  close(): void {
    for (const w of this.watches) w.close();
  }
}

/** The parts of a CRD the session reads. */
export interface CrdLike {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { group: string; scope: string; names: { plural: string; [k: string]: unknown }; versions: { name: string; served?: boolean; [k: string]: unknown }[]; [k: string]: unknown };
}

/** `metadata.name` of each event's object, prefixed by the event type. */
export function eventNames(e: WatchEvent): string {
  return `${e.type} ${(e.object.metadata as { name?: string } | undefined)?.name ?? ''}`;
}
