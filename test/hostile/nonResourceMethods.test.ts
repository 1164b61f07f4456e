// Methods other than GET on the paths that are not resources, on both servers: kube-apiserver 1.34.4 serves
// `/api`, `/api/v1`, `/apis/<group>/<version>`, `/version` and the service account issuer's two documents
// through go-restful routes for GET only (any other method is its 405 Status), and `/apis`, `/apis/<group>`,
// the OpenAPI documents and the health checks through handlers that answer every method as a GET; a path
// that names nothing served is a 404 whatever the method (hostile differential seed 20261205: a name `..`
// under /api/v1/componentstatuses is `/api/v1` once the path is cleaned). kubekit answered 404 to the first
// and, for `/version`, 200. Every expected answer is the reference's to the same request.
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const table: [string, number][] = [
  ['/api', 405], ['/api/v1', 405], ['/api/v2', 404], ['/apis', 200], ['/apis/apps', 200], ['/apis/apps/v1', 405], ['/apis/apps/v9', 404],
  ['/apis/nope', 404], ['/apis/nope/v1', 404], ['/version', 405], ['/version/x', 404], ['/openapi/v2', 200], ['/openapi/v3', 200],
  ['/openapi/v3/apis/apps/v1', 200], ['/livez', 200], ['/readyz', 200], ['/healthz/ping', 200], ['/.well-known/openid-configuration', 405],
  ['/openid/v1/jwks', 405], ['/nope', 404], ['/api/v1/componentstatuses/%2E%2E', 405], ['/api/v1/componentstatuses/..', 405],
];
const notAllowed = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };

async function run(s: Send): Promise<void> {
  const got: [string, number][] = [];
  // HEAD is one more method these routes do not take (its answers have no body to compare).
  const methods = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
  for (const [path, want] of table) {
    for (const method of methods) {
      const a = await s(method, path, method === 'HEAD' ? undefined : '{}', method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
      got.push([`${method} ${path}`, a.status]);
      if (a.status === 405 && method !== 'HEAD') expect(JSON.parse(a.text), `${method} ${path}`).to.deep.equal(notAllowed);
      else expect(a.status, `${method} ${path}`).to.equal(want);
    }
  }
  expect(got).to.deep.equal(table.flatMap(([path, want]) => methods.map((m) => [`${m} ${path}`, want])));
  // Answered as a GET.
  const groups = await s('POST', '/apis', '{}');
  expect((JSON.parse(groups.text) as { kind: string }).kind).to.equal('APIGroupList');
  const group = await s('DELETE', '/apis/apps');
  expect((JSON.parse(group.text) as { kind: string; name: string })).to.include({ kind: 'APIGroup', name: 'apps' });
}

describeOnBothServers('hostile input: methods other than GET on the paths that are not resources, kubekit and the real kube-apiserver', run);
