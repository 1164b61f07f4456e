// What a JSON patch does to the member order of what keeps its bytes (a `runtime.RawExtension`: a
// ControllerRevision's `data`): evanphx/json-patch v4 parses each container only when an operation walks
// through it (every container on the way to the operation's parent) or a passing `test` compares it, and
// writes a parsed object as a Go map, members sorted; what nothing walked keeps its text's order, and a
// `copy` writes what it copies as it is at that moment. A ControllerRevision's data is immutable, compared
// by its bytes, so even a `test` alone changes it, and the 422 quotes the new order. Every expected answer
// is kube-apiserver 1.34.4's to the same request (the reference server runs the same test).
import { expect } from 'chai';
import { describeOnBothServers, type Send } from './sender.js';

const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const data = { z: 1, b: { y: 1, x: [{ q: 1, p: 2 }] }, a: { n: 1, m: 2 } };
const immutable = (name: string, quoted: string): string => `ControllerRevision.apps "${name}" is invalid: data: Invalid value: ${quoted}: field is immutable`;

const cases: [string, unknown[], string][] = [
  ['a patch that walks nowhere near data keeps its order', [{ op: 'add', path: '/metadata/labels', value: { k: 'v' } }], ''],
  ['an add sorts every object on its way, not the value it adds', [{ op: 'add', path: '/data/b/w', value: { s: 1, r: 2 } }], '{"a":{"n":1,"m":2},"b":{"w":{"s":1,"r":2},"x":[{"q":1,"p":2}],"y":1},"z":1}'],
  ['an add into a list item sorts the item', [{ op: 'add', path: '/data/b/x/0/o', value: 1 }], '{"a":{"n":1,"m":2},"b":{"x":[{"o":1,"p":2,"q":1}],"y":1},"z":1}'],
  ['a replaced value keeps its order', [{ op: 'replace', path: '/data/a', value: { l: 1, k: 2 } }], '{"a":{"l":1,"k":2},"b":{"y":1,"x":[{"q":1,"p":2}]},"z":1}'],
  ['a removal sorts its parent only', [{ op: 'remove', path: '/data/a/n' }], '{"a":{"m":2},"b":{"y":1,"x":[{"q":1,"p":2}]},"z":1}'],
  ['a passing test sorts all it compared', [{ op: 'test', path: '/data/b', value: { y: 1, x: [{ q: 1, p: 2 }] } }], '{"a":{"n":1,"m":2},"b":{"x":[{"p":2,"q":1}],"y":1},"z":1}'],
  ['a test of a scalar sorts its parent', [{ op: 'test', path: '/data/z', value: 1 }], '{"a":{"n":1,"m":2},"b":{"y":1,"x":[{"q":1,"p":2}]},"z":1}'],
  ['a test of a list item', [{ op: 'test', path: '/data/b/x/0', value: { q: 1, p: 2 } }], '{"a":{"n":1,"m":2},"b":{"x":[{"p":2,"q":1}],"y":1},"z":1}'],
  ['a copy after a test copies the sorted value', [{ op: 'test', path: '/data/b', value: { y: 1, x: [{ q: 1, p: 2 }] } }, { op: 'copy', from: '/data/b', path: '/data/c' }], '{"a":{"n":1,"m":2},"b":{"x":[{"p":2,"q":1}],"y":1},"c":{"x":[{"p":2,"q":1}],"y":1},"z":1}'],
  ['a copy after a walk copies the sorted value', [{ op: 'add', path: '/data/b/x/0/o', value: 1 }, { op: 'copy', from: '/data/b', path: '/data/c' }], '{"a":{"n":1,"m":2},"b":{"x":[{"o":1,"p":2,"q":1}],"y":1},"c":{"x":[{"o":1,"p":2,"q":1}],"y":1},"z":1}'],
  ['a copy before a walk keeps the text', [{ op: 'copy', from: '/data/b', path: '/data/c' }, { op: 'add', path: '/data/b/x/0/o', value: 1 }], '{"a":{"n":1,"m":2},"b":{"x":[{"o":1,"p":2,"q":1}],"y":1},"c":{"y":1,"x":[{"q":1,"p":2}]},"z":1}'],
  ['a moved value stays sorted', [{ op: 'add', path: '/data/b/x/0/o', value: 1 }, { op: 'move', from: '/data/b', path: '/data/c' }], '{"a":{"n":1,"m":2},"c":{"x":[{"o":1,"p":2,"q":1}],"y":1},"z":1}'],
  ['an added value is sorted when a later operation walks it', [{ op: 'add', path: '/data/c', value: { t: 1, s: 2 } }, { op: 'add', path: '/data/c/r', value: 3 }], '{"a":{"n":1,"m":2},"b":{"y":1,"x":[{"q":1,"p":2}]},"c":{"r":3,"s":2,"t":1},"z":1}'],
];

async function run(s: Send): Promise<void> {
  for (const [i, [, patch, quoted]] of cases.entries()) {
    const name = `walk-${i}`;
    const created = await s('POST', CR, JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name }, revision: 1, data }));
    expect(created.status, created.text).to.equal(201);
    const a = await s('PATCH', `${CR}/${name}`, JSON.stringify(patch), 'application/json-patch+json');
    if (quoted === '') {
      expect(a.status, `${cases[i][0]}: ${a.text}`).to.equal(200);
      expect(JSON.stringify((JSON.parse(a.text) as { data: unknown }).data)).to.equal(JSON.stringify(data));
    } else {
      expect([a.status, JSON.parse(a.text).message], cases[i][0]).to.deep.equal([422, immutable(name, quoted)]);
    }
  }
}

/**
 * The decoder reads the patched object in that order too: a struct moved into a string map (untouched, so in
 * the order the apiserver encoded it) fails at its first member, an object (hostile differential seed 20261206;
 * kubekit read every patched object sorted, and failed at `matchingPrecedence`, a number).
 */
async function decodedInOrder(s: Send): Promise<void> {
  const a = await s('PATCH', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/exempt?dryRun=All', '[{"op":"move","from":"/spec","path":"/metadata/annotations"}]', 'application/json-patch+json');
  expect([a.status, a.message.replace(/^.*": json: /s, 'json: ')]).to.deep.equal([422, 'json: cannot unmarshal object into Go struct field ObjectMeta.metadata.annotations of type string']);
  const b = await s('PATCH', '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations/global-default?dryRun=All', '[{"op":"copy","from":"/spec/limited","path":"/metadata/labels"}]', 'application/json-patch+json');
  expect([b.status, b.message.replace(/^.*": json: /s, 'json: ')]).to.deep.equal([422, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string']);
}

describeOnBothServers('hostile input: the member order a JSON patch leaves in a RawExtension, kubekit and the real kube-apiserver', run);
describeOnBothServers('hostile input: a JSON patch\'s result decoded in its member order, kubekit and the real kube-apiserver', decodedInOrder);
