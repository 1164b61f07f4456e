#!/usr/bin/env node
// Sets every `@kubekit/*` peer dependency of every package under packages/* to that package's current
// version, and stages the files it changed. `lerna version` bumps dependencies between packages but not
// peer dependencies, so without this @kubekit/cli@X would ask for @kubekit/apiserver at the previous
// version. It runs as the root `version` lifecycle script, which lerna runs after bumping the versions
// and before its commit.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dirs = readdirSync(join(root, 'packages')).filter((p) => existsSync(join(root, 'packages', p, 'package.json')));
const manifests = new Map(dirs.map((p) => [p, JSON.parse(readFileSync(join(root, 'packages', p, 'package.json'), 'utf8'))]));
const versions = new Map([...manifests.values()].map((m) => [m.name, m.version]));
const changed = [];
for (const [dir, manifest] of manifests) {
  let dirty = false;
  for (const name of Object.keys(manifest.peerDependencies ?? {})) {
    const version = versions.get(name);
    if (version === undefined || manifest.peerDependencies[name] === version) continue;
    manifest.peerDependencies[name] = version;
    dirty = true;
  }
  if (!dirty) continue;
  const file = join('packages', dir, 'package.json');
  writeFileSync(join(root, file), `${JSON.stringify(manifest, null, 2)}\n`);
  changed.push(file);
}
if (changed.length > 0 && existsSync(join(root, '.git'))) execFileSync('git', ['add', ...changed], { cwd: root });
for (const file of changed) process.stderr.write(`sync-peer-versions: ${file}\n`);
