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
    // The deprecated special verbs of a path prefix (TestGetAPIRequestInfo): a proxy path has no subresource.
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo', { verb: 'proxy', res: 'pods', name: 'foo', namespace: 'other', sub: '' }],
    ['GET', '/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource', { verb: 'proxy', res: 'pods', name: 'foo', sub: '' }],
    ['GET', '/api/v1/watch/pods', { verb: 'watch', res: 'pods', namespace: '' }],
    ['GET', '/api/v1/watch/namespaces/other/pods', { verb: 'watch', res: 'pods', namespace: 'other' }],
    ['GET', '/apis/group/version/watch/resource/name?fieldSelector=metadata.name=foo', { verb: 'watch', res: 'resource', name: 'name', group: 'group' }],
    ['GET', '/api/v1/namespaces/other/pods/foo/proxy/subpath', { verb: 'get', res: 'pods', name: 'foo', sub: 'proxy' }],
    // The prefix's verb whatever the method and the `watch` parameter; a watch path keeps its subresource.
    ['POST', '/api/v1/watch/namespaces/other/pods', { verb: 'watch', res: 'pods', namespace: 'other', name: '' }],
    ['DELETE', '/apis/g/v1/watch/namespaces/other/widgets/w', { verb: 'watch', res: 'widgets', name: 'w' }],
    ['GET', '/api/v1/watch/namespaces/other/configmaps?watch=false', { verb: 'watch', res: 'configmaps', name: '' }],
    ['GET', '/api/v1/watch/namespaces/other', { verb: 'watch', res: 'namespaces', name: 'other', namespace: 'other' }],
    ['GET', '/api/v1/watch/namespaces/other/pods/foo/status', { verb: 'watch', res: 'pods', name: 'foo', sub: 'status' }],
    ['GET', '/api/v1/watch/configmaps/foo', { verb: 'watch', res: 'configmaps', name: 'foo', namespace: '' }],
  ];
  for (const [method, url, want] of cases) {
    it(`decodes ${method} ${url}`, () => {
      expect(info(method, url)).to.deep.include(want);
    });
  }

  it('marks a verb that came from a path prefix', () => {
    for (const path of ['/api/v1/watch/pods', '/apis/g/v1/proxy/namespaces/ns/widgets/w']) expect(parseRequestInfo('PUT', path, new URLSearchParams()).verbViaPathPrefix, path).to.equal(true);
    expect(parseRequestInfo('GET', '/api/v1/pods', new URLSearchParams('watch=true')).verbViaPathPrefix).to.equal(undefined);
  });

  it('marks a special verb with nothing after it as a path requestinfo.go cannot decode', () => {
    for (const path of ['/api/v1/watch', '/apis/g/v1/proxy/']) expect(parseRequestInfo('GET', path, new URLSearchParams()).undecodable, path).to.equal(true);
    expect(parseRequestInfo('GET', '/api/v1/watch/pods', new URLSearchParams()).undecodable).to.equal(undefined);
  });
});
