// A real kubectl (1.33, fetched by scripts/fetch-kubectl.mjs into .tools/) against the embedded API
// server: the field selector walkthrough of the docs page "Extend the Kubernetes API with
// CustomResourceDefinitions" (section "Field selectors").
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { fixturesDir } from './internal/client.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Gets kubectl through the project script; undefined (with the reason printed) when it cannot. */
function obtainKubectl(): string | undefined {
  try {
    return execFileSync(process.execPath, [join(repoRoot, 'scripts', 'fetch-kubectl.mjs'), '--quiet'], { encoding: 'utf8', timeout: 280_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    console.log(`      kubectl tests SKIPPED: kubectl could not be obtained (${stderr.trim().split('\n').pop()})`);
    return undefined;
  }
}

describe('startApiServer with a real kubectl', function () {
  this.timeout(60_000);
  let kubectlPath: string | undefined;
  let server: ApiServer;
  let dir: string;

  const kubectl = (...args: string[]): Promise<Run> => new Promise((done) => {
    execFile(kubectlPath!, [`--kubeconfig=${join(dir, 'kubeconfig')}`, `--cache-dir=${join(dir, 'cache')}`, ...args], {
      env: { HOME: dir, PATH: process.env.PATH ?? '' }, timeout: 30_000, encoding: 'utf8',
    }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });

  before(async function () {
    this.timeout(300_000);
    kubectlPath = obtainKubectl();
    if (kubectlPath === undefined) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'kubekit-kubectl-'));
    server = await startApiServer();
    writeFileSync(join(dir, 'kubeconfig'), server.kubeconfig);
  });

  after(async () => {
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('applies the Shirt CRD and waits until it is established', async () => {
    const applied = await kubectl('apply', '-f', join(fixturesDir, 'shirt-resource-definition.yaml'));
    expect(applied.stderr).to.equal('');
    expect(applied.stdout).to.equal('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created\n');
    const waited = await kubectl('wait', '--for=condition=established', '--timeout=10s', 'crd/shirts.stable.example.com');
    expect(waited.stdout).to.equal('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com condition met\n');
  });

  it('applies the three Shirts of the docs page', async () => {
    const applied = await kubectl('apply', '-f', join(fixturesDir, 'shirt-resources.yaml'));
    expect(applied.stderr).to.equal('');
    expect(applied.stdout).to.equal([
      'shirt.stable.example.com/example1 created',
      'shirt.stable.example.com/example2 created',
      'shirt.stable.example.com/example3 created',
      '',
    ].join('\n'));
  });

  it('prints the docs\' NAME/COLOR/SIZE table for kubectl get shirts', async () => {
    const got = await kubectl('get', 'shirts.stable.example.com');
    expect(got.stdout).to.equal([
      'NAME       COLOR   SIZE',
      'example1   blue    S',
      'example2   blue    M',
      'example3   green   M',
      '',
    ].join('\n'));
  });

  it('selects the blue shirts with --field-selector spec.color=blue', async () => {
    const got = await kubectl('get', 'shirts.stable.example.com', '--field-selector', 'spec.color=blue');
    expect(got.stdout).to.equal('NAME       COLOR   SIZE\nexample1   blue    S\nexample2   blue    M\n');
  });

  it('selects green AND M with spec.color=green,spec.size=M: example3 only', async () => {
    // The docs page and the KEP show example2 here; the selector means green AND M.
    const got = await kubectl('get', 'shirts.stable.example.com', '--field-selector', 'spec.color=green,spec.size=M');
    expect(got.stdout).to.equal('NAME       COLOR   SIZE\nexample3   green   M\n');
  });

  it('prints the apiserver\'s error for a misspelt field label', async () => {
    const got = await kubectl('get', 'shirts.stable.example.com', '--field-selector', 'spec.colour=blue');
    expect(got.code).to.equal(1);
    expect(got.stdout).to.equal('');
    expect(got.stderr).to.equal('Error from server (BadRequest): Unable to find "stable.example.com/v1, Resource=shirts" that match label selector "", field selector "spec.colour=blue": field label not supported: spec.colour\n');
  });

  it('shows the selectable fields in the OpenAPI v3 document', async () => {
    const raw = await kubectl('get', '--raw', '/openapi/v3/apis/stable.example.com/v1');
    const doc = JSON.parse(raw.stdout) as { components: { schemas: Record<string, Record<string, unknown>> } };
    expect(doc.components.schemas['com.example.stable.v1.Shirt']['x-kubernetes-selectable-fields']).to.deep.equal([
      { fieldPath: 'spec.color' }, { fieldPath: 'spec.size' },
    ]);
  });

  it('explains the Shirt fields', async () => {
    const explained = await kubectl('explain', 'shirts.spec');
    expect(explained.stdout).to.contain('KIND:       Shirt');
    expect(explained.stdout).to.match(/color\s+<string>/);
    expect(explained.stdout).to.match(/size\s+<string>/);
  });

  it('leaves unchanged objects unchanged on re-apply', async () => {
    const applied = await kubectl('apply', '-f', join(fixturesDir, 'shirt-resources.yaml'));
    expect(applied.stdout).to.equal([
      'shirt.stable.example.com/example1 unchanged',
      'shirt.stable.example.com/example2 unchanged',
      'shirt.stable.example.com/example3 unchanged',
      '',
    ].join('\n'));
  });

  it('re-applies an updated CRD with the patch computed from the OpenAPI v3 schema of CustomResourceDefinition, without a warning', async () => {
    // Regression for issue #16: the embedded server published CustomResourceDefinition with an untyped
    // schema while advertising strategic merge patch, and every apply of a changed CRD printed
    // `warning: error calculating patch from openapi v3 spec: unable to find api field "spec"`.
    const original = readFileSync(join(fixturesDir, 'shirt-resource-definition.yaml'), 'utf8');
    const updated = original
      .replace('    kind: Shirt\n', '    kind: Shirt\n    shortNames: [shs]\n')
      .replace('              size:\n                type: string\n', '              size:\n                type: string\n                default: M\n              tags:\n                type: array\n                items: {type: object, properties: {name: {type: string}}}\n');
    expect(updated).to.not.equal(original);
    writeFileSync(join(dir, 'updated-crd.yaml'), updated);
    const applied = await kubectl('apply', '-f', join(dir, 'updated-crd.yaml'));
    expect(applied.stderr).to.equal('');
    expect(applied.stdout).to.equal('customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com configured\n');
    const got = JSON.parse((await kubectl('get', 'crd', 'shirts.stable.example.com', '-o', 'json')).stdout) as { spec: { names: { shortNames?: string[] }; versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } } }[] } };
    expect(got.spec.names.shortNames).to.deep.equal(['shs']);
    expect(Object.keys(got.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties)).to.deep.equal(['color', 'size', 'tags']);
    // And back: the three-way patch removes what the last applied configuration added.
    const reverted = await kubectl('apply', '-f', join(fixturesDir, 'shirt-resource-definition.yaml'));
    expect(reverted.stderr).to.equal('');
    const back = JSON.parse((await kubectl('get', 'crd', 'shirts.stable.example.com', '-o', 'json')).stdout) as typeof got;
    expect(back.spec.names.shortNames).to.equal(undefined);
    expect(back.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties).to.deep.equal({ color: { type: 'string' }, size: { type: 'string' } });
  });

  it('deletes a shirt', async () => {
    const deleted = await kubectl('delete', 'shirt', 'example2');
    expect(deleted.stdout).to.equal('shirt.stable.example.com "example2" deleted\n');
    const got = await kubectl('get', 'shirts', '-o', 'name');
    expect(got.stdout).to.equal('shirt.stable.example.com/example1\nshirt.stable.example.com/example3\n');
  });

  it('creates namespaces, ConfigMaps and Secrets with kubectl create (protobuf bodies)', async () => {
    expect((await kubectl('create', 'namespace', 'team-a')).stdout).to.equal('namespace/team-a created\n');
    expect((await kubectl('create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=mode=fast', '--from-literal=level=3')).stdout)
      .to.equal('configmap/settings created\n');
    expect((await kubectl('create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=hunter2')).stdout)
      .to.equal('secret/creds created\n');
    const cm = JSON.parse((await kubectl('get', 'configmap', 'settings', '-n', 'team-a', '-o', 'json')).stdout) as { data: Record<string, string>; metadata: Record<string, unknown> };
    expect(cm.data).to.deep.equal({ level: '3', mode: 'fast' });
    expect(cm.metadata).to.not.have.any.keys('generateName', 'generation');
    const secret = JSON.parse((await kubectl('get', 'secret', 'creds', '-n', 'team-a', '-o', 'json')).stdout) as { data: Record<string, string>; type: string };
    expect(Buffer.from(secret.data.password, 'base64').toString()).to.equal('hunter2');
    expect(secret.type).to.equal('Opaque');
    const ns = await kubectl('get', 'namespace', 'team-a');
    expect(ns.stdout).to.match(/^NAME\s+STATUS\s+AGE\nteam-a\s+Active\s+\d+s\n$/);
  });

  it('finalizes a namespace stuck in Terminating with kubectl replace --raw …/finalize', async () => {
    writeFileSync(join(dir, 'stuck.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'stuck' }, spec: { finalizers: ['example.com/cleanup'] } }));
    expect((await kubectl('create', '-f', join(dir, 'stuck.json'))).stdout).to.equal('namespace/stuck created\n');
    expect((await kubectl('delete', 'namespace', 'stuck', '--wait=false')).stdout).to.equal('namespace "stuck" deleted\n');
    // The namespace controller removes its own finalizer; example.com/cleanup keeps the namespace.
    let ns = { spec: { finalizers: ['kubernetes'] }, status: { phase: '' } };
    for (let i = 0; i < 50 && ns.spec.finalizers.includes('kubernetes'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      ns = JSON.parse((await kubectl('get', 'namespace', 'stuck', '-o', 'json')).stdout) as typeof ns;
    }
    expect([ns.spec.finalizers, ns.status.phase]).to.deep.equal([['example.com/cleanup'], 'Terminating']);
    writeFileSync(join(dir, 'finalized.json'), JSON.stringify({ ...ns, spec: { finalizers: [] } }));
    const replaced = await kubectl('replace', '--raw', '/api/v1/namespaces/stuck/finalize', '-f', join(dir, 'finalized.json'));
    expect(replaced.code, replaced.stderr).to.equal(0);
    const gone = await kubectl('get', 'namespace', 'stuck');
    expect(gone.stderr).to.equal('Error from server (NotFound): namespaces "stuck" not found\n');
  });

  it('prints printer columns, and the priority-1 ones only with -o wide', async () => {
    expect((await kubectl('apply', '-f', join(fixturesDir, 'crontab-crd.yaml'))).stdout).to.equal('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n');
    await kubectl('wait', '--for=condition=established', '--timeout=10s', 'crd/crontabs.stable.example.com');
    const ct = join(dir, 'ct.yaml');
    writeFileSync(ct, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n');
    expect((await kubectl('apply', '-f', ct)).stdout).to.equal('crontab.stable.example.com/my-new-cron-object created\n');
    const got = await kubectl('get', 'ct');
    expect(got.stdout).to.match(/^NAME\s+SPEC\s+REPLICAS\s+AGE\nmy-new-cron-object\s+\* \* \* \* \*\/5\s+1\s+\d+s\n$/);
    const wide = await kubectl('get', 'ct', '-o', 'wide');
    expect(wide.stdout).to.match(/^NAME\s+SPEC\s+REPLICAS\s+IMAGE\s+AGE\nmy-new-cron-object\s+\* \* \* \* \*\/5\s+1\s+my-awesome-cron-image\s+\d+s\n$/);
    const invalid = join(dir, 'bad.yaml');
    writeFileSync(invalid, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: bad\nspec:\n  replicas: 15\n');
    const rejected = await kubectl('apply', '-f', invalid);
    expect(rejected.code).to.equal(1);
    expect(rejected.stderr).to.contain('The CronTab "bad" is invalid: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10');
  });

  it('deletes the CRD and with it its shirts', async () => {
    const deleted = await kubectl('delete', '-f', join(fixturesDir, 'shirt-resource-definition.yaml'));
    expect(deleted.stdout).to.equal('customresourcedefinition.apiextensions.k8s.io "shirts.stable.example.com" deleted\n');
    await server.idle();
    const crds = await kubectl('get', 'crds', '-o', 'name');
    expect(crds.stdout).to.equal('customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com\n');
    const shirts = await kubectl('get', 'shirts');
    expect(shirts.code).to.equal(1);
    // kubectl's cached discovery still maps shirts; the server no longer serves them, and answers the mux's
    // plain-text 404, which kubectl words with the verb and resource, as in the docs page ("… the server could
    // not find the requested resource (get crontabs.stable.example.com)", seeds/003).
    expect(shirts.stderr).to.equal('Error from server (NotFound): Unable to list "stable.example.com/v1, Resource=shirts": the server could not find the requested resource (get shirts.stable.example.com)\n');
  });
  it('creates a Deployment with kubectl create deployment (protobuf body), prints it and scales it', async () => {
    const created = await kubectl('create', 'deployment', 'web', '--image=nginx');
    expect(created.stderr).to.equal('');
    expect(created.stdout).to.equal('deployment.apps/web created\n');
    const got = await kubectl('get', 'deployment');
    expect(got.stdout).to.match(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nweb\s+0\/1\s+0\s+0\s+\d+s\n$/);
    const wide = await kubectl('get', 'deploy', 'web', '-o', 'wide');
    expect(wide.stdout).to.match(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+0\/1\s+0\s+0\s+\d+s\s+nginx\s+nginx\s+app=web\n$/);
    expect((await kubectl('scale', 'deployment', 'web', '--replicas=3')).stdout).to.equal('deployment.apps/web scaled\n');
    const replicas = await kubectl('get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas} {.metadata.generation} {.spec.template.spec.containers[0].imagePullPolicy}');
    expect(replicas.stdout).to.equal('3 2 Always');
  });

  it('autoscales the Deployment with kubectl autoscale (an autoscaling/v2 HorizontalPodAutoscaler) and prints it', async () => {
    expect((await kubectl('autoscale', 'deployment', 'web', '--min=2', '--max=5', '--cpu-percent=70')).stdout).to.equal('horizontalpodautoscaler.autoscaling/web autoscaled\n');
    expect((await kubectl('autoscale', 'deployment', 'web', '--name=web-default', '--max=3')).stdout).to.equal('horizontalpodautoscaler.autoscaling/web-default autoscaled\n');
    // kube-apiserver 1.34.4 prints the same table (the CPU target defaults to 80%, the minimum to 1).
    const got = await kubectl('get', 'hpa');
    expect(got.stdout).to.match(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nweb\s+Deployment\/web\s+cpu: <unknown>\/70%\s+2\s+5\s+0\s+\d+s\nweb-default\s+Deployment\/web\s+cpu: <unknown>\/80%\s+1\s+3\s+0\s+\d+s\n$/);
    const spec = await kubectl('get', 'hpa', 'web', '-o', 'jsonpath={.apiVersion} {.spec.scaleTargetRef.apiVersion} {.spec.metrics[0].resource.target.averageUtilization}');
    expect(spec.stdout).to.equal('autoscaling/v2 apps/v1 70');
    const described = await kubectl('describe', 'hpa', 'web');
    expect(described.stdout).to.match(/Reference:\s+Deployment\/web\nMetrics:\s+\( current \/ target \)\n\s+resource cpu on pods\s+\(as a percentage of request\):\s+<unknown> \/ 70%\nMin replicas:\s+2\nMax replicas:\s+5\n/);
  });

  it('creates Jobs, CronJobs, Services, ServiceAccounts, RBAC objects, PodDisruptionBudgets, Ingresses, PriorityClasses and ResourceQuotas with kubectl create', async () => {
    const runs = [
      [['create', 'job', 'once', '--image=busybox', '--', 'echo', 'hi'], 'job.batch/once created\n'],
      [['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/1 * * * *'], 'cronjob.batch/tick created\n'],
      [['create', 'service', 'nodeport', 'np', '--tcp=80'], 'service/np created\n'],
      [['create', 'serviceaccount', 'robot'], 'serviceaccount/robot created\n'],
      [['create', 'role', 'reader', '--verb=get', '--resource=pods'], 'role.rbac.authorization.k8s.io/reader created\n'],
      [['create', 'rolebinding', 'reads', '--role=reader', '--serviceaccount=default:robot'], 'rolebinding.rbac.authorization.k8s.io/reads created\n'],
      [['create', 'clusterrole', 'all-reader', '--verb=get,list', '--resource=pods'], 'clusterrole.rbac.authorization.k8s.io/all-reader created\n'],
      [['create', 'clusterrolebinding', 'bob-reads', '--clusterrole=all-reader', '--user=bob'], 'clusterrolebinding.rbac.authorization.k8s.io/bob-reads created\n'],
      // kubectl sends these as protobuf (regression: policy/v1 was not a protobuf group, a 415).
      [['create', 'poddisruptionbudget', 'keep-one', '--selector=app=web', '--min-available=1'], 'poddisruptionbudget.policy/keep-one created\n'],
      [['create', 'pdb', 'lose-some', '--selector=app=web', '--max-unavailable=20%'], 'poddisruptionbudget.policy/lose-some created\n'],
      [['create', 'ingress', 'site', '--class=nginx', '--rule=site.example.com/*=web:80,tls=site-tls'], 'ingress.networking.k8s.io/site created\n'],
      // Protobuf too (regression: scheduling.k8s.io was not a protobuf group, a 415).
      [['create', 'priorityclass', 'batch-low', '--value=-5', '--preemption-policy=Never', '--description=low'], 'priorityclass.scheduling.k8s.io/batch-low created\n'],
      [['create', 'quota', 'small', '--hard=pods=2,requests.cpu=1', '--scopes=NotBestEffort'], 'resourcequota/small created\n'],
    ] as const;
    for (const [args, out] of runs) {
      const r = await kubectl(...args);
      expect(r.stderr).to.equal('');
      expect(r.stdout).to.equal(out);
    }
    const job = await kubectl('get', 'job', 'once', '-o', 'jsonpath={.spec.template.spec.restartPolicy} {.spec.template.spec.containers[0].command}');
    expect(job.stdout).to.equal('Never ["echo","hi"]');
    const svc = await kubectl('get', 'svc', 'np');
    expect(svc.stdout).to.match(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nnp\s+NodePort\s+10\.96\.\d+\.\d+\s+<none>\s+80:3\d{4}\/TCP\s+\d+s\n$/);
    const roles = await kubectl('get', 'role');
    expect(roles.stdout).to.match(/^NAME\s+CREATED AT\nreader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
    const budgets = await kubectl('get', 'pdb');
    expect(budgets.stdout).to.match(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nkeep-one\s+1\s+N\/A\s+0\s+\d+s\nlose-some\s+N\/A\s+20%\s+0\s+\d+s\n$/);
    const ingresses = await kubectl('get', 'ingress');
    expect(ingresses.stdout).to.match(/^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nsite\s+nginx\s+site\.example\.com\s+80, 443\s+\d+s\n$/);
    const rule = await kubectl('get', 'ingress', 'site', '-o', 'jsonpath={.spec.rules[0].http.paths[0].pathType} {.spec.rules[0].http.paths[0].backend.service.port.number} {.spec.tls[0].secretName}');
    expect(rule.stdout).to.equal('Prefix 80 site-tls');
    const classes = await kubectl('get', 'pc');
    expect(classes.stdout).to.match(/^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY\nbatch-low\s+-5\s+false\s+\d+s\s+Never\nsystem-cluster-critical\s+2000000000\s+false\s+\S+\s+PreemptLowerPriority\nsystem-node-critical\s+2000001000\s+false\s+\S+\s+PreemptLowerPriority\n$/);
    // No quota controller fills the status the REQUEST and LIMIT columns print.
    const quota = await kubectl('get', 'quota', 'small', '-o', 'jsonpath={.spec.hard.requests\\.cpu} {.spec.scopes}');
    expect(quota.stdout).to.equal('1 ["NotBestEffort"]');
    expect((await kubectl('get', 'quota')).stdout).to.match(/^NAME\s+REQUEST\s+LIMIT\s+AGE\nsmall\s+\d+s\n$/);
    // The bootstrap policy's bindings are there too, as on a cluster.
    const bindings = await kubectl('get', 'clusterrolebinding', 'bob-reads', '-o', 'wide');
    expect(bindings.stdout).to.match(/^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nbob-reads\s+ClusterRole\/all-reader\s+\d+s\s+bob\s*\n$/);
  });
  it('answers kubectl auth can-i (as itself, as an impersonated service account, --list) and kubectl auth whoami (reviews sent as protobuf)', async () => {
    expect((await kubectl('auth', 'can-i', 'delete', 'nodes')).stdout).to.equal('yes\n');
    expect((await kubectl('create', 'role', 'op-reader', '--verb=get,list', '--resource=configmaps')).code).to.equal(0);
    expect((await kubectl('create', 'rolebinding', 'op-reads', '--role=op-reader', '--serviceaccount=default:op')).code).to.equal(0);
    const as = '--as=system:serviceaccount:default:op';
    expect((await kubectl('auth', 'can-i', 'list', 'configmaps', as)).stdout).to.equal('yes\n');
    const denied = await kubectl('auth', 'can-i', 'delete', 'configmaps', as);
    expect([denied.code, denied.stdout]).to.deep.equal([1, 'no\n']);
    const list = await kubectl('auth', 'can-i', '--list', as);
    expect(list.stdout).to.match(/^configmaps\s+\[\]\s+\[\]\s+\[get list\]$/m);
    expect((await kubectl('auth', 'whoami', as, '-o', 'jsonpath={.status.userInfo.groups}')).stdout).to.equal('["system:serviceaccounts","system:serviceaccounts:default","system:authenticated"]');
    const forbidden = await kubectl('get', 'secrets', as);
    expect(forbidden.stderr).to.equal('Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:default:op" cannot list resource "secrets" in API group "" in the namespace "default"\n');
  });

  it('serves HTTPS without a token to a kubectl that does not ask for a username', async () => {
    // kubectl asks for a username (and waits on stdin) when a TLS kubeconfig's user has no credential at all.
    const open = await startApiServer({ tls: true });
    try {
      const config = join(dir, 'tls-open-kubeconfig');
      writeFileSync(config, open.kubeconfig);
      const got = await kubectl(`--kubeconfig=${config}`, 'get', 'namespace', 'default', '-o', 'name');
      expect([got.code, got.stdout, got.stderr]).to.deep.equal([0, 'namespace/default\n', '']);
      const who = await kubectl(`--kubeconfig=${config}`, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
      expect([who.code, who.stdout]).to.deep.equal([0, 'system:admin']);
    } finally {
      await open.close();
    }
  });

  it('acts as a service account with the token kubectl create token asks for (a TokenRequest sent as protobuf, over TLS)', async () => {
    // client-go sends a bearer token only over TLS: this server serves HTTPS (and wants a token of its own).
    const secure = await startApiServer({ tls: true, token: 'kubectl-test-admin' });
    try {
      const config = join(dir, 'tls-kubeconfig');
      writeFileSync(config, secure.kubeconfig);
      const tls = (...args: string[]): Promise<Run> => kubectl(`--kubeconfig=${config}`, ...args);
      const created = await tls('create', 'serviceaccount', 'op');
      expect([created.code, created.stderr]).to.deep.equal([0, '']);
      expect((await tls('create', 'role', 'op-reader', '--verb=list', '--resource=configmaps')).code).to.equal(0);
      expect((await tls('create', 'rolebinding', 'op-reads', '--role=op-reader', '--serviceaccount=default:op')).code).to.equal(0);
      const minted = await tls('create', 'token', 'op', '--duration=20m');
      expect(`${minted.stderr},${minted.stdout}`).to.match(/^,eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
      const token = `--token=${minted.stdout}`;
      expect((await tls('auth', 'whoami', token, '-o', 'jsonpath={.status.userInfo.username}')).stdout).to.equal('system:serviceaccount:default:op');
      expect((await tls('get', 'configmaps', token)).code).to.equal(0);
      expect((await tls('get', 'secrets', token)).stderr).to.equal('Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:default:op" cannot list resource "secrets" in API group "" in the namespace "default"\n');
      const tampered = await tls('get', 'configmaps', `--token=${minted.stdout.slice(0, -4)}AAAA`);
      expect(tampered.stderr).to.equal('error: You must be logged in to the server (Unauthorized)\n');
    } finally {
      await secure.close();
    }
  });

  it('moves a ConfigMap from client-side to server-side apply, and answers a second manager with the conflict', async () => {
    const file = join(dir, 'settings.yaml');
    const manifest = (a: string, b: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "${a}"\n  b: "${b}"\n`;
    writeFileSync(file, manifest('1', '2'));
    expect((await kubectl('apply', '-f', file)).stdout).to.equal('configmap/settings created\n');
    writeFileSync(file, manifest('3', '2'));
    // The fields kubectl applied client-side are its own when it applies server-side (lastappliedmanager.go).
    const ssa = await kubectl('apply', '--server-side', '-f', file);
    expect(ssa.stderr).to.equal('');
    expect(ssa.stdout).to.equal('configmap/settings serverside-applied\n');
    const managers = await kubectl('get', 'configmap', 'settings', '-o', 'jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation} {end}');
    // kubectl first moves the client-side entries to its server-side managers by patching managedFields
    // (csaupgrade); kube-apiserver 1.34.4 ends with the same two entries and annotation.
    expect(managers.stdout).to.equal('kubectl-last-applied/Apply kubectl/Apply ');
    const last = await kubectl('get', 'configmap', 'settings', '-o', 'jsonpath={.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}');
    expect(last.stdout).to.equal('{"apiVersion":"v1","data":{"a":"3","b":"2"},"kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"}}\n');
    writeFileSync(file, manifest('4', '2'));
    const other = await kubectl('apply', '--server-side', '--field-manager=other', '-f', file);
    expect(other.code).to.equal(1);
    expect(other.stderr).to.include('Apply failed with 1 conflict: conflict with "kubectl": .data.a');
    const forced = await kubectl('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', file);
    expect(forced.stdout).to.equal('configmap/settings serverside-applied\n');
    expect((await kubectl('get', 'configmap', 'settings', '-o', 'jsonpath={.data.a}')).stdout).to.equal('4');
  });

  it('explains built-in kinds from their published OpenAPI v3 schemas', async () => {
    const r = await kubectl('explain', 'deployment.spec.template.spec.containers.ports');
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.match(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: ports <\[\]ContainerPort>\n/);
    expect(r.stdout).to.match(/\n {2}containerPort\t<integer> -required-\n/);
    // With the descriptions kube-apiserver publishes (kubekit's schemas once had none: `<no description>`).
    expect(r.stdout).to.contain('\n    Number of port to expose on the pod\'s IP address. This must be a valid port\n');
    expect(r.stdout).not.to.contain('<no description>');
    const recursive = await kubectl('explain', 'cronjob.spec', '--recursive');
    expect(recursive.stdout).to.contain('jobTemplate\t<JobTemplateSpec> -required-');
  });

  it('re-applies a Deployment with the strategic merge patch kubectl computes from the schema: containers merge by name', async () => {
    const manifest = (image: string): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: merged
spec:
  selector:
    matchLabels: {app: merged}
  template:
    metadata:
      labels: {app: merged}
    spec:
      containers:
      - name: app
        image: ${image}
      - name: sidecar
        image: envoy:1.30
`;
    const file = join(dir, 'merged.yaml');
    writeFileSync(file, manifest('app:1'));
    expect((await kubectl('apply', '-f', file)).stdout).to.equal('deployment.apps/merged created\n');
    // A field another writer set on one container survives the re-apply (a replace of the list would drop it).
    expect((await kubectl('patch', 'deployment', 'merged', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","args":["--v=2"]}]}}}}')).stdout).to.equal('deployment.apps/merged patched\n');
    writeFileSync(file, manifest('app:2'));
    const reapplied = await kubectl('apply', '-f', file);
    expect(reapplied.stderr).to.equal('');
    expect(reapplied.stdout).to.equal('deployment.apps/merged configured\n');
    const got = await kubectl('get', 'deploy', 'merged', '-o', 'jsonpath={range .spec.template.spec.containers[*]}{.name}={.image}{.args} {end}');
    expect(got.stdout).to.equal('app=app:2 sidecar=envoy:1.30["--v=2"] ');
  });

  it('resizes a pod in place with kubectl patch --subresource resize, and refuses what a resize may not change', async () => {
    const file = join(dir, 'resized.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: resized\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests: {cpu: 100m, memory: 100Mi}\n      limits: {cpu: 200m, memory: 200Mi}\n');
    expect((await kubectl('apply', '-f', file)).stdout).to.equal('pod/resized created\n');
    const patched = await kubectl('patch', 'pod', 'resized', '--subresource', 'resize', '--patch', '{"spec":{"containers":[{"name":"c","image":"busybox","resources":{"requests":{"cpu":"150m"}}}]}}');
    expect([patched.stdout, patched.stderr]).to.deep.equal(['pod/resized patched\n', '']);
    const got = await kubectl('get', 'pod', 'resized', '-o', 'jsonpath={.spec.containers[0].resources.requests.cpu} {.spec.containers[0].image} {.metadata.generation}');
    expect(got.stdout).to.equal('150m nginx 2');
    // No Table through resize: kubectl prints the name and age itself, as against a cluster.
    expect((await kubectl('get', 'pod', 'resized', '--subresource', 'resize')).stdout).to.match(/^NAME\s+AGE\nresized\s+\d+s\n$/);
    const refused = await kubectl('patch', 'pod', 'resized', '--subresource', 'resize', '--type', 'json', '-p', '[{"op":"remove","path":"/spec/containers/0/resources/limits"}]');
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.equal('The Pod "resized" is invalid: spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed\n');
  });

  it('serves a metrics-server APIService kubekit cannot reach as kube-apiserver does: a stale group kubectl leaves out, kubectl top says the Metrics API is not available, other commands work', async () => {
    const file = join(dir, 'metrics.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: metrics-server\n  namespace: default\nspec:\n  ports:\n  - port: 443\n---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1beta1.metrics.k8s.io\nspec:\n  group: metrics.k8s.io\n  version: v1beta1\n  groupPriorityMinimum: 100\n  versionPriority: 100\n  insecureSkipTLSVerify: true\n  service:\n    name: metrics-server\n    namespace: default\n');
    expect((await kubectl('apply', '-f', file)).stdout).to.equal('service/metrics-server created\napiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io created\n');
    // A fresh cache: discovery is asked again; the group is listed stale, which kubectl leaves out without an
    // error (kube-apiserver 1.34.4 answers the same; the group is in legacy /apis, see apiServiceDiscovery.test.ts).
    rmSync(join(dir, 'cache'), { recursive: true, force: true });
    const versions = await kubectl('api-versions');
    expect([versions.code, versions.stderr, versions.stdout.split('\n').includes('metrics.k8s.io/v1beta1'), versions.stdout.split('\n').includes('apps/v1')]).to.deep.equal([0, '', false, true]);
    const top = await kubectl('top', 'pods');
    expect([top.code, top.stderr]).to.deep.equal([1, 'error: Metrics API not available\n']);
    const got = await kubectl('get', 'namespace', 'default', '-o', 'name');
    expect([got.code, got.stdout, got.stderr]).to.deep.equal([0, 'namespace/default\n', '']);
    expect((await kubectl('delete', '-f', file)).code).to.equal(0);
  });

  it('prints kubectl get componentstatuses (kubectl get cs) with the deprecation warning, as kube-apiserver does with no scheduler or controller-manager running', async () => {
    const cs = await kubectl('get', 'cs');
    const refused = (port: number): string => `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect([cs.code, cs.stderr, cs.stdout.split('\n').map((l) => l.split(/ {2,}/).join('|'))]).to.deep.equal([0, 'Warning: v1 ComponentStatus is deprecated in v1.19+\n', [
      'NAME|STATUS|MESSAGE|ERROR', `controller-manager|Unhealthy|${refused(10257)}|`, `scheduler|Unhealthy|${refused(10259)}|`, 'etcd-0|Healthy|ok|', '',
    ]]);
    const watch = await kubectl('get', 'componentstatuses', '--watch', '--request-timeout=5s');
    // kubectl lists first, then its watch is refused.
    expect([watch.code, watch.stdout.split('\n').length, watch.stderr]).to.deep.equal([1, 5, 'Warning: v1 ComponentStatus is deprecated in v1.19+\nError from server (MethodNotAllowed): watch is not supported on resources of kind "componentstatuses"\n']);
  });
});
