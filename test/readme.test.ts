// The README's examples, as written there (only the kubeconfig and the abort signal are the test's), so
// they keep compiling and working.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startApiServer } from '@kubekit/apiserver';
import { Controller, ControllerMetrics, Manager, updateStatus } from '@kubekit/controller';
import { CustomResource, CustomResourceObject, Field, PrinterColumn, Selectable, customResourceDefinition, fieldSelector, toYAML } from '@kubekit/decorators';
import { Informer, KubeClient, loadKubeConfig } from '@kubekit/informer';

class ShirtSpec {
  @Selectable() @PrinterColumn() @Field({ type: 'string', enum: ['red', 'green', 'blue'] }) color?: Selectable<string>;
  @Selectable() @PrinterColumn() @Field({ type: 'string', default: 'M' }) size?: Selectable<string>;
}

@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt', shortNames: ['sh'] })
class Shirt extends CustomResourceObject {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
}

describe('README examples', function () {
  this.timeout(30_000);

  it('declares a custom resource, generates its CRD and a typed field selector', () => {
    const crd = customResourceDefinition(Shirt);
    expect(crd.spec.versions[0].selectableFields).to.deep.equal([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }]);
    expect(toYAML([crd])).to.contain('kind: CustomResourceDefinition');
    expect(fieldSelector(Shirt, { 'spec.color': 'blue' })).to.equal('spec.color=blue');
    // @ts-expect-error spec.colour is not a selectable field of Shirt
    expect(() => fieldSelector(Shirt, { 'spec.colour': 'blue' })).to.throw('field label not supported: spec.colour');
  });

  it('runs the operator of the README against the embedded API server', async () => {
    const server = await startApiServer();
    const ac = new AbortController();
    const signal = ac.signal;
    try {
      const kc = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
      const client = new KubeClient(kc);
      const crd = customResourceDefinition(Shirt);
      crd.spec.versions[0].subresources = { status: {} };
      crd.spec.versions[0].schema!.openAPIV3Schema!.properties!.status = { type: 'object', properties: { phase: { type: 'string' } } };
      await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      const api = client.resource({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
      await api.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name: 'a' }, spec: { color: 'blue' } });
      await api.create({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name: 'b' }, spec: { color: 'red' } });

      // --- as in the README ---
      const shirts = new KubeClient(kc).resource({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
      const blue = new Informer(kc, { apiVersion: 'stable.example.com/v1', plural: 'shirts', fieldSelector: 'spec.color=blue' });
      const reasons: string[] = [];
      // Regression: an expression-bodied handler that returns a value (push returns a number) type-checks.
      blue.on('delete', (shirt, { reason }) => reasons.push(`${shirt.metadata.name} ${reason}`));
      const controller = new Controller({
        name: 'blue-shirts',
        reconciler: async ({ namespace, name }) => {
          if (blue.getByName(name, namespace)) await updateStatus(shirts, namespace, name, (s) => { s.status = { phase: 'Selected' }; });
        },
      }).for(blue);
      const run = new Manager().add(blue, { leaderElection: false }).add(controller).start(signal);
      // ---

      const phase = async (n: string): Promise<unknown> => ((await api.get(n, { namespace: 'default' })).status as { phase?: string } | undefined)?.phase;
      for (let i = 0; i < 500 && (await phase('a')) !== 'Selected'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await phase('a')).to.equal('Selected');
      expect(await phase('b')).to.equal(undefined);
      await api.patch('a', { spec: { color: 'green' } }, { namespace: 'default' });
      for (let i = 0; i < 500 && reasons.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(reasons).to.deep.equal(['a leftSelection']);
      ac.abort();
      await run;
      client.close();
    } finally {
      ac.abort();
      await server.close();
    }
  });
});

// The README's table of `/metrics` series, against what a ControllerMetrics registers: every series
// named with its labels (those of the row, plus those in parentheses after the series' name), and
// nothing registered that the table leaves out.
describe('README metrics table', () => {
  const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8').split('\n');
  const header = readme.indexOf('| series | labels | from |');
  const rows: string[] = [];
  for (let i = header + 2; header >= 0 && readme[i]?.startsWith('|'); i++) rows.push(readme[i]);
  const documented = new Map<string, string[]>();
  for (const row of rows) {
    const [series, labels] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const rowLabels = [...labels.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    for (const m of series.matchAll(/`([a-z_*]+)`(?: \(([^)]*)\))?/g)) {
      documented.set(m[1], [...rowLabels, ...[...(m[2] ?? '').matchAll(/`([a-z_]+)`/g)].map((l) => l[1])].sort());
    }
  }

  it('names every series ControllerMetrics registers, with its labels, and no other', () => {
    expect(rows.length, 'the table was found').to.be.greaterThan(0);
    const metrics = new ControllerMetrics({ processMetrics: false });
    const registered = new Map(metrics.registry.getMetricsAsArray().map((m) => [m.name, [...(m as unknown as { labelNames: string[] }).labelNames].sort()]));
    const ownDocumented = new Map([...documented].filter(([name]) => !name.endsWith('*')));
    expect(Object.fromEntries(ownDocumented)).to.deep.equal(Object.fromEntries(registered));
  });

  it('names the prefixes of the process metrics served beside them', async () => {
    const prefixes = [...documented.keys()].filter((name) => name.endsWith('*')).map((name) => name.slice(0, -1)).sort();
    expect(prefixes).to.deep.equal(['nodejs_', 'process_']);
    const own = new Set(new ControllerMetrics({ processMetrics: false }).registry.getMetricsAsArray().map((m) => m.name));
    const served = new Set((await new ControllerMetrics().scrape()).split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]));
    for (const name of served) if (!own.has(name)) expect(prefixes.some((p) => name.startsWith(p)), name).to.equal(true);
    for (const p of prefixes) expect([...served].some((name) => name.startsWith(p)), p).to.equal(true);
  });
});
