// The order of a JSON patch's unknown fields under `fieldValidation=Strict`: the apiserver decodes the
// patched document json-patch writes, whose objects are sorted where an operation went through them
// (parsed into maps) but keep the patch's own order inside a value the patch placed and nothing went
// through since (kept as its text), and a value of the stored document nothing went through keeps the order
// the apiserver encoded it in. Found by the hostile differential (seed 20261213, case 35: a `rollingUpdate` of
// {"name", "image"} was reported image first; seed 20261216, case 2: a copied `rollingUpdate`). Every expected answer is kube-apiserver
// 1.34.4's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

const D = '/apis/apps/v1/namespaces/default/deployments';

async function run(s: Send): Promise<void> {
  answered(await s('POST', D, JSON.stringify({ metadata: { name: 'unknowns' }, spec: { strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } })), 201);
  const unknownFields = async (ops: unknown[]): Promise<string[]> => {
    const a = await s('PATCH', `${D}/unknowns?fieldValidation=Strict`, JSON.stringify(ops), 'application/json-patch+json');
    expect(a.status, a.text).to.equal(422);
    return [...a.message.slice(a.message.lastIndexOf(': strict decoding error: ')).matchAll(/unknown field "([^"]+)"/g)].map((m) => m[1]);
  };
  // A placed value: the patch's order.
  expect(await unknownFields([{ op: 'add', path: '/spec/strategy/rollingUpdate', value: { name: 'web', image: 'dup', maxSurge: 1 } }]))
    .to.deep.equal(['spec.strategy.rollingUpdate.name', 'spec.strategy.rollingUpdate.image']);
  expect(await unknownFields([{ op: 'add', path: '/spec/template/spec/containers/-', value: { name: 'd', zimage: 'x', aimage: 'y' } }]))
    .to.deep.equal(['spec.template.spec.containers[1].zimage', 'spec.template.spec.containers[1].aimage']);
  // A placed value another operation went through: sorted.
  expect(await unknownFields([{ op: 'add', path: '/spec/strategy/rollingUpdate', value: { name: 'web', image: 'dup' } }, { op: 'add', path: '/spec/strategy/rollingUpdate/zeta', value: 1 }]))
    .to.deep.equal(['spec.strategy.rollingUpdate.image', 'spec.strategy.rollingUpdate.name', 'spec.strategy.rollingUpdate.zeta']);
  expect(await unknownFields([{ op: 'add', path: '/spec/strategy', value: { zz: 1, rollingUpdate: { name: 'web', image: 'dup' }, aa: 2 } }, { op: 'add', path: '/spec/strategy/rollingUpdate/b', value: 1 }]))
    .to.deep.equal(['spec.strategy.aa', 'spec.strategy.rollingUpdate.b', 'spec.strategy.rollingUpdate.image', 'spec.strategy.rollingUpdate.name', 'spec.strategy.zz']);
  // Members added to an object of the stored document: sorted.
  expect(await unknownFields([{ op: 'add', path: '/spec/zeta', value: 1 }, { op: 'add', path: '/spec/alpha', value: 2 }])).to.deep.equal(['spec.alpha', 'spec.zeta']);
  // A value of the stored document copied or moved where nothing went through it: the order the apiserver
  // encoded it in (RollingUpdateDeployment declares maxUnavailable first; seed 20261216, case 2); one an
  // operation went through first: sorted.
  const copy = { op: 'copy', from: '/spec/strategy/rollingUpdate', path: '/spec/template/spec/containers/0' };
  expect(await unknownFields([copy])).to.deep.equal(['spec.template.spec.containers[0].maxUnavailable', 'spec.template.spec.containers[0].maxSurge']);
  expect(await unknownFields([{ op: 'move', from: '/spec/strategy/rollingUpdate', path: '/spec/template/spec/containers/0/x' }]))
    .to.deep.equal(['spec.template.spec.containers[0].x']);
  expect(await unknownFields([{ op: 'copy', from: '/spec/strategy', path: '/spec/template/spec/containers/0/strategy' }, { op: 'copy', from: '/spec/template/spec/containers/0/strategy/rollingUpdate', path: '/spec/template/spec/containers/-' }]))
    .to.deep.equal(['spec.template.spec.containers[0].strategy', 'spec.template.spec.containers[1].maxUnavailable', 'spec.template.spec.containers[1].maxSurge']);
  expect(await unknownFields([{ op: 'replace', path: '/spec/strategy/rollingUpdate/maxSurge', value: 2 }, copy]))
    .to.deep.equal(['spec.template.spec.containers[0].maxSurge', 'spec.template.spec.containers[0].maxUnavailable']);
  // The patched object quoted as json-patch writes it: the members of what no operation went through in the
  // order the apiserver encoded them (metadata: name first), the rest sorted.
  const quoted = await s('PATCH', `${D}/unknowns?fieldValidation=Strict`, JSON.stringify([copy]), 'application/json-patch+json');
  const doc = JSON.parse(/is invalid: patch: Invalid value: "((?:[^"\\]|\\.)*)": strict decoding error/.exec(quoted.message)![1].replace(/\\(.)/g, '$1')) as Record<string, Record<string, unknown>>;
  expect([Object.keys(doc), Object.keys(doc.metadata).slice(0, 3), Object.keys(doc.spec)]).to.deep.equal([
    ['apiVersion', 'kind', 'metadata', 'spec', 'status'], ['name', 'namespace', 'uid'], ['progressDeadlineSeconds', 'replicas', 'revisionHistoryLimit', 'selector', 'strategy', 'template'],
  ]);
  answered(await s('DELETE', `${D}/unknowns`));
}

describeOnBothServers('hostile input: the order of a JSON patch\'s unknown fields, kubekit and the real kube-apiserver', run);
