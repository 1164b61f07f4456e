// What a built-in object reads back as from kube-apiserver's protobuf storage: a list, map, byte string or
// pointer member without `omitempty` that is absent or empty is Go's nil there, written `null` (a Role's
// `rules`, a LimitRange's `limits`, a projected volume's `sources`, a data source's `apiGroup`, a Job's
// `podFailurePolicy.rules`, a node image's `names`, a new CRD's `conditions`), in the create's answer
// (dry run too), in later reads, and to a JSON patch's `test`. Found by a kubectl walk (`kubectl get
// clusterrole -o yaml` printed `rules: null` on the reference only). With it: a Job's `manualSelector`
// is a default (its managed fields own it), a CustomResourceDefinition sent without apiVersion or kind takes
// the URL's (and one of another kind is refused in the apiextensions scheme's words), and an apiVersion
// with two slashes is no group version. Every expected answer is kube-apiserver 1.34.4's.
import { expect } from 'chai';
import { answered, describeOnBothServers, type Send } from './sender.js';

type Json = Record<string, unknown>;
const NS = '/api/v1/namespaces/default';
const ROLES = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const jsonPatch = 'application/json-patch+json';

function crd(plural: string, extra: Json): string {
  const kind = plural[0].toUpperCase() + plural.slice(1, -1);
  return JSON.stringify({
    ...extra, metadata: { name: `${plural}.nils.example.com` },
    spec: { group: 'nils.example.com', scope: 'Namespaced', names: { plural, kind }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
  });
}

async function run(s: Send): Promise<void> {
  // A Role's rules: none, empty or null are all stored as nil.
  const none = answered<Json>(await s('POST', ROLES, JSON.stringify({ metadata: { name: 'none' } })), 201);
  expect(none).to.include({ rules: null });
  expect(Object.hasOwn(none.metadata as Json, 'managedFields')).to.equal(false);
  const empty = answered<Json & { metadata: { managedFields: Json[] } }>(await s('POST', ROLES, JSON.stringify({ metadata: { name: 'empty' }, rules: [] })), 201);
  expect(empty.rules).to.equal(null);
  // The request's [] is a change from the empty Role's nil: its manager owns it.
  expect(empty.metadata.managedFields[0].fieldsV1).to.deep.equal({ 'f:rules': {} });
  expect(answered<Json>(await s('POST', `${ROLES}?dryRun=All`, JSON.stringify({ metadata: { name: 'dry' }, rules: [] })), 201).rules).to.equal(null);
  expect(answered<Json>(await s('GET', `${ROLES}/none`)).rules).to.equal(null);
  const applied = await s('PATCH', `${ROLES}/applied?fieldManager=m`, JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'applied' }, rules: [] }), 'application/apply-patch+yaml');
  expect(answered<Json>(applied, 201).rules).to.equal(null);
  // A JSON patch sees the stored null; adding [] again is no change at all.
  const tested = answered<Json & { metadata: { resourceVersion: string } }>(await s('PATCH', `${ROLES}/none`, JSON.stringify([{ op: 'test', path: '/rules', value: null }]), jsonPatch));
  const readded = answered<Json & { metadata: { resourceVersion: string } }>(await s('PATCH', `${ROLES}/none`, JSON.stringify([{ op: 'add', path: '/rules', value: [] }]), jsonPatch));
  expect(readded.rules).to.equal(null);
  expect(readded.metadata.resourceVersion).to.equal(tested.metadata.resourceVersion);
  expect(answered<Json>(await s('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', JSON.stringify({ metadata: { name: 'nils-aggregated' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } })), 201).rules).to.equal(null);

  // A LimitRange's limits.
  for (const [name, spec] of [['l1', {}], ['l2', { limits: [] }], ['l3', undefined]] as const) {
    const lr = answered<Json>(await s('POST', `${NS}/limitranges`, JSON.stringify({ metadata: { name }, spec })), 201);
    expect(lr.spec, name).to.deep.equal({ limits: null });
  }

  // Inside a pod: a projected volume without sources.
  const pod = answered<{ spec: { volumes: Json[] } }>(await s('POST', `${NS}/pods`, JSON.stringify({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], volumes: [{ name: 'a', projected: {} }, { name: 'b', projected: { sources: [] } }] } })), 201);
  expect(pod.spec.volumes).to.deep.equal([{ name: 'a', projected: { sources: null, defaultMode: 420 } }, { name: 'b', projected: { sources: null, defaultMode: 420 } }]);

  // A data source's apiGroup, a pointer without omitempty (dataSourceRef is copied from it).
  const pvc = answered<{ spec: Json }>(await s('POST', `${NS}/persistentvolumeclaims`, JSON.stringify({ metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, dataSource: { kind: 'PersistentVolumeClaim', name: 'x' } } })), 201);
  expect(pvc.spec.dataSource).to.deep.equal({ apiGroup: null, kind: 'PersistentVolumeClaim', name: 'x' });
  expect(pvc.spec.dataSourceRef).to.deep.equal({ apiGroup: null, kind: 'PersistentVolumeClaim', name: 'x' });

  // An update that leaves such a field out (client-node drops nulls) or sends [] is no change to an
  // immutable spec: Go holds nil for all three (Semantic.DeepEqual takes an empty list for nil).
  const dropped = (o: Json, at: string[]): Json => {
    const copy = JSON.parse(JSON.stringify(o)) as Json;
    let holder = copy as Record<string, unknown>;
    for (const k of at.slice(0, -1)) holder = holder[k] as Record<string, unknown>;
    delete holder[at[at.length - 1]];
    return copy;
  };
  const relabelled = (o: Json): Json => ({ ...o, metadata: { ...(o.metadata as Json), labels: { changed: 'yes' } } });
  const pvcAgain = await s('PUT', `${NS}/persistentvolumeclaims/c`, JSON.stringify(relabelled(dropped(dropped(pvc as Json, ['spec', 'dataSource', 'apiGroup']), ['spec', 'dataSourceRef', 'apiGroup']))));
  expect(answered<{ spec: Json }>(pvcAgain).spec.dataSource).to.deep.equal({ apiGroup: null, kind: 'PersistentVolumeClaim', name: 'x' });
  const current = answered<Json & { spec: { volumes: Json[] } }>(await s('GET', `${NS}/pods/p`));
  const podAgain = relabelled(current) as Json & { spec: { volumes: Array<{ projected: Json }> } };
  delete podAgain.spec.volumes[0].projected.sources;
  podAgain.spec.volumes[1].projected.sources = [];
  expect(answered<{ spec: { volumes: Json[] } }>(await s('PUT', `${NS}/pods/p`, JSON.stringify(podAgain))).spec.volumes).to.deep.equal(pod.spec.volumes);

  // A Job: its pod failure policy's empty rules, and manualSelector as a default its manager owns.
  const job = answered<{ spec: Json; metadata: { managedFields: Array<{ fieldsV1: Record<string, Json> }> } }>(await s('POST', '/apis/batch/v1/namespaces/default/jobs', JSON.stringify({ metadata: { name: 'j' }, spec: { podFailurePolicy: { rules: [] }, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } })), 201);
  expect(job.spec.podFailurePolicy).to.deep.equal({ rules: null });
  expect(job.spec.manualSelector).to.equal(false);
  expect(Object.keys(job.metadata.managedFields[0].fieldsV1['f:spec']).sort()).to.deep.equal(['f:backoffLimit', 'f:completionMode', 'f:completions', 'f:manualSelector', 'f:parallelism', 'f:podFailurePolicy', 'f:podReplacementPolicy', 'f:suspend', 'f:template']);

  const jobAgain = relabelled(job as unknown as Json) as Json & { spec: { podFailurePolicy: Json } };
  jobAgain.spec.podFailurePolicy = { rules: [] };
  expect(answered<{ spec: Json }>(await s('PUT', '/apis/batch/v1/namespaces/default/jobs/j', JSON.stringify(jobAgain))).spec.podFailurePolicy).to.deep.equal({ rules: null });

  // A node's image without names.
  const node = answered<{ status: { images: Json[] } }>(await s('POST', '/api/v1/nodes', JSON.stringify({ metadata: { name: 'nils-node' }, status: { images: [{ sizeBytes: 5 }] } })), 201);
  expect(node.status.images).to.deep.equal([{ names: null, sizeBytes: 5 }]);

  // A CustomResourceDefinition without apiVersion or kind takes the URL's; a new one's conditions are nil.
  for (const [plural, extra] of [['as', {}], ['bs', { kind: 'CustomResourceDefinition' }], ['cs', { apiVersion: 'apiextensions.k8s.io/v1' }], ['ds', { kind: null, apiVersion: null }]] as const) {
    const made = answered<Json>(await s('POST', CRDS, crd(plural, extra)), 201);
    expect(made, plural).to.include({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' });
    expect(made.status).to.deep.equal({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
  }
  const refused = async (extra: Json, message: string): Promise<void> => {
    const a = await s('POST', CRDS, crd('zs', extra));
    expect(a.status, a.text).to.equal(400);
    expect(a.message).to.equal(message);
  };
  const handled = (kind: string, version: string, why: string): string => `${kind} in version "${version}" cannot be handled as a CustomResourceDefinition: ${why}`;
  const unregistered = (kind: string, version: string): string => `no kind "${kind}" is registered for version "${version}" in scheme "pkg/runtime/scheme.go:110"`;
  const unconverted = (type: string): string => `converting (${type}) to (apiextensions.CustomResourceDefinition): unknown conversion`;
  await refused({ kind: 'Pod' }, handled('Pod', 'v1', unregistered('Pod', 'apiextensions.k8s.io/v1')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'Foo' }, handled('Foo', 'v1', unregistered('Foo', 'apiextensions.k8s.io/v1')));
  await refused({ apiVersion: 'v1', kind: 'CustomResourceDefinition' }, handled('CustomResourceDefinition', 'v1', unregistered('CustomResourceDefinition', 'v1')));
  await refused({ apiVersion: 'apps/v1', kind: 'Deployment' }, handled('Deployment', 'v1', unregistered('Deployment', 'apps/v1')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v2' }, handled('CustomResourceDefinition', 'v2', unregistered('CustomResourceDefinition', 'apiextensions.k8s.io/v2')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinitionList' }, handled('CustomResourceDefinitionList', 'v1', unconverted('v1.CustomResourceDefinitionList')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' }, handled('ConversionReview', 'v1beta1', unconverted('v1beta1.ConversionReview')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ListOptions' }, handled('ListOptions', 'v1', unconverted('v1.ListOptions')));
  await refused({ kind: 'Status' }, handled('Status', 'v1', unconverted('v1.Status')));
  await refused({ apiVersion: 'v1', kind: 'WatchEvent' }, handled('WatchEvent', 'v1', unconverted('v1.WatchEvent')));
  await refused({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition' }, 'the API version in the data (apiextensions.k8s.io/v1beta1) does not match the expected API version (apiextensions.k8s.io/v1)');
  await refused({ apiVersion: 'a/b/c' }, 'the object provided is unrecognized (must be of type CustomResourceDefinition): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","metadat ...)');
  // A PUT without apiVersion or kind is read the same way (then it needs a resourceVersion).
  const put = await s('PUT', `${CRDS}/as.nils.example.com`, crd('as', {}));
  expect(put.status, put.text).to.equal(422);
  expect(put.message).to.equal('customresourcedefinitions.apiextensions.k8s.io "as.nils.example.com" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');

  // Two slashes are no group version, for a built-in kind either.
  const cm = await s('POST', `${NS}/configmaps`, JSON.stringify({ apiVersion: 'a/b/c', metadata: { name: 'x' } }));
  expect(cm.status, cm.text).to.equal(400);
  expect(cm.message).to.equal('the object provided is unrecognized (must be of type ConfigMap): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","metadat ...)');

  for (const plural of ['as', 'bs', 'cs', 'ds']) answered(await s('DELETE', `${CRDS}/${plural}.nils.example.com`));
  answered(await s('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/nils-aggregated'));
  answered(await s('DELETE', '/api/v1/nodes/nils-node'));
}

describeOnBothServers('stored nils: built-in objects as read back from protobuf storage, kubekit and the real kube-apiserver', run);
