import { expect } from 'chai';
import { KubeError, makeObjectKey, objectKey, parseApiVersion, formatApiVersion, resourcePath, splitObjectKey } from '@kubekit/core';

describe('objectKey', () => {
  it('is namespace/name for namespaced objects and name otherwise', () => {
    expect(objectKey({ metadata: { namespace: 'default', name: 'a' } })).to.equal('default/a');
    expect(objectKey({ metadata: { name: 'a' } })).to.equal('a');
    expect(makeObjectKey('', 'b')).to.equal('b');
    expect(splitObjectKey('ns/n')).to.deep.equal({ namespace: 'ns', name: 'n' });
    expect(splitObjectKey('n')).to.deep.equal({ namespace: '', name: 'n' });
    expect(() => splitObjectKey('a/b/c')).to.throw(KubeError, 'unexpected key format: "a/b/c"');
    expect(() => objectKey({ metadata: {} })).to.throw(KubeError, /metadata.name/);
    expect(() => objectKey({ metadata: { name: 7 } } as never)).to.throw(KubeError, "object's metadata.name must be a string, got number");
    expect(() => objectKey({ metadata: { name: 'n', namespace: ['a'] } } as never)).to.throw(KubeError, "object's metadata.namespace must be a string, got array");
    expect(objectKey({ metadata: { name: 'n', namespace: null } } as never)).to.equal('n');
  });
});

describe('parseApiVersion', () => {
  it('splits core and named groups', () => {
    expect(parseApiVersion('v1')).to.deep.equal({ group: '', version: 'v1' });
    expect(parseApiVersion('stable.example.com/v1')).to.deep.equal({ group: 'stable.example.com', version: 'v1' });
    expect(() => parseApiVersion('a/b/c')).to.throw(KubeError, 'unexpected GroupVersion string: a/b/c');
    expect(formatApiVersion({ group: '', version: 'v1' })).to.equal('v1');
  });
  it('builds resource paths', () => {
    expect(resourcePath({ group: '', version: 'v1', resource: 'pods' }, 'ns', 'p')).to.equal('/api/v1/namespaces/ns/pods/p');
    expect(resourcePath({ group: 'g.io', version: 'v1', resource: 'shirts' }, undefined, 'x', 'status')).to.equal('/apis/g.io/v1/shirts/x/status');
    expect(resourcePath({ group: '', version: 'v1', resource: 'configmaps' }, 'ns 1', 'a b')).to.equal('/api/v1/namespaces/ns%201/configmaps/a%20b');
  });
  it('refuses a name or namespace that is no path segment, as client-go\'s request builder does', () => {
    const pods = { group: '', version: 'v1', resource: 'pods' };
    // An empty name's path is the collection's: a DELETE of it deletes every object (the apiserver routes
    // `/pods/` as `/pods`).
    expect(() => resourcePath(pods, 'ns', '')).to.throw(KubeError, 'resource name may not be empty');
    expect(() => resourcePath(pods, 'ns', '..')).to.throw(KubeError, `invalid resource name "..": [may not be '..']`);
    expect(() => resourcePath(pods, 'ns', 'a/%')).to.throw(KubeError, `invalid resource name "a/%": [may not contain '/' may not contain '%']`);
    expect(() => resourcePath(pods, '.', 'p')).to.throw(KubeError, `invalid namespace ".": [may not be '.']`);
    expect(() => resourcePath(pods, 'a/b')).to.throw(KubeError, `invalid namespace "a/b": [may not contain '/']`);
    expect(resourcePath(pods, '')).to.equal('/api/v1/pods');
  });
});
