// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies and their bindings on both servers. Storage:
// SetObjectDefaults_ValidatingAdmissionPolicy and ...Binding, ValidateValidatingAdmissionPolicy and
// ...Binding (the CEL of match conditions, variables, validations, messages and audit annotations compiled
// as the apiserver compiles them), the strategies (generation, /status, no unconditional update), the Tables
// and discovery (pkg/apis/admissionregistration/validation, pkg/registry/admissionregistration). Admission:
// the ValidatingAdmissionPolicy plugin (k8s.io/apiserver/pkg/admission/plugin/policy/validating) on
// built-in kinds and custom resources: matching, match conditions, variables, messages, reasons, Deny,
// Warn and Audit, failure policies, params, the authorizer. The reference applies a policy once its
// informers have seen it, so every new binding is waited for (at most 10 s) with a dry-run request it
// refuses. Every expected message is kube-apiserver 1.34.4's answer to the same request.
import { expect } from 'chai';
import { MERGE, TABLE, answered, createWidgets, describeOnBothServers, eventually, refused, type Answer, type Send } from './sender.js';

const AR = '/apis/admissionregistration.k8s.io/v1';
const VAP = `${AR}/validatingadmissionpolicies`;
const VAPB = `${AR}/validatingadmissionpolicybindings`;
const CM = '/api/v1/namespaces/default/configmaps';
type Json = Record<string, unknown>;

const policy = (name: string, spec: Json): string => JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name }, spec });
const binding = (name: string, spec: Json): string => JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name }, spec });
const configMap = (name: string, labels: Json, data?: Json): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, ...(data === undefined ? {} : { data }) });
/** The configmaps of one scenario: the policy matches those labelled with it. */
const configMaps = (scenario: string, operations = ['CREATE', 'UPDATE', 'DELETE']): Json => ({
  resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations, resources: ['configmaps'] }], objectSelector: { matchLabels: { scenario } },
});
const invalid = (kind: string, name: string, errors: string[]): string =>
  `${kind}.admissionregistration.k8s.io "${name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;

/** The answer to `send()` once `done` holds of it, at most `seconds` (a policy the reference has not seen yet lets requests through). */
async function until(send: () => Promise<Answer>, done: (a: Answer) => boolean, seconds = 10): Promise<Answer> {
  const a = await eventually(send, done, seconds);
  expect(done(a), `${a.status} ${a.text}`).to.equal(true);
  return a;
}

/** The answer to `send()` once it is the policy plugin's refusal with this code and message (see {@link denied}). */
async function untilDenied(send: () => Promise<Answer>, code: number, message: string): Promise<void> {
  denied(await until(send, (a) => a.status === code && a.message === message), code, message);
}

/** Expects the policy plugin's refusal: the code, and `<resource> "<name>" is forbidden: <message>`. */
function denied(a: Answer, code: number, message: string): void {
  expect([a.status, a.message], a.text).to.deep.equal([code, message]);
  const status = JSON.parse(a.text) as { reason: string; details: { causes: { message: string }[] } };
  expect(status.details.causes.map((c) => c.message)).to.deep.equal([message.slice(message.indexOf(' is forbidden: ') + 15)]);
}

async function storage(s: Send): Promise<void> {
  // Discovery: both kinds, the policy with /status, in the api-extensions category.
  const resources = (JSON.parse((await s('GET', AR)).text) as { resources: { name: string }[] }).resources.filter((r) => r.name.includes('admissionpolic'));
  const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
  expect(resources).to.deep.equal([
    { name: 'validatingadmissionpolicies', singularName: 'validatingadmissionpolicy', namespaced: false, kind: 'ValidatingAdmissionPolicy', verbs, categories: ['api-extensions'], storageVersionHash: '6OxvlMmQ6is=' },
    { name: 'validatingadmissionpolicies/status', singularName: '', namespaced: false, kind: 'ValidatingAdmissionPolicy', verbs: ['get', 'patch', 'update'] },
    { name: 'validatingadmissionpolicybindings', singularName: 'validatingadmissionpolicybinding', namespaced: false, kind: 'ValidatingAdmissionPolicyBinding', verbs, categories: ['api-extensions'], storageVersionHash: 'v9715VZqakg=' },
  ]);

  // Defaults: the failure policy, the match policy and selectors, each rule's scope; generation 1, an empty status.
  const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };
  const p1 = answered<Json & { metadata: Json }>(await s('POST', VAP, policy('p1', { matchConstraints: { resourceRules: [rule], excludeResourceRules: [{ ...rule, scope: 'Cluster' }] }, validations: [{ expression: 'true' }] })), 201);
  expect([p1.metadata.generation, p1.spec, p1.status]).to.deep.equal([1, {
    matchConstraints: { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ ...rule, scope: '*' }], excludeResourceRules: [{ ...rule, scope: 'Cluster' }], matchPolicy: 'Equivalent' },
    validations: [{ expression: 'true' }], failurePolicy: 'Fail',
  }, {}]);
  const b1 = answered<Json & { metadata: Json }>(await s('POST', VAPB, binding('b1', { policyName: 'p1', validationActions: ['Audit'], matchResources: { resourceRules: [rule] } })), 201);
  expect([b1.metadata.generation, b1.spec]).to.deep.equal([1, { policyName: 'p1', matchResources: { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent' }, validationActions: ['Audit'] }]);
  const b2 = answered<Json>(await s('POST', VAPB, binding('b2', { policyName: 'p1', validationActions: ['Warn'] })), 201);
  expect(b2.spec).to.deep.equal({ policyName: 'p1', validationActions: ['Warn'] });

  // ValidateValidatingAdmissionPolicy: every field at once, in the apiserver's order.
  const nameRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  refused(await s('POST', VAP, policy('c1', {
    failurePolicy: 'Bogus', paramKind: { apiVersion: 'a/b/c', kind: '9x' },
    matchConstraints: {
      matchPolicy: 'X', namespaceSelector: { matchLabels: { 'a b': 'c' } },
      resourceRules: [{ apiGroups: ['*', 'x'], apiVersions: [], operations: ['GET', '*'], resources: ['*/*', 'pods'], scope: 'Everywhere', resourceNames: ['a/b', 'x', 'x'] }],
      excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods/*', 'pods/status', '*/status', '*/exec', '*', 'pods'] }],
    },
    matchConditions: [{ name: '', expression: '' }, { name: 'bad name!', expression: "1 + 'a'" }, { name: 'a', expression: 'object.x' }, { name: 'a', expression: 'variables.x == 1' }],
    variables: [{ name: '1x', expression: 'object.foo' }, { name: 'ok', expression: "1 + 'a'" }, { name: '', expression: '' }, { name: 'in', expression: 'variables.ok' }],
    validations: [
      { expression: '' }, { expression: '1', message: ' ' }, { expression: 'true', message: 'a\nb', messageExpression: '1', reason: 'Bogus' },
      { expression: 'variables.nope', messageExpression: '  ' }, { expression: 'object.spec', messageExpression: "authorizer.group('')" },
    ],
    auditAnnotations: [{ key: 'k', valueExpression: '1' }, { key: 'k', valueExpression: '' }, { key: 'bad key!', valueExpression: "'x'" }],
  })), invalid('ValidatingAdmissionPolicy', 'c1', [
    'spec.failurePolicy: Unsupported value: "Bogus": supported values: "Fail", "Ignore"',
    'spec.paramKind.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
    "spec.paramKind.kind: Invalid value: \"9x\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    'spec.matchConstraints.matchPolicy: Unsupported value: "X": supported values: "Equivalent", "Exact"',
    `spec.matchConstraints.namespaceSelector.matchLabels: Invalid value: "a b": ${nameRule}`,
    'spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "a/b": may not contain \'/\'',
    'spec.matchConstraints.resourceRules[0].resourceNames[2]: Duplicate value: "x"',
    'spec.matchConstraints.resourceRules[0].operations: Invalid value: ["GET","*"]: if \'*\' is present, must not specify other operations',
    'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "GET": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    'spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: ["*","x"]: if \'*\' is present, must not specify other API groups',
    'spec.matchConstraints.resourceRules[0].apiVersions: Required value',
    'spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","pods"]: if \'*/*\' is present, must not specify other resources',
    'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
    'spec.matchConstraints.excludeResourceRules[0].resources[1]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status',
    'spec.matchConstraints.excludeResourceRules[0].resources: Invalid value: ["pods/*","pods/status","*/status","*/exec","*","pods"]: if \'*\' is present, must not specify other resources without subresources',
    'spec.matchConditions[0].expression: Required value', 'spec.matchConditions[0].name: Required value',
    "spec.matchConditions[1].expression: Invalid value: \"1 + 'a'\": compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^",
    `spec.matchConditions[1].name: Invalid value: "bad name!": ${nameRule}`,
    'spec.matchConditions[2].expression: Invalid value: "object.x": must evaluate to bool but got dyn',
    "spec.matchConditions[3].expression: Invalid value: \"variables.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.x == 1\n | ^",
    'spec.matchConditions[3].name: Duplicate value: "a"',
    'spec.variables[0].name: Invalid value: "1x": must be a valid CEL identifier',
    "spec.variables[1].expression: Invalid value: \"1 + 'a'\": compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | 1 + 'a'\n | ..^",
    'spec.variables[2].name: Required value: name is not specified', 'spec.variables[2].expression: Required value: expression is not specified',
    'spec.variables[3].name: Invalid value: "in": must be a valid CEL identifier',
    'spec.validations[0].expression: Required value: expression is not specified',
    'spec.validations[1].expression: Invalid value: "1": must evaluate to bool but got int',
    'spec.validations[1].message: Invalid value: " ": must be non-empty if specified',
    'spec.validations[2].messageExpression: Invalid value: "1": must evaluate to string but got int',
    'spec.validations[2].message: Invalid value: "a\\nb": must not contain line breaks',
    'spec.validations[2].reason: Unsupported value: "Bogus": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
    "spec.validations[3].expression: Invalid value: \"variables.nope\": compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^",
    'spec.validations[3].messageExpression: Invalid value: "  ": must be non-empty if specified',
    'spec.validations[4].expression: Invalid value: "object.spec": must evaluate to bool but got dyn',
    "spec.validations[4].messageExpression: Invalid value: \"authorizer.group('')\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.group('')\n | ^",
    'spec.auditAnnotations[0].valueExpression: Invalid value: "1": must evaluate to one of [string null_type] but got int',
    'spec.auditAnnotations[1].valueExpression: Required value: valueExpression is not specified',
    'spec.auditAnnotations[1].key: Duplicate value: "k"',
    `spec.auditAnnotations[2].key: Invalid value: "c1/bad key!": ${nameRule}`,
  ]));
  // The variables, the params and the authorizer each expression sees; the types of the environment.
  const typed = (expression: string, messageExpression?: string): Json => (messageExpression === undefined ? { expression } : { expression: 'true', messageExpression });
  refused(await s('POST', VAP, policy('c2', {
    matchConstraints: { resourceRules: [rule] },
    variables: [{ name: 'a', expression: 'object.metadata.name' }, { name: 'b', expression: 'variables.a.size()' }, { name: 'c', expression: 'variables.d' }, { name: 'd', expression: 'request.userInfo' }],
    validations: [
      typed('variables.b > 1 && variables.c == 1 && variables.a == 1 && variables.d.username == 1'), typed("variables.b == 'x'"), typed('true', 'params.x'),
      typed("request.kind == 'x'"), typed("namespaceObject.metadata.uid == ''"), typed('[1,2].sort() == [1]'), typed("'a'.matches('[')"),
      typed("authorizer.requestResource.check('get')"), typed("authorizer.path('/x')"), typed('true', 'null'), typed('true', 'optional.of(1)'), typed('true', 'int'),
      typed('true', "{'a': 1}"), typed('true', "timestamp('2020-01-01T00:00:00Z')"), typed('true', 'request'), typed('true', 'request.userInfo.extra'),
      typed('true', "b'x'"), typed('true', '1u'), typed('true', "ip('1.2.3.4')"), typed('true', "quantity('1')"), typed('true', "url('http://x')"),
    ],
    auditAnnotations: [{ key: 'k2', valueExpression: '[1]' }],
    matchConditions: [{ name: 'x', expression: "variables.a == 'x'" }, { name: 'y', expression: 'params == null' }],
  })), invalid('ValidatingAdmissionPolicy', 'c2', [
    "spec.matchConditions[0].expression: Invalid value: \"variables.a == 'x'\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.a == 'x'\n | ^",
    "spec.matchConditions[1].expression: Invalid value: \"params == null\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params == null\n | ^",
    "spec.variables[2].expression: Invalid value: \"variables.d\": compilation failed: ERROR: <input>:1:10: undefined field 'd'\n | variables.d\n | .........^",
    "spec.validations[1].expression: Invalid value: \"variables.b == 'x'\": compilation failed: ERROR: <input>:1:13: found no matching overload for '_==_' applied to '(int, string)'\n | variables.b == 'x'\n | ............^",
    "spec.validations[2].messageExpression: Invalid value: \"params.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^",
    "spec.validations[3].expression: Invalid value: \"request.kind == 'x'\": compilation failed: ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(kubernetes.GroupVersionKind, string)'\n | request.kind == 'x'\n | .............^",
    "spec.validations[4].expression: Invalid value: \"namespaceObject.metadata.uid == ''\": compilation failed: ERROR: <input>:1:25: undefined field 'uid'\n | namespaceObject.metadata.uid == ''\n | ........................^",
    "spec.validations[5].expression: Invalid value: \"[1,2].sort() == [1]\": compilation failed: ERROR: <input>:1:11: undeclared reference to 'sort' (in container '')\n | [1,2].sort() == [1]\n | ..........^",
    "spec.validations[6].expression: Invalid value: \"'a'.matches('[')\": compilation failed: ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches('[')\n | ............^",
    "spec.validations[7].expression: Invalid value: \"authorizer.requestResource.check('get')\": must evaluate to bool but got kubernetes.authorization.Decision",
    "spec.validations[8].expression: Invalid value: \"authorizer.path('/x')\": must evaluate to bool but got kubernetes.authorization.PathCheck",
    'spec.validations[9].messageExpression: Invalid value: "null": must evaluate to string but got null_type',
    'spec.validations[10].messageExpression: Invalid value: "optional.of(1)": must evaluate to string but got optional_type(int)',
    'spec.validations[11].messageExpression: Invalid value: "int": must evaluate to string but got type(int)',
    "spec.validations[12].messageExpression: Invalid value: \"{'a': 1}\": must evaluate to string but got map(string, int)",
    "spec.validations[13].messageExpression: Invalid value: \"timestamp('2020-01-01T00:00:00Z')\": must evaluate to string but got google.protobuf.Timestamp",
    'spec.validations[14].messageExpression: Invalid value: "request": must evaluate to string but got kubernetes.AdmissionRequest',
    'spec.validations[15].messageExpression: Invalid value: "request.userInfo.extra": must evaluate to string but got map(string, list(string))',
    "spec.validations[16].messageExpression: Invalid value: \"b'x'\": must evaluate to string but got bytes",
    'spec.validations[17].messageExpression: Invalid value: "1u": must evaluate to string but got uint',
    "spec.validations[18].messageExpression: Invalid value: \"ip('1.2.3.4')\": must evaluate to string but got net.IP",
    "spec.validations[19].messageExpression: Invalid value: \"quantity('1')\": must evaluate to string but got kubernetes.Quantity",
    "spec.validations[20].messageExpression: Invalid value: \"url('http://x')\": must evaluate to string but got kubernetes.URL",
    'spec.auditAnnotations[0].valueExpression: Invalid value: "[1]": must evaluate to one of [string null_type] but got list(int)',
  ]));
  refused(await s('POST', VAP, policy('c3', { matchConstraints: { resourceRules: [] } })), invalid('ValidatingAdmissionPolicy', 'c3', [
    'spec.matchConstraints.resourceRules: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]));
  refused(await s('POST', VAP, policy('Bad_Name', { failurePolicy: 'Ignore', auditAnnotations: [{ key: 'k', valueExpression: "'v'" }] })), invalid('ValidatingAdmissionPolicy', 'Bad_Name', [
    "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    'spec.matchConstraints: Required value',
    "spec.auditAnnotations[0].key: Invalid value: \"Bad_Name/k\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]));
  // ValidateValidatingAdmissionPolicyBinding.
  refused(await s('POST', VAPB, binding('bad', {})), invalid('ValidatingAdmissionPolicyBinding', 'bad', ['spec.policyName: Required value', 'spec.validationActions: Required value: at least one validation action is required']));
  refused(await s('POST', VAPB, binding('bad', {
    policyName: 'Not_A_Name', paramRef: { name: 'a/b', selector: { matchLabels: { 'a b': 'c' } }, parameterNotFoundAction: 'Maybe' },
    matchResources: { matchPolicy: 'Fuzzy', resourceRules: [{ operations: [], apiGroups: [], apiVersions: [''], resources: [''] }] }, validationActions: ['Deny', 'Warn', 'Deny', 'Log'],
  })), invalid('ValidatingAdmissionPolicyBinding', 'bad', [
    "spec.policyName: Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    'spec.paramRef.name: Invalid value: "a/b": may not contain \'/\'', 'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
    `spec.paramRef.selector.matchLabels: Invalid value: "a b": ${nameRule}`, 'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
    'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
    'spec.matchResources.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
    'spec.matchResources.resourceRules[0].operations: Required value', 'spec.matchResources.resourceRules[0].apiGroups: Required value',
    'spec.matchResources.resourceRules[0].apiVersions[0]: Required value', 'spec.matchResources.resourceRules[0].resources[0]: Required value',
    'spec.validationActions[2]: Duplicate value: "Deny"', 'spec.validationActions[3]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
    'spec.validationActions: Invalid value: ["Deny","Warn","Deny","Log"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
  ]));
  refused(await s('POST', VAPB, binding('bad', { policyName: 'p1', paramRef: {}, validationActions: ['Audit'] })), invalid('ValidatingAdmissionPolicyBinding', 'bad', [
    'spec.paramRef: Required value: one of name or selector must be specified', 'spec.paramRef.parameterNotFoundAction: Required value',
  ]));
  // Decoding into the Go types.
  expect(await s('POST', VAP, policy('t', { validations: 'x' }))).to.deep.include({ status: 400, message: 'ValidatingAdmissionPolicy in version "v1" cannot be handled as a ValidatingAdmissionPolicy: json: cannot unmarshal string into Go struct field ValidatingAdmissionPolicySpec.spec.validations of type []v1.Validation' });
  expect(await s('POST', VAPB, binding('t', { validationActions: [1] }))).to.deep.include({ status: 400, message: 'ValidatingAdmissionPolicyBinding in version "v1" cannot be handled as a ValidatingAdmissionPolicyBinding: json: cannot unmarshal number into Go struct field ValidatingAdmissionPolicyBindingSpec.spec.validationActions of type v1.ValidationAction' });

  // Updates: a change of the spec bumps the generation, of the metadata does not; the status is kept; no
  // update without a resourceVersion.
  const patched = answered<Json & { metadata: Json }>(await s('PATCH', `${VAP}/p1`, JSON.stringify({ metadata: { labels: { a: 'b' } }, status: { observedGeneration: 7 } }), MERGE));
  expect([patched.metadata.generation, patched.status]).to.deep.equal([1, {}]);
  const bumped = answered<Json & { metadata: Json }>(await s('PATCH', `${VAP}/p1`, JSON.stringify({ spec: { failurePolicy: 'Ignore' } }), MERGE));
  expect([bumped.metadata.generation, (bumped.spec as Json).failurePolicy]).to.deep.equal([2, 'Ignore']);
  refused(await s('PATCH', `${VAP}/p1`, JSON.stringify({ spec: { validations: [{ expression: '1' }] } }), MERGE), invalid('ValidatingAdmissionPolicy', 'p1', ['spec.validations[0].expression: Invalid value: "1": must evaluate to bool but got int']));
  refused(await s('PUT', `${VAP}/p1`, policy('p1', { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] })), 'validatingadmissionpolicies.admissionregistration.k8s.io "p1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  const rebound = answered<Json & { metadata: Json }>(await s('PATCH', `${VAPB}/b2`, JSON.stringify({ spec: { validationActions: ['Warn', 'Audit'] } }), MERGE));
  expect([rebound.metadata.generation, rebound.spec]).to.deep.equal([2, { policyName: 'p1', validationActions: ['Warn', 'Audit'] }]);
  // /status: only the status changes (labels and the spec are kept), validated.
  const status = { observedGeneration: 2, typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: 'w' }] }, conditions: [{ type: 'Ready', status: 'True', reason: 'Done', message: 'm', lastTransitionTime: '2024-01-01T00:00:00Z' }] };
  const withStatus = answered<Json & { metadata: Json & { labels: Json } }>(await s('PATCH', `${VAP}/p1/status`, JSON.stringify({ metadata: { labels: { c: 'd' } }, spec: { failurePolicy: 'Fail' }, status }), MERGE));
  expect([withStatus.metadata.generation, withStatus.metadata.labels, (withStatus.spec as Json).failurePolicy, withStatus.status]).to.deep.equal([2, { a: 'b' }, 'Ignore', status]);
  refused(await s('PATCH', `${VAP}/p1/status`, JSON.stringify({ status: { typeChecking: { expressionWarnings: [{ fieldRef: ' ', warning: '' }] }, conditions: [{ type: 'Ready', status: 'Maybe', lastTransitionTime: '2024-01-01T00:00:00Z' }] } }), MERGE), invalid('ValidatingAdmissionPolicy', 'p1', [
    'status.typeChecking.expressionWarnings[0].warning: Required value', 'status.typeChecking.expressionWarnings[0].fieldRef: Required value',
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"', 'status.conditions[0].reason: Required value',
  ]));

  // Tables.
  await s('POST', VAP, policy('p2', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }, { expression: 'false' }] }));
  await s('POST', VAPB, binding('b3', { policyName: 'p2', validationActions: ['Audit'], paramRef: { selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v1', 'v2'] }, { key: 'e', operator: 'Exists' }] }, parameterNotFoundAction: 'Allow' } }));
  await s('POST', VAPB, binding('b4', { policyName: 'p2', validationActions: ['Audit'], paramRef: { name: 'n', namespace: 'ns', parameterNotFoundAction: 'Allow' } }));
  await s('POST', VAPB, binding('b5', { policyName: 'p2', validationActions: ['Audit'], paramRef: { name: 'n', parameterNotFoundAction: 'Deny' } }));
  const table = async (path: string): Promise<unknown[]> => {
    const t = JSON.parse((await s('GET', path, undefined, undefined, TABLE)).text) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    return [t.columnDefinitions.map((c) => [c.name, c.type]), ...t.rows.map((r) => r.cells.slice(0, -1))];
  };
  expect(await table(VAP)).to.deep.equal([[['Name', 'string'], ['Validations', 'integer'], ['ParamKind', 'string'], ['Age', 'string']], ['p1', 1, '<unset>'], ['p2', 2, 'v1/ConfigMap']]);
  expect(await table(VAPB)).to.deep.equal([
    [['Name', 'string'], ['PolicyName', 'string'], ['ParamRef', 'string'], ['Age', 'string']], ['b1', 'p1', '<unset>'], ['b2', 'p1', '<unset>'],
    ['b3', 'p2', '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[v1 v2],},LabelSelectorRequirement{Key:e,Operator:Exists,Values:[],},},}'],
    ['b4', 'p2', 'ns/n'], ['b5', 'p2', '*/n'],
  ]);
  // Hostile input: prototype keys and nulls are data; a huge number does not decode.
  const proto = answered<Json>(await s('POST', VAP, '{"metadata":{"name":"proto"},"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],"namespaceSelector":null},"validations":[{"expression":"object.data[\'__proto__\'] == \'x\'","message":null}]}}'), 201);
  expect(proto.spec).to.deep.equal({
    matchConstraints: { namespaceSelector: {}, objectSelector: {}, resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent' }, validations: [{ expression: "object.data['__proto__'] == 'x'" }], failurePolicy: 'Fail',
  });
  refused(await s('POST', VAP, '{"metadata":{"name":"proto2"},"spec":{"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],"objectSelector":{"matchLabels":{"__proto__":"x"}}},"validations":[{"expression":"true"}]}}'),
    invalid('ValidatingAdmissionPolicy', 'proto2', [`spec.matchConstraints.objectSelector.matchLabels: Invalid value: "__proto__": ${nameRule}`]));
  const huge = await s('POST', VAPB, '{"metadata":{"name":"huge"},"spec":{"policyName":"p1","validationActions":["Audit"],"matchResources":{"namespaceSelector":{"matchLabels":{"a":1e400}}}}}');
  expect([huge.status, huge.message]).to.deep.equal([400, 'ValidatingAdmissionPolicyBinding in version "v1" cannot be handled as a ValidatingAdmissionPolicyBinding: json: cannot unmarshal number into Go struct field LabelSelector.spec.matchResources.namespaceSelector.matchLabels of type string']);
}

async function admission(s: Send): Promise<void> {
  const dry = `${CM}?dryRun=All`;
  // Deny: the first failed validation of the first denying binding, wrapped as the Forbidden error of the
  // request's resource, with the validation's reason (Invalid by default) and its code.
  await s('POST', VAP, policy('data', { matchConstraints: configMaps('data', ['CREATE']), validations: [{ expression: 'object.data.size() < 3' }] }));
  await s('POST', VAPB, binding('data', { policyName: 'data', validationActions: ['Deny'] }));
  const three = { a: '1', b: '2', c: '3' };
  await until(() => s('POST', dry, configMap('probe', { scenario: 'data' }, three)), (a) => a.status === 422);
  denied(await s('POST', CM, configMap('cm1', { scenario: 'data' }, three)), 422, "configmaps \"cm1\" is forbidden: ValidatingAdmissionPolicy 'data' with binding 'data' denied request: failed expression: object.data.size() < 3");
  denied(await s('POST', CM, configMap('cm2', { scenario: 'data' })), 422, "configmaps \"cm2\" is forbidden: ValidatingAdmissionPolicy 'data' with binding 'data' denied request: expression 'object.data.size() < 3' resulted in error: no such key: data");
  // A generated name is the name the request is known by.
  const generated = await s('POST', CM, JSON.stringify({ metadata: { generateName: 'gen-', labels: { scenario: 'data' } }, data: three }));
  expect([generated.status, generated.message.replace(/gen-[a-z0-9]{5}/, 'gen-XXXXX')]).to.deep.equal([422, "configmaps \"gen-XXXXX\" is forbidden: ValidatingAdmissionPolicy 'data' with binding 'data' denied request: failed expression: object.data.size() < 3"]);
  expect(answered<Json>(await s('POST', CM, configMap('cm3', { scenario: 'data' }, { a: '1' })), 201).data).to.deep.equal({ a: '1' });
  // Not this operation, not these labels: allowed.
  expect((await s('PUT', `${CM}/cm3`, JSON.stringify({ ...JSON.parse(configMap('cm3', { scenario: 'data' }, three)) as Json, metadata: { name: 'cm3', labels: { scenario: 'data' } } }))).status).to.equal(200);
  expect((await s('POST', dry, configMap('cm4', { scenario: 'other' }, three))).status).to.equal(201);

  // Messages and reasons, warned (the Warn action), audited (nothing to see), denied for a DELETE only:
  // messageExpression trimmed, else the message, else the expression; a failing expression is ignored
  // under failurePolicy Ignore; warnings are sent once each, with a denial too.
  await s('POST', VAP, policy('w', {
    failurePolicy: 'Ignore', matchConstraints: configMaps('w'),
    validations: [
      { expression: "object.data.x == 'ok'", message: '  x must be ok  ' }, { expression: 'false', messageExpression: "'  two ' + string(1) + '  '", reason: 'Forbidden' },
      { expression: 'false', messageExpression: "''", message: 'fallback' }, { expression: 'false', messageExpression: "'a\\nb'" },
      { expression: 'false', messageExpression: 'string(object.data.nope)', reason: 'RequestEntityTooLarge' }, { expression: 'oldObject == null' },
    ],
  }));
  await s('POST', VAPB, binding('w', { policyName: 'w', validationActions: ['Warn', 'Audit'] }));
  await s('POST', VAPB, binding('w2', { policyName: 'w', validationActions: ['Deny'], matchResources: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] }] } }));
  const warned = (...messages: string[]): string[] => messages.map((m) => `Validation failed for ValidatingAdmissionPolicy 'w' with binding 'w': ${m}`);
  await until(() => s('POST', dry, configMap('w0', { scenario: 'w' }, { x: 'no' })), (a) => a.warnings.length > 0);
  const created = await s('POST', CM, configMap('w1', { scenario: 'w' }, { x: 'no' }));
  expect([created.status, created.warnings]).to.deep.equal([201, warned('x must be ok', 'two 1', 'fallback', 'failed expression: false')]);
  const updated = await s('PUT', `${CM}/w1`, configMap('w1', { scenario: 'w' }, { x: 'ok' }));
  expect([updated.status, updated.warnings]).to.deep.equal([200, warned('two 1', 'fallback', 'failed expression: false', 'failed expression: oldObject == null')]);
  await until(() => s('DELETE', `${CM}/w1?dryRun=All`), (a) => a.status === 403);
  const deleted = await s('DELETE', `${CM}/w1`);
  denied(deleted, 403, "configmaps \"w1\" is forbidden: ValidatingAdmissionPolicy 'w' with binding 'w2' denied request: two 1");
  expect(deleted.warnings).to.deep.equal(warned('two 1', 'fallback', 'failed expression: false', 'failed expression: oldObject == null'));

  // Variables (lazy, once each, typed), match conditions (false: not applied; an error: the failure
  // policy), the authorizer (this user is in system:masters; a service account without roles is not).
  await s('POST', VAP, policy('vars', {
    matchConstraints: configMaps('vars', ['CREATE']),
    matchConditions: [{ name: 'not-skipped', expression: "!('skip' in object.metadata.labels)" }, { name: 'checked', expression: "object.metadata.labels.check == 'yes'" }],
    variables: [
      { name: 'name', expression: 'object.metadata.name' }, { name: 'size', expression: 'variables.name.size()' }, { name: 'bad', expression: 'object.nope' },
      { name: 'allowed', expression: "authorizer.group('').resource('secrets').namespace('default').check('get')" },
      { name: 'sa', expression: "authorizer.serviceAccount('default', 'robot').group('').resource('secrets').namespace('default').check('get')" },
      { name: 'rr', expression: "authorizer.requestResource.check('create')" },
    ],
    validations: [
      { expression: 'variables.size <= 8', messageExpression: "'name ' + variables.name + ' is ' + string(variables.size) + ' long'" },
      { expression: '!has(object.data) || has(object.data.sa) || variables.bad == 1' },
      { expression: "!has(object.data) || !has(object.data.sa) || (!variables.sa.allowed() && variables.sa.reason() == '' && !variables.sa.errored() && variables.sa.error() == '')", message: 'sa' },
      { expression: "!has(object.data) || !has(object.data.sa) || (variables.allowed.allowed() && variables.allowed.reason() == '' && variables.rr.allowed())", message: 'me' },
      { expression: "!has(object.data) || !has(object.data.sa) || (authorizer.path('/healthz').check('get').allowed() && !authorizer.serviceAccount('default', 'robot').path('/healthz').check('get').allowed())", message: 'path' },
      { expression: "!has(object.data) || !has(object.data.sa) || object.data.sa != 'message'", messageExpression: "'sa allowed: ' + string(variables.sa.allowed())", message: 'the authorizer is not bound in messages' },
    ],
  }));
  await s('POST', VAPB, binding('vars', { policyName: 'vars', validationActions: ['Deny'] }));
  const vars = (name: string, labels: Json, data?: Json): Promise<Answer> => s('POST', dry, configMap(name, { scenario: 'vars', ...labels }, data));
  await until(() => vars('toolongname', { check: 'yes' }), (a) => a.status === 422);
  denied(await vars('toolongname', { check: 'yes' }), 422, "configmaps \"toolongname\" is forbidden: ValidatingAdmissionPolicy 'vars' with binding 'vars' denied request: name toolongname is 11 long");
  expect((await vars('toolongname', { check: 'yes', skip: '' })).status).to.equal(201);
  expect((await vars('toolongname', { check: 'no' })).status).to.equal(201);
  denied(await vars('toolongname', {}), 422, "configmaps \"toolongname\" is forbidden: ValidatingAdmissionPolicy 'vars' with binding 'vars' denied request: expression 'object.metadata.labels.check == 'yes'' resulted in error: no such key: check");
  denied(await vars('short', { check: 'yes' }, { a: 'b' }), 422, "configmaps \"short\" is forbidden: ValidatingAdmissionPolicy 'vars' with binding 'vars' denied request: expression '!has(object.data) || has(object.data.sa) || variables.bad == 1' resulted in error: composited variable \"bad\" fails to evaluate: no such key: nope");
  expect((await vars('short', { check: 'yes' }, { sa: 'yes' })).status).to.equal(201);
  denied(await vars('short', { check: 'yes' }, { sa: 'message' }), 422, "configmaps \"short\" is forbidden: ValidatingAdmissionPolicy 'vars' with binding 'vars' denied request: the authorizer is not bound in messages");

  // The request as the expressions see it: attributes, options, the namespace object (none for a namespace,
  // whose namespace is its own name; none in match conditions), old and new objects.
  await s('POST', VAP, policy('req', {
    matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['configmaps', 'namespaces', 'deployments/status'] }] },
    matchConditions: [{ name: 'req', expression: "namespaceObject == null && (object != null ? object : oldObject).metadata.name.startsWith('req')" }],
    validations: [{
      expression: 'false',
      messageExpression: "'ns=' + (has(request.namespace) ? request.namespace : '<none>') + ' name=' + (has(request.name) ? request.name : '<none>') + ' op=' + request.operation" +
        " + ' dry=' + string(request.dryRun) + ' sub=' + (has(request.subResource) ? request.subResource + '/' + request.requestSubResource : '<none>')" +
        " + ' opts=' + request.options.kind + '/' + request.options.apiVersion + (has(request.options.dryRun) ? '/' + request.options.dryRun.join(',') : '')" +
        " + ' kind=' + request.kind.group + '/' + request.kind.version + '/' + request.kind.kind + ' res=' + request.resource.resource + ' rk=' + request.requestKind.kind" +
        " + ' groups=' + string('system:masters' in request.userInfo.groups) + ' extra=' + string(has(request.userInfo.extra))" +
        " + ' nsobj=' + (namespaceObject == null ? 'null' : namespaceObject.metadata.name + ':' + string(has(namespaceObject.metadata.labels)) + string(has(namespaceObject.metadata.UID)) + string(has(namespaceObject.metadata.generateName)) + namespaceObject.status.phase + ':' + namespaceObject.spec.finalizers.join(','))" +
        " + ' old=' + string(oldObject == null) + ' obj=' + string(object == null)",
    }],
  }));
  const deployment = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'req-d' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
  const D = '/apis/apps/v1/namespaces/default/deployments';
  const d = answered<Json & { metadata: Json }>(await s('POST', D, deployment), 201);
  expect((await s('POST', CM, configMap('req-u', {}))).status).to.equal(201);
  await s('POST', VAPB, binding('req', { policyName: 'req', validationActions: ['Deny'] }));
  const req = (a: Answer): string => a.message.slice(a.message.indexOf('denied request: ') + 16);
  await until(() => s('POST', dry, configMap('req', {})), (a) => a.status === 422);
  expect(req(await s('POST', dry, configMap('req', {})))).to.equal('ns=default name=req op=CREATE dry=true sub=<none> opts=CreateOptions/meta.k8s.io/v1/All kind=/v1/ConfigMap res=configmaps rk=ConfigMap groups=true extra=false nsobj=default:truefalsefalseActive:kubernetes old=true obj=false');
  expect(req(await s('POST', '/api/v1/namespaces?dryRun=All', JSON.stringify({ metadata: { name: 'reqns' } })))).to.equal('ns=reqns name=reqns op=CREATE dry=true sub=<none> opts=CreateOptions/meta.k8s.io/v1/All kind=/v1/Namespace res=namespaces rk=Namespace groups=true extra=false nsobj=null old=true obj=false');
  expect(req(await s('PUT', `${CM}/req-u`, configMap('req-u', { x: 'y' })))).to.equal('ns=default name=req-u op=UPDATE dry=false sub=<none> opts=UpdateOptions/meta.k8s.io/v1 kind=/v1/ConfigMap res=configmaps rk=ConfigMap groups=true extra=false nsobj=default:truefalsefalseActive:kubernetes old=false obj=false');
  expect(req(await s('DELETE', `${CM}/req-u?dryRun=All`))).to.equal('ns=default name=req-u op=DELETE dry=true sub=<none> opts=DeleteOptions/meta.k8s.io/v1/All kind=/v1/ConfigMap res=configmaps rk=ConfigMap groups=true extra=false nsobj=default:truefalsefalseActive:kubernetes old=false obj=true');
  expect(req(await s('PUT', `${D}/req-d/status`, JSON.stringify({ ...d, status: { replicas: 1 } })))).to.equal('ns=default name=req-d op=UPDATE dry=false sub=status/status opts=UpdateOptions/meta.k8s.io/v1 kind=apps/v1/Deployment res=deployments rk=Deployment groups=true extra=false nsobj=default:truefalsefalseActive:kubernetes old=false obj=false');
  // The deployment itself is not matched (only its status).
  expect((await s('PATCH', `${D}/req-d`, JSON.stringify({ metadata: { labels: { x: 'y' } } }), MERGE)).status).to.equal(200);
}

async function params(s: Send): Promise<void> {
  const D = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;
  const deployment = (name: string, replicas: number): string => JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
  for (const ns of ['other', 'third']) await s('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns, labels: { team: ns } } }));
  await s('POST', CM, configMap('limits', { kind: 'limit' }, { max: '2' }));
  await s('POST', '/api/v1/namespaces/other/configmaps', configMap('limits', { kind: 'limit' }, { max: '3' }));
  // Params by name, in the request's namespace: the ConfigMap (with its kind and apiVersion).
  await s('POST', VAP, policy('pp', {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
    validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'replicas ' + string(object.spec.replicas) + ' over ' + params.data.max + ' from ' + params.metadata.namespace + '/' + params.metadata.name + ' kind=' + params.kind + ' av=' + params.apiVersion" }],
  }));
  await s('POST', VAPB, binding('pp-name', { policyName: 'pp', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }));
  await untilDenied(() => s('POST', `${D('default')}?dryRun=All`, deployment('d1', 5)), 422, "deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-name' denied request: replicas 5 over 2 from default/limits kind=ConfigMap av=v1");
  denied(await s('POST', D('default'), deployment('d1', 5)), 422, "deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-name' denied request: replicas 5 over 2 from default/limits kind=ConfigMap av=v1");
  denied(await s('POST', D('other'), deployment('d1', 5)), 422, "deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-name' denied request: replicas 5 over 3 from other/limits kind=ConfigMap av=v1");
  expect((await s('POST', D('other'), deployment('d1', 3))).status).to.equal(201);
  denied(await s('POST', D('third'), deployment('d1', 1)), 422, "deployments.apps \"d1\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-name' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
  // Allow: no param, no validation.
  const b = answered<Json & { metadata: Json }>(await s('GET', `${VAPB}/pp-name`));
  expect((await s('PUT', `${VAPB}/pp-name`, JSON.stringify({ ...b, spec: { ...(b.spec as Json), paramRef: { name: 'limits', parameterNotFoundAction: 'Allow' } } }))).status).to.equal(200);
  await until(() => s('POST', `${D('third')}?dryRun=All`, deployment('d1', 1)), (a) => a.status === 201);
  // By selector, in the namespace named: each param is checked.
  await s('DELETE', `${VAPB}/pp-name`);
  await s('POST', VAPB, binding('pp-sel', { policyName: 'pp', validationActions: ['Deny'], paramRef: { selector: { matchLabels: { kind: 'limit' } }, namespace: 'other', parameterNotFoundAction: 'Allow' } }));
  await untilDenied(() => s('POST', `${D('third')}?dryRun=All`, deployment('d2', 4)), 422, "deployments.apps \"d2\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-sel' denied request: replicas 4 over 3 from other/limits kind=ConfigMap av=v1");
  denied(await s('POST', D('third'), deployment('d2', 4)), 422, "deployments.apps \"d2\" is forbidden: ValidatingAdmissionPolicy 'pp' with binding 'pp-sel' denied request: replicas 4 over 3 from other/limits kind=ConfigMap av=v1");
  await s('DELETE', `${VAPB}/pp-sel`);
  // Bindings that cannot be used: a namespace for a cluster-scoped param kind; a namespaced param kind for a
  // cluster-scoped request; a param kind that is not served (the policy's error). A binding whose policy
  // does not exist does nothing; under failurePolicy Ignore, an unusable binding does nothing either.
  const S = '/api/v1/namespaces/default/secrets';
  const secret = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name, labels: { scenario: 'params' } } });
  const secrets = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }], objectSelector: { matchLabels: { scenario: 'params' } } };
  await s('POST', VAP, policy('pc', { paramKind: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' }, matchConstraints: secrets, validations: [{ expression: 'params.value < 10' }] }));
  await s('POST', VAPB, binding('pc-ns', { policyName: 'pc', validationActions: ['Deny'], paramRef: { name: 'pc1', namespace: 'default', parameterNotFoundAction: 'Allow' } }));
  await untilDenied(() => s('POST', `${S}?dryRun=All`, secret('s1')), 422, "secrets \"s1\" is forbidden: ValidatingAdmissionPolicy 'pc' with binding 'pc-ns' denied request: failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
  denied(await s('POST', S, secret('s1')), 422, "secrets \"s1\" is forbidden: ValidatingAdmissionPolicy 'pc' with binding 'pc-ns' denied request: failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`");
  await s('DELETE', `${VAPB}/pc-ns`);
  // A cluster-scoped param by name.
  await s('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', JSON.stringify({ metadata: { name: 'pc1' }, value: 100 }));
  await s('POST', VAPB, binding('pc', { policyName: 'pc', validationActions: ['Deny'], paramRef: { name: 'pc1', parameterNotFoundAction: 'Deny' } }));
  await untilDenied(() => s('POST', `${S}?dryRun=All`, secret('s2')), 422, "secrets \"s2\" is forbidden: ValidatingAdmissionPolicy 'pc' with binding 'pc' denied request: failed expression: params.value < 10");
  denied(await s('POST', S, secret('s2')), 422, "secrets \"s2\" is forbidden: ValidatingAdmissionPolicy 'pc' with binding 'pc' denied request: failed expression: params.value < 10");
  await s('DELETE', `${VAPB}/pc`);
  await s('POST', VAP, policy('nokind', { paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' }, matchConstraints: secrets, validations: [{ expression: 'true' }] }));
  await s('POST', VAPB, binding('nokind', { policyName: 'nokind', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }));
  await untilDenied(() => s('POST', `${S}?dryRun=All`, secret('s3')), 422, "secrets \"s3\" is forbidden: ValidatingAdmissionPolicy 'nokind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nope'");
  denied(await s('POST', S, secret('s3')), 422, "secrets \"s3\" is forbidden: ValidatingAdmissionPolicy 'nokind' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nope'");
  expect((await s('PATCH', `${VAP}/nokind`, JSON.stringify({ spec: { failurePolicy: 'Ignore' } }), MERGE)).status).to.equal(200);
  await until(() => s('POST', `${S}?dryRun=All`, secret('s3')), (a) => a.status === 201);
  await s('POST', VAPB, binding('nopolicy', { policyName: 'doesnotexist', validationActions: ['Deny'] }));
  expect((await s('POST', S, secret('s4'))).status).to.equal(201);
  await s('POST', VAP, policy('nsp', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: { resourceRules: [{ apiGroups: ['scheduling.k8s.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['priorityclasses'] }] }, validations: [{ expression: 'false' }] }));
  await s('POST', VAPB, binding('nsp', { policyName: 'nsp', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Allow' } }));
  const pc2 = JSON.stringify({ metadata: { name: 'pc2' }, value: 1 });
  const nsp = "priorityclasses.scheduling.k8s.io \"pc2\" is forbidden: ValidatingAdmissionPolicy 'nsp' with binding 'nsp' denied request: failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources";
  await untilDenied(() => s('POST', '/apis/scheduling.k8s.io/v1/priorityclasses?dryRun=All', pc2), 422, nsp);
  denied(await s('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', pc2), 422, nsp);
  // Custom resources as params (cluster-scoped here), every one a selector picks.
  await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'limits.example.com' },
    spec: {
      group: 'example.com', scope: 'Cluster', names: { plural: 'limits', singular: 'limit', kind: 'Limit', listKind: 'LimitList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { max: { type: 'integer' } } } } } } }],
    },
  }));
  const limit = (name: string, max: number): string => JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Limit', metadata: { name }, spec: { max } });
  await until(() => s('POST', '/apis/example.com/v1/limits', limit('small', 1)), (a) => a.status === 201);
  expect((await s('POST', '/apis/example.com/v1/limits', limit('big', 5))).status).to.equal(201);
  await s('POST', VAP, policy('crp', {
    paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' }, matchConstraints: configMaps('crp', ['CREATE']),
    validations: [{ expression: 'size(object.data) <= params.spec.max', messageExpression: "'at most ' + string(params.spec.max) + ' (' + params.metadata.name + ' ' + params.kind + ' ' + params.apiVersion + ')'" }],
  }));
  await s('POST', VAPB, binding('crp', { policyName: 'crp', validationActions: ['Warn'], paramRef: { selector: {}, parameterNotFoundAction: 'Deny' } }));
  const crp = (data: Json): Promise<Answer> => s('POST', `${CM}?dryRun=All`, configMap('c1', { scenario: 'crp' }, data));
  const limited = (...lines: string[]): string[] => lines.map((l) => `Validation failed for ValidatingAdmissionPolicy 'crp' with binding 'crp': at most ${l}`);
  // The reference finds the kind of a new custom resource through a discovery cache it refreshes every 30 s.
  expect((await until(() => crp({ a: '1', b: '2' }), (a) => a.warnings.length > 0, 45)).warnings).to.deep.equal(limited('1 (small Limit example.com/v1)'));
  // The reference takes the params in the order of its cache.
  expect((await crp({ a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' })).warnings.sort()).to.deep.equal(limited('1 (small Limit example.com/v1)', '5 (big Limit example.com/v1)'));
}

async function matching(s: Send): Promise<void> {
  const rules = (resources: string[], more: Json = {}): Json => ({ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources, ...more });
  /** A policy that refuses what it matches with its own name (or what `expression` refuses), bound with `binding`. */
  const refuse = async (name: string, matchConstraints: Json, more: { expression?: string; messageExpression?: string; binding?: Json; policy?: Json } = {}): Promise<void> => {
    const validation = { expression: more.expression ?? 'false', ...(more.messageExpression === undefined ? { message: name } : { messageExpression: more.messageExpression }) };
    expect((await s('POST', VAP, policy(name, { matchConstraints, validations: [validation], ...more.policy }))).status).to.equal(201);
    expect((await s('POST', VAPB, binding(name, { policyName: name, validationActions: ['Deny'], ...more.binding }))).status).to.equal(201);
  };
  const cm = (ns: string, name: string, labels: Json = {}): Promise<Answer> => s('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, configMap(name, labels));
  const refusal = (resource: string, name: string, policyName: string, bindingName = policyName, message = policyName): string =>
    `${resource} "${name}" is forbidden: ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}' denied request: ${message}`;
  await s('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'teama', labels: { team: 'a' } } }));
  await s('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } })),
    },
  }));
  // The namespace's labels; the object's (new or old); the names of a rule; rules excluded; a rule's scope;
  // a rule's `resource/*` (the resource itself too); the webhook configurations (the policies and their
  // bindings are exempt); a binding narrowing its policy; a custom resource's other version (Equivalent: the
  // object converted to the version matched) or not (Exact).
  await refuse('m-ns', { resourceRules: [rules(['configmaps'])], namespaceSelector: { matchLabels: { team: 'a' } } }, { expression: "!object.metadata.name.startsWith('m-ns')" });
  await refuse('m-obj', { resourceRules: [rules(['configmaps'])], objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] } }, {
    binding: { matchResources: { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] } } },
  });
  await s('POST', VAPB, binding('m-bns', { policyName: 'm-obj', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { team: 'a' } } } }));
  await refuse('m-names', { resourceRules: [rules(['configmaps'], { resourceNames: ['only-this'] })] });
  await refuse('m-excl', { resourceRules: [rules(['configmaps'])], excludeResourceRules: [rules(['configmaps'], { resourceNames: ['spared'] })], objectSelector: { matchLabels: { excl: 'yes' } } });
  await refuse('m-scope', { resourceRules: [rules(['*'], { scope: 'Cluster' })] }, { expression: "!object.metadata.name.startsWith('m-scope')" });
  await refuse('m-sub', { resourceRules: [rules(['deployments/*'], { apiGroups: ['apps'] })] }, { expression: "!object.metadata.name.startsWith('m-sub')" });
  await refuse('m-wh', { resourceRules: [rules(['validatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings'], { apiGroups: ['admissionregistration.k8s.io'] })] }, { expression: "!object.metadata.name.startsWith('m-wh')" });
  const widgets = (exact: boolean): Json => ({ resourceRules: [rules(['widgets'], { apiGroups: ['example.com'] })], ...(exact ? { matchPolicy: 'Exact' } : {}) });
  await refuse('m-eq', widgets(false), { messageExpression: "'m-eq ' + request.kind.version + ' ' + request.requestKind.version + ' ' + object.apiVersion + ' ' + string(object.spec.n)", binding: { matchResources: { objectSelector: { matchLabels: { eq: 'yes' } } } } });
  await refuse('m-ex', widgets(true), { messageExpression: "'m-ex ' + request.kind.version", binding: { matchResources: { objectSelector: { matchLabels: { ex: 'yes' } } } } });
  await untilDenied(() => cm('teama', 'm-ns1'), 422, refusal('configmaps', 'm-ns1', 'm-ns'));
  expect((await cm('default', 'm-ns1')).status).to.equal(201);
  await untilDenied(() => cm('default', 'x1', { tier: 'gold' }), 422, refusal('configmaps', 'x1', 'm-obj'));
  await untilDenied(() => cm('teama', 'x2', { tier: 'gold' }), 422, refusal('configmaps', 'x2', 'm-obj', 'm-bns'));
  expect((await cm('default', 'x3', { tier: 'silver' })).status).to.equal(201);
  await untilDenied(() => cm('default', 'only-this'), 422, refusal('configmaps', 'only-this', 'm-names'));
  expect((await cm('default', 'not-this')).status).to.equal(201);
  await untilDenied(() => cm('default', 'hit', { excl: 'yes' }), 422, refusal('configmaps', 'hit', 'm-excl'));
  expect((await cm('default', 'spared', { excl: 'yes' })).status).to.equal(201);
  await untilDenied(() => s('POST', '/api/v1/namespaces?dryRun=All', JSON.stringify({ metadata: { name: 'm-scope-ns' } })), 422, refusal('namespaces', 'm-scope-ns', 'm-scope'));
  expect((await cm('default', 'm-scope-cm')).status).to.equal(201);
  const deployment = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'm-sub' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
  await untilDenied(() => s('POST', '/apis/apps/v1/namespaces/default/deployments?dryRun=All', deployment), 422, refusal('deployments.apps', 'm-sub', 'm-sub'));
  await untilDenied(() => s('POST', `${AR}/validatingwebhookconfigurations?dryRun=All`, JSON.stringify({ metadata: { name: 'm-wh1' } })), 422, refusal('validatingwebhookconfigurations.admissionregistration.k8s.io', 'm-wh1', 'm-wh'));
  expect((await s('POST', `${VAP}?dryRun=All`, policy('m-wh2', { matchConstraints: { resourceRules: [rules(['pods'])] }, validations: [{ expression: 'true' }] }))).status).to.equal(201);
  expect((await s('POST', `${VAPB}?dryRun=All`, binding('m-wh3', { policyName: 'x', validationActions: ['Deny'] }))).status).to.equal(201);
  const widget = (version: string, labels: Json): Promise<Answer> => s('POST', `/apis/example.com/${version}/namespaces/default/widgets?dryRun=All`, JSON.stringify({ apiVersion: `example.com/${version}`, kind: 'Widget', metadata: { name: 'w1', labels }, spec: { n: 1 } }));
  await untilDenied(() => widget('v2', { eq: 'yes' }), 422, refusal('widgets.example.com', 'w1', 'm-eq', 'm-eq', 'm-eq v1 v2 example.com/v1 1'));
  await untilDenied(() => widget('v1', { ex: 'yes' }), 422, refusal('widgets.example.com', 'w1', 'm-ex', 'm-ex', 'm-ex v1'));
  expect((await widget('v2', { ex: 'yes' })).status).to.equal(201);

  // An audit annotation that fails denies under failurePolicy Fail, whatever the actions; match conditions
  // that fail are reported together (here as a warning).
  await s('POST', VAP, policy('aud', { matchConstraints: configMaps('aud'), validations: [{ expression: 'true' }], auditAnnotations: [{ key: 'a', valueExpression: 'string(object.nope)' }, { key: 'b', valueExpression: "'x'" }] }));
  await s('POST', VAPB, binding('aud', { policyName: 'aud', validationActions: ['Audit'] }));
  await untilDenied(() => s('POST', `${CM}?dryRun=All`, configMap('a1', { scenario: 'aud' })), 422, "configmaps \"a1\" is forbidden: ValidatingAdmissionPolicy 'aud' with binding 'aud' denied request: expression 'string(object.nope)' resulted in error: no such key: nope");
  await s('POST', VAP, policy('mc2', { matchConstraints: configMaps('mc2'), matchConditions: [{ name: 'a', expression: 'object.x == 1' }, { name: 'b', expression: 'object.y == 1' }, { name: 'c', expression: 'true' }], validations: [{ expression: 'false' }] }));
  await s('POST', VAPB, binding('mc2', { policyName: 'mc2', validationActions: ['Warn'] }));
  const mc2 = await until(() => s('POST', `${CM}?dryRun=All`, configMap('m1', { scenario: 'mc2' })), (a) => a.warnings.length > 0);
  expect([mc2.status, mc2.warnings]).to.deep.equal([201, ["Validation failed for ValidatingAdmissionPolicy 'mc2' with binding 'mc2': [expression 'object.x == 1' resulted in error: no such key: x, expression 'object.y == 1' resulted in error: no such key: y]"]]);

  // Who asks: an impersonated user, in the request and to the authorizer.
  await s('POST', VAP, policy('imp', {
    matchConstraints: configMaps('imp'), variables: [{ name: 'd', expression: "authorizer.requestResource.check('create')" }],
    validations: [{ expression: "request.userInfo.username != 'bob'", messageExpression: "request.userInfo.username + ' ' + request.userInfo.groups.join(',') + ' ' + string(has(request.userInfo.uid)) + ' ' + string(has(request.userInfo.extra))" }, { expression: 'variables.d.allowed()', message: 'not allowed' }],
  }));
  await s('POST', VAPB, binding('imp', { policyName: 'imp', validationActions: ['Warn'] }));
  const bob = { 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' };
  const imp = await until(() => s('POST', `${CM}?dryRun=All`, configMap('i1', { scenario: 'imp' }), undefined, undefined, bob), (a) => a.warnings.length > 0);
  expect([imp.status, imp.warnings]).to.deep.equal([201, ["Validation failed for ValidatingAdmissionPolicy 'imp' with binding 'imp': bob system:masters,system:authenticated false false"]]);

  // A write through /scale is admitted as the Scale.
  const d = answered<Json>(await s('POST', '/apis/apps/v1/namespaces/default/deployments', deployment.replace('m-sub', 'sc')), 201);
  await refuse('sc', { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }] }, {
    expression: 'object.spec.replicas < 4',
    messageExpression: "object.kind + ' ' + object.apiVersion + ' ' + string(object.spec.replicas) + ' ' + string(oldObject.spec.replicas) + ' ' + request.kind.kind + ' ' + request.kind.group + ' ' + request.resource.resource + ' ' + object.metadata.name + ' ' + string(has(object.status))",
  });
  const scaled = "deployments.apps \"sc\" is forbidden: ValidatingAdmissionPolicy 'sc' with binding 'sc' denied request: Scale autoscaling/v1 4 1 Scale autoscaling deployments sc true";
  await untilDenied(() => s('PATCH', '/apis/apps/v1/namespaces/default/deployments/sc/scale?dryRun=All', JSON.stringify({ spec: { replicas: 4 } }), MERGE), 422, scaled);
  denied(await s('PUT', '/apis/apps/v1/namespaces/default/deployments/sc/scale', JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'sc', namespace: 'default' }, spec: { replicas: 4 } })), 422, scaled);
  expect((await s('PATCH', '/apis/apps/v1/namespaces/default/deployments/sc/scale', JSON.stringify({ spec: { replicas: 3 } }), MERGE)).status).to.equal(200);
  expect((await s('PATCH', '/apis/apps/v1/namespaces/default/deployments/sc', JSON.stringify({ spec: { replicas: 5 } }), MERGE)).status).to.equal(200);
  void d;

  // Cost: a match of 800 000 characters against a pattern of 39 costs 80 001 × 10; one holds in the
  // per-expression limit (1 000 000), two do not; thirteen do not hold in the policy's budget (10 000 000).
  const pattern = '^(ab|ba|aab|abb|bab|aba|bba|baa|xyzw)*c$';
  const over = `!('over' in object.data) || object.data.over.matches('${pattern}') || object.data.over.matches('${pattern}')`;
  await s('POST', VAP, policy('cost', { matchConstraints: configMaps('cost', ['CREATE']), validations: [{ expression: over }, ...Array.from({ length: 13 }, () => ({ expression: `!('s' in object.data) || !object.data.s.matches('${pattern}')` }))] }));
  await s('POST', VAPB, binding('cost', { policyName: 'cost', validationActions: ['Deny'] }));
  const long = 'ab'.repeat(400_000);
  await untilDenied(() => s('POST', `${CM}?dryRun=All`, configMap('c1', { scenario: 'cost' }, { over: long })), 422, `configmaps "c1" is forbidden: ValidatingAdmissionPolicy 'cost' with binding 'cost' denied request: expression '${over}' resulted in error: operation cancelled: actual cost limit exceeded`);
  denied(await s('POST', `${CM}?dryRun=All`, configMap('c2', { scenario: 'cost' }, { s: long })), 422, "configmaps \"c2\" is forbidden: ValidatingAdmissionPolicy 'cost' with binding 'cost' denied request: validation failed due to running out of cost budget, no further validation rules will be run");
  expect((await s('POST', `${CM}?dryRun=All`, configMap('c3', { scenario: 'cost' }, { s: 'ab'.repeat(300_000) }))).status).to.equal(201);

  // The deletes of a collection are admitted one by one, by no name (the refusal names `Unknown`).
  expect((await s('POST', CM, configMap('dc1', { scenario: 'dc' }))).status).to.equal(201);
  await s('POST', VAP, policy('dc', { matchConstraints: configMaps('dc', ['DELETE']), validations: [{ expression: 'false', messageExpression: "'name ' + request.name" }] }));
  await s('POST', VAPB, binding('dc', { policyName: 'dc', validationActions: ['Warn'] }));
  const collection = `${CM}?labelSelector=scenario%3Ddc&dryRun=All`;
  const warnedDelete = await until(() => s('DELETE', collection), (a) => a.warnings.length > 0);
  expect([warnedDelete.status, warnedDelete.warnings]).to.deep.equal([200, ["Validation failed for ValidatingAdmissionPolicy 'dc' with binding 'dc': failed expression: false"]]);
  const one = await s('DELETE', `${CM}/dc1?dryRun=All`);
  expect([one.status, one.warnings]).to.deep.equal([200, ["Validation failed for ValidatingAdmissionPolicy 'dc' with binding 'dc': name dc1"]]);
  expect((await s('PATCH', `${VAPB}/dc`, JSON.stringify({ spec: { validationActions: ['Deny'] } }), MERGE)).status).to.equal(200);
  await untilDenied(() => s('DELETE', collection), 422, "configmaps \"Unknown\" is forbidden: ValidatingAdmissionPolicy 'dc' with binding 'dc' denied request: failed expression: false");

  // An eviction is admitted as the Eviction it creates (a v1beta1 one as v1); the pod it deletes is not.
  const podBody = JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ev1' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  expect((await s('POST', '/api/v1/namespaces/default/pods', podBody)).status).to.equal(201);
  await s('POST', VAP, policy('ev', {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['pods/eviction', 'pods'] }] },
    matchConditions: [{ name: 'ev', expression: "(object != null ? object : oldObject).metadata.name.startsWith('ev')" }],
    validations: [{ expression: 'false', messageExpression: "request.operation + ' ' + request.kind.group + '/' + request.kind.version + '/' + request.kind.kind + ' ' + request.resource.resource + ' ' + request.subResource + ' ' + object.kind + ' ' + object.apiVersion + ' ' + string(object.deleteOptions.gracePeriodSeconds) + ' ' + string(oldObject == null)" }],
  }));
  await s('POST', VAPB, binding('ev', { policyName: 'ev', validationActions: ['Warn'] }));
  const eviction = (version: string, grace: number): string => JSON.stringify({ apiVersion: `policy/${version}`, kind: 'Eviction', metadata: { name: 'ev1' }, deleteOptions: { gracePeriodSeconds: grace } });
  const evicted = await until(() => s('POST', '/api/v1/namespaces/default/pods/ev1/eviction?dryRun=All', eviction('v1beta1', 3)), (a) => a.warnings.length > 0);
  expect([evicted.status, evicted.warnings]).to.deep.equal([201, ["Validation failed for ValidatingAdmissionPolicy 'ev' with binding 'ev': CREATE policy/v1/Eviction pods eviction Eviction policy/v1 3 true"]]);
  expect((await s('PATCH', `${VAPB}/ev`, JSON.stringify({ spec: { validationActions: ['Deny'], matchResources: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] }] } } }), MERGE)).status).to.equal(200);
  await untilDenied(() => s('DELETE', '/api/v1/namespaces/default/pods/ev1?dryRun=All'), 422, "pods \"ev1\" is forbidden: ValidatingAdmissionPolicy 'ev' with binding 'ev' denied request: failed expression: false");
  expect((await s('POST', '/api/v1/namespaces/default/pods/ev1/eviction', eviction('v1', 0))).status).to.equal(201);
  expect((await s('GET', '/api/v1/namespaces/default/pods/ev1')).status).to.equal(404);

  // Hostile data: prototype keys are data like any other.
  await s('POST', VAP, policy('proto', {
    matchConstraints: configMaps('proto', ['CREATE']),
    validations: [{ expression: "!('__proto__' in object.data) && !has(object.data.constructor)", messageExpression: "object.data['__proto__'] + ' ' + object.data.constructor + ' ' + string(size(object.data))" }],
  }));
  await s('POST', VAPB, binding('proto', { policyName: 'proto', validationActions: ['Deny'] }));
  const hostile = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p1","labels":{"scenario":"proto"}},"data":{"__proto__":"x","constructor":"y"}}';
  await untilDenied(() => s('POST', `${CM}?dryRun=All`, hostile), 422, "configmaps \"p1\" is forbidden: ValidatingAdmissionPolicy 'proto' with binding 'proto' denied request: x y 2");

  // The options of the operation, as the request set them (an apply that creates: CreateOptions).
  await s('POST', VAP, policy('opts', {
    matchConstraints: configMaps('opts'),
    validations: [{ expression: 'false', messageExpression: "request.options.map(k, string(k) + '=' + (type(request.options[k]) == string ? request.options[k] : request.options[k].join('+'))).join(',')" }],
  }));
  await s('POST', VAPB, binding('opts', { policyName: 'opts', validationActions: ['Deny'] }));
  // Go's maps have no order: the options sorted.
  const optionsOf = (a: Answer): string => a.message.slice(a.message.indexOf('denied request: ') + 16).split(',').sort().join(',');
  const opts = await until(() => s('POST', `${CM}?dryRun=All&fieldManager=me&fieldValidation=Ignore`, configMap('o1', { scenario: 'opts' })), (a) => a.status === 422);
  expect(optionsOf(opts)).to.equal('apiVersion=meta.k8s.io/v1,dryRun=All,fieldManager=me,fieldValidation=Ignore,kind=CreateOptions');
  expect(optionsOf(await s('POST', `${CM}?fieldManager=me`, configMap('o1', { scenario: 'opts' })))).to.equal('apiVersion=meta.k8s.io/v1,fieldManager=me,kind=CreateOptions');
  expect(optionsOf(await s('PATCH', `${CM}/o2?fieldManager=apply&force=true`, configMap('o2', { scenario: 'opts' }), 'application/apply-patch+yaml'))).to.equal('apiVersion=meta.k8s.io/v1,fieldManager=apply,kind=CreateOptions');
}

describeOnBothServers('ValidatingAdmissionPolicies and bindings (storage)', storage);
describeOnBothServers('ValidatingAdmissionPolicy admission', admission);
describeOnBothServers('ValidatingAdmissionPolicy params', params);
describeOnBothServers('ValidatingAdmissionPolicy matching', matching);
void createWidgets;
