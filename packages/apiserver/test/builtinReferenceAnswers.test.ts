// Regressions for the differences the differential suite found between the embedded server and the real
// kube-apiserver v1.34.4 on built-in kinds (test/differential/builtinScenarios.ts). Each expected answer
// is the one the reference gave for the same request; upstream sources: pkg/printers/internalversion
// (columns), field_validation_test.go (unknown fields of built-in kinds), pkg/apis/core/validation ValidateServicePort and ValidatePersistentVolumeClaimUpdate,
// pkg/apis/batch/v1/defaults.go SetDefaults_Job, robfig/cron's parser (CronJob schedules),
// plugin/pkg/admission/storage/storageobjectinuseprotection and pkg/controller/volume/pvcprotection.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client } from './internal/client.js';

const tableAccept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

describe('built-in kinds answer as kube-apiserver v1.34.4 does', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });
  after(() => server.close());

  it('declares the Table columns of the apiserver\'s printers (types and descriptions)', async () => {
    const t = await client.get('/apis/apps/v1/namespaces/default/deployments', tableAccept);
    const upToDate = (t.body.columnDefinitions as { name: string }[]).find((c) => c.name === 'Up-to-date');
    expect(upToDate).to.deep.equal({ name: 'Up-to-date', type: 'string', format: '', description: 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.', priority: 0 });
    const pods = await client.get('/api/v1/namespaces/default/pods', tableAccept);
    expect((pods.body.columnDefinitions as { name: string }[]).map((c) => c.name)).to.deep.equal(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
  });

  it('prints a Pod\'s readiness gates as ready/total', async () => {
    await client.post('/api/v1/namespaces/default/pods', { metadata: { name: 'gated' }, spec: { readinessGates: [{ conditionType: 'a' }, { conditionType: 'b' }], containers: [{ name: 'c', image: 'x' }] } });
    await client.patch('/api/v1/namespaces/default/pods/gated/status', { status: { conditions: [{ type: 'a', status: 'True' }, { type: 'b', status: 'False' }] } });
    const t = await client.get('/api/v1/namespaces/default/pods/gated', tableAccept);
    expect(t.body.rows[0].cells.slice(5)).to.deep.equal(['<none>', '<none>', '<none>', '1/2']);
  });

  it('validates a Service port\'s defaulted targetPort as well', async () => {
    const r = await client.post('/api/v1/namespaces/default/services', { metadata: { name: 'far' }, spec: { ports: [{ port: 70000 }] } });
    expect(r.body.message).to.equal('Service "far" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]');
  });

  it('gives a Job without labels its pod template\'s, selector labels included', async () => {
    const r = await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } });
    const uid = r.body.metadata.uid as string;
    expect(r.body.metadata.labels).to.deep.equal({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'once', 'controller-uid': uid, 'job-name': 'once' });
    const labelled = await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'mine', labels: { team: 'a' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } });
    expect(labelled.body.metadata.labels).to.deep.equal({ team: 'a' });
  });

  it('writes empty template metadata and words bad schedules as robfig/cron does (CronJobs)', async () => {
    const cj = (name: string, schedule: string) => ({ metadata: { name }, spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'x' }] } } } } } });
    const ok = await client.post('/apis/batch/v1/namespaces/default/cronjobs', cj('nightly', '0 3 * * *'));
    expect(ok.body.spec.jobTemplate.metadata).to.deep.equal({});
    expect(ok.body.spec.jobTemplate.spec.template.metadata).to.deep.equal({});
    const bad = await client.post('/apis/batch/v1/namespaces/default/cronjobs', cj('bad', 'every night'));
    expect(bad.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: 'Invalid value: "every night": expected exactly 5 fields, found 2: [every night]', field: 'spec.schedule' }]);
  });

  it('protects a claim with the pvc-protection finalizer until no running Pod uses it', async () => {
    const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
    const claim = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const created = await client.post(claims, claim('data'));
    expect(created.body.metadata.finalizers).to.deep.equal(['kubernetes.io/pvc-protection']);
    const t = await client.get(`${claims}/data`, tableAccept);
    expect(t.body.rows[0].cells.slice(1, 7)).to.deep.equal(['Pending', '', '', '', '', '<unset>']);

    await client.post('/api/v1/namespaces/default/pods', { metadata: { name: 'user' }, spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }], containers: [{ name: 'c', image: 'x' }] } });
    const deleting = await client.request('DELETE', `${claims}/data`);
    expect(deleting.body.metadata.deletionTimestamp).to.be.a('string');
    await server.idle();
    expect((await client.get(`${claims}/data`)).status, 'kept while the pod runs').to.equal(200);
    await client.patch('/api/v1/namespaces/default/pods/user/status', { status: { phase: 'Succeeded' } });
    await server.idle();
    expect((await client.get(`${claims}/data`)).status, 'released once the pod finished').to.equal(404);

    await client.post(claims, claim('unused'));
    await client.request('DELETE', `${claims}/unused`);
    await server.idle();
    expect((await client.get(`${claims}/unused`)).status).to.equal(404);
  });

  it('refuses changes to a claim\'s spec', async () => {
    const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
    await client.post(claims, { metadata: { name: 'fixed' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const r = await client.patch(`${claims}/fixed`, { spec: { accessModes: ['ReadWriteMany'] } });
    expect(r.status).to.equal(422);
    expect(r.body.details.causes[0]).to.include({ reason: 'FieldValueForbidden', field: 'spec' });
    expect(r.body.details.causes[0].message).to.match(/^Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n/);
    const named = await client.patch(`${claims}/fixed`, { spec: { volumeName: 'pv-1' } });
    expect(named.status, 'an unbound claim may be given its volume').to.equal(200);
  });

  it('refuses a Lease with a duration that is not positive (ValidateLeaseSpec)', async () => {
    const r = await client.post('/apis/coordination.k8s.io/v1/namespaces/default/leases', { metadata: { name: 'l2' }, spec: { leaseDurationSeconds: 0 } });
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('Lease.coordination.k8s.io "l2" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0');
  });

  it('drops fields the kind\'s schema does not know, and reports them per fieldValidation', async () => {
    const body = (name: string) => ({ metadata: { name }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x', colour: 'blue' }] } }, bogus: 1 } });
    const path = '/apis/apps/v1/namespaces/default/deployments';
    const strict = await client.post(`${path}?fieldValidation=Strict`, body('strict'));
    expect(strict.status).to.equal(400);
    expect(strict.body.message).to.equal('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].colour", unknown field "spec.bogus"');
    const warn = await client.post(path, body('warn'));
    expect(warn.status).to.equal(201);
    expect(warn.headers.get('warning')).to.equal('299 - "unknown field \\"spec.template.spec.containers[0].colour\\"", 299 - "unknown field \\"spec.bogus\\""');
    expect(warn.body.spec).to.not.have.property('bogus');
    expect(warn.body.spec.template.spec.containers[0]).to.not.have.property('colour');
    const ignore = await client.post(`${path}?fieldValidation=Ignore`, { ...body('ignore'), metadata: { name: 'ignore', annotations: { keep: 'me' } } });
    expect(ignore.headers.get('warning')).to.equal(null);
    expect(ignore.body.metadata.annotations).to.deep.equal({ keep: 'me' });
  });

  it('refuses a StatefulSet pod management policy other than OrderedReady or Parallel', async () => {
    const r = await client.post('/apis/apps/v1/namespaces/default/statefulsets', { metadata: { name: 'bad' }, spec: { podManagementPolicy: 'Sometimes', selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } });
    expect(r.body.message).to.equal('StatefulSet.apps "bad" is invalid: spec.podManagementPolicy: Invalid value: "Sometimes": must be \'OrderedReady\' or \'Parallel\'');
  });

  it('carries a DaemonSet\'s template generation as its annotation, not in Table rows', async () => {
    const path = '/apis/apps/v1/namespaces/default/daemonsets';
    const ds = { metadata: { name: 'agent', annotations: { 'deprecated.daemonset.template.generation': '7' } }, spec: { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    const created = await client.post(path, ds);
    expect(created.body.metadata.annotations).to.deep.equal({ 'deprecated.daemonset.template.generation': '1' });
    const same = await client.patch(`${path}/agent`, { spec: { minReadySeconds: 5 } });
    expect(same.body.metadata.annotations['deprecated.daemonset.template.generation']).to.equal('1');
    const changed = await client.patch(`${path}/agent`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'y' }] } } } });
    expect(changed.body.metadata.annotations['deprecated.daemonset.template.generation']).to.equal('2');
    const row = (await client.get(`${path}/agent`, tableAccept)).body.rows[0];
    expect(row.object.metadata).to.not.have.property('annotations');
  });

  it('warns about an unknown field whose name is not latin1, sending the warning\'s UTF-8 bytes (fuzz seed 1515)', async () => {
    const r = await client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'euro' }, '€uro': 1 });
    expect(r.status).to.equal(201);
    expect(Buffer.from(r.headers.get('warning')!, 'latin1').toString('utf8')).to.equal('299 - "unknown field \\"€uro\\""');
  });

  it('publishes the list across namespaces in OpenAPI', async () => {
    const doc = (await client.get('/openapi/v3/apis/apps/v1')).body as { paths: Record<string, { get?: { operationId: string } }> };
    expect(doc.paths['/apis/apps/v1/deployments'].get!.operationId).to.equal('listAppsV1DeploymentForAllNamespaces');
  });
});
