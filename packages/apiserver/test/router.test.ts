import { expect } from 'chai';
import { parseRequestInfo } from '../src/router.js';

function info(method: string, url: string) {
  const u = new URL(url, 'http://x');
  const i = parseRequestInfo(method, u.pathname, u.searchParams);
  return { resource: i.isResourceRequest, verb: i.verb, group: i.group, version: i.version, namespace: i.namespace, name: i.name, sub: i.subresource, res: i.resource };
}

describe('parseRequestInfo', () => {
  // Cases modelled on k8s.io/apiserver/pkg/endpoints/request TestGetAPIRequestInfo.
  const cases: [string, string, Partial<ReturnType<typeof info>>][] = [
    ['GET', '/api/v1/namespaces', { resource: true, verb: 'list', version: 'v1', res: 'namespaces' }],
    ['GET', '/api/v1/namespaces/other', { verb: 'get', res: 'namespaces', name: 'other', namespace: 'other' }],
    ['GET', '/api/v1/namespaces/other/pods', { verb: 'list', res: 'pods', namespace: 'other' }],
    ['GET', '/api/v1/namespaces/other/pods/foo', { verb: 'get', res: 'pods', name: 'foo', namespace: 'other' }],
    ['GET', '/api/v1/namespaces/other/pods/foo/status', { verb: 'get', res: 'pods', name: 'foo', sub: 'status' }],
    ['PUT', '/api/v1/namespaces/other/finalize', { verb: 'update', res: 'namespaces', name: 'other', sub: 'finalize' }],
    ['GET', '/api/v1/pods?watch=true', { verb: 'watch', res: 'pods', namespace: '' }],
    ['GET', '/apis/stable.example.com/v1/namespaces/ns/crontabs/x?watch=1', { verb: 'get', group: 'stable.example.com', name: 'x' }],
    ['GET', '/apis/stable.example.com/v1/namespaces/ns/crontabs//x', { verb: 'list', res: 'crontabs', name: '', sub: 'x' }],
    ['GET', '/api/v1/namespaces/ns/configmaps/x/', { verb: 'get', res: 'configmaps', name: 'x', sub: '' }],
    ['POST', '/apis/stable.example.com/v1/namespaces/ns/crontabs', { verb: 'create', res: 'crontabs' }],
    ['PATCH', '/apis/stable.example.com/v1/namespaces/ns/crontabs/x/scale', { verb: 'patch', sub: 'scale' }],
    ['DELETE', '/apis/stable.example.com/v1/namespaces/ns/crontabs', { verb: 'deletecollection' }],
    ['DELETE', '/apis/stable.example.com/v1/namespaces/ns/crontabs/x', { verb: 'delete', name: 'x' }],
    ['GET', '/apis/stable.example.com/v1', { resource: false }],
    ['GET', '/apis', { resource: false }],
    ['GET', '/api/v1', { resource: false }],
    ['GET', '/version', { resource: false }],
  ];
  for (const [method, url, want] of cases) {
    it(`decodes ${method} ${url}`, () => {
      expect(info(method, url)).to.deep.include(want);
    });
  }
});
