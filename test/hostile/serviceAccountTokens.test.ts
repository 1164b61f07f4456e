// Service account tokens on both servers: the `token` subresource of ServiceAccounts (an
// authentication.k8s.io/v1 TokenRequest answered with an RS256 JWT: pkg/registry/core/serviceaccount/storage/
// token.go), what a TokenReview says of such a token (pkg/serviceaccount/jwt.go and claims.go: signature,
// audiences, the service account and the bound object still being the ones named), requests made with it
// (the service account's user, authorized by RBAC, a 401 for a token that fails), an impersonation it may
// not make (filters/impersonation.go), and the issuer's OpenID discovery, whose key verifies the token.
// Every expected answer is kube-apiserver 1.34.4's (the reference server runs the same test; its issuer is
// its https URL, kubekit's its http one).
import { expect } from 'chai';
import { createPublicKey, verify } from 'node:crypto';
import { answered, describeOnBothServers, eventually, refused, type Send } from './sender.js';

const SA = '/api/v1/namespaces/default/serviceaccounts';
const REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
const tokenRequest = (spec: Record<string, unknown> = {}, more: Record<string, unknown> = {}): string => JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec, ...more });

interface TokenRequest {
  metadata: { name: string; namespace: string; uid: string; creationTimestamp: string; managedFields: { manager: string; operation: string; fieldsV1: unknown; subresource: string }[] };
  spec: { audiences: string[]; expirationSeconds: number; boundObjectRef: unknown };
  status: { token: string; expirationTimestamp: string };
}
interface ReviewStatus {
  authenticated?: boolean;
  user: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

const part = (token: string, i: number): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[i], 'base64url').toString('utf8')) as Record<string, unknown>;

async function review(s: Send, token: string, audiences?: string[]): Promise<ReviewStatus> {
  const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences === undefined ? {} : { audiences }) } };
  return answered<{ status: ReviewStatus }>(await s('POST', REVIEWS, JSON.stringify(body)), 201).status;
}

/** The review of `token` once it is no longer authenticated (the reference's lookups read informers: polled, at most 10 s). */
async function refusedReview(s: Send, token: string): Promise<ReviewStatus> {
  let status = await review(s, token);
  for (let i = 0; i < 100 && status.authenticated === true; i++) {
    await new Promise((r) => setTimeout(r, 100));
    status = await review(s, token);
  }
  return status;
}

describeOnBothServers('ServiceAccount tokens (TokenRequest, TokenReview, requests with the token)', async (s, _backend, server) => {
  const account = answered<{ metadata: { uid: string } }>(await s('POST', SA, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'op' } })), 201);
  const issuer = server.url.replace(/\/$/, '');
  const user = 'system:serviceaccount:default:op';
  const groups = ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'];

  // A token with the defaults: the issuer's audience, an hour.
  const t = answered<TokenRequest>(await s('POST', `${SA}/op/token`, tokenRequest()), 201);
  expect([t.metadata.name, t.metadata.namespace, t.metadata.uid, t.spec]).to.deep.equal(['op', 'default', account.metadata.uid, { audiences: [issuer], expirationSeconds: 3600, boundObjectRef: null }]);
  expect(t.metadata.managedFields.map((e) => [e.manager, e.operation, e.fieldsV1, e.subresource])).to.deep.equal([['unknown', 'Update', { 'f:spec': { 'f:expirationSeconds': {} } }, 'token']]);
  expect(Date.parse(t.status.expirationTimestamp) - Date.parse(t.metadata.creationTimestamp)).to.equal(3600_000);
  const token = t.status.token;
  expect(part(token, 0)).to.have.keys('alg', 'kid');
  expect(part(token, 0).alg).to.equal('RS256');
  const claims = part(token, 1);
  expect(Object.keys(claims)).to.deep.equal(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  expect([claims.aud, claims.iss, claims.sub, (claims.exp as number) - (claims.iat as number), claims.nbf, claims['kubernetes.io']]).to.deep.equal([
    [issuer], issuer, user, 3600, claims.iat, { namespace: 'default', serviceaccount: { name: 'op', uid: account.metadata.uid } },
  ]);

  // The issuer's discovery publishes the key that verifies the token.
  const oidc = answered<{ issuer: string; jwks_uri: string }>(await s('GET', '/.well-known/openid-configuration'));
  expect(oidc).to.deep.equal({ issuer, jwks_uri: `${issuer}/openid/v1/jwks`, response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] });
  const jwks = answered<{ keys: { kid: string; kty: string; n: string; e: string; use: string; alg: string }[] }>(await s('GET', '/openid/v1/jwks'));
  expect(jwks.keys.map((k) => [k.kid, k.kty, k.use, k.alg, k.e])).to.deep.equal([[part(token, 0).kid, 'RSA', 'sig', 'RS256', 'AQAB']]);
  const [h, p, sig] = token.split('.');
  const key = createPublicKey({ key: { kty: 'RSA', n: jwks.keys[0].n, e: jwks.keys[0].e }, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(sig, 'base64url'))).to.equal(true);

  // What a TokenReview says of it.
  expect(await review(s, token)).to.deep.equal({
    authenticated: true, user: { username: user, uid: account.metadata.uid, groups, extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti as string}`] } }, audiences: [issuer],
  });
  const forAB = answered<TokenRequest>(await s('POST', `${SA}/op/token`, tokenRequest({ audiences: ['a', 'b'], expirationSeconds: 7200 })), 201);
  expect(forAB.spec).to.deep.equal({ audiences: ['a', 'b'], expirationSeconds: 7200, boundObjectRef: null });
  expect(await review(s, forAB.status.token)).to.deep.equal({ user: {}, error: `[invalid bearer token, token audiences ["a" "b"] is invalid for the target audiences ["${issuer}"]]` });
  expect((await review(s, forAB.status.token, ['b', 'c'])).audiences).to.deep.equal(['b']);
  const tampered = [h, Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:default:other' })).toString('base64url'), sig].join('.');
  expect(await review(s, tampered)).to.deep.equal({ user: {}, error: '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]' });

  // Requests with the token are the service account's, authorized by RBAC; a tampered token is a 401.
  const op = server.as(token);
  const pods = await op('GET', '/api/v1/namespaces/default/pods');
  expect([pods.status, pods.message]).to.deep.equal([403, `pods is forbidden: User "${user}" cannot list resource "pods" in API group "" in the namespace "default"`]);
  const bad = await server.as(tampered)('GET', '/api/v1/namespaces/default/pods');
  expect([bad.status, bad.message]).to.deep.equal([401, 'Unauthorized']);
  const who = answered<{ status: { userInfo: unknown } }>(await op('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' })), 201);
  expect(who.status.userInfo).to.deep.equal({ username: user, uid: account.metadata.uid, groups, extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti as string}`] } });
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] })), 201);
  answered(await s('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'op-reads-pods' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'default' }],
  })), 201);
  expect((await eventually(() => op('GET', '/api/v1/namespaces/default/pods'), (a) => a.status === 200)).status).to.equal(200);
  // It may not impersonate anyone without the `impersonate` verb.
  const as = await op('GET', '/api/v1/namespaces/default/pods', undefined, undefined, undefined, { 'Impersonate-User': 'alice' });
  expect([as.status, as.message]).to.deep.equal([403, `users "alice" is forbidden: User "${user}" cannot impersonate resource "users" in API group "" at the cluster scope`]);
  const asSA = await op('GET', '/api/v1/namespaces/default/pods', undefined, undefined, undefined, { 'Impersonate-User': 'system:serviceaccount:kube-system:x' });
  expect([asSA.status, asSA.message]).to.deep.equal([403, `serviceaccounts "x" is forbidden: User "${user}" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"`]);

  // The request's checks, in the subresource's order.
  refused(await s('POST', `${SA}/op/token`, tokenRequest({}, { metadata: { name: 'zz' } })), 'TokenRequest.authentication.k8s.io "op" is invalid: metadata.name: Invalid value: "zz": must match the service account name if specified');
  refused(await s('POST', `${SA}/op/token`, tokenRequest({ expirationSeconds: 10 })), 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes');
  refused(await s('POST', `${SA}/op/token`, tokenRequest({ expirationSeconds: 2 ** 33 })), 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 8589934592: may not specify a duration larger than 2^32 seconds');
  const missing = await s('POST', `${SA}/nope/token`, tokenRequest());
  expect([missing.status, missing.message]).to.deep.equal([404, 'serviceaccounts "nope" not found']);
  const kind = await s('POST', `${SA}/op/token`, tokenRequest({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }));
  expect([kind.status, kind.message]).to.deep.equal([400, 'cannot bind token to object of type /v1, Kind=ConfigMap']);
  const noSecret = await s('POST', `${SA}/op/token`, tokenRequest({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'sec' } }));
  expect([noSecret.status, noSecret.message]).to.deep.equal([404, 'secrets "sec" not found']);
  const other = await s('POST', `${SA}/op/token`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap' }));
  expect([other.status, other.message]).to.deep.equal([400, 'ConfigMap in version "v1" cannot be handled as a TokenRequest: converting (v1.ConfigMap) to (authentication.TokenRequest): unknown conversion']);
  const get = await s('GET', `${SA}/op/token`);
  expect([get.status, get.message]).to.deep.equal([405, 'the server does not allow this method on the requested resource']);

  // A token bound to a Secret lives as long as that Secret.
  const secret = answered<{ metadata: { uid: string } }>(await s('POST', '/api/v1/namespaces/default/secrets', JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' } })), 201);
  const mismatch = await s('POST', `${SA}/op/token`, tokenRequest({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'sec', uid: 'x' } }));
  expect([mismatch.status, mismatch.message]).to.deep.equal([409, 'Operation cannot be fulfilled on Secret "sec": the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated']);
  const bound = answered<TokenRequest>(await s('POST', `${SA}/op/token`, tokenRequest({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'sec' } })), 201);
  expect(part(bound.status.token, 1)['kubernetes.io']).to.deep.equal({ namespace: 'default', secret: { name: 'sec', uid: secret.metadata.uid }, serviceaccount: { name: 'op', uid: account.metadata.uid } });
  expect((await review(s, bound.status.token)).authenticated).to.equal(true);
  answered(await s('DELETE', '/api/v1/namespaces/default/secrets/sec'));
  expect(await refusedReview(s, bound.status.token)).to.deep.equal({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });
  const again = answered<{ metadata: { uid: string } }>(await s('POST', '/api/v1/namespaces/default/secrets', JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sec' } })), 201);
  expect(await refusedReview(s, bound.status.token)).to.deep.equal({ user: {}, error: `[invalid bearer token, secret UID (${again.metadata.uid}) does not match service account secret ref claim (${secret.metadata.uid})]` });

  // A deleted service account's tokens are refused, and so are they once another of its name is made.
  answered(await s('DELETE', `${SA}/op`));
  expect(await refusedReview(s, token)).to.deep.equal({ user: {}, error: '[invalid bearer token, serviceaccounts "op" not found]' });
  expect((await eventually(() => op('GET', '/api/v1/namespaces/default/pods'), (a) => a.status === 401)).status).to.equal(401);
  const remade = answered<{ metadata: { uid: string } }>(await s('POST', SA, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'op' } })), 201);
  expect(await refusedReview(s, token)).to.deep.equal({ user: {}, error: `[invalid bearer token, service account UID (${remade.metadata.uid}) does not match claim (${account.metadata.uid})]` });
  const deleted = await s('POST', `${SA}/gone/token`, tokenRequest());
  expect(deleted.status).to.equal(404);

  // Discovery lists the subresource.
  const resources = answered<{ resources: { name: string }[] }>(await s('GET', '/api/v1')).resources;
  expect(resources.find((r) => r.name === 'serviceaccounts/token')).to.deep.equal({ name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
});
