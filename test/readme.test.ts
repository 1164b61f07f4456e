// The README's examples, as written there (only the kubeconfig and the abort signal are the test's), so
// they keep compiling and working.
import { expect } from 'chai';
import { startApiServer } from '@kubekit/apiserver';
import { Controller, Manager, updateStatus } from '@kubekit/controller';
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
