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
