// ValidatePodSpec and ValidatePodTemplateSpec as kube-apiserver v1.34.4 runs them on a Pod create and on
// workload templates (pkg/apis/core/validation/validation.go, pkg/apis/apps/validation and
// pkg/apis/batch/validation around them). The cases follow upstream's tables — TestValidatePorts,
// TestValidateEnv, TestValidateEnvFrom, TestValidateVolumes, TestValidateVolumeMounts, TestValidateProbe,
// TestValidateHandler, TestValidateContainers, TestValidateInitContainers, TestValidateEphemeralContainers,
// TestValidatePodSpec (validation_test.go; each case names its table in `upstream`), sent as whole
// objects. Every expected answer in fixtures/pod-spec-validation.json is what the reference server
// answered to the same dry-run POST: the Status (code, message, causes in order) of a refusal, the
// stored spec of a create (the defaults validation relies on). The differential scenario
// `builtin/pod-spec-validation` asks both servers again whenever the reference is at hand.
import { expect } from 'chai';
import type { ApiServer } from '@kubekit/apiserver';
import { fixture, start, type Client } from './internal/client.js';

interface Case {
  name: string;
  upstream: string;
  body: { kind: string; spec: unknown };
  answer: { code: number; message?: string; causes?: unknown[]; spec?: unknown };
}

const paths: Record<string, string> = {
  Pod: '/api/v1/namespaces/default/pods',
  Deployment: '/apis/apps/v1/namespaces/default/deployments',
  StatefulSet: '/apis/apps/v1/namespaces/default/statefulsets',
  Job: '/apis/batch/v1/namespaces/default/jobs',
};

/** The pod spec of a created object: a Pod's own, a workload's template's. */
function podSpec(kind: string, body: Record<string, unknown>): unknown {
  const spec = body.spec as Record<string, unknown>;
  return kind === 'Pod' ? spec : (spec.template as Record<string, unknown>).spec;
}

describe('ValidatePodSpec (answers of kube-apiserver v1.34.4)', function () {
  this.timeout(30_000);
  let server: ApiServer;
  let client: Client;
  before(async () => {
    ({ server, client } = await start());
  });
  after(() => server.close());

  const cases = fixture<Case[]>('pod-spec-validation.json');
  // Errors grow with the request's lists: they are appended one by one (200,000 spread as arguments overflowed the stack).
  it('lists the errors of a pod with 200,000 unnamed volumes', async () => {
    const volumes = Array.from({ length: 200_000 }, () => ({}));
    const r = await client.post('/api/v1/namespaces/default/pods?dryRun=All', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'many' }, spec: { containers: [{ name: 'c', image: 'i' }], volumes } });
    expect(r.status).to.equal(422);
    expect(r.body.details.causes).to.have.length(200_000);
    expect(r.body.details.causes[199_999]).to.deep.include({ field: 'spec.volumes[199999].name', reason: 'FieldValueRequired' });
  });

  // Go's strings.TrimSpace keeps U+FEFF: kube-apiserver 1.34.4 creates a pod whose image starts with it.
  it('trims images with Go\'s white space only', async () => {
    const r = await client.post('/api/v1/namespaces/default/pods?dryRun=All', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'feff' }, spec: { containers: [{ name: 'c', image: '\uFEFFnginx' }] } });
    expect(r.status).to.equal(201);
    const padded = await client.post('/api/v1/namespaces/default/pods?dryRun=All', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pad' }, spec: { containers: [{ name: 'c', image: ' nginx' }] } });
    expect(padded.status).to.equal(422);
  });

  it('has the recorded cases', () => {
    expect(cases.length).to.be.greaterThan(60);
  });
  for (const c of cases) {
    it(`${c.answer.code === 201 ? 'accepts' : 'refuses'} ${c.name} (${c.upstream})`, async () => {
      const r = await client.post(`${paths[c.body.kind]}?dryRun=All`, c.body);
      expect(r.status).to.equal(c.answer.code);
      if (c.answer.code === 201) {
        expect(podSpec(c.body.kind, r.body)).to.deep.equal(c.answer.spec);
      } else {
        expect(r.body.message).to.equal(c.answer.message);
        expect(r.body.details?.causes).to.deep.equal(c.answer.causes);
      }
    });
  }

  it('checks a template\'s pod spec on update too (the same rules as on create)', async () => {
    const dep = (image: string, port: number): unknown => ({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: port }] }] } } },
    });
    const path = '/apis/apps/v1/namespaces/default/deployments';
    expect((await client.post(path, dep('nginx', 80))).status).to.equal(201);
    const r = await client.request('PUT', `${path}/web`, dep('nginx', 0));
    expect(r.body.message).to.equal('Deployment.apps "web" is invalid: spec.template.spec.containers[0].ports[0].containerPort: Required value');
  });
});
