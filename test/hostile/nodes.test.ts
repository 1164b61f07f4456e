// core/v1 Nodes on both servers: the strategy (the status kept on create, spec.configSource and status.config
// dropped, no generation, a /status that keeps the spec), TaintNodesByCondition's not-ready taint, the
// podCIDR/podCIDRs conversion, SetObjectDefaults_Node, ValidateNode and ValidateNodeUpdate (taints under
// metadata.taints, pod CIDRs, quantities, swap, the legacy annotations, fields fixed once set), warnings, field
// selectors, watch, patches of every kind, the Table and discovery (pkg/registry/core/node/strategy.go,
// pkg/apis/core/validation, plugin/pkg/admission/nodetaint). Every expected message is kube-apiserver 1.34.4's
// answer to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { APPLY, JSON_PATCH, MERGE, STRATEGIC, TABLE, answered, describeOnBothServers, refused, type Send } from './sender.js';

const N = '/api/v1/nodes';
const mk = (name: string, rest: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name }, ...rest });
const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const emptyNodeInfo = { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' };
const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

interface Node {
  metadata: { name: string; resourceVersion: string; generation?: number; labels?: Record<string, string> };
  spec: Record<string, unknown>;
  status: Record<string, unknown>;
}

async function run(s: Send): Promise<void> {
  // Create: the status stays, allocatable comes from capacity (rounded up to thousandths), the removed
  // configSource and status.config are dropped, podCIDR becomes podCIDRs, the not-ready taint is added.
  const a = await s('POST', N, mk('a', {
    spec: { podCIDR: '10.0.0.0/24', providerID: 'p://a', externalID: 'e', taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }], configSource: { configMap: { namespace: 'x', name: 'y', kubeletConfigKey: 'k' } } },
    status: { capacity: { cpu: '1n', memory: '1Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '1.2.3.4' }], nodeInfo: { kubeletVersion: 'v1.34.4', osImage: 'x' }, config: { active: {} } },
  }));
  expect(a.warnings).to.deep.equal(['spec.externalID: this field is deprecated, and is unused by Kubernetes']);
  const created = answered<Node>(a, 201);
  expect([created.metadata.generation, created.spec, created.status]).to.deep.equal([undefined, {
    podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], providerID: 'p://a', externalID: 'e', taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }, notReady],
  }, {
    capacity: { cpu: '1m', memory: '1Gi', pods: '110' }, allocatable: { cpu: '1m', memory: '1Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: null, lastTransitionTime: null }], addresses: [{ type: 'InternalIP', address: '1.2.3.4' }],
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: { ...emptyNodeInfo, kubeletVersion: 'v1.34.4', osImage: 'x' },
  }]);
  // podCIDRs alone set podCIDR; podCIDR wins when both differ; a not-ready taint of any value is kept.
  const b = answered<Node>(await s('POST', N, mk('b', { spec: { podCIDRs: ['10.1.0.0/24', 'fd00::/64'], unschedulable: true, taints: [{ ...notReady, value: 'v' }] } })), 201);
  expect(b.spec).to.deep.equal({ podCIDR: '10.1.0.0/24', podCIDRs: ['10.1.0.0/24', 'fd00::/64'], unschedulable: true, taints: [{ ...notReady, value: 'v' }] });
  const c = answered<Node>(await s('POST', N, mk('c', { spec: { podCIDR: '10.2.0.0/24', podCIDRs: ['10.3.0.0/24'] } })), 201);
  expect(c.spec).to.deep.equal({ podCIDR: '10.2.0.0/24', podCIDRs: ['10.2.0.0/24'], taints: [notReady] });
  const w = await s('POST', N, mk('w', { spec: { podCIDRs: ['10.0.0.1/24', 'fd00:0::/64'] } }));
  expect([w.status, w.warnings]).to.deep.equal([201, ['spec.podCIDRs[0]: CIDR value "10.0.0.1/24" is ambiguous in this context (should be "10.0.0.0/24" or "10.0.0.1/32"?)', 'spec.podCIDRs[1]: IPv6 CIDR value "fd00:0::/64" should be in RFC 5952 canonical format ("fd00::/64")']]);

  // ValidateNode.
  refused(await s('POST', N, mk('D_x')), "Node \"D_x\" is invalid: metadata.name: Invalid value: \"D_x\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  refused(await s('POST', N, mk('e', { spec: { taints: [{ key: 'a b', value: 'x y', effect: 'Bad' }, { key: 'k', effect: '' }, { key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoSchedule', value: 'z' }] } })), `Node "e" is invalid: [metadata.taints[0].key: Invalid value: "a b": ${nameRule}, metadata.taints[0].value: Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), metadata.taints[0].effect: Unsupported value: "Bad": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute", metadata.taints[1].effect: Required value, metadata.taints[3]: Duplicate value: {"Key":"k","Value":"z","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair]`);
  refused(await s('POST', N, mk('f', { spec: { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24', 'bad'] } })), 'Node "f" is invalid: [spec.podCIDRs[2]: Invalid value: "bad": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64), spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[2]: <nil> (invalid CIDR address: bad), spec.podCIDRs: Invalid value: ["10.0.0.0/24","10.1.0.0/24","bad"]: may specify no more than one CIDR for each IP family]');
  refused(await s('POST', N, mk('f2', { spec: { podCIDR: 'nope' } })), 'Node "f2" is invalid: spec.podCIDRs[0]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)');
  refused(await s('POST', N, mk('f3', { spec: { podCIDRs: ['10.0.0.1/24', 'fd00::/64', 'fd01::/64'] } })), 'Node "f3" is invalid: spec.podCIDRs: Invalid value: ["10.0.0.1/24","fd00::/64","fd01::/64"]: may specify no more than one CIDR for each IP family');
  refused(await s('POST', N, mk('g', { status: { capacity: { cpu: '-1' }, allocatable: { pods: '1.5' } } })), 'Node "g" is invalid: [status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0, status.allocatable.pods: Invalid value: "1500m": must be an integer]');
  refused(await s('POST', N, mk('j', { status: { nodeInfo: { swap: { capacity: -5 } } } })), 'Node "j" is invalid: metadata.nodeSwapStatus.capacity: Invalid value: -5: must be greater than zero');
  refused(await s('POST', N, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'l', annotations: { 'scheduler.alpha.kubernetes.io/taints': 'junk', 'scheduler.alpha.kubernetes.io/preferAvoidPods': '{"preferAvoidPods":[{"podSignature":{}}]}' } } })), "Node \"l\" is invalid: [metadata.annotations: Invalid value: \"scheduler.alpha.kubernetes.io/taints\": invalid character 'j' looking for beginning of value, metadata.annotations.scheduler.alpha.kubernetes.io/preferAvoidPods[0].PodSignature: Required value]");
  refused(await s('POST', N, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'l2', annotations: { 'scheduler.alpha.kubernetes.io/taints': '[{"key":1}]', 'scheduler.alpha.kubernetes.io/preferAvoidPods': '[]' } } })), 'Node "l2" is invalid: [metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/taints": json: cannot unmarshal number into Go struct field Taint.Key of type string, metadata.annotations.AvoidPods: Invalid value: "scheduler.alpha.kubernetes.io/preferAvoidPods": json: cannot unmarshal array into Go value of type v1.AvoidPods]');

  // Decoding: quantities, JSON types, unknown fields.
  const decode = async (body: string, query = ''): Promise<[number, string]> => {
    const r = await s('POST', N + query, body);
    return [r.status, r.message];
  };
  expect(await decode(mk('h', { status: { capacity: { cpu: 'abc' } } }))).to.deep.equal([400, "Node in version \"v1\" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"]);
  expect(await decode(mk('h', { spec: { unschedulable: 'yes' } }))).to.deep.equal([400, 'Node in version "v1" cannot be handled as a Node: json: cannot unmarshal string into Go struct field NodeSpec.spec.unschedulable of type bool']);
  expect(await decode(mk('h', { spec: { taints: {} } }))).to.deep.equal([400, 'Node in version "v1" cannot be handled as a Node: json: cannot unmarshal object into Go struct field NodeSpec.spec.taints of type []v1.Taint']);
  expect(await decode(mk('h', { spec: { foo: 1 }, bar: 2 }), '?fieldValidation=Strict')).to.deep.equal([400, 'Node in version "v1" cannot be handled as a Node: strict decoding error: unknown field "spec.foo", unknown field "bar"']);

  // Reads: field selectors (metadata.name, spec.unschedulable; nothing else), and a watch that selects.
  const names = async (query: string): Promise<string[]> => answered<{ items: Node[] }>(await s('GET', `${N}?${query}`)).items.map((n) => n.metadata.name);
  expect(await names('fieldSelector=spec.unschedulable%3Dtrue')).to.deep.equal(['b']);
  expect(await names('fieldSelector=spec.unschedulable%3Dfalse')).to.deep.equal(['a', 'c', 'w']);
  expect(await names('fieldSelector=metadata.name%3Dc')).to.deep.equal(['c']);
  expect(await s('GET', `${N}?fieldSelector=metadata.namespace%3Dx`)).to.deep.include({ status: 400, message: 'field label not supported: metadata.namespace' });

  // Updates: the status kept; podCIDRs, providerID and externalID fixed once set; taints checked again.
  const cordoned = answered<Node>(await s('PATCH', `${N}/c`, JSON.stringify({ spec: { unschedulable: true }, status: { phase: 'Running' } }), MERGE));
  expect([cordoned.spec.unschedulable, cordoned.status.phase]).to.deep.equal([true, undefined]);
  const put = answered<Node>(await s('PUT', `${N}/a`, JSON.stringify({ ...created, metadata: { name: 'a', labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' } }, status: { capacity: { cpu: '4' } } })));
  expect(put.status).to.deep.equal(created.status);
  refused(await s('PUT', `${N}/a`, JSON.stringify({ ...put, spec: { ...put.spec, providerID: 'p://b', externalID: 'y', podCIDR: '10.9.0.0/24', podCIDRs: ['10.9.0.0/24'] } })), 'Node "a" is invalid: [spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid, spec.providerID: Forbidden: node updates may not change providerID except from "" to valid, spec.externalID: Forbidden: may not be updated]');
  refused(await s('PATCH', `${N}/a`, JSON.stringify([{ op: 'replace', path: '/spec/providerID', value: 'z' }]), JSON_PATCH), 'Node "a" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid');
  refused(await s('PATCH', `${N}/a`, JSON.stringify({ spec: { taints: [{ key: 'a', effect: 'NoExecute', timeAdded: '2020-01-01T00:00:00Z' }, { key: 'a', effect: 'NoExecute', value: 'q' }] } }), MERGE), 'Node "a" is invalid: metadata.taints[1]: Duplicate value: {"Key":"a","Value":"q","Effect":"NoExecute","TimeAdded":null}: taints must be unique by key and effect pair');
  const tainted = answered<Node>(await s('PATCH', `${N}/a`, JSON.stringify({ spec: { taints: [{ key: 't', effect: 'NoSchedule' }] } }), STRATEGIC));
  expect(tainted.spec.taints).to.deep.equal([{ key: 't', effect: 'NoSchedule' }]);

  // Server-side apply: created by a patch, then a field left to another owner.
  const applied = answered<Node>(await s('PATCH', `${N}/n2?fieldManager=me`, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2', labels: { l: 'v' } }, spec: { taints: [{ key: 't', effect: 'NoSchedule' }] }, status: { capacity: { memory: '1Gi' } } }), APPLY), 201);
  expect([applied.spec, applied.status.allocatable]).to.deep.equal([{ taints: [{ key: 't', effect: 'NoSchedule' }, notReady] }, { memory: '1Gi' }]);
  const reapplied = answered<Node>(await s('PATCH', `${N}/n2?fieldManager=me`, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { podCIDR: '10.5.0.0/16' } }), APPLY));
  expect([reapplied.metadata.labels, reapplied.spec]).to.deep.equal([undefined, { podCIDR: '10.5.0.0/16', podCIDRs: ['10.5.0.0/16'] }]);

  // /status: ValidateNodeUpdate only (duplicate addresses now refused); the spec kept, the labels taken.
  refused(await s('PUT', `${N}/a/status`, JSON.stringify({ ...tainted, status: { capacity: { pods: '0.5' }, addresses: [{ type: 'Hostname', address: 'h' }, { type: 'Hostname', address: 'h' }] } })), 'Node "a" is invalid: [status.capacity.pods: Invalid value: "500m": must be an integer, status.allocatable.pods: Invalid value: "500m": must be an integer, status.addresses[1]: Duplicate value: {"Type":"Hostname","Address":"h"}]');
  const status = answered<Node>(await s('PUT', `${N}/a/status`, JSON.stringify({ ...tainted, metadata: { ...tainted.metadata, labels: { s: 't' } }, spec: { unschedulable: true }, status: { capacity: { cpu: '2n' }, conditions: [{ type: 'Ready', status: 'False' }], nodeInfo: { kubeletVersion: 'v1.34.4', kernelVersion: '6.1' }, config: { active: {} } } })));
  expect([status.metadata.labels, status.spec, status.status]).to.deep.equal([{ s: 't' }, tainted.spec, {
    capacity: { cpu: '1m' }, allocatable: { cpu: '1m' }, conditions: [{ type: 'Ready', status: 'False', lastHeartbeatTime: null, lastTransitionTime: null }],
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: { ...emptyNodeInfo, kubeletVersion: 'v1.34.4', kernelVersion: '6.1' },
  }]);
  const patched = answered<Node>(await s('PATCH', `${N}/a/status`, JSON.stringify({ status: { addresses: [{ type: 'ExternalIP', address: '5.6.7.8' }, { type: 'InternalIP', address: '10.0.0.1' }] } }), MERGE));
  expect(patched.status.addresses).to.have.length(2);

  // What kubectl prints (the wide columns always sent), and what discovery says.
  const table = JSON.parse((await s('GET', N, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
  expect(table.columnDefinitions.map((col) => [col.name, col.type, col.priority])).to.deep.equal([['Name', 'string', 0], ['Status', 'string', 0], ['Roles', 'string', 0], ['Age', 'string', 0], ['Version', 'string', 0], ['Internal-IP', 'string', 1], ['External-IP', 'string', 1], ['OS-Image', 'string', 1], ['Kernel-Version', 'string', 1], ['Container-Runtime', 'string', 1]]);
  expect(table.rows.map((r) => [...r.cells.slice(0, 3), ...r.cells.slice(4)])).to.deep.equal([
    ['a', 'NotReady', '<none>', 'v1.34.4', '10.0.0.1', '5.6.7.8', '<unknown>', '6.1', '<unknown>'],
    ['b', 'Unknown,SchedulingDisabled', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ['c', 'Unknown,SchedulingDisabled', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ['n2', 'Unknown', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ['w', 'Unknown', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
  ]);
  const roles = answered<Node>(await s('PATCH', `${N}/w`, JSON.stringify({ metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker', 'node-role.kubernetes.io/b': 'x' } } }), MERGE));
  const row = JSON.parse((await s('GET', `${N}/w`, undefined, undefined, TABLE)).text) as { rows: { cells: unknown[] }[] };
  expect([roles.metadata.name, row.rows[0].cells[2]]).to.deep.equal(['w', 'b,control-plane,worker']);
  const discovery = JSON.parse((await s('GET', '/api/v1')).text) as { resources: { name: string }[] };
  expect(discovery.resources.filter((r) => r.name === 'nodes' || r.name === 'nodes/status')).to.deep.equal([
    { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['no'], storageVersionHash: 'XwShjMxG9Fs=' },
    { name: 'nodes/status', singularName: '', namespaced: false, kind: 'Node', verbs: ['get', 'patch', 'update'] },
  ]);

  // Delete; the watch saw the node cordoned.
  const deleted = await s('DELETE', `${N}/n2`);
  // StatusDetails' group is omitempty: a core kind's has none.
  const details = answered<{ details: Record<string, unknown> }>(deleted).details;
  expect([Object.keys(details).sort(), details.name, details.kind]).to.deep.equal([['kind', 'name', 'uid'], 'n2', 'nodes']);
  expect((await s('GET', `${N}/n2`)).message).to.equal('nodes "n2" not found');
  const events = (await s('GET', `${N}?watch=true&fieldSelector=spec.unschedulable%3Dtrue&resourceVersion=${c.metadata.resourceVersion}&timeoutSeconds=1`)).text.split('\n').filter((l) => l !== '').map((l) => {
    const e = JSON.parse(l) as { type: string; object: Node };
    return [e.type, e.object.metadata.name];
  });
  expect(events).to.deep.equal([['ADDED', 'c']]);
}

describeOnBothServers('Nodes (core/v1)', run);
