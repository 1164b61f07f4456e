// Regressions for the differences the differential suite found between the embedded server and the real
// kube-apiserver v1.34.4 on built-in kinds (test/differential/builtinScenarios.ts). Each expected answer
// is the one the reference gave for the same request; upstream sources: pkg/printers/internalversion
// (columns), pkg/apis/core/validation ValidateServicePort and ValidatePersistentVolumeClaimUpdate,
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

  it('publishes the list across namespaces in OpenAPI', async () => {
    const doc = (await client.get('/openapi/v3/apis/apps/v1')).body as { paths: Record<string, { get?: { operationId: string } }> };
    expect(doc.paths['/apis/apps/v1/deployments'].get!.operationId).to.equal('listAppsV1DeploymentForAllNamespaces');
  });
});
