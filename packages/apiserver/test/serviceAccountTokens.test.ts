import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';

// A token's times as claims.go's validator reads them, with go-jose's default leeway of a minute: an hour's
// token still authenticates 60 s after it expired and not after (pkg/serviceaccount/claims.go, Validate).
describe('ServiceAccount token expiry (the validator\'s one-minute leeway)', () => {
  let server: ApiServer;
  const clock = new FakeClock(Date.UTC(2026, 0, 1));

  before(async () => {
    server = await startApiServer({ clock });
  });
  after(async () => {
    await server.close();
  });

  const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };
  const review = async (token: string): Promise<Record<string, unknown>> => (await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })).body.status as Record<string, unknown>;

  it('authenticates a token up to a minute past its expiry, then answers that it has expired', async () => {
    expect((await post('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'op' } })).status).to.equal(201);
    const requested = await post('/api/v1/namespaces/default/serviceaccounts/op/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    const token = (requested.body.status as { token: string }).token;
    expect((await review(token)).authenticated).to.equal(true);
    await clock.advance((3600 + 60) * 1000);
    expect((await review(token)).authenticated).to.equal(true);
    await clock.advance(2000);
    expect(await review(token)).to.deep.equal({ user: {}, error: '[invalid bearer token, service account token has expired]' });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(401);
  });
});
