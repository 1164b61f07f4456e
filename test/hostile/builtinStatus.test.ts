// Writes through a built-in kind's status subresource, as kube-apiserver 1.34.4's status strategies take them:
// they restore the spec (a Deployment's status strategy also its labels, `newDeployment.Labels =
// oldDeployment.Labels`) and keep the rest of the write, its other metadata included, so a status write can
// change a Namespace's labels or a Deployment's annotations and finalizers; a Deployment's status is
// validated (ValidateDeploymentStatusUpdate), as are a ReplicaSet's, a StatefulSet's and a DaemonSet's; the
// status of a feature that is off is dropped (terminatingReplicas). kubekit
// dropped every metadata change of a status write and took any such status.
import { expect } from 'chai';
import { describeOnBothServers, type Answer, type Send } from './sender.js';

interface Obj { metadata: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; generation?: number }; spec?: { replicas?: number }; status?: Record<string, unknown> }

const parse = (a: Answer): Obj => {
  expect(a.status, a.text).to.be.oneOf([200, 201]);
  return JSON.parse(a.text) as Obj;
};

async function run(s: Send): Promise<void> {
  parse(await s('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bstatus' } })));
  const D = '/apis/apps/v1/namespaces/bstatus/deployments';
  const template = { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  parse(await s('POST', D, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', labels: { app: 'd' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template } })));
  const merge = (path: string, body: unknown): Promise<Answer> => s('PATCH', path, JSON.stringify(body), 'application/merge-patch+json');

  // A Deployment: the spec and the labels are restored, annotations and finalizers kept, the generation unchanged.
  const d = parse(await merge(`${D}/d/status`, { metadata: { labels: { x: 'y' }, annotations: { a: 'b' }, finalizers: ['example.com/f'] }, spec: { replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } }));
  expect(d.metadata.labels).to.deep.equal({ app: 'd' });
  expect(d.metadata.annotations).to.deep.equal({ a: 'b' });
  expect(d.metadata.finalizers).to.deep.equal(['example.com/f']);
  expect(d.spec?.replicas).to.equal(2);
  expect(d.metadata.generation).to.equal(1);
  expect(d.status).to.deep.equal({ replicas: 2, readyReplicas: 1 });

  // Its status is validated.
  const bad = await merge(`${D}/d/status`, { status: { replicas: -1, readyReplicas: 5, observedGeneration: -2 } });
  expect(bad.status, bad.text).to.equal(422);
  expect(bad.message).to.equal('Deployment.apps "d" is invalid: [status.observedGeneration: Invalid value: -2: must be greater than or equal to 0, status.replicas: Invalid value: -1: must be greater than or equal to 0, status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas, status.readyReplicas: Invalid value: 5: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas]');
  const available = await merge(`${D}/d/status`, { status: { replicas: 3, readyReplicas: 1, availableReplicas: 2 } });
  expect(available.message).to.equal('Deployment.apps "d" is invalid: status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas');
  parse(await merge(`${D}/d/status`, { status: { collisionCount: 2 } }));
  const decremented = await merge(`${D}/d/status`, { status: { collisionCount: 1 } });
  expect(decremented.message).to.equal('Deployment.apps "d" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented');

  // ReplicaSets, StatefulSets and DaemonSets validate their counts too, each in its function's order.
  const sel = { selector: { matchLabels: { app: 'd' } }, template };
  for (const [resource, kind, spec, status, message] of [
    ['replicasets', 'ReplicaSet', { replicas: 1, ...sel }, { replicas: 1, readyReplicas: 2, availableReplicas: 3, fullyLabeledReplicas: -1 },
      'ReplicaSet.apps "x" is invalid: [status.fullyLabeledReplicas: Invalid value: -1: must be greater than or equal to 0, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas]'],
    ['statefulsets', 'StatefulSet', { serviceName: 'x', ...sel }, { replicas: 1, currentReplicas: 2, availableReplicas: 2, readyReplicas: 1, observedGeneration: -1 },
      'StatefulSet.apps "x" is invalid: [status.observedGeneration: Invalid value: -1: must be greater than or equal to 0, status.currentReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 2: cannot be greater than status.readyReplicas]'],
    ['daemonsets', 'DaemonSet', sel, { numberReady: -3, numberUnavailable: -1 },
      'DaemonSet.apps "x" is invalid: [status.numberReady: Invalid value: -3: must be greater than or equal to 0, status.numberUnavailable: Invalid value: -1: must be greater than or equal to 0]'],
  ] as const) {
    const path = `/apis/apps/v1/namespaces/bstatus/${resource}`;
    parse(await s('POST', path, JSON.stringify({ apiVersion: 'apps/v1', kind, metadata: { name: 'x' }, spec })));
    const answer = await merge(`${path}/x/status`, { status });
    expect(answer.status, `${kind}: ${answer.text}`).to.equal(422);
    expect(answer.message, kind).to.equal(message);
  }
  const collisions = '/apis/apps/v1/namespaces/bstatus/statefulsets/x/status';
  parse(await merge(collisions, { status: { replicas: 0, collisionCount: 3 } }));
  const fewer = await merge(collisions, { status: { collisionCount: 2 } });
  expect([fewer.status, fewer.message]).to.deep.equal([422, 'StatefulSet.apps "x" is invalid: status.collisionCount: Invalid value: 2: cannot be decremented']);

  // status.terminatingReplicas belongs to a feature that is off in 1.34: a status write drops it (unless the
  // stored status has it), so it is neither stored nor validated.
  for (const path of [`${D}/d/status`, '/apis/apps/v1/namespaces/bstatus/replicasets/x/status']) {
    const dropped = parse(await merge(path, { status: { replicas: 1, terminatingReplicas: -2 } }));
    expect(dropped.status?.terminatingReplicas, path).to.equal(undefined);
  }

  // A Namespace: its status write keeps the labels and annotations it sends.
  const ns = parse(await merge('/api/v1/namespaces/bstatus/status', { metadata: { labels: { x: 'y' }, annotations: { a: 'b' } } }));
  expect(ns.metadata.labels).to.deep.equal({ 'kubernetes.io/metadata.name': 'bstatus', x: 'y' });
  expect(ns.metadata.annotations).to.deep.equal({ a: 'b' });
  expect((await s('PATCH', `${D}/d`, '{"metadata":{"finalizers":null}}', 'application/merge-patch+json')).status).to.equal(200);
}

describeOnBothServers('hostile input: writes through a built-in kind\'s status subresource, kubekit and the real kube-apiserver', run);
