// The order of a JSON patch's unknown fields under `fieldValidation=Strict`: the apiserver decodes the
// patched document json-patch writes, whose objects are sorted where an operation went through them
// (parsed into maps) but keep the patch's own order inside a value the patch placed and nothing went
// through since (kept as its text). Found by the hostile differential (seed 20261213, case 35: a
// `rollingUpdate` of {"name", "image"} was reported image first). Every expected answer is kube-apiserver
// 1.34.4's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

const D = '/apis/apps/v1/namespaces/default/deployments';

async function run(s: Send): Promise<void> {
  answered(await s('POST', D, JSON.stringify({ metadata: { name: 'unknowns' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } })), 201);
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
  answered(await s('DELETE', `${D}/unknowns`));
}

describeOnBothServers('hostile input: the order of a JSON patch\'s unknown fields, kubekit and the real kube-apiserver', run);
