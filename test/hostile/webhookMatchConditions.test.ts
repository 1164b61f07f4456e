// Admission webhooks' match conditions (admissionregistration.k8s.io/v1 `matchConditions`, GA in 1.30), on both
// servers (kube-apiserver 1.34.4): validated as `validateMatchConditions` does (at most 64, qualified unique
// names, expressions that compile to a bool without params or variables), and evaluated before a webhook is
// called (admission/plugin/webhook/generic `ShouldCallHook`, matchconditions `Matcher`): a condition false skips
// the webhook; an error skips it under Ignore and under Fail refuses the request with a 403, before any
// validating webhook is called; a mutating webhook's conditions and object selector see the object the
// webhooks before it left. Validating webhooks are all called, whatever the others answer.
// kubekit stored the conditions and called every webhook regardless. Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, refused, type Send } from './sender.js';
import { startWebhook, untilInForce } from './webhookServer.js';

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const b64 = (x: unknown): string => Buffer.from(JSON.stringify(x)).toString('base64');

async function run(s: Send): Promise<void> {
  const calls: string[] = [];
  const server = await startWebhook((text, req, res) => {
    const { request } = JSON.parse(text) as { request: { uid: string; operation: string; name?: string; object?: { metadata: { name: string } } } };
    const hook = (req.url ?? '').split('?')[0].slice(1);
    calls.push(`${hook} ${request.operation} ${request.name ?? request.object?.metadata.name ?? ''}`);
    // The labeller adds a label; the deniers deny; the others allow.
    const patch = hook === 'labeller' ? { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels', value: { stage: 'labelled' } }]) } : {};
    const allowed = !hook.startsWith('denier');
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, allowed, ...patch, ...(allowed ? {} : { status: { message: `no, says ${hook}` } }) } }));
  });
  try {
    const hook = (name: string, failurePolicy: string, namespace: string, matchConditions: unknown[], operations = ['CREATE']): Record<string, unknown> => ({
      name: `${name}.example.com`, clientConfig: { url: `${server.url}/${name}`, caBundle: server.caBundle }, failurePolicy, sideEffects: 'None',
      admissionReviewVersions: ['v1'], timeoutSeconds: 5, rules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: { matchLabels: { conditions: namespace } }, matchConditions,
    });
    const configuration = (kind: string, name: string, webhooks: unknown[]): string => JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks });

    // Validation.
    refused(await s('POST', VWC, configuration('ValidatingWebhookConfiguration', 'bad', [hook('bad', 'Fail', 'x', [
      { name: '', expression: '' }, { name: 'Bad Name!', expression: 'object.' }, { name: 'a', expression: '1' }, { name: 'a', expression: 'params.x' },
      { name: 'b', expression: 'request.foo' }, { name: 'c', expression: 'namespaceObject.metadata.name == "x"' }, { name: 'd', expression: 'variables.x' },
      { name: 'x/y', expression: 'true' }, { name: 'e', expression: 'authorizer.group(\'\').resource(\'pods\').check(\'get\').allowed()' },
    ])])), 'ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [webhooks[0].matchConditions[0].expression: Required value, webhooks[0].matchConditions[0].name: Required value, '
      + 'webhooks[0].matchConditions[1].expression: Invalid value: "object.": compilation failed: ERROR: <input>:1:8: Syntax error: no viable alternative at input \'.\'\n | object.\n | .......^, '
      + 'webhooks[0].matchConditions[1].name: Invalid value: "Bad Name!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\'), '
      + 'webhooks[0].matchConditions[2].expression: Invalid value: "1": must evaluate to bool but got int, '
      + 'webhooks[0].matchConditions[3].expression: Invalid value: "params.x": compilation failed: ERROR: <input>:1:1: undeclared reference to \'params\' (in container \'\')\n | params.x\n | ^, webhooks[0].matchConditions[3].name: Duplicate value: "a", '
      + 'webhooks[0].matchConditions[4].expression: Invalid value: "request.foo": compilation failed: ERROR: <input>:1:8: undefined field \'foo\'\n | request.foo\n | .......^, '
      + 'webhooks[0].matchConditions[6].expression: Invalid value: "variables.x": compilation failed: ERROR: <input>:1:1: undeclared reference to \'variables\' (in container \'\')\n | variables.x\n | ^]');
    refused(await s('POST', MWC, configuration('MutatingWebhookConfiguration', 'many', [hook('many', 'Fail', 'x', Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })))])),
      'MutatingWebhookConfiguration.admissionregistration.k8s.io "many" is invalid: webhooks[0].matchConditions: Too many: 65: must have at most 64 items');

    // Evaluation.
    answered(await s('POST', VWC, configuration('ValidatingWebhookConfiguration', 'conditions', [
      hook('skipped', 'Fail', 'eval', [{ name: 'yes', expression: 'true' }, { name: 'no', expression: 'object.metadata.name != \'skip\'' }]),
      hook('failing', 'Fail', 'failing', [{ name: 'e1', expression: 'object.data.missing == \'x\'' }, { name: 'e2', expression: 'object.metadata.name != \'errfalse\'' }]),
      hook('failing-twice', 'Fail', 'twice', [{ name: 'e1', expression: 'object.data.missing == \'x\'' }, { name: 'e2', expression: 'object.data.absent == \'y\'' }]),
      hook('ignoring', 'Ignore', 'eval', [{ name: 'e', expression: 'object.data.missing == \'x\'' }]),
      hook('user', 'Fail', 'eval', [{ name: 'u', expression: 'request.userInfo.username != \'\' && request.operation == \'CREATE\' && request.kind.kind == \'ConfigMap\'' }]),
      hook('deleting', 'Fail', 'eval', [{ name: 'd', expression: 'request.operation == \'DELETE\' && oldObject.metadata.name == \'z\' && object == null' }], ['CREATE', 'DELETE']),
      hook('authorized', 'Fail', 'eval', [{ name: 'a', expression: 'authorizer.group(\'\').resource(\'pods\').check(\'get\').allowed() && authorizer.requestResource.check(\'create\').allowed()' }]),
      hook('denier-a', 'Fail', 'denying', []), hook('denier-b', 'Fail', 'denying', []),
    ])), 201);
    answered(await s('POST', MWC, configuration('MutatingWebhookConfiguration', 'conditions', [
      hook('labeller', 'Fail', 'mutating', [{ name: 'unlabelled', expression: '!has(object.metadata.labels)' }]),
      hook('sees-label', 'Fail', 'mutating', [{ name: 'labelled', expression: 'has(object.metadata.labels) && object.metadata.labels.stage == \'labelled\'' }]),
      { ...hook('selects-label', 'Fail', 'mutating', []), objectSelector: { matchLabels: { stage: 'labelled' } } },
    ])), 201);
    for (const namespace of ['eval', 'failing', 'twice', 'mutating', 'denying']) {
      answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { conditions: namespace } } })), 201);
    }
    const create = async (namespace: string, name: string): Promise<[number, string, string[]]> => {
      calls.length = 0;
      const a = await s('POST', `/api/v1/namespaces/${namespace}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }));
      return [a.status, a.status === 201 ? '' : a.message, [...calls].sort()];
    };
    await untilInForce(async () => {
      await s('DELETE', '/api/v1/namespaces/eval/configmaps/probe');
      await create('eval', 'probe');
    }, () => calls.some((c) => c.endsWith(' probe')));
    const forbidden = (name: string, why: string): string => `configmaps ${JSON.stringify(name)} is forbidden: ${why}`;
    const noSuchKey = 'expression \'object.data.missing == \'x\'\' resulted in error: no such key: missing';
    expect([
      await create('eval', 'plain'), await create('eval', 'skip'), await create('failing', 'f'), await create('failing', 'errfalse'),
      await create('twice', 't'), await create('eval', 'z'), await create('mutating', 'm'),
    ]).to.deep.equal([
      [201, '', ['authorized CREATE plain', 'skipped CREATE plain', 'user CREATE plain']],
      [201, '', ['authorized CREATE skip', 'user CREATE skip']],
      [403, forbidden('f', noSuchKey), []],
      [201, '', []],
      [403, forbidden('t', `[${noSuchKey}, expression 'object.data.absent == 'y'' resulted in error: no such key: absent]`), []],
      [201, '', ['authorized CREATE z', 'skipped CREATE z', 'user CREATE z']],
      // The labeller runs first (its condition holds on the object as sent); the next webhooks' condition and
      // object selector see its label.
      [201, '', ['labeller CREATE m', 'sees-label CREATE m', 'selects-label CREATE m']],
    ]);
    calls.length = 0;
    answered(await s('DELETE', '/api/v1/namespaces/eval/configmaps/z'));
    expect(calls).to.deep.equal(['deleting DELETE z']);
    // Validating webhooks are all called, in parallel, whatever the others answer; one denial is the answer (the
    // first to arrive on the apiserver).
    const [status, message, called] = await create('denying', 'd');
    expect([status, called]).to.deep.equal([400, ['denier-a CREATE d', 'denier-b CREATE d']]);
    expect(message).to.be.oneOf(['admission webhook "denier-a.example.com" denied the request: no, says denier-a', 'admission webhook "denier-b.example.com" denied the request: no, says denier-b']);
  } finally {
    server.close();
  }
}

describeOnBothServers('admission webhooks\' match conditions: validated, and evaluated before each call, kubekit and the real kube-apiserver', run);
