// core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices on both servers: the deprecation warning every
// Endpoints request gets, the defaults (an Endpoints port's protocol; a slice port's name and protocol, the
// lists written null), the strategies (no generation for Endpoints; a slice's generation bumped by any change
// but its metadata's other than labels, deprecatedTopology dropped by v1), ValidateEndpoints (addresses in the
// special ranges, ports, names), ValidateEndpointSlice and ValidateEndpointSliceUpdate (addresses of the
// slice's type, strict IPv6, FQDNs, counts, hints, an addressType fixed once set), the IP and FQDN warnings
// (none for the controllers' objects), decode errors, field selectors, a selecting watch, every patch type,
// the Tables and discovery (pkg/registry/core/endpoint, pkg/registry/discovery/endpointslice,
// pkg/apis/core/validation, pkg/apis/discovery/validation, pkg/printers/internalversion). Every expected
// message is kube-apiserver 1.34.4's answer to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { APPLY, JSON_PATCH, MERGE, STRATEGIC, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const E = '/api/v1/namespaces/default/endpoints';
const S = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
const ep = (name: string, rest: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, ...rest });
const es = (name: string, rest: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name }, ...rest });
const deprecated = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
const labelRule = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const loopback = 'may not be in the loopback range (127.0.0.0/8, ::1/128)';
const linkLocal = 'may not be in the link-local range (169.254.0.0/16, fe80::/10)';
const multicast = 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)';
const badIP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

interface Obj {
  metadata: { name: string; resourceVersion: string; generation?: number; labels?: Record<string, string> };
  [member: string]: unknown;
}

async function endpoints(s: Send): Promise<void> {
  // Create: the deprecation warning, then the addresses in a non-standard form; a port's protocol defaulted.
  const a = await s('POST', E, ep('a', { subsets: [{ addresses: [{ ip: '10.0.0.1', hostname: 'h', nodeName: 'n' }, { ip: '010.0.0.2' }], notReadyAddresses: [{ ip: '2001:db8:0::1' }, { ip: '::ffff:1.2.3.4' }], ports: [{ port: 80 }] }] }));
  expect(a.warnings).to.deep.equal([
    deprecated,
    'subsets[0].addresses[1].ip: non-standard IP address "010.0.0.2" will be considered invalid in a future Kubernetes release: use "10.0.0.2"',
    'subsets[0].notReadyAddresses[0].ip: IPv6 address "2001:db8:0::1" should be in RFC 5952 canonical format ("2001:db8::1")',
    'subsets[0].notReadyAddresses[1].ip: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
  ]);
  const created = answered<Obj>(a, 201);
  expect([created.metadata.generation, created.subsets]).to.deep.equal([undefined, [{ addresses: [{ ip: '10.0.0.1', hostname: 'h', nodeName: 'n' }, { ip: '010.0.0.2' }], notReadyAddresses: [{ ip: '2001:db8:0::1' }, { ip: '::ffff:1.2.3.4' }], ports: [{ port: 80, protocol: 'TCP' }] }]]);
  // The endpoints controller's objects are not warned about (the deprecation aside).
  const managed = await s('POST', E, ep('m', { metadata: { name: 'm', labels: { 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' } }, subsets: [{ addresses: [{ ip: '010.0.0.1' }, { ip: 'fd00::1' }], ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2, protocol: 'UDP', appProtocol: 'http' }] }] }));
  expect([managed.status, managed.warnings]).to.deep.equal([201, [deprecated]]);
  expect((await s('POST', E, ep('empty'))).status).to.equal(201);

  // ValidateEndpoints.
  refused(await s('POST', E, ep('b', { subsets: [{ addresses: [{ ip: '127.0.0.1' }, { ip: '169.254.1.1' }, { ip: '0.0.0.0' }, { ip: 'bad' }, { ip: '224.0.0.1' }, { ip: '::1' }, { ip: 'fe80::1' }, { ip: '010.0.0.1' }], ports: [{ name: 'a', port: 0, protocol: 'Bad' }, { port: 70000, appProtocol: 'a b' }, { name: 'A_B', port: 1 }] }, {}] })),
    `Endpoints "b" is invalid: [subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": ${loopback}, subsets[0].addresses[1].ip: Invalid value: "169.254.1.1": ${linkLocal}, subsets[0].addresses[2].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0), subsets[0].addresses[3].ip: Invalid value: "bad": ${badIP}, subsets[0].addresses[3].ip: Invalid value: "bad": must be a valid IP address, subsets[0].addresses[4].ip: Invalid value: "224.0.0.1": ${multicast}, subsets[0].addresses[5].ip: Invalid value: "::1": ${loopback}, subsets[0].addresses[6].ip: Invalid value: "fe80::1": ${linkLocal}, subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, subsets[0].ports[0].protocol: Unsupported value: "Bad": supported values: "SCTP", "TCP", "UDP", subsets[0].ports[1].name: Required value, subsets[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive, subsets[0].ports[1].appProtocol: Invalid value: "a b": ${nameRule}, subsets[0].ports[2].name: Invalid value: "A_B": ${labelRule}, subsets[1]: Required value: must specify \`addresses\` or \`notReadyAddresses\`]`);
  // Port names may repeat; hostnames are labels, node names subdomains (an empty one too).
  refused(await s('POST', E, ep('d', { subsets: [{ addresses: [{ ip: '1.2.3.4', hostname: 'Bad_H', nodeName: 'bad name' }, { ip: '1.2.3.5', nodeName: '' }], ports: [{ name: 'x', port: 1 }, { name: 'x', port: 2 }] }] })),
    `Endpoints "d" is invalid: [subsets[0].addresses[0].hostname: Invalid value: "Bad_H": ${labelRule}, subsets[0].addresses[0].nodeName: Invalid value: "bad name": ${subdomainRule}, subsets[0].addresses[1].nodeName: Invalid value: "": ${subdomainRule}]`);
  refused(await s('POST', E, ep('Bad_Name')), `Endpoints "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${subdomainRule}`);

  // Decoding: JSON types, unknown fields.
  const decode = async (body: string, query = ''): Promise<[number, string, string[]]> => {
    const r = await s('POST', E + query, body);
    return [r.status, r.message, r.warnings];
  };
  const cannot = 'Endpoints in version "v1" cannot be handled as a Endpoints: ';
  expect(await decode(ep('e', { subsets: [{ addresses: [{ ip: 1 }] }] }))).to.deep.equal([400, `${cannot}json: cannot unmarshal number into Go struct field EndpointAddress.subsets.addresses.ip of type string`, [deprecated]]);
  expect(await decode(ep('e', { subsets: {} }))).to.deep.equal([400, `${cannot}json: cannot unmarshal object into Go struct field Endpoints.subsets of type []v1.EndpointSubset`, [deprecated]]);
  expect(await decode(ep('e', { foo: 1, subsets: [{ bar: 2, addresses: [{ ip: '1.1.1.1', baz: 3 }] }] }), '?fieldValidation=Strict')).to.deep.equal([400, `${cannot}strict decoding error: unknown field "foo", unknown field "subsets[0].bar", unknown field "subsets[0].addresses[0].baz"`, [deprecated]]);

  // Reads: field selectors (metadata only), the deprecation on every answer.
  const list = await s('GET', `${E}?fieldSelector=metadata.name%3Da`);
  expect([answered<{ items: Obj[] }>(list).items.map((o) => o.metadata.name), list.warnings]).to.deep.equal([['a'], [deprecated]]);
  expect(await s('GET', `${E}?fieldSelector=subsets.x%3Da`)).to.deep.include({ status: 400, message: '"subsets.x" is not a known field selector: only "metadata.name", "metadata.namespace"' });

  // Updates: validated again, every patch type; the warnings of the new object.
  refused(await s('PUT', `${E}/a`, ep('a', { subsets: [{ addresses: [{ ip: '127.0.0.1' }] }] })), `Endpoints "a" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": ${loopback}`);
  const merged = await s('PATCH', `${E}/a`, JSON.stringify({ subsets: [{ addresses: [{ ip: '10.0.0.9' }], ports: [{ port: 81, name: 'p' }] }] }), MERGE);
  expect([answered<Obj>(merged).subsets, merged.warnings]).to.deep.equal([[{ addresses: [{ ip: '10.0.0.9' }], ports: [{ name: 'p', port: 81, protocol: 'TCP' }] }], [deprecated]]);
  const strategic = answered<Obj>(await s('PATCH', `${E}/a`, JSON.stringify({ subsets: [{ addresses: [{ ip: 'fd00::1' }, { ip: '10.0.0.8' }], ports: [{ port: 82, name: 'q' }, { port: 83, name: 'r' }] }] }), STRATEGIC));
  expect(strategic.subsets).to.deep.equal([{ addresses: [{ ip: 'fd00::1' }, { ip: '10.0.0.8' }], ports: [{ name: 'q', port: 82, protocol: 'TCP' }, { name: 'r', port: 83, protocol: 'TCP' }] }]);
  refused(await s('PATCH', `${E}/a`, JSON.stringify([{ op: 'replace', path: '/subsets/0/addresses/0/ip', value: 'fe80::1' }]), JSON_PATCH), `Endpoints "a" is invalid: subsets[0].addresses[0].ip: Invalid value: "fe80::1": ${linkLocal}`);
  const applied = await s('PATCH', `${E}/applied?fieldManager=me`, ep('applied', { subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 5 }] }] }), APPLY);
  expect([answered<Obj>(applied, 201).subsets, applied.warnings]).to.deep.equal([[{ addresses: [{ ip: '10.9.9.9' }], ports: [{ port: 5, protocol: 'TCP' }] }], [deprecated]]);
  expect((await s('PATCH', `${E}/a?fieldManager=me`, ep('a', { subsets: [{ addresses: [{ ip: '10.9.9.9' }] }] }), APPLY)).message).to.equal('Apply failed with 1 conflict: conflict with "unknown" using v1: .subsets');

  // What kubectl prints: the first three address:port pairs (IPv6 in brackets), then how many more.
  const table = JSON.parse((await s('GET', E, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['Endpoints', 'string', 0], ['Age', 'string', 0]]);
  expect(table.rows.map((r) => r.cells.slice(0, 2))).to.deep.equal([
    ['a', '[fd00::1]:82,10.0.0.8:82,[fd00::1]:83 + 1 more...'], ['applied', '10.9.9.9:5'], ['empty', '<none>'], ['m', '010.0.0.1:1,[fd00::1]:1,010.0.0.1:2 + 1 more...'],
  ]);

  // Delete: a Status without a group; a watch that selects, from the first object's creation, sees its changes.
  const deleted = answered<{ details: Record<string, unknown> }>(await s('DELETE', `${E}/a`));
  expect([Object.keys(deleted.details).sort(), deleted.details.kind]).to.deep.equal([['kind', 'name', 'uid'], 'endpoints']);
  const events = (await s('GET', `${E}?watch=true&fieldSelector=metadata.name%3Da&resourceVersion=${created.metadata.resourceVersion}&timeoutSeconds=1`)).text.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { type: string }).type);
  expect(events).to.deep.equal(['MODIFIED', 'MODIFIED', 'DELETED']);
}

async function endpointSlices(s: Send): Promise<void> {
  // Create: generation 1, the ports' defaults, the lists null when absent, conditions always written,
  // deprecatedTopology dropped, hints kept.
  const s1 = await s('POST', S, es('s1', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], hostname: 'h', nodeName: 'n', zone: 'z', hints: { forZones: [{ name: 'z' }], forNodes: [{ name: 'n' }] }, deprecatedTopology: { a: 'b' } }], ports: [{ port: 80 }, { name: 'x' }] }));
  const created = answered<Obj>(s1, 201);
  expect([s1.warnings, created.metadata.generation, created.endpoints, created.ports]).to.deep.equal([[], 1,
    [{ addresses: ['10.0.0.1'], conditions: {}, hostname: 'h', nodeName: 'n', zone: 'z', hints: { forZones: [{ name: 'z' }], forNodes: [{ name: 'n' }] } }],
    [{ name: '', protocol: 'TCP', port: 80 }, { name: 'x', protocol: 'TCP' }]]);
  const fqdn = await s('POST', S, es('f', { addressType: 'FQDN', endpoints: [{ addresses: ['example.com', 'a.b.'], conditions: { ready: false, serving: true, terminating: false } }] }));
  expect([fqdn.warnings, answered<Obj>(fqdn, 201).ports, answered<Obj>(fqdn, 201).endpoints]).to.deep.equal([['spec.addressType: FQDN endpoints are deprecated'], null, [{ addresses: ['example.com', 'a.b.'], conditions: { ready: false, serving: true, terminating: false } }]]);
  const bare = answered<Obj>(await s('POST', S, es('bare', { addressType: 'IPv6' })), 201);
  expect([bare.endpoints, bare.ports]).to.deep.equal([null, null]);
  const odd = await s('POST', S, es('odd', { addressType: 'IPv4', endpoints: [{ addresses: ['010.0.0.1', '::ffff:1.2.3.4'] }] }));
  expect([odd.status, odd.warnings]).to.deep.equal([201, [
    'endpoints[0].addresses[0]: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"',
    'endpoints[0].addresses[1]: non-standard IP address "::ffff:1.2.3.4" will be considered invalid in a future Kubernetes release: use "1.2.3.4"',
  ]]);
  const controller = await s('POST', S, es('c', { metadata: { name: 'c', labels: { 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' } }, addressType: 'IPv4', endpoints: [{ addresses: ['010.0.0.1'] }] }));
  expect([controller.status, controller.warnings]).to.deep.equal([201, []]);

  // ValidateEndpointSlice: the address type, ports, addresses of the type, names, hints, counts.
  const slice = (name: string): string => `EndpointSlice.discovery.k8s.io "${name}" is invalid: `;
  refused(await s('POST', S, es('v', { endpoints: [] })), `${slice('v')}addressType: Required value`);
  refused(await s('POST', S, es('v', { addressType: 'Foo' })), `${slice('v')}addressType: Unsupported value: "Foo": supported values: "FQDN", "IPv4", "IPv6"`);
  refused(await s('POST', S, es('Bad', { addressType: 'IPv4' })), `${slice('Bad')}metadata.name: Invalid value: "Bad": ${subdomainRule}`);
  refused(await s('POST', S, es('v', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.01', '2001:db8::1', '127.0.0.1', 'bad', '169.254.0.1', '0.0.0.0'] }, { addresses: [] }, { addresses: ['1.1.1.1'], nodeName: 'Bad', hostname: 'Bad', hints: { forZones: [{ name: 'a' }, { name: 'a' }, { name: 'a b' }], forNodes: [{ name: 'n' }, { name: 'n' }, { name: 'N' }] } }], ports: [{ name: 'A', protocol: 'X', appProtocol: 'a b' }, { name: 'A' }, { name: '' }, {}] })),
    `${slice('v')}[ports[0].name: Invalid value: "A": ${labelRule}, ports[0].protocol: Unsupported value: "X": supported values: "SCTP", "TCP", "UDP", ports[0].appProtocol: Invalid value: "a b": ${nameRule}, ports[1].name: Invalid value: "A": ${labelRule}, ports[1].name: Duplicate value: "A", ports[3].name: Duplicate value: "", endpoints[0].addresses: Invalid value: "2001:db8::1": must be an IPv4 address, endpoints[0].addresses[2]: Invalid value: "127.0.0.1": ${loopback}, endpoints[0].addresses[3]: Invalid value: "bad": ${badIP}, endpoints[0].addresses[4]: Invalid value: "169.254.0.1": ${linkLocal}, endpoints[0].addresses[5]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0), endpoints[1].addresses: Required value: must contain at least 1 address, endpoints[2].nodeName: Invalid value: "Bad": ${subdomainRule}, endpoints[2].hostname: Invalid value: "Bad": ${labelRule}, endpoints[2].hints.forZones[1].name: Duplicate value: "a", endpoints[2].hints.forZones[2].name: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), endpoints[2].hints.forNodes[1].name: Duplicate value: "n", endpoints[2].hints.forNodes[2].name: Invalid value: "N": ${subdomainRule}]`);
  // IPv6 slices take only addresses in canonical form.
  refused(await s('POST', S, es('v', { addressType: 'IPv6', endpoints: [{ addresses: ['1.2.3.4', '::1', 'fe80::1', '::', 'ff02::1', 'x', '2001:db8:0::2'] }, { addresses: ['::ffff:1.2.3.4', '::1.2.3.4', '2001:DB8::1', '::01.2.3.4', '1.02.3.4'] }] })),
    `${slice('v')}[endpoints[0].addresses: Invalid value: "1.2.3.4": must be an IPv6 address, endpoints[0].addresses[1]: Invalid value: "::1": ${loopback}, endpoints[0].addresses[2]: Invalid value: "fe80::1": ${linkLocal}, endpoints[0].addresses[3]: Invalid value: "::": may not be unspecified (::), endpoints[0].addresses[4]: Invalid value: "ff02::1": ${multicast}, endpoints[0].addresses[5]: Invalid value: "x": ${badIP}, endpoints[0].addresses[6]: Invalid value: "2001:db8:0::2": must be in canonical form ("2001:db8::2"), endpoints[1].addresses[0]: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address, endpoints[1].addresses[1]: Invalid value: "::1.2.3.4": must be in canonical form ("::102:304"), endpoints[1].addresses[2]: Invalid value: "2001:DB8::1": must be in canonical form ("2001:db8::1"), endpoints[1].addresses[3]: Invalid value: "::01.2.3.4": must not have leading 0s, endpoints[1].addresses[4]: Invalid value: "1.02.3.4": must not have leading 0s]`);
  refused(await s('POST', S, es('v', { addressType: 'FQDN', endpoints: [{ addresses: ['a_b', '1.2.3.4', 'a', '', 'a..b', '-a.b'], hostname: '', nodeName: '' }] })),
    `${slice('v')}[endpoints[0].addresses[0]: Invalid value: "a_b": ${subdomainRule}, endpoints[0].addresses[2]: Invalid value: "a": should be a domain with at least two segments separated by dots, endpoints[0].addresses[3]: Required value, endpoints[0].addresses[4]: Invalid value: "a..b": ${subdomainRule}, endpoints[0].addresses[5]: Invalid value: "-a.b": ${subdomainRule}, endpoints[0].nodeName: Invalid value: "": ${subdomainRule}, endpoints[0].hostname: Invalid value: "": ${labelRule}]`);
  refused(await s('POST', S, es('v', { addressType: 'IPv4', endpoints: many(1001, () => ({ addresses: ['1.1.1.1'] })) })), `${slice('v')}endpoints: Too many: 1001: must have at most 1000 items`);
  refused(await s('POST', S, es('v', { addressType: 'IPv4', endpoints: [{ addresses: many(101, (i) => `1.1.1.${i + 1}`) }] })), `${slice('v')}endpoints[0].addresses: Too many: 101: must have at most 100 items`);
  refused(await s('POST', S, es('v', { addressType: 'IPv4', endpoints: [{ addresses: ['1.1.1.1'], hints: { forZones: many(9, (i) => ({ name: `z${i}` })), forNodes: many(9, (i) => ({ name: `n${i}` })) } }] })), `${slice('v')}endpoints[0].hints.forZones: Too many: 9: must have at most 8 items`);
  refused(await s('POST', S, es('v', { addressType: 'IPv4', endpoints: [{ addresses: ['1.1.1.1'], hints: { forNodes: many(9, (i) => ({ name: `n${i}` })) } }] })), `${slice('v')}endpoints[0].hints.forNodes: Too many: 9: must have at most 8 items`);

  // Decoding: JSON types, unknown fields.
  const decode = async (body: string, query = ''): Promise<[number, string]> => {
    const r = await s('POST', S + query, body);
    return [r.status, r.message];
  };
  const cannot = 'EndpointSlice in version "v1" cannot be handled as a EndpointSlice: ';
  expect(await decode(es('v', { addressType: 'IPv4', endpoints: {} }))).to.deep.equal([400, `${cannot}json: cannot unmarshal object into Go struct field EndpointSlice.endpoints of type []v1.Endpoint`]);
  expect(await decode(es('v', { addressType: 'IPv4', endpoints: [{ addresses: 'x' }] }))).to.deep.equal([400, `${cannot}json: cannot unmarshal string into Go struct field Endpoint.endpoints.addresses of type []string`]);
  expect(await decode(es('v', { addressType: 'IPv4', ports: [{ port: 'x' }] }))).to.deep.equal([400, `${cannot}json: cannot unmarshal string into Go struct field EndpointPort.ports.port of type int32`]);
  expect(await decode(es('v', { addressType: 'IPv4', foo: 1, endpoints: [{ addresses: ['1.1.1.1'], bar: 1 }] }), '?fieldValidation=Strict')).to.deep.equal([400, `${cannot}strict decoding error: unknown field "foo", unknown field "endpoints[0].bar"`]);

  // Reads: field selectors (metadata only).
  expect(answered<{ items: Obj[] }>(await s('GET', `${S}?fieldSelector=metadata.name%3Ds1`)).items.map((o) => o.metadata.name)).to.deep.equal(['s1']);
  expect(await s('GET', `${S}?fieldSelector=addressType%3DIPv4`)).to.deep.include({ status: 400, message: '"addressType" is not a known field selector: only "metadata.name", "metadata.namespace"' });

  // Updates: addressType fixed; the generation counts labels and content, not annotations.
  refused(await s('PUT', `${S}/s1`, es('s1', { addressType: 'IPv6', endpoints: [] })), `${slice('s1')}addressType: Invalid value: "IPv6": field is immutable`);
  refused(await s('PATCH', `${S}/s1`, JSON.stringify({ addressType: 'FQDN' }), MERGE), `${slice('s1')}addressType: Invalid value: "FQDN": field is immutable`);
  refused(await s('PATCH', `${S}/s1`, JSON.stringify([{ op: 'replace', path: '/addressType', value: 'IPv6' }]), JSON_PATCH), `${slice('s1')}addressType: Invalid value: "IPv6": field is immutable`);
  const generation = async (method: string, path: string, body: string, type?: string): Promise<number | undefined> => answered<Obj>(await s(method, path, body, type)).metadata.generation;
  expect(await generation('PATCH', `${S}/s1`, JSON.stringify({ metadata: { annotations: { a: 'b' } } }), MERGE)).to.equal(1);
  expect(await generation('PATCH', `${S}/s1`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE)).to.equal(2);
  const topology = answered<Obj>(await s('PATCH', `${S}/s1`, JSON.stringify({ endpoints: [{ addresses: ['10.0.0.2'], deprecatedTopology: { 'kubernetes.io/hostname': 'n' } }] }), MERGE));
  expect([topology.metadata.generation, topology.endpoints]).to.deep.equal([3, [{ addresses: ['10.0.0.2'], conditions: {} }]]);
  const ports = answered<Obj>(await s('PATCH', `${S}/s1`, JSON.stringify({ ports: [{ name: 'y', port: 1 }] }), STRATEGIC));
  expect([ports.metadata.generation, ports.ports]).to.deep.equal([4, [{ name: 'y', protocol: 'TCP', port: 1 }]]);
  const relabelled = await s('PATCH', `${S}/odd`, JSON.stringify({ metadata: { labels: { a: 'b' } } }), MERGE);
  expect([answered<Obj>(relabelled).metadata.generation, relabelled.warnings.length]).to.deep.equal([2, 2]);
  const applied = answered<Obj>(await s('PATCH', `${S}/applied?fieldManager=me`, es('applied', { addressType: 'IPv4' }), APPLY), 201);
  expect([applied.metadata.generation, applied.endpoints, applied.ports]).to.deep.equal([1, null, null]);
  expect((await s('PATCH', `${S}/s1?fieldManager=me`, es('s1', { addressType: 'IPv4', ports: [{ name: 'z', port: 9 }] }), APPLY)).message).to.equal('Apply failed with 1 conflict: conflict with "unknown" using discovery.k8s.io/v1: .ports');
  expect(await s('PUT', `${S}/missing`, es('missing', { addressType: 'IPv4' }))).to.deep.include({ status: 404, message: 'endpointslices.discovery.k8s.io "missing" not found' });

  // What kubectl prints: the first three ports (a number, else the name) and addresses, then how many more.
  const many4 = answered<Obj>(await s('POST', S, es('many', { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3', '10.0.0.4'] }], ports: [{ name: 'a', port: 1 }, { name: 'b' }, { name: 'c', port: 3 }, { name: 'd', port: 4 }] })), 201);
  expect(many4.metadata.name).to.equal('many');
  const table = JSON.parse((await s('GET', S, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).to.deep.equal([['Name', 'string', 0], ['AddressType', 'string', 0], ['Ports', 'string', 0], ['Endpoints', 'string', 0], ['Age', 'string', 0]]);
  expect(table.rows.map((r) => r.cells.slice(0, 4))).to.deep.equal([
    ['applied', 'IPv4', '<unset>', '<unset>'], ['bare', 'IPv6', '<unset>', '<unset>'], ['c', 'IPv4', '<unset>', '010.0.0.1'], ['f', 'FQDN', '<unset>', 'example.com,a.b.'],
    ['many', 'IPv4', '1,b,3 + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...'], ['odd', 'IPv4', '<unset>', '010.0.0.1,::ffff:1.2.3.4'], ['s1', 'IPv4', '1', '10.0.0.2'],
  ]);

  // Discovery: core/v1 lists endpoints (short name ep); discovery.k8s.io/v1 lists endpointslices.
  const core = JSON.parse((await s('GET', '/api/v1')).text) as { resources: { name: string }[] };
  expect(core.resources.filter((r) => r.name === 'endpoints')).to.deep.equal([
    { name: 'endpoints', singularName: 'endpoints', namespaced: true, kind: 'Endpoints', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ep'], storageVersionHash: 'fWeeMqaN/OA=' },
  ]);
  expect(answered<unknown>(await s('GET', '/apis/discovery.k8s.io/v1'))).to.deep.equal({
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'discovery.k8s.io/v1',
    resources: [{ name: 'endpointslices', singularName: 'endpointslice', namespaced: true, kind: 'EndpointSlice', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], storageVersionHash: 'qgS0xkrxYAI=' }],
  });

  // Delete: a Status naming the group; a watch from the slice's creation sees it change four times, then go.
  const deleted = answered<{ details: Record<string, unknown> }>(await s('DELETE', `${S}/s1`));
  expect([deleted.details.group, deleted.details.kind]).to.deep.equal(['discovery.k8s.io', 'endpointslices']);
  const events = (await s('GET', `${S}?watch=true&fieldSelector=metadata.name%3Ds1&resourceVersion=${created.metadata.resourceVersion}&timeoutSeconds=1`)).text.split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { type: string }).type);
  expect(events).to.deep.equal(['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED']);
}

describeOnBothServers('Endpoints (core/v1) and EndpointSlices (discovery.k8s.io/v1)', async (s) => {
  await endpoints(s);
  await endpointSlices(s);
});
