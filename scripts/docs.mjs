#!/usr/bin/env node
// `npm run docs`: builds the docs site with typedoc (typedoc.json: every packages/*/src/index.ts, plus
// docs/*.md) into the ignored site/, then checks it. It fails when
// - typedoc reports an error, or a link it cannot resolve ({@link X}, relative links in the pages);
// - an export has no TSDoc summary (STYLE.md: "Every exported symbol has a one-sentence TSDoc
//   summary"); members of exported types without one are listed, not fatal;
// - a local link or #fragment of the built HTML does not resolve (scripts/check-site-links.mjs).
// Packages added under packages/* later are covered without edits here.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const typedoc = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--logLevel', 'Warn', ...process.argv.slice(2)], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
const output = `${typedoc.stdout}${typedoc.stderr}`.replace(/\x1b\[[0-9;]*m/g, '');
process.stdout.write(output);

const fatal = [];
const members = [];
for (const line of output.split('\n')) {
  const undocumented = /^\[warning\] (\S+) \([A-Za-z]+\), defined in (\S+), does not have any documentation/.exec(line);
  if (undocumented !== null) (undocumented[1].includes('.') ? members : fatal).push(`${undocumented[1]} (${undocumented[2]}) has no TSDoc summary`);
  else if (/^\[error\]/.test(line)) fatal.push(line);
  else if (/^\[warning\].*(?:Failed to resolve link|relative path|does not exist|could not be resolved)/i.test(line)) fatal.push(line);
}
if (typedoc.status !== 0 && fatal.length === 0) fatal.push(`typedoc exited with ${typedoc.status ?? typedoc.signal}`);
if (members.length > 0) process.stdout.write(`docs: ${members.length} members of exported types have no summary (not fatal)\n`);
if (fatal.length > 0) {
  for (const line of fatal) process.stderr.write(`docs: ${line}\n`);
  process.exit(1);
}
const links = spawnSync(process.execPath, [join(root, 'scripts/check-site-links.mjs'), join(root, 'site')], { stdio: 'inherit' });
process.exit(links.status ?? 1);
