// policy/v1 PodDisruptionBudgets on both servers: the strategy (status cleared on create and kept on update,
// generation per spec change, no unconditional update, /status keeping the spec and taking labels),
// ValidatePodDisruptionBudgetSpec, metav1 ValidateConditions on the status, names as path segments only,
// the Table and discovery (pkg/registry/policy/poddisruptionbudget/strategy.go, pkg/apis/policy/validation).
// Every expected message is kube-apiserver 1.34.4's answer to the same request (the reference server runs
// the same test).
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Answer, type Send } from './sender.js';

const P = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const mk = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec });
const zeroStatus = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };

interface Pdb { metadata: { name: string; resourceVersion?: string; generation: number; labels?: Record<string, string> }; spec: Record<string, unknown>; status: Record<string, unknown> }

const ok = (a: Answer, status = 200): Pdb => answered<Pdb>(a, status);

async function run(s: Send): Promise<void> {
  const created = ok(await s('POST', P, mk('a', { minAvailable: 1, selector: { matchLabels: { app: 'x' } } })), 201);
  expect([created.metadata.generation, created.spec, created.status]).to.deep.equal([1, { minAvailable: 1, selector: { matchLabels: { app: 'x' } } }, zeroStatus]);

  // The spec checks.
  refused(await s('POST', P, mk('b', { minAvailable: 1, maxUnavailable: '10%' })), "PodDisruptionBudget.policy \"b\" is invalid: spec: Invalid value: {\"MinAvailable\":1,\"Selector\":null,\"MaxUnavailable\":\"10%\",\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set");
  refused(await s('POST', P, mk('b2', { minAvailable: '5%', maxUnavailable: 2, unhealthyPodEvictionPolicy: 'AlwaysAllow', selector: { matchExpressions: [{ key: 'k<', operator: 'In', values: ['a', 'b'] }, { key: 'z', operator: 'Exists' }], matchLabels: { x: 'y' } } })), "PodDisruptionBudget.policy \"b2\" is invalid: [spec: Invalid value: {\"MinAvailable\":\"5%\",\"Selector\":{\"matchLabels\":{\"x\":\"y\"},\"matchExpressions\":[{\"key\":\"k\\u003c\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]},{\"key\":\"z\",\"operator\":\"Exists\"}]},\"MaxUnavailable\":2,\"UnhealthyPodEvictionPolicy\":\"AlwaysAllow\"}: minAvailable and maxUnavailable cannot be both set, spec.selector.matchExpressions[0].key: Invalid value: \"k<\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]");
  refused(await s('POST', P, mk('c', { minAvailable: '150%', maxUnavailable: -1 })), "PodDisruptionBudget.policy \"c\" is invalid: [spec: Invalid value: {\"MinAvailable\":\"150%\",\"Selector\":null,\"MaxUnavailable\":-1,\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set, spec.minAvailable: Invalid value: \"150%\": must not be greater than 100%, spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0]");
  refused(await s('POST', P, mk('d', { minAvailable: 'abc' })), "PodDisruptionBudget.policy \"d\" is invalid: spec.minAvailable: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')");
  refused(await s('POST', P, mk('e', { unhealthyPodEvictionPolicy: 'Never', selector: { matchLabels: { 'a b': 'x' } } })), "PodDisruptionBudget.policy \"e\" is invalid: [spec.selector.matchLabels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"]");

  // Bodies of the wrong shape: the decoder's words, then the spec checks (hostile probes of both servers).
  const hostile: [string, Record<string, unknown>, number, string][] = [
    ["h1", { minAvailable: true }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal bool into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32"],
    ["h2", { maxUnavailable: {} }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal object into Go struct field PodDisruptionBudgetSpec.spec.maxUnavailable of type int32"],
    ["h3", { selector: 'x' }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal string into Go struct field PodDisruptionBudgetSpec.spec.selector of type v1.LabelSelector"],
    ["h4", { unhealthyPodEvictionPolicy: 5 }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal number into Go struct field PodDisruptionBudgetSpec.spec.unhealthyPodEvictionPolicy of type v1.UnhealthyPodEvictionPolicyType"],
    ["h5", { minAvailable: 3000000000 }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal number 3000000000 into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32"],
    ["h6", { minAvailable: 1.5 }, 400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: json: cannot unmarshal number 1.5 into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32"],
    ["h9", { selector: { matchExpressions: [{ key: 'a', operator: 'In' }, { key: 'b', operator: 'Foo', values: ['x'] }] } }, 422, "PodDisruptionBudget.policy \"h9\" is invalid: [spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec.selector.matchExpressions[1].operator: Invalid value: \"Foo\": not a valid selector operator]"],
    ["h10", { minAvailable: '1' }, 422, "PodDisruptionBudget.policy \"h10\" is invalid: spec.minAvailable: Invalid value: \"1\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
    ["h11", { minAvailable: '-1%' }, 422, "PodDisruptionBudget.policy \"h11\" is invalid: spec.minAvailable: Invalid value: \"-1%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
  ];
  for (const [name, spec, code, message] of hostile) {
    const a = await s('POST', P, mk(name, spec));
    expect([a.status, a.message], name).to.deep.equal([code, message]);
  }
  const strict = await s('POST', `${P}?fieldValidation=Strict`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'h8' }, spec: { minAvailable: 1, foo: 1 }, status: { bar: 1 } }));
  expect([strict.status, strict.message]).to.deep.equal([400, "PodDisruptionBudget in version \"v1\" cannot be handled as a PodDisruptionBudget: strict decoding error: unknown field \"spec.foo\", unknown field \"status.bar\""]);
  const unknownSelector = await s('GET', `${P}?fieldSelector=spec.minAvailable=1`);
  expect([unknownSelector.status, unknownSelector.message]).to.deep.equal([400, "\"spec.minAvailable\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""]);

  // Names are path segments only; an empty spec is a budget; a status sent on create is cleared.
  const upper = ok(await s('POST', P, JSON.stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'Upper_Case' }, spec: {}, status: { disruptionsAllowed: 3 } })), 201);
  expect([upper.spec, upper.status]).to.deep.equal([{}, zeroStatus]);
  ok(await s('POST', P, mk('f', {})), 201);
  refused(await s('POST', P, mk('..', {})), "PodDisruptionBudget.policy \"..\" is invalid: metadata.name: Invalid value: \"..\": may not be '..'");

  // An update needs a resourceVersion; it keeps the status and counts the spec's changes.
  const { resourceVersion: _rv, ...unversioned } = created.metadata;
  refused(await s('PUT', `${P}/a`, JSON.stringify({ ...created, metadata: unversioned, spec: { minAvailable: 2 } })), "poddisruptionbudgets.policy \"a\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update");
  const put = ok(await s('PUT', `${P}/a`, JSON.stringify({ ...created, spec: { minAvailable: 2, selector: { matchLabels: { app: 'y' } } }, status: { disruptionsAllowed: 5 } })));
  expect([put.metadata.generation, put.spec, put.status]).to.deep.equal([2, { minAvailable: 2, selector: { matchLabels: { app: 'y' } } }, zeroStatus]);

  // /status: the conditions and counts checked; the spec kept, the labels taken.
  const badStatus = {
    disruptionsAllowed: -1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 3,
    conditions: [{ type: 'x y', status: 'Maybe', reason: '', lastTransitionTime: null, observedGeneration: -1 }, { type: 'x y', status: 'True', reason: '1bad', lastTransitionTime: '2020-01-01T00:00:00Z', message: 'm' }],
  };
  refused(await s('PUT', `${P}/a/status`, JSON.stringify({ ...put, spec: { minAvailable: 9 }, status: badStatus })), "PodDisruptionBudget.policy \"a\" is invalid: [status.conditions[0].type: Invalid value: \"x y\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\", status.conditions[0].observedGeneration: Invalid value: -1: must be greater than or equal to zero, status.conditions[0].lastTransitionTime: Required value, status.conditions[0].reason: Required value, status.conditions[1].type: Duplicate value: \"x y\", status.conditions[1].type: Invalid value: \"x y\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), status.conditions[1].reason: Invalid value: \"1bad\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?'), status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0]");
  const goodStatus = {
    disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 3, observedGeneration: 2, disruptedPods: { p1: '2020-01-01T00:00:00Z' },
    conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', lastTransitionTime: '2020-01-01T00:00:00Z', message: '' }],
  };
  const status = ok(await s('PUT', `${P}/a/status`, JSON.stringify({ ...put, metadata: { ...put.metadata, labels: { l: 'v' } }, spec: { minAvailable: 9 }, status: goodStatus })));
  expect([status.metadata.generation, status.metadata.labels, status.spec, status.status]).to.deep.equal([2, { l: 'v' }, put.spec, goodStatus]);

  // What kubectl prints, and what discovery says.
  const table = await s('GET', P, undefined, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
  const parsed = JSON.parse(table.text) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
  expect(parsed.columnDefinitions.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Min Available', 'string'], ['Max Unavailable', 'string'], ['Allowed Disruptions', 'integer'], ['Age', 'string']]);
  expect(parsed.rows.map((r) => r.cells.slice(0, 4))).to.deep.equal([["Upper_Case", "N/A", "N/A", 0], ["a", "2", "N/A", 1], ["f", "N/A", "N/A", 0]]);
  const discovery = JSON.parse((await s('GET', '/apis/policy/v1')).text) as { resources: unknown[] };
  expect(discovery.resources).to.deep.equal([{"name": "poddisruptionbudgets", "singularName": "poddisruptionbudget", "namespaced": true, "kind": "PodDisruptionBudget", "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"], "shortNames": ["pdb"], "storageVersionHash": "EVWiDmWqyJw="}, {"name": "poddisruptionbudgets/status", "singularName": "", "namespaced": true, "kind": "PodDisruptionBudget", "verbs": ["get", "patch", "update"]}]);
}

describeOnBothServers('PodDisruptionBudgets (policy/v1)', run);
