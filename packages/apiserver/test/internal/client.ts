// Test helpers: a tiny HTTP client over node's fetch, a watch stream reader, fixtures.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { parseJSON, stringifyJSON, type KubeObject, type ObjectMeta } from '@kubekit/core';
import { startApiServer, type ApiServer, type ApiServerOptions } from '@kubekit/apiserver';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** Reads a JSON fixture. */
export function fixture<T = unknown>(name: string): T {
  return JSON.parse(readFileSync(join(fixturesDir, name), 'utf8')) as T;
}

/** Reads every document of a YAML fixture. */
export function yamlFixture(name: string): KubeObject[] {
  return parseAllDocuments(readFileSync(join(fixturesDir, name), 'utf8')).map((d) => d.toJS() as KubeObject).filter((d) => d !== null);
}

export interface Response<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A JSON client bound to a server. */
export class Client {
  constructor(readonly baseUrl: string, private readonly token?: string) {}

  async request(method: string, path: string, body?: unknown, contentType = 'application/json', headers: Record<string, string> = {}): Promise<Response> {
    const h: Record<string, string> = { ...headers };
    if (this.token !== undefined) h.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) h['Content-Type'] = contentType;
    const res = await fetch(this.baseUrl + path, { method, headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : stringifyJSON(body) });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text === '' ? undefined : parseJSON(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(path: string, headers?: Record<string, string>): Promise<Response> {
    return this.request('GET', path, undefined, undefined, headers);
  }

  post(path: string, body: unknown): Promise<Response> {
    return this.request('POST', path, body);
  }

  put(path: string, body: unknown): Promise<Response> {
    return this.request('PUT', path, body);
  }

  patch(path: string, body: unknown, type: 'merge' | 'json' | 'strategic' | 'apply' = 'merge'): Promise<Response> {
    const ct = { merge: 'application/merge-patch+json', json: 'application/json-patch+json', strategic: 'application/strategic-merge-patch+json', apply: 'application/apply-patch+yaml' }[type];
    return this.request('PATCH', path, body, ct);
  }

  delete(path: string, body?: unknown): Promise<Response> {
    return this.request('DELETE', path, body);
  }

  /** Opens a watch (`path` must include `watch=true`). */
  watch(path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
    const h = { ...headers };
    if (this.token !== undefined) h.Authorization = `Bearer ${this.token}`;
    return WatchStream.open(this.baseUrl + path, h);
  }
}

/** An object as the tests read it: metadata typed, everything else loose. */
export interface LooseObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Event {
  type: string;
  object: LooseObject;
}

/** A watch response read line by line. */
export class WatchStream {
  readonly events: Event[] = [];
  private consumed = 0;
  private waiters: (() => void)[] = [];
  ended = false;
  status = 0;

  private constructor(private readonly abort: AbortController) {}

  static async open(url: string, headers: Record<string, string>): Promise<WatchStream> {
    const abort = new AbortController();
    const w = new WatchStream(abort);
    const res = await fetch(url, { headers, signal: abort.signal });
    w.status = res.status;
    if (res.status !== 200 || res.body === null) {
      w.ended = true;
      const text = await res.text();
      try {
        w.events.push({ type: 'HTTP', object: parseJSON(text) as KubeObject });
      } catch {
        w.events.push({ type: 'HTTP', object: { metadata: {}, text } as unknown as KubeObject });
      }
      return w;
    }
    void w.pump(res.body);
    return w;
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim() !== '') this.events.push(parseJSON(line) as Event);
        }
        this.wake();
      }
    } catch {
      // aborted or reset
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private changed(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`watch: no event within ${timeoutMs} ms (got ${this.events.length}: ${this.events.map((e) => e.type).join(',')})`)), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  /** The next unread event. */
  async next(timeoutMs = 5000): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    while (this.consumed >= this.events.length) {
      if (this.ended) throw new Error('watch ended');
      await this.changed(Math.max(1, deadline - Date.now()));
    }
    return this.events[this.consumed++];
  }

  /** Reads events until `pred` holds for the last one read; returns every event read. */
  async until(pred: (e: Event) => boolean, timeoutMs = 5000): Promise<Event[]> {
    const out: Event[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const e = await this.next(Math.max(1, deadline - Date.now()));
      out.push(e);
      if (pred(e)) return out;
    }
  }

  /** Resolves once the server has ended the stream. */
  async end(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) await this.changed(Math.max(1, deadline - Date.now()));
  }

  close(): void {
    this.abort.abort();
  }
}

/** Starts a server for a test suite and returns it with a client; close it in `after`. */
export async function start(options: ApiServerOptions = {}): Promise<{ server: ApiServer; client: Client }> {
  const server = await startApiServer(options);
  return { server, client: new Client(server.url, options.token) };
}

/** Creates a CRD and waits until the server's controllers have established it. */
export async function createCRD(server: ApiServer, client: Client, crd: unknown): Promise<Response> {
  const res = await client.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (res.status !== 201) throw new Error(`CRD create failed: ${res.status} ${res.text}`);
  await server.idle();
  return res;
}

/** The Shirt CRD of the docs page. */
export function shirtCRD(): KubeObject {
  return yamlFixture('shirt-resource-definition.yaml')[0];
}

/** The three Shirts of the docs page. */
export function shirts(): KubeObject[] {
  return yamlFixture('shirt-resources.yaml');
}
