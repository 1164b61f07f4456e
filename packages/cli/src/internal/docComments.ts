/**
 * Descriptions from doc comments: the `/** … *\/` comment of each class and class property in the
 * loaded modules (and the modules they import relatively), read with the TypeScript parser. Tags
 * (`@example`, `@defaultValue`, …) are left out; the summary and further paragraphs are kept.
 *
 * TypeScript is an optional dependency of the CLI: without it, no descriptions come from comments.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DescriptionLookup } from '@kubekit/decorators';

type TypeScript = typeof import('typescript');

async function loadTypeScript(): Promise<TypeScript | undefined> {
  try {
    const module = (await import('typescript')) as TypeScript & { default?: TypeScript };
    return module.default ?? module;
  } catch {
    return undefined;
  }
}

const maxFiles = 500;

/** The file a relative import names, trying the TypeScript sources of `.js` specifiers. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => /\.[cm]?[jt]sx?$/.test(c) && existsSync(c));
}

/**
 * Reads doc comments of classes and their properties from `files` and the files they import with
 * relative specifiers. A class name declared with different comments in two files is ambiguous and
 * gets none.
 */
export async function docCommentDescriptions(files: readonly string[]): Promise<DescriptionLookup | undefined> {
  const ts = await loadTypeScript();
  if (ts === undefined) return undefined;
  const found = new Map<string, string | null>();
  const record = (key: string, text: string): void => {
    const previous = found.get(key);
    found.set(key, previous === undefined || previous === text ? text : null);
  };
  const queue = [...files];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < maxFiles) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const commentOf = (node: import('typescript').Node): string | undefined => {
      const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
      const last = docs.at(-1);
      if (last === undefined) return undefined;
      const comment = ts.getTextOfJSDocComment(last.comment)?.trim();
      return comment === undefined || comment === '' ? undefined : comment;
    };
    const visit = (node: import('typescript').Node): void => {
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
        const specifier = node.moduleSpecifier.text;
        if (specifier.startsWith('.')) {
          const target = resolveImport(file, specifier);
          if (target !== undefined) queue.push(target);
        }
      }
      if ((ts.isClassDeclaration(node) || ts.isClassExpression(node)) && node.name !== undefined) {
        const className = node.name.text;
        const classComment = commentOf(node);
        if (classComment !== undefined) record(className, classComment);
        for (const member of node.members) {
          if (!ts.isPropertyDeclaration(member) || member.name === undefined) continue;
          const name = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
          const comment = commentOf(member);
          if (name !== undefined && comment !== undefined) record(`${className}.${name}`, comment);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return (className, propertyName) => found.get(propertyName === undefined ? className : `${className}.${propertyName}`) ?? undefined;
}
