// What a watch from no resourceVersion (or "0") is, on both servers: kube-apiserver 1.34.4 (WatchList on)
// defaults it to `sendInitialEvents=true&resourceVersionMatch=NotOlderThan` before validating it
// (SetListOptionsDefaults, handlers/get.go), so its initial events end with the `k8s.io/initial-events-end`
// BOOKMARK when it allows bookmarks, a kind without the watch cache (Events) included, and its `continue` is
// refused under resourceVersionMatch's name; a watch from a resourceVersion ignores `continue`. Every expected
// answer is the reference's to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const C = '/api/v1/namespaces/default/configmaps';
const E = '/api/v1/namespaces/default/events';

/** A watch's events as `TYPE:name`, the initial-events-end bookmark as `BOOKMARK:end`. */
const events = (text: string): string[] => text.split('\n').filter((l) => l !== '').map((l) => {
  const e = JSON.parse(l) as { type: string; object: { metadata: { name?: string; annotations?: Record<string, string> } } };
  return e.type === 'BOOKMARK' ? `BOOKMARK:${e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true' ? 'end' : ''}` : `${e.type}:${e.object.metadata.name}`;
});

async function run(s: Send): Promise<void> {
  expect((await s('POST', C, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"wd"}}')).status).to.equal(201);
  const rv = (JSON.parse((await s('GET', `${C}/wd`)).text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const watch = async (path: string, query: string): Promise<[number, string[] | string]> => {
    const a = await s('GET', `${path}?watch=true&timeoutSeconds=1&${query}`);
    return [a.status, a.status === 200 ? events(a.text) : a.message];
  };
  expect(await watch(C, 'allowWatchBookmarks=true')).to.deep.equal([200, ['ADDED:wd', 'BOOKMARK:end']]);
  expect(await watch(C, 'allowWatchBookmarks=true&resourceVersion=0')).to.deep.equal([200, ['ADDED:wd', 'BOOKMARK:end']]);
  expect(await watch(C, '')).to.deep.equal([200, ['ADDED:wd']]);
  expect(await watch(C, `allowWatchBookmarks=true&resourceVersion=${rv}`)).to.deep.equal([200, []]);
  expect(await watch(E, 'allowWatchBookmarks=true')).to.deep.equal([200, ['BOOKMARK:end']]);
  const refused = 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided';
  expect(await watch(C, 'continue=abc')).to.deep.equal([422, refused]);
  expect(await watch(C, 'resourceVersion=0&continue=abc')).to.deep.equal([422, refused]);
  expect(await watch(C, `resourceVersion=${rv}&continue=abc`)).to.deep.equal([200, []]);
  expect(await watch(C, 'resourceVersionMatch=NotOlderThan')).to.deep.equal([422, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']);
  // Asked for explicitly, without bookmarks: no bookmark.
  expect(await watch(C, 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan')).to.deep.equal([200, ['ADDED:wd']]);
}

describeOnBothServers('hostile input: a watch from no resourceVersion (the WatchList defaults), kubekit and the real kube-apiserver', run);
