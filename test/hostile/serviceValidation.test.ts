// How kube-apiserver 1.34.4 takes a v1 Service, on a single-stack IPv4 cluster: SetDefaults_Service, what the
// Service REST storage does before validation (cluster IPs kept in step with the plural, IP family fields
// inferred and refused when the cluster lacks them, cluster IPs, node ports and health check node ports
// allocated, with the allocators' own errors — a 500 for the health check port), ValidateService and
// ValidateServiceUpdate, the fields a change of type drops, and ValidateServiceStatusUpdate (load balancer
// ingress points: only for a load balancer, their addresses, IP modes and host names). kubekit validated ports and the type only,
// and stored Services a cluster refuses (a bad protocol, a loopback external IP, a node port on a ClusterIP
// Service, dual-stack on a single-stack cluster, …).
//
// The expected answers are the reference's, recorded in fixtures/serviceValidation.json (addresses, node
// ports and the service range replaced by placeholders: the two servers have different ranges). To record
// them again: KUBEKIT_RECORD_SERVICES=1 npx mocha test/hostile/serviceValidation.test.ts (the reference
// writes the file; kubekit's run then compares with it).
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { describeOnBothServers, type Send } from './sender.js';

const fixtureURL = new URL('./fixtures/serviceValidation.json', import.meta.url);

const creates: Record<string, unknown>[] = [
  { type: 'ClusterIP', ports: [{ port: 80, protocol: 'SCTPX' }] },
  { type: 'ClusterIP', ports: [{ port: 80, name: 'Bad_Name' }] },
  { type: 'ClusterIP', ports: [{ port: 80, targetPort: 'not_valid!' }] },
  { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30001 }] },
  { type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }, { port: 81, nodePort: 30001, name: 'b' }] },
  { type: 'ClusterIP', ports: [{ port: 80, name: 'a' }, { port: 80, name: 'b' }] },
  { type: 'ClusterIP', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } }, ports: [{ port: 80 }] },
  { type: 'ClusterIP', sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } }, ports: [{ port: 80 }] },
  { type: 'ClusterIP', externalIPs: ['1.2.3.4', '127.0.0.1', 'nope'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', loadBalancerSourceRanges: ['10.0.0.0/8'], ports: [{ port: 80 }] },
  { type: 'LoadBalancer', loadBalancerSourceRanges: [' 10.0.0.1/8', 'x'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] },
  { type: 'ClusterIP', internalTrafficPolicy: 'Nope', ports: [{ port: 80 }] },
  { type: 'ClusterIP', trafficDistribution: 'Nope', ports: [{ port: 80 }] },
  { type: 'ClusterIP', selector: { 'bad key!': 'x' }, ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: '1.2.3.4', ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None', '10.96.0.50'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilies: ['IPv6'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] },
  { type: 'ExternalName', externalName: 'Bad_Name.com.', ports: [{ port: 80 }] },
  { type: 'ExternalName', externalName: 'x.com', clusterIP: '10.96.0.77' },
  { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] },
  { type: 'ClusterIP', allocateLoadBalancerNodePorts: true, ports: [{ port: 80 }] },
  { type: 'LoadBalancer', loadBalancerClass: 'bad class', ports: [{ port: 80 }] },
  { type: 'ClusterIP', loadBalancerClass: 'example.com/x', ports: [{ port: 80 }] },
  { type: 'ClusterIP', ports: [{ port: 80, appProtocol: 'bad proto!' }] },
  { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 70000, ports: [{ port: 80 }] },
  { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] },
  { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] },
  { type: 'NodePort', ports: [{ port: 80, nodePort: 30080, name: 'a' }, { port: 80, protocol: 'UDP', name: 'b' }] },
  { type: 'NodePort', ports: [{ port: 80, nodePort: 30081, name: 'a' }, { port: 80, nodePort: 30082, protocol: 'UDP', name: 'b' }] },
  { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: 'None', ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: 'None', selector: { a: 'b' }, ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: 'None', ipFamilyPolicy: 'SingleStack' },
  { type: 'ClusterIP', clusterIP: '10.96.0.0', ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIPs: ['10.0.0.9'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: '2001:db8::1', ports: [{ port: 80 }] },
  { type: 'ClusterIP', clusterIP: 'x.y', ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilies: ['IPv4', 'IPv4'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilies: ['IPv5'], ipFamilyPolicy: 'Weird', ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilies: ['IPv4', 'IPv6'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] },
  { type: 'ClusterIP', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] },
  { type: 'ClusterIP', sessionAffinity: 'ClientIP', sessionAffinityConfig: {}, ports: [{ port: 80 }] },
  { type: 'ClusterIP', sessionAffinity: 'Sticky', ports: [{ port: 80 }] },
  { type: 'ClusterIP', externalIPs: ['0.0.0.0', '169.254.1.1', '224.0.0.5', 'fe80::1', '::1', '010.1.1.1'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', externalIPs: ['1.2.3.4'], ports: [{ port: 80 }] },
  { type: 'Weird', ports: [{ port: 80 }] },
  { ports: [{ port: 0 }] },
  { ports: [{ port: 70000, targetPort: 0 }] },
  { ports: [{ port: 80, targetPort: 'http-very-long-name' }] },
  { ports: [{ port: 80, name: 'a' }, { port: 81, name: 'a' }] },
  { ports: [] },
  { type: 'ExternalName' },
  { type: 'ExternalName', externalName: 'x.com', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
  { type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.1/33', '1.2.3.4', '::/0', '001.2.3.4/08'], ports: [{ port: 80 }] },
  { type: 'ClusterIP', healthCheckNodePort: 30500, ports: [{ port: 80 }] },
];

const annotated: [Record<string, string>, string][] = [
  [{ 'service.kubernetes.io/topology-aware-hints': 'auto', 'service.kubernetes.io/topology-mode': 'x' }, 'ClusterIP'],
  [{ 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, x' }, 'ClusterIP'],
  [{ 'service.beta.kubernetes.io/load-balancer-source-ranges': ' ' }, 'LoadBalancer'],
];

/** A Service, then a merge patch of it. */
const updates: [Record<string, unknown>, Record<string, unknown>][] = [
  [{ ports: [{ port: 80 }] }, { clusterIP: '10.0.0.200', clusterIPs: null }],
  [{ ports: [{ port: 80 }] }, { type: 'NodePort' }],
  [{ type: 'NodePort', ports: [{ port: 80 }] }, { type: 'ClusterIP' }],
  [{ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }, { healthCheckNodePort: 31999 }],
  [{ type: 'LoadBalancer', externalTrafficPolicy: 'Local', loadBalancerClass: 'a.com/x', ports: [{ port: 80 }] }, { type: 'ClusterIP' }],
  [{ type: 'LoadBalancer', loadBalancerClass: 'a.com/x', ports: [{ port: 80 }] }, { loadBalancerClass: 'a.com/y' }],
  [{ ports: [{ port: 80 }] }, { type: 'ExternalName', externalName: 'x.com' }],
  [{ type: 'ExternalName', externalName: 'x.com' }, { type: 'ClusterIP', ports: [{ port: 80 }] }],
  [{ ports: [{ port: 80 }] }, { ipFamilies: ['IPv6'] }],
  [{ ports: [{ port: 80 }] }, { clusterIP: '', clusterIPs: [] }],
  [{ ports: [{ port: 80 }] }, { clusterIP: 'None' }],
  [{ type: 'NodePort', ports: [{ port: 80, name: 'a' }] }, { ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b' }] }],
  [{ ports: [{ port: 80 }] }, { ipFamilyPolicy: 'RequireDualStack' }],
  [{ ports: [{ port: 80 }], externalIPs: ['1.2.3.4'] }, { externalIPs: ['1.2.3.4', '127.0.0.2'] }],
  // Found by the hostile suite: the class is checked by both ValidateServiceUpdate and validateService (two
  // causes), and a health check port that cannot be had is a 500 whose cause repeats the message.
  [{ ports: [{ port: 80 }] }, { loadBalancerClass: 'example.com/lb' }],
  [{ ports: [{ port: 80 }] }, { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 70000 }],
  // A change of the health check port while one is needed is validation's, not the allocator's.
  [{ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] }, { healthCheckNodePort: 70000 }],
];

/** A Service (its type), then a write of its status: a PUT (whose body has no spec: a ClusterIP one when defaulted) or a merge patch. */
const statusWrites: [string, 'PUT' | 'PATCH', Record<string, unknown>][] = [
  ['LoadBalancer', 'PATCH', { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }],
  ['LoadBalancer', 'PUT', { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }],
  ['LoadBalancer', 'PATCH', { loadBalancer: { ingress: [{ ip: 'nope', ipMode: 'Tunnel' }, { hostname: '192.0.2.9' }, { hostname: 'Bad_Host', ipMode: 'VIP' }] } }],
  ['LoadBalancer', 'PATCH', { loadBalancer: { ingress: [{ ip: '010.0.0.1', ipMode: 'Proxy', ports: [{ port: 80, protocol: 'TCP' }] }] } }],
  ['ClusterIP', 'PATCH', { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }],
  ['ClusterIP', 'PATCH', { conditions: [{ type: 'Ready', status: 'True', reason: 'Ok', message: '', lastTransitionTime: '2026-11-27T00:00:00Z' }] }],
];

/** A JSON value with its object members sorted (the servers order a port's members differently). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
}

/** An answer without what differs by server: the cluster IPs given out and the node ports (placeholders). */
function normalized(status: number, body: Record<string, unknown>): string {
  const causes = (body.details as { causes?: unknown[] } | undefined)?.causes?.length ?? 0;
  const what = status >= 400 ? `${String(body.message)} (${causes} causes)` : JSON.stringify(sorted({ spec: body.spec, status: body.status }));
  return `${status} ${what}`
    .replace(/"(10\.96\.\d+\.\d+|10\.0\.0\.\d+)"/g, '"<ip>"')
    .replace(/\b3[0-2]\d{3}\b/g, (m) => (Number(m) >= 30000 && Number(m) <= 32767 ? '<node port>' : m));
}

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  const created = await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'svcval' } }));
  expect(created.status, created.text).to.equal(201);
  const answers: string[] = [];
  const post = async (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; warnings: string[] }> => {
    const a = await s('POST', '/api/v1/namespaces/svcval/services', JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name, ...(annotations === undefined ? {} : { annotations }) }, spec }));
    return { status: a.status, body: JSON.parse(a.text) as Record<string, unknown>, warnings: a.warnings };
  };
  for (const [i, spec] of creates.entries()) {
    const a = await post(`c${i}`, spec);
    answers.push(`create ${JSON.stringify(spec)}: ${normalized(a.status, a.body)}${a.warnings.length > 0 ? ` warnings ${JSON.stringify(a.warnings)}` : ''}`);
  }
  for (const [i, [annotations, type]] of annotated.entries()) {
    const a = await post(`a${i}`, { type, ports: [{ port: 80 }] }, annotations);
    answers.push(`create with ${JSON.stringify(annotations)}: ${a.status} ${a.status >= 400 ? String(a.body.message) : ''}`);
  }
  for (const [i, [spec, patch]] of updates.entries()) {
    const base = await post(`u${i}`, spec);
    expect(base.status, JSON.stringify(base.body)).to.equal(201);
    // The reference allocates at random: an address the patch names may be the one it gave, which is no change.
    const given = (base.body.spec as { clusterIP?: string } | undefined)?.clusterIP;
    const sent = given !== undefined && patch.clusterIP === given ? { ...patch, clusterIP: given === '10.0.0.200' ? '10.0.0.201' : '10.0.0.200' } : patch;
    const a = await s('PATCH', `/api/v1/namespaces/svcval/services/u${i}`, JSON.stringify({ spec: sent }), 'application/merge-patch+json');
    answers.push(`update ${JSON.stringify(spec)} with ${JSON.stringify(patch)}: ${normalized(a.status, JSON.parse(a.text) as Record<string, unknown>)}`);
  }
  for (const [i, [type, method, status]] of statusWrites.entries()) {
    const base = await post(`st${i}`, { type, ports: [{ port: 80 }] });
    expect(base.status, JSON.stringify(base.body)).to.equal(201);
    const path = `/api/v1/namespaces/svcval/services/st${i}/status`;
    const a = method === 'PUT'
      ? await s('PUT', path, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: `st${i}`, resourceVersion: (base.body.metadata as { resourceVersion: string }).resourceVersion }, status }))
      : await s('PATCH', path, JSON.stringify({ status }), 'application/merge-patch+json');
    answers.push(`status ${method} of a ${type} Service with ${JSON.stringify(status)}: ${normalized(a.status, JSON.parse(a.text) as Record<string, unknown>)}`);
  }
  if (backend === 'reference' && process.env.KUBEKIT_RECORD_SERVICES === '1') writeFileSync(fixtureURL, JSON.stringify({ answers }, null, 1) + '\n');
  const fixture = JSON.parse(readFileSync(fixtureURL, 'utf8')) as { answers: string[] };
  expect(answers).to.have.length(fixture.answers.length);
  answers.forEach((a, i) => expect(a, `answer ${i}`).to.equal(fixture.answers[i]));
}

describeOnBothServers('Service defaults, allocation and validation', run);

describe('startApiServer({ serviceClusterIPRange })', () => {
  it('gives Services addresses from the range, refuses one outside it, and refuses a bad range before starting', async () => {
    const { startApiServer } = await import('@kubekit/apiserver');
    const server = await startApiServer({ serviceClusterIPRange: '10.0.0.0/24' });
    try {
      const post = async (name: string, spec: Record<string, unknown>): Promise<{ status: number; body: { spec?: { clusterIP?: string }; message?: string } }> => {
        const res = await fetch(`${server.url}/api/v1/namespaces/default/services`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec }) });
        return { status: res.status, body: (await res.json()) as { spec?: { clusterIP?: string }; message?: string } };
      };
      const a = await post('a', { ports: [{ port: 80 }] });
      expect([a.status, a.body.spec?.clusterIP]).to.deep.equal([201, '10.0.0.10']);
      expect((await post('b', { clusterIP: '10.0.0.200', ports: [{ port: 80 }] })).status).to.equal(201);
      const outside = await post('c', { clusterIP: '10.96.0.50', ports: [{ port: 80 }] });
      expect([outside.status, outside.body.message]).to.deep.equal([422, 'Service "c" is invalid: spec.clusterIPs: Invalid value: ["10.96.0.50"]: failed to allocate IP 10.96.0.50: the provided network does not match the current range']);
    } finally {
      await server.close();
    }
    for (const bad of ['10.0.0.1/24', '10.0.0.0/31', 'fd00::/108', 'x']) {
      const err = await startApiServer({ serviceClusterIPRange: bad }).then(() => undefined, (e: unknown) => e as Error);
      expect(err?.message, bad).to.equal(`serviceClusterIPRange must be an IPv4 CIDR in canonical form with a prefix length of 8 to 30 (such as 10.96.0.0/12), got ${JSON.stringify(bad)}`);
    }
  });
});
