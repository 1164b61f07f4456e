/**
 * Hostile writes to a Service (hostileCase.ts plays them): the built-in kind operators create beside every
 * workload, through every patch type (strategic merge patches keyed by port, merge and JSON patches, apply),
 * updates and its status. Each case starts from the same ClusterIP Service (`s`). What the two servers
 * allocate differently (cluster IPs from their own ranges, node ports) is masked before comparison
 * (`maskAllocations`); no request asks for a particular node port or address inside a range, which one
 * server may have given out already and the other not.
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';
import { jsonPatchBody, patchRequest } from './hostileKinds.js';

const S = '{sv}/s';

/** The Service every case starts from: two named ports, a selector. */
export function service(ns: string, name = 's'): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, labels: { app: 'h' } },
    spec: { selector: { app: 'h' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }, { name: 'metrics', port: 9090, targetPort: 'metrics' }] },
  };
}

const spec = (fields: string): string => `{"spec":{${fields}}}`;

/** Patches meant for the strategic merge patch, also sent as merge patches (whose lists replace). */
export const servicePatches: [string, string][] = [
  ['NodePort', spec('"type":"NodePort"')],
  ['LoadBalancer', spec('"type":"LoadBalancer"')],
  ['LoadBalancer, Local', spec('"type":"LoadBalancer","externalTrafficPolicy":"Local"')],
  ['LoadBalancer, no node ports', spec('"type":"LoadBalancer","allocateLoadBalancerNodePorts":false')],
  ['LoadBalancer, a health check port out of range', spec('"type":"LoadBalancer","externalTrafficPolicy":"Local","healthCheckNodePort":70000')],
  ['ExternalName', spec('"type":"ExternalName","externalName":"db.example.com"')],
  ['ExternalName without a name', spec('"type":"ExternalName"')],
  ['ExternalName, a bad name', spec('"type":"ExternalName","externalName":"Bad_Name."')],
  ['an unknown type', spec('"type":"Mesh"')],
  ['a type of null', spec('"type":null')],
  ['a port', spec('"ports":[{"name":"extra","port":81}]')],
  ['a port of another protocol', spec('"ports":[{"name":"dns","port":80,"protocol":"UDP"}]')],
  ['a port deleted', spec('"ports":[{"port":9090,"$patch":"delete"}]')],
  ['every port deleted', spec('"ports":[{"port":80,"$patch":"delete"},{"port":9090,"$patch":"delete"}]')],
  ['ports replaced', spec('"ports":[{"$patch":"replace"},{"port":443}]')],
  ['port order', spec('"$setElementOrder/ports":[{"port":9090},{"port":80}],"ports":[{"port":80,"targetPort":81}]')],
  ['a port without its key', spec('"ports":[{"name":"x"}]')],
  ['a port out of range', spec('"ports":[{"name":"big","port":70000}]')],
  ['a duplicate port name', spec('"ports":[{"name":"http","port":82}]')],
  ['a port without a name', spec('"ports":[{"port":83}]')],
  ['a bad protocol', spec('"ports":[{"name":"x","port":84,"protocol":"QUIC"}]')],
  ['a bad target port name', spec('"ports":[{"name":"x","port":85,"targetPort":"not_valid"}]')],
  ['a bad app protocol', spec('"ports":[{"name":"x","port":86,"appProtocol":"h 2"}]')],
  ['a node port on a ClusterIP Service', spec('"ports":[{"port":80,"nodePort":80}]')],
  ['a node port out of range', spec('"type":"NodePort","ports":[{"port":80,"nodePort":80}]')],
  ['ports null', spec('"ports":null')],
  ['headless', spec('"clusterIP":"None"')],
  ['cluster IP cleared', spec('"clusterIP":"","clusterIPs":null')],
  ['cluster IPs null', spec('"clusterIPs":null')],
  ['a malformed cluster IP', spec('"clusterIP":"x.y"')],
  ['an IPv6 cluster IP', spec('"clusterIP":"2001:db8::1","clusterIPs":["2001:db8::1"]')],
  ['IPv6', spec('"ipFamilies":["IPv6"]')],
  ['two families', spec('"ipFamilies":["IPv4","IPv6"]')],
  ['RequireDualStack', spec('"ipFamilyPolicy":"RequireDualStack"')],
  ['PreferDualStack', spec('"ipFamilyPolicy":"PreferDualStack"')],
  ['an unknown policy', spec('"ipFamilyPolicy":"Both"')],
  ['ClientIP affinity', spec('"sessionAffinity":"ClientIP"')],
  ['ClientIP affinity, a zero timeout', spec('"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":0}}')],
  ['an affinity config without ClientIP', spec('"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":60}}')],
  ['an unknown affinity', spec('"sessionAffinity":"Sticky"')],
  ['external IPs', spec('"externalIPs":["192.0.2.10"]')],
  ['bad external IPs', spec('"externalIPs":["127.0.0.1","0.0.0.0","nope","169.254.0.1"]')],
  ['an external IP in a non-standard form', spec('"externalIPs":["010.0.0.1","2001:DB8::1"]')],
  ['source ranges on a ClusterIP Service', spec('"loadBalancerSourceRanges":["10.0.0.0/8"]')],
  ['source ranges', spec('"type":"LoadBalancer","loadBalancerSourceRanges":["10.0.0.1/8"," 192.0.2.0/24","x"]')],
  ['Local on a ClusterIP Service', spec('"externalTrafficPolicy":"Local"')],
  ['an unknown internal policy', spec('"internalTrafficPolicy":"Nearby"')],
  ['internal policy null', spec('"internalTrafficPolicy":null')],
  ['an unknown traffic distribution', spec('"trafficDistribution":"Anywhere"')],
  ['PreferClose', spec('"trafficDistribution":"PreferClose"')],
  ['a load balancer class on a ClusterIP Service', spec('"loadBalancerClass":"example.com/lb"')],
  ['a bad load balancer class', spec('"type":"LoadBalancer","loadBalancerClass":"bad class"')],
  ['allocateLoadBalancerNodePorts on a ClusterIP Service', spec('"allocateLoadBalancerNodePorts":true')],
  ['a bad selector', spec('"selector":{"bad key!":"x"}')],
  ['selector null', spec('"selector":null')],
  ['publishNotReadyAddresses', spec('"publishNotReadyAddresses":true')],
  ['a load balancer IP', spec('"type":"LoadBalancer","loadBalancerIP":"::ffff:192.0.2.1"')],
  ['externalName on a ClusterIP Service', spec('"externalName":"x.example.com"')],
  ['topology annotations that disagree', '{"metadata":{"annotations":{"service.kubernetes.io/topology-aware-hints":"auto","service.kubernetes.io/topology-mode":"Disabled"}}}'],
  ['a source range annotation', '{"metadata":{"annotations":{"service.beta.kubernetes.io/load-balancer-source-ranges":"10.0.0.0/8,x"}}}'],
  ['status in a patch', '{"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}}'],
  ['spec __proto__', spec('"__proto__":{"polluted":"yes"}')],
  ['$retainKeys', spec('"$retainKeys":["ports","selector"],"type":"ClusterIP"')],
];

/** JSON patch paths into the Service. */
const paths = [
  '/spec/type', '/spec/ports', '/spec/ports/0', '/spec/ports/1', '/spec/ports/-', '/spec/ports/0/port', '/spec/ports/0/protocol', '/spec/ports/1/targetPort', '/spec/clusterIP',
  '/spec/clusterIPs', '/spec/clusterIPs/0', '/spec/ipFamilies', '/spec/ipFamilyPolicy', '/spec/selector', '/spec/selector/app', '/spec/sessionAffinity', '/spec/externalIPs',
  '/spec/internalTrafficPolicy', '/status', '/metadata/labels/app',
];
const values = ['1', '-1', '"x"', 'null', '{}', '[]', '{"port":8443,"name":"alt"}', '"NodePort"', '"None"', '["IPv6"]', '"ClientIP"', '70000', '["192.0.2.1"]', '{"polluted":"yes"}'];

const jsonPatch = (r: Rng): string => jsonPatchBody(r, paths, values);

const query = (r: Rng): string => r.pick(['', '', '', '?fieldValidation=Strict', '?fieldValidation=Warn', '?fieldManager=hostile']);

/** The Service as a PUT sends it (without its allocated cluster IP, as a client that never read it), with one thing changed. */
function update(r: Rng): HostileRequest {
  const s = service('{ns}') as { metadata: Record<string, unknown>; spec: Record<string, unknown> & { ports: Record<string, unknown>[] }; status?: unknown };
  const changes: [string, () => void][] = [
    ['plain', () => {}],
    ['NodePort', () => { s.spec.type = 'NodePort'; }],
    ['ExternalName', () => { s.spec.type = 'ExternalName'; s.spec.externalName = 'db.example.com'; }],
    ['no ports', () => { s.spec.ports = []; }],
    ['headless', () => { s.spec.clusterIP = 'None'; }],
    ['duplicate ports', () => { s.spec.ports.push({ name: 'again', port: 80 }); }],
    ['status set', () => { s.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }; }],
    ['an unknown field', () => { s.spec.clusterIp = '10.0.0.1'; }],
    ['two cluster IPs of one family', () => { s.spec.clusterIPs = ['192.0.2.1', '192.0.2.2']; s.spec.clusterIP = '192.0.2.1'; }],
  ];
  const [label, change] = r.pick(changes);
  change();
  const rv = r.pick([',"resourceVersion":"{rv}"', ',"resourceVersion":"{rv}"', '']);
  const body = JSON.stringify(s).replace('"namespace":"{ns}"', `"namespace":"{ns}"${rv}`);
  return { kind: 'service', label: `update: ${label}${rv === '' ? ', without resourceVersion' : ''}`, method: 'PUT', path: S + query(r), contentType: 'application/json', body };
}

function apply(r: Rng): HostileRequest {
  const head = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n';
  const [label, body] = r.pick([
    ['a port', `${head}spec:\n  ports:\n  - name: web\n    port: 8080\n`],
    ['a port of another protocol', `${head}spec:\n  ports:\n  - name: dns\n    port: 80\n    protocol: UDP\n`],
    ['a port without its key', `${head}spec:\n  ports:\n  - name: p\n`],
    ['NodePort', `${head}spec:\n  type: NodePort\n`],
    ['the selector', `${head}spec:\n  selector:\n    app: other\n`],
    ['headless', `${head}spec:\n  clusterIP: None\n`],
    ['status', `${head}status:\n  loadBalancer:\n    ingress:\n    - ip: 192.0.2.1\n`],
  ] as const);
  const q = r.pick(['?fieldManager=hostile', '?fieldManager=hostile&force=true', '']);
  return { kind: 'service', label: `apply ${label}`, method: 'PATCH', path: S + q, contentType: 'application/apply-patch+yaml', body };
}

function status(r: Rng): HostileRequest {
  const content = r.pick([
    '"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}', '"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com"}]}}',
    '"status":{"loadBalancer":{"ingress":[{"ip":"nope"}]}}', '"status":{"loadBalancer":{"ingress":[{"hostname":"192.0.2.1"}]}}', '"status":{"loadBalancer":{"ingress":[{"hostname":"Bad_Host"}]}}',
    '"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1","ipMode":"Proxy"}]}}', '"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1","ipMode":"Tunnel"}]}}',
    '"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com","ipMode":"VIP"}]}}', '"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1","ports":[{"port":80,"protocol":"TCP"}]}]}}',
    '"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1","ports":[{"port":0,"protocol":"XTP"}]}]}}', '"status":{"conditions":[{"type":"Ready","status":"True","reason":"Ok","message":"","lastTransitionTime":"2026-11-27T00:00:00Z"}]}',
    '"status":{"conditions":[{"type":"Ready"}]}', '"status":null',
  ]);
  if (r.chance(0.5)) {
    return { kind: 'service', label: `status update ${content.slice(0, 60)}`, method: 'PUT', path: `${S}/status`, contentType: 'application/json', body: `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","resourceVersion":"{rv}"},${content}}` };
  }
  return { kind: 'service', label: `status merge patch ${content.slice(0, 60)}`, method: 'PATCH', path: `${S}/status`, contentType: r.pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']), body: `{${content}}` };
}

/** One hostile request against the case's Service. */
export function serviceRequest(r: Rng): HostileRequest {
  const g = r.int(0, 9);
  const patch = patchRequest(r, g, 'service', S, servicePatches, query, jsonPatch);
  if (patch !== undefined) return patch;
  if (g === 7) return update(r);
  if (g === 8) return apply(r);
  return status(r);
}

/** The service range of either server (kubekit's `10.96.0.0/12`, the reference's `10.0.0.0/24`). */
const allocatedIP = /\b10\.(?:96|97|98|99|10\d|11[01])\.\d{1,3}\.\d{1,3}\b|\b10\.0\.0\.\d{1,3}\b/g;

/**
 * An answer with what the servers allocate differently masked: a Service's cluster IPs and node ports,
 * and addresses of either service range and node port numbers quoted in messages.
 */
export function maskAllocations(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(allocatedIP, '<cluster ip>').replace(/\b3[0-2]\d{3}\b/g, (m) => (Number(m) >= 30000 && Number(m) <= 32767 ? '<node port>' : m));
  if (Array.isArray(v)) return v.map(maskAllocations);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    if (o.kind === 'Service' && k === 'spec' && x !== null && typeof x === 'object') {
      const sp = { ...(x as Record<string, unknown>) };
      if (typeof sp.clusterIP === 'string' && sp.clusterIP !== 'None' && sp.clusterIP !== '') sp.clusterIP = '<cluster ip>';
      if (Array.isArray(sp.clusterIPs)) sp.clusterIPs = sp.clusterIPs.map((ip) => (ip === 'None' ? ip : '<cluster ip>'));
      if (typeof sp.healthCheckNodePort === 'number') sp.healthCheckNodePort = '<node port>';
      if (Array.isArray(sp.ports)) sp.ports = sp.ports.map((p) => (p !== null && typeof p === 'object' && typeof (p as Record<string, unknown>).nodePort === 'number' ? { ...(p as Record<string, unknown>), nodePort: '<node port>' } : p));
      out[k] = maskAllocations(sp);
    } else {
      out[k] = maskAllocations(x);
    }
  }
  return out;
}
