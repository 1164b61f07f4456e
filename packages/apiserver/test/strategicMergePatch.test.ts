// Strategic merge patch of built-in kinds, after the examples of upstream's
// contributors/devel/sig-api-machinery/strategic-merge-patch.md and the patchStrategy/patchMergeKey
// tags of k8s.io/api (containers by name, ports by containerPort, env by name, finalizers as a set).
// The order of merged lists, `$patch` errors, `$patch: delete` of a map and `$retainKeys` checks follow
// strategicpatch/patch.go (mergeSlice, normalizeElementOrder, mergeSortedSlice, handleDirectiveInMergeMap,
// applyRetainKeysDirective); each case below was checked against kube-apiserver v1.34.4 (@kubekit/envtest)
// with the same patch sent to a Deployment.
import { expect } from 'chai';
import { strategicMerge } from '../src/strategicMergePatch.js';

const pod = {
  metadata: { name: 'p', finalizers: ['a', 'b'] },
  spec: {
    containers: [
      { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] },
      { name: 'side', image: 'busybox' },
    ],
    tolerations: [{ key: 'x' }],
  },
};

describe('strategicMerge', () => {
  it('merges containers by name and their ports and env by their keys', () => {
    const out = strategicMerge(pod, { spec: { containers: [{ name: 'web', image: 'nginx:1.26', '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }], env: [{ name: 'B', value: '2' }] }] } }) as typeof pod;
    expect(out.spec.containers).to.deep.equal([
      { name: 'web', image: 'nginx:1.26', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
      { name: 'side', image: 'busybox' },
    ]);
    expect(pod.spec.containers[0].image).to.equal('nginx:1.25');
  });

  it('replaces lists without a merge strategy (tolerations are atomic)', () => {
    const out = strategicMerge(pod, { spec: { tolerations: [{ key: 'y' }] } }) as typeof pod;
    expect(out.spec.tolerations).to.deep.equal([{ key: 'y' }]);
  });

  it('deletes an element with $patch: delete and orders with $setElementOrder, as kubectl apply sends', () => {
    const out = strategicMerge(pod, { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }], containers: [{ name: 'web', $patch: 'delete' }, { name: 'side', image: 'busybox:1.36' }] } }) as typeof pod;
    expect(out.spec.containers).to.deep.equal([{ name: 'side', image: 'busybox:1.36' }]);
    const ordered = strategicMerge(pod, { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'web' }], containers: [{ name: 'web', image: 'nginx:1.27' }] } }) as typeof pod;
    expect(ordered.spec.containers.map((c) => c.name)).to.deep.equal(['side', 'web']);
    expect(ordered.spec.containers[1].image).to.equal('nginx:1.27');
  });

  it('replaces a list with $patch: replace and a map with $patch: replace', () => {
    const list = strategicMerge(pod, { spec: { containers: [{ name: 'only', image: 'i' }, { $patch: 'replace' }] } }) as typeof pod;
    expect(list.spec.containers).to.deep.equal([{ name: 'only', image: 'i' }]);
    const map = strategicMerge(pod, { metadata: { $patch: 'replace', name: 'q' } }) as typeof pod;
    expect(map.metadata).to.deep.equal({ name: 'q' });
  });

  it('merges finalizers as a set and removes values with $deleteFromPrimitiveList', () => {
    const added = strategicMerge(pod, { metadata: { finalizers: ['b', 'c'] } }) as typeof pod;
    expect(added.metadata.finalizers).to.deep.equal(['a', 'b', 'c']);
    const removed = strategicMerge(pod, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }) as typeof pod;
    expect(removed.metadata.finalizers).to.deep.equal(['b']);
  });

  it('keeps only the listed keys with $retainKeys (a Deployment strategy switched to Recreate)', () => {
    const deploy = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } };
    const out = strategicMerge(deploy, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    expect(out).to.deep.equal({ spec: { strategy: { type: 'Recreate' } } });
  });

  it('merges Service ports by port and webhooks by name', () => {
    const svc = strategicMerge({ spec: { ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https' }] } }, { spec: { ports: [{ port: 443, targetPort: 8443 }] } });
    expect(svc).to.deep.equal({ spec: { ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https', targetPort: 8443 }] } });
    const hooks = strategicMerge({ webhooks: [{ name: 'a.example.com', timeoutSeconds: 10 }] }, { '$setElementOrder/webhooks': [{ name: 'a.example.com' }, { name: 'b.example.com' }], webhooks: [{ name: 'b.example.com' }] });
    expect(hooks).to.deep.equal({ webhooks: [{ name: 'a.example.com', timeoutSeconds: 10 }, { name: 'b.example.com' }] });
  });

  it('orders a merged list as the apiserver does: new elements first, the order of the patch for the elements it names', () => {
    const names = (out: unknown): string[] => (out as typeof pod).spec.containers.map((c) => c.name);
    const abc = { spec: { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } };
    expect(names(strategicMerge(abc, { spec: { containers: [{ name: 'x' }] } }))).to.deep.equal(['x', 'a', 'b', 'c']);
    expect(names(strategicMerge(abc, { spec: { containers: [{ name: 'c' }, { name: 'a' }] } }))).to.deep.equal(['b', 'c', 'a']);
    expect(names(strategicMerge(abc, { spec: { containers: [{ name: 'x' }, { name: 'b', image: 'i2' }] } }))).to.deep.equal(['x', 'a', 'b', 'c']);
    // $setElementOrder names only some: the others keep their place before the next named one.
    expect(names(strategicMerge(abc, { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }], containers: [{ name: 'c', image: 'z' }] } }))).to.deep.equal(['b', 'c', 'a']);
    const env = strategicMerge(pod, { spec: { containers: [{ name: 'web', env: [{ name: 'C', value: '3' }] }] } }) as typeof pod;
    expect(env.spec.containers[0]?.env?.map((e) => e.name)).to.deep.equal(['C', 'A']);
    const finalizers = strategicMerge({ metadata: { finalizers: ['b/b', 'a/a'] } }, { metadata: { finalizers: ['z/z', 'a/a'] } }) as typeof pod;
    expect(finalizers.metadata.finalizers).to.deep.equal(['z/z', 'b/b', 'a/a']);
  });

  it('leaves an empty map for $patch: delete of a map', () => {
    const out = strategicMerge({ spec: { securityContext: { runAsUser: 5 }, x: 1 } }, { spec: { securityContext: { $patch: 'delete' } } });
    expect(out).to.deep.equal({ spec: { securityContext: {}, x: 1 } });
  });

  it('refuses $patch values that do not apply, and keys $retainKeys does not list', () => {
    expect(() => strategicMerge(pod, { spec: { containers: [{ $patch: 'merge' }] } })).to.throw('merging lists cannot yet be specified in the patch');
    expect(() => strategicMerge(pod, { spec: { containers: [{ $patch: 'bogus', name: 'web' }] } })).to.throw('unknown patch type: bogus in map: map[$patch:bogus name:web]');
    expect(() => strategicMerge(pod, { metadata: { $patch: 'merge' } })).to.throw('unknown patch type: merge in map: map[$patch:merge]');
    const deploy = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } };
    expect(() => strategicMerge(deploy, { spec: { strategy: { $retainKeys: ['type'], type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } } } })).to.throw('invalid patch format of retainKeys');
    expect(() => strategicMerge(deploy, { spec: { strategy: { $retainKeys: 'type' } } })).to.throw('invalid patch format of retainKeys');
  });

  it('refuses an element without its merge key', () => {
    expect(() => strategicMerge(pod, { spec: { containers: [{ image: 'x' }] } })).to.throw('does not contain declared merge key: name');
  });

  it('treats prototype keys as plain data', () => {
    const out = strategicMerge({ data: {} }, JSON.parse('{"data":{"__proto__":{"polluted":"yes"},"constructor":"c"}}')) as Record<string, Record<string, unknown>>;
    expect(Object.hasOwn(out.data, '__proto__')).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });
});
