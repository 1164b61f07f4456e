#!/usr/bin/env node
// Checks the docs site built by `npm run docs`: every local link and asset of every HTML page (href and
// src) names a file of the site, and every #fragment an id in its target page. External links
// (http:, https:, mailto:) are not fetched. Exits 1 listing the broken ones.
//
// Usage: node scripts/check-site-links.mjs [site directory]   (default: site)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const site = resolve(process.argv[2] ?? 'site');
if (!existsSync(join(site, 'index.html'))) {
  process.stderr.write(`check-site-links: ${site}/index.html not found (run npm run docs)\n`);
  process.exit(1);
}

function* htmlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

const ids = new Map();
function idsOf(file) {
  let set = ids.get(file);
  if (set === undefined) {
    set = new Set([...readFileSync(file, 'utf8').matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1]));
    ids.set(file, set);
  }
  return set;
}

const decode = (s) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
let pages = 0;
let links = 0;
const broken = [];
for (const file of htmlFiles(site)) {
  pages++;
  const html = readFileSync(file, 'utf8');
  for (const [, raw] of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const link = decode(raw);
    if (link === '' || /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(link)) continue;
    links++;
    const [pathPart, fragment] = link.split('#', 2);
    let target = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart.split('?')[0]));
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.html');
    if (!existsSync(target)) {
      broken.push(`${relative(site, file)}: ${link} (no such file)`);
    } else if (fragment && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(fragment))) {
      broken.push(`${relative(site, file)}: ${link} (no id "${fragment}" in ${relative(site, target)})`);
    }
  }
}
for (const line of broken) process.stderr.write(`check-site-links: broken link in ${line}\n`);
process.stdout.write(`check-site-links: ${pages} pages, ${links} local links, ${broken.length} broken\n`);
process.exit(broken.length === 0 ? 0 : 1);
