import { expect } from 'chai';
import { validateCustomResourceDefinition, validateCustomResourceSubresources } from '@kubekit/crd';
import type { CustomResourceDefinition, CustomResourceSubresourceScale } from '@kubekit/crd';

const path = 'spec.versions[0].subresources';
const scale = (s: Partial<CustomResourceSubresourceScale>) => validateCustomResourceSubresources({ scale: s as CustomResourceSubresourceScale }, path).map(String);

describe('validateCustomResourceSubresources', () => {
  it('accepts the docs page subresources', () => {
    expect(scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' })).to.deep.equal([]);
    expect(scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' })).to.deep.equal([]);
    expect(validateCustomResourceSubresources({ status: {} }, path)).to.deep.equal([]);
  });

  it('requires specReplicasPath and statusReplicasPath', () => {
    expect(scale({})).to.deep.equal([`${path}.scale.specReplicasPath: Required value`, `${path}.scale.statusReplicasPath: Required value`]);
  });

  it('requires dot-notation paths under .spec, .status, and either for the label selector', () => {
    expect(scale({ specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' })).to.deep.equal([
      `${path}.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .`,
      `${path}.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status`,
      `${path}.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status`,
    ]);
    expect(scale({ specReplicasPath: '.spec', statusReplicasPath: '.status' })).to.deep.equal([
      `${path}.scale.specReplicasPath: Invalid value: ".spec": should be a json path under .spec`,
      `${path}.scale.statusReplicasPath: Invalid value: ".status": should be a json path under .status`,
    ]);
  });

  it('is applied per version, or at spec.subresources when every version has the same', () => {
    const crd: CustomResourceDefinition = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'crontabs.stable.example.com' },
      spec: { group: 'stable.example.com', scope: 'Namespaced', names: { plural: 'crontabs', kind: 'CronTab' }, versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } }, subresources: { scale: { specReplicasPath: '.replicas', statusReplicasPath: '.status.replicas' } } },
      ] },
    };
    expect(validateCustomResourceDefinition(crd).map(String)).to.deep.equal(['spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec']);
  });

  it('reports malformed input without throwing', () => {
    expect(validateCustomResourceSubresources({ status: { x: 1 } } as never, path).map(String)).to.deep.equal([`${path}.status.x: Forbidden: unknown field`]);
    expect(validateCustomResourceSubresources(5 as never, path)).to.have.length(1);
  });
});
