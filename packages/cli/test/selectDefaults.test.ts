// Regression for issue #16: `kubekit select` selected the objects as written, while the apiserver
// selects them as stored, after pruning and defaulting (KEP-575): a selector on a defaulted field found
// nothing, and printer columns of defaulted fields were blank.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { kubekit } from './support/kubekit.js';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: shirts.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: shirts, singular: shirt, kind: Shirt}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color: {type: string}
              size: {type: string, default: M}
    selectableFields:
    - jsonPath: .spec.color
    - jsonPath: .spec.size
    additionalPrinterColumns:
    - {name: Color, type: string, jsonPath: .spec.color}
    - {name: Size, type: string, jsonPath: .spec.size}
`;

const objects = `apiVersion: stable.example.com/v1
kind: Shirt
metadata: {name: defaulted}
spec: {color: blue, pocket: true}
---
apiVersion: stable.example.com/v1
kind: Shirt
metadata: {name: large}
spec: {color: blue, size: L}
`;

describe('select on defaulted fields', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-select-defaults-'));
    writeFileSync(join(dir, 'crd.yaml'), crd);
    writeFileSync(join(dir, 'shirts.yaml'), objects);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('selects on a field the schema defaults, and prints the defaulted value in its column', async () => {
    const result = await kubekit(['select', '-f', 'shirts.yaml', '--crd', 'crd.yaml', '--field-selector', 'spec.size=M'], { cwd: dir });
    expect(result.stderr).to.equal('');
    expect(result.stdout).to.equal('NAME        COLOR   SIZE\ndefaulted   blue    M\n');
  });

  it('prints the objects as stored: defaults applied and unknown fields pruned', async () => {
    const all = await kubekit(['select', '-f', 'shirts.yaml', '--crd', 'crd.yaml'], { cwd: dir });
    expect(all.stdout).to.equal('NAME        COLOR   SIZE\ndefaulted   blue    M\nlarge       blue    L\n');
    const yaml = await kubekit(['select', '-f', 'shirts.yaml', '--crd', 'crd.yaml', '--field-selector', 'spec.size=M', '-o', 'json'], { cwd: dir });
    expect((JSON.parse(yaml.stdout) as { spec: unknown }).spec).to.deep.equal({ color: 'blue', size: 'M' });
  });
});
