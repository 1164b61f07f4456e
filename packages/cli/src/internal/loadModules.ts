/**
 * Loading the modules that declare custom resources: JavaScript directly, TypeScript through tsx's
 * loader (registered once, on first need), and finding the `@CustomResource` classes they export.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isCustomResource } from '@kubekit/decorators';
import type { ClassRef } from '@kubekit/decorators';
import { exitCodes } from '../exitCodes.js';
import { CommandError } from './context.js';
import type { CliContext } from './context.js';
import { displayPath } from './documents.js';

const typeScriptFile = /\.[cm]?tsx?$/;
const registeredKey = Symbol.for('kubekit.cli.tsxRegistered');

async function ensureTypeScriptLoader(): Promise<void> {
  const bag = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (bag[registeredKey] === true) return;
  const { register } = await import('tsx/esm/api');
  register();
  bag[registeredKey] = true;
}

/** A `@CustomResource` class and the module file that exports it. */
export interface DeclaredResource {
  readonly cls: ClassRef;
  /** The exporting module, absolute. */
  readonly file: string;
}

/** The modules loaded, and the resource classes they export (each class once, first exporter wins). */
export interface LoadedModules {
  readonly files: string[];
  readonly resources: DeclaredResource[];
}

/**
 * Imports modules and collects the `@CustomResource` classes they export.
 *
 * @throws CommandError (usage) for a missing file; (failure) when a module fails to load or evaluate —
 *   decorators misapplied throw then, and the message names the module.
 */
export async function loadModules(ctx: CliContext, modules: readonly string[]): Promise<LoadedModules> {
  const files: string[] = [];
  const resources: DeclaredResource[] = [];
  for (const module of modules) {
    const file = resolve(ctx.cwd, module);
    if (!existsSync(file)) throw new CommandError(`cannot load ${displayPath(ctx, file)}: no such file`, exitCodes.usage);
    if (typeScriptFile.test(file)) await ensureTypeScriptLoader();
    let namespace: Record<string, unknown>;
    try {
      namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (err) {
      throw new CommandError(`cannot load ${displayPath(ctx, file)}: ${err instanceof Error ? err.message : String(err)}`, exitCodes.failure);
    }
    files.push(file);
    for (const value of Object.values(namespace)) {
      if (isCustomResource(value) && !resources.some((r) => r.cls === value)) resources.push({ cls: value, file });
    }
  }
  return { files, resources };
}
