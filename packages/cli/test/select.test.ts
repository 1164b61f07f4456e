import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { toYAML } from '@kubekit/decorators';
import { exitCodes } from '@kubekit/cli';
import { fixtures, kubekit } from './support/kubekit.js';

interface IntegrationFixture {
  crd: unknown;
  instances: unknown[];
  cases: { id: string; fieldSelector: string; expected: { names?: string[]; error?: string } }[];
}

const integration = JSON.parse(readFileSync(`${fixtures}/fieldselector-integration.json`, 'utf8')) as IntegrationFixture;
const crdText = toYAML(integration.crd);
const objectsText = toYAML(integration.instances);

async function selectNames(fieldSelector: string): Promise<{ code: number; names: string[]; stderr: string }> {
  const result = await kubekit(['select', '-f', '-', '--crd', 'shirts.yaml', '-o', 'name', '--field-selector', fieldSelector], {
    stdin: objectsText,
    cwd: writeFixture(),
  });
  return { code: result.code, names: result.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('/')[1]), stderr: result.stderr };
}

let fixtureDir: string | undefined;

function writeFixture(): string {
  if (fixtureDir === undefined) {
    fixtureDir = mkdtempSync(join(tmpdir(), 'kubekit-select-'));
    writeFileSync(join(fixtureDir, 'shirts.yaml'), crdText);
  }
  return fixtureDir;
}

const crontabCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {cronSpec: {type: string}, replicas: {type: integer}, ratio: {type: number}, paused: {type: boolean}}}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    - {name: Ratio, type: number, jsonPath: .spec.ratio, priority: 1}
    - {name: Paused, type: boolean, jsonPath: .spec.paused, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
`;

const crontabs = `
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: a, namespace: team-a, labels: {app: shop}, creationTimestamp: "2024-01-01T00:00:00Z"}
spec: {cronSpec: "* * * * */5", replicas: 3, ratio: 0.5, paused: true}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: b, namespace: team-b, labels: {app: web}, creationTimestamp: "2024-01-01T02:30:00Z"}
spec: {cronSpec: "0 0 * * *", replicas: "three"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: unrelated}
`;

describe('select', () => {
  after(() => {
    if (fixtureDir !== undefined) rmSync(fixtureDir, { recursive: true, force: true });
  });

  for (const c of integration.cases) {
    it(`selects as the apiserver does: ${c.fieldSelector} (${c.id}, fieldselector_test.go TestSelectableFields)`, async () => {
      const result = await selectNames(c.fieldSelector);
      if (c.expected.error !== undefined) {
        expect(result.code).to.equal(exitCodes.failure);
        expect(result.stderr).to.equal(`Error (BadRequest): ${c.expected.error}\n`);
      } else {
        expect(result.code).to.equal(0);
        expect(result.names).to.deep.equal(c.expected.names);
      }
    });
  }

  it('rejects malformed selectors with the apiserver\'s text', async () => {
    const field = await selectNames('spec.color');
    expect(field.code).to.equal(exitCodes.failure);
    expect(field.stderr).to.equal("Error (BadRequest): invalid selector: 'spec.color'; can't understand 'spec.color'\n");
  });

  it('prints kubectl get columns: printer columns by type, AGE from the clock, wide adds priority columns', async () => {
    const options = { stdin: crontabs, now: () => new Date('2024-01-01T03:00:00Z') };
    const dir = writeFixture();
    writeFileSync(join(dir, 'crontabs.yaml'), crontabCRD);
    const result = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml'], { ...options, cwd: dir });
    expect(result.code).to.equal(0);
    // "three" is not an integer: the apiserver leaves the cell empty.
    expect(result.stdout).to.equal('NAME   SPEC          REPLICAS   AGE\na      * * * * */5   3          3h\nb      0 0 * * *                30m\n');
    expect(result.stderr).to.equal('warning: <stdin>: a ConfigMap (v1) "unrelated": no CustomResourceDefinition given for kind ConfigMap in group ""\n');
    const wide = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '-o', 'wide', '-A'], { ...options, cwd: dir });
    expect(wide.stdout).to.equal(
      'NAMESPACE   NAME   SPEC          REPLICAS   RATIO   PAUSED   AGE\n' +
        'team-a      a      * * * * */5   3          0.5     true     3h\n' +
        'team-b      b      0 0 * * *                                 30m\n',
    );
  });

  it('filters by label selector and namespace, and prints names, YAML or JSON', async () => {
    const dir = writeFixture();
    writeFileSync(join(dir, 'crontabs.yaml'), crontabCRD);
    const byLabel = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '-l', 'app in (shop)', '-o', 'name'], { stdin: crontabs, cwd: dir });
    expect(byLabel.stdout).to.equal('crontab.stable.example.com/a\n');
    const byNamespace = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '-n', 'team-b', '-o', 'yaml'], { stdin: crontabs, cwd: dir });
    expect(byNamespace.stdout).to.contain('name: b\n').and.not.contain('name: a\n');
    const asJSON = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '--field-selector', 'metadata.name=a', '-o', 'json'], { stdin: crontabs, cwd: dir });
    expect((JSON.parse(asJSON.stdout) as { metadata: { name: string } }).metadata.name).to.equal('a');
    const none = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '-l', 'app=nothing'], { stdin: crontabs, cwd: dir });
    expect([none.code, none.stdout, none.stderr.split('\n').at(-2)]).to.deep.equal([0, '', 'No resources found']);
  });

  it('puts namespaced objects without a namespace in default, as kubectl apply does', async () => {
    const dir = writeFixture();
    writeFileSync(join(dir, 'crontabs.yaml'), crontabCRD);
    const objects = `${crontabs}---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec: {}\n`;
    const result = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '--field-selector', 'metadata.namespace=default', '-o', 'name'], { stdin: objects, cwd: dir });
    expect(result.stdout).to.equal('crontab.stable.example.com/c\n');
    const inDefault = await kubekit(['select', '-f', '-', '--crd', 'crontabs.yaml', '-n', 'default', '-A', '-o', 'wide'], { stdin: objects, cwd: dir });
    expect(inDefault.stdout.split('\n')[1]).to.match(/^default {5}c {6}/);
  });

  it('shows the default Age column for a CRD without printer columns', async () => {
    const dir = writeFixture();
    const plain = crontabCRD.replace(/ {4}additionalPrinterColumns:[\s\S]*$/, '');
    writeFileSync(join(dir, 'plain.yaml'), plain);
    const result = await kubekit(['select', '-f', '-', '--crd', 'plain.yaml', '-n', 'team-a'], { stdin: crontabs, cwd: dir, now: () => new Date('2024-01-01T00:00:06Z') });
    expect(result.stdout).to.equal('NAME   AGE\na      6s\n');
  });
});
