#!/usr/bin/env node
// `npm run release -- <version> [lerna version options…]`: builds every package, bumps them all to
// <version> with `lerna version` (fixed mode: one version; commits and tags, and pushes unless
// --no-push), then publishes what the registry does not have yet with `lerna publish from-package`.
//
// Before anything changes it checks that CHANGELOG.md has a `## <version>` section (write the release
// notes first: move the "Unreleased" entries under the new heading). The registry is npm's
// (`npm_config_registry`, .npmrc), so `npm run release --registry http://127.0.0.1:4873/ -- 1.2.3`
// publishes to a local one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [version, ...lernaVersionArgs] = process.argv.slice(2);

function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

if (version === undefined || !/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
  fail(`usage: npm run release -- <version> [lerna version options], with an exact version such as 0.2.0 (got ${JSON.stringify(version ?? '')})`);
}
const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
const heading = new RegExp(`^## \\[?${version.replace(/[.+]/g, '\\$&')}\\]?(?:\\s|$)`, 'm');
if (!heading.test(changelog)) fail(`CHANGELOG.md has no "## ${version}" section: write the release notes first`);

function run(command, args) {
  process.stderr.write(`release: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args[0]} exited with ${result.status ?? result.signal}`);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const lerna = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'lerna.cmd' : 'lerna');
run(npm, ['run', 'build']);
run(lerna, ['version', version, '--exact', '--yes', '--message', 'release: v%s', ...lernaVersionArgs]);
run(lerna, ['publish', 'from-package', '--yes', '--no-verify-access']);
