// The lint rules that keep DESIGN.md's layering one-way and ban default exports actually fire.
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint rules', function () {
  this.timeout(60_000);

  it('rejects an import from a higher or same-layer package, naming the layering', async () => {
    const messages = await lint('packages/selectors/src/x.ts', "import { prune } from '@kubekit/defaulter';\nexport const p = prune;\n");
    expect(messages.join('\n')).to.contain('DESIGN.md layering: @kubekit/selectors (layer 1) must not import @kubekit/defaulter');
    const apiserver = await lint('packages/apiserver/src/x.ts', "import { Informer } from '@kubekit/informer';\nexport const i = Informer;\n");
    expect(apiserver.join('\n')).to.contain('@kubekit/apiserver (layer 3) must not import @kubekit/informer');
  });

  it('accepts an import from a lower layer', async () => {
    expect(await lint('packages/attrs/src/x.ts', "import { parseFieldSelector } from '@kubekit/selectors';\nexport const p = parseFieldSelector;\n")).to.deep.equal([]);
  });

  it('rejects reaching into another package\'s sources and default exports', async () => {
    const messages = await lint('packages/attrs/src/x.ts', "import { x } from '../../selectors/src/index.js';\nexport default x;\n");
    expect(messages.join('\n')).to.contain('Import other packages through their public entry point.');
    expect(messages.join('\n')).to.contain('Named exports only');
  });
});
