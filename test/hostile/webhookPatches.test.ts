// A mutating admission webhook's patches, on both servers (kube-apiserver 1.34.4,
// admission/plugin/webhook/mutating/dispatcher.go; gopkg.in/evanphx/json-patch.v4): an empty patch, or an empty
// list of operations, changes nothing (whatever its type); a patch that is not a list of operations is the
// call's failure (`received undecodable patch in webhook response: …`, so an Ignore policy lets the request
// through); a type other than JSONPatch is `unsupported patch type`; applying the patch and decoding its result
// fail the request whatever the policy, in json-patch's and encoding/json's words; a patch of a DELETE (no
// object) is refused. kubekit wrapped every one as the webhook's failure, refused a patch type before finding
// the patch empty, and decoded the result with the codec's 400. Every expected answer is the reference's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';
import { startWebhook, untilInForce } from './webhookServer.js';

const b64 = (x: unknown): string => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x)).toString('base64');

/** The webhook's response to a request about the ConfigMap of each name. */
const responses: Record<string, Record<string, unknown>> = {
  'empty-list': { patchType: 'JSONPatch', patch: b64([]) },
  'remove-missing': { patchType: 'JSONPatch', patch: b64([{ op: 'remove', path: '/spec/x' }]) },
  'not-json': { patchType: 'JSONPatch', patch: b64('xx') },
  'not-a-list': { patchType: 'JSONPatch', patch: b64({ op: 'add' }) },
  'a-string-operation': { patchType: 'JSONPatch', patch: b64(['add']) },
  'unknown-op': { patchType: 'JSONPatch', patch: b64([{ op: 'frob', path: '/a' }]) },
  'no-op': { patchType: 'JSONPatch', patch: b64([{ path: '/a' }]) },
  'test-fails': { patchType: 'JSONPatch', patch: b64([{ op: 'test', path: '/metadata/name', value: 'other' }]) },
  'wrong-type': { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/data', value: 5 }]) },
  'unknown-field': { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/foo', value: 'bar' }]) },
  renamed: { patchType: 'JSONPatch', patch: b64([{ op: 'replace', path: '/metadata/name', value: 'other-name' }]) },
  'add-data': { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/data', value: { k: 'v' } }]) },
  'no-path': { patchType: 'JSONPatch', patch: b64([{ op: 'add', value: 1 }]) },
  'replace-no-path': { patchType: 'JSONPatch', patch: b64([{ op: 'replace', value: 1 }]) },
  'move-no-from': { patchType: 'JSONPatch', patch: b64([{ op: 'move', path: '/data' }]) },
  'copy-no-path': { patchType: 'JSONPatch', patch: b64([{ op: 'copy', from: '/metadata/name' }]) },
  'test-path-number': { patchType: 'JSONPatch', patch: b64([{ op: 'test', path: 5 }]) },
  escaped: { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels', value: { 'a/b': 'c' } }, { op: 'add', path: '/metadata/labels/x~1y', value: 'z' }]) },
  'foo-type-empty-list': { patchType: 'Foo', patch: b64([]) },
  'foo-type': { patchType: 'Foo', patch: b64([{ op: 'add', path: '/data', value: { k: 'v' } }]) },
  'no-type': { patch: b64([]) },
  'type-no-patch': { patchType: 'JSONPatch' },
  'empty-type': { patchType: '', patch: b64([]) },
};

const internal = (why: string): [number, string] => [500, `Internal error occurred: ${why}`];
const callFailed = (why: string): [number, string] => internal(`failed calling webhook "patches.example.com": ${why}`);
const expected: Record<string, [number, string] | [number, Record<string, unknown>]> = {
  'empty-list': [201, { name: 'empty-list' }],
  'remove-missing': internal('remove operation does not apply: doc is missing path: "/spec/x": missing value'),
  'not-json': callFailed('received undecodable patch in webhook response: invalid character \'x\' looking for beginning of value'),
  'not-a-list': callFailed('received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch'),
  'a-string-operation': callFailed('received undecodable patch in webhook response: json: cannot unmarshal string into Go value of type jsonpatch.Operation'),
  'unknown-op': internal('Unexpected kind: frob'),
  'no-op': internal('Unexpected kind: unknown'),
  'test-fails': internal('testing value /metadata/name failed: test failed'),
  'wrong-type': internal('json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string'),
  'unknown-field': [201, { name: 'unknown-field' }],
  renamed: [201, { name: 'other-name' }],
  'add-data': [201, { name: 'add-data', data: { k: 'v' } }],
  'no-path': internal('add operation failed to decode path: missing value'),
  'replace-no-path': internal('replace operation failed to decode path: operation missing path field: missing value'),
  'move-no-from': internal('move operation failed to decode from: operation, missing from field: missing value'),
  'copy-no-path': internal('copy operation failed to decode path: missing value'),
  'test-path-number': internal('test operation failed to decode path: json: cannot unmarshal number into Go value of type string'),
  escaped: [201, { name: 'escaped', labels: { 'a/b': 'c', 'x/y': 'z' } }],
  'foo-type-empty-list': [201, { name: 'foo-type-empty-list' }],
  'foo-type': callFailed('unsupported patch type "Foo"'),
  'no-type': callFailed('received invalid webhook response: webhook returned response.patch but not response.patchType'),
  'type-no-patch': callFailed('received invalid webhook response: webhook returned response.patchType but not response.patch'),
  'empty-type': callFailed('received invalid webhook response: webhook returned invalid response.patchType of ""'),
};

async function run(s: Send): Promise<void> {
  const seen = new Set<string>();
  const server = await startWebhook((text, _req, res) => {
    const { request } = JSON.parse(text) as { request: { uid: string; name?: string; object?: { metadata: { name: string } } } };
    const name = request.object?.metadata.name ?? request.name ?? '';
    seen.add(name);
    // A DELETE (no object) is answered with a patch; so is a request whose name is not in the table.
    const response = responses[name] ?? { patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/data', value: { k: 'v' } }]) };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, allowed: true, ...response } }));
  });
  const url = `${server.url}/patch`;
  try {
    const hook = (name: string, failurePolicy: string, operations: string[], namespace: string): unknown => ({
      name, clientConfig: { url, caBundle: server.caBundle }, failurePolicy, sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5,
      rules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], namespaceSelector: { matchLabels: { hook: namespace } },
    });
    answered(await s('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'patches' },
      webhooks: [hook('patches.example.com', 'Fail', ['CREATE', 'DELETE'], 'fail'), hook('ignored.example.com', 'Ignore', ['CREATE'], 'ignore')],
    })), 201);
    for (const namespace of ['fail', 'ignore']) answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { hook: namespace } } })), 201);
    const create = async (namespace: string, name: string): Promise<[number, string | Record<string, unknown>]> => {
      const a = await s('POST', `/api/v1/namespaces/${namespace}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }));
      if (a.status !== 201) return [a.status, a.message];
      const o = JSON.parse(a.text) as { metadata: { name: string; labels?: unknown }; data?: unknown };
      return [201, { name: o.metadata.name, ...(o.data === undefined ? {} : { data: o.data }), ...(o.metadata.labels === undefined ? {} : { labels: o.metadata.labels }) }];
    };
    await untilInForce(async () => {
      await s('DELETE', '/api/v1/namespaces/ignore/configmaps/probe');
      await create('ignore', 'probe');
    }, () => seen.has('probe'));

    const got: Record<string, [number, string | Record<string, unknown>]> = {};
    for (const name of Object.keys(responses)) got[name] = await create('fail', name);
    expect(got).to.deep.equal(expected);
    // Under Ignore: an undecodable patch or an unsupported type lets the request through; a patch that does not
    // apply, or whose result does not decode, does not.
    expect([await create('ignore', 'not-json'), await create('ignore', 'foo-type'), await create('ignore', 'remove-missing'), await create('ignore', 'wrong-type')]).to.deep.equal([
      [201, { name: 'not-json' }], [201, { name: 'foo-type' }], expected['remove-missing'], expected['wrong-type'],
    ]);
    // A DELETE has no object to patch.
    const deleted = await s('DELETE', '/api/v1/namespaces/fail/configmaps/add-data');
    expect([deleted.status, deleted.message]).to.deep.equal(internal('admission webhook "patches.example.com" attempted to modify the object, which is not supported for this operation'));
  } finally {
    server.close();
  }
}

describeOnBothServers('mutating admission webhooks\' patches: empty, undecodable, of another type, failing to apply or to decode, kubekit and the real kube-apiserver', run);
