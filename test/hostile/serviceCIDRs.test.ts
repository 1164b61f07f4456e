// networking.k8s.io/v1 ServiceCIDRs and IPAddresses on both servers, with the MultiCIDRServiceAllocator Service
// allocator of kube-apiserver 1.34.4: the default ServiceCIDR `kubernetes` of the service range, ValidateServiceCIDR
// and ValidateServiceCIDRUpdate (strict CIDRs, one per family, immutable but for gaining the other family), the
// status neither strategy resets, ValidateIPAddress (the name a canonical IP, generateName taken as it is, the
// parent reference required and immutable), the IPAddress the allocator writes for each cluster IP and deletes
// with it, a cluster IP refused when an IPAddress holds it or no ServiceCIDR covers it, Tables, watch and
// discovery (pkg/registry/networking/{servicecidr,ipaddress}, pkg/apis/networking/validation,
// pkg/registry/core/service/ipallocator). kubekit runs with the reference's service range (10.0.0.0/24, set by
// packages/envtest). Every expected answer is kube-apiserver 1.34.4's to the same request.
import { expect } from 'chai';
import { MERGE, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const G = '/apis/networking.k8s.io/v1';
const CIDRS = `${G}/servicecidrs`;
const IPS = `${G}/ipaddresses`;
const SVC = '/api/v1/namespaces/default/services';
const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const managedBy = { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' };

interface Obj {
  metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; finalizers?: string[] };
  spec: Record<string, unknown>;
  status?: { conditions?: Record<string, unknown>[]; [k: string]: unknown };
}
interface Table { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }

const cidr = (name: string, spec: unknown, rest: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name }, spec, ...rest });
const ipAddress = (metadata: Record<string, unknown>, spec?: unknown): string => JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata, ...(spec === undefined ? {} : { spec }) });
const service = (name: string, clusterIP?: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ...(clusterIP === undefined ? {} : { clusterIP }), ports: [{ port: 80 }] } });
const allocation = (name: string, ip: string, why: string): string => `Service "${name}" is invalid: spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: ${why}`;

async function serviceCIDRs(s: Send): Promise<void> {
  // The default ServiceCIDR, of the service range, Ready; no finalizer (the kube-controller-manager adds it).
  const def = answered<Obj>(await s('GET', `${CIDRS}/kubernetes`));
  const ready = def.status?.conditions?.[0] ?? {};
  expect([def.metadata.finalizers, def.spec, ready.type, ready.status, ready.reason, ready.message, typeof ready.lastTransitionTime])
    .to.deep.equal([undefined, { cidrs: ['10.0.0.0/24'] }, 'Ready', 'True', '', 'Kubernetes default Service CIDR is ready', 'string']);

  // A create keeps the status it is sent.
  const condition = { type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'X', message: 'm' };
  const extra = answered<Obj>(await s('POST', CIDRS, cidr('extra', { cidrs: ['10.1.0.0/24'] }, { status: { conditions: [condition] } })), 201);
  expect([extra.spec, extra.status, extra.metadata.finalizers]).to.deep.equal([{ cidrs: ['10.1.0.0/24'] }, { conditions: [condition] }, undefined]);

  // ValidateServiceCIDR, several errors at once and in order.
  refused(await s('POST', CIDRS, cidr('bad', { cidrs: ['10.1.0.0/24', '10.2.0.0/24', 'fd00::/64'] })), 'ServiceCIDR.networking.k8s.io "bad" is invalid: spec.cidrs: Invalid value: {"CIDRs":["10.1.0.0/24","10.2.0.0/24","fd00::/64"]}: may only hold up to 2 values');
  refused(await s('POST', CIDRS, cidr('bad', { cidrs: ['10.1.0.1/24', '10.2.0.0/24'] })), 'ServiceCIDR.networking.k8s.io "bad" is invalid: [spec.cidrs[0]: Invalid value: "10.1.0.1/24": must not have bits set beyond the prefix length, spec.cidrs: Invalid value: ["10.1.0.1/24","10.2.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64]');
  refused(await s('POST', CIDRS, cidr('bad', {})), 'ServiceCIDR.networking.k8s.io "bad" is invalid: spec.cidrs: Required value: at least one CIDR required');
  refused(await s('POST', CIDRS, cidr('Bad_', { cidrs: ['x', '010.0.0.0/8'] })), `ServiceCIDR.networking.k8s.io "Bad_" is invalid: [metadata.name: Invalid value: "Bad_": ${subdomainRule}, spec.cidrs[0]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64), spec.cidrs[1]: Invalid value: "010.0.0.0/8": must not have leading 0s in IP or prefix length]`);
  refused(await s('POST', CIDRS, cidr('bad', { cidrs: ['FD00::/64', '::ffff:10.0.0.0/120'] })), 'ServiceCIDR.networking.k8s.io "bad" is invalid: [spec.cidrs[0]: Invalid value: "FD00::/64": must be in canonical form ("fd00::/64"), spec.cidrs[1]: Invalid value: "::ffff:10.0.0.0/120": must not have an IPv4-mapped IPv6 address]');
  refused(await s('POST', CIDRS, cidr('bad', { cidrs: ['10.0.0.0/024'] })), 'ServiceCIDR.networking.k8s.io "bad" is invalid: spec.cidrs[0]: Invalid value: "10.0.0.0/024": must not have leading 0s in IP or prefix length');

  // ValidateServiceCIDRUpdate: the CIDRs are kept, or a single family's range gains the other family's.
  refused(await s('PUT', `${CIDRS}/extra`, cidr('extra', { cidrs: ['10.2.0.0/24'] })), 'ServiceCIDR.networking.k8s.io "extra" is invalid: spec.cidrs[0]: Invalid value: "10.2.0.0/24": field is immutable');
  refused(await s('PUT', `${CIDRS}/extra`, cidr('extra', { cidrs: [] })), 'ServiceCIDR.networking.k8s.io "extra" is invalid: spec.cidrs: Invalid value: []: field is immutable');
  refused(await s('PUT', `${CIDRS}/extra`, cidr('extra', { cidrs: ['10.2.0.0/24', '10.3.0.0/24'] })), 'ServiceCIDR.networking.k8s.io "extra" is invalid: [spec.cidrs[0]: Invalid value: "10.2.0.0/24": field is immutable, spec.cidrs: Invalid value: ["10.2.0.0/24","10.3.0.0/24"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64]');
  // An update of the main resource takes the status it sends (none here).
  const dual = answered<Obj>(await s('PUT', `${CIDRS}/extra`, cidr('extra', { cidrs: ['10.1.0.0/24', 'fd00::/108'] })));
  expect([dual.spec, dual.status]).to.deep.equal([{ cidrs: ['10.1.0.0/24', 'fd00::/108'] }, {}]);
  refused(await s('PATCH', `${CIDRS}/extra`, JSON.stringify({ spec: { cidrs: ['10.1.0.0/24'] } }), MERGE), 'ServiceCIDR.networking.k8s.io "extra" is invalid: spec.cidrs: Invalid value: ["10.1.0.0/24"]: field is immutable');
  // /status keeps the spec.
  const st = answered<Obj>(await s('PATCH', `${CIDRS}/extra/status`, JSON.stringify({ spec: { cidrs: ['10.9.0.0/24'] }, status: { conditions: [condition] } }), MERGE));
  expect([st.spec, st.status]).to.deep.equal([{ cidrs: ['10.1.0.0/24', 'fd00::/108'] }, { conditions: [condition] }]);

  // Hostile bodies: the Go decoder's words.
  const wrongType = await s('POST', CIDRS, cidr('h', { cidrs: '10.1.0.0/24' }));
  expect([wrongType.status, wrongType.message]).to.deep.equal([400, 'ServiceCIDR in version "v1" cannot be handled as a ServiceCIDR: json: cannot unmarshal string into Go struct field ServiceCIDRSpec.spec.cidrs of type []string']);
  refused(await s('POST', CIDRS, JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'h' }, spec: null })), 'ServiceCIDR.networking.k8s.io "h" is invalid: spec.cidrs: Required value: at least one CIDR required');
  const proto = await s('POST', CIDRS, '{"apiVersion":"networking.k8s.io/v1","kind":"ServiceCIDR","metadata":{"name":"h"},"spec":{"__proto__":{"cidrs":["10.7.0.0/24"]}}}');
  expect([proto.status, proto.message]).to.deep.equal([422, 'ServiceCIDR.networking.k8s.io "h" is invalid: spec.cidrs: Required value: at least one CIDR required']);

  // Table.
  const table = answered<Table>(await s('GET', `${CIDRS}?fieldSelector=metadata.name%3Dextra`, undefined, undefined, TABLE));
  expect([table.columnDefinitions.map((c) => c.name), table.rows.map((r) => r.cells.slice(0, 2))]).to.deep.equal([['Name', 'CIDRs', 'Age'], [['extra', '10.1.0.0/24,fd00::/108']]]);
}

async function ipAddresses(s: Send): Promise<void> {
  // ValidateIPAddress.
  refused(await s('POST', IPS, ipAddress({ name: '10.000.0.61' }, {})), 'IPAddress.networking.k8s.io "10.000.0.61" is invalid: [metadata.name: Invalid value: "10.000.0.61": must not have leading 0s, spec.parentRef: Required value]');
  refused(await s('POST', IPS, ipAddress({ name: '2001:DB8::1' })), 'IPAddress.networking.k8s.io "2001:DB8::1" is invalid: [metadata.name: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1"), spec.parentRef: Required value]');
  refused(await s('POST', IPS, ipAddress({ name: '::ffff:1.2.3.4' }, { parentRef: { group: 'A_', resource: 'a/b', name: '..', namespace: '%x' } })), `IPAddress.networking.k8s.io "::ffff:1.2.3.4" is invalid: [metadata.name: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address, spec.parentRef.group: Invalid value: "A_": ${subdomainRule}, spec.parentRef.resource: Invalid value: "a/b": may not contain '/', spec.parentRef.name: Invalid value: "..": may not be '..', spec.parentRef.namespace: Invalid value: "%x": may not contain '%']`);
  refused(await s('POST', IPS, ipAddress({ name: 'bad' }, { parentRef: {} })), 'IPAddress.networking.k8s.io "bad" is invalid: [metadata.name: Invalid value: "bad": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), spec.parentRef.resource: Required value, spec.parentRef.name: Required value]');
  // The strategy's name generator gives generateName back as it is.
  refused(await s('POST', IPS, ipAddress({ generateName: '10.0.0.' }, { parentRef: { resource: 'x', name: 'y' } })), 'IPAddress.networking.k8s.io "10.0.0." is invalid: [metadata.generateName: Invalid value: "10.0.0.": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), metadata.name: Invalid value: "10.0.0.": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)]');
  const generated = answered<Obj>(await s('POST', IPS, ipAddress({ generateName: '192.168.1.2' }, { parentRef: { resource: 'x', name: 'y' } })), 201);
  expect(generated.metadata.name).to.equal('192.168.1.2');

  // An address another object holds: a Service may not take it; the parent reference is immutable.
  const held = answered<Obj>(await s('POST', IPS, ipAddress({ name: '10.0.0.60' }, { parentRef: { group: 'example.com', resource: 'widgets', name: 'w' } })), 201);
  expect([held.metadata.labels, held.spec]).to.deep.equal([undefined, { parentRef: { group: 'example.com', resource: 'widgets', name: 'w' } }]);
  refused(await s('POST', SVC, service('s5', '10.0.0.60')), allocation('s5', '10.0.0.60', 'provided IP is already allocated'));
  refused(await s('PUT', `${IPS}/10.0.0.60`, ipAddress({ name: '10.0.0.60' }, { parentRef: { resource: 'widgets', name: 'w2' } })), 'IPAddress.networking.k8s.io "10.0.0.60" is invalid: spec.parentRef: Invalid value: {"Group":"","Resource":"widgets","Namespace":"","Name":"w2"}: field is immutable');
  refused(await s('PUT', `${IPS}/10.0.0.60`, ipAddress({ name: '10.0.0.60' })), 'IPAddress.networking.k8s.io "10.0.0.60" is invalid: [spec.parentRef: Required value, spec.parentRef: Invalid value: null: field is immutable]');
  const relabelled = answered<Obj>(await s('PATCH', `${IPS}/10.0.0.60`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE));
  expect(relabelled.metadata.labels).to.deep.equal({ a: 'b' });
  const put404 = await s('PUT', `${IPS}/10.0.0.61`, ipAddress({ name: '10.0.0.61' }, { parentRef: { resource: 'x', name: 'y' } }));
  expect([put404.status, put404.message]).to.deep.equal([404, 'ipaddresses.networking.k8s.io "10.0.0.61" not found']);

  // Table: the printer's Age cell has no column.
  const table = answered<Table>(await s('GET', `${IPS}?fieldSelector=metadata.name%3D10.0.0.60`, undefined, undefined, TABLE));
  expect([table.columnDefinitions.map((c) => c.name), table.rows.map((r) => r.cells.slice(0, 2)), table.rows[0].cells.length]).to.deep.equal([['Name', 'ParentRef'], [['10.0.0.60', 'widgets.example.com/w']], 3]);
  const byRV = answered<Table>(await s('GET', `${IPS}/192.168.1.2`, undefined, undefined, TABLE));
  expect(byRV.rows.map((r) => r.cells.slice(0, 2))).to.deep.equal([['192.168.1.2', 'x/y']]);
  const deleted = await s('DELETE', `${IPS}/10.0.0.60`);
  expect(deleted.status).to.equal(200);
}

async function allocator(s: Send): Promise<void> {
  // A Service's cluster IP gets an IPAddress that names it; it goes with the Service.
  answered(await s('POST', SVC, service('s1', '10.0.0.50')), 201);
  const ip = answered<Obj>(await s('GET', `${IPS}/10.0.0.50`));
  expect([ip.metadata.labels, ip.spec]).to.deep.equal([managedBy, { parentRef: { resource: 'services', namespace: 'default', name: 's1' } }]);
  refused(await s('POST', SVC, service('s2', '10.0.0.50')), allocation('s2', '10.0.0.50', 'provided IP is already allocated'));
  // Outside every ServiceCIDR, or a range's network or broadcast address.
  for (const addr of ['10.5.0.7', '10.0.0.0', '10.0.0.255', '10.1.0.0', '10.1.0.255']) refused(await s('POST', SVC, service('s3', addr)), allocation('s3', addr, 'the provided network does not match the current range'));
  // Any ServiceCIDR's range gives addresses out.
  const other = answered<{ spec: { clusterIP: string } }>(await s('POST', SVC, service('s4', '10.1.0.7')), 201);
  expect(other.spec.clusterIP).to.equal('10.1.0.7');
  expect(answered<Obj>(await s('GET', `${IPS}/10.1.0.7`)).spec).to.deep.equal({ parentRef: { resource: 'services', namespace: 'default', name: 's4' } });
  // An allocated address gets its IPAddress too, which a watch sees.
  const auto = answered<{ spec: { clusterIP: string } }>(await s('POST', SVC, service('s6')), 201);
  const watch = await s('GET', `${IPS}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3D${auto.spec.clusterIP}`);
  const events = watch.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: Obj });
  expect(events.map((e) => [e.type, e.object.metadata.name, e.object.spec])).to.deep.equal([['ADDED', auto.spec.clusterIP, { parentRef: { resource: 'services', namespace: 'default', name: 's6' } }]]);
  // Deleted with the Service, or when it becomes an ExternalName one.
  expect((await s('DELETE', `${SVC}/s1`)).status).to.equal(200);
  const gone = await s('GET', `${IPS}/10.0.0.50`);
  expect([gone.status, gone.message]).to.deep.equal([404, 'ipaddresses.networking.k8s.io "10.0.0.50" not found']);
  answered(await s('PUT', `${SVC}/s4`, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's4' }, spec: { type: 'ExternalName', externalName: 'example.com', ports: [{ port: 80 }] } })));
  expect((await s('GET', `${IPS}/10.1.0.7`)).status).to.equal(404);
  // A freed address can be taken again.
  answered(await s('POST', SVC, service('s7', '10.0.0.50')), 201);
  for (const name of ['s4', 's6', 's7']) expect((await s('DELETE', `${SVC}/${name}`)).status).to.equal(200);
}

async function discovery(s: Send): Promise<void> {
  const list = answered<{ resources: { name: string }[] }>(await s('GET', G));
  const ours = list.resources.filter((r) => ['servicecidrs', 'servicecidrs/status', 'ipaddresses'].includes(r.name));
  expect(ours).to.deep.equal([
    { name: 'ipaddresses', singularName: 'ipaddress', namespaced: false, kind: 'IPAddress', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ip'], storageVersionHash: '3f/plJFChNE=' },
    { name: 'servicecidrs', singularName: 'servicecidr', namespaced: false, kind: 'ServiceCIDR', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'gNLvruQhW2g=' },
    { name: 'servicecidrs/status', singularName: '', namespaced: false, kind: 'ServiceCIDR', verbs: ['get', 'patch', 'update'] },
  ]);
}

/**
 * A dry run's allocators (ipallocator `dryRunAllocator`, portallocator `PortAllocationOperation` with dryRun):
 * an address asked for is checked against one ServiceCIDR's range only (an allocated one is taken), one not
 * asked for is the range's network address; a node port asked for is refused only when allocated (its
 * range is not checked), one not asked for is one above the highest the operation took, 32769 first.
 */
async function dryRunAllocation(s: Send): Promise<void> {
  const NS = '/api/v1/namespaces/default/services';
  const svc = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });
  interface Svc { spec: { clusterIP?: string; clusterIPs?: string[]; ports: { nodePort?: number }[]; healthCheckNodePort?: number } }
  const held = answered<Svc>(await s('POST', NS, svc('held', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })), 201).spec.clusterIP ?? '';
  const dry = async (name: string, spec: Record<string, unknown>): Promise<unknown> => {
    const a = await s('POST', `${NS}?dryRun=All`, svc(name, spec));
    if (a.status !== 201) return a.message;
    const o = JSON.parse(a.text) as Svc;
    return [o.spec.clusterIPs, o.spec.ports.map((p) => p.nodePort), o.spec.healthCheckNodePort];
  };
  expect(await dry('a', {})).to.deep.equal([['10.0.0.0'], [undefined], undefined]);
  expect(await dry('b', { clusterIP: held })).to.deep.equal([[held], [undefined], undefined]);
  expect(await dry('c', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' })).to.deep.equal([['10.0.0.0'], [32769], 32770]);
  expect(await dry('d', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })).to.equal('Service "d" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
  expect(await dry('e', { type: 'NodePort', ports: [{ port: 80, nodePort: 29999 }] })).to.deep.equal([['10.0.0.0'], [29999], undefined]);
  expect(await dry('f', { type: 'NodePort', ports: [{ port: 80, name: 'a' }, { port: 81, name: 'b', nodePort: 30500 }] })).to.deep.equal([['10.0.0.0'], [32769, 30500], undefined]);
  expect(await dry('g', { type: 'NodePort', ports: [{ port: 53, name: 'a', protocol: 'TCP' }, { port: 53, name: 'b', protocol: 'UDP' }] })).to.deep.equal([['10.0.0.0'], [32769, 32769], undefined]);
  expect(await dry('h', { type: 'NodePort', ports: [{ port: 80, name: 'a', nodePort: 31000 }, { port: 82, name: 'c', nodePort: 31000 }] })).to.equal('Service "h" is invalid: spec.ports[1].nodePort: Invalid value: 31000: provided port is already allocated');
  for (const ip of ['10.0.0.0', '10.0.0.255', '10.1.0.5']) {
    expect(await dry('i', { clusterIP: ip })).to.equal(`Service "i" is invalid: spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is 10.0.0.0/24`);
  }
  expect(await dry('j', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 30080 })).to.equal('Internal error occurred: failed to allocate requested HealthCheck NodePort 30080: provided port is already allocated');
  expect(await dry('k', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 20000 })).to.deep.equal([['10.0.0.0'], [32769], 20000]);
  // An update that comes to need a node port, or a cluster IP.
  answered(await s('POST', NS, svc('u', {})), 201);
  const toNodePort = answered<Svc>(await s('PATCH', `${NS}/u?dryRun=All`, JSON.stringify({ spec: { type: 'NodePort' } }), MERGE));
  expect(toNodePort.spec.ports[0].nodePort).to.equal(32769);
  answered(await s('POST', NS, svc('en', { type: 'ExternalName', externalName: 'x.example.com' })), 201);
  expect(answered<Svc>(await s('PATCH', `${NS}/en?dryRun=All`, JSON.stringify({ spec: { type: 'ClusterIP', externalName: null } }), MERGE)).spec.clusterIPs).to.deep.equal(['10.0.0.0']);
  // Nothing was held: the same port and the network address stay free.
  for (const name of ['held', 'u', 'en']) answered(await s('DELETE', `${NS}/${name}`));
}

describeOnBothServers('networking.k8s.io/v1 ServiceCIDRs and IPAddresses', async (s) => {
  await serviceCIDRs(s);
  await ipAddresses(s);
  await allocator(s);
  await discovery(s);
}, { serviceClusterIPRange: '10.0.0.0/24' });

// On a server of its own: with several ServiceCIDRs, a dry run takes any one's range.
describeOnBothServers('dry-run Service allocation', async (s) => dryRunAllocation(s), { serviceClusterIPRange: '10.0.0.0/24' });
