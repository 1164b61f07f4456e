// Addresses in the forms kube-apiserver still reads but warns about, on both servers: the status warnings of
// Pods (`podStatusStrategy.WarningsOnUpdate`: status.podIPs and status.hostIPs) and Services
// (`serviceStatusStrategy.WarningsOnUpdate`: load balancer addresses, warned at the entry's path, not its
// `ip`'s), and octets and prefix lengths with any number of leading zeros, which the forked Go 1.16 parser
// behind `netutils.ParseIPSloppy` and `ParseCIDRSloppy` reads (`dtoi` counts no digits; k8s.io/utils
// internal/third_party/forked/golang/net). kubekit refused `0010.1.1.1` and `10.0.0.0/0000000008` and sent
// no status warnings before; every expected answer here is kube-apiserver 1.34.4's to the same request.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

const NS = '/api/v1/namespaces/default';
const mergePatch = 'application/merge-patch+json';
const future = (path: string, value: string, use: string): string => `${path}: non-standard IP address "${value}" will be considered invalid in a future Kubernetes release: use "${use}"`;
const futureCIDR = (path: string, value: string, use: string): string => `${path}: non-standard CIDR value "${value}" will be considered invalid in a future Kubernetes release: use "${use}"`;

async function run(s: Send): Promise<void> {
  answered(await s('POST', `${NS}/pods`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sloppy' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } })), 201);
  const podIPs = await s('PATCH', `${NS}/pods/sloppy/status`, JSON.stringify({ status: { podIP: '010.1.1.1', podIPs: [{ ip: '010.1.1.1' }] } }), mergePatch);
  expect([podIPs.status, podIPs.warnings]).to.deep.equal([200, [future('status.podIPs[0].ip', '010.1.1.1', '10.1.1.1')]]);
  // Every address of the new status is looked at, not only those the request changed.
  const hostIPs = await s('PATCH', `${NS}/pods/sloppy/status`, JSON.stringify({ status: { hostIP: '0010.2.2.2', hostIPs: [{ ip: '0010.2.2.2' }] } }), mergePatch);
  expect([hostIPs.status, hostIPs.warnings]).to.deep.equal([200, [future('status.podIPs[0].ip', '010.1.1.1', '10.1.1.1'), future('status.hostIPs[0].ip', '0010.2.2.2', '10.2.2.2')]]);
  const clean = await s('PATCH', `${NS}/pods/sloppy/status`, JSON.stringify({ status: { hostIP: '10.2.2.2', hostIPs: [{ ip: '10.2.2.2' }], podIP: '10.1.1.1', podIPs: [{ ip: '10.1.1.1' }] } }), mergePatch);
  expect([clean.status, clean.warnings]).to.deep.equal([200, []]);

  answered(await s('POST', `${NS}/services`, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'sloppy' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } })), 201);
  const lb = (ingress: unknown[]): string => JSON.stringify({ status: { loadBalancer: { ingress } } });
  const leading = await s('PATCH', `${NS}/services/sloppy/status`, lb([{ ip: '010.1.1.1' }]), mergePatch);
  expect([leading.status, leading.warnings]).to.deep.equal([200, [future('status.loadBalancer.ingress[0]', '010.1.1.1', '10.1.1.1')]]);
  const mapped = await s('PATCH', `${NS}/services/sloppy/status`, lb([{ ip: '::ffff:1.2.3.4' }, { ip: '1.2.3.4' }, { hostname: 'lb.example.com' }]), mergePatch);
  expect([mapped.status, mapped.warnings]).to.deep.equal([200, [future('status.loadBalancer.ingress[0]', '::ffff:1.2.3.4', '1.2.3.4')]]);
  const manyZeros = await s('PATCH', `${NS}/services/sloppy/status`, lb([{ ip: '1.2.3.4', ipMode: 'VIP' }, { ip: '0010.1.1.1' }]), mergePatch);
  expect([manyZeros.status, manyZeros.warnings]).to.deep.equal([200, [future('status.loadBalancer.ingress[1]', '0010.1.1.1', '10.1.1.1')]]);

  // Leading zeros past the third digit, in the spec: read, and warned about.
  const pod = await s('POST', `${NS}/pods`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'zeros' }, spec: { hostAliases: [{ ip: '10.1.1.0001', hostnames: ['a'] }], dnsPolicy: 'None', dnsConfig: { nameservers: ['::ffff:0001.2.3.4'] }, containers: [{ name: 'c', image: 'nginx' }] } }));
  expect([pod.status, pod.warnings]).to.deep.equal([201, [future('spec.dnsConfig.nameservers[0]', '::ffff:0001.2.3.4', '1.2.3.4'), future('spec.hostAliases[0].ip', '10.1.1.0001', '10.1.1.1')]]);
  const svc = await s('POST', `${NS}/services`, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'zeros' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }], externalIPs: ['0010.96.0.50'], loadBalancerSourceRanges: ['10.0.0.0/0000000008'] } }));
  expect([svc.status, svc.warnings]).to.deep.equal([201, [future('spec.externalIPs[0]', '0010.96.0.50', '10.96.0.50'), futureCIDR('spec.loadBalancerSourceRanges[0]', '10.0.0.0/0000000008', '10.0.0.0/8')]]);
  const np = await s('POST', '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies', JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'zeros' }, spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '0000000000010.0.0.0/0000000008' } }] }] } }));
  expect([np.status, np.warnings]).to.deep.equal([201, [futureCIDR('spec.ingress[0].from[0].ipBlock.cidr', '0000000000010.0.0.0/0000000008', '10.0.0.0/8')]]);
  // Past 255 still is no address, however it is written.
  const tooBig = await s('POST', `${NS}/services`, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'big' }, spec: { ports: [{ port: 80 }], externalIPs: ['00256.1.1.1'] } }));
  expect([tooBig.status, tooBig.message]).to.deep.equal([422, 'Service "big" is invalid: spec.externalIPs[0]: Invalid value: "00256.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
}

describeOnBothServers('addresses with leading zeros, and the Pod and Service status warnings', run);
