// One HTTP request to kubekit's embedded server or the real kube-apiserver, answered as status, text and
// the Status message: what the hostile suites compare between the two.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { startApiServer, type ApiServerOptions } from '@kubekit/apiserver';
import { startReferenceApiServer } from '@kubekit/envtest';


/** The content types of patches, and the Accept of a Table and of protobuf, as the tests send them. */
export const MERGE = 'application/merge-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const APPLY = 'application/apply-patch+yaml';
export const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** A server's answer: the HTTP status, the body text, and the `message` of a `Status` body. */
export interface Answer {
  status: number;
  text: string;
  message: string;
  /** The texts of the `Warning` headers (`299 - "text"`), in order. */
  warnings: string[];
  /** The response headers, names lower-cased (as node:http gives them). */
  headers: IncomingHttpHeaders;
}

/** The text of each `Warning` header of an answer, unquoted. */
function warningTexts(rawHeaders: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() !== 'warning') continue;
    const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(rawHeaders[i + 1]);
    if (m !== null) out.push(m[1].replace(/\\(.)/g, '$1'));
  }
  return out;
}

/** The bytes and Content-Type of each answer (for the protobuf suites, whose bodies are not text). */
const raw = new WeakMap<Answer, { bytes: Buffer; contentType: string }>();

/** An answer's body as bytes and its Content-Type header. */
export function answerBytes(a: Answer): { bytes: Buffer; contentType: string } {
  const r = raw.get(a);
  if (r === undefined) throw new Error('not an answer of sender()');
  return r;
}

/** Sends one request; `contentType` defaults to JSON, `accept` to none; `headers` are sent as well (impersonation). */
export type Send = (method: string, path: string, body?: string, contentType?: string, accept?: string, headers?: Readonly<Record<string, string>>) => Promise<Answer>;

/** A {@link Send} for the server at `base` (with the bearer token and CA of the real server). */
export function sender(base: string, token: string | undefined, ca: string | undefined, timeoutMs = 30_000, asWritten = false): Send {
  return (method, path, body, contentType = 'application/json', accept, extra = {}) => new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...extra };
    if (accept !== undefined) headers.accept = accept;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    // A URL resolves `.` and `..` and reads a path beginning with `//` as an authority: `asWritten` sends the path as given.
    const url = new URL(asWritten ? base : base + path);
    const options = { protocol: url.protocol, hostname: url.hostname, port: url.port, path: asWritten ? path : url.pathname + url.search, method, headers, ca, timeout: timeoutMs };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let message = '';
        try {
          message = String((JSON.parse(text) as { message?: unknown }).message ?? '');
        } catch {
          // a watch stream or an empty body
        }
        const answer: Answer = { status: res.statusCode ?? 0, text, message, warnings: warningTexts(res.rawHeaders), headers: res.headers };
        raw.set(answer, { bytes, contentType: res.headers['content-type'] ?? '' });
        resolve(answer);
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Whether the real kube-apiserver can be built here (Go on PATH), unless the suites are told to use recorded answers. */
export function goAvailable(): boolean {
  if (process.env.KUBEKIT_DIFFERENTIAL === 'fixtures') return false;
  return spawnSync(process.env.KUBEKIT_GO ?? 'go', ['version'], { encoding: 'utf8', env: { ...process.env, GOTOOLCHAIN: 'local' } }).status === 0;
}

/** The server a both-server suite runs against: its URL, and a {@link Send} with another bearer token. */
export interface ServerAccess {
  url: string;
  as(token: string): Send;
  /** A {@link Send} without a bearer token (the anonymous user, where the server has a token). */
  anonymous: Send;
  /** A {@link Send} of the path exactly as given (`//`, `..`, `*`), not resolved as a URL. */
  asWritten: Send;
  /** A {@link Send} that gives up on a request unanswered after `ms` (its connection closed), rejecting with `no answer within …`. */
  abandoning(ms: number): Send;
}

/**
 * A suite that runs `run` against kubekit's embedded server, then against the real kube-apiserver (skipped
 * without Go), each started for it and closed after. `kubekitOptions`: what kubekit's server is started
 * with (the reference's service range, `10.0.0.0/24`, for a suite that compares cluster IPs).
 */
export function describeOnBothServers(title: string, run: (send: Send, backend: 'kubekit' | 'reference', server: ServerAccess) => Promise<void>, kubekitOptions: ApiServerOptions = {}): void {
  const withGo = goAvailable();
  describe(title, function () {
    this.timeout(15 * 60_000);

    it('kubekit\'s embedded server', async () => {
      const server = await startApiServer(kubekitOptions);
      try {
        await run(sender(server.url, kubekitOptions.token, undefined), 'kubekit', { url: server.url, as: (token) => sender(server.url, token, undefined), anonymous: sender(server.url, undefined, undefined), asWritten: sender(server.url, kubekitOptions.token, undefined, 30_000, true), abandoning: (ms) => sender(server.url, kubekitOptions.token, undefined, ms) });
      } finally {
        await server.close();
      }
    });

    it('the real kube-apiserver (when Go is on PATH)', async function () {
      if (!withGo) this.skip();
      const server = await startReferenceApiServer();
      try {
        await run(sender(server.url, server.token, server.ca), 'reference', { url: server.url, as: (token) => sender(server.url, token, server.ca), anonymous: sender(server.url, undefined, server.ca), asWritten: sender(server.url, server.token, server.ca, 30_000, true), abandoning: (ms) => sender(server.url, server.token, server.ca, ms) });
      } finally {
        await server.close();
      }
    });
  });
}

/**
 * A namespaced CRD `widgets.<group>` (kind Widget, version v1) whose `spec` has `specSchema` (and
 * `status` the `statusSchema`, with the version's `subresources`, when given), created through `s` and
 * waited for until its resource is served (at most 10 s); returns the collection path in the namespace
 * `default`.
 */
export async function createWidgets(s: Send, group: string, specSchema: Record<string, unknown>, more: { statusSchema?: Record<string, unknown>; subresources?: Record<string, unknown> } = {}): Promise<string> {
  const properties = more.statusSchema === undefined ? { spec: specSchema } : { spec: specSchema, status: more.statusSchema };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties } }, ...(more.subresources === undefined ? {} : { subresources: more.subresources }) }],
    },
  };
  const created = await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd));
  if (created.status !== 201) throw new Error(`creating the CRD widgets.${group}: ${created.status} ${created.text}`);
  const path = `/apis/${group}/v1/namespaces/default/widgets`;
  for (let i = 0; i < 100 && (await s('GET', path)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  return path;
}

/**
 * The answer to `send()` once `done` holds of it, asking again every 100 ms for at most `seconds` (10 s):
 * the reference's authorizer and admission plugins read RBAC, policies, quotas and LimitRanges through
 * informers, which see a write a moment after it is answered. The last answer is returned either way, so
 * the caller's expectation names what came instead.
 */
export async function eventually(send: () => Promise<Answer>, done: (a: Answer) => boolean, seconds = 10): Promise<Answer> {
  let a = await send();
  for (let i = 0; i < seconds * 10 && !done(a); i++) {
    await new Promise((r) => setTimeout(r, 100));
    a = await send();
  }
  return a;
}

/** The object of an answer with the status expected (the answer's text names what came instead). */
export function answered<T>(a: Answer, status = 200): T {
  expect(a.status, a.text).to.equal(status);
  return JSON.parse(a.text) as T;
}

/** Expects a 422 with exactly this message. */
export function refused(a: Answer, message: string): void {
  expect([a.status, a.message], a.text).to.deep.equal([422, message]);
}
