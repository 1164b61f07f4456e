// Loads each module of every package's src/ on its own (the require cache emptied before each), as a test
// file or a deep import that starts at that module would, and prints what failed as JSON. Run with
// `node --require tsx/cjs --conditions=kubekit-source` (moduleLoadOrder.test.ts). The CLI's executable entry
// point (top-level await, which CommonJS has not) is left out: it is a program, not a module to import.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- emptying CommonJS's require cache between modules is the point */
const { readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');

const packages = join(__dirname, '..', '..', 'packages');
const entryPoints = new Set([join('cli', 'src', 'bin.ts')]);
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  if (statSync(path).isDirectory()) return walk(path);
  return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
});
const files = readdirSync(packages).flatMap((pkg) => {
  try {
    return walk(join(packages, pkg, 'src'));
  } catch {
    return [];
  }
}).filter((file) => !entryPoints.has(relative(packages, file)));
const failed = [];
for (const file of files) {
  for (const key of Object.keys(require.cache)) delete require.cache[key];
  try {
    require(file);
  } catch (err) {
    failed.push(`${relative(packages, file)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.stdout.write(`${JSON.stringify({ loaded: files.length, failed })}\n`);
