/**
 * Service account tokens as kube-apiserver 1.34.4 issues and checks them (pkg/serviceaccount/jwt.go and
 * claims.go, pkg/registry/core/serviceaccount/storage/token.go):
 *
 * - `POST …/serviceaccounts/{name}/token` takes an authentication.k8s.io/v1 `TokenRequest` and answers it with
 *   an RS256 JWT: the issuer is the server's URL (as `--service-account-issuer` is on the reference), the
 *   audiences default to the issuer, `expirationSeconds` to 3600 (at least 600, at most 2^32), the claims
 *   name the service account and the Pod, Secret or Node it is bound to.
 * - A request with such a token is the service account's (`system:serviceaccount:<ns>:<name>`, its groups,
 *   `system:authenticated`), authorized by RBAC; one whose token fails a check is a 401, as on the reference.
 * - A `TokenReview` of such a token says who it is, or why not, in the authenticator's words (a signature
 *   that does not verify, the audiences, expiry, a service account or bound object that is gone or
 *   was made again).
 * - `/.well-known/openid-configuration` and `/openid/v1/jwks` publish the issuer and its key.
 *
 * The signing key is made on first use (RSA 2048), one per server; tokens of another server, or not
 * naming this issuer, are not this authenticator's (their requests are handled as before).
 */
import { createHash, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { FieldError, KubeError, goQuote, type KubeObject } from '@kubekit/core';
import { managerOf } from './managedFields/requestContext.js';
import type { RestRequest } from './restRequest.js';
import type { ServerContext } from './serverContext.js';
import { decodeSubresourceBody } from './subresourceBody.js';
import { handleSubresourceCreate } from './writeHandler.js';
import type { UserInfo } from './rbacAuthorizer.js';
import { storeKey, type ObjectStore } from './storage/objectStore.js';
import { isObject } from './internal/own.js';
import { goQuoteList } from './internal/goQuoteList.js';

const tokenRequestKind = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
/** The claims' key of the Kubernetes-specific part. */
const kubernetesClaim = 'kubernetes.io';
const credentialIDKey = 'authentication.kubernetes.io/credential-id';
const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;
const defaultExpirationSeconds = 3600;
/** go-jose's `DefaultLeeway`, which claims.go's validator allows on the token's times and on deletions. */
const leewaySeconds = 60;

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

/** A reference the token is bound to, as its claims hold it. */
interface BoundRef {
  name: string;
  uid: string;
}

interface TokenClaims {
  aud: string[];
  exp: number;
  iat: number;
  iss: string;
  jti: string;
  nbf: number;
  sub: string;
  [kubernetesClaim]: { namespace: string; serviceaccount: BoundRef; pod?: BoundRef; secret?: BoundRef; node?: BoundRef };
}

/** What a token authenticates as, or why it does not. */
export type TokenAuthentication = { user: UserInfo; audiences: string[] } | { error: string };

const b64 = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

function readJSONPart(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The service account tokens of one server (see the file comment). */
export class ServiceAccountTokens {
  private signingKey: SigningKey | undefined;

  /** `issuer` is the server's URL, known once it listens. */
  constructor(private readonly store: ObjectStore, private readonly issuer: () => string, private readonly now: () => number) {}

  private key(): SigningKey {
    if (this.signingKey === undefined) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      // The key ID is the SHA-256 of the public key's DER, base64url (keyIDFromPublicKey).
      const kid = b64(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest());
      this.signingKey = { privateKey, publicKey, kid };
    }
    return this.signingKey;
  }

  /** The audiences a token is for when a request names none (`--api-audiences`, the issuer by default). */
  apiAudiences(): string[] {
    return [this.issuer()];
  }

  /**
   * Answers `POST serviceaccounts/{name}/token` (token.go's `Create`): `request` is the decoded TokenRequest,
   * `name` and `namespace` the URL's. Returns the TokenRequest answered.
   */
  answer(request: KubeObject, namespace: string, name: string): KubeObject {
    const meta = request.metadata;
    if ((meta.name ?? '') !== '' && meta.name !== name) {
      throw KubeError.invalid(tokenRequestKind, name, [new FieldError('FieldValueInvalid', 'metadata.name', meta.name, 'must match the service account name if specified')]);
    }
    if ((meta.namespace ?? '') !== '' && meta.namespace !== namespace) {
      throw KubeError.invalid(tokenRequestKind, name, [new FieldError('FieldValueInvalid', 'metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const account = this.store.get('/serviceaccounts', storeKey(namespace, name));
    if (account === undefined) throw KubeError.notFound({ group: '', resource: 'serviceaccounts' }, name);
    const spec = isObject(request.spec) ? request.spec : {};
    const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? spec.audiences.map(String) : this.apiAudiences();
    const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : defaultExpirationSeconds;
    const errs: FieldError[] = [];
    const path = 'spec.expirationSeconds';
    if (expirationSeconds < minExpirationSeconds) errs.push(new FieldError('FieldValueInvalid', path, expirationSeconds, 'may not specify a duration less than 10 minutes'));
    if (expirationSeconds > maxExpirationSeconds) errs.push(new FieldError('FieldValueInvalid', path, expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
    if (errs.length > 0) throw KubeError.invalid(tokenRequestKind, '', errs);
    const ref = isObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
    const bound = ref === undefined ? undefined : this.boundObject(ref, namespace, name);
    const nowSeconds = Math.floor(this.now() / 1000);
    // The claims in the order the apiserver writes them (its members sorted, as go-jose marshals a map).
    const claims: TokenClaims = {
      aud: audiences, exp: nowSeconds + expirationSeconds, iat: nowSeconds, iss: this.issuer(), jti: randomUUID(),
      [kubernetesClaim]: {
        namespace,
        ...(bound === undefined ? {} : { [bound.claim]: { name: bound.name, uid: bound.uid } }),
        serviceaccount: { name, uid: account.metadata.uid ?? '' },
      },
      nbf: nowSeconds, sub: `system:serviceaccount:${namespace}:${name}`,
    };
    const { privateKey, kid } = this.key();
    const signingInput = `${b64(JSON.stringify({ alg: 'RS256', kid }))}.${b64(JSON.stringify(claims))}`;
    const token = `${signingInput}.${b64(sign('sha256', Buffer.from(signingInput), privateKey))}`;
    return {
      kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, uid: account.metadata.uid, creationTimestamp: new Date(nowSeconds * 1000).toISOString().replace('.000Z', 'Z') },
      spec: { audiences, expirationSeconds, boundObjectRef: ref === undefined ? null : ref },
      status: { token, expirationTimestamp: new Date(claims.exp * 1000).toISOString().replace('.000Z', 'Z') },
    } as KubeObject;
  }

  /** The Pod, Secret or Node a token is to be bound to, checked as token.go checks it. */
  private boundObject(ref: Record<string, unknown>, namespace: string, account: string): { claim: 'pod' | 'secret' | 'node'; name: string; uid: string } {
    const apiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    const kind = typeof ref.kind === 'string' ? ref.kind : '';
    const name = typeof ref.name === 'string' ? ref.name : '';
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const claim = group !== '' ? undefined : kind === 'Pod' ? 'pod' : kind === 'Secret' ? 'secret' : kind === 'Node' ? 'node' : undefined;
    if (claim === undefined) throw KubeError.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
    const resource = `${claim}s`;
    const object = this.store.get(`/${resource}`, claim === 'node' ? name : storeKey(namespace, name));
    if (object === undefined) throw KubeError.notFound({ group: '', resource }, name);
    if (claim === 'pod' && (isObject(object.spec) ? object.spec.serviceAccountName : undefined) !== account) {
      throw KubeError.badRequest(`cannot bind token for serviceaccount ${goQuote(account)} to pod running with different serviceaccount name.`);
    }
    const uid = object.metadata.uid ?? '';
    const wanted = typeof ref.uid === 'string' ? ref.uid : '';
    if (wanted !== '' && wanted !== uid) {
      throw KubeError.conflict({ group: '', resource: kind }, name, `the UID in the bound object reference (${wanted}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    return { claim, name, uid };
  }

  /**
   * Authenticates a bearer token for `audiences` (the API audiences when none): undefined when it is not a
   * token of this issuer (another authenticator's, or none's), else the user or the reason it is refused.
   */
  authenticate(token: string, audiences?: readonly string[]): TokenAuthentication | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const header = readJSONPart(parts[0]);
    const claims = readJSONPart(parts[1]);
    // jwt.go reads the issuer without verifying first: a token of another issuer is not this one's.
    if (!isObject(header) || !isObject(claims) || claims.iss !== this.issuer() || this.signingKey === undefined) return undefined;
    const { publicKey } = this.signingKey;
    let verified = false;
    try {
      verified = header.alg === 'RS256' && verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'));
    } catch {
      verified = false;
    }
    if (!verified) return { error: 'go-jose/go-jose: error in cryptographic primitive' };
    const c = claims as unknown as TokenClaims;
    // jwt.go checks the audiences first, then claims.go's validator the times (go-jose's default leeway of a
    // minute each way), then that the service account and the bound object are still the ones named.
    const tokenAudiences = Array.isArray(c.aud) ? c.aud.map(String) : typeof c.aud === 'string' ? [c.aud] : [];
    const wanted = audiences !== undefined && audiences.length > 0 ? [...audiences] : this.apiAudiences();
    const shared = wanted.filter((a) => tokenAudiences.includes(a));
    if (shared.length === 0) return { error: `token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(wanted)}` };
    const nowSeconds = Math.floor(this.now() / 1000);
    if (typeof c.nbf === 'number' && nowSeconds + leewaySeconds < c.nbf) return { error: 'service account token is not valid yet' };
    if (typeof c.exp === 'number' && nowSeconds - leewaySeconds > c.exp) return { error: 'service account token has expired' };
    if (typeof c.iat === 'number' && nowSeconds + leewaySeconds < c.iat) return { error: 'service account token is issued in the future' };
    const k = c[kubernetesClaim];
    if (!isObject(k) || typeof k.namespace !== 'string' || !isObject(k.serviceaccount)) return { error: 'service account token claims could not be validated due to unexpected validation error' };
    const { namespace } = k;
    const sa = k.serviceaccount;
    // Objects deleted (being deleted) before a minute ago no longer back a token.
    const deletedLongAgo = (o: KubeObject): boolean => o.metadata.deletionTimestamp !== undefined && Date.parse(o.metadata.deletionTimestamp) < (nowSeconds - leewaySeconds) * 1000;
    const account = this.store.get('/serviceaccounts', storeKey(namespace, sa.name));
    if (account === undefined) return { error: `serviceaccounts ${goQuote(sa.name)} not found` };
    if (account.metadata.uid !== sa.uid) return { error: `service account UID (${account.metadata.uid ?? ''}) does not match claim (${sa.uid})` };
    if (deletedLongAgo(account)) return { error: `service account ${namespace}/${sa.name} has been deleted` };
    const extra: Record<string, string[]> = {};
    for (const claim of ['pod', 'secret', 'node'] as const) {
      const ref = k[claim];
      if (!isObject(ref)) continue;
      const object = this.store.get(`/${claim}s`, claim === 'node' ? ref.name : storeKey(namespace, ref.name));
      if (object === undefined) return { error: 'service account token has been invalidated' };
      if (object.metadata.uid !== ref.uid) return { error: `${claim} UID (${object.metadata.uid ?? ''}) does not match service account ${claim} ref claim (${ref.uid})` };
      if (deletedLongAgo(object)) return { error: 'service account token has been invalidated' };
      if (claim !== 'secret') {
        extra[`authentication.kubernetes.io/${claim}-name`] = [ref.name];
        extra[`authentication.kubernetes.io/${claim}-uid`] = [ref.uid];
      }
    }
    extra[credentialIDKey] = [`JTI=${c.jti}`];
    const sorted = Object.fromEntries(Object.entries(extra).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      user: { username: `system:serviceaccount:${namespace}:${sa.name}`, uid: sa.uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'], extra: sorted },
      audiences: shared,
    };
  }

  /** `/.well-known/openid-configuration` (the service account issuer discovery). */
  openidConfiguration(): Record<string, unknown> {
    return {
      issuer: this.issuer(), jwks_uri: `${this.issuer()}/openid/v1/jwks`,
      response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'],
    };
  }

  /** `/openid/v1/jwks`: the public key that verifies this server's tokens. */
  jwks(): Record<string, unknown> {
    const { publicKey, kid } = this.key();
    const jwk = publicKey.export({ format: 'jwk' });
    return { keys: [{ use: 'sig', kty: 'RSA', kid, alg: 'RS256', n: jwk.n, e: jwk.e }] };
  }
}

const tokenRequestGVK = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' };

/** The field set of a value with no schema: every member of an object, lists and scalars as leaves. */
function fieldSet(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (v === null || v === undefined) continue;
    out[`f:${key}`] = isObject(v) && !Array.isArray(v) ? fieldSet(v) : {};
  }
  return out;
}

/** POST serviceaccounts/{name}/token (the service account's `token` subresource). */
export async function requestToken(ctx: ServerContext, r: RestRequest, namespace: string, tokens: ServiceAccountTokens): Promise<void> {
  await handleSubresourceCreate(ctx, r, tokenRequestGVK, (body, options, wctx) => {
    const decoded = decodeSubresourceBody(body, wctx, { kind: 'TokenRequest', apiVersions: ['authentication.k8s.io/v1'], internal: 'authentication.TokenRequest' });
    const request = { ...decoded, metadata: isObject(decoded.metadata) ? decoded.metadata : {} } as KubeObject;
    const answer = tokens.answer(request, namespace, r.info.name);
    // The field manager records what the request set, with the default expiration, as an Update of the
    // `token` subresource.
    const sent = isObject(request.spec) ? request.spec : {};
    const spec = { ...sent, expirationSeconds: (answer.spec as Record<string, unknown>).expirationSeconds };
    if (ctx.limits.managedFields) {
      answer.metadata.managedFields = [{
        manager: managerOf(r, options.fieldManager), operation: 'Update', apiVersion: 'authentication.k8s.io/v1', time: answer.metadata.creationTimestamp,
        fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': fieldSet(spec) }, subresource: 'token',
      }];
    }
    return Promise.resolve({ code: 201, body: answer });
  });
}
