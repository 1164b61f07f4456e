// What an admission webhook that misbehaves makes of a request, on both servers (kube-apiserver 1.34.4): the
// apiserver calls it with client-go (rest/request.go `transformResponse` and `Result.Into`, with the webhook
// client's codec), checks the answer (admission/plugin/webhook/request/admissionreview.go
// `VerifyAdmissionResponse`), and words each failure as Go does: the transport's errors (`dial tcp …:
// connect: connection refused`, `EOF`, crypto/x509's), an error status's Status message or client-go's words
// for its code, a body that does not decode (`couldn't get version/kind; json parse error: …`, encoding/json's
// type errors), an answer that is invalid (`received invalid webhook response: …`). An answer without
// `allowed` denies the request. kubekit's messages were Node's and its own, a validating webhook's patch was
// ignored, and an absent `allowed` was a 500. Every expected answer is the reference's.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCertificates, type GeneratedCertificates } from '@kubekit/core';
import { answered, describeOnBothServers, type Send } from './sender.js';
import { startWebhook, untilInForce } from './webhookServer.js';

const fixturesDir = join(import.meta.dirname, '..', '..', 'packages', 'apiserver', 'test', 'fixtures', 'webhook-tls');

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const V1 = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' };

/** Each answer of the webhook, by the name of the ConfigMap it is asked about: a status, a content type and a body. */
const answers: Record<string, (uid: string) => [number, string, string] | 'close'> = {
  allowed: (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: true } })],
  closed: () => 'close',
  'status-500-text': () => [500, 'text/plain', 'boom'],
  'status-500-none': () => [500, '', ' oops '],
  'status-404-status': () => [404, 'application/json', '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nope","code":404}'],
  'status-403-text': () => [403, 'text/plain', 'denied by x\n'],
  'status-503-json': () => [503, 'application/json', '{"a":1}'],
  'status-418': () => [418, 'text/plain', 'teapot'],
  'status-204': () => [204, 'application/json', ''],
  empty: () => [200, 'application/json', ''],
  'bad-json': () => [200, 'application/json', '{not json'],
  trailing: (uid) => [200, 'application/json', `${JSON.stringify({ ...V1, response: { uid, allowed: true } })}xx`],
  'text-200': () => [200, 'text/plain', 'ok'],
  array: () => [200, 'application/json', '[1]'],
  'null-body': () => [200, 'application/json', 'null'],
  'no-response': () => [200, 'application/json', JSON.stringify(V1)],
  'no-kind': (uid) => [200, 'application/json', JSON.stringify({ response: { uid, allowed: true } })],
  'no-kind-v1': (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', response: { uid, allowed: true } })],
  v1beta1: (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid, allowed: true } })],
  'config-map': (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', response: { uid, allowed: true } })],
  'status-200': () => [200, 'application/json', '{"kind":"Status","apiVersion":"v1","status":"Failure","message":"m"}'],
  'foo-kind': (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'Foo', response: { uid, allowed: true } })],
  'bad-group-version': (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'a/b/c', kind: 'AdmissionReview', response: { uid, allowed: true } })],
  'number-kind': (uid) => [200, 'application/json', JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 5, response: { uid, allowed: true } })],
  'other-uid': () => [200, 'application/json', JSON.stringify({ ...V1, response: { uid: 'x', allowed: true } })],
  'upper-keys': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { UID: uid, Allowed: true } })],
  'allowed-string': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: 'yes', warnings: 'w' } })],
  'no-allowed': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid } })],
  'warning-number': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: true, warnings: [1, 'w'] } })],
  'response-string': () => [200, 'application/json', JSON.stringify({ ...V1, response: 'x' })],
  'status-string': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: false, status: 'x' } })],
  'bad-base64': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: true, patch: '!!!' } })],
  'validating-patch': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: true, patch: 'W10=', patchType: 'JSONPatch' } })],
  'validating-patch-type': (uid) => [200, 'application/json', JSON.stringify({ ...V1, response: { uid, allowed: true, patchType: 'JSONPatch' } })],
  'repeated-key': (uid) => [200, 'application/json', `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"${uid}","allowed":false,"allowed":true}}`],
};

const expected: Record<string, [number, string]> = {
  allowed: [201, ''],
  closed: [500, 'failed to call webhook: Post "URL?timeout=5s": EOF'],
  'status-500-text': [500, 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding'],
  'status-500-none': [500, 'failed to call webhook: an error on the server ("oops") has prevented the request from succeeding'],
  'status-404-status': [500, 'failed to call webhook: nope'],
  'status-403-text': [500, 'failed to call webhook: denied by x'],
  'status-503-json': [500, 'failed to call webhook: the server is currently unable to handle the request'],
  'status-418': [500, 'failed to call webhook: the server responded with the status code 418 but did not return more information'],
  'status-204': [500, 'failed to call webhook: 0-length response with status code: 204 and content type: application/json'],
  empty: [500, 'failed to call webhook: 0-length response with status code: 200 and content type: application/json'],
  'bad-json': [500, 'failed to call webhook: couldn\'t get version/kind; json parse error: invalid character \'n\' looking for beginning of object key string'],
  trailing: [500, 'failed to call webhook: couldn\'t get version/kind; json parse error: invalid character \'x\' after top-level value'],
  'text-200': [500, 'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
  array: [500, 'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
  'null-body': [500, 'received invalid webhook response: webhook response was absent'],
  'no-response': [500, 'received invalid webhook response: webhook response was absent'],
  'no-kind': [500, 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
  'no-kind-v1': [500, 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind='],
  v1beta1: [500, 'failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion'],
  'config-map': [500, 'failed to call webhook: no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"'],
  'status-200': [500, 'failed to call webhook: converting (v1.Status) to (v1.AdmissionReview): unknown conversion'],
  'foo-kind': [500, 'failed to call webhook: no kind "Foo" is registered for version "admission.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110"'],
  'bad-group-version': [500, 'failed to call webhook: unexpected GroupVersion string: a/b/c'],
  'number-kind': [500, 'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string'],
  'other-uid': [500, 'received invalid webhook response: expected response.uid="UID", got "x"'],
  'upper-keys': [500, 'received invalid webhook response: expected response.uid="UID", got ""'],
  'allowed-string': [500, 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool'],
  'no-allowed': [400, 'admission webhook "answers.example.com" denied the request without explanation'],
  'warning-number': [500, 'failed to call webhook: json: cannot unmarshal number into Go struct field AdmissionResponse.response.warnings of type string'],
  'response-string': [500, 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionReview.response of type v1.AdmissionResponse'],
  'status-string': [500, 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.status of type v1.Status'],
  'bad-base64': [500, 'failed to call webhook: illegal base64 data at input byte 0'],
  'validating-patch': [500, 'received invalid webhook response: validating webhook may not return response.patch'],
  'validating-patch-type': [500, 'received invalid webhook response: validating webhook may not return response.patchType'],
  'repeated-key': [201, ''],
};

async function run(s: Send): Promise<void> {
  const uids = new Map<string, string>();
  const server = await startWebhook((text, req, res) => {
    const { request } = JSON.parse(text) as { request: { uid: string; object: { metadata: { name: string } } } };
    const name = request.object.metadata.name;
    uids.set(name, request.uid);
    const answer = (answers[name] ?? answers.allowed)(request.uid);
    if (answer === 'close') {
      req.socket.destroy();
      return;
    }
    const [code, contentType, body] = answer;
    res.writeHead(code, contentType === '' ? {} : { 'Content-Type': contentType });
    res.end(body);
  });
  // A TCP server that reads the TLS hello and closes the connection (a FIN: an RST would be `connection reset by
  // peer`); TLS servers whose certificates another CA signed, or name another address, or no address, or were
  // signed by another CA of the bundle CA's name (Go's `possibly because of …` hint), or have expired.
  const closer = createNetServer((socket) => socket.once('data', () => socket.end()));
  const expiredAt = new Date(Date.now() - 10 * 86_400_000);
  const strangerCerts = [
    generateCertificates({ caCommonName: 'another-ca' }), generateCertificates({ hosts: ['127.0.0.2'] }), generateCertificates({ hosts: ['localhost'] }),
    // Signed by a CA of the same name as the bundle's (a CA generated again), and one expired nine days ago.
    generateCertificates(), generateCertificates({ now: expiredAt, validityDays: 1 }),
  ];
  const notAfter = new X509Certificate(strangerCerts[4].cert).validTo;
  // Certificates without SANs (fixtures): a Common Name that is not the host, and one that is (the legacy field).
  const fixture = (name: string): GeneratedCertificates => {
    const cert = readFileSync(join(fixturesDir, `${name}.cert.pem`), 'utf8');
    return { cert, key: readFileSync(join(fixturesDir, `${name}.key.pem`), 'utf8'), caCert: cert, caKey: '', caBundle: Buffer.from(cert).toString('base64') };
  };
  strangerCerts.push(fixture('cn-other'), fixture('cn-ip'));
  const strangers = await Promise.all(strangerCerts.map((c) => startWebhook((_text, _req, res) => res.end(), c)));
  await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
  try {
    const url = `${server.url}/review`;
    const closerPort = (closer.address() as AddressInfo).port;
    const strangerPorts = strangers.map((each) => new URL(each.url).port);
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
    const hook = (name: string, clientConfig: Record<string, unknown>, namespace: string): unknown => ({
      name, clientConfig, failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5, rules, namespaceSelector: { matchLabels: { hook: namespace } },
    });
    const transports: [string, Record<string, unknown>, string][] = [
      ['refused', { url: 'https://127.0.0.1:1/x', caBundle: server.caBundle }, 'failed to call webhook: Post "https://127.0.0.1:1/x?timeout=5s": dial tcp 127.0.0.1:1: connect: connection refused'],
      ['closed', { url: `https://127.0.0.1:${closerPort}/x`, caBundle: server.caBundle }, `failed to call webhook: Post "https://127.0.0.1:${closerPort}/x?timeout=5s": EOF`],
      ['other-ca', { url: `https://127.0.0.1:${strangerPorts[0]}/x`, caBundle: server.caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[0]}/x?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`],
      ['no-ca-bundle', { url }, `failed to call webhook: Post "${url}?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`],
      ['other-address', { url: `https://127.0.0.1:${strangerPorts[1]}/x`, caBundle: strangerCerts[1].caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[1]}/x?timeout=5s": tls: failed to verify certificate: x509: certificate is valid for 127.0.0.2, not 127.0.0.1`],
      ['no-address', { url: `https://127.0.0.1:${strangerPorts[2]}/x`, caBundle: strangerCerts[2].caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[2]}/x?timeout=5s": tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs`],
      ['same-name-ca', { url: `https://127.0.0.1:${strangerPorts[3]}/x`, caBundle: server.caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[3]}/x?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority (possibly because of "x509: ECDSA verification failure" while trying to verify candidate authority certificate "kubekit-webhook-ca")`],
      ['expired', { url: `https://127.0.0.1:${strangerPorts[4]}/x`, caBundle: strangerCerts[4].caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[4]}/x?timeout=5s": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time NOW is after ${new Date(Date.parse(notAfter)).toISOString().replace(/\.\d{3}Z$/, 'Z')}`],
      ['cn-other', { url: `https://127.0.0.1:${strangerPorts[5]}/x`, caBundle: strangerCerts[5].caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[5]}/x?timeout=5s": tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn't contain any IP SANs`],
      ['cn-ip', { url: `https://127.0.0.1:${strangerPorts[6]}/x`, caBundle: strangerCerts[6].caBundle }, `failed to call webhook: Post "https://127.0.0.1:${strangerPorts[6]}/x?timeout=5s": tls: failed to verify certificate: x509: certificate relies on legacy Common Name field, use SANs instead`],
    ];
    const webhooks = [hook('answers.example.com', { url, caBundle: server.caBundle }, 'answers'), ...transports.map(([name, config]) => hook(`${name}.example.com`, config, name))];
    answered(await s('POST', VWC, JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'answers' }, webhooks })), 201);
    for (const namespace of ['answers', ...transports.map(([name]) => name)]) {
      answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { hook: namespace } } })), 201);
    }
    const create = async (namespace: string, name: string): Promise<[number, string]> => {
      const a = await s('POST', `/api/v1/namespaces/${namespace}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }));
      return [a.status, a.status === 201 ? '' : a.message];
    };
    await untilInForce(async () => {
      await s('DELETE', '/api/v1/namespaces/answers/configmaps/probe');
      await create('answers', 'probe');
    }, () => uids.has('probe'));

    const got: Record<string, [number, string]> = {};
    for (const name of Object.keys(answers)) {
      const [status, message] = await create('answers', name);
      const prefix = 'Internal error occurred: failed calling webhook "answers.example.com": ';
      got[name] = [status, (message.startsWith(prefix) ? message.slice(prefix.length) : message).replaceAll(url, 'URL').replaceAll(uids.get(name) ?? '\0', 'UID')];
    }
    expect(got).to.deep.equal(expected);
    const transportGot = [];
    // The current time of an expired certificate's error is the server's.
    for (const [name] of transports) transportGot.push((await create(name, 'x')).map((v) => (typeof v === 'string' ? v.replace(/current time \S+ is/, 'current time NOW is') : v)));
    expect(transportGot).to.deep.equal(transports.map(([name, , message]) => [500, `Internal error occurred: failed calling webhook "${name}.example.com": ${message}`]));
  } finally {
    for (const each of [server, ...strangers]) each.close();
    closer.close();
  }
}

describeOnBothServers('admission webhooks that misbehave: each failure in Go\'s words, kubekit and the real kube-apiserver', run);
