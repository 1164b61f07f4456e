#!/usr/bin/env node
// Runs after `tsc -b` (`npm run build`) over every workspace package under packages/*, so packages added
// later are covered without edits here:
// - copies the root LICENSE into the package (npm always packs a package's LICENSE; every package
//   says Apache-2.0);
// - makes each `bin` target executable and links it into the root node_modules/.bin. npm links
//   workspace bins at install time only when the target exists, and in a fresh clone `dist/` does not
//   exist yet, so without this `npx kubekit` needed a second `npm install`.
//
// Usage: node scripts/package-files.mjs [--check]   (--check: exit 1 when a LICENSE is missing or stale)
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const license = readFileSync(join(root, 'LICENSE'));
let stale = 0;

for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const target = join(dir, 'LICENSE');
  if (!existsSync(target) || !readFileSync(target).equals(license)) {
    if (check) {
      process.stderr.write(`package-files: packages/${name}/LICENSE is missing or differs from the root LICENSE (run npm run build)\n`);
      stale++;
    } else {
      copyFileSync(join(root, 'LICENSE'), target);
    }
  }
  if (check) continue;
  const bins = typeof manifest.bin === 'string' ? { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin } : (manifest.bin ?? {});
  for (const [command, file] of Object.entries(bins)) {
    const script = join(dir, file);
    if (!existsSync(script)) continue;
    chmodSync(script, 0o755);
    const binDir = join(root, 'node_modules', '.bin');
    const link = join(binDir, command);
    let present = false;
    try { lstatSync(link); present = true; } catch { /* not linked yet */ }
    if (present) continue;
    mkdirSync(binDir, { recursive: true });
    symlinkSync(relative(binDir, join(root, 'node_modules', manifest.name, file)), link);
  }
}
if (stale > 0) process.exit(1);
