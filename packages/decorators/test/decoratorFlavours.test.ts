import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import ts from 'typescript';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { customResourceDefinition, isCustomResource } from '@kubekit/decorators';

const decoratorsEntry = pathToFileURL(fileURLToPath(new URL('../src/index.ts', import.meta.url))).href;

/** The Shirt of the docs, as a user would write it. */
const source = `
import { CustomResource, Field, PrinterColumn, Selectable, Validation } from '@kubekit/decorators';
export class ShirtSpec {
  @Selectable() @PrinterColumn() @Field('string') color?: string;
  @Selectable() @PrinterColumn() @Field('string') size?: string;
  @Validation({ rule: 'self >= 0' }) @Field({ type: 'integer', default: 1 }) replicas?: number;
}
@PrinterColumn({ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' })
@CustomResource({ group: 'stable.example.com', version: 'v1', kind: 'Shirt' })
export class Shirt {
  @Field(() => ShirtSpec) spec?: ShirtSpec;
}
`;

const expectedVersion = {
  name: 'v1',
  served: true,
  storage: true,
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            color: { type: 'string' },
            size: { type: 'string' },
            replicas: { type: 'integer', default: 1, 'x-kubernetes-validations': [{ rule: 'self >= 0' }] },
          },
        },
      },
    },
  },
  additionalPrinterColumns: [
    { name: 'Color', type: 'string', jsonPath: '.spec.color' },
    { name: 'Size', type: 'string', jsonPath: '.spec.size' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  selectableFields: [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }],
};

/** Compiles `source` with tsc's own emit (not esbuild's) and imports the result. */
async function compileAndImport(options: ts.CompilerOptions): Promise<Record<string, unknown>> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, ...options },
  });
  const dir = mkdtempSync(join(tmpdir(), 'kubekit-decorators-'));
  try {
    const file = join(dir, 'shirt.mjs');
    writeFileSync(file, outputText.replace("'@kubekit/decorators'", JSON.stringify(decoratorsEntry)));
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('decorator flavours', () => {
  it('makes sure Symbol.metadata exists (Node 20 and 22 lack it; TypeScript\'s output needs it)', () => {
    expect(typeof (Symbol as unknown as { metadata?: symbol }).metadata).to.equal('symbol');
  });

  it('works with TypeScript\'s own down-levelled TC39 decorators (target ES2022)', async () => {
    const module = await compileAndImport({});
    expect(module.Shirt).to.satisfy(isCustomResource);
    const crd: CustomResourceDefinition = customResourceDefinition(module.Shirt as abstract new () => unknown);
    expect(crd.spec.versions).to.deep.equal([expectedVersion]);
  });

  it('works with legacy experimentalDecorators callers', async () => {
    const module = await compileAndImport({ experimentalDecorators: true, useDefineForClassFields: false });
    expect(module.Shirt).to.satisfy(isCustomResource);
    const crd: CustomResourceDefinition = customResourceDefinition(module.Shirt as abstract new () => unknown);
    expect(crd.spec.versions).to.deep.equal([expectedVersion]);
  });
});
