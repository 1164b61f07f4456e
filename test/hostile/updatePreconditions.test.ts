// An update (PUT) whose body carries a uid makes it a precondition of the store (rest.DefaultUpdatedObjectInfo):
// another object's uid is a 409 quoting the storage key, checked after the handler's name and namespace and
// before the update itself (kube-apiserver 1.34.4, hostile differential seeds 20270404 to 20270413). This is
// what keeps a controller from overwriting an object that was deleted and re-created under its name with
// the old one's data. A dry run's storage checks it itself, with the key before etcd's prefix. Also here:
// a custom resource's strict decoding error names the kind the body says it is (seed 20270406; through
// /status too, seed 20261202), and the
// Scale of a dry run and of 0 replicas (seeds 20270402 to 20270405).
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Answer, type Send } from './sender.js';

const G = 'uidpre.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const CM = '/api/v1/namespaces/default/configmaps';
const SVC = '/api/v1/namespaces/default/services';

interface Obj { apiVersion: string; kind: string; metadata: { name: string; uid: string; resourceVersion: string } }

const parse = (a: Answer): Obj => {
  expect(a.status, a.text).to.be.oneOf([200, 201]);
  return JSON.parse(a.text) as Obj;
};

async function run(s: Send): Promise<void> {
  await createWidgets(s, G, { type: 'object', properties: { replicas: { type: 'integer' }, a: { type: 'string' } } }, {
    statusSchema: { type: 'object', properties: { replicas: { type: 'integer' } } },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
  });
  const refused = (a: Answer, resource: string, key: string, uid: string, current: string): void => {
    expect(a.status, a.text).to.equal(409);
    expect(a.message).to.equal(`Operation cannot be fulfilled on ${resource} "${key.split('/').pop()}": StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current}`);
  };

  const cm = parse(await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u1' }, data: { a: '1' } })));
  const putCM = (uid: string, query = ''): Promise<Answer> => s('PUT', `${CM}/u1${query}`, JSON.stringify({ ...cm, metadata: { ...cm.metadata, uid }, data: { a: '2' } }));
  refused(await putCM('other'), 'configmaps', '/registry/configmaps/default/u1', 'other', cm.metadata.uid);
  refused(await putCM('other', '?dryRun=All'), 'configmaps', '/configmaps/default/u1', 'other', cm.metadata.uid);
  expect((await putCM(cm.metadata.uid)).status).to.equal(200);

  // The object deleted and created again: the old one's uid is refused.
  const w = parse(await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'u1' }, spec: { a: '1', replicas: 1 } })));
  expect((await s('DELETE', `${W}/u1`)).status).to.equal(200);
  const again = parse(await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'u1' }, spec: { a: 'new', replicas: 1 } })));
  const stale = await s('PUT', `${W}/u1`, JSON.stringify({ ...w, metadata: { ...w.metadata, resourceVersion: again.metadata.resourceVersion }, spec: { a: 'old' } }));
  refused(stale, `widgets.${G}`, `/registry/${G}/widgets/default/u1`, w.metadata.uid, again.metadata.uid);
  // Through the status subresource too (its body's uid), after the name check.
  const statusPut = (name: string): Promise<Answer> => s('PUT', `${W}/u1/status`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name, uid: 'other', resourceVersion: again.metadata.resourceVersion }, status: { replicas: 1 } }));
  refused(await statusPut('u1'), `widgets.${G}`, `/registry/${G}/widgets/default/u1`, 'other', again.metadata.uid);
  const misnamed = await statusPut('u2');
  expect([misnamed.status, misnamed.message]).to.deep.equal([400, 'the name of the object (u2) does not match the name on the URL (u1)']);

  const svc = parse(await s('POST', SVC, JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'u1' }, spec: { ports: [{ port: 80 }] } })));
  const svcPut = await s('PUT', `${SVC}/u1`, JSON.stringify({ ...svc, metadata: { ...svc.metadata, uid: 'other' } }));
  refused(svcPut, 'services', '/registry/services/specs/default/u1', 'other', svc.metadata.uid);

  // A custom resource body of another kind with a strict decoding error: the error names the body's kind.
  const strict = await s('PUT', `${W}/u1?fieldValidation=Strict`, `{"apiVersion":"${G}/v1","kind":"Gadget","metadata":{"name":"u1","name":"u2"},"spec":{"a":"x"}}`);
  expect([strict.status, strict.message]).to.deep.equal([400, 'Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: duplicate field "metadata.name"']);
  // Through /status too (seed 20261202, case 986).
  const strictStatus = await s('PUT', `${W}/u1/status?fieldValidation=Strict`, `{"apiVersion":"${G}/v1","kind":"Gadget","metadata":{"name":"u1","name":"u2"},"status":{"replicas":1}}`);
  expect([strictStatus.status, strictStatus.message]).to.deep.equal([400, 'Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: duplicate field "metadata.name"']);

  // Scale: another namespace in the body is the handler's 400 before validation; a dry run answers the
  // Scale; a Scale of 0 replicas is written without them (omitempty).
  const ns = await s('PUT', `${W}/u1/scale`, JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'u1', namespace: 'other' }, spec: { replicas: -5 } }));
  expect([ns.status, ns.message]).to.deep.equal([400, 'the namespace of the provided object does not match the namespace sent on the request']);
  const dry = parse(await s('PATCH', `${W}/u1/scale?dryRun=All`, '{"spec":{"replicas":6}}', 'application/merge-patch+json'));
  expect([dry.apiVersion, dry.kind]).to.deep.equal(['autoscaling/v1', 'Scale']);
  const zero = JSON.parse((await s('PATCH', `${W}/u1/scale`, '{"spec":{"replicas":0}}', 'application/merge-patch+json')).text) as { spec: unknown };
  expect(zero.spec).to.deep.equal({});
}

describeOnBothServers('hostile input: the uid of an update as a precondition, kubekit and the real kube-apiserver', run);
