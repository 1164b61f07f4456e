// The docs site's link check (scripts/check-site-links.mjs, run by `npm run docs`) finds what it must.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const script = resolve(import.meta.dirname, '../scripts/check-site-links.mjs');

describe('check-site-links', () => {
  let site: string;
  beforeEach(() => {
    site = mkdtempSync(join(tmpdir(), 'kubekit-site-'));
    mkdirSync(join(site, 'classes'));
    writeFileSync(join(site, 'classes/Informer.html'), '<h1 id="start">Informer</h1><a href="../index.html">home</a>');
  });
  afterEach(() => rmSync(site, { recursive: true, force: true }));

  it('passes a site whose local links and fragments resolve, without fetching external ones', () => {
    writeFileSync(join(site, 'index.html'), '<a href="classes/Informer.html#start">x</a><a href="https://kubernetes.io/x">k8s</a><a href="#top" id="top">top</a>');
    const r = spawnSync(process.execPath, [script, site], { encoding: 'utf8' });
    expect([r.status, r.stdout]).to.deep.equal([0, 'check-site-links: 2 pages, 3 local links, 0 broken\n']);
  });

  it('fails naming a missing page and a missing fragment', () => {
    writeFileSync(join(site, 'index.html'), '<a href="classes/Informer.html#nope">x</a><img src="assets/missing.svg">');
    const r = spawnSync(process.execPath, [script, site], { encoding: 'utf8' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('broken link in index.html: classes/Informer.html#nope (no id "nope" in classes/Informer.html)');
    expect(r.stderr).to.contain('broken link in index.html: assets/missing.svg (no such file)');
  });
});
