/**
 * The `proxy` subresources of pods, services and nodes (`/api/v1/namespaces/ns/pods/p:8080/proxy/path`),
 * which the apiserver serves by proxying the request to the pod, to one of the service's endpoints or to
 * the node's kubelet. The embedded server runs no pods and no kubelets, and never proxies anywhere; it
 * answers everything the apiserver decides before it dials, in its words (kube-apiserver 1.34.4,
 * `ResourceLocation` in pkg/registry/core/pod, service/storage and node):
 *
 * - the name is `name`, `name:port` or `scheme:name:port` (`utilnet.SplitSchemeNamePort`: an empty name,
 *   more than three parts or a scheme other than http or https is the 400 `invalid pod request "…"`);
 * - a pod: its 404, then its first IP must be a global unicast address (`address not allowed`: none,
 *   loopback, link-local, multicast, unspecified);
 * - a service: a port number must be one of the service's ports (`no service port 81 found for service
 *   "svc"`), then its Endpoints (their 404, worded with the services resource), a subset (`no endpoints
 *   available for service "svc"`), and an address of a pod of the namespace that has that IP for the named
 *   port;
 * - a node: its 404, a preferred address (the 500 `no preferred addresses found; known addresses: []`), which
 *   must be proxyable when it is an IP (a host name is not resolved);
 * - where the apiserver would dial, the embedded server answers the proxy's 503 (`error trying to reach
 *   service: dial tcp 10.0.0.7:8080: …`), saying why nothing answers there.
 *
 * @see https://kubernetes.io/docs/tasks/access-application-cluster/access-cluster-services/#manually-constructing-apiserver-proxy-urls
 */
import { KubeError, goQuote, type KubeObject } from '@kubekit/core';
import { isObject, objects, str } from './internal/own.js';
import { parseIP } from './podWarnings.js';
import { preferredNodeAddress } from './podConnect.js';
import type { ResourceType } from './resourceType.js';
import { currentObject, type RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { storeKey } from './storage/objectStore.js';

/** The methods a proxy subresource takes (`proxyMethods`), and the verbs discovery lists for them. */
export const proxyMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];

/** The `proxy` subresource of pods, services and nodes, with the kind of its options (discovery's). */
export const proxySubresource = (kind: 'PodProxyOptions' | 'ServiceProxyOptions' | 'NodeProxyOptions') => ({ subresource: 'proxy', group: '', version: 'v1', kind, verbs: proxyVerbs });

/** `utilnet.SplitSchemeNamePort`: `name`, `name:port` or `scheme:name:port`, with a known scheme and a name. */
function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) [name] = parts;
  else if (parts.length === 2) [name, port] = parts;
  else if (parts.length === 3) [scheme, name, port] = parts;
  else return undefined;
  return name !== '' && ['', 'http', 'https'].includes(scheme) ? { scheme, name, port } : undefined;
}

/** Go's `IsGlobalUnicast` of a parsed address: not unspecified, loopback, multicast, link-local or the IPv4 broadcast. */
function globalUnicast(text: string): boolean {
  const ip = parseIP(text);
  if (ip === undefined) return false;
  const b = ip.bytes;
  if (ip.v4) {
    const [a, c, d, e] = b.slice(12);
    if (a === 0 && c === 0 && d === 0 && e === 0) return false;
    if (a === 255 && c === 255 && d === 255 && e === 255) return false;
    return a !== 127 && (a & 0xf0) !== 0xe0 && !(a === 169 && c === 254);
  }
  if (b.every((x) => x === 0)) return false;
  if (b.slice(0, 15).every((x) => x === 0) && b[15] === 1) return false;
  return b[0] !== 0xff && !(b[0] === 0xfe && (b[1] & 0xc0) === 0x80);
}

/** `net.JoinHostPort`, and the port an HTTP transport adds to a host without one. */
function dialAddress(host: string, port: string, scheme: string): string {
  const p = port !== '' ? port : scheme === 'https' ? '443' : '80';
  return host.includes(':') ? `[${host}]:${p}` : `${host}:${p}`;
}

/** The proxy's 503 where the apiserver would dial `address`. */
function unreachable(address: string, why: string): KubeError {
  return serviceUnavailable(`error trying to reach service: dial tcp ${address}: ${why}`);
}

function serviceUnavailable(message: string): KubeError {
  return new KubeError('ServiceUnavailable', message);
}

async function podLocation(ctx: ServerContext, r: RestRequest, namespace: string, id: string): Promise<never> {
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw KubeError.badRequest(`invalid pod request ${goQuote(id)}`);
  const pod = await currentObject(ctx, r.type, namespace, parsed.name);
  let { port } = parsed;
  if (port === '') {
    const spec = isObject(pod.spec) ? pod.spec : {};
    const withPorts = objects(spec.containers).find((c) => objects(c.ports).length > 0);
    if (withPorts !== undefined) port = String(objects(withPorts.ports)[0].containerPort ?? 0);
  }
  const status = isObject(pod.status) ? pod.status : {};
  const ip = str(objects(status.podIPs)[0]?.ip);
  if (!globalUnicast(ip)) throw KubeError.badRequest('address not allowed');
  throw unreachable(dialAddress(ip, port, parsed.scheme), `the embedded API server runs no pods: pod ${namespace}/${parsed.name} cannot be reached`);
}

function typeOf(ctx: ServerContext, resource: string): ResourceType | undefined {
  return ctx.resolveType?.('', 'v1', resource);
}

async function serviceLocation(ctx: ServerContext, r: RestRequest, namespace: string, id: string): Promise<never> {
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw KubeError.badRequest(`invalid service request ${goQuote(id)}`);
  const { name } = parsed;
  let portName = parsed.port;
  // A port number (what strconv.ParseInt takes: a sign, digits, within int64) names one of the service's ports.
  const number = /^[+-]?\d+$/.test(portName) ? BigInt(portName) : undefined;
  if (number !== undefined && number >= -(2n ** 63n) && number < 2n ** 63n) {
    const service = await currentObject(ctx, r.type, namespace, name);
    const spec = isObject(service.spec) ? service.spec : {};
    const found = objects(spec.ports).find((p) => typeof p.port === 'number' && BigInt(p.port) === number);
    if (found === undefined) throw serviceUnavailable(`no service port ${number} found for service ${goQuote(name)}`);
    portName = str(found.name);
  }
  const endpointsType = typeOf(ctx, 'endpoints');
  const endpoints = endpointsType === undefined ? undefined : ctx.store.get(endpointsType.bucket, storeKey(namespace, name));
  // The Endpoints getter's 404 reaches the client worded with the request's resource.
  if (endpoints === undefined) throw KubeError.notFound(r.type.groupResource, name);
  const subsets = objects((endpoints as KubeObject).subsets);
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${goQuote(name)}`);
  const pods = typeOf(ctx, 'pods');
  for (const subset of subsets) {
    const addresses = objects(subset.addresses);
    if (addresses.length === 0) continue;
    for (const port of objects(subset.ports)) {
      if (str(port.name) !== portName) continue;
      // Only addresses of pods of the namespace that have that IP are proxied to (isValidAddress).
      const address = addresses.find((a) => {
        const ref = isObject(a.targetRef) ? a.targetRef : undefined;
        if (ref === undefined || str(ref.namespace) !== namespace || pods === undefined) return false;
        const pod = ctx.store.get(pods.bucket, storeKey(namespace, str(ref.name)));
        const status = pod !== undefined && isObject(pod.status) ? pod.status : {};
        return objects(status.podIPs).some((p) => p.ip === a.ip);
      });
      if (address !== undefined) {
        throw unreachable(dialAddress(str(address.ip), String(port.port ?? 0), parsed.scheme), `the embedded API server runs no pods: service ${namespace}/${name} cannot be reached`);
      }
    }
  }
  throw serviceUnavailable(`no endpoints available for service ${goQuote(id)}`);
}

function nodeLocation(ctx: ServerContext, r: RestRequest, id: string): never {
  const parsed = splitSchemeNamePort(id);
  if (parsed === undefined) throw KubeError.badRequest(`invalid node request ${goQuote(id)}`);
  const { address, port } = preferredNodeAddress(ctx, r.type.groupResource, parsed.name);
  // A host name would be resolved; the embedded server resolves none (but localhost's).
  const loopbackName = address === 'localhost' || address.endsWith('.localhost');
  if (loopbackName || (parseIP(address) !== undefined && !globalUnicast(address))) throw KubeError.badRequest('address not allowed');
  // The kubelet's port unless another is asked for: there is always one.
  const target = parsed.port === '' ? port : parsed.port;
  throw unreachable(dialAddress(address, target, parsed.scheme), `the embedded API server runs no kubelet: node ${parsed.name} cannot be reached`);
}

/** Whether the request is for the proxy subresource of a kind that has one. */
export function isProxyRequest(type: ResourceType, sub: string): boolean {
  return sub === 'proxy' && (type.names.kindSubresources?.some((k) => k.subresource === 'proxy') ?? false);
}

/** Serves a proxy request (see the file comment): always an error, as nothing is proxied. */
export async function serveProxy(ctx: ServerContext, r: RestRequest, namespace: string, name: string): Promise<never> {
  if (name === '') throw KubeError.badRequest('name must be provided');
  switch (r.type.names.resource) {
    case 'pods': return podLocation(ctx, r, namespace, name);
    case 'services': return serviceLocation(ctx, r, namespace, name);
    default: return nodeLocation(ctx, r, name);
  }
}
