/**
 * core/v1 ComponentStatuses, as kube-apiserver 1.34.4 serves them (pkg/registry/core/componentstatus): not
 * stored but computed on each request, by asking the control plane's components whether they are healthy.
 *
 * - The components the apiserver asks (`componentStatusStorage.serversToValidate`): the scheduler and the
 *   controller-manager at their default secure ports on 127.0.0.1 (`GET https://127.0.0.1:10259/healthz` and
 *   `:10257`, certificates not verified, 20 s at most), and `etcd-0`, the storage. kubekit's storage is its
 *   own store, which is healthy while the server serves: `etcd-0` is `Healthy`, `ok`. The two others are
 *   asked for real, so a scheduler or controller-manager listening there is reported as the apiserver
 *   reports it; with none, each is `Unhealthy` with Go's `connection refused` error as its message.
 * - The HTTP prober's verdicts (pkg/probe/http `DoHTTPProbe`): a 2xx answer is healthy with its body (at
 *   most 10 KiB) as the message, a 3xx is `Unknown` (`Probe terminated redirects, …`; kubekit does not follow
 *   redirects, where the prober follows them first), any other status unhealthy (`HTTP probe failed with
 *   statuscode: N`), an error unhealthy with the error's text.
 * - get and list only: a list's selectors match the names (`metadata.name`, `metadata.namespace`, which is
 *   empty) and the labels (none); `limit`, `continue` and `resourceVersion` are read (and validated as any
 *   list's) but change nothing; a watch is `watch is not supported on resources of kind "componentstatuses"`;
 *   any other verb has no route (the generic 405). Every answer of get, list and watch carries the
 *   deprecation warning `v1 ComponentStatus is deprecated in v1.19+`.
 * - The objects have only a name: no resourceVersion, uid or creation time; a list's metadata is empty.
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/component-status-v1/
 */
import { request as httpsRequest } from 'node:https';
import { KubeError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType } from './builtinKinds.js';
import { str } from './internal/own.js';

/** The warning of every get, list and watch (`DeprecatedFunc` of the kind's REST). */
export const componentStatusDeprecation = 'v1 ComponentStatus is deprecated in v1.19+';

/** `probeTimeOut`. */
const probeTimeoutMs = 20_000;
/** pkg/probe/http's `maxRespBodyLength`. */
const maxBodyBytes = 10 * 1024;

/** A component the apiserver asks for its health. */
export interface ComponentTarget {
  /** The object's name. */
  name: string;
  /** The health endpoint (https). */
  url: string;
}

/** The two components `serversToValidate` names, at their default secure ports. */
export const defaultComponentTargets: readonly ComponentTarget[] = [
  { name: 'controller-manager', url: 'https://127.0.0.1:10257/healthz' },
  { name: 'scheduler', url: 'https://127.0.0.1:10259/healthz' },
];

/** What the prober concluded: the condition's status, message and error. */
export interface ComponentVerdict {
  status: 'True' | 'False' | 'Unknown';
  message: string;
  error: string;
}

/** A failed request's error in Go's `net/http` words, as far as Node says what happened. */
function goRequestError(url: string, err: NodeJS.ErrnoException & { address?: string; port?: number }): string {
  const { host } = new URL(url);
  const prefix = `Get ${JSON.stringify(url)}: `;
  switch (err.code) {
    case 'ECONNREFUSED': return `${prefix}dial tcp ${host}: connect: connection refused`;
    case 'ECONNRESET': return `${prefix}read tcp ${host}: read: connection reset by peer`;
    case 'ETIMEDOUT': return `${prefix}context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    case 'EPROTO': return `${prefix}http: server gave HTTP response to HTTPS client`;
    default: return `${prefix}${err.message}`;
  }
}

/**
 * Asks one component for its health as the apiserver's HTTP prober does (`HttpServer.DoServerCheck`):
 * never rejects; an unreachable component is `False` with the request's error as its message.
 */
export function probeComponent(target: ComponentTarget, timeoutMs = probeTimeoutMs): Promise<ComponentVerdict> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (v: ComponentVerdict): void => {
      if (settled) return;
      settled = true;
      resolve(v);
    };
    const fail = (err: NodeJS.ErrnoException): void => done({ status: 'False', message: goRequestError(target.url, err), error: '' });
    const req = httpsRequest(target.url, {
      method: 'GET', rejectUnauthorized: false, timeout: timeoutMs, agent: false,
      headers: { 'User-Agent': 'kube-probe/1.34', Accept: '*/*' },
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size >= maxBodyBytes) return;
        chunks.push(c);
        size += c.length;
      });
      res.on('error', fail);
      res.on('end', () => {
        const body = Buffer.concat(chunks).subarray(0, maxBodyBytes).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code >= 200 && code < 300) done({ status: 'True', message: body, error: '' });
        else if (code >= 300 && code < 400) done({ status: 'Unknown', message: `Probe terminated redirects, Response body: ${body}`, error: '' });
        else done({ status: 'False', message: `HTTP probe failed with statuscode: ${code}`, error: '' });
      });
    });
    req.on('timeout', () => {
      const err: NodeJS.ErrnoException = new Error('timeout');
      err.code = 'ETIMEDOUT';
      fail(err);
      req.destroy();
    });
    req.on('error', fail);
    req.end();
  });
}

/** The ComponentStatus of a verdict (`getComponentStatus`): one `Healthy` condition, `error` only when set. */
function componentStatus(name: string, v: ComponentVerdict): KubeObject {
  const condition: Record<string, string> = { type: 'Healthy', status: v.status, message: v.message };
  if (v.error !== '') condition.error = v.error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] } as KubeObject;
}

/** The printer's `Status` cell: Healthy, Unhealthy, or Unknown without a `Healthy` condition. */
function healthCell(o: KubeObject, key: 'status' | 'message' | 'error'): string {
  const conditions = Array.isArray(o.conditions) ? (o.conditions as Record<string, unknown>[]) : [];
  const healthy = conditions.find((c) => c.type === 'Healthy');
  if (key === 'status') return healthy === undefined ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
  return healthy === undefined ? '' : str(healthy[key]);
}

/** The computed kind: get and list, answered by asking the components. */
export class ComponentStatusType extends BuiltinResourceType {
  constructor(private readonly targets: readonly ComponentTarget[] = defaultComponentTargets) {
    super({
      names: { group: '', version: 'v1', resource: 'componentstatuses', singular: 'componentstatus', kind: 'ComponentStatus', namespaced: false, shortNames: ['cs'], status: false, nameValidation: 'subdomain' },
      verbs: ['get', 'list'],
      deprecationWarning: componentStatusDeprecation,
      age: false,
      columns: [
        { def: { name: 'Status', type: 'string', priority: 0 }, cell: (o) => healthCell(o, 'status') },
        { def: { name: 'Message', type: 'string', priority: 0 }, cell: (o) => healthCell(o, 'message') },
        { def: { name: 'Error', type: 'string', priority: 0 }, cell: (o) => healthCell(o, 'error') },
      ],
    });
  }

  /** Every component's status, asked at once (the REST's `List`; kubekit lists them in a fixed order). */
  async statuses(): Promise<KubeObject[]> {
    const verdicts = await Promise.all(this.targets.map((t) => probeComponent(t)));
    return [...this.targets.map((t, i) => componentStatus(t.name, verdicts[i])), componentStatus('etcd-0', { status: 'True', message: 'ok', error: '' })];
  }

  /** One component's status (the REST's `Get`): its 404 names the singular resource. */
  async status(name: string): Promise<KubeObject> {
    if (name === 'etcd-0') return componentStatus(name, { status: 'True', message: 'ok', error: '' });
    const target = this.targets.find((t) => t.name === name);
    if (target === undefined) throw KubeError.notFound({ group: '', resource: 'componentstatus' }, name);
    return componentStatus(name, await probeComponent(target));
  }
}

/** Whether a kind is the computed ComponentStatuses. */
export function isComponentStatusType(type: unknown): type is ComponentStatusType {
  return type instanceof ComponentStatusType;
}
