import { expect } from 'chai';
import { exitCodes } from '@kubekit/cli';
import { kubekit } from './support/kubekit.js';

const file = 'docs-nonstructural.yaml';

describe('crdValidate', () => {
  it('prints the violations the documentation lists for its non-structural examples', async () => {
    const result = await kubekit(['crd', 'validate', file]);
    expect(result.code).to.equal(exitCodes.failure);
    const path = 'spec.validation.openAPIV3Schema';
    expect(result.stdout).to.equal(
      `${file}: The CustomResourceDefinition "examples.stable.example.com" is invalid:\n` +
        // Example 1: rule 2.
        `* ${path}.properties[foo]: Required value: because it is defined in ${path}.allOf[0].properties[foo]\n` +
        `${file}: The CustomResourceDefinition "collections.stable.example.com" is invalid:\n` +
        // Example 2: rule 2.
        `* ${path}.items: Required value: because it is defined in ${path}.allOf[0].items\n` +
        `${file}: The CustomResourceDefinition "foos.stable.example.com" is invalid:\n` +
        // Example 3: the description is set within anyOf (rule 3).
        `* ${path}.anyOf[0].description: Forbidden: must be empty to be structural\n` +
        // bar's type is within anyOf (rule 3).
        `* ${path}.anyOf[0].properties[bar].type: Forbidden: must be empty to be structural\n` +
        // bar inside of anyOf is not specified outside (rule 2).
        `* ${path}.properties[bar]: Required value: because it is defined in ${path}.anyOf[0].properties[bar]\n` +
        // the type of foo is missing (rule 1).
        `* ${path}.properties[foo].type: Required value: must not be empty for specified object fields\n` +
        // metadata.finalizers might not be restricted (rule 4).
        `* ${path}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified\n` +
        // the type at the root is missing (rule 1).
        `* ${path}.type: Required value: must not be empty at the root\n` +
        // The structural counterpart the documentation gives.
        `${file}: CustomResourceDefinition "bars.stable.example.com" is valid\n`,
    );
  });

  it('reads standard input', async () => {
    const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: shirts.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: shirts, kind: Shirt}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {color: {type: number}}}}}}
    selectableFields: [{jsonPath: .spec.color}]
`;
    const result = await kubekit(['crd', 'validate', '-'], { stdin: crd });
    expect(result.code).to.equal(exitCodes.failure);
    expect(result.stdout).to.equal(
      '<stdin>: The CustomResourceDefinition "shirts.stable.example.com" is invalid:\n' +
        '* spec.selectableFields[0].jsonPath: Invalid value: ".spec.color": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.\n',
    );
  });

  it('refuses documents that are not v1 CRDs, and files that are not YAML', async () => {
    const notCRD = await kubekit(['crd', 'validate', '-'], { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
    expect(notCRD).to.deep.equal({
      code: exitCodes.failure,
      stdout: '',
      stderr: 'error: <stdin>: document 1 is a ConfigMap (v1), not an apiextensions.k8s.io/v1 CustomResourceDefinition\n',
    });
    const broken = await kubekit(['crd', 'validate', '-'], { stdin: 'a: [1, 2\n' });
    expect(broken.code).to.equal(exitCodes.usage);
    expect(broken.stderr).to.match(/^error: cannot parse <stdin>: /);
    const empty = await kubekit(['crd', 'validate', '-'], { stdin: '' });
    expect(empty).to.deep.equal({ code: exitCodes.failure, stdout: '', stderr: 'error: no objects in <stdin>\n' });
  });
});
