/**
 * A Pod's `log`, `exec`, `attach` and `portforward` subresources, which the apiserver serves by reaching
 * the kubelet of the pod's node. The embedded server runs no kubelets; it answers everything the
 * apiserver decides before it dials one, in its words (kube-apiserver 1.34.4, pkg/registry/core/pod/rest
 * and pod/strategy.go):
 *
 * - the options are decoded from the query first (an integer that does not parse is the 400 of
 *   `strconv.ParseInt`, a `sinceTime` that is not RFC 3339 the 400 of `time.Parse`, a port that is not a
 *   uint16 `cannot convert to []int32: …`; booleans take any text, `false` and `0` being false; a `sinceTime`
 *   present at all is set, `''` and `null` as the zero time), then a
 *   log's options are validated (`ValidatePodLogOptions`: the 422 of PodLogOptions);
 * - the pod is read (its 404), then the container is chosen (`validateContainer`: the pod's only container,
 *   else a 400 listing them all, init and ephemeral ones included; a named one must be one of them);
 * - a pod no node was assigned: its log is empty (204, no body), its exec, attach and port forwarding the 400
 *   `pod p does not have a host assigned`;
 * - a pod on a node that does not exist: the node getter's 404, worded with the pods resource (`pods "n1"
 *   not found`); on a node without addresses, the 500 `no preferred addresses found; known addresses: []`;
 * - a pod on a node with an address: exec, attach and port forwarding without `Upgrade` are the proxy's 400
 *   `Upgrade request required`; what the kubelet would answer then is not there to have: a 500 says so.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/pod/strategy.go (LogLocation, streamLocation)
 */
import { FieldError, FieldPath, KubeError, goQuote, parseRFC3339, type KubeObject } from '@kubekit/core';
import { isObject } from './internal/own.js';
import { parseInt64 } from './listing.js';
import type { ResourceType } from './resourceType.js';
import { currentObject, type RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';

/** The subresources this module serves, with the kind of their options and their verbs (discovery's). */
export const podConnectSubresources = [
  { subresource: 'attach', group: '', version: 'v1', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
  { subresource: 'exec', group: '', version: 'v1', kind: 'PodExecOptions', verbs: ['create', 'get'] },
  { subresource: 'log', group: '', version: 'v1', kind: 'Pod', verbs: ['get'] },
  { subresource: 'portforward', group: '', version: 'v1', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
] as const;

/** Whether `sub` is one of them. */
export function isPodConnectSubresource(sub: string): boolean {
  return podConnectSubresources.some((s) => s.subresource === sub);
}

/** The first value of a query parameter, undefined when it is absent (the conversion functions' `len(in) == 0`). */
function first(query: URLSearchParams, key: string): string | undefined {
  return query.has(key) ? query.get(key) ?? '' : undefined;
}

/** An `*int64` option: absent, or `strconv.ParseInt` of its first value (a 400 when it does not parse). */
function int64Option(query: URLSearchParams, key: string): number | undefined {
  const v = first(query, key);
  return v === undefined ? undefined : parseInt64(v);
}

/** `ValidatePodLogOptions`, in its order (stream selection is off: `PodLogsQuerySplitStreams` is alpha). */
function validateLogOptions(query: URLSearchParams, name: string): void {
  // Decoded in PodLogOptions' field order: the first that fails is the 400.
  const sinceSeconds = int64Option(query, 'sinceSeconds');
  // `*metav1.Time`: present at all, it is set (`''` and `null` are the zero time, anything else RFC 3339).
  const sinceTimeText = first(query, 'sinceTime');
  if (sinceTimeText !== undefined && sinceTimeText !== '' && sinceTimeText !== 'null') {
    const t = parseRFC3339(sinceTimeText);
    if (!t.ok) throw KubeError.badRequest(t.error);
  }
  const tailLines = int64Option(query, 'tailLines');
  const limitBytes = int64Option(query, 'limitBytes');
  const errs: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0) errs.push(new FieldError('FieldValueInvalid', 'tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(new FieldError('FieldValueInvalid', 'limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTimeText !== undefined) {
    errs.push(new FieldError('FieldValueForbidden', FieldPath.empty(), undefined, 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    errs.push(new FieldError('FieldValueInvalid', 'sinceSeconds', sinceSeconds, 'must be greater than 0'));
  }
  if (query.has('stream')) errs.push(new FieldError('FieldValueForbidden', 'stream', undefined, 'may not be specified'));
  if (errs.length > 0) throw KubeError.invalid({ group: '', kind: 'PodLogOptions' }, name, errs);
}

/** Port forwarding's `ports`: each comma-separated value a uint16 (`Convert_Slice_string_To_Slice_int32`). */
function checkPorts(query: URLSearchParams): void {
  for (const value of query.getAll('ports')) {
    for (const part of value.split(',')) {
      let problem: string | undefined;
      if (!/^[0-9]+$/.test(part)) problem = 'invalid syntax';
      else if (BigInt(part) > 65535n) problem = 'value out of range';
      if (problem !== undefined) throw KubeError.badRequest(`cannot convert to []int32: strconv.ParseUint: parsing ${goQuote(part)}: ${problem}`);
    }
  }
}

/** The names of a pod's containers: init, regular, ephemeral (`podutil.VisitContainers`). */
function containerNames(pod: KubeObject): string[] {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const names: string[] = [];
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) if (isObject(c) && typeof c.name === 'string') names.push(c.name);
  }
  return names;
}

/** `validateContainer`: the container a request is for. */
function chooseContainer(pod: KubeObject, asked: string): string {
  const name = pod.metadata.name ?? '';
  if (asked === '') {
    const spec = isObject(pod.spec) ? pod.spec : {};
    const regular = Array.isArray(spec.containers) ? spec.containers : [];
    if (regular.length === 1 && isObject(regular[0]) && typeof regular[0].name === 'string') return regular[0].name;
    if (regular.length === 0) throw KubeError.badRequest(`a container name must be specified for pod ${name}`);
    throw KubeError.badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(pod).join(' ')}]`);
  }
  if (!containerNames(pod).includes(asked)) throw KubeError.badRequest(`container ${asked} is not valid for pod ${name}`);
  return asked;
}

/**
 * The address and kubelet port of a node as the kubelet connection getter reads them (`GetConnectionInfo`):
 * the node's 404 worded with the request's resource `gr`, a node without a preferred address the getter's 500;
 * the kubelet's port is the one its status reports, else 10250.
 */
export function preferredNodeAddress(ctx: ServerContext, gr: ResourceType['groupResource'], nodeName: string): { address: string; port: string } {
  const nodes = ctx.resolveType?.('', 'v1', 'nodes');
  const node = nodes === undefined ? undefined : ctx.store.get(nodes.bucket, storeKey('', nodeName));
  if (node === undefined) throw KubeError.notFound(gr, nodeName);
  const status = isObject(node.status) ? node.status : {};
  const addresses = Array.isArray(status.addresses) ? status.addresses.filter(isObject) : [];
  for (const type of ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP']) {
    const found = addresses.find((a) => a.type === type);
    if (found === undefined) continue;
    const endpoints = isObject(status.daemonEndpoints) && isObject(status.daemonEndpoints.kubeletEndpoint) ? status.daemonEndpoints.kubeletEndpoint : {};
    const port = typeof endpoints.Port === 'number' && endpoints.Port > 0 ? endpoints.Port : 10250;
    return { address: typeof found.address === 'string' ? found.address : '', port: String(port) };
  }
  const known = addresses.map((a) => `{${String(a.type ?? '')} ${String(a.address ?? '')}}`).join(' ');
  throw new KubeError('Unknown', `no preferred addresses found; known addresses: [${known}]`, { code: 500 });
}

/** Serves a pod's `log`, `exec`, `attach` or `portforward` (see the file comment). */
export async function servePodConnect(ctx: ServerContext, r: RestRequest, namespace: string, name: string, sub: string): Promise<void> {
  const { query } = r;
  if (sub === 'log') validateLogOptions(query, name);
  if (sub === 'portforward') checkPorts(query);
  const pod = await currentObject(ctx, r.type, namespace, name);
  const container = sub === 'portforward' ? '' : chooseContainer(pod, first(query, 'container') ?? '');
  const nodeName = isObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '';
  if (nodeName === '') {
    if (sub === 'log') {
      // LogLocation gives no location for a pod without a node: the streamer has nothing to send.
      r.res.writeHead(204);
      r.res.end();
      return;
    }
    throw KubeError.badRequest(`pod ${name} does not have a host assigned`);
  }
  preferredNodeAddress(ctx, r.type.groupResource, nodeName);
  const upgrade = typeof r.req.headers.upgrade === 'string' && r.req.headers.upgrade !== '';
  if (sub !== 'log' && !upgrade) throw KubeError.badRequest('Upgrade request required');
  // Here the apiserver dials the node's kubelet; the embedded server has none to dial.
  const what = sub === 'log' ? `the log of container ${container} of pod ${namespace}/${name}` : sub === 'portforward' ? `port forwarding to pod ${namespace}/${name}` : `${sub} into container ${container} of pod ${namespace}/${name}`;
  throw new KubeError('Unknown', `the embedded API server runs no kubelet: ${what} on node ${nodeName} cannot be reached`, { code: 500 });
}
