// certificates.k8s.io/v1 CertificateSigningRequests on both servers (pkg/registry/certificates/certificates,
// pkg/apis/certificates/validation, plugin/pkg/admission/certificates): the requesting user written into
// the spec, the request's PEM, DER and signature checked, usages, signer names, expiration, the
// `/approval` and `/status` subresources with their condition rules, the certificate set once, the
// approval and signing plugins' checks of a user who may not approve or sign, the subject restriction
// of the kube-apiserver-client signer, the Table, the field selector on spec.signerName, watch and
// discovery. Every expected message is kube-apiserver 1.34.4's answer to the same request (the reference
// server runs the same test). Requests act as impersonated users, whom both servers name alike.
import { expect } from 'chai';
import { answered, describeOnBothServers, eventually, refused, type Answer, type Send } from './sender.js';
import { certificate, ecRequest, ed25519Request, rsaRequest } from '../../packages/apiserver/test/fixtures/certificateRequests.js';

const C = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
type Json = Record<string, unknown>;
const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');
const merge = 'application/merge-patch+json';
const admin = { 'Impersonate-User': 'root', 'Impersonate-Group': 'system:masters' };
const alice = { 'Impersonate-User': 'alice', 'Impersonate-Uid': 'u-1', 'Impersonate-Group': 'system:masters', 'Impersonate-Extra-Scopes': 'view', 'Impersonate-Extra-a%2Fb': 'x' };
const bob = { 'Impersonate-User': 'bob' };

const csr = (name: string, spec: Json = {}, more: Json = {}): string => JSON.stringify({
  apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name },
  spec: { request: b64(ecRequest), signerName: 'example.com/signer', usages: ['client auth'], ...spec }, ...more,
});

/** The request's DER with one byte flipped `fromEnd` bytes before its end, as PEM. */
function tampered(pem: string, fromEnd: number): string {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  der[der.length - fromEnd] ^= 0xff;
  return `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
}

interface Condition { type: string; status: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }
interface Csr { metadata: { name: string; resourceVersion: string; generation?: number }; spec: Json; status: { conditions?: Condition[]; certificate?: string } }

const forbidden = (a: Answer, message: string): void => {
  expect([a.status, a.message], a.text).to.deep.equal([403, message]);
};
const invalidName = (name: string, errs: string): string => `CertificateSigningRequest.certificates.k8s.io "${name}" is invalid: ${errs}`;

async function run(send: Send): Promise<void> {
  const s = (method: string, path: string, body?: string, type?: string, headers: Record<string, string> = admin): Promise<Answer> => send(method, path, body, type, undefined, headers);

  // The requesting user is the spec's, whatever the body says; the status starts empty.
  const created = answered<Csr>(await s('POST', C, csr('mine', { username: 'x', uid: 'y', groups: ['z'], extra: { k: ['v'] }, expirationSeconds: 600 }, { status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: b64(certificate) } }), undefined, alice), 201);
  expect(created.spec).to.deep.equal({
    request: b64(ecRequest), signerName: 'example.com/signer', expirationSeconds: 600, usages: ['client auth'],
    username: 'alice', uid: 'u-1', groups: ['system:masters', 'system:authenticated'], extra: { 'a/b': ['x'], scopes: ['view'] },
  });
  expect(created.status).to.deep.equal({});
  expect(created.metadata.generation).to.equal(undefined);
  // The strategy resets spec and status: a create records no managed fields, and updates are not tracked after.
  expect((created.metadata as Json).managedFields).to.equal(undefined);
  for (const [name, pem] of [['rsa', rsaRequest], ['ed', ed25519Request]]) answered(await s('POST', `${C}?dryRun=All`, csr(name, { request: b64(pem) })), 201);

  // The request: PEM of the right type, DER, signature.
  const requestError = async (request: unknown, why: string, shown = request): Promise<void> => {
    refused(await s('POST', C, csr('bad', { request })), invalidName('bad', `spec.request: Invalid value: ${JSON.stringify(shown)}: ${why}`));
  };
  await requestError(b64('garbage'), 'PEM block type must be CERTIFICATE REQUEST');
  await requestError(b64(certificate), 'PEM block type must be CERTIFICATE REQUEST');
  await requestError('', 'PEM block type must be CERTIFICATE REQUEST');
  await requestError(b64(tampered(ecRequest, 5)), 'x509: ECDSA verification failure');
  await requestError(b64(tampered(rsaRequest, 5)), 'crypto/rsa: verification error');
  await requestError(b64(tampered(ed25519Request, 5)), 'x509: Ed25519 verification failure');
  await requestError(b64(tampered(rsaRequest, 400)), 'crypto/rsa: verification error');
  await requestError(b64('-----BEGIN CERTIFICATE REQUEST-----\nZ2FyYmFnZS1nYXJiYWdl\n-----END CERTIFICATE REQUEST-----\n'), "asn1: structure error: tags don't match (16 vs {class:1 tag:7 length:97 isCompound:true}) {optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false} certificateRequest @2");
  await requestError(b64('-----BEGIN CERTIFICATE REQUEST-----\nMAA=\n-----END CERTIFICATE REQUEST-----\n'), 'asn1: syntax error: sequence truncated');
  await requestError(b64('-----BEGIN CERTIFICATE REQUEST-----\n-----END CERTIFICATE REQUEST-----\n'), 'asn1: syntax error: sequence truncated');
  const der = Buffer.from(ecRequest.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  await requestError(b64(`-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.concat([der, Buffer.from([0, 0])]).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`), 'asn1: syntax error: trailing data');
  await requestError(b64(`-----BEGIN CERTIFICATE REQUEST-----\n${der.subarray(0, der.length - 10).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`), 'asn1: syntax error: data truncated');
  // Text around the block, and headers, are taken.
  answered(await s('POST', `${C}?dryRun=All`, csr('around', { request: b64(`hello\n${ecRequest}trailing\n`) })), 201);
  answered(await s('POST', `${C}?dryRun=All`, csr('headers', { request: b64(ecRequest.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\n\n')) })), 201);
  const decoding = await s('POST', C, csr('bad', { request: '!!!' }));
  expect([decoding.status, decoding.message]).to.deep.equal([400, 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 0']);

  // Several errors at once, in the validation's order.
  refused(await s('POST', C, JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad' }, spec: {} })), invalidName('bad', '[spec.request: Invalid value: null: PEM block type must be CERTIFICATE REQUEST, spec.usages: Required value, spec.signerName: Required value]'));
  refused(await s('POST', C, csr('bad', { usages: ['bogus', 'client auth', 'client auth'], signerName: 'kubernetes.io/legacy-unknown', expirationSeconds: 599 })), invalidName('bad', '[spec.usages[0]: Unsupported value: "bogus": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping", spec.usages[2]: Duplicate value: "client auth", spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version, spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)]'));
  refused(await s('POST', C, csr('bad', { signerName: 'foo' })), invalidName('bad', "spec.signerName: Invalid value: \"foo\": must be a fully qualified domain and path of the form 'example.com/signer-name'"));
  refused(await s('POST', C, csr('bad', { signerName: 'a.b/c/d' })), invalidName('bad', "spec.signerName: Invalid value: \"a.b/c/d\": must be a fully qualified domain and path of the form 'example.com/signer-name'"));
  refused(await s('POST', C, csr('bad', { signerName: 'foo/bar' })), invalidName('bad', 'spec.signerName: Invalid value: "foo": should be a domain with at least two segments separated by dots'));
  refused(await s('POST', C, csr('bad', { signerName: 'Foo.com/b_ar' })), invalidName('bad', "[spec.signerName: Invalid value: \"Foo.com\": validating label \"Foo\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'), spec.signerName: Invalid value: \"b_ar\": validating label \"b_ar\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]"));
  const numeric = await s('POST', C, csr('bad', { request: 5 }));
  expect([numeric.status, numeric.message]).to.deep.equal([400, 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: json: cannot unmarshal number into Go struct field CertificateSigningRequestSpec.spec.request of type []uint8']);

  // CertificateSubjectRestriction: no system:masters organization for the kube-apiserver-client signer (after validation).
  forbidden(await s('POST', C, csr('masters', { signerName: 'kubernetes.io/kube-apiserver-client' })), 'certificatesigningrequests.certificates.k8s.io "masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  refused(await s('POST', C, csr('masters', { signerName: 'kubernetes.io/kube-apiserver-client', request: b64('garbage') })), invalidName('masters', `spec.request: Invalid value: "${b64('garbage')}": PEM block type must be CERTIFICATE REQUEST`));
  answered(await s('POST', `${C}?dryRun=All`, csr('client', { signerName: 'kubernetes.io/kube-apiserver-client', request: b64(rsaRequest) })), 201);

  // An update of the object changes neither spec nor status.
  const updated = answered<Csr>(await s('PATCH', `${C}/mine`, JSON.stringify({ metadata: { labels: { a: 'b' } }, spec: { usages: ['server auth'], signerName: 'x.y/z' }, status: { conditions: [{ type: 'Denied', status: 'True' }] } }), merge));
  expect([updated.spec.usages, updated.spec.signerName, updated.status]).to.deep.equal([['client auth'], 'example.com/signer', {}]);

  // /approval: the conditions' rules.
  refused(await s('PATCH', `${C}/mine/approval`, JSON.stringify({ status: { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' }, { type: 'Failed', status: 'False' }, { type: '', status: 'X' }, { type: 'Custom', status: 'Maybe' }, { type: 'Approved', status: 'True' }] } }), merge),
    invalidName('mine', '[status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive, status.conditions[2].status: Unsupported value: "False": supported values: "True", status.conditions[3].type: Required value, status.conditions[3].status: Unsupported value: "X": supported values: "False", "True", "Unknown", status.conditions[4].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown", status.conditions: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive, status.conditions[5].type: Duplicate value: "Approved"]'));
  const approved = answered<Csr>(await s('PATCH', `${C}/mine/approval`, JSON.stringify({ spec: { usages: ['server auth'] }, status: { certificate: b64(certificate), conditions: [{ type: 'Approved', status: 'True', reason: 'R', message: 'M' }] } }), merge));
  const [condition] = approved.status.conditions ?? [];
  expect(condition.lastUpdateTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(condition).to.deep.equal({ type: 'Approved', status: 'True', reason: 'R', message: 'M', lastUpdateTime: condition.lastUpdateTime, lastTransitionTime: condition.lastUpdateTime });
  expect([approved.spec.usages, approved.status.certificate]).to.deep.equal([['client auth'], undefined]);
  refused(await s('PATCH', `${C}/mine/approval`, JSON.stringify({ status: { conditions: [] } }), merge), invalidName('mine', 'status.conditions: Forbidden: updates may not remove a condition of type "Approved"'));
  refused(await s('PATCH', `${C}/mine/approval`, JSON.stringify({ status: { conditions: [{ type: 'Denied', status: 'True' }] } }), merge), invalidName('mine', 'status.conditions: Forbidden: updates may not remove a condition of type "Approved"'));

  // /status: a certificate of CERTIFICATE blocks, set once; the Approved condition kept; Failed added.
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64('garbage') } }), merge), invalidName('mine', 'status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block'));
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64(ecRequest) } }), merge), invalidName('mine', 'status.certificate: Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "CERTIFICATE REQUEST"'));
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64(certificate.replace('-----\n', '-----\nA: b\n\n')) } }), merge), invalidName('mine', 'status.certificate: Invalid value: "<certificate data>": no PEM block headers are permitted'));
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64('-----BEGIN CERTIFICATE-----\nZ2FyYmFnZQ==\n-----END CERTIFICATE-----\n') } }), merge), invalidName('mine', 'status.certificate: Invalid value: "<certificate data>": x509: malformed certificate'));
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n') } }), merge), invalidName('mine', 'status.certificate: Invalid value: "<certificate data>": found CERTIFICATE PEM block containing 0 certificates'));
  const certDer = Buffer.from(certificate.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  answered(await s('PATCH', `${C}/mine/status?dryRun=All`, JSON.stringify({ status: { certificate: b64(`-----BEGIN CERTIFICATE-----\n${Buffer.concat([certDer, certDer]).toString('base64')}\n-----END CERTIFICATE-----\n`) } }), merge));
  const issued = answered<Csr>(await s('PATCH', `${C}/mine/status`, JSON.stringify({ spec: { usages: ['server auth'] }, status: { certificate: b64(certificate), conditions: [{ type: 'Approved', status: 'True', reason: 'Changed' }] } }), merge));
  expect([issued.spec.usages, issued.status.certificate, issued.status.conditions]).to.deep.equal([['client auth'], b64(certificate), [condition]]);
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { certificate: b64(certificate + certificate) } }), merge), invalidName('mine', 'status.certificate: Forbidden: updates may not modify existing certificate content'));
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { conditions: [condition, { type: 'Denied', status: 'True' }] } }), merge), invalidName('mine', '[status.conditions: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive, status.conditions: Forbidden: updates may not add a condition of type "Denied"]'));
  const failed = answered<Csr>(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { conditions: [condition, { type: 'Failed', status: 'True', reason: 'SignerFailed' }] } }), merge));
  expect(failed.status.conditions?.map((c) => [c.type, c.reason])).to.deep.equal([['Approved', 'R'], ['Failed', 'SignerFailed']]);
  refused(await s('PATCH', `${C}/mine/status`, JSON.stringify({ status: { conditions: [condition] } }), merge), invalidName('mine', 'status.conditions: Forbidden: updates may not remove a condition of type "Failed"'));
  // A certificate before approval is taken (the validation does not ask for one).
  answered(await s('POST', C, csr('early')), 201);
  expect(answered<Csr>(await s('PATCH', `${C}/early/status`, JSON.stringify({ status: { certificate: b64(certificate) } }), merge)).status.certificate).to.equal(b64(certificate));
  refused(await s('PATCH', `${C}/early/status`, JSON.stringify({ status: { conditions: [{ type: 'Approved', status: 'True' }] } }), merge), invalidName('early', 'status.conditions: Forbidden: updates may not add a condition of type "Approved"'));

  // A user who may write the subresources but not approve or sign for the signer.
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'csr-writer' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests', 'certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['*'] }] })), 201);
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'csr-writer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'csr-writer' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] })), 201);
  // The reference's authorizer reads RBAC through informers: bob may create a moment after the binding.
  const bobs = answered<Csr>(await eventually(() => s('POST', C, csr('bobs'), undefined, bob), (a) => a.status !== 403), 201);
  expect([bobs.spec.username, bobs.spec.groups, bobs.spec.uid, bobs.spec.extra]).to.deep.equal(['bob', ['system:authenticated'], undefined, undefined]);
  const approval = JSON.stringify({ status: { conditions: [{ type: 'Approved', status: 'True', reason: 'R' }] } });
  forbidden(await s('PATCH', `${C}/bobs/approval`, approval, merge, bob), 'certificatesigningrequests.certificates.k8s.io "bobs" is forbidden: user not permitted to approve requests with signerName "example.com/signer"');
  forbidden(await s('PATCH', `${C}/bobs/status`, JSON.stringify({ status: { conditions: [{ type: 'Failed', status: 'True' }] } }), merge, bob), 'certificatesigningrequests.certificates.k8s.io "bobs" is forbidden: user not permitted to sign requests with signerName "example.com/signer"');
  // A status write that changes neither the certificate nor the conditions needs no `sign`.
  expect(answered<Csr>(await s('PATCH', `${C}/bobs/status`, JSON.stringify({ metadata: { labels: { x: 'y' } } }), merge, bob)).status).to.deep.equal({});
  // `approve` and `sign` on the signer's domain wildcard.
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'signer' }, rules: [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve', 'sign'] }] })), 201);
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'signer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'signer' }, subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }] })), 201);
  // Approval is allowed a moment after the binding too.
  const allowed = await eventually(() => s('PATCH', `${C}/bobs/approval`, approval, merge, bob), (a) => a.status !== 403);
  expect(answered<Csr>(allowed).status.conditions?.map((c) => c.type)).to.deep.equal(['Approved']);
  expect(answered<Csr>(await s('PATCH', `${C}/bobs/status`, JSON.stringify({ status: { certificate: b64(certificate) } }), merge, bob)).status.certificate).to.equal(b64(certificate));

  // kubectl certificate approve: a PUT of the object on /approval, conditions only; their times kept as sent.
  const put = answered<Csr>(await s('GET', `${C}/early/approval`));
  const putBody = { ...put, spec: { ...put.spec, usages: ['server auth'] }, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', lastUpdateTime: '2020-01-01T00:00:00Z' }] } };
  const putApproved = answered<Csr>(await s('PUT', `${C}/early/approval`, JSON.stringify(putBody)));
  expect([putApproved.spec.usages, putApproved.status.certificate, putApproved.status.conditions?.[0].lastUpdateTime, putApproved.status.conditions?.[0].reason]).to.deep.equal([['client auth'], b64(certificate), '2020-01-01T00:00:00Z', 'KubectlApprove']);
  // A strategic merge patch and an apply of /status: the Approved condition as it was.
  const smp = answered<Csr>(await s('PATCH', `${C}/early/status`, JSON.stringify({ status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Other' }, { type: 'Failed', status: 'True', reason: 'F' }] } }), 'application/strategic-merge-patch+json'));
  expect(smp.status.conditions?.map((c) => [c.type, c.reason, c.lastUpdateTime === undefined])).to.deep.equal([['Approved', 'KubectlApprove', false], ['Failed', 'F', false]]);
  const applied = await s('PATCH', `${C}/early/status?fieldManager=me&force=true`, JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'early' }, status: { conditions: [{ type: 'Approved', status: 'True' }, { type: 'Failed', status: 'True', reason: 'G' }] } }), 'application/apply-patch+yaml');
  expect(answered<Csr>(applied).status.conditions?.map((c) => [c.type, c.reason])).to.deep.equal([['Approved', 'KubectlApprove'], ['Failed', 'G']]);
  // A JSON patch of the object: the spec stays.
  expect(answered<Csr>(await s('PATCH', `${C}/early`, JSON.stringify([{ op: 'replace', path: '/spec/signerName', value: 'x.y/z' }]), 'application/json-patch+json')).spec.signerName).to.equal('example.com/signer');
  expect((answered<Csr>(await s('GET', `${C}/bobs`)).metadata as Json).managedFields).to.equal(undefined);
  // The first apply credits the existing fields to before-first-apply (through the subresource applied to).
  const conflict = await s('PATCH', `${C}/bobs/approval?fieldManager=ap`, JSON.stringify({ apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bobs' }, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'X' }] } }), 'application/apply-patch+yaml');
  expect([conflict.status, conflict.message]).to.deep.equal([409, 'Apply failed with 1 conflict: conflict with "before-first-apply" with subresource "approval" using certificates.k8s.io/v1: .status.conditions[type="Approved"].reason']);

  // Field selectors: spec.signerName and the metadata ones.
  answered(await s('POST', C, csr('other', { signerName: 'other.io/signer', expirationSeconds: 7200 })), 201);
  const names = async (selector: string): Promise<string[]> => answered<{ items: Csr[] }>(await s('GET', `${C}?fieldSelector=${encodeURIComponent(selector)}`)).items.map((i) => i.metadata.name);
  expect(await names('spec.signerName=other.io/signer')).to.deep.equal(['other']);
  expect(await names('spec.signerName!=other.io/signer')).to.deep.equal(['bobs', 'early', 'mine']);
  expect(await names('metadata.name=mine')).to.deep.equal(['mine']);
  const unsupported = await s('GET', `${C}?fieldSelector=spec.username%3Dbob`);
  expect([unsupported.status, unsupported.message]).to.deep.equal([400, 'field label not supported: spec.username']);

  // The Table.
  const table = answered<{ columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] }>(await s('GET', C, undefined, undefined, { ...admin, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }));
  expect(table.columnDefinitions.map((c) => c.name)).to.deep.equal(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
  expect(table.rows.map((r) => [r.cells[0], ...r.cells.slice(2)])).to.deep.equal([
    ['bobs', 'example.com/signer', 'bob', '<none>', 'Approved,Issued'],
    ['early', 'example.com/signer', 'root', '<none>', 'Approved,Failed,Issued'],
    ['mine', 'example.com/signer', 'alice', '10m', 'Approved,Failed,Issued'],
    ['other', 'other.io/signer', 'root', '120m', 'Pending'],
  ]);
  // The status subresource converts a Table; the approval one does not (ApprovalREST has no ConvertToTable):
  // the request itself when JSON is acceptable too, else the 406 of the media types it serves.
  const tableOrJSON = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
  expect(answered<{ kind: string }>(await s('GET', `${C}/mine/status`, undefined, undefined, { ...admin, Accept: tableOrJSON })).kind).to.equal('Table');
  expect(answered<{ kind: string }>(await s('GET', `${C}/mine/approval`, undefined, undefined, { ...admin, Accept: tableOrJSON })).kind).to.equal('CertificateSigningRequest');
  const tableOnly = await s('GET', `${C}/mine/approval`, undefined, undefined, { ...admin, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  expect([tableOnly.status, tableOnly.message]).to.deep.equal([406, 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf']);

  // Watch: the events of one request.
  const list = answered<{ metadata: { resourceVersion: string } }>(await s('GET', C));
  answered(await s('PATCH', `${C}/other/approval`, JSON.stringify({ status: { conditions: [{ type: 'Denied', status: 'True', reason: 'No' }] } }), merge));
  expect(answered<{ kind: string; status?: string }>(await s('DELETE', `${C}/other`))).to.include({ kind: 'Status', status: 'Success' });
  const watched = await s('GET', `${C}?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=1&fieldSelector=metadata.name%3Dother`);
  const events = watched.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: Csr });
  expect(events.map((e) => [e.type, e.object.status.conditions?.map((c) => c.type) ?? []])).to.deep.equal([['MODIFIED', ['Denied']], ['DELETED', ['Denied']]]);

  // Discovery: the two subresources.
  const resources = answered<{ resources: { name: string; verbs: string[]; shortNames?: string[] }[] }>(await s('GET', '/apis/certificates.k8s.io/v1')).resources;
  expect(resources.map((r) => [r.name, r.verbs.join(','), r.shortNames])).to.deep.equal([
    ['certificatesigningrequests', 'create,delete,deletecollection,get,list,patch,update,watch', ['csr']],
    ['certificatesigningrequests/approval', 'get,patch,update', undefined],
    ['certificatesigningrequests/status', 'get,patch,update', undefined],
  ]);
  // Hostile input: a __proto__ extra key, nulls, a huge expiration.
  const proto = answered<Csr>(await s('POST', C, csr('proto'), undefined, { 'Impersonate-User': 'eve', 'Impersonate-Group': 'system:masters', 'Impersonate-Extra-__proto__': 'p' }), 201);
  expect(JSON.stringify(proto.spec.extra)).to.equal('{"__proto__":["p"]}');
  refused(await s('POST', C, csr('nulls', { usages: null, signerName: null, expirationSeconds: null })), invalidName('nulls', '[spec.usages: Required value, spec.signerName: Required value]'));
  const huge = await s('POST', C, csr('huge', { expirationSeconds: 1e12 }));
  expect([huge.status, huge.message]).to.deep.equal([400, 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: json: cannot unmarshal number 1000000000000 into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32']);
  // Wrong types: the decoder's words.
  const decodeError = async (body: string, message: string): Promise<void> => {
    const a = await s('POST', C, body);
    expect([a.status, a.message], a.text).to.deep.equal([400, `CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: ${message}`]);
  };
  await decodeError(csr('types', { usages: 'client auth' }), 'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.usages of type []v1.KeyUsage');
  await decodeError(csr('types', { expirationSeconds: '600' }), 'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.expirationSeconds of type int32');
  await decodeError(csr('types', { extra: { k: 'v' } }), 'json: cannot unmarshal string into Go struct field CertificateSigningRequestSpec.spec.extra of type v1.ExtraValue');
  await decodeError(csr('types', {}, { status: { conditions: [{ type: 5 }] } }), 'json: cannot unmarshal number into Go struct field CertificateSigningRequestCondition.status.conditions.type of type v1.RequestConditionType');
  // generateName, and a PUT without a resourceVersion (the strategy allows unconditional updates).
  const generated = answered<Csr>(await s('POST', C, JSON.stringify({ ...JSON.parse(csr('')) as Json, metadata: { generateName: 'gen-' } })), 201);
  expect(generated.metadata.name).to.match(/^gen-[a-z0-9]{5}$/);
  const { resourceVersion: _rv, ...meta } = generated.metadata;
  expect(answered<Csr>(await s('PUT', `${C}/${generated.metadata.name}`, JSON.stringify({ ...generated, metadata: { ...meta, labels: { l: 'v' } } }))).metadata).to.have.nested.property('labels.l', 'v');
}

describeOnBothServers('certificates.k8s.io/v1 CertificateSigningRequests', run);
