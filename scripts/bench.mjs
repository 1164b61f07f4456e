#!/usr/bin/env node
// Runs kubekit's benchmarks one after another, each in its own Node process (they print ratios against
// baselines measured in the same run). `npm run bench` runs all; `npm run bench -- selectors crd` runs the
// named folders under bench/.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const all = {
  core: ['bench/core/json.ts'],
  selectors: ['bench/selectors/selectors.ts'],
  cel: ['bench/cel/cel.ts'],
  crd: ['bench/crd/crdValidation.ts', 'bench/crd/valueValidation.ts'],
  'attrs-defaulter': ['bench/attrs-defaulter/fieldSelection.ts', 'bench/attrs-defaulter/defaulting.ts'],
  apiserver: ['bench/apiserver/apiserver.ts', 'bench/apiserver/builtinSchemas.ts', 'bench/apiserver/managedFields.ts', 'bench/apiserver/nesting.ts', 'bench/apiserver/goYAML.ts', 'bench/apiserver/protobuf.ts'],
  informer: ['bench/informer/run.ts'],
  'informer-node24': ['bench/informer/clientNode2.mjs'],
  controller: ['bench/controller/workQueue.ts'],
  webhook: ['bench/webhook/webhook.ts'],
};
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!Object.hasOwn(all, name)) {
    console.error(`unknown benchmark "${name}": expected one of ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
}
let failed = 0;
for (const [name, files] of Object.entries(all)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  for (const file of files) {
    console.log(`\n=== ${file}`);
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--conditions=kubekit-source', file], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) failed++;
  }
}
process.exit(failed === 0 ? 0 : 1);
