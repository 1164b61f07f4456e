// resource.k8s.io/v1 (Dynamic Resource Allocation, GA in 1.34) on both servers, with no controller-manager:
// discovery (no short names, the storage version's hash), what is stored on create (defaults of requests and
// tolerations, a claim's status dropped, the fields of 1.34's disabled gates dropped, generations), the
// validation of claims, templates, classes and slices with several errors at once in the apiserver's order and
// words, the specs fixed once created (printed as the internal Go structs), a claim's /status (devices' status
// dropped with their allocation, an allocation fixed once made), patches of every kind, the field selectors
// of ResourceSlices, a watch, the Tables and a protobuf answer (pkg/registry/resource,
// pkg/apis/resource/validation). Every expected answer is kube-apiserver 1.34.4's to the same request (the
// reference server runs the same test).
import { expect } from 'chai';
import { encodeProtobuf } from '../../packages/apiserver/src/internal/protobufEncode.js';
import { envelopeBytes, field } from '../../packages/apiserver/test/internal/protobufWriter.js';
import { APPLY, JSON_PATCH, MERGE, PROTOBUF, STRATEGIC, TABLE, answerBytes, answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const G = '/apis/resource.k8s.io/v1';
const DC = `${G}/deviceclasses`;
const RC = `${G}/namespaces/default/resourceclaims`;
const RT = `${G}/namespaces/default/resourceclaimtemplates`;
const RS = `${G}/resourceslices`;
const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const cIdentifier = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
const requestRef = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
const nodeSelection = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';

const object = (kind: string, name: string, spec: unknown): string => JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind, metadata: { name }, spec });

interface Stored {
  metadata: { name: string; resourceVersion: string; generation?: number; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
interface Table { columnDefinitions: { name: string; type: string; format: string }[]; rows: { cells: unknown[] }[] }
interface Cause { reason: string; message: string; field: string }

const causes = (a: Answer): string[] => {
  expect(a.status, a.text).to.equal(422);
  return (JSON.parse(a.text) as { details: { causes: Cause[] } }).details.causes.map((c) => `${c.field}: ${c.message}`);
};
const names = async (s: Send, path: string): Promise<string[]> => answered<{ items: Stored[] }>(await s('GET', path)).items.map((o) => o.metadata.name);
const table = async (s: Send, path: string): Promise<[string[], unknown[][]]> => {
  const t = answered<Table>(await s('GET', path, undefined, undefined, TABLE));
  return [t.columnDefinitions.map((c) => `${c.name}:${c.type}:${c.format}`), t.rows.map((r) => r.cells.slice(0, -1))];
};

async function discovery(s: Send): Promise<void> {
  const group = answered<{ versions: { version: string }[]; preferredVersion: { version: string } }>(await s('GET', '/apis/resource.k8s.io'));
  expect([group.versions.map((v) => v.version), group.preferredVersion.version]).to.deep.equal([['v1'], 'v1']);
  const list = answered<{ resources: { name: string; namespaced: boolean; shortNames?: string[]; categories?: string[]; storageVersionHash?: string; verbs: string[] }[] }>(await s('GET', G));
  expect(list.resources.map((r) => [r.name, r.namespaced, r.shortNames ?? [], r.categories ?? [], r.storageVersionHash ?? '', r.verbs.length])).to.deep.equal([
    ['deviceclasses', false, [], [], 'weQRMT6DeYM=', 8],
    ['resourceclaims', true, [], [], 'EJAWH5WrAYg=', 8],
    ['resourceclaims/status', true, [], [], '', 3],
    ['resourceclaimtemplates', true, [], [], '24m0okHrUtk=', 8],
    ['resourceslices', false, [], [], 'z6Bc9vgk6yE=', 8],
  ]);
  const openapi = answered<{ components: { schemas: Record<string, unknown> } }>(await s('GET', '/openapi/v3/apis/resource.k8s.io/v1'));
  expect(Object.keys(openapi.components.schemas).filter((k) => k.startsWith('io.k8s.api.resource.v1.')).length).to.equal(42);
}

async function deviceClasses(s: Send): Promise<void> {
  // The extended resource name is dropped (DRAExtendedResource is off); the generation starts at 1.
  const created = answered<Stored>(await s('POST', DC, object('DeviceClass', 'gpu', { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }], extendedResourceName: 'example.com/gpu' })), 201);
  expect([created.spec, created.metadata.generation]).to.deep.equal([{ selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] }, 1]);
  const relabelled = answered<Stored>(await s('PATCH', `${DC}/gpu`, '{"metadata":{"labels":{"a":"b"}}}', MERGE));
  expect(relabelled.metadata.generation).to.equal(1);
  const changed = answered<Stored>(await s('PATCH', `${DC}/gpu`, JSON.stringify({ spec: { config: [{ opaque: { driver: 'gpu.example.com', parameters: { mode: 'fast' } } }] } }), STRATEGIC));
  expect([changed.metadata.generation, changed.spec?.config]).to.deep.equal([2, [{ opaque: { driver: 'gpu.example.com', parameters: { mode: 'fast' } } }]]);

  refused(await s('POST', DC, object('DeviceClass', 'Bad_Class', { selectors: [{}], config: [{}, { opaque: { driver: '', parameters: null } }] })),
    `DeviceClass.resource.k8s.io "Bad_Class" is invalid: [metadata.name: Invalid value: "Bad_Class": ${subdomain}, spec.selectors[0].cel: Required value, spec.config[0].opaque: Required value, spec.config[1].opaque.driver: Required value, spec.config[1].opaque.driver: Invalid value: "": ${subdomain}, spec.config[1].opaque.parameters: Required value]`);
  // CEL selectors compile in the DRA environment (`device`), to a bool or the unknown type; cel.bind is there.
  expect(causes(await s('POST', DC, object('DeviceClass', 'cel', { selectors: ['device.driver ==', 'device.foo', '1', 'cel.bind(d, device.attributes["gpu.example.com"], d.model == "a")', 'device.capacity["gpu.example.com"].memory.compareTo(quantity("1Gi")) >= 0'].map((expression) => ({ cel: { expression } })) })))).to.deep.equal([
    "spec.selectors[0].cel.expression: Invalid value: \"device.driver ==\": compilation failed: ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | device.driver ==\n | ................^",
    "spec.selectors[1].cel.expression: Invalid value: \"device.foo\": compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^",
    'spec.selectors[2].cel.expression: Invalid value: "1": must evaluate to bool or the unknown type, not int',
  ]);
  // cel.bind as ext.Bindings expands it, and the estimated cost's limit (1,000,000, with the sizes the DRA API
  // bounds: 32 domains, 32 attributes each): four nested loops are past it, and a loop over 90 list items of
  // three nested ones (84 items are not).
  const items = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;
  const nested = (n: number): string => `${items(n)}.all(x, device.attributes.all(d, device.attributes[d].all(k, device.attributes[d][k] == x)))`;
  expect(causes(await s('POST', DC, object('DeviceClass', 'cost', { selectors: [
    'cel.bind(1, 2, true)', 'cel.bind(x, 1, x)', 'cel.bind(m, device.attributes, m.all(d, m[d].all(k, m.all(d2, m[d2].all(k2, true)))))', nested(90), nested(84),
    'cel.bind(m, device.attributes, m.all(d, m[d].all(k, m[d][k] == "a")))', 'device.attributes.a.s.matches("x.*y")', 'device.attributes["a"].s.matches("x.*y")',
    'device.driver.find("[") == ""',
  ].map((expression) => ({ cel: { expression } })) })))).to.deep.equal([
    'spec.selectors[0].cel.expression: Invalid value: "cel.bind(1, 2, true)": compilation failed: ERROR: <input>:1:10: cel.bind() variable names must be simple identifiers\n | cel.bind(1, 2, true)\n | .........^',
    'spec.selectors[1].cel.expression: Invalid value: "cel.bind(x, 1, x)": must evaluate to bool or the unknown type, not int',
    'spec.selectors[2].cel.expression: Forbidden: too complex, exceeds cost limit',
    'spec.selectors[3].cel.expression: Forbidden: too complex, exceeds cost limit',
    // A field selected on the map of domains has no known size: matching it is of unbounded cost.
    'spec.selectors[6].cel.expression: Forbidden: too complex, exceeds cost limit',
    // A regular expression that compiles only when the program is built: the apiserver's InternalError.
    'spec.selectors[8].cel.expression: Internal error: program instantiation failed: error parsing regexp: missing closing ]: `[`',
  ]);
  // An update validates the spec twice (ValidateDeviceClass, then ValidateDeviceClassUpdate).
  expect(causes(await s('PATCH', `${DC}/gpu`, '{"spec":{"selectors":[{}]}}', MERGE))).to.deep.equal(['spec.selectors[0].cel: Required value', 'spec.selectors[0].cel: Required value']);
  // Server-side apply and a JSON patch.
  const applied = answered<Stored>(await s('PATCH', `${DC}/applied?fieldManager=me`, object('DeviceClass', 'applied', { selectors: [{ cel: { expression: 'true' } }] }), APPLY), 201);
  expect([applied.spec, applied.metadata.generation]).to.deep.equal([{ selectors: [{ cel: { expression: 'true' } }] }, 1]);
  const patched = answered<Stored>(await s('PATCH', `${DC}/applied`, JSON.stringify([{ op: 'add', path: '/spec/selectors/-', value: { cel: { expression: 'false' } } }]), JSON_PATCH));
  expect([(patched.spec?.selectors as unknown[]).length, patched.metadata.generation]).to.deep.equal([2, 2]);
  const [columns, rows] = await table(s, DC);
  expect([columns, rows]).to.deep.equal([['Name:string:name', 'Age:string:'], [['applied'], ['gpu']]]);
  // Every resource.k8s.io kind answers a delete with the deleted object.
  expect(answered<Stored>(await s('DELETE', `${DC}/applied`)).metadata.name).to.equal('applied');
}

async function resourceClaims(s: Send): Promise<void> {
  // Defaults: ExactCount of 1 device, tolerations' Equal operator; the status is dropped on create.
  const spec = {
    devices: {
      requests: [
        { name: 'gpu', exactly: { deviceClassName: 'gpu', tolerations: [{ key: 'k', effect: 'NoSchedule' }], selectors: [{ cel: { expression: 'true' } }] } },
        { name: 'any', firstAvailable: [{ name: 'big', deviceClassName: 'gpu', allocationMode: 'All' }, { name: 'small', deviceClassName: 'gpu', count: 2 }] },
      ],
      constraints: [{ requests: ['gpu', 'any/big'], matchAttribute: 'gpu.example.com/model' }],
      config: [{ requests: ['any/small'], opaque: { driver: 'gpu.example.com', parameters: { mode: 'fast' } } }],
    },
  };
  const created = answered<Stored>(await s('POST', RC, JSON.stringify({ ...JSON.parse(object('ResourceClaim', 'claim', spec)) as object, status: { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] } })), 201);
  expect([created.spec, created.status, created.metadata.generation]).to.deep.equal([{
    devices: {
      requests: [
        { name: 'gpu', exactly: { deviceClassName: 'gpu', selectors: [{ cel: { expression: 'true' } }], allocationMode: 'ExactCount', count: 1, tolerations: [{ key: 'k', operator: 'Equal', effect: 'NoSchedule' }] } },
        { name: 'any', firstAvailable: [{ name: 'big', deviceClassName: 'gpu', allocationMode: 'All' }, { name: 'small', deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 2 }] },
      ],
      constraints: [{ requests: ['gpu', 'any/big'], matchAttribute: 'gpu.example.com/model' }],
      config: [{ requests: ['any/small'], opaque: { driver: 'gpu.example.com', parameters: { mode: 'fast' } } }],
    },
  }, {}, undefined]);
  // A request's capacity is dropped (DRAConsumableCapacity is off).
  const capacity = answered<Stored>(await s('POST', RC, object('ResourceClaim', 'capacity', { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu', capacity: { requests: { memory: '1Gi' } } } }] } })), 201);
  expect(capacity.spec).to.deep.equal({ devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1 } }] } });

  // Every check of a spec at once, in the apiserver's order.
  expect(causes(await s('POST', RC, object('ResourceClaim', 'bad', {
    devices: {
      requests: [
        { name: 'R_1', exactly: { deviceClassName: '', allocationMode: 'Some', selectors: [{}], tolerations: [{ key: 'a b', operator: 'Bad', effect: 'X' }, { operator: 'Exists', value: 'v' }] } },
        { name: 'R_1' },
        { name: 'r3', exactly: { deviceClassName: 'c', allocationMode: 'All', count: 2 }, firstAvailable: [{ name: 's', deviceClassName: 'Bad_Class', count: -1 }, { name: 's', deviceClassName: 'c' }] },
      ],
      constraints: [{ requests: ['nope', 'r3/s', 'a/b/c', 'r3/s'] }, { matchAttribute: 'noDomain' }],
      config: [{ requests: ['R_1'] }, { opaque: { driver: 'Bad', parameters: [1] } }, { opaque: { driver: 'd.example.com' } }],
    },
  })))).to.deep.equal([
    `spec.devices.requests[0].name: Invalid value: "R_1": ${labelMsg}`,
    'spec.devices.requests[0].exactly.deviceClassName: Required value',
    'spec.devices.requests[0].exactly.selectors[0].cel: Required value',
    'spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"',
    `spec.devices.requests[0].exactly.tolerations[0].key: Invalid value: "a b": ${qualified}`,
    'spec.devices.requests[0].exactly.tolerations[0].operator: Unsupported value: "Bad": supported values: "Equal", "Exists"',
    'spec.devices.requests[0].exactly.tolerations[0].effect: Unsupported value: "X": supported values: "NoExecute", "NoSchedule"',
    'spec.devices.requests[0].exactly.tolerations[1].value: Invalid value: "v": must be empty for operator `Exists`',
    `spec.devices.requests[1].name: Invalid value: "R_1": ${labelMsg}`,
    'spec.devices.requests[1]: Required value: exactly one of `exactly` or `firstAvailable` is required',
    `spec.devices.requests[2].firstAvailable[0].deviceClassName: Invalid value: "Bad_Class": ${subdomain}`,
    'spec.devices.requests[2].firstAvailable[0].count: Invalid value: -1: must be greater than zero',
    'spec.devices.requests[2].firstAvailable[1].name: Duplicate value: "s"',
    "spec.devices.requests[2].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'",
    'spec.devices.requests[2]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set',
    'spec.devices.requests[1].name: Duplicate value: "R_1"',
    `spec.devices.constraints[0].requests[0]: Invalid value: "nope": ${requestRef}`,
    `spec.devices.constraints[0].requests[2]: Invalid value: "a/b/c": ${requestRef}`,
    'spec.devices.constraints[0].requests[3]: Duplicate value: "r3/s"',
    'spec.devices.constraints[0].matchAttribute: Required value',
    'spec.devices.constraints[1].matchAttribute: Invalid value: "noDomain": must include a domain',
    `spec.devices.config[0].requests[0]: Invalid value: "R_1": ${labelMsg}`,
    'spec.devices.config[0].opaque: Required value',
    'spec.devices.config[1].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object',
    'spec.devices.config[2].opaque.parameters: Required value',
  ]);
  // At most 32 requests.
  const many = Array.from({ length: 33 }, (_, i) => ({ name: `r${i}`, exactly: { deviceClassName: 'gpu' } }));
  refused(await s('POST', RC, object('ResourceClaim', 'many', { devices: { requests: many } })), 'ResourceClaim.resource.k8s.io "many" is invalid: spec.devices.requests: Too many: 33: must have at most 32 items');

  // The spec is fixed: the error prints the internal Go struct; the spec's checks run twice.
  const fixed = causes(await s('PATCH', `${RC}/capacity`, '{"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"","tolerations":[{"key":"k","tolerationSeconds":5}]}}]}}}', MERGE));
  const text = '{"Devices":{"Requests":[{"Name":"r","Exactly":{"DeviceClassName":"","Selectors":null,"AllocationMode":"ExactCount","Count":1,"AdminAccess":null,"Tolerations":[{"Key":"k","Operator":"Equal","Value":"","Effect":"","TolerationSeconds":5}],"Capacity":null},"FirstAvailable":null}],"Constraints":null,"Config":null}}';
  expect(fixed).to.deep.equal(['spec.devices.requests[0].exactly.deviceClassName: Required value', `spec: Invalid value: ${text}: field is immutable`, 'spec.devices.requests[0].exactly.deviceClassName: Required value']);
  // Opaque parameters are quoted as the RawExtension's text: in the order written.
  answered(await s('POST', RC, object('ResourceClaim', 'raw', { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu' } }], config: [{ opaque: { driver: 'd.example.com', parameters: { b: 1, a: [true], c: { z: 1, y: '<' } } } }] } })), 201);
  expect(causes(await s('PATCH', `${RC}/raw`, '{"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"other"}}]}}}', MERGE))).to.deep.equal([
    'spec: Invalid value: {"Devices":{"Requests":[{"Name":"r","Exactly":{"DeviceClassName":"other","Selectors":null,"AllocationMode":"ExactCount","Count":1,"AdminAccess":null,"Tolerations":null,"Capacity":null},"FirstAvailable":null}],"Constraints":null,"Config":[{"Requests":null,"Opaque":{"Driver":"d.example.com","Parameters":{"b":1,"a":[true],"c":{"z":1,"y":"\\u003c"}}}}]}}: field is immutable',
  ]);
  // A patch's result is what the patcher decodes: a strategic merge patch's or an apply's went through a Go map
  // (every RawExtension sorted), a merge patch's is json-patch's text (what it parsed sorted: the parameters it
  // placed; what it did not reach as stored). A JSON patch that walks into the parameters sorts their members
  // on the reference and not on kubekit (left: hostile seed 20261201's note); this one does not walk into them.
  answered(await s('POST', RC, object('ResourceClaim', 'raw2', { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'x' } }], config: [{ requests: ['gpu'], opaque: { driver: 'd.example.com', parameters: { b: 1, a: [{ y: 1, x: 2 }], c: { z: 1, y: '<' } } } }] } })), 201);
  const params = async (body: string, contentType: string): Promise<string | undefined> => (await s('PATCH', `${RC}/raw2${contentType === APPLY ? '?fieldManager=m&force=true' : ''}`, body, contentType)).message.match(/"Parameters":.*?\}\}\}\]/)?.[0];
  const requests = '{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"y"}}]}}}';
  const config = '{"spec":{"devices":{"config":[{"requests":["gpu"],"opaque":{"driver":"d.example.com","parameters":{"q":1,"p":{"z":1,"y":2}}}}]}}}';
  const asWritten = '"Parameters":{"b":1,"a":[{"y":1,"x":2}],"c":{"z":1,"y":"\\u003c"}}}}]';
  const sorted = '"Parameters":{"a":[{"x":2,"y":1}],"b":1,"c":{"y":"\\u003c","z":1}}}}]';
  expect([
    await params(requests, MERGE), await params(config, MERGE), await params(requests, 'application/strategic-merge-patch+json'), await params(config, 'application/strategic-merge-patch+json'),
    await params('[{"op":"replace","path":"/spec/devices/requests/0/exactly/deviceClassName","value":"y"}]', JSON_PATCH),
    await params('apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: raw2\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: z\n', APPLY),
  ]).to.deep.equal([asWritten, '"Parameters":{"p":{"y":2,"z":1},"q":1}}}]', sorted, '"Parameters":{"p":{"y":2,"z":1},"q":1}}}]', asWritten, sorted]);
  // A constraint's distinctAttribute is kept and validated although DRAConsumableCapacity is off: the strategy
  // clears it on a copy of each constraint (for _, c := range), so kube-apiserver 1.34.4 stores it.
  const distinct = answered<Stored>(await s('POST', RC, object('ResourceClaim', 'distinct', { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'x' } }], constraints: [{ requests: ['gpu'], distinctAttribute: 'gpu.example.com/model' }] } })), 201);
  expect((distinct.spec?.devices as { constraints: unknown }).constraints).to.deep.equal([{ requests: ['gpu'], distinctAttribute: 'gpu.example.com/model' }]);
  expect(causes(await s('POST', RC, object('ResourceClaim', 'distinct2', { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'x' } }], constraints: [{ distinctAttribute: 'noDomain' }, {}] } })))).to.deep.equal([
    'spec.devices.constraints[0].distinctAttribute: Invalid value: "noDomain": must include a domain',
    'spec.devices.constraints[1].matchAttribute: Required value',
  ]);
  for (const name of ['raw2', 'distinct']) expect((await s('DELETE', `${RC}/${name}`)).status).to.equal(200);
  // An update of the claim keeps its status; its labels may change.
  const relabelled = answered<Stored>(await s('PATCH', `${RC}/claim`, '{"metadata":{"labels":{"a":"b"}},"status":{"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}}', MERGE));
  expect([relabelled.metadata.labels, relabelled.status]).to.deep.equal([{ a: 'b' }, {}]);

  // /status: reservations need an allocation; the spec and labels stay; devices' status needs their allocation.
  refused(await s('PATCH', `${RC}/claim/status`, '{"status":{"reservedFor":[{"resource":"pods","name":"p","uid":"u"}]}}', MERGE),
    'ResourceClaim.resource.k8s.io "claim" is invalid: status.reservedFor: Forbidden: may not be specified when `allocated` is not set');
  const device = { driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' };
  const allocation = { devices: { results: [{ request: 'gpu', ...device }], config: [{ source: 'FromClaim', requests: ['any/small'], opaque: { driver: 'gpu.example.com', parameters: { mode: 'fast' } } }] }, nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } };
  const other = { driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-1' };
  expect(causes(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ status: { allocation, devices: [device, other, other] } }), MERGE))).to.deep.equal([
    'status.devices[1]: Invalid value: {"Driver":{},"Pool":{},"Device":{},"ShareID":{}}: must be an allocated device in the claim',
    'status.devices[2]: Invalid value: {"Driver":{},"Pool":{},"Device":{},"ShareID":{}}: must be an allocated device in the claim',
    'status.devices[2].deviceID: Duplicate value: {"Driver":{},"Pool":{},"Device":{},"ShareID":{}}',
  ]);
  expect(causes(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ status: { allocation: { devices: { results: [{ request: 'nope', driver: 'bad_driver', pool: '', device: 'D' }], config: [{ source: 'X', opaque: { driver: 'a.b', parameters: {} } }] } } } }), MERGE))).to.deep.equal([
    `status.allocation.devices.results[0].request: Invalid value: "nope": ${requestRef}`,
    `status.allocation.devices.results[0].driver: Invalid value: "bad_driver": ${subdomain}`,
    'status.allocation.devices.results[0].pool: Required value',
    `status.allocation.devices.results[0].device: Invalid value: "D": ${labelMsg}`,
    'status.allocation.devices.config[0].source: Unsupported value: "X": supported values: "FromClaim", "FromClass"',
  ]);
  // A device's status: conditions as metav1's, opaque data an object, network data's lengths and canonical CIDRs.
  const badStatus = { ...device, conditions: [{ type: 'A', status: 'Bad', reason: 'r' }, { type: 'A', status: 'True', reason: 'r', lastTransitionTime: '2020-01-01T00:00:00Z' }], data: [1], networkData: { interfaceName: 'x'.repeat(300), ips: ['10.0.0.1', '10.0.0.1/24', '10.00.0.1/24', '::ffff:10.0.0.1/120', '2001:DB8::1/64', '10.0.0.1/24'] } };
  expect(causes(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ status: { allocation, devices: [badStatus] } }), MERGE))).to.deep.equal([
    'status.devices[0].conditions[0].status: Unsupported value: "Bad": supported values: "False", "True", "Unknown"',
    'status.devices[0].conditions[0].lastTransitionTime: Required value',
    'status.devices[0].conditions[1].type: Duplicate value: "A"',
    'status.devices[0].data: Invalid value: "<value omitted>": must be a valid JSON object',
    'status.devices[0].networkData.interfaceName: Too long: may not be more than 256 bytes',
    'status.devices[0].networkData.ips[0]: Invalid value: "10.0.0.1": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)',
    'status.devices[0].networkData.ips[2]: Invalid value: "10.00.0.1/24": must be in canonical form ("10.0.0.1/24")',
    'status.devices[0].networkData.ips[3]: Invalid value: "::ffff:10.0.0.1/120": must be in canonical form ("10.0.0.1/24")',
    'status.devices[0].networkData.ips[4]: Invalid value: "2001:DB8::1/64": must be in canonical form ("2001:db8::1/64")',
    'status.devices[0].networkData.ips[5]: Duplicate value: "10.0.0.1/24"',
  ]);
  const allocated = answered<Stored>(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ metadata: { labels: { a: 'c' } }, spec: null, status: { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }], devices: [{ ...device, conditions: [] }] } }), MERGE));
  expect([allocated.metadata.labels, allocated.spec, allocated.status]).to.deep.equal([{ a: 'b' }, created.spec, { allocation, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }], devices: [{ ...device, conditions: null }] }]);
  // A device's status has no omitempty on its conditions: null when absent (sent empty, dropped by the merge).
  // An allocation is fixed once made (printed as the internal Go struct).
  refused(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ status: { allocation: { devices: { results: [{ request: 'gpu', ...other }] } } } }), MERGE),
    'ResourceClaim.resource.k8s.io "claim" is invalid: status.allocation: Invalid value: {"Devices":{"Results":[{"Request":"gpu","Driver":"gpu.example.com","Pool":"node-1","Device":"gpu-1","AdminAccess":null,"Tolerations":null,"BindingConditions":null,"BindingFailureConditions":null,"ShareID":null,"ConsumedCapacity":null}],"Config":[{"Source":"FromClaim","Requests":["any/small"],"Opaque":{"Driver":"gpu.example.com","Parameters":{"mode":"fast"}}}]},"NodeSelector":{"NodeSelectorTerms":[{"MatchExpressions":null,"MatchFields":[{"Key":"metadata.name","Operator":"In","Values":["node-1"]}]}]},"AllocationTimestamp":null}: field is immutable');
  // An empty list the request sent is an empty slice to the validators, printed `[]` (hostile seed 20261201, case 84).
  refused(await s('PATCH', `${RC}/claim/status`, JSON.stringify({ status: { allocation: { devices: { results: [] } } } }), MERGE),
    'ResourceClaim.resource.k8s.io "claim" is invalid: status.allocation: Invalid value: {"Devices":{"Results":[],"Config":[{"Source":"FromClaim","Requests":["any/small"],"Opaque":{"Driver":"gpu.example.com","Parameters":{"mode":"fast"}}}]},"NodeSelector":{"NodeSelectorTerms":[{"MatchExpressions":null,"MatchFields":[{"Key":"metadata.name","Operator":"In","Values":["node-1"]}]}]},"AllocationTimestamp":null}: field is immutable');
  // The same through an update of /status, whose every attempt works on a copy of the decoded object.
  const rv = answered<Stored>(await s('GET', `${RC}/claim`)).metadata.resourceVersion;
  refused(await s('PUT', `${RC}/claim/status`, JSON.stringify({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'claim', resourceVersion: rv }, status: { allocation: { devices: { results: [], config: [{ source: 'Bad', opaque: { driver: 'gpu.example.com', parameters: {} } }] } } } })),
    'ResourceClaim.resource.k8s.io "claim" is invalid: status.allocation: Invalid value: {"Devices":{"Results":[],"Config":[{"Source":"Bad","Requests":null,"Opaque":{"Driver":"gpu.example.com","Parameters":{}}}]},"NodeSelector":null,"AllocationTimestamp":null}: field is immutable');
  const [columns, rows] = await table(s, RC);
  expect([columns, rows]).to.deep.equal([['Name:string:name', 'State:string:', 'Age:string:'], [['capacity', 'pending'], ['claim', 'allocated,reserved'], ['raw', 'pending']]]);
  // The protobuf answer of an allocated claim, and of the list, is kubekit's encoding of the JSON one (a list's
  // resourceVersion is the store's latest: on the reference a lease renewed between the two answers moves it,
  // and they are asked for again, at most 5 times).
  for (const path of [`${RC}/claim`, RC]) {
    let [encoded, answer] = ['', ''];
    for (let attempt = 0; attempt < 5 && (attempt === 0 || encoded !== answer); attempt++) {
      const json = answered<Record<string, unknown>>(await s('GET', path));
      encoded = encodeProtobuf(json)?.toString('hex') ?? '';
      answer = answerBytes(await s('GET', path, undefined, undefined, PROTOBUF)).bytes.toString('hex');
    }
    expect(encoded, path).to.equal(answer);
  }
  // While the claim is being deleted (a finalizer holds it), no consumer may be added to reservedFor; the same
  // consumer written with its members in another order is no new one.
  answered(await s('PATCH', `${RC}/claim`, '{"metadata":{"finalizers":["example.com/hold"]}}', MERGE));
  answered(await s('DELETE', `${RC}/claim`));
  answered(await s('PATCH', `${RC}/claim/status`, '{"status":{"reservedFor":[{"uid":"u","name":"p","resource":"pods"}]}}', MERGE));
  refused(await s('PATCH', `${RC}/claim/status`, '{"status":{"reservedFor":[{"uid":"u","name":"p","resource":"pods"},{"resource":"pods","name":"q","uid":"v"}]}}', MERGE),
    'ResourceClaim.resource.k8s.io "claim" is invalid: status.reservedFor: Forbidden: new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set');
  // Deallocated: the devices' status goes with the allocation.
  const deallocated = answered<Stored>(await s('PATCH', `${RC}/claim/status`, '{"status":{"allocation":null,"reservedFor":null}}', MERGE));
  expect(deallocated.status).to.deep.equal({});
}

async function adminAccess(s: Send): Promise<void> {
  // Admin access needs the namespace's label (AuthorizedForAdmin), checked before anything else, on create only.
  const admin = 'admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace';
  const requests = [{ name: 'plain', exactly: { deviceClassName: 'gpu' } }, { name: 'admin', exactly: { deviceClassName: 'gpu', adminAccess: true } }];
  expect(causes(await s('POST', RC, object('ResourceClaim', 'Admin', { devices: { requests: [...requests, { name: 'Bad' }] } })))).to.deep.equal([
    `spec.devices.requests[1].adminAccess: Forbidden: ${admin}`, `metadata.name: Invalid value: "Admin": ${subdomain}`,
    `spec.devices.requests[2].name: Invalid value: "Bad": ${labelMsg}`, 'spec.devices.requests[2]: Required value: exactly one of `exactly` or `firstAvailable` is required',
  ]);
  refused(await s('POST', RT, object('ResourceClaimTemplate', 'admin', { spec: { devices: { requests } } })), `ResourceClaimTemplate.resource.k8s.io "admin" is invalid: spec.devices.requests[1].adminAccess: Forbidden: ${admin}`);
  answered(await s('POST', RC, object('ResourceClaim', 'plain', { devices: { requests: [requests[0]] } })), 201);
  const result = { request: 'plain', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0', adminAccess: true };
  refused(await s('PATCH', `${RC}/plain/status`, JSON.stringify({ status: { allocation: { devices: { results: [result] } } } }), MERGE), `ResourceClaim.resource.k8s.io "plain" is invalid: status.allocation.devices.results[0].adminAccess: Forbidden: ${admin}`);
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'admins', labels: { 'resource.kubernetes.io/admin-access': 'true' } } })), 201);
  const granted = answered<Stored>(await s('POST', `${G}/namespaces/admins/resourceclaims`, object('ResourceClaim', 'admin', { devices: { requests } })), 201);
  expect((granted.spec?.devices as { requests: unknown[] }).requests[1]).to.deep.equal({ name: 'admin', exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1, adminAccess: true } });
  const allocated = answered<Stored>(await s('PATCH', `${G}/namespaces/admins/resourceclaims/admin/status`, JSON.stringify({ status: { allocation: { devices: { results: [{ ...result, request: 'admin' }] } } } }), MERGE));
  expect(allocated.status).to.deep.equal({ allocation: { devices: { results: [{ ...result, request: 'admin' }] } } });
}

async function resourceClaimTemplates(s: Send): Promise<void> {
  const created = answered<Stored>(await s('POST', RT, object('ResourceClaimTemplate', 'tpl', { metadata: { labels: { a: 'b' } }, spec: { devices: { requests: [{ name: 'r', firstAvailable: [{ name: 's', deviceClassName: 'gpu', tolerations: [{ key: 'k' }] }] }] } } })), 201);
  expect(created.spec).to.deep.equal({ metadata: { labels: { a: 'b' } }, spec: { devices: { requests: [{ name: 'r', firstAvailable: [{ name: 's', deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1, tolerations: [{ key: 'k', operator: 'Equal' }] }] }] } } });
  // An empty spec is a struct: its requests are written null.
  expect(answered<Stored>(await s('POST', RT, object('ResourceClaimTemplate', 'empty', { spec: {} })), 201).spec).to.deep.equal({ metadata: {}, spec: { devices: { requests: null } } });
  expect(causes(await s('POST', RT, object('ResourceClaimTemplate', 'bad', { metadata: { name: 'x', labels: { 'a b': 'c' } }, spec: { devices: { requests: [{ name: 'r' }] } } })))).to.deep.equal([
    `spec.metadata.labels: Invalid value: "a b": ${qualified}`,
    'spec.metadata.name: Forbidden: cannot be set',
    'spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required',
  ].map((c) => c.replace('spec.devices', 'spec.spec.devices')));
  refused(await s('PATCH', `${RT}/tpl`, '{"spec":{"metadata":{"labels":{"a":"c"}}}}', MERGE),
    'ResourceClaimTemplate.resource.k8s.io "tpl" is invalid: spec: Invalid value: {"labels":{"a":"c"},"Spec":{"Devices":{"Requests":[{"Name":"r","Exactly":null,"FirstAvailable":[{"Name":"s","DeviceClassName":"gpu","Selectors":null,"AllocationMode":"ExactCount","Count":1,"Tolerations":[{"Key":"k","Operator":"Equal","Value":"","Effect":"","TolerationSeconds":null}],"Capacity":null}]}],"Constraints":null,"Config":null}}}: field is immutable');
  const [columns, rows] = await table(s, RT);
  expect([columns, rows]).to.deep.equal([['Name:string:name', 'Age:string:'], [['empty'], ['tpl']]]);
  expect(answered<Stored>(await s('DELETE', `${RT}/empty`)).spec).to.deep.equal({ metadata: {}, spec: { devices: { requests: null } } });
}

async function resourceSlices(s: Send): Promise<void> {
  const slice = (name: string, node: string, driver: string, more: Record<string, unknown> = {}): string => object('ResourceSlice', name, { driver, pool: { name: `pool-${node}`, resourceSliceCount: 1 }, nodeName: node, ...more });
  const before = answered<{ metadata: { resourceVersion: string } }>(await s('GET', `${RS}`)).metadata.resourceVersion;
  // The fields of the disabled gates (taints, counters, binding conditions, consumable capacity) are dropped.
  const created = answered<Stored>(await s('POST', RS, slice('s1', 'node-1', 'gpu.example.com', {
    sharedCounters: [{ name: 'c', counters: { x: { value: '1' } } }],
    devices: [{ name: 'gpu-0', attributes: { model: { string: 'a100' }, 'gpu.example.com/index': { int: 0 } }, capacity: { memory: { value: '40Gi', requestPolicy: { default: '1Gi' } } }, taints: [{ key: 'k', effect: 'NoSchedule' }], allowMultipleAllocations: true, bindsToNode: true }],
  })), 201);
  expect([created.spec, created.metadata.generation]).to.deep.equal([{
    driver: 'gpu.example.com', pool: { name: 'pool-node-1', generation: 0, resourceSliceCount: 1 }, nodeName: 'node-1',
    devices: [{ name: 'gpu-0', attributes: { model: { string: 'a100' }, 'gpu.example.com/index': { int: 0 } }, capacity: { memory: { value: '40Gi' } } }],
  }, 1]);
  answered<Stored>(await s('POST', RS, slice('s2', 'node-2', 'nic.example.com')), 201);
  expect(answered<Stored>(await s('POST', RS, object('ResourceSlice', 's3', { driver: 'nic.example.com', pool: { name: 'shared', resourceSliceCount: 2 }, allNodes: true })), 201).spec)
    .to.deep.equal({ driver: 'nic.example.com', pool: { name: 'shared', generation: 0, resourceSliceCount: 2 }, allNodes: true, devices: null });

  expect(causes(await s('POST', RS, object('ResourceSlice', 'bad', {
    driver: 'Bad_Driver', pool: { name: 'a/B_b', resourceSliceCount: 0, generation: -1 }, nodeName: '', allNodes: false,
    devices: [{ name: 'D', attributes: { 'a/b/c': {} }, capacity: { '1bad': { value: '1' } } }, { name: 'D', attributes: { v: { version: '1.0', bool: true } } }],
  })))).to.deep.equal([
    `spec.driver: Invalid value: "Bad_Driver": ${subdomain}`,
    `spec.pool.name: Invalid value: "B_b": ${subdomain}`,
    'spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero',
    'spec.pool.generation: Invalid value: -1: must be greater than or equal to zero',
    'spec.nodeName: Invalid value: "": must be either unset or set to a non-empty string',
    'spec.allNodes: Invalid value: false: must be either unset or set to true',
    `spec: Required value: ${nodeSelection}`,
    `spec.devices[0].name: Invalid value: "D": ${labelMsg}`,
    'spec.devices[0].attributes[a/b/c]: Required value: exactly one value must be specified',
    `spec.devices[0].capacity[1bad]: Invalid value: "1bad": ${cIdentifier}`,
    `spec.devices[1].name: Invalid value: "D": ${labelMsg}`,
    'spec.devices[1].attributes[v].version: Invalid value: "1.0": must be a string compatible with semver.org spec 2.0.0',
    'spec.devices[1].attributes[v]: Invalid value: {"IntValue":null,"BoolValue":true,"StringValue":null,"VersionValue":"1.0"}: exactly one value must be specified',
    'spec.devices[1].name: Duplicate value: "D"',
  ]);
  refused(await s('POST', RS, object('ResourceSlice', 'both', { driver: 'a.b', pool: { name: 'p', resourceSliceCount: 1 }, nodeName: 'n', allNodes: true })),
    `ResourceSlice.resource.k8s.io "both" is invalid: spec: Invalid value: "{\`nodeName\`, \`allNodes\`}": ${nodeSelection}, but multiple fields are set`);

  // Driver, pool name and node name are fixed; the generation grows with the spec.
  expect(causes(await s('PATCH', `${RS}/s1`, '{"spec":{"driver":"other.example.com","pool":{"name":"q"},"nodeName":"node-3"}}', MERGE))).to.deep.equal([
    'spec.pool.name: Invalid value: "q": field is immutable', 'spec.driver: Invalid value: "other.example.com": field is immutable', 'spec.nodeName: Invalid value: "node-3": field is immutable',
  ]);
  const bumped = answered<Stored>(await s('PATCH', `${RS}/s1`, '{"spec":{"pool":{"generation":1}}}', MERGE));
  expect([bumped.metadata.generation, bumped.spec?.pool]).to.deep.equal([2, { name: 'pool-node-1', generation: 1, resourceSliceCount: 1 }]);

  // Field selectors: spec.nodeName and spec.driver (not spec.pool.name).
  expect(await names(s, `${RS}?fieldSelector=spec.nodeName%3Dnode-1`)).to.deep.equal(['s1']);
  expect(await names(s, `${RS}?fieldSelector=spec.driver%3Dnic.example.com`)).to.deep.equal(['s2', 's3']);
  expect(await names(s, `${RS}?fieldSelector=spec.nodeName%3D`)).to.deep.equal(['s3']);
  expect(await names(s, `${RS}?fieldSelector=spec.driver!%3Dnic.example.com,metadata.name%3Ds1`)).to.deep.equal(['s1']);
  expect((await s('GET', `${RS}?fieldSelector=spec.pool.name%3Dpool-node-1`)).message).to.equal('field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: spec.pool.name');
  expect((await s('GET', `${RC}?fieldSelector=spec.x%3D1`)).message).to.equal('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  const [columns, rows] = await table(s, RS);
  expect([columns, rows]).to.deep.equal([['Name:string:name', 'Node:string:', 'Driver:string:', 'Pool:string:', 'Age:string:'], [['s1', 'node-1', 'gpu.example.com', 'pool-node-1'], ['s2', 'node-2', 'nic.example.com', 'pool-node-2'], ['s3', '', 'nic.example.com', 'shared']]]);
  const events = (await s('GET', `${RS}?watch=true&fieldSelector=spec.nodeName%3Dnode-2&resourceVersion=${before}&timeoutSeconds=1`)).text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string; object: Stored }).map((e) => `${e.type} ${e.object.metadata.name}`);
  expect(events).to.deep.equal(['ADDED s2']);

  // Protobuf: a body in, and an answer whose bytes are kubekit's encoding of the JSON one.
  const pb = Buffer.from(envelopeBytes('resource.k8s.io/v1', 'ResourceSlice', [...field(1, field(1, 'pb')), ...field(2, [...field(1, 'a.b'), ...field(2, [...field(1, 'p'), 0x18, 1]), ...field(3, 'n')])])).toString('latin1');
  expect(answered<Stored>(await s('POST', RS, pb, PROTOBUF), 201).spec).to.deep.equal({ driver: 'a.b', pool: { name: 'p', generation: 0, resourceSliceCount: 1 }, nodeName: 'n', devices: null });
  const json = answered<Record<string, unknown>>(await s('GET', `${RS}/s1`));
  const { bytes, contentType } = answerBytes(await s('GET', `${RS}/s1`, undefined, undefined, PROTOBUF));
  expect([contentType, encodeProtobuf(json)?.toString('hex')]).to.deep.equal([PROTOBUF, bytes.toString('hex')]);
  expect(answered<Stored>(await s('DELETE', `${RS}/pb`)).metadata.name).to.equal('pb');
  expect(answered<Stored>(await s('DELETE', `${RC}/raw`)).metadata.name).to.equal('raw');
}

describeOnBothServers('resource.k8s.io/v1 (Dynamic Resource Allocation)', async (s) => {
  await discovery(s);
  await deviceClasses(s);
  await resourceClaims(s);
  await adminAccess(s);
  await resourceClaimTemplates(s);
  await resourceSlices(s);
});
