// Request-targets a URL library would rewrite, sent as written. kubekit read the request-target as a URL
// relative to a base: `GET //` threw out of the request handler (an uncaught exception that stopped the whole
// server), `//api/v1/namespaces` read as the path `/v1/namespaces` on a host `api`, and `..` segments were
// resolved, so that `DELETE /api/v1/namespaces/a/configmaps/x/../..` was a deletion of namespace `a`. The
// apiserver (kube-apiserver 1.34.4) does not clean paths: a path beginning with `//` is no route's (404), a
// `..` segment is a name, which the store's key function refuses (`Name parameter invalid`), or a path no
// route has. Every expected answer is the reference's to the same request.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send, type ServerAccess } from './sender.js';

const CM = '/api/v1/namespaces/targets/configmaps';

async function run(s: Send, _backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'targets' } })), 201);
  answered(await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })), 201);
  const raw = server.asWritten;
  const answer = async (method: string, path: string, body?: string): Promise<string> => {
    const a = await raw(method, path, body);
    return `${a.status} ${a.message !== '' ? a.message : a.text.trim()}`;
  };
  const notFoundPage = '404 404 page not found';
  const noResource = '404 the server could not find the requested resource';
  expect([
    await answer('GET', '//'),
    await answer('GET', '///'),
    await answer('GET', '//api'),
    await answer('GET', '//api/v1/namespaces'),
    await answer('DELETE', '//api/v1/namespaces/targets'),
    await answer('GET', '//version'),
    await answer('GET', '//healthz'),
    await answer('GET', '//apis/apps/v1'),
  ]).to.deep.equal([notFoundPage, notFoundPage, notFoundPage, notFoundPage, notFoundPage, notFoundPage, notFoundPage, notFoundPage]);
  // The server still answers.
  expect((await raw('GET', '/api/v1/namespaces/targets')).status).to.equal(200);
  expect([
    await answer('GET', `${CM}/..`),
    await answer('GET', `${CM}/.`),
    await answer('GET', `${CM}/%2e%2e`),
    await answer('GET', '/api/v1/namespaces/..'),
    await answer('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/..'),
    await answer('PUT', `${CM}/..`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '..' } })),
    await answer('PATCH', `${CM}/..`, '{}'),
    await answer('DELETE', `${CM}/..`),
  ]).to.deep.equal([
    '400 Name parameter invalid: "..": may not be \'..\'', '400 Name parameter invalid: ".": may not be \'.\'', '400 Name parameter invalid: "..": may not be \'..\'',
    '400 Name parameter invalid: "..": may not be \'..\'', '400 Name parameter invalid: "..": may not be \'..\'', '400 Name parameter invalid: "..": may not be \'..\'',
    '415 415: Unsupported Media Type', '400 Name parameter invalid: "..": may not be \'..\'',
  ]);
  expect([
    await answer('DELETE', `${CM}/x/../..`),
    await answer('GET', `${CM}/../../`),
    await answer('GET', `${CM}/x/..`),
    await answer('GET', '/api/./v1'),
    await answer('GET', '/apis/apps/v1/../v1'),
    await answer('GET', '/api/v1/namespaces/targets/./configmaps'),
    await answer('GET', '/version/..'),
    await answer('GET', '/healthz/../version'),
    await answer('GET', '/api\\v1'),
  ]).to.deep.equal([noResource, noResource, noResource, noResource, noResource, noResource, noResource, notFoundPage, notFoundPage]);
  // Nothing was deleted.
  expect((await raw('GET', `${CM}/x`)).status).to.equal(200);
  expect((await raw('GET', '/api/v1/namespaces/targets')).status).to.equal(200);
}

describeOnBothServers('hostile input: request paths a URL would rewrite (//, .., \\), sent as written, kubekit and the real kube-apiserver', run);

// Percent escapes. Go's HTTP server decodes the path once (url.ParseRequestURI) before any handler sees it:
// `/vers%69on` is `/version`, `/api%2Fv1/namespaces` is `/api/v1/namespaces`, and `a%2Fb` is two segments.
// A `%` without two hex digits is its plain `400 Bad Request`, before any handler, and the connection is
// closed. kubekit decoded each segment after splitting the path (`a%2Fb` was one name, `%2F` no separator),
// and let a bad escape through as part of a name. The query is read as req.URL.Query() reads it: a pair
// with `;` or a bad escape is left out, not taken as it is.
async function escapes(s: Send, _backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  const ns = '/api/v1/namespaces/escapes';
  const cms = `${ns}/configmaps`;
  answered(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'escapes' } })), 201);
  for (const [name, k] of [['x', 'v'], ['y', 'w']]) {
    answered(await s('POST', cms, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { k } } })), 201);
  }
  const raw = server.asWritten;
  const answer = async (method: string, path: string): Promise<string> => {
    const a = await raw(method, path);
    return `${a.status} ${a.message !== '' ? a.message : a.text.trim()}`;
  };
  const notFoundPage = '404 404 page not found';
  const noResource = '404 the server could not find the requested resource';
  for (const [method, path] of [['GET', `${cms}/x%zz`], ['GET', `${cms}/x%`], ['GET', `${cms}/x%4`], ['DELETE', `${cms}/x%zz`], ['GET', '/vers%6']]) {
    const a = await raw(method, path);
    expect([a.status, a.text, a.headers['content-type'], a.headers.connection], `${method} ${path}`).to.deep.equal([400, '400 Bad Request', 'text/plain; charset=utf-8', 'close']);
  }
  expect([
    await answer('GET', '/vers%69on'),
    await answer('GET', '/healthz%2Fping'),
    await answer('GET', '/readyz%2Fping'),
    await answer('GET', '/%2Fapi/v1/namespaces'),
    await answer('GET', '/%2F'),
    await answer('GET', `${cms}/a%2Fb`),
    await answer('GET', `${cms}/x%2F..%2F..`),
    await answer('DELETE', `${cms}/x%2F..%2F..`),
    await answer('GET', `${cms}/x%2F%73tatus`),
    await answer('GET', `${cms}/a%22b`),
    await answer('GET', `${cms}/%00`),
    await answer('GET', `${cms}/a%3Fb%23`),
    await answer('GET', `${cms}/%2E%2E`),
  ]).to.deep.equal([
    '200 ' + (await answer('GET', '/version')).slice(4), '200 ok', '200 ok', notFoundPage, notFoundPage, noResource, noResource, noResource, noResource,
    '404 configmaps "a\\"b" not found', '404 configmaps "\\x00" not found', '404 configmaps "a?b#" not found', '400 Name parameter invalid: "..": may not be \'..\'',
  ]);
  const names = async (path: string): Promise<string> => {
    const a = await raw('GET', path);
    expect(a.status, path).to.equal(200);
    return (JSON.parse(a.text) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).join(',');
  };
  expect([
    await names('/api%2Fv1%2Fnamespaces%2Fescapes%2Fconfigmaps'),
    await names('/api/v1/namespaces/%65scapes/config%6Daps'),
    await names(`${cms}?labelSelector=k%3Dv`),
    await names(`${cms}?label%53elector=k%3Dv`),
    await names(`${cms}?labelSelector=k+in+(v)`),
    await names(`${cms}?labelSelector=k%3Dv;x=1`),
    await names(`${cms}?labelSelector=k%3Dv%zz`),
    await names(`${cms}?labelSelector=k%3Dv&labelSelector=k%3Dw`),
    await names(`${cms}?limit=1;`),
    await names(`${cms}?limit=1&z=%zz`),
  ]).to.deep.equal(['x,y', 'x,y', 'x', 'x', 'x', 'x,y', 'x,y', 'x', 'x,y', 'x']);
  expect((JSON.parse((await raw('GET', '/apis/apps%2Fv1')).text) as { kind: string }).kind).to.equal('APIResourceList');
  // Bytes that are not UTF-8 name no object; Go quotes them as \xff, kubekit reads them as U+FFFD.
  expect((await raw('GET', `${cms}/%FF`)).status).to.equal(404);
  // Nothing was deleted.
  expect((await raw('GET', `${cms}/x`)).status).to.equal(200);
}

describeOnBothServers('hostile input: percent escapes in a request path and query, sent as written, kubekit and the real kube-apiserver', escapes);

// How much a request line and its headers may take: kube-apiserver serves with Go's DefaultMaxHeaderBytes
// (1 MiB, plus the 4 KiB net/http allows on top), Node with 16 KiB by default, where kubekit answered a long
// label selector (a few thousand values) or a large header (a bearer token with many groups) 431. Beyond the
// limit both answer Go's plain `431 Request Header Fields Too Large` and close the connection.
async function headerLimits(s: Send, _backend: 'kubekit' | 'reference', server: ServerAccess): Promise<void> {
  const selector = (n: number): string => `labelSelector=${encodeURIComponent(`x in (${Array.from({ length: n }, (_, i) => `v${i}`).join(',')})`)}`;
  const long = await server.asWritten('GET', `/api/v1/namespaces?${selector(60_000)}`);
  expect([long.status, long.text.length > 0 && (JSON.parse(long.text) as { kind: string }).kind]).to.deep.equal([200, 'NamespaceList']);
  const header = await s('GET', '/api/v1/namespaces/default', undefined, undefined, undefined, { 'X-Padding': 'p'.repeat(200_000) });
  expect(header.status).to.equal(200);
  const over = await server.asWritten('GET', `/api/v1/namespaces?${selector(120_000)}`);
  expect([over.status, over.text, over.headers['content-type'], over.headers.connection]).to.deep.equal([431, '431 Request Header Fields Too Large', 'text/plain; charset=utf-8', 'close']);
  // The server still answers.
  expect((await s('GET', '/api/v1/namespaces/default')).status).to.equal(200);
}

describeOnBothServers('hostile input: a request line and headers up to 1 MiB, and Go\'s 431 beyond, kubekit and the real kube-apiserver', headerLimits);
