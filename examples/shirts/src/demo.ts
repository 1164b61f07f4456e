// `npm run demo`: kubekit end to end in under a minute, with no cluster.
//
//  1. starts kubekit's embedded API server on 127.0.0.1 (or, with --cluster, uses $KUBECONFIG's cluster);
//  2. generates the Shirt CRD from the decorated class in ./managedShirt.ts and applies it;
//  3. creates the documentation's three shirts;
//  4. runs the shirts operator, whose informer lists and watches with the field selector spec.color=blue;
//  5. shows (through a real kubectl when .tools/kubectl exists, else kubekit's own table) that only the blue
//     shirts were reconciled; then turns example3 blue (it enters the selection) and example1 red (it leaves),
//     and shows the result and the inventory ConfigMap;
//  6. stops everything and exits 0.
//
// Flags: --cluster (use $KUBECONFIG's cluster instead of the embedded server), --no-kubectl (render tables
// with kubekit instead of fetching a real kubectl).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startApiServer, type ApiServer } from '@kubekit/apiserver';
import { KubeError, stringifyJSON } from '@kubekit/core';
import { customResourceDefinition, toYAML } from '@kubekit/decorators';
import { KubeClient, loadKubeConfig, type KubeConfigLike } from '@kubekit/informer';
import { ManagedShirt } from './managedShirt.js';
import { shirtsOperator, type ShirtObject } from './operator.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const kubectlPath = join(root, '.tools', 'kubectl');
const useCluster = process.argv.includes('--cluster');
const noKubectl = process.argv.includes('--no-kubectl');
const started = Date.now();

const bold = (s: string): string => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
function step(text: string): void {
  console.log(`\n${bold(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`)}`);
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Gets a real kubectl into .tools/ (scripts/fetch-kubectl.mjs), giving up after a bounded wait. */
async function fetchKubectl(): Promise<boolean> {
  if (existsSync(kubectlPath)) return true;
  try {
    await promisify(execFile)(process.execPath, [join(root, 'scripts', 'fetch-kubectl.mjs')], { timeout: 45_000 });
  } catch (err) {
    console.log(`(could not get kubectl: ${(err as Error).message.split('\n')[0]}; tables are rendered by kubekit)`);
  }
  return existsSync(kubectlPath);
}

/** `kubectl get shirts` through a real kubectl when there is one, else the server's Table rendered by kubekit. */
async function show(client: KubeClient, kubeconfigFile: string | undefined, hasKubectl: boolean, fieldSelector?: string): Promise<void> {
  const args = ['get', 'shirts', ...(fieldSelector ? ['--field-selector', fieldSelector] : [])];
  console.log(`$ kubectl ${args.join(' ')}`);
  if (kubeconfigFile !== undefined && hasKubectl) {
    const { stdout } = await promisify(execFile)(kubectlPath, ['--kubeconfig', kubeconfigFile, ...args]);
    process.stdout.write(stdout);
    return;
  }
  const query = fieldSelector ? `?fieldSelector=${encodeURIComponent(fieldSelector)}` : '';
  const table = await client.table(`/apis/stable.example.com/v1/namespaces/default/shirts${query}`);
  const shown = table.columnDefinitions.map((c, i) => ({ c, i })).filter(({ c }) => !c.priority);
  const rows = [shown.map(({ c }) => c.name.toUpperCase()), ...table.rows.map((r) => shown.map(({ i }) => String(r.cells[i] ?? '')))];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i] + 3)).join('').trimEnd());
}

async function main(): Promise<void> {
  let server: ApiServer | undefined;
  let kubeConfig: KubeConfigLike;
  let kubeconfigFile: string | undefined;
  const work = mkdtempSync(join(tmpdir(), 'kubekit-demo-'));
  if (useCluster) {
    step('Using the cluster of $KUBECONFIG (--cluster)');
    kubeConfig = await loadKubeConfig({ kind: 'default' });
    kubeconfigFile = process.env.KUBECONFIG;
  } else {
    step('Starting kubekit\'s embedded API server');
    server = await startApiServer();
    console.log(`listening on ${server.url}`);
    kubeconfigFile = join(work, 'kubeconfig');
    writeFileSync(kubeconfigFile, server.kubeconfig);
    kubeConfig = await loadKubeConfig({ kind: 'string', text: server.kubeconfig });
  }
  const hasKubectl = !noKubectl && kubeconfigFile !== undefined && await fetchKubectl();
  console.log(hasKubectl ? `kubectl: ${kubectlPath}` : 'tables are rendered by kubekit from the server\'s Table responses');
  const client = new KubeClient(kubeConfig);
  const ac = new AbortController();
  let run: Promise<void> | undefined;
  try {
    step('Generating the Shirt CRD from examples/shirts/src/managedShirt.ts and applying it');
    const crd = customResourceDefinition(ManagedShirt);
    const yaml = toYAML([crd]);
    console.log(yaml.split('\n').filter((l) => /selectableFields|jsonPath: \.spec|^  name:/.test(l)).join('\n'));
    writeFileSync(join(work, 'shirts.stable.example.com.yaml'), yaml);
    try {
      await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    } catch (err) {
      if (!(err instanceof KubeError && err.reason === 'AlreadyExists')) throw err;
    }
    await waitFor('the CRD to be established', async () => {
      const got = await client.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/shirts.stable.example.com') as { status?: { conditions?: { type: string; status: string }[] } };
      return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
    });

    step('Creating the documentation\'s shirts');
    const shirts = client.resource<ShirtObject>({ apiVersion: 'stable.example.com/v1', plural: 'shirts' });
    for (const [name, color, size] of [['example1', 'blue', 'S'], ['example2', 'blue', 'M'], ['example3', 'green', 'M']]) {
      await shirts.apply({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata: { namespace: 'default', name }, spec: { color, size } }, { fieldManager: 'kubekit-demo' });
      console.log(`shirt ${name}: ${color}, ${size}`);
    }

    step('Running the shirts operator (informer field selector: spec.color=blue)');
    const phases = new Map<string, string | undefined>();
    const operator = shirtsOperator({
      kubeConfig,
      logger: { error: console.error, warn: console.warn, info: (m) => console.log(`  operator: ${m}`), debug() {}, child() { return this; } },
      onReconciled: (name, phase) => phases.set(name, phase),
    });
    run = operator.manager.start(ac.signal);
    await waitFor('the blue shirts to be selected', () => phases.get('example1') === 'Selected' && phases.get('example2') === 'Selected');
    console.log(`the operator's cache holds ${operator.blueShirts.size} shirts: ${operator.blueShirts.list().map((s) => s.metadata.name).join(', ')}`);
    await show(client, kubeconfigFile, hasKubectl);
    await show(client, kubeconfigFile, hasKubectl, 'spec.color=blue');

    step('Turning example3 blue: it enters the selection');
    await shirts.patch('example3', { spec: { color: 'blue' } }, { namespace: 'default' });
    await waitFor('example3 to be selected', () => phases.get('example3') === 'Selected');

    step('Turning example1 red: it leaves the selection');
    await shirts.patch('example1', { spec: { color: 'red' } }, { namespace: 'default' });
    await waitFor('example1 to be released', () => phases.get('example1') === 'Released');
    await show(client, kubeconfigFile, hasKubectl);

    step('The inventory ConfigMap, counted with the informer\'s selectable-field index');
    await waitFor('the inventory to count the red shirt', async () => {
      const cm = await client.request('GET', '/api/v1/namespaces/default/configmaps/shirt-inventory').catch(() => undefined) as { data?: Record<string, string> } | undefined;
      return cm?.data?.['color.red'] === '1';
    });
    const cm = await client.request('GET', '/api/v1/namespaces/default/configmaps/shirt-inventory') as { data: Record<string, string> };
    console.log(stringifyJSON(cm.data));
  } finally {
    step('Stopping');
    ac.abort();
    await run;
    client.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  }
  step('Done: only blue shirts were reconciled, and the operator followed shirts into and out of the selection.');
}

main().catch((err: unknown) => {
  console.error(`demo failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exitCode = 1;
});
