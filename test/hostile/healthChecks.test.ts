// /livez, /readyz and /healthz on both servers, as k8s.io/apiserver's pkg/server/healthz serves them: `ok`, or
// with `?verbose` (any value, `verbose=false` too) a line per check and `<endpoint> check passed`; `?exclude=`
// marks a check excluded and warns, sorted and quoted, about names that match none; each check on its own
// path answers `ok` (a path below that names no check is a 404); any method is answered. The check names and
// their order are kube-apiserver 1.34.4's (fixtures/healthChecks.json, recorded from the reference). A bearer
// token that does not authenticate is a 401 even on the public endpoints (checked on the reference, and on a
// kubekit server started with a token in packages/apiserver/test/healthChecks.test.ts).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { describeOnBothServers, type Answer, type Send, type ServerAccess } from './sender.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/healthChecks.json', import.meta.url), 'utf8')) as { checks: Record<'livez' | 'readyz' | 'healthz', string[]> };

const plain = (a: Answer): [number, string] => [a.status, a.text];

async function run(s: Send, backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  for (const endpoint of ['livez', 'readyz', 'healthz'] as const) {
    const names = fixture.checks[endpoint];
    expect(plain(await s('GET', `/${endpoint}`))).to.deep.equal([200, 'ok']);
    const verbose = `${names.map((n) => `[+]${n} ok\n`).join('')}${endpoint} check passed\n`;
    expect(plain(await s('GET', `/${endpoint}?verbose`))).to.deep.equal([200, verbose]);
    expect(plain(await s('GET', `/${endpoint}?verbose=false`))).to.deep.equal([200, verbose]);
    // Excluded checks, and the names that match none (sorted, quoted as Go's %q).
    const excluded = `${names.map((n) => (n === 'etcd' || n === 'poststarthook/rbac/bootstrap-roles' ? `[+]${n} excluded: ok\n` : `[+]${n} ok\n`)).join('')}warn: some health checks cannot be excluded: no matches for "b","nope\\"x"\n${endpoint} check passed\n`;
    expect(plain(await s('GET', `/${endpoint}?verbose&exclude=nope"x&exclude=etcd&exclude=b&exclude=poststarthook/rbac/bootstrap-roles`))).to.deep.equal([200, excluded]);
    // Excluding without verbose: just ok.
    expect(plain(await s('GET', `/${endpoint}?exclude=nope`))).to.deep.equal([200, 'ok']);
    // Each check on its own path; nothing else below the endpoint.
    for (const name of names) expect(plain(await s('GET', `/${endpoint}/${name}?verbose`)), name).to.deep.equal([200, 'ok']);
    for (const path of [`/${endpoint}/`, `/${endpoint}/nope`, `/${endpoint}/ping/x`]) expect(plain(await s('GET', path)), path).to.deep.equal([404, '404 page not found\n']);
    expect(plain(await s('POST', `/${endpoint}`, '{}'))).to.deep.equal([200, 'ok']);
  }
  // readyz alone has the storage readiness, informer sync and shutdown checks.
  expect(fixture.checks.readyz.filter((n) => !fixture.checks.livez.includes(n))).to.deep.equal(['etcd-readiness', 'informer-sync', 'shutdown']);
  if (backend === 'reference') {
    const stranger = server.as('not-a-token');
    for (const path of ['/livez', '/readyz?verbose', '/livez/ping']) expect((await stranger('GET', path)).status, path).to.equal(401);
  }
}

describeOnBothServers('health checks: /livez, /readyz and /healthz with their checks, kubekit and the real kube-apiserver', run);
