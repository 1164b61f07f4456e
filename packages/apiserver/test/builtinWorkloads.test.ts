// The workload, serving and access kinds over HTTP. Expected bodies and messages are the ones the real
// kube-apiserver (v1.34.4, built by @kubekit/envtest) gave for the same requests, and follow upstream's
// pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec, ValidateStatefulSetSpec,
// ValidateDaemonSetSpec), pkg/apis/batch/validation/validation.go, pkg/apis/rbac/validation and the
// defaulting functions of pkg/apis/{apps,batch,core}/v1/defaults.go.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { start, type Client, type LooseObject } from './internal/client.js';

const tableAccept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

function deployment(name: string, selector: unknown, labels: Record<string, string>, containers: unknown[] = [{ name: 'c', image: 'nginx:1.25' }]): LooseObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector, template: { metadata: { labels }, spec: { containers } } } };
}

describe('built-in workload kinds', () => {
  let server: ApiServer;
  let client: Client;

  before(async () => {
    ({ server, client } = await start());
  });

  after(async () => {
    await server.close();
  });

  it('lists apps, batch and rbac kinds in discovery, with status and scale subresources', async () => {
    const apps = await client.get('/apis/apps/v1');
    const names = apps.body.resources.map((r: { name: string }) => r.name);
    expect(names).to.include.members(['deployments', 'deployments/status', 'deployments/scale', 'statefulsets/scale', 'replicasets/scale', 'daemonsets/status']);
    expect(names).to.not.include('daemonsets/scale');
    const deploy = apps.body.resources.find((r: { name: string }) => r.name === 'deployments');
    expect(deploy).to.include({ kind: 'Deployment', namespaced: true });
    expect(deploy.shortNames).to.deep.equal(['deploy']);
    const batch = await client.get('/apis/batch/v1');
    expect(batch.body.resources.map((r: { name: string }) => r.name)).to.include.members(['jobs', 'jobs/status', 'cronjobs']);
    const rbac = await client.get('/apis/rbac.authorization.k8s.io/v1');
    expect(rbac.body.resources.map((r: { name: string }) => r.name)).to.deep.equal(['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles']);
    const core = await client.get('/api/v1');
    expect(core.body.resources.map((r: { name: string }) => r.name)).to.include.members(['services', 'services/status', 'serviceaccounts', 'persistentvolumeclaims']);
  });

  it('defaults a Deployment as the apiserver does (kubectl create deployment d1 --image=nginx:1.25 --port=80)', async () => {
    const body = deployment('d1', { matchLabels: { app: 'd1' } }, { app: 'd1' }, [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: {} }]);
    body.metadata.labels = { app: 'd1' };
    const r = await client.post('/apis/apps/v1/namespaces/default/deployments', body);
    expect(r.status).to.equal(201);
    expect(r.body.metadata.generation).to.equal(1);
    expect(r.body.spec).to.deep.equal({
      progressDeadlineSeconds: 600, replicas: 1, revisionHistoryLimit: 10, selector: { matchLabels: { app: 'd1' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { labels: { app: 'd1' } },
        spec: {
          containers: [{ image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', name: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
          dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30,
        },
      },
    });
    expect(r.body.status).to.deep.equal({});
  });

  it('defaults a StatefulSet\'s claim templates as PersistentVolumeClaims (kube-apiserver 1.34.4)', async () => {
    const r = await client.post('/apis/apps/v1/namespaces/default/statefulsets', {
      metadata: { name: 'claims' },
      spec: {
        serviceName: 'svc', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } }],
      },
    });
    expect(r.status).to.equal(201);
    expect(r.body.spec.volumeClaimTemplates).to.deep.equal([{
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
    }]);
  });

  it('refuses a selector that does not match the template labels, with the apiserver\'s message', async () => {
    const r = await client.post('/apis/apps/v1/namespaces/default/deployments', deployment('bad', { matchLabels: { app: 'x' } }, { app: 'yy', b: 'c' }));
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('Deployment.apps "bad" is invalid: spec.template.metadata.labels: Invalid value: {"app":"yy","b":"c"}: `selector` does not match template `labels`');
  });

  it('refuses empty and missing selectors and templates without containers', async () => {
    const empty = await client.post('/apis/apps/v1/namespaces/default/deployments', deployment('es', {}, { app: 'yy' }, []));
    expect(empty.body.message).to.equal('Deployment.apps "es" is invalid: [spec.selector: Invalid value: {}: empty selector is invalid for deployment, spec.template.spec.containers: Required value]');
    const missing = await client.post('/apis/apps/v1/namespaces/default/deployments', deployment('nosel', undefined, { app: 'yy' }));
    expect(missing.body.message).to.equal('Deployment.apps "nosel" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"yy"}: `selector` does not match template `labels`]');
    const ds = await client.post('/apis/apps/v1/namespaces/default/daemonsets', { metadata: { name: 'nosel' }, spec: { template: { metadata: { labels: { app: 'yy' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
    expect(ds.body.message).to.equal('DaemonSet.apps "nosel" is invalid: spec.template.metadata.labels: Invalid value: {"app":"yy"}: `selector` does not match template `labels`');
    const sts = await client.post('/apis/apps/v1/namespaces/default/statefulsets', { metadata: { name: 'ns' }, spec: { template: { metadata: { labels: { app: 'yy' } }, spec: { containers: [{ name: 'c' }] } } } });
    expect(sts.body.message).to.equal('StatefulSet.apps "ns" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"yy"}: `selector` does not match template `labels`, spec.template.spec.containers[0].image: Required value]');
  });

  it('serves the scale subresource of Deployments and bumps the generation on spec changes only', async () => {
    const scaled = await client.patch('/apis/apps/v1/namespaces/default/deployments/d1/scale', { spec: { replicas: 4 } });
    expect(scaled.status).to.equal(200);
    expect(scaled.body).to.deep.include({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 }, status: { replicas: 0, selector: 'app=d1' } });
    const got = await client.get('/apis/apps/v1/namespaces/default/deployments/d1');
    expect(got.body.spec.replicas).to.equal(4);
    expect(got.body.metadata.generation).to.equal(2);
    const status = await client.put('/apis/apps/v1/namespaces/default/deployments/d1/status', { ...got.body, status: { replicas: 4, readyReplicas: 3, updatedReplicas: 4, availableReplicas: 3 } });
    expect(status.body.metadata.generation).to.equal(2);
    const table = await client.get('/apis/apps/v1/namespaces/default/deployments', tableAccept);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    expect(table.body.rows[0].cells.slice(0, 4)).to.deep.equal(['d1', '3/4', 4, 3]);
    expect(table.body.rows[0].cells.slice(5)).to.deep.equal(['nginx', 'nginx:1.25', 'app=d1']);
  });

  it('keeps the selector immutable', async () => {
    const r = await client.patch('/apis/apps/v1/namespaces/default/deployments/d1', { spec: { selector: { matchLabels: { app: 'd1', x: 'y' } }, template: { metadata: { labels: { app: 'd1', x: 'y' } } } } });
    expect(r.status).to.equal(422);
    expect(r.body.message).to.equal('Deployment.apps "d1" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"d1","x":"y"}}: field is immutable');
  });

  it('compares the selector as a value, not as text: the same labels in another order are no change', async () => {
    // ValidateDeploymentUpdate compares with apiequality.Semantic.DeepEqual, which ignores map key order.
    const labels = { a: '1', b: '2' };
    const created = await client.post('/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'order' }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
    expect(created.status).to.equal(201);
    const reordered = { b: '2', a: '1' };
    const r = await client.put('/apis/apps/v1/namespaces/default/deployments/order', { ...created.body, spec: { ...created.body.spec, selector: { matchLabels: reordered } } });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect((await client.delete('/apis/apps/v1/namespaces/default/deployments/order')).status).to.equal(200);
  });

  it('generates a Job\'s selector from its uid and requires OnFailure or Never', async () => {
    const r = await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'j1' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'Never' } } } });
    expect(r.status).to.equal(201);
    const uid = r.body.metadata.uid as string;
    expect(r.body.spec).to.deep.include({ backoffLimit: 6, completionMode: 'NonIndexed', completions: 1, parallelism: 1, manualSelector: false, podReplacementPolicy: 'TerminatingOrFailed', suspend: false });
    expect(r.body.spec.selector).to.deep.equal({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(r.body.spec.template.metadata.labels).to.deep.equal({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'j1', 'controller-uid': uid, 'job-name': 'j1' });
    const bad = await client.post('/apis/batch/v1/namespaces/default/jobs', { metadata: { name: 'bj' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } });
    expect(bad.body.message).to.equal('Job.batch "bj" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    const cj = await client.post('/apis/batch/v1/namespaces/default/cronjobs', { metadata: { name: 'bcj' }, spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } } } } });
    expect(cj.body.message).to.equal('CronJob.batch "bcj" is invalid: [spec.schedule: Required value, spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"]');
    const table = await client.get('/apis/batch/v1/namespaces/default/jobs', tableAccept);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']);
    expect(table.body.rows[0].cells.slice(0, 4)).to.deep.equal(['j1', 'Running', '0/1', '']);
  });

  it('selects Jobs and ReplicaSets on their built-in field selectors, refusing others with the apiserver\'s message', async () => {
    const jobs = await client.get('/apis/batch/v1/jobs?fieldSelector=status.successful%3D0');
    expect(jobs.body.items.map((j: LooseObject) => j.metadata.name)).to.deep.equal(['j1']);
    const bad = await client.get('/apis/apps/v1/deployments?fieldSelector=spec.replicas%3D1');
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
    const byNamespace = await client.get('/apis/apps/v1/deployments?fieldSelector=metadata.namespace%3Ddefault');
    expect(byNamespace.body.items).to.have.length(1);
  });

  it('allocates Service cluster IPs and node ports and defaults their ports', async () => {
    const a = await client.post('/api/v1/namespaces/default/services', { metadata: { name: 's1' }, spec: { selector: { app: 's1' }, ports: [{ name: '80-8080', port: 80, targetPort: 8080 }] } });
    expect(a.status).to.equal(201);
    const { clusterIP, clusterIPs, ...spec } = a.body.spec;
    expect(spec).to.deep.equal({ internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', ports: [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }], selector: { app: 's1' }, sessionAffinity: 'None', type: 'ClusterIP' });
    expect(clusterIPs).to.deep.equal([clusterIP]);
    expect(a.body.status).to.deep.equal({ loadBalancer: {} });
    const b = await client.post('/api/v1/namespaces/default/services', { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    expect(b.body.spec.clusterIP).to.not.equal(clusterIP);
    expect(b.body.spec.ports[0].nodePort).to.be.within(30000, 32767);
    const kept = await client.put('/api/v1/namespaces/default/services/s1', { metadata: { name: 's1' }, spec: { ports: [{ port: 81 }] } });
    expect(kept.body.spec.clusterIP).to.equal(clusterIP);
    const bad = await client.post('/api/v1/namespaces/default/services', { metadata: { name: 'bs' }, spec: { ports: [{ port: 80 }, { port: 81 }] } });
    expect(bad.body.message).to.equal('Service "bs" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
    const badName = await client.post('/api/v1/namespaces/default/services', { metadata: { name: '1abc' }, spec: { ports: [{ port: 80 }] } });
    expect(badName.body.message).to.equal('Service "1abc" is invalid: metadata.name: Invalid value: "1abc": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')');
    const table = await client.get('/api/v1/namespaces/default/services', tableAccept);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
    const np = table.body.rows.find((row: { cells: unknown[] }) => row.cells[0] === 'np');
    expect(np.cells.slice(1, 5)).to.deep.equal(['NodePort', b.body.spec.clusterIP, '<none>', `80:${String(b.body.spec.ports[0].nodePort)}/TCP`]);
  });

  it('validates PersistentVolumeClaims and RBAC objects with the apiserver\'s messages', async () => {
    const pvc = await client.post('/api/v1/namespaces/default/persistentvolumeclaims', { metadata: { name: 'bp' }, spec: {} });
    expect(pvc.body.message).to.equal('PersistentVolumeClaim "bp" is invalid: [spec.accessModes: Required value: at least 1 access mode is required, spec.resources[storage]: Required value]');
    const role = await client.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { metadata: { name: 'br' }, rules: [{ resources: ['pods'] }, { apiGroups: [''], verbs: ['get'] }] });
    expect(role.body.message).to.equal('Role.rbac.authorization.k8s.io "br" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[1].resources: Required value: resource rules must supply at least one resource]');
    const rb = await client.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { metadata: { name: 'brb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Foo', name: '' }, subjects: [{ kind: 'Robot', name: 'r' }] });
    expect(rb.body.message).to.equal('RoleBinding.rbac.authorization.k8s.io "brb" is invalid: [roleRef.kind: Unsupported value: "Foo": supported values: "Role", "ClusterRole", roleRef.name: Required value, subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]');
    const ok = await client.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'default' }] });
    expect(ok.status).to.equal(201);
    const table = await client.get('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', tableAccept);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal(['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
    expect(table.body.rows[0].cells).to.deep.include.members(['rb', 'Role/r', 'default/sa']);
    const changed = await client.patch('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/rb', { roleRef: { name: 'other' } });
    expect(changed.status).to.equal(422);
    expect(changed.body.message).to.equal('RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"other"}: cannot change roleRef');
  });
});
