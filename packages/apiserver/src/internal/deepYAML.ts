// YAML bodies nested as deeply as the apiserver reads them (go-yaml: 10,000 levels). The `yaml` package
// recurses and runs out of Node's default stack at about 1,000 levels, so deeply nested YAML is parsed on
// a worker thread with a large stack (a thread option, not a process flag: the embedded server lives in
// its users' processes); shallow YAML, nearly all of it, stays on the calling thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { KubeError, parseJSON } from '@kubekit/core';
import { yamlDuplicateKeys } from './fieldValidation.js';
import { scanNesting } from './nesting.js';

/** What the worker answers: the value as JSON text and the duplicate keys, or the parser's error message. */
type YAMLWorkerResponse = { ok: true; json: string; duplicateFields: string[] } | { ok: false; message: string };

let workerSource: string | undefined;

/**
 * The worker's program, plain JavaScript whatever runs this module (sources through a TypeScript loader,
 * or the build): the `yaml` package's CommonJS entry, and {@link yamlDuplicateKeys} from its own text.
 * JSON.stringify recurses too, on the worker's large stack; `__name` is what a loader that keeps
 * function names may have put into that text.
 */
function source(): string {
  workerSource ??= `'use strict';
const { parentPort } = require('node:worker_threads');
const __name = (f) => f;
const yaml = require(${JSON.stringify(createRequire(import.meta.url).resolve('yaml'))});
const duplicateKeys = ${yamlDuplicateKeys.toString()};
parentPort.once('message', ({ text, duplicates }) => {
  let response;
  try {
    const value = yaml.parse(text, { intAsBigInt: false, version: '1.1', uniqueKeys: false });
    response = { ok: true, json: JSON.stringify(value) ?? 'null', duplicateFields: duplicates ? duplicateKeys(yaml, text) : [] };
  } catch (err) {
    response = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort.postMessage(response);
});
`;
  return workerSource;
}

/** Nesting (flow levels, or indentation in spaces) below which the calling thread parses YAML. */
const shallow = 400;

/** The worker's stack: 10,000 flow levels take about 11 MiB of the `yaml` package's frames. */
const workerStackMb = 64;

/** How long the worker may take before the request is refused. */
const workerTimeoutMs = 60_000;

/**
 * Whether a YAML text may nest deeper than the calling thread's stack parses: more than a few hundred
 * flow levels (`[`/`{`) or a line indented more than a few hundred spaces (block nesting).
 */
export function yamlIsDeep(text: string): boolean {
  if (scanNesting(text, shallow, true) !== undefined) return true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (++indent > shallow) return true;
    } else {
      indent = 0;
      if (c !== 0x0a) {
        const nl = text.indexOf('\n', i);
        if (nl < 0) break;
        i = nl;
      }
    }
  }
  return false;
}

/** Whether an error of the `yaml` package is a stack overflow (it reports them as parse errors). */
export function isYAMLStackOverflow(err: unknown): boolean {
  return err instanceof Error && /Maximum call stack size exceeded/.test(err.message);
}

/**
 * Parses YAML on a worker thread with a large stack: the value (as `parseJSON` reads the worker's
 * JSON) and, when `duplicates` is set, the duplicate keys as `yamlDuplicateFields` reports them.
 *
 * @throws KubeError (`BadRequest`) with the parser's message when the text is not YAML, or when the
 *   worker fails or takes longer than a minute.
 */
export async function parseDeepYAML(text: string, duplicates: boolean): Promise<{ value: unknown; duplicateFields: string[] }> {
  // At most `maxWorkers` parse at once (each may take a 64 MiB stack and 512 MiB of heap); others wait.
  while (running >= maxWorkers) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await parseOnWorker(text, duplicates);
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** How many deep YAML bodies are parsed at once. */
const maxWorkers = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function parseOnWorker(text: string, duplicates: boolean): Promise<{ value: unknown; duplicateFields: string[] }> {
  const worker = new Worker(source(), {
    eval: true,
    // Not the parent's loader options: the program is plain JavaScript.
    execArgv: [],
    resourceLimits: { stackSizeMb: workerStackMb, maxOldGenerationSizeMb: 512 },
  });
  try {
    const response = await new Promise<YAMLWorkerResponse>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${workerTimeoutMs / 1000} s`)), workerTimeoutMs);
      worker.once('message', (m: YAMLWorkerResponse) => {
        clearTimeout(timer);
        resolve(m);
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the YAML worker exited with code ${code}`));
      });
      worker.postMessage({ text, duplicates });
    }).catch((err: unknown) => {
      throw KubeError.badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`);
    });
    if (!response.ok) throw KubeError.badRequest(`error converting YAML to JSON: ${response.message}`);
    return { value: parseJSON(response.json), duplicateFields: response.duplicateFields };
  } finally {
    await worker.terminate();
  }
}
