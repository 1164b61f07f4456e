/** Reading YAML (or JSON) manifests: multi-document files, `List` objects flattened, `-` for stdin. */
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '@kubekit/crd';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from './context.js';
import type { CliContext } from './context.js';

/** One object read from a file, with where it came from. */
export interface SourcedObject {
  readonly file: string;
  /** 1-based document number in the file. */
  readonly document: number;
  readonly object: Record<string, unknown>;
}

/** The path of a file as messages show it: relative to the working directory. */
export function displayPath(ctx: CliContext, file: string): string {
  if (file === '-') return '<stdin>';
  const rel = relative(ctx.cwd, resolve(ctx.cwd, file));
  return rel === '' ? '.' : rel;
}

async function readText(ctx: CliContext, file: string): Promise<string> {
  if (file === '-') return ctx.readStdin();
  try {
    return await readFile(resolve(ctx.cwd, file), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new CommandError(`cannot read ${displayPath(ctx, file)}: ${why}`, exitCodes.usage);
  }
}

/**
 * The objects of YAML or JSON files, in order: every document, with `kind: List` (and `*List`)
 * documents replaced by their items. Empty documents are skipped.
 *
 * @throws CommandError (usage) for unreadable files, YAML syntax errors and documents that are not objects
 */
export async function readObjects(ctx: CliContext, files: readonly string[]): Promise<SourcedObject[]> {
  const out: SourcedObject[] = [];
  for (const file of files) {
    const text = await readText(ctx, file);
    const documents = parseAllDocuments(text, { version: '1.1' });
    const list = Array.isArray(documents) ? documents : [documents];
    list.forEach((doc, i) => {
      if (doc.errors.length > 0) {
        throw new CommandError(`cannot parse ${displayPath(ctx, file)}: ${doc.errors[0].message}`, exitCodes.usage);
      }
      const value: unknown = doc.toJS({ maxAliasCount: 1000 });
      if (value === null || value === undefined) return;
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new CommandError(`${displayPath(ctx, file)}: document ${i + 1} is not an object`, exitCodes.usage);
      }
      const object = value as Record<string, unknown>;
      if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
        for (const item of object.items as unknown[]) {
          if (typeof item === 'object' && item !== null && !Array.isArray(item)) out.push({ file, document: i + 1, object: item as Record<string, unknown> });
        }
        return;
      }
      out.push({ file, document: i + 1, object });
    });
  }
  return out;
}

/** Whether an object is an apiextensions.k8s.io/v1 CustomResourceDefinition. */
export function isCustomResourceDefinition(object: Record<string, unknown>): object is Record<string, unknown> & CustomResourceDefinition {
  return object.apiVersion === 'apiextensions.k8s.io/v1' && object.kind === 'CustomResourceDefinition';
}

/** A CRD read from a file. */
export interface SourcedDefinition {
  readonly file: string;
  readonly document: number;
  readonly crd: CustomResourceDefinition;
}

/**
 * The CRDs of files; other objects are refused.
 * @throws CommandError (usage) when a file holds something else, or no CRD at all
 */
export async function readDefinitions(ctx: CliContext, files: readonly string[]): Promise<SourcedDefinition[]> {
  const out: SourcedDefinition[] = [];
  for (const { file, document, object } of await readObjects(ctx, files)) {
    if (!isCustomResourceDefinition(object)) {
      throw new CommandError(
        `${displayPath(ctx, file)}: document ${document} is ${describeObject(object)}, not an apiextensions.k8s.io/v1 CustomResourceDefinition`,
        exitCodes.usage,
      );
    }
    out.push({ file, document, crd: object });
  }
  if (out.length === 0) throw new CommandError(`no CustomResourceDefinition in ${files.map((f) => displayPath(ctx, f)).join(', ')}`, exitCodes.usage);
  return out;
}

/** `a ConfigMap (v1)`, for messages. */
export function describeObject(object: Record<string, unknown>): string {
  const kind = typeof object.kind === 'string' && object.kind !== '' ? object.kind : 'an object without kind';
  const apiVersion = typeof object.apiVersion === 'string' ? ` (${object.apiVersion})` : '';
  return `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}${apiVersion}`.replace(/^a an object/, 'an object');
}

/** The name of an object (`metadata.name`), or `""`. */
export function nameOf(object: Record<string, unknown>): string {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return '';
  const name = (metadata as { name?: unknown }).name;
  return typeof name === 'string' ? name : '';
}

/** The namespace of an object (`metadata.namespace`), or `""`. */
export function namespaceOf(object: Record<string, unknown>): string {
  const metadata = object.metadata;
  if (typeof metadata !== 'object' || metadata === null) return '';
  const namespace = (metadata as { namespace?: unknown }).namespace;
  return typeof namespace === 'string' ? namespace : '';
}
