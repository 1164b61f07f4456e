import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '@kubekit/cli';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const crdFile = 'examples/crontab/crd/crontabs.stable.example.com.yaml';

// The documentation's CronTab CRDs ("Extend the Kubernetes API with CustomResourceDefinitions"), one
// per section, with the line breaks the captured page lost put back. Each section adds one feature;
// the example declares them all, so its CRD is their union.

const docsBasic = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
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
                cronSpec:
                  type: string
                image:
                  type: string
                replicas:
                  type: integer
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

const docsValidation = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
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
                cronSpec:
                  type: string
                  pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

const docsDefaulting = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
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
                cronSpec:
                  type: string
                  pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                  default: "5 0 * * *"
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
                  default: 1
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

const docsPrinterColumns = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
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
              cronSpec:
                type: string
              image:
                type: string
              replicas:
                type: integer
    additionalPrinterColumns:
    - name: Spec
      type: string
      description: The cron spec defining the interval a CronJob is run
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      description: The number of jobs launched by the CronJob
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
`;

const docsSubresources = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
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
                cronSpec:
                  type: string
                image:
                  type: string
                replicas:
                  type: integer
            status:
              type: object
              properties:
                replicas:
                  type: integer
                labelSelector:
                  type: string
      # subresources describes the subresources for custom resources.
      subresources:
        # status enables the status subresource.
        status: {}
        # scale enables the scale subresource.
        scale:
          # specReplicasPath defines the JSONPath inside of a custom resource that corresponds to Scale.Spec.Replicas.
          specReplicasPath: .spec.replicas
          # statusReplicasPath defines the JSONPath inside of a custom resource that corresponds to Scale.Status.Replicas.
          statusReplicasPath: .status.replicas
          # labelSelectorPath defines the JSONPath inside of a custom resource that corresponds to Scale.Status.Selector.
          labelSelectorPath: .status.labelSelector
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

const docsCategories = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
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
                cronSpec:
                  type: string
                image:
                  type: string
                replicas:
                  type: integer
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
    # categories is a list of grouped resources the custom resource belongs to.
    categories:
    - all
`;

/** Merges YAML values: objects key by key, lists item by item, scalars must agree. */
function merge(a: unknown, b: unknown, path = ''): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (i < a.length && i < b.length ? merge(a[i], b[i], `${path}[${i}]`) : a[i] ?? b[i]));
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v, `${path}.${k}`) : v;
    return out;
  }
  expect(a, `the documentation's sections disagree at ${path}`).to.deep.equal(b);
  return a;
}

async function kubekit(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    cwd: root,
    env: {},
    now: () => new Date('2021-06-20T07:35:34Z'),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    readStdin: () => Promise.resolve(stdin),
  });
  return { code, stdout, stderr };
}

describe('examples/crontab', () => {
  it('has its generated CRD committed and up to date (kubekit crd generate --check)', async () => {
    const result = await kubekit(['crd', 'generate', 'examples/crontab/src/crontab.ts', '--out', 'examples/crontab/crd', '--check']);
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
  });

  it('generates the union of the documentation\'s CronTab CRDs', () => {
    const sections = [docsBasic, docsValidation, docsDefaulting, docsPrinterColumns, docsSubresources, docsCategories].map((text) => parse(text) as unknown);
    const expected = sections.reduce((a, b) => merge(a, b));
    expect(parse(readFileSync(`${root}/${crdFile}`, 'utf8'))).to.deep.equal(expected);
  });

  it('passes kubekit crd validate', async () => {
    const result = await kubekit(['crd', 'validate', crdFile]);
    expect(result.stdout).to.equal(`${crdFile}: CustomResourceDefinition "crontabs.stable.example.com" is valid\n`);
    expect(result.code).to.equal(0);
  });

  it('defaults and prunes the documentation\'s objects as the apiserver stores them', async () => {
    // "Defaulting": cronSpec and replicas are defaulted. "Field pruning": someRandomField is pruned.
    const objects = `
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  image: my-awesome-cron-image
  someRandomField: 42
`;
    const result = await kubekit(['default', '-f', '-', '--crd', crdFile], objects);
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(/^# pruned: unknown field "spec.someRandomField"\n/);
    const [stored] = parseAllDocuments(result.stdout).map((d) => d.toJS() as { spec: unknown });
    expect(stored.spec).to.deep.equal({ image: 'my-awesome-cron-image', cronSpec: '5 0 * * *', replicas: 1 });
  });

  it('rejects the documentation\'s invalid object with the apiserver\'s validation failures', async () => {
    const objects = `
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * *"
  image: my-awesome-cron-image
  replicas: 15
`;
    const result = await kubekit(['default', '-f', '-', '--crd', crdFile], objects);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.equal(
      'error: <stdin>: The CronTab "my-new-cron-object" is invalid:\n' +
        "* spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'\n" +
        '* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n',
    );
  });

  it('prints the documentation\'s kubectl get columns', async () => {
    const objects = `
apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
  creationTimestamp: "2021-06-20T07:35:27Z"
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 1
`;
    const result = await kubekit(['select', '-f', '-', '--crd', crdFile], objects);
    expect(result.stdout).to.equal('NAME                 SPEC          REPLICAS   AGE\nmy-new-cron-object   * * * * */5   1          7s\n');
  });
});
