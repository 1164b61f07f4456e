// The order in which an update or a patch of a custom resource is checked, which decides the answer when a
// request is wrong in more than one way: the namespace (rest.EnsureObjectNamespaceMatchesRequestNamespace),
// then the name (handlers/rest.go checkName), both before the object is read; then the store's
// resourceVersion check; then rest.BeforeUpdate's metadata validation, and the strategy's ValidateTypeMeta
// (another kind, or from a patch another apiVersion) after it, in a 422 naming the object's own group and
// kind (kube-apiserver 1.34.4, hostile differential seeds 20270202, 20270203, 20270204, 20270205). A patch
// that leaves no kind or apiVersion (seed 20270228).
import { expect } from 'chai';
import { createWidgets, describeOnBothServers, type Send } from './sender.js';

const G = 'order.example.com';
const W = `/apis/${G}/v1/namespaces/default/widgets`;
const CM = '/api/v1/namespaces/default/configmaps';
const finalizerError = 'metadata.finalizers: Invalid value: "Bad Finalizer": name part must consist of alphanumeric characters';
const labelError = 'metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters';

interface Expected { status: number; message: string | RegExp; causes?: string[] }

async function run(s: Send, backend: 'kubekit' | 'reference'): Promise<void> {
  await createWidgets(s, G, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  const created = await s('POST', W, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { a: 'x' } }));
  expect(created.status).to.equal(201);
  const rv = (JSON.parse(created.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  expect((await s('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }))).status).to.equal(201);

  const check = async (label: string, answer: Promise<{ status: number; text: string; message: string }>, want: Expected): Promise<void> => {
    const a = await answer;
    expect(a.status, `${label}: ${a.text}`).to.equal(want.status);
    if (typeof want.message === 'string') expect(a.message, label).to.equal(want.message);
    else expect(a.message, label).to.match(want.message);
    if (want.causes !== undefined) {
      const causes = ((JSON.parse(a.text) as { details?: { causes?: { field: string; message: string }[] } }).details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
      expect(causes.length, `${label}: ${causes.join(' | ')}`).to.equal(want.causes.length);
      want.causes.forEach((start, i) => expect(causes[i].startsWith(start), `${label}: cause ${i}: ${causes[i]}`).to.equal(true));
    }
  };
  const jsonPatch = (ops: unknown[]) => s('PATCH', `${W}/w?dryRun=All`, JSON.stringify(ops), 'application/json-patch+json');
  const mergePatch = (body: unknown) => s('PATCH', `${W}/w?dryRun=All`, JSON.stringify(body), 'application/merge-patch+json');
  const nameMismatch = { status: 400, message: 'the name of the object (x) does not match the name on the URL (w)' };
  const namespaceMismatch = { status: 400, message: 'the namespace of the provided object does not match the namespace sent on the request' };
  const noResourceVersion = { status: 422, message: `widgets.${G} "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update` };

  // A JSON patch that replaces the whole object: the name and namespace are checked before what it is.
  await check('JSON patch: the root replaced without metadata', jsonPatch([{ op: 'replace', path: '', value: { apiVersion: 'v1', kind: 'ConfigMap' } }]),
    { status: 400, message: 'the name of the object (w based on URL) was undeterminable: name must be provided' });
  await check('JSON patch: the root replaced, another name', jsonPatch([{ op: 'replace', path: '', value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }]), nameMismatch);
  await check('JSON patch: the root replaced, another name and namespace', jsonPatch([{ op: 'replace', path: '', value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'other' } } }]), namespaceMismatch);
  await check('JSON patch: the root replaced, the same name, no resourceVersion', jsonPatch([{ op: 'replace', path: '', value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', finalizers: ['Bad Finalizer'] } } }]), noResourceVersion);
  // Another apiVersion from a patch: the update's metadata errors, then ValidateTypeMeta's.
  await check('JSON patch: apiVersion v1', jsonPatch([{ op: 'replace', path: '/apiVersion', value: 'v1' }]),
    { status: 422, message: `Widget "w" is invalid: apiVersion: Invalid value: "v1": must be ${G}/v1` });
  await check('JSON patch: apiVersion of another group', jsonPatch([{ op: 'replace', path: '/apiVersion', value: 'other.io/v1' }]),
    { status: 422, message: `Widget.other.io "w" is invalid: apiVersion: Invalid value: "other.io/v1": must be ${G}/v1` });
  await check('JSON patch: apiVersion v1 and a bad finalizer', jsonPatch([{ op: 'replace', path: '/apiVersion', value: 'v1' }, { op: 'add', path: '/metadata/finalizers', value: ['Bad Finalizer'] }]),
    { status: 422, message: /^Widget "w" is invalid: \[metadata\.finalizers: Invalid value: "Bad Finalizer": .*, apiVersion: Invalid value: "v1": must be order\.example\.com\/v1\]$/, causes: [finalizerError, `apiVersion: Invalid value: "v1": must be ${G}/v1`] });
  await check('merge patch: apiVersion of another group and another name', mergePatch({ apiVersion: 'other.io/v1', metadata: { name: 'x' } }), nameMismatch);
  // Another kind: the same, from a merge patch or an update.
  await check('merge patch: another kind', mergePatch({ kind: 'Gadget' }), { status: 422, message: `Gadget.${G} "w" is invalid: kind: Invalid value: "Gadget": must be Widget` });
  await check('merge patch: another kind and a bad finalizer', mergePatch({ kind: 'Gadget', metadata: { finalizers: ['Bad Finalizer'] } }),
    { status: 422, message: /^Gadget\.order\.example\.com "w" is invalid: \[metadata\.finalizers: .*, kind: Invalid value: "Gadget": must be Widget\]$/, causes: [finalizerError, 'kind: Invalid value: "Gadget": must be Widget'] });
  // A bad label is reported twice: by ValidateObjectMetaAccessor and ValidateObjectMetaAccessorUpdate.
  await check('merge patch: another kind and a bad label', mergePatch({ kind: 'Gadget', metadata: { labels: { 'a b': 'c' } } }),
    { status: 422, message: /^Gadget\.order\.example\.com "w" is invalid: \[metadata\.labels: .*, kind: Invalid value: "Gadget": must be Widget\]$/, causes: [labelError, labelError, 'kind: Invalid value: "Gadget": must be Widget'] });
  await check('update: another kind and a bad finalizer', s('PUT', `${W}/w?dryRun=All`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Gadget', metadata: { name: 'w', resourceVersion: rv, finalizers: ['Bad Finalizer'] } })),
    { status: 422, message: /^Gadget\.order\.example\.com "w" is invalid: \[metadata\.finalizers: .*, kind: Invalid value: "Gadget": must be Widget\]$/, causes: [finalizerError, 'kind: Invalid value: "Gadget": must be Widget'] });
  await check('update: another kind, no resourceVersion', s('PUT', `${W}/w?dryRun=All`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Gadget', metadata: { name: 'w', finalizers: ['Bad Finalizer'] } })), noResourceVersion);
  // A create checks the kind alone.
  await check('create: another kind and a bad finalizer', s('POST', `${W}?dryRun=All`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Gadget', metadata: { name: 'w2', finalizers: ['Bad Finalizer'] } })),
    { status: 422, message: `Gadget.${G} "w2" is invalid: kind: Invalid value: "Gadget": must be Widget` });
  // A patch that leaves no kind: the codec's error, quoted as a patch's 422. No apiVersion on a custom
  // resource: the same words, a 500 "Internal error occurred" from kube-apiserver, a 400 from kubekit (never
  // a 5xx for a client's mistake). No apiVersion on a built-in object: nothing decodes, so no name.
  const kindMissing = /^ "" is invalid: patch: Invalid value: "\{.*\}": Object 'Kind' is missing in '\{.*\}'$/s;
  await check('JSON patch: kind removed', jsonPatch([{ op: 'remove', path: '/kind' }]), { status: 422, message: kindMissing });
  await check('merge patch: kind null', mergePatch({ kind: null }), { status: 422, message: kindMissing });
  // The missing kind's message prints the patched bytes the 422 quotes: a `-0` written by the patch stays
  // `-0` in both (hostile seed 20261128, case 171).
  const minusZero = await s('PATCH', `${W}/w?dryRun=All`, '[{"op":"remove","path":"/kind"},{"op":"add","path":"/metadata/labels","value":-0}]', 'application/json-patch+json');
  const [, quoted, missing] = /^ "" is invalid: patch: Invalid value: "(\{.*\})": Object 'Kind' is missing in '(\{.*\})'$/s.exec(minusZero.message) ?? [];
  expect([minusZero.status, (JSON.parse(`"${quoted}"`) as string).includes('"labels":-0'), missing?.includes('"labels":-0')], minusZero.text).to.deep.equal([422, true, true]);
  await check('JSON patch: apiVersion and kind removed', jsonPatch([{ op: 'remove', path: '/apiVersion' }, { op: 'remove', path: '/kind' }]), { status: 422, message: kindMissing });
  await check('merge patch: apiVersion null', mergePatch({ apiVersion: null }), backend === 'reference'
    ? { status: 500, message: 'Internal error occurred: Object \'apiVersion\' is missing in \'object has no apiVersion field\'' }
    : { status: 400, message: /^Object 'apiVersion' is missing in '\{.*\}'$/s });
  const noName = { status: 400, message: 'the name of the object (cm based on URL) was undeterminable: name must be provided' };
  await check('ConfigMap JSON patch: apiVersion removed', s('PATCH', `${CM}/cm?dryRun=All`, '[{"op":"remove","path":"/apiVersion"}]', 'application/json-patch+json'), noName);
  await check('ConfigMap merge patch: apiVersion ""', s('PATCH', `${CM}/cm?dryRun=All`, '{"apiVersion":""}', 'application/merge-patch+json'), noName);
  await check('ConfigMap merge patch: kind null (the codec keeps the object\'s)', s('PATCH', `${CM}/cm?dryRun=All`, '{"kind":null}', 'application/merge-patch+json'), { status: 200, message: '' });
  // An update's namespace is checked before its name, and both before the object is read.
  await check('update: another namespace and (a duplicate key) another name', s('PUT', `${CM}/cm`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"other","name":"x"}}'), namespaceMismatch);
  await check('update of a missing object: another namespace', s('PUT', `${W}/gone`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'gone', namespace: 'other', resourceVersion: rv } })), namespaceMismatch);
  await check('update of a missing object: another name', s('PUT', `${W}/gone`, JSON.stringify({ apiVersion: `${G}/v1`, kind: 'Widget', metadata: { name: 'x', resourceVersion: rv } })),
    { status: 400, message: 'the name of the object (x) does not match the name on the URL (gone)' });
}

describeOnBothServers('hostile input: the order of an update\'s and a patch\'s checks, kubekit and the real kube-apiserver', run);
