// YAML bodies nested as deeply as the apiserver reads them (go-yaml: 10,000 levels). The `yaml` package
// recurses and runs out of Node's default stack at about 1,000 levels, so deeply nested YAML is parsed on
// a worker thread with a large stack (a thread option, not a process flag: the embedded server lives in
// its users' processes); shallow YAML, nearly all of it, stays on the calling thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { KubeError, parseJSON, realClock, type Clock } from '@kubekit/core';
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
    // Integers as bigints, written with all their digits (yamlNumber.ts): JSON.stringify writes each as a
    // string that starts with a mark no other string of the text holds, unquoted afterwards.
    const value = yaml.parse(text, { intAsBigInt: true, version: '1.1', uniqueKeys: false });
    const mark = '\\u0000' + Math.random().toString(36).slice(2) + ':';
    const marked = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? mark + v.toString() : v)) ?? 'null';
    const parts = marked.split('"\\\\u0000' + mark.slice(1));
    const json = parts[0] + parts.slice(1).map((p) => p.replace('"', '')).join('');
    response = { ok: true, json, duplicateFields: duplicates ? duplicateKeys(yaml, text) : [] };
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

/**
 * Whether a YAML text may nest deeper than the calling thread's stack parses: more than a few hundred
 * flow levels (`[`/`{`) or a line indented more than a few hundred spaces (block nesting).
 * `flowDepth`: its deepest flow level, when a scan of the text found it already (`nestingOf`).
 */
export function yamlIsDeep(text: string, flowDepth?: number): boolean {
  if (flowDepth !== undefined ? flowDepth > shallow : scanNesting(text, shallow, true) !== undefined) return true;
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

/** Options of the deep-YAML workers (`startApiServer({ deepYAML })`). */
export interface DeepYAMLOptions {
  /** How many deep YAML bodies are parsed at once, each on its own thread. @defaultValue 2 */
  maxWorkers?: number;
  /** How many more may wait for a worker; a request beyond them gets 429. @defaultValue 16 */
  maxWaiting?: number;
  /**
   * How long a deep YAML body may take from asking for a worker (waiting included) to its value;
   * past it the request gets 504 and the worker is terminated. @defaultValue 60000 ms (the apiserver's
   * `--request-timeout`)
   */
  timeoutMs?: number;
}

/** Options of a {@link DeepYAMLParser}. */
export interface DeepYAMLParserOptions extends DeepYAMLOptions {
  /** The clock of the timeout. @defaultValue the real clock */
  clock?: Clock;
  /**
   * The program a worker runs (it receives `{ text, duplicates }` and posts one `YAMLWorkerResponse`);
   * tests give one that never answers. @defaultValue the YAML parser
   */
  workerProgram?: string;
}

/** The apiserver's answer past its request timeout (server/filters/timeout.go). */
function timedOut(): KubeError {
  return new KubeError('Timeout', 'Timeout: request did not complete within the allotted timeout', { details: {} });
}

/** The apiserver's answer when its priority-and-fairness queues are full (server/filters/priority-and-fairness.go). */
function tooManyRequests(): KubeError {
  return new KubeError('TooManyRequests', 'Too many requests, please try again later.', { details: { retryAfterSeconds: 1 } });
}

/** The apiserver's answer to a request that meets it shutting down (server/filters/waitgroup.go). */
function shuttingDown(): KubeError {
  return new KubeError('ServiceUnavailable', 'apiserver is shutting down');
}

function checked(name: string, value: number | undefined, fallback: number, min: number, integer: boolean): number {
  const v = value ?? fallback;
  if (!(integer ? Number.isInteger(v) : Number.isFinite(v)) || v < min) {
    throw new RangeError(`deepYAML.${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min}, got ${v}`);
  }
  return v;
}

/** A request for a worker: started once one is free, or refused from the queue. */
interface Ask {
  start(): void;
  refuse(err: KubeError): void;
}

/**
 * Parses YAML on worker threads with a large stack, for bodies nested deeper than the calling
 * thread's stack parses.
 *
 * Contract: at most `maxWorkers` threads parse at once; up to `maxWaiting` more requests wait for one,
 * first come first served, and one more is refused at once with 429 `TooManyRequests` (Retry-After 1 s).
 * A request not answered within `timeoutMs` of asking — waiting included — gets 504 `Timeout`; its
 * worker, if it had one, is terminated, and the answer goes out only once the thread has stopped.
 * A body that is not YAML gets 400 with the parser's words. After {@link DeepYAMLParser.close}, every
 * request gets 503.
 */
export class DeepYAMLParser {
  readonly #maxWorkers: number;
  readonly #maxWaiting: number;
  readonly #timeoutMs: number;
  readonly #clock: Clock;
  readonly #program: string | undefined;
  readonly #queue: Ask[] = [];
  readonly #workers = new Set<Worker>();
  #running = 0;
  #closed = false;

  constructor(options: DeepYAMLParserOptions = {}) {
    this.#maxWorkers = checked('maxWorkers', options.maxWorkers, 2, 1, true);
    this.#maxWaiting = checked('maxWaiting', options.maxWaiting, 16, 0, true);
    this.#timeoutMs = checked('timeoutMs', options.timeoutMs, 60_000, 1, false);
    this.#clock = options.clock ?? realClock;
    this.#program = options.workerProgram;
  }

  /** How many requests hold a worker. */
  get running(): number {
    return this.#running;
  }

  /** How many requests wait for a worker. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** How many worker threads have not exited yet. */
  get liveWorkers(): number {
    return this.#workers.size;
  }

  /**
   * Parses a YAML text: the value (as `parseJSON` reads the worker's JSON) and, when `duplicates` is
   * set, the duplicate keys as `yamlDuplicateFields` reports them.
   *
   * @throws KubeError `BadRequest` (400) with the parser's message when the text is not YAML,
   *   `TooManyRequests` (429) when `maxWaiting` requests already wait, `Timeout` (504) past `timeoutMs`,
   *   `ServiceUnavailable` (503) once closed.
   */
  parse(text: string, duplicates: boolean): Promise<{ value: unknown; duplicateFields: string[] }> {
    if (this.#closed) return Promise.reject(shuttingDown());
    if (this.#running >= this.#maxWorkers && this.#queue.length >= this.#maxWaiting) return Promise.reject(tooManyRequests());
    return new Promise((resolve, reject) => {
      let settled = false;
      let worker: Worker | undefined;
      // Settles once: the worker (if any) has stopped, its slot is passed on, then the answer goes out.
      const settle = (answer: () => void): void => {
        if (settled) return;
        settled = true;
        timer.cancel();
        if (worker === undefined) {
          answer();
          return;
        }
        void this.#stop(worker).then(() => {
          this.#running--;
          this.#next();
          answer();
        });
      };
      const ask: Ask = {
        start: () => {
          this.#running++;
          try {
            worker = this.#spawn();
          } catch (err) {
            // No thread (out of resources): the slot is passed on, the request answered.
            this.#running--;
            this.#next();
            settle(() => reject(new KubeError('InternalError', `Internal error occurred: the YAML worker did not start: ${err instanceof Error ? err.message : String(err)}`, { cause: err })));
            return;
          }
          answerOf(worker, text, duplicates).then(
            (response) => settle(() => {
              if (response.ok) resolve({ value: parseJSON(response.json), duplicateFields: response.duplicateFields });
              else reject(KubeError.badRequest(`error converting YAML to JSON: ${response.message}`));
            }),
            (err: unknown) => settle(() => reject(this.#closed ? shuttingDown() : KubeError.badRequest(`error converting YAML to JSON: ${err instanceof Error ? err.message : String(err)}`))),
          );
        },
        refuse: (err) => settle(() => reject(err)),
      };
      const timer = this.#clock.setTimeout(() => {
        const queued = this.#queue.indexOf(ask);
        if (queued >= 0) this.#queue.splice(queued, 1);
        settle(() => reject(timedOut()));
      }, this.#timeoutMs);
      if (this.#running < this.#maxWorkers) ask.start();
      else this.#queue.push(ask);
    });
  }

  /** Refuses the waiting requests and terminates every worker; the requests they served get 503. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const ask of this.#queue.splice(0)) ask.refuse(shuttingDown());
    await Promise.all([...this.#workers].map((w) => this.#stop(w)));
  }

  #next(): void {
    if (this.#closed) return;
    if (this.#running < this.#maxWorkers) this.#queue.shift()?.start();
  }

  #spawn(): Worker {
    const worker = new Worker(this.#program ?? source(), {
      eval: true,
      // Not the parent's loader options: the program is plain JavaScript.
      execArgv: [],
      resourceLimits: { stackSizeMb: workerStackMb, maxOldGenerationSizeMb: 512 },
    });
    this.#workers.add(worker);
    worker.once('exit', () => this.#workers.delete(worker));
    return worker;
  }

  /** Terminates a worker; resolves once its thread has exited. */
  async #stop(worker: Worker): Promise<void> {
    if (!this.#workers.has(worker)) return;
    await worker.terminate();
  }
}

/** The worker's one answer; its exit or error before answering is a rejection. */
function answerOf(worker: Worker, text: string, duplicates: boolean): Promise<YAMLWorkerResponse> {
  return new Promise<YAMLWorkerResponse>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the YAML worker exited with code ${code}`)));
    worker.postMessage({ text, duplicates });
  });
}
