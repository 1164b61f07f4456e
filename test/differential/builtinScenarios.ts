/**
 * Differential scenarios for the built-in kinds operators create: apps/v1 Deployments, v1 Services,
 * ServiceAccounts and PersistentVolumeClaims, batch/v1 Jobs and CronJobs, the RBAC kinds, their field
 * selectors and their OpenAPI v3 documents. Each scenario works in a namespace of its own.
 *
 * Out of the comparison: whatever a controller of the kube-controller-manager would do, since the
 * reference runs none (and kubekit runs none for these kinds) — no ReplicaSet for a Deployment, no Pod
 * for a Job, no Job for a CronJob, no token for a ServiceAccount, no binding for a claim. What is
 * compared is the apiserver's own work: defaulting, validation, generation, subresources, Tables,
 * field selection and the published schemas. Allocated values (cluster IPs, node ports) are masked.
 *
 * Semantics come from upstream's registry strategies and validation (pkg/registry/apps/deployment,
 * pkg/apis/apps/validation, pkg/apis/core/validation ValidateService and ValidatePersistentVolumeClaim,
 * pkg/apis/batch/validation, pkg/apis/rbac/validation, pkg/registry/rbac/rolebinding) and their tests;
 * the expected answers are whatever the real server says.
 */
import type { Scenario } from './scenarios.js';
import type { Session } from './session.js';
import { listBody, names, statusOnly } from './keep.js';

type Json = Record<string, unknown>;

/** kubectl get's Accept header. */
const kubectlTable = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

async function namespace(s: Session, name: string): Promise<void> {
  await s.must('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
}

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The body with the object's own uid (in selectors and labels of Jobs) replaced by `<own-uid>`. */
function ownUid(b: unknown): unknown {
  const uid = isRecord(b) && isRecord(b.metadata) && typeof b.metadata.uid === 'string' ? b.metadata.uid : undefined;
  if (uid === undefined) return b;
  return JSON.parse(JSON.stringify(b).split(uid).join('<own-uid>')) as unknown;
}

/** A Service with its allocated cluster IPs and node ports masked (the allocators' choices). */
function maskAllocations(b: unknown): unknown {
  if (!isRecord(b) || !isRecord(b.spec)) return b;
  const spec = { ...b.spec };
  const ip = (v: unknown): unknown => (typeof v === 'string' && v !== '' && v !== 'None' ? '<ip>' : v);
  if (spec.clusterIP !== undefined) spec.clusterIP = ip(spec.clusterIP);
  if (Array.isArray(spec.clusterIPs)) spec.clusterIPs = spec.clusterIPs.map(ip);
  if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p: unknown) => (isRecord(p) && typeof p.nodePort === 'number' ? { ...p, nodePort: '<port>' } : p));
  return { ...b, spec };
}

/**
 * A Table without its list resourceVersion (the reference's etcd revision also counts its own
 * background writes), with each row's object uid (Job selectors print it) replaced by `<row-uid>` and
 * the cells of `date` columns (RBAC's `Created At`: a timestamp) by `<time>`.
 */
function table(b: unknown): unknown {
  if (!isRecord(b) || b.kind !== 'Table') return isRecord(b) && b.kind === 'Status' ? statusOnly(b) : b;
  const dates = (Array.isArray(b.columnDefinitions) ? b.columnDefinitions : []).flatMap((c: unknown, i: number) => (isRecord(c) && c.type === 'date' ? [i] : []));
  const rows = Array.isArray(b.rows) ? b.rows.map((r: unknown) => {
    const uid = isRecord(r) && isRecord(r.object) && isRecord(r.object.metadata) ? r.object.metadata.uid : undefined;
    const row = typeof uid === 'string' && uid !== '' ? JSON.parse(JSON.stringify(r).split(uid).join('<row-uid>')) as unknown : r;
    if (isRecord(row) && Array.isArray(row.cells)) for (const i of dates) if (i < row.cells.length) row.cells[i] = '<time>';
    return row;
  }) : b.rows;
  return { ...b, metadata: { ...(isRecord(b.metadata) ? b.metadata : {}), resourceVersion: '<list-rv>' }, rows };
}

/**
 * A refused pod update's Status, with what follows the first line of a message cut to `<diff>`: the
 * apiserver appends a go-cmp diff of its internal PodSpec ("@@ -6,7 +6,7 @@ … \"Command\": …") to "pod
 * updates may not change fields other than …", kubekit names the changed fields instead. The status,
 * reason, fields, cause types and every sentence still compare.
 */
function podRefusal(b: unknown): unknown {
  const kept = statusOnly(b);
  if (!isRecord(kept)) return kept;
  const cut = (m: unknown): unknown => (typeof m === 'string' && m.includes('\n') ? `${m.slice(0, m.indexOf('\n'))}\n<diff>` : m);
  const causes = Array.isArray(kept.causes) ? kept.causes.map((c: unknown) => (isRecord(c) ? { ...c, message: cut(c.message) } : c)) : kept.causes;
  return { ...kept, message: cut(kept.message), causes };
}

const services = (b: unknown): unknown => (isRecord(b) && b.kind === 'Status' ? statusOnly(b) : maskAllocations(b));

function deployment(name: string, o: { labels?: Json; selector?: unknown; containers?: unknown[]; replicas?: number } = {}): Json {
  const labels = o.labels ?? { app: name };
  const spec: Json = {
    template: { metadata: { labels }, spec: { containers: o.containers ?? [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] } },
  };
  if (o.selector !== null) spec.selector = o.selector ?? { matchLabels: labels };
  if (o.replicas !== undefined) spec.replicas = o.replicas;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec };
}

function job(name: string, restartPolicy = 'Never', image = 'busybox:1.36'): Json {
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: { spec: { restartPolicy, containers: [{ name: 'run', image, command: ['true'] }] } } } };
}

function cronJob(name: string, schedule: string): Json {
  return { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'run', image: 'busybox:1.36' }] } } } } } };
}

const rbac = '/apis/rbac.authorization.k8s.io/v1';

/** A published schema without its `description` texts (kubekit publishes none). */
function withoutDescriptions(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDescriptions);
  if (!isRecord(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'properties' && isRecord(x)) out[k] = Object.fromEntries(Object.entries(x).map(([n, s]) => [n, withoutDescriptions(s)]));
    else if (k !== 'description') out[k] = withoutDescriptions(x);
  }
  return out;
}

export const builtinScenarios: Scenario[] = [
  {
    name: 'builtin/deployment-defaults-and-table',
    async run(s) {
      const ns = 'diff-deploy';
      await namespace(s, ns);
      const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
      await s.req('create with defaults', 'POST', path, { body: deployment('web') });
      await s.req('get', 'GET', `${path}/web`);
      await s.must('POST', path, { body: deployment('api', { replicas: 3, containers: [{ name: 'api', image: 'example.com/api' }, { name: 'sidecar', image: 'envoy@sha256:0000000000000000000000000000000000000000000000000000000000000000' }] }) });
      await s.req('list as a Table (kubectl get)', 'GET', path, { accept: kubectlTable, keep: table });
      // A built-in kind's list items carry no apiVersion and kind (typed items with an empty TypeMeta).
      await s.req('list', 'GET', path, { keep: listBody });
      await s.req('get as a Table without the object', 'GET', `${path}/api?includeObject=None`, { accept: kubectlTable, keep: table });
      await s.req('create again', 'POST', path, { body: deployment('web'), keep: statusOnly });
    },
  },
  {
    name: 'builtin/deployment-validation',
    async run(s) {
      const ns = 'diff-deployval';
      await namespace(s, ns);
      const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
      const bad = (label: string, body: Json) => s.req(label, 'POST', path, { body, keep: statusOnly });
      await bad('selector does not match template labels', deployment('d1', { selector: { matchLabels: { app: 'other' } } }));
      await bad('no selector', deployment('d2', { selector: null }));
      await bad('empty selector', deployment('d3', { selector: {} }));
      await bad('no containers', deployment('d4', { containers: [] }));
      await bad('container without image', deployment('d5', { containers: [{ name: 'web' }] }));
      await bad('duplicate container names', deployment('d6', { containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }] }));
      await bad('negative replicas', deployment('d7', { replicas: -1 }));
      await bad('upper-case name', deployment('Web'));
      await bad('restartPolicy Never', { ...deployment('d8'), spec: { ...(deployment('d8').spec as Json), template: { metadata: { labels: { app: 'd8' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'x' }] } } } });
      await s.must('POST', path, { body: deployment('d9') });
      const sel = { ...deployment('d9'), spec: { ...(deployment('d9').spec as Json), selector: { matchLabels: { app: 'd9', tier: 'x' } }, template: { metadata: { labels: { app: 'd9', tier: 'x' } }, spec: { containers: [{ name: 'a', image: 'x' }] } } } };
      await s.req('update: selector changed', 'PUT', `${path}/d9`, { body: sel, keep: statusOnly });
    },
  },
  {
    name: 'builtin/deployment-subresources',
    async run(s) {
      const ns = 'diff-deploysub';
      await namespace(s, ns);
      const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
      await s.must('POST', path, { body: deployment('web', { replicas: 2 }) });
      await s.req('put status', 'PUT', `${path}/web/status`, { body: { ...deployment('web', { replicas: 9 }), status: { replicas: 2, readyReplicas: 1, observedGeneration: 1 } } });
      await s.req('patch status (spec ignored)', 'PATCH', `${path}/web/status`, { body: { spec: { replicas: 7 }, status: { availableReplicas: 1 } }, contentType: 'application/merge-patch+json' });
      await s.req('get scale', 'GET', `${path}/web/scale`);
      await s.req('patch scale', 'PATCH', `${path}/web/scale`, { body: { spec: { replicas: 4 } }, contentType: 'application/merge-patch+json' });
      await s.req('negative scale', 'PATCH', `${path}/web/scale`, { body: { spec: { replicas: -2 } }, contentType: 'application/merge-patch+json', keep: statusOnly });
      await s.req('after scaling (generation 2)', 'GET', `${path}/web`);
      await s.req('strategic merge of a container', 'PATCH', `${path}/web`, { body: { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } }, contentType: 'application/strategic-merge-patch+json' });
      await s.req('scale of a missing deployment', 'GET', `${path}/nope/scale`, { keep: statusOnly });
      await s.req('Table after status', 'GET', path, { accept: kubectlTable, keep: table });
    },
  },
  {
    name: 'builtin/service-defaults-and-validation',
    async run(s) {
      const ns = 'diff-svc';
      await namespace(s, ns);
      const path = `/api/v1/namespaces/${ns}/services`;
      const svc = (name: string, spec: Json): Json => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
      await s.req('ClusterIP with defaults', 'POST', path, { body: svc('web', { selector: { app: 'web' }, ports: [{ port: 80 }] }), keep: services });
      await s.req('named target port, UDP', 'POST', path, { body: svc('dns', { selector: { app: 'dns' }, ports: [{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 'dns' }] }), keep: services });
      await s.req('headless', 'POST', path, { body: svc('headless', { clusterIP: 'None', selector: { app: 'web' }, ports: [{ port: 80 }] }), keep: services });
      await s.req('NodePort', 'POST', path, { body: svc('np', { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] }), keep: services });
      await s.req('ExternalName', 'POST', path, { body: svc('ext', { type: 'ExternalName', externalName: 'example.com' }), keep: services });
      await s.req('unknown type', 'POST', path, { body: svc('bad1', { type: 'Bogus', ports: [{ port: 80 }] }), keep: statusOnly });
      await s.req('no ports', 'POST', path, { body: svc('bad2', { selector: { app: 'web' } }), keep: statusOnly });
      await s.req('port out of range', 'POST', path, { body: svc('bad3', { ports: [{ port: 70000 }] }), keep: statusOnly });
      await s.req('two unnamed ports', 'POST', path, { body: svc('bad4', { ports: [{ port: 80 }, { port: 81 }] }), keep: statusOnly });
      await s.req('ExternalName without a name', 'POST', path, { body: svc('bad5', { type: 'ExternalName' }), keep: statusOnly });
      await s.req('list as a Table (kubectl get)', 'GET', `${path}?fieldSelector=metadata.name%3Dheadless`, { accept: kubectlTable, keep: table });
      await s.req('by type', 'GET', `${path}?fieldSelector=spec.type%3DNodePort`, { keep: names });
      await s.req('by clusterIP None', 'GET', `${path}?fieldSelector=spec.clusterIP%3DNone`, { keep: names });
      await s.req('unsupported label', 'GET', `${path}?fieldSelector=spec.selector%3Dx`, { keep: statusOnly });
    },
  },
  {
    name: 'builtin/jobs',
    async run(s) {
      const ns = 'diff-jobs';
      await namespace(s, ns);
      const path = `/apis/batch/v1/namespaces/${ns}/jobs`;
      await s.req('create with defaults', 'POST', path, { body: job('once'), keep: ownUid });
      await s.req('restartPolicy Always', 'POST', path, { body: job('bad', 'Always'), keep: statusOnly });
      await s.req('no restartPolicy', 'POST', path, { body: { ...job('bad2'), spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } } }, keep: statusOnly });
      await s.req('negative backoffLimit', 'POST', path, { body: { ...job('bad3'), spec: { ...(job('bad3').spec as Json), backoffLimit: -1 } }, keep: statusOnly });
      const cur = (await s.must('GET', `${path}/once`)).body as Json;
      const changed = JSON.parse(JSON.stringify(cur)) as { spec: { template: { spec: { containers: { image: string }[] } } } };
      changed.spec.template.spec.containers[0].image = 'busybox:1.37';
      await s.req('update: template changed', 'PUT', `${path}/once`, { body: changed, keep: statusOnly });
      await s.req('by status.successful', 'GET', `${path}?fieldSelector=status.successful%3D0`, { keep: names });
      await s.req('unsupported label', 'GET', `${path}?fieldSelector=spec.parallelism%3D1`, { keep: statusOnly });
      await s.req('list as a Table (kubectl get)', 'GET', path, { accept: kubectlTable, keep: table });
    },
  },
  {
    name: 'builtin/cronjobs',
    async run(s) {
      const ns = 'diff-cron';
      await namespace(s, ns);
      const path = `/apis/batch/v1/namespaces/${ns}/cronjobs`;
      await s.req('create with defaults', 'POST', path, { body: cronJob('nightly', '0 3 * * *') });
      await s.req('bad schedule', 'POST', path, { body: cronJob('bad', 'every night'), keep: statusOnly });
      await s.req('restartPolicy Always', 'POST', path, { body: { ...cronJob('bad2', '* * * * *'), spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Always', containers: [{ name: 'a', image: 'x' }] } } } } } }, keep: statusOnly });
      await s.req('update: suspend', 'PATCH', `${path}/nightly`, { body: { spec: { suspend: true } }, contentType: 'application/merge-patch+json' });
      await s.req('list as a Table (kubectl get)', 'GET', path, { accept: kubectlTable, keep: table });
      await s.req('by name', 'GET', `${path}?fieldSelector=metadata.name%3Dnightly`, { keep: names });
      await s.req('unsupported label', 'GET', `${path}?fieldSelector=spec.schedule%3Dx`, { keep: statusOnly });
    },
  },
  {
    name: 'builtin/rbac',
    async run(s) {
      const ns = 'diff-rbac';
      await namespace(s, ns);
      const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] };
      await s.req('role', 'POST', `${rbac}/namespaces/${ns}/roles`, { body: role });
      await s.req('role without verbs', 'POST', `${rbac}/namespaces/${ns}/roles`, { body: { ...role, metadata: { name: 'bad' }, rules: [{ apiGroups: [''], resources: ['pods'] }] }, keep: statusOnly });
      const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'read' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }] };
      await s.req('role binding', 'POST', `${rbac}/namespaces/${ns}/rolebindings`, { body: binding });
      await s.req('roleRef update refused', 'PATCH', `${rbac}/namespaces/${ns}/rolebindings/read`, { body: { roleRef: { name: 'writer' } }, contentType: 'application/merge-patch+json', keep: statusOnly });
      await s.req('binding with a bad roleRef kind', 'POST', `${rbac}/namespaces/${ns}/rolebindings`, { body: { ...binding, metadata: { name: 'bad' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Pod', name: 'x' } }, keep: statusOnly });
      await s.req('cluster role', 'POST', `${rbac}/clusterroles`, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'diff-viewer' }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] } });
      await s.req('cluster role binding', 'POST', `${rbac}/clusterrolebindings`, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'diff-viewer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'diff-viewer' }, subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }] } });
      await s.req('roles as a Table', 'GET', `${rbac}/namespaces/${ns}/roles`, { accept: kubectlTable, keep: table });
      await s.req('bindings as a Table', 'GET', `${rbac}/namespaces/${ns}/rolebindings`, { accept: kubectlTable, keep: table });
      await s.req('role bindings by name', 'GET', `${rbac}/namespaces/${ns}/rolebindings?fieldSelector=metadata.name%3Dread`, { keep: names });
      await s.req('roles', 'GET', `${rbac}/namespaces/${ns}/roles`, { keep: listBody });
      await s.req('delete the roles (deletecollection)', 'DELETE', `${rbac}/namespaces/${ns}/roles`, { keep: listBody });
      await s.req('unsupported label', 'GET', `${rbac}/clusterrolebindings?fieldSelector=roleRef.name%3Dx`, { keep: statusOnly });
    },
  },
  {
    name: 'builtin/serviceaccounts-and-pvcs',
    async run(s) {
      const ns = 'diff-sapvc';
      await namespace(s, ns);
      await s.req('service account', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' }, automountServiceAccountToken: false } });
      await s.req('service account: bad name', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Robot_1' } }, keep: statusOnly });
      await s.req('service accounts as a Table', 'GET', `/api/v1/namespaces/${ns}/serviceaccounts?fieldSelector=metadata.name%3Drobot`, { accept: kubectlTable, keep: table });
      const pvcs = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
      const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
      await s.req('claim with defaults', 'POST', pvcs, { body: claim });
      await s.req('claim without access modes', 'POST', pvcs, { body: { ...claim, metadata: { name: 'bad1' }, spec: { resources: { requests: { storage: '1Gi' } } } }, keep: statusOnly });
      await s.req('claim without a storage request', 'POST', pvcs, { body: { ...claim, metadata: { name: 'bad2' }, spec: { accessModes: ['ReadWriteOnce'] } }, keep: statusOnly });
      await s.req('claim with an unknown access mode', 'POST', pvcs, { body: { ...claim, metadata: { name: 'bad3' }, spec: { accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: '1Gi' } } } }, keep: statusOnly });
      await s.req('update: access modes changed', 'PATCH', `${pvcs}/data`, { body: { spec: { accessModes: ['ReadWriteMany'] } }, contentType: 'application/merge-patch+json', keep: statusOnly });
      await s.req('claims as a Table', 'GET', pvcs, { accept: kubectlTable, keep: table });
      await s.req('claims by name (legacy label)', 'GET', `${pvcs}?fieldSelector=name%3Ddata`, { keep: (b) => (isRecord(b) && b.kind === 'Status' ? statusOnly(b) : names(b)) });
      await s.req('claims: unsupported label', 'GET', `${pvcs}?fieldSelector=spec.volumeName%3Dx`, { keep: statusOnly });
    },
  },
  {
    name: 'builtin/statefulsets-daemonsets-replicasets',
    async run(s) {
      const ns = 'diff-apps';
      await namespace(s, ns);
      const template = (app: string): Json => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'registry.example.com/app:v1' }] } });
      const sts = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
      await s.req('statefulset with defaults', 'POST', sts, { body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') } } });
      await s.req('statefulset scale', 'PATCH', `${sts}/db/scale`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
      await s.req('statefulset: bad podManagementPolicy', 'POST', sts, { body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'bad' }, spec: { podManagementPolicy: 'Sometimes', selector: { matchLabels: { app: 'bad' } }, template: template('bad') } }, keep: statusOnly });
      const ds = `/apis/apps/v1/namespaces/${ns}/daemonsets`;
      await s.req('daemonset with defaults', 'POST', ds, { body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } } });
      await s.req('daemonset: selector mismatch', 'POST', ds, { body: { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'bad' }, spec: { selector: { matchLabels: { app: 'x' } }, template: template('agent') } }, keep: statusOnly });
      const rs = `/apis/apps/v1/namespaces/${ns}/replicasets`;
      await s.req('replicaset with defaults', 'POST', rs, { body: { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: template('web') } } });
      await s.req('replicasets by status.replicas (refused)', 'GET', `${rs}?fieldSelector=status.replicas%3D0`, { keep: statusOnly });
      await s.req('Tables', 'GET', `/apis/apps/v1/namespaces/${ns}/statefulsets`, { accept: kubectlTable, keep: table });
      await s.req('daemonsets as a Table', 'GET', ds, { accept: kubectlTable, keep: table });
      await s.req('replicasets as a Table', 'GET', rs, { accept: kubectlTable, keep: table });
    },
  },
  {
    name: 'builtin/field-validation',
    async run(s) {
      const ns = 'diff-fieldval';
      await namespace(s, ns);
      const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
      const withUnknown = (name: string): Json => {
        const d = deployment(name) as { spec: Json & { template: { spec: { containers: Json[] } } } };
        (d.spec as Json).bogus = 1;
        d.spec.template.spec.containers[0].colour = 'blue';
        return d as unknown as Json;
      };
      await s.req('Strict', 'POST', `${path}?fieldValidation=Strict`, { body: withUnknown('strict'), keep: statusOnly });
      await s.req('Warn', 'POST', `${path}?fieldValidation=Warn`, { body: withUnknown('warn') });
      await s.req('Ignore', 'POST', `${path}?fieldValidation=Ignore`, { body: withUnknown('ignore') });
      await s.req('default', 'POST', path, { body: withUnknown('default') });
      await s.req('Strict merge patch', 'PATCH', `${path}/warn?fieldValidation=Strict`, { body: { spec: { minReadySecondz: 5 } }, contentType: 'application/merge-patch+json', keep: statusOnly });
      await s.req('Strict strategic merge patch', 'PATCH', `${path}/warn?fieldValidation=Strict`, { body: { metadata: { labelz: { a: 'b' } } }, contentType: 'application/strategic-merge-patch+json', keep: statusOnly });
      await s.req('configmap: unknown top-level field, Strict', 'POST', `/api/v1/namespaces/${ns}/configmaps?fieldValidation=Strict`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' }, spec: {} }, keep: statusOnly });
      await s.req('service: unknown port field, Warn', 'POST', `/api/v1/namespaces/${ns}/services?fieldValidation=Warn`, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80, nodeport: 30000 }] } }, keep: services });
    },
  },
  {
    // ValidatePodUpdate (pkg/apis/core/validation) with the pod strategy and the Priority and
    // DefaultTolerationSeconds admission plugins on update; the cases follow TestValidatePodUpdate.
    name: 'builtin/pod-updates',
    async run(s) {
      const ns = 'diff-podupdate';
      await namespace(s, ns);
      const pods = `/api/v1/namespaces/${ns}/pods`;
      const merge = 'application/merge-patch+json';
      const json = 'application/json-patch+json';
      const strategic = 'application/strategic-merge-patch+json';
      const spec = { containers: [{ name: 'c', image: 'nginx:1.2', command: ['a'] }], activeDeadlineSeconds: 100, tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }] };
      await s.req('create', 'POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec } });
      const web = `${pods}/web`;
      await s.req('image (strategic merge patch)', 'PATCH', web, { body: { spec: { containers: [{ name: 'c', image: 'nginx:1.3' }] } }, contentType: strategic });
      await s.req('activeDeadlineSeconds decreased', 'PATCH', web, { body: { spec: { activeDeadlineSeconds: 50 } }, contentType: merge });
      await s.req('toleration added (JSON patch)', 'PATCH', web, { body: [{ op: 'add', path: '/spec/tolerations/-', value: { key: 'x', operator: 'Exists' } }], contentType: json });
      await s.req('tolerationSeconds changed', 'PATCH', web, { body: [{ op: 'replace', path: '/spec/tolerations/1/tolerationSeconds', value: 10 }], contentType: json });
      await s.req('labels', 'PATCH', web, { body: { metadata: { labels: { tier: 'web' } } }, contentType: merge });
      await s.req('refused: command', 'PATCH', web, { body: { spec: { containers: [{ name: 'c', command: ['b'] }] } }, contentType: strategic, keep: podRefusal });
      await s.req('refused: env (JSON patch)', 'PATCH', web, { body: [{ op: 'add', path: '/spec/containers/0/env', value: [{ name: 'A', value: 'b' }] }], contentType: json, keep: podRefusal });
      await s.req('refused: nodeName', 'PATCH', web, { body: { spec: { nodeName: 'n1' } }, contentType: merge, keep: podRefusal });
      await s.req('refused: resources', 'PATCH', web, { body: [{ op: 'add', path: '/spec/containers/0/resources', value: { limits: { cpu: '1' } } }], contentType: json, keep: podRefusal });
      await s.req('refused: toleration removed', 'PATCH', web, { body: [{ op: 'remove', path: '/spec/tolerations/0' }], contentType: json, keep: podRefusal });
      await s.req('refused: toleration removed and hostname set', 'PATCH', web, { body: { spec: { tolerations: [], hostname: 'h' } }, contentType: merge, keep: podRefusal });
      await s.req('refused: activeDeadlineSeconds increased', 'PATCH', web, { body: { spec: { activeDeadlineSeconds: 200 } }, contentType: merge, keep: podRefusal });
      await s.req('refused: activeDeadlineSeconds removed', 'PATCH', web, { body: { spec: { activeDeadlineSeconds: null } }, contentType: merge, keep: podRefusal });
      await s.req('refused: activeDeadlineSeconds negative', 'PATCH', web, { body: { spec: { activeDeadlineSeconds: -1 } }, contentType: merge, keep: podRefusal });
      await s.req('refused: container added', 'PATCH', web, { body: [{ op: 'add', path: '/spec/containers/-', value: { name: 'd', image: 'x' } }], contentType: json, keep: podRefusal });
      await s.req('refused: image with whitespace', 'PATCH', web, { body: [{ op: 'replace', path: '/spec/containers/0/image', value: ' x' }], contentType: json, keep: podRefusal });
      await s.req('refused: terminationGracePeriodSeconds', 'PATCH', web, { body: { spec: { terminationGracePeriodSeconds: 1 } }, contentType: merge, keep: podRefusal });
      await s.req('refused: invalid toleration added', 'PATCH', web, { body: [{ op: 'add', path: '/spec/tolerations/-', value: { key: 'x', operator: 'Exists', effect: 'Never' } }], contentType: json, keep: podRefusal });
      await s.req('create refused: invalid tolerations and host name', 'POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [{ name: 'c', image: 'nginx' }], hostname: 'a.b', tolerations: [{ operator: 'Equal', value: 'x' }, { key: 'k', operator: 'Exists', tolerationSeconds: 5 }] } }, keep: podRefusal });
      await s.req('refused: AppArmor annotation added', 'PATCH', web, { body: { metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'runtime/default' } } }, contentType: merge, keep: podRefusal });
      // A PUT of what was created, without what defaulting and admission add: no change at all.
      const current = await s.raw('GET', web);
      const put = JSON.parse(JSON.stringify(current.body)) as Json & { metadata: Json; spec: Json & { containers: Json[] } };
      delete put.status;
      delete put.metadata.managedFields;
      for (const f of ['priority', 'preemptionPolicy', 'enableServiceLinks', 'dnsPolicy', 'schedulerName']) delete put.spec[f];
      delete put.spec.containers[0].terminationMessagePath;
      put.spec.tolerations = (put.spec.tolerations as Json[]).filter((t) => t.tolerationSeconds !== 300);
      await s.req('PUT without defaults', 'PUT', web, { body: put });
      await s.req('PUT with a status (kept)', 'PUT', web, { body: { ...put, metadata: { ...put.metadata, resourceVersion: undefined }, status: { phase: 'Running' } } });
      await s.req('PUT with nodeName and a longer deadline', 'PUT', web, { body: { ...put, metadata: { ...put.metadata, resourceVersion: undefined }, spec: { ...put.spec, nodeName: 'n', activeDeadlineSeconds: 1000 } }, keep: podRefusal });
      const gated = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'gated' }, spec: { containers: [{ name: 'c', image: 'nginx' }], schedulingGates: [{ name: 'a' }, { name: 'b' }], nodeSelector: { zone: 'z1' } } };
      await s.req('gated pod', 'POST', pods, { body: gated });
      const g = `${pods}/gated`;
      const affinity = (values: string[]): Json => ({ spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'In', values }] }] } } } } });
      await s.req('gated: node selector added', 'PATCH', g, { body: { spec: { nodeSelector: { disk: 'ssd' } } }, contentType: merge });
      await s.req('gated: node selector changed', 'PATCH', g, { body: { spec: { nodeSelector: { zone: 'z2' } } }, contentType: merge, keep: podRefusal });
      await s.req('gated: node affinity set', 'PATCH', g, { body: affinity(['b']), contentType: merge });
      await s.req('gated: node affinity changed', 'PATCH', g, { body: affinity(['c']), contentType: merge, keep: podRefusal });
      await s.req('gated: gate removed', 'PATCH', g, { body: [{ op: 'remove', path: '/spec/schedulingGates/0' }], contentType: json });
      // One new gate: the apiserver reports each new gate from a Go map, in no fixed order.
      await s.req('gated: gate added', 'PATCH', g, { body: { spec: { schedulingGates: [{ name: 'b' }, { name: 'c' }] } }, contentType: merge, keep: podRefusal });
      await s.req('ungated with a node selector added', 'PATCH', g, { body: [{ op: 'remove', path: '/spec/schedulingGates' }, { op: 'add', path: '/spec/nodeSelector/x', value: 'y' }], contentType: json });
      await s.req('ungated: node selector added', 'PATCH', g, { body: [{ op: 'add', path: '/spec/nodeSelector/w', value: 'v' }], contentType: json, keep: podRefusal });
      // serviceAccount is the alias of serviceAccountName (Convert_v1_PodSpec_To_core_PodSpec and back).
      await s.req('create with the serviceAccount alias', 'POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'alias' }, spec: { containers: [{ name: 'c', image: 'nginx' }], serviceAccount: 'robot' } } });
      await s.req('serviceAccount alias dropped (no change)', 'PATCH', `${pods}/alias`, { body: { spec: { serviceAccount: null } }, contentType: merge });
      await s.req('serviceAccount alias changed alone (no change)', 'PATCH', `${pods}/alias`, { body: { spec: { serviceAccount: 'other' } }, contentType: merge });
      await s.req('refused: serviceAccountName changed', 'PATCH', `${pods}/alias`, { body: { spec: { serviceAccountName: 'other' } }, contentType: merge, keep: podRefusal });
      // Server-side apply merges onto the live pod, then the same rules hold.
      const applied = (image: string, command: string[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'applied' }, spec: { containers: [{ name: 'c', image, command }], tolerations: [{ key: 'k', operator: 'Exists' }] } });
      const apply = { contentType: 'application/apply-patch+yaml' };
      await s.req('apply: create', 'PATCH', `${pods}/applied?fieldManager=m`, { ...apply, raw: applied('nginx:1', ['a']) });
      await s.req('apply: unchanged', 'PATCH', `${pods}/applied?fieldManager=m`, { ...apply, raw: applied('nginx:1', ['a']) });
      await s.req('apply: image', 'PATCH', `${pods}/applied?fieldManager=m`, { ...apply, raw: applied('nginx:2', ['a']) });
      await s.req('apply refused: command', 'PATCH', `${pods}/applied?fieldManager=m`, { ...apply, raw: applied('nginx:2', ['b']), keep: podRefusal });
      // The status subresource: podStatusStrategy and ValidatePodStatusUpdate.
      await s.must('POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once' }, spec: { containers: [{ name: 'c', image: 'nginx' }], restartPolicy: 'Never' } } });
      const st = `${pods}/once/status`;
      await s.req('status: labels, owner references, spec and a pod IP', 'PATCH', st, { body: { metadata: { labels: { x: 'y' }, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: '1' }] }, spec: { nodeName: 'n' }, status: { phase: 'Running', podIP: '10.0.0.1' } }, contentType: merge });
      await s.req('status: QoS class left out', 'PUT', st, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'once' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Running' } } });
      await s.req('status refused: QoS class changed', 'PATCH', st, { body: { status: { qosClass: 'Guaranteed' } }, contentType: merge, keep: podRefusal });
      await s.req('status refused: negative observedGeneration', 'PATCH', st, { body: { status: { observedGeneration: -1 } }, contentType: merge, keep: podRefusal });
      await s.req('status refused: bad nominatedNodeName', 'PATCH', st, { body: { status: { nominatedNodeName: 'Bad_Node' } }, contentType: merge, keep: podRefusal });
      await s.req('status refused: bad condition type', 'PATCH', st, { body: { status: { conditions: [{ type: 'Bad Type', status: 'True' }] } }, contentType: merge, keep: podRefusal });
      await s.req('status refused: bad pod IP', 'PATCH', st, { body: { status: { podIP: 'x', podIPs: [{ ip: 'x' }] } }, contentType: merge, keep: podRefusal });
      await s.req('status refused: two IPv4 pod IPs', 'PATCH', st, { body: { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] } }, contentType: merge, keep: podRefusal });
      await s.req('status: dual-stack pod IPs', 'PATCH', st, { body: { status: { podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }] } }, contentType: merge });
    },
  },
  {
    name: 'builtin/openapi-v3',
    async run(s) {
      const gvs = ['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis/rbac.authorization.k8s.io/v1'];
      await s.req('index entries', 'GET', '/openapi/v3', { keep: (b) => Object.keys((b as { paths: Json }).paths).filter((p) => gvs.includes(p)).sort() });
      const kinds: Record<string, string[]> = {
        'api/v1': ['io.k8s.api.core.v1.Service', 'io.k8s.api.core.v1.ServiceSpec', 'io.k8s.api.core.v1.ServicePort', 'io.k8s.api.core.v1.ServiceAccount', 'io.k8s.api.core.v1.PersistentVolumeClaim', 'io.k8s.api.core.v1.PodSpec', 'io.k8s.api.core.v1.Container'],
        'apis/apps/v1': ['io.k8s.api.apps.v1.Deployment', 'io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.apps.v1.DeploymentList', 'io.k8s.api.apps.v1.StatefulSetSpec', 'io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'],
        'apis/batch/v1': ['io.k8s.api.batch.v1.Job', 'io.k8s.api.batch.v1.JobSpec', 'io.k8s.api.batch.v1.CronJobSpec'],
        'apis/rbac.authorization.k8s.io/v1': ['io.k8s.api.rbac.v1.Role', 'io.k8s.api.rbac.v1.RoleBinding', 'io.k8s.api.rbac.v1.PolicyRule', 'io.k8s.api.rbac.v1.ClusterRoleBinding'],
      };
      for (const gv of gvs) {
        await s.req(`${gv}: schemas (descriptions aside)`, 'GET', `/openapi/v3/${gv}`, { keep: (b) => Object.fromEntries(kinds[gv].map((k) => [k, withoutDescriptions((b as { components: { schemas: Json } }).components.schemas[k])])) });
      }
      const v2 = ['io.k8s.api.apps.v1.Deployment', 'io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.core.v1.PodSpec', 'io.k8s.api.core.v1.Container', 'io.k8s.api.core.v1.ServiceSpec', 'io.k8s.api.batch.v1.JobSpec', 'io.k8s.api.rbac.v1.RoleBinding', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.api.resource.Quantity', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString'];
      await s.req('/openapi/v2: definitions (descriptions aside)', 'GET', '/openapi/v2', { accept: 'application/json', keep: (b) => Object.fromEntries(v2.map((k) => [k, withoutDescriptions((b as { definitions: Json }).definitions[k])])) });
      await s.req('apps/v1: deployment PATCH operation', 'GET', '/openapi/v3/apis/apps/v1', { keep: (b) => {
        const op = (b as { paths: Record<string, { patch?: Json }> }).paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
        if (op === undefined) return undefined;
        const body = op.requestBody as { content: Json } | undefined;
        return { gvk: op['x-kubernetes-group-version-kind'], action: op['x-kubernetes-action'], operationId: op.operationId, params: (op.parameters as { name?: string }[] | undefined)?.map((p) => p.name).sort(), contentTypes: Object.keys(body?.content ?? {}).sort() };
      } });
      await s.req('apps/v1: deployment paths', 'GET', '/openapi/v3/apis/apps/v1', { keep: (b) => Object.keys((b as { paths: Json }).paths).filter((p) => p.includes('/deployments')).sort() });
    },
  },
  {
    // ValidatePodSpec on a Pod create and ValidatePodTemplateSpec on workload templates
    // (pkg/apis/core/validation, with the apps and batch validators around it); the cases follow
    // TestValidateContainers, TestValidatePorts, TestValidateEnv, TestValidateEnvFrom, TestValidateVolumes,
    // TestValidateVolumeMounts, TestValidateProbe, TestValidateInitContainers, TestValidatePodDNSConfig and
    // TestValidateTopologySpreadConstraints.
    name: 'builtin/pod-spec-validation',
    async run(s) {
      const ns = 'diff-podspec';
      await namespace(s, ns);
      const pods = `/api/v1/namespaces/${ns}/pods`;
      let n = 0;
      const ctr = (x: Json = {}): Json => ({ name: 'ctr', image: 'image', ...x });
      const pod = (spec: Json): Json => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${n++}` }, spec });
      const refused = async (name: string, spec: Json): Promise<void> => {
        await s.req(name, 'POST', pods, { body: pod(spec), keep: statusOnly });
      };
      await s.req('valid pod: volumes, mounts, ports, env, probes, handlers, sidecar', 'POST', pods, { body: pod({
        volumes: [{ name: 'cfg', configMap: { name: 'c', items: [{ key: 'k', path: 'a/b' }] } }, { name: 'tmp', emptyDir: null }, { name: 'proj', projected: { sources: [{ downwardAPI: { items: [{ path: 'l', fieldRef: { fieldPath: 'metadata.labels' } }] } }, { secret: { name: 's' } }] } }],
        containers: [ctr({
          ports: [{ name: 'http', containerPort: 8080 }], env: [{ name: 'weird.name-1', value: 'x' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }], envFrom: [{ prefix: 'X_', configMapRef: { name: 'c' } }],
          volumeMounts: [{ name: 'cfg', mountPath: '/cfg', subPath: 'a' }, { name: 'tmp', mountPath: '/tmp' }, { name: 'proj', mountPath: '/proj' }],
          livenessProbe: { httpGet: { port: 'http' }, periodSeconds: 0 }, startupProbe: { grpc: { port: 9090 } }, lifecycle: { preStop: { sleep: { seconds: 5 } } },
        })],
        initContainers: [ctr({ name: 'sidecar', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] } } })],
      }) });
      await refused('container names: DNS label, duplicates across lists', { containers: [ctr({ name: 'Ctr_1' }), ctr(), ctr()], initContainers: [ctr()] });
      await refused('ports: numbers, names, protocol, host port conflict', { containers: [ctr({ ports: [{ containerPort: 0 }, { containerPort: 65536, hostPort: 65536 }, { name: 'a.b', containerPort: 80, protocol: 'tcp' }, { name: 'http', containerPort: 81, hostPort: 81 }, { name: 'http', containerPort: 82, hostPort: 81 }] })] });
      await refused('env: names, valueFrom sources, field paths, keys', { containers: [ctr({ env: [{ name: '' }, { name: 'a=b' }, { name: 'v', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'w', valueFrom: {} }, { name: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } }, { name: 'y', valueFrom: { secretKeyRef: { key: 'a b' } } }] })] });
      await refused('envFrom: sources, prefix, names', { containers: [ctr({ envFrom: [{}, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }, { prefix: 'a=b', secretRef: { name: 'Bad_' } }] })] });
      await refused('volumes: names, sources, required fields, paths', { volumes: [{ name: 'a', emptyDir: {}, hostPath: { path: '/x' } }, { name: 'B_b', secret: {} }, { name: 'c', configMap: { items: [{ key: '', path: '/abs' }, { key: 'k', path: '../x' }] } }, { name: 'c', persistentVolumeClaim: {} }, { name: 'd', hostPath: { path: '/a/../b', type: 'Dir' } }, { name: 'e', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 60 } }] } }], containers: [ctr()] });
      await refused('volume mounts: unknown and invalid volumes, paths, subPath', { volumes: [{ name: 'a', emptyDir: {} }, { name: 'bad', secret: {} }], containers: [ctr({ volumeMounts: [{ name: 'a', mountPath: '/a' }, { name: 'a', mountPath: '/a' }, { name: 'bad', mountPath: '/b' }, { name: 'none', mountPath: '' }, { name: 'a', mountPath: '/c', subPath: '/abs', subPathExpr: '../x' }, { name: 'a', mountPath: '/d', mountPropagation: 'Bidirectional' }] })] });
      await refused('policies: restart, DNS, pull, termination message', { restartPolicy: 'Sometimes', dnsPolicy: 'Everywhere', containers: [ctr({ imagePullPolicy: 'Maybe', terminationMessagePolicy: 'Never' })] });
      await refused('probes and handlers', { containers: [ctr({ livenessProbe: { successThreshold: 2, periodSeconds: -1 }, readinessProbe: { exec: { command: [] }, httpGet: { port: 80 }, terminationGracePeriodSeconds: 5 }, startupProbe: { tcpSocket: { port: 'A_B' } }, lifecycle: { preStop: { sleep: { seconds: 31 } } } })], initContainers: [ctr({ name: 'init', livenessProbe: { exec: { command: ['x'] } } })] });
      await refused('scheduling: affinity, DNS config, gates, topology spread', {
        containers: [ctr()],
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a b', operator: 'In' }], matchFields: [{ key: 'metadata.namespace', operator: 'In', values: ['x'] }] }] } }, podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'a' } }, topologyKey: '' }] } },
        dnsPolicy: 'None', dnsConfig: { nameservers: ['not-an-ip'], searches: ['Bad_Domain.', '.'], options: [{ name: '' }] },
        readinessGates: [{ conditionType: 'bad type!' }], schedulingGates: [{ name: 'g' }, { name: 'g' }],
        topologySpreadConstraints: [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 1 }, { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway' }],
      });
      await refused('security contexts', {
        securityContext: { runAsUser: -1, fsGroup: 2147483648, seccompProfile: { type: 'Localhost' }, appArmorProfile: { type: 'Bogus' } }, hostPID: true, shareProcessNamespace: true,
        containers: [ctr({ securityContext: { privileged: true, allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] }, seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x' } } })],
      });
      await refused('host network ports, host aliases, os', { hostNetwork: true, hostAliases: [{ ip: 'x', hostnames: ['Bad_Host'] }], os: { name: 'plan9' }, containers: [ctr({ ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 82 }] })] });
      await refused('runtime class (RuntimeClass admission)', { runtimeClassName: 'gvisor', containers: [ctr()] });
      await s.req('host network ports defaulted', 'POST', pods, { body: pod({ hostNetwork: true, containers: [ctr({ ports: [{ containerPort: 80 }] })] }) });
      await s.req('update refused: invalid env (ValidatePodSpec before the update rules)', 'PATCH', `${pods}/p0`, { body: { spec: { containers: [{ name: 'ctr', env: [{ name: 'a=b' }] }] } }, contentType: 'application/strategic-merge-patch+json', keep: podRefusal });
      await refused('ephemeral containers on create', { containers: [ctr()], ephemeralContainers: [{ name: 'debug', image: 'busybox', targetContainerName: 'nope', ports: [{ containerPort: 80 }] }] });
      const deployments = `/apis/apps/v1/namespaces/${ns}/deployments`;
      const template = (spec: Json, metadata: Json = {}): Json => ({ metadata: { labels: { app: 'a' }, ...metadata }, spec });
      await s.req('deployment template', 'POST', deployments, { keep: statusOnly, body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template({ restartPolicy: 'Never', activeDeadlineSeconds: 5, volumes: [{ name: 'v', configMap: {} }], containers: [ctr({ name: 'Bad', ports: [{ containerPort: 0 }], volumeMounts: [{ name: 'v', mountPath: '/v' }] }), ctr({ name: 'Bad' })] }, { annotations: { 'bad key!': 'x' } }) } } });
      await s.req('statefulset template mounting a claim template', 'POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, { keep: statusOnly, body: { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { selector: { matchLabels: { app: 'a' } }, template: template({ hostname: 'Not_Checked', containers: [ctr({ volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'own', mountPath: '/own' }] })], volumes: [{ name: 'own', secret: {} }] }, { labels: { app: 'a', 'b@d': 'x' } }), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } } });
      await s.req('job template', 'POST', `/apis/batch/v1/namespaces/${ns}/jobs`, { keep: statusOnly, body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Bogus', containers: [ctr({ name: '', env: [{ name: 'x', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } }] })] } } } } });
    },
  },
  {
    // The pods/ephemeralcontainers subresource (kubectl debug): podEphemeralContainersStrategy in
    // pkg/registry/core/pod and ValidatePodEphemeralContainersUpdate (pkg/apis/core/validation); the cases
    // follow TestValidatePodEphemeralContainersUpdate.
    name: 'builtin/pod-ephemeral-containers',
    async run(s) {
      const ns = 'diff-ephemeral';
      await namespace(s, ns);
      const pods = `/api/v1/namespaces/${ns}/pods`;
      const strategic = 'application/strategic-merge-patch+json';
      const json = 'application/json-patch+json';
      await s.req('create', 'POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
      const e = `${pods}/web/ephemeralcontainers`;
      await s.req('get', 'GET', e);
      await s.req('add (strategic merge patch, as kubectl debug)', 'PATCH', e, { body: { spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', command: ['sh'], stdin: true, tty: true, targetContainerName: 'c' }] } }, contentType: strategic });
      await s.req('refused: invalid container', 'PATCH', e, { body: { spec: { ephemeralContainers: [{ name: 'Bad_Name', image: 'busybox', ports: [{ containerPort: 80 }], volumeMounts: [{ name: 'x', mountPath: '/x', subPath: 'y' }] }] } }, contentType: strategic, keep: podRefusal });
      await s.req('refused: existing one changed', 'PATCH', e, { body: [{ op: 'replace', path: '/spec/ephemeralContainers/0/image', value: 'alpine' }], contentType: json, keep: podRefusal });
      await s.req('refused: existing one removed', 'PATCH', e, { body: [{ op: 'remove', path: '/spec/ephemeralContainers/0' }], contentType: json, keep: podRefusal });
      await s.req('refused: target not found', 'PATCH', e, { body: { spec: { ephemeralContainers: [{ name: 'debug2', image: 'busybox', targetContainerName: 'nope' }] } }, contentType: strategic, keep: podRefusal });
      await s.req('other spec fields and labels ignored', 'PATCH', e, { body: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'other' }], ephemeralContainers: [{ name: 'debug3', image: 'busybox' }] } }, contentType: strategic });
      await s.req('refused: ephemeral containers through the pod itself', 'PATCH', `${pods}/web`, { body: { spec: { ephemeralContainers: [{ name: 'debug4', image: 'busybox' }] } }, contentType: strategic, keep: podRefusal });
      await s.req('refused: DELETE on the subresource', 'DELETE', e, { keep: statusOnly });
      await s.req('refused: POST on the subresource', 'POST', e, { body: {}, keep: statusOnly });
      await s.req('unknown pod', 'GET', `${pods}/nope/ephemeralcontainers`, { keep: statusOnly });
    },
  },
  {
    // The proxy subresources of pods, services and nodes (ResourceLocation in pkg/registry/core/pod,
    // service/storage and node): everything decided before a dial (no case here reaches one: the reference
    // would dial it, the embedded server answers the proxy's 503 instead).
    name: 'builtin/proxy',
    async run(s) {
      const ns = 'diff-proxy';
      await namespace(s, ns);
      const base = `/api/v1/namespaces/${ns}`;
      const merge = 'application/merge-patch+json';
      await s.req('pod with a port', 'POST', `${base}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x', ports: [{ name: 'http', containerPort: 8080 }] }] } }, keep: 'status' });
      for (const [name, ip] of [['lo', '127.0.0.1'], ['ll', '169.254.1.1'], ['v6', '::1'], ['mc', '224.0.0.1'], ['llmc', 'ff02::1'], ['zero', '0.0.0.0'], ['bcast', '255.255.255.255'], ['v6ll', 'fe80::1'], ['mapped', '::ffff:127.0.0.1']]) {
        await s.req(`pod ${name}`, 'POST', `${base}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }] } }, keep: 'status' });
        await s.req(`pod ${name} at ${ip}`, 'PATCH', `${base}/pods/${name}/status`, { body: { status: { podIP: ip, podIPs: [{ ip }] } }, contentType: merge, keep: 'status' });
        await s.req(`refused: pod ${name} at ${ip}`, 'GET', `${base}/pods/${name}/proxy/`, { keep: statusOnly });
      }
      for (const id of ['p', 'p:8080', 'p:http', 'https:p:443', 'http:p', ':p:', 'p:', ':p', 'a:b:c:d', 'ftp:p:1', 'nope', 'nope:80']) {
        await s.req(`pod ${id}`, 'GET', `${base}/pods/${id}/proxy/a/b?c=d`, { keep: statusOnly });
      }
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND']) {
        await s.req(`pod by ${method}`, method, `${base}/pods/p/proxy/x`, { body: method === 'OPTIONS' || method === 'DELETE' ? undefined : {}, keep: statusOnly });
      }
      await s.req('refused: a pod without a name', 'GET', `${base}/pods//proxy/`, { keep: statusOnly });
      await s.req('refused: a pod out of a namespace', 'GET', '/api/v1/pods/p/proxy/', { keep: statusOnly });
      await s.req('service', 'POST', `${base}/services`, { body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80, name: 'web' }] } }, keep: 'status' });
      for (const id of ['svc', 'svc:81', 'svc:80', 'svc:+80', 'svc:web', 'zz', 'zz:80', 'a:b:c:d', ':svc']) {
        await s.req(`service ${id} without endpoints`, 'GET', `${base}/services/${id}/proxy/`, { keep: statusOnly });
      }
      await s.req('endpoints without subsets', 'POST', `${base}/endpoints`, { body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc' } }, keep: 'status' });
      await s.req('service without subsets', 'GET', `${base}/services/svc/proxy/`, { keep: statusOnly });
      await s.req('endpoints not of a pod', 'PUT', `${base}/endpoints/svc`, { body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc' }, subsets: [{ addresses: [{ ip: '10.1.1.1' }], ports: [{ name: 'web', port: 8080 }] }] }, keep: 'status' });
      for (const id of ['svc', 'svc:web', 'svc:80', 'https:svc:web']) await s.req(`service ${id}: no address of a pod`, 'GET', `${base}/services/${id}/proxy/`, { keep: statusOnly });
      await s.req('endpoints of a pod elsewhere', 'PUT', `${base}/endpoints/svc`, { body: { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'svc' }, subsets: [{ addresses: [{ ip: '10.1.1.1', targetRef: { kind: 'Pod', namespace: 'default', name: 'p' } }, { ip: '10.1.1.2', targetRef: { kind: 'Pod', namespace: ns, name: 'p' } }], ports: [{ name: 'web', port: 8080 }] }] }, keep: 'status' });
      await s.req('service: the pod has another IP', 'GET', `${base}/services/svc:web/proxy/`, { keep: statusOnly });
      await s.req('node', 'POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'diff-proxy-n1' } }, keep: 'status' });
      for (const id of ['diff-proxy-n1', 'diff-proxy-n1:10250', 'https:diff-proxy-n1:9', 'nope', 'a:b:c:d']) await s.req(`node ${id}`, 'GET', `/api/v1/nodes/${id}/proxy/metrics`, { keep: statusOnly });
      await s.req('node at a loopback address', 'PATCH', '/api/v1/nodes/diff-proxy-n1/status', { body: { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }] } }, contentType: merge, keep: 'status' });
      await s.req('refused: node at a loopback address', 'GET', '/api/v1/nodes/diff-proxy-n1/proxy/metrics', { keep: statusOnly });
      await s.req('node deleted', 'DELETE', '/api/v1/nodes/diff-proxy-n1', { keep: 'status' });
    },
  },
  {
    // The pods/resize subresource (in-place vertical scaling, on by default in 1.34): podResizeStrategy in
    // pkg/registry/core/pod and ValidatePodResize (pkg/apis/core/validation); the cases follow
    // TestValidatePodResize, with the LimitRanger and ResourceQuota plugins on a resize.
    name: 'builtin/pod-resize',
    async run(s) {
      const ns = 'diff-resize';
      await namespace(s, ns);
      const pods = `/api/v1/namespaces/${ns}/pods`;
      const strategic = 'application/strategic-merge-patch+json';
      const json = 'application/json-patch+json';
      const merge = 'application/merge-patch+json';
      const resources = { requests: { cpu: '100m', memory: '100Mi', 'ephemeral-storage': '1Gi' }, limits: { cpu: '200m', memory: '200Mi' } };
      const pod = (name: string, spec: Json = {}, metadata: Json = {}): Json => ({
        apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'r' }, ...metadata }, spec: { containers: [{ name: 'c', image: 'nginx', resources }], ...spec },
      });
      const cpu = (name: string, value: string, where = 'containers', i = 0): [string, { body: unknown; contentType: string; keep: (b: unknown) => unknown }] => [
        `${pods}/${name}/resize`, { body: [{ op: 'replace', path: `/spec/${where}/${i}/resources/requests/cpu`, value }], contentType: json, keep: podRefusal },
      ];
      await s.req('create', 'POST', pods, { body: pod('p') });
      const r = `${pods}/p/resize`;
      await s.req('get', 'GET', r);
      // No Table through resize or ephemeralcontainers (their REST types convert none): the Pod when JSON is
      // acceptable too (kubectl then prints NAME and AGE itself), else the 406.
      await s.req('get as kubectl get --subresource resize asks', 'GET', r, { accept: kubectlTable });
      await s.req('get ephemeral containers as a Table or JSON', 'GET', `${pods}/p/ephemeralcontainers`, { accept: kubectlTable });
      await s.req('refused: a Table only', 'GET', r, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io', keep: statusOnly });
      await s.req('get the status as a Table', 'GET', `${pods}/p/status`, { accept: kubectlTable, keep: table });
      await s.req('cpu up; image, labels and other spec fields dropped', 'PATCH', r, { body: { metadata: { labels: { x: 'y' } }, spec: { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: '150m' } } }], activeDeadlineSeconds: 5 } }, contentType: strategic });
      await s.req('a request removed comes back from the limit', 'PATCH', r, { body: [{ op: 'remove', path: '/spec/containers/0/resources/requests/memory' }], contentType: json });
      await s.req('ephemeral storage in another form', 'PATCH', r, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '1024Mi' }], contentType: json });
      await s.req('refused: limits removed', 'PATCH', r, { body: [{ op: 'remove', path: '/spec/containers/0/resources/limits' }], contentType: json, keep: podRefusal });
      await s.req('refused: QoS class changes', 'PATCH', r, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests', value: { cpu: '200m', memory: '200Mi' } }], contentType: json, keep: podRefusal });
      await s.req('refused: ephemeral storage changes', 'PATCH', r, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '2Gi' }], contentType: json, keep: podRefusal });
      await s.req('refused: resize policy changes', 'PATCH', r, { body: [{ op: 'add', path: '/spec/containers/0/resizePolicy', value: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }], contentType: json, keep: podRefusal });
      await s.req('refused: invalid resize policy', 'PATCH', r, { body: [{ op: 'add', path: '/spec/containers/0/resizePolicy', value: [{ resourceName: 'gpu', restartPolicy: 'Maybe' }] }], contentType: json, keep: podRefusal });
      await s.req('refused: container renamed', 'PATCH', r, { body: [{ op: 'replace', path: '/spec/containers/0/name', value: 'd' }], contentType: json, keep: podRefusal });
      await s.req('refused: container added', 'PATCH', r, { body: [{ op: 'add', path: '/spec/containers/-', value: { name: 'e', image: 'x' } }], contentType: json, keep: podRefusal });
      await s.req('refused: a resource named __proto__', 'PATCH', r, { raw: '{"spec":{"containers":[{"name":"c","resources":{"requests":{"__proto__":"1","cpu":"120m"}}}]}}', contentType: merge, keep: podRefusal });
      await s.req('create with CPU only', 'POST', pods, { body: pod('proto', { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }] }) });
      await s.req('refused: a resource named __proto__ added', 'PATCH', `${pods}/proto/resize`, { raw: '{"spec":{"containers":[{"name":"c","resources":{"requests":{"__proto__":"1"}}}]}}', contentType: strategic, keep: podRefusal });
      await s.req('refused: over the limit', 'PATCH', ...cpu('p', '300m'));
      await s.req('refused: negative', 'PATCH', ...cpu('p', '-1'));
      await s.req('update without a resourceVersion', 'PUT', r, { body: pod('p') });
      await s.req('refused: update with a stale resourceVersion', 'PUT', r, { body: pod('p', {}, { resourceVersion: '1' }), keep: statusOnly });
      await s.req('refused: another name', 'PUT', r, { body: pod('q'), keep: statusOnly });
      await s.req('dry run', 'PATCH', `${r}?dryRun=All`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '130m' }], contentType: json });
      await s.req('apply conflicts with the creator', 'PATCH', `${r}?fieldManager=m1`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'other', resources: { requests: { cpu: '120m' } } }] } }, contentType: 'application/apply-patch+yaml', keep: statusOnly });
      await s.req('apply forced', 'PATCH', `${r}?fieldManager=m1&force=true`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'other', resources: { requests: { cpu: '120m' } } }] } }, contentType: 'application/apply-patch+yaml' });
      await s.req('refused: DELETE on the subresource', 'DELETE', r, { keep: statusOnly });
      await s.req('refused: POST on the subresource', 'POST', r, { body: {}, keep: statusOnly });
      await s.req('unknown pod', 'PATCH', `${pods}/nope/resize`, { body: {}, contentType: merge, keep: statusOnly });

      // What a resize may never do, whatever it asks.
      await s.req('create with pod-level resources', 'POST', pods, { body: pod('plr', { resources: { requests: { cpu: '1' } } }) });
      await s.req('refused: pod-level resources', 'PATCH', ...cpu('plr', '150m'));
      await s.req('create windows', 'POST', pods, { body: pod('win', { os: { name: 'windows' } }) });
      await s.req('refused: windows', 'PATCH', ...cpu('win', '150m'));
      await s.req('create static', 'POST', pods, { body: pod('mirror', { nodeName: 'n1' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }) });
      await s.req('refused: static', 'PATCH', ...cpu('mirror', '150m'));
      await s.req('refused: ephemeral containers of a static pod', 'PATCH', `${pods}/mirror/ephemeralcontainers`, { body: { spec: { ephemeralContainers: [{ name: 'd', image: 'x' }] } }, contentType: strategic, keep: podRefusal });
      await s.req('create running', 'POST', pods, { body: pod('run') });
      await s.req('running without resources in its status', 'PATCH', `${pods}/run/status`, { body: { status: { containerStatuses: [{ name: 'c', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }] } }, contentType: merge });
      await s.req('refused: node without support', 'PATCH', ...cpu('run', '150m'));
      const init = [{ name: 'side', image: 'x', restartPolicy: 'Always', resources: { requests: { cpu: '10m' } } }, { name: 'once', image: 'x', resources: { requests: { cpu: '10m' } } }];
      await s.req('create with init containers', 'POST', pods, { body: pod('side', { initContainers: init }) });
      await s.req('sidecar resized', 'PATCH', ...cpu('side', '20m', 'initContainers', 0));
      await s.req('refused: init container resized', 'PATCH', ...cpu('side', '20m', 'initContainers', 1));
      await s.req('refused: ephemeral storage of both', 'PATCH', `${pods}/side/resize`, { body: [{ op: 'add', path: '/spec/initContainers/0/resources/requests/ephemeral-storage', value: '1Gi' }, { op: 'add', path: '/spec/containers/0/resources/requests/ephemeral-storage', value: '5Gi' }], contentType: json, keep: podRefusal });
      await s.req('refused: sidecar requests removed', 'PATCH', `${pods}/side/resize`, { body: [{ op: 'remove', path: '/spec/initContainers/0/resources/requests' }], contentType: json, keep: podRefusal });
      await s.req('refused: renamed both', 'PATCH', `${pods}/side/resize`, { body: [{ op: 'replace', path: '/spec/initContainers/1/name', value: 'z' }, { op: 'replace', path: '/spec/containers/0/name', value: 'z' }], contentType: json, keep: podRefusal });
      await s.req('refused: init container removed', 'PATCH', `${pods}/side/resize`, { body: [{ op: 'remove', path: '/spec/initContainers/1' }], contentType: json, keep: podRefusal });
      await s.req('create best effort', 'POST', pods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'be' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
      await s.req('refused: best effort gets requests', 'PATCH', `${pods}/be/resize`, { body: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] } }, contentType: strategic, keep: podRefusal });
      await s.req('refused at create: resize policies', 'POST', pods, { body: pod('rp', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }, { resourceName: 'cpu' }, { restartPolicy: 'NotRequired' }] }] }), keep: podRefusal });

      // The LimitRanger (its defaults and its maximum) and the ResourceQuota (charged the increase).
      const lrNs = 'diff-resize-limits';
      await namespace(s, lrNs);
      const lrPods = `/api/v1/namespaces/${lrNs}/pods`;
      await s.req('create before the limits', 'POST', lrPods, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nd' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' }, limits: { cpu: '200m' } } }] } } });
      await s.req('limit range', 'POST', `/api/v1/namespaces/${lrNs}/limitranges`, { body: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: [{ type: 'Container', max: { cpu: '300m' }, default: { memory: '300Mi' }, defaultRequest: { memory: '100Mi' } }] } }, keep: 'status' });
      // The reference's LimitRanger reads LimitRanges through an informer (and caches an empty live lookup of the
      // namespace for 30 s, made by the create above): wait until a dry-run create gets the new defaults (CI on
      // 0c85004, Node 22: the resize below got none).
      await s.until(async () => {
        const probe = await s.raw('POST', `${lrPods}?dryRun=All`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
        const limits = (probe.body as { spec?: { containers?: { resources?: { limits?: Record<string, string> } }[] } }).spec?.containers?.[0]?.resources?.limits;
        return limits?.memory === '300Mi';
      }, 'LimitRange defaults at admission');
      await s.req('resize gets the defaults', 'PATCH', `${lrPods}/nd/resize`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '150m' }], contentType: json });
      await s.req('refused: over the maximum', 'PATCH', `${lrPods}/nd/resize`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '400m' }], contentType: json, keep: statusOnly });
      await s.req('quota', 'POST', `/api/v1/namespaces/${lrNs}/resourcequotas`, { body: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { 'requests.cpu': '250m', 'limits.cpu': '1' } } }, keep: 'status' });
      await s.req('quota usage', 'PATCH', `/api/v1/namespaces/${lrNs}/resourcequotas/q/status`, { body: { status: { hard: { 'requests.cpu': '250m', 'limits.cpu': '1' }, used: { 'requests.cpu': '150m', 'limits.cpu': '200m' } } }, contentType: merge, keep: 'status' });
      // The reference's ResourceQuota admission reads quotas through an informer (and a live lookup it caches for
      // 30 s): wait until a dry run over the quota is refused (CI on 1df0ee1, Node 24: the resize over it went through).
      await s.until(async () => {
        const probe = await s.raw('PATCH', `${lrPods}/nd/resize?dryRun=All`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '260m' }, { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '260m' }], contentType: json });
        return probe.status === 403;
      }, 'ResourceQuota at admission');
      await s.req('within the quota', 'PATCH', `${lrPods}/nd/resize`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '200m' }], contentType: json });
      await s.req('refused: over the quota', 'PATCH', `${lrPods}/nd/resize`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '260m' }, { op: 'replace', path: '/spec/containers/0/resources/limits/cpu', value: '260m' }], contentType: json, keep: statusOnly });
      await s.req('down, free', 'PATCH', `${lrPods}/nd/resize`, { body: [{ op: 'replace', path: '/spec/containers/0/resources/requests/cpu', value: '50m' }], contentType: json });
    },
  },
];
