// Loads each module of packages/apiserver/src on its own (the require cache emptied before each), as a test
// file or a deep import that starts at that module would, and prints what failed as JSON. Run with
// `node --require tsx/cjs --conditions=kubekit-source` from the repository root (moduleLoadOrder.test.ts).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- emptying CommonJS's require cache between modules is the point */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', 'src');
const dirs = [root, join(root, 'internal'), join(root, 'managedFields'), join(root, 'storage')];
const files = dirs.flatMap((d) => {
  try {
    return readdirSync(d).filter((f) => f.endsWith('.ts')).map((f) => join(d, f));
  } catch {
    return [];
  }
});
const failed = [];
for (const file of files) {
  for (const key of Object.keys(require.cache)) delete require.cache[key];
  try {
    require(file);
  } catch (err) {
    failed.push(`${file.slice(root.length + 1)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.stdout.write(`${JSON.stringify({ loaded: files.length, failed })}\n`);
