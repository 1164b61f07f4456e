// Emulating an older cluster: the CustomResourceFieldSelectors feature gate off
// (fieldselector_test.go TestFieldSelectorDropFields and TestFieldSelectorDisablement; cases
// crdCreate/001 and integration/015 of fixtures/selectable-fields-integration.json).
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@kubekit/core';
import { createCRD, fixture, start } from './internal/client.js';

interface Vectors { crdFixture: KubeObject & { spec: { versions: Record<string, unknown>[] } }; instances: KubeObject[]; cases: { id: string; expected: Record<string, any> }[] } // eslint-disable-line @typescript-eslint/no-explicit-any

const vectors = fixture<Vectors>('selectable-fields-integration.json');
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('startApiServer({ customResourceFieldSelectors: false })', function () {
  this.timeout(20_000);

  it('drops selectableFields from CRD creates and updates (crdCreate/001)', async () => {
    const { server, client } = await start({ customResourceFieldSelectors: false });
    try {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.mygroup.example.com' },
        spec: {
          group: 'mygroup.example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget', listKind: 'WidgetList' },
          versions: [{
            name: 'v1beta1', served: true, storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { field: { type: 'string' } }, required: ['field'] } } } },
            selectableFields: [{ jsonPath: '.spec.field' }],
          }],
        },
      };
      const created = await createCRD(server, client, crd);
      expect(created.body.spec.versions[0].selectableFields).to.equal(undefined);
      const current = (await client.get(`${crdPath}/widgets.mygroup.example.com`)).body;
      current.spec.versions[0].selectableFields = [{ jsonPath: '.spec.field' }];
      const updated = await client.put(`${crdPath}/widgets.mygroup.example.com`, current);
      expect(updated.status).to.equal(200);
      expect(updated.body.spec.versions[0].selectableFields).to.equal(undefined);
    } finally {
      await server.close();
    }
  });

  it('keeps selectableFields a CRD already had, and answers custom field selectors with 400 (integration/015)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubekit-gate-'));
    try {
      // Written while the gate is on...
      const enabled = await start({ dataDir });
      // The upstream fixture without the conversion webhook of TestSelectableFields (strategy None).
      const fixtureCRD = structuredClone(vectors.crdFixture) as KubeObject & { spec: Record<string, unknown> };
      delete fixtureCRD.spec.conversion;
      await createCRD(enabled.server, enabled.client, fixtureCRD);
      await enabled.server.close();

      // ...then served with the gate off, as after a downgrade.
      const { server, client } = await start({ dataDir, customResourceFieldSelectors: false });
      try {
        const crd = (await client.get(`${crdPath}/shirts.tests.example.com`)).body;
        crd.spec.versions[0].selectableFields = [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.quantity' }];
        const updated = await client.put(`${crdPath}/shirts.tests.example.com`, crd);
        expect(updated.status).to.equal(200);
        expect(updated.body.spec.versions[0].selectableFields).to.deep.equal([{ jsonPath: '.spec.color' }, { jsonPath: '.spec.quantity' }]);
        await server.idle();

        const c = vectors.cases.find((x) => x.id === 'integration/015')!;
        const w = await client.watch(`/apis/tests.example.com/v1/shirts?watch=true&fieldSelector=${encodeURIComponent('spec.color=blue')}`);
        expect(w.status).to.equal(400);
        expect(w.events[0].object).to.include({ reason: 'BadRequest' });

        for (const s of vectors.instances) expect((await client.post('/apis/tests.example.com/v1/shirts', s)).status).to.equal(201);
        const list = await client.get(`/apis/tests.example.com/v1/shirts?fieldSelector=${encodeURIComponent('spec.color=blue')}`);
        expect(list.status).to.equal(c.expected.list.httpStatus);
        expect(list.body).to.include({ reason: 'BadRequest', message: c.expected.list.error });

        // metadata.name still selects.
        const byName = await client.get('/apis/tests.example.com/v1/shirts?fieldSelector=metadata.name%3Dshirt2');
        expect((byName.body.items as KubeObject[]).map((i) => i.metadata.name)).to.deep.equal(['shirt2']);

        const doc = (await client.get('/openapi/v3/apis/tests.example.com/v1')).body;
        expect(doc.components.schemas['com.example.tests.v1.Shirt']).to.not.have.property('x-kubernetes-selectable-fields');
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
