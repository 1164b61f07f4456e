import { expect } from 'chai';
import { parseAllDocuments } from 'yaml';
import { exitCodes } from '@kubekit/cli';
import { kubekit } from './support/kubekit.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The documentation's "Defaulting and Nullable" schema (also KEP-575's example).
const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: nullables.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: nullables, kind: Nullable}
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
              foo: {type: string, nullable: false, default: "default"}
              bar: {type: string, nullable: true}
              baz: {type: string}
`;

describe('defaultObjects', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubekit-default-'));
    writeFileSync(join(dir, 'crd.yaml'), crd);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prunes non-nullable nulls, keeps nullable ones, defaults, and names pruned fields (docs "Defaulting and Nullable")', async () => {
    const objects = `
apiVersion: stable.example.com/v1
kind: Nullable
metadata: {name: nully}
spec: {foo: null, bar: null, baz: null, extra: 1}
`;
    const result = await kubekit(['default', '-f', '-', '--crd', 'crd.yaml'], { stdin: objects, cwd: dir });
    expect(result.code).to.equal(0);
    expect(result.stdout.split('\n')[0]).to.equal('# pruned: unknown field "spec.extra"');
    const [stored] = parseAllDocuments(result.stdout).map((d) => d.toJS() as { spec: unknown });
    expect(stored.spec).to.deep.equal({ foo: 'default', bar: null });
  });

  it('prints one document per object, and fails on malformed metadata as the apiserver answers 400', async () => {
    const objects = `
apiVersion: stable.example.com/v1
kind: Nullable
metadata: {name: ok}
spec: {}
---
apiVersion: stable.example.com/v1
kind: Nullable
metadata: {name: 5}
spec: {}
`;
    const result = await kubekit(['default', '-f', '-', '--crd', 'crd.yaml'], { stdin: objects, cwd: dir });
    expect(result.code).to.equal(exitCodes.failure);
    expect(parseAllDocuments(result.stdout).map((d) => (d.toJS() as { spec: unknown }).spec)).to.deep.equal([{ foo: 'default' }]);
    expect(result.stderr).to.match(/^error: <stdin>: Nullable "": /);
  });
});
