// The deep-YAML workers' contract (src/internal/deepYAML.ts): at most `maxWorkers` threads parse at
// once, up to `maxWaiting` more requests wait for one in order, and one more is refused with the
// apiserver's 429 words (server/filters/priority-and-fairness.go tooManyRequests); a body not parsed
// within `timeoutMs` of asking (waiting included) gets the apiserver's request-timeout answer
// (server/filters/timeout.go: 504 "Timeout: request did not complete within the allotted timeout")
// and its thread is terminated before the answer goes out. Time is a FakeClock; the workers are real
// threads, held by a test program that blocks until it is terminated.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { FakeClock, KubeError } from '@kubekit/core';
import { DeepYAMLParser, yamlIsDeep, type DeepYAMLParserOptions } from '../src/internal/deepYAML.js';
import { nestingOf, scanNesting } from '../src/internal/nesting.js';

/** A worker that answers `{"text": …}` at once, and never answers (blocking its thread) for the text `hold`. */
const testProgram = `'use strict';
const { parentPort } = require('node:worker_threads');
parentPort.once('message', ({ text }) => {
  if (text === 'hold') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  parentPort.postMessage({ ok: true, json: JSON.stringify({ text }), duplicateFields: [] });
});
`;

/** The settled state of a promise, without waiting for it. */
function track<T>(p: Promise<T>): { state: 'pending' | 'fulfilled' | 'rejected'; value?: T; error?: unknown; done: Promise<void> } {
  const t: { state: 'pending' | 'fulfilled' | 'rejected'; value?: T; error?: unknown; done: Promise<void> } = { state: 'pending', done: Promise.resolve() };
  t.done = p.then((v) => { t.state = 'fulfilled'; t.value = v; }, (e: unknown) => { t.state = 'rejected'; t.error = e; });
  return t;
}

function expectKubeError(err: unknown, code: number, reason: string, message: string): KubeError {
  expect(err).to.be.instanceOf(KubeError);
  const k = err as KubeError;
  expect([k.code, k.reason, k.message]).to.deep.equal([code, reason, message]);
  return k;
}

const timeoutWords = 'Timeout: request did not complete within the allotted timeout';
const tooManyWords = 'Too many requests, please try again later.';

/** The threads of this process (Linux), or undefined elsewhere. */
function threadCount(): number | undefined {
  try {
    return readdirSync('/proc/self/task').length;
  } catch {
    return undefined;
  }
}

/** Waits (bounded: 10 s of real time, polling every 20 ms) until the process has no more threads than `baseline`. */
async function threadsBackTo(baseline: number | undefined): Promise<void> {
  if (baseline === undefined) return;
  const deadline = Date.now() + 10_000;
  while (threadCount()! > baseline && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(threadCount(), 'threads left running').to.be.at.most(baseline);
}

describe('DeepYAMLParser', () => {
  let parser: DeepYAMLParser | undefined;
  const make = (options: DeepYAMLParserOptions): DeepYAMLParser => (parser = new DeepYAMLParser(options));
  afterEach(async () => {
    await parser?.close();
    parser = undefined;
  });

  it('parses YAML nested 3,000 levels on a worker and leaves no thread behind', async () => {
    const p = make({});
    const baseline = threadCount();
    const text = `a: ${'['.repeat(3000)}1${']'.repeat(3000)}\nb: yes\n`;
    const { value } = await p.parse(text, false);
    let depth = 0;
    let v = (value as { a: unknown }).a;
    while (Array.isArray(v)) { depth++; v = v[0]; }
    expect([depth, v, (value as { b: unknown }).b]).to.deep.equal([3000, 1, true]);
    expect(p.liveWorkers).to.equal(0);
    await threadsBackTo(baseline);
  });

  // sigs.k8s.io/yaml: go-yaml reads an integer as an int64 (digits kept), encoding/json writes it, and the
  // apiserver decodes the JSON again (yamlNumber.ts); a string that looks like the worker's mark stays a string.
  it('keeps the digits of integers beyond 2^53 as the shallow parser does', async () => {
    const p = make({});
    const text = `a: ${'['.repeat(500)}9007199254740993${']'.repeat(500)}\nb: -9223372036854775808\nc: 1e18\nd: "\\u0000x:1"\ne: 5\n`;
    const { value } = await p.parse(text, false);
    let v = (value as { a: unknown }).a;
    while (Array.isArray(v)) v = v[0];
    const o = value as Record<string, unknown>;
    expect([v, o.b, o.c, o.d, o.e]).to.deep.equal([9007199254740993n, -9223372036854775808n, 1000000000000000000n, '\u0000x:1', 5]);
  });

  it('answers a parse error with 400 and the parser\'s words', async () => {
    const p = make({});
    const err = await p.parse(`a: ${'['.repeat(1000)}\n`, false).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError);
    expect((err as KubeError).code).to.equal(400);
    expect((err as KubeError).message).to.match(/^error converting YAML to JSON: /);
    expect(p.liveWorkers).to.equal(0);
  });

  it('lets two parse at once; a third waits for a free worker and is parsed after a timeout frees one', async () => {
    const clock = new FakeClock();
    const p = make({ clock, workerProgram: testProgram });
    const baseline = threadCount();
    const first = track(p.parse('hold', false));
    const second = track(p.parse('hold', false));
    await clock.advance(30_000);
    const third = track(p.parse('third', false));
    expect([p.running, p.waiting]).to.deep.equal([2, 1]);
    await clock.advance(29_999);
    expect([first.state, second.state, third.state]).to.deep.equal(['pending', 'pending', 'pending']);

    await clock.advance(1);
    await Promise.all([first.done, second.done]);
    expectKubeError(first.error, 504, 'Timeout', timeoutWords);
    expectKubeError(second.error, 504, 'Timeout', timeoutWords);
    // The answer goes out once the thread has stopped.
    expect(p.liveWorkers).to.be.at.most(1);

    await third.done;
    expect(third.value).to.deep.equal({ value: { text: 'third' }, duplicateFields: [] });
    expect([p.running, p.waiting, p.liveWorkers]).to.deep.equal([0, 0, 0]);
    await threadsBackTo(baseline);

    // The next request works.
    expect(await p.parse('next', false)).to.deep.equal({ value: { text: 'next' }, duplicateFields: [] });
  });

  it('refuses a request when maxWaiting already wait, with the apiserver\'s 429 words and Retry-After 1', async () => {
    const clock = new FakeClock();
    const p = make({ clock, workerProgram: testProgram, maxWorkers: 2, maxWaiting: 1 });
    const held = [track(p.parse('hold', false)), track(p.parse('hold', false))];
    const waiting = track(p.parse('waits', false));
    const refused = await p.parse('one too many', false).then(() => undefined, (e: unknown) => e);
    const err = expectKubeError(refused, 429, 'TooManyRequests', tooManyWords);
    expect(err.toStatus().details).to.deep.equal({ retryAfterSeconds: 1 });
    expect([p.running, p.waiting]).to.deep.equal([2, 1]);
    await clock.advance(60_000);
    await Promise.all([...held, waiting].map((t) => t.done));
    expect(held.map((t) => t.state)).to.deep.equal(['rejected', 'rejected']);
    // The waiting one asked at the same instant: its deadline passed while it waited.
    expectKubeError(waiting.error, 504, 'Timeout', timeoutWords);
    expect([p.running, p.waiting, p.liveWorkers]).to.deep.equal([0, 0, 0]);
  });

  it('times out a request that waited its whole deadline, taking it out of the queue', async () => {
    const clock = new FakeClock();
    const p = make({ clock, workerProgram: testProgram, maxWorkers: 1, timeoutMs: 5_000 });
    const held = track(p.parse('hold', false));
    await clock.advance(1_000);
    const waiting = track(p.parse('waits', false));
    await clock.advance(4_000);
    await held.done;
    expectKubeError(held.error, 504, 'Timeout', timeoutWords);
    // The held worker's slot went to the waiting request, which still has a second left.
    await waiting.done;
    expect(waiting.value).to.deep.equal({ value: { text: 'waits' }, duplicateFields: [] });

    const held2 = track(p.parse('hold', false));
    const waiting2 = track(p.parse('waits too', false));
    const waiting3 = track(p.parse('waits as well', false));
    expect(p.waiting).to.equal(2);
    await clock.advance(5_000);
    await Promise.all([held2.done, waiting2.done, waiting3.done]);
    for (const t of [held2, waiting2, waiting3]) expectKubeError(t.error, 504, 'Timeout', timeoutWords);
    expect([p.running, p.waiting, p.liveWorkers]).to.deep.equal([0, 0, 0]);
  });

  it('close() terminates the running workers and refuses the waiting requests', async () => {
    const clock = new FakeClock();
    const p = make({ clock, workerProgram: testProgram, maxWorkers: 1 });
    const baseline = threadCount();
    const held = track(p.parse('hold', false));
    const waiting = track(p.parse('waits', false));
    await p.close();
    await Promise.all([held.done, waiting.done]);
    expect([held.state, waiting.state]).to.deep.equal(['rejected', 'rejected']);
    expect((held.error as KubeError).code).to.equal(503);
    expect([p.running, p.waiting, p.liveWorkers]).to.deep.equal([0, 0, 0]);
    await threadsBackTo(baseline);
    const after = await p.parse('late', false).then(() => undefined, (e: unknown) => e);
    expect((after as KubeError).code).to.equal(503);
  });

  it('answers 500 and frees the slot when a worker thread cannot be started', async () => {
    // A program Node refuses at once stands for a thread that cannot be made.
    const p = make({ maxWorkers: 1, workerProgram: 42 as unknown as string });
    for (let i = 0; i < 3; i++) {
      const err = await p.parse('a: b', false).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError);
      expect((err as KubeError).code).to.equal(500);
      expect((err as KubeError).message).to.match(/^Internal error occurred: the YAML worker did not start: /);
      expect([p.running, p.waiting, p.liveWorkers]).to.deep.equal([0, 0, 0]);
    }
  });

  it('refuses options that make no sense, naming them', () => {
    expect(() => new DeepYAMLParser({ maxWorkers: 0 })).to.throw(RangeError, 'deepYAML.maxWorkers must be an integer of at least 1, got 0');
    expect(() => new DeepYAMLParser({ maxWaiting: -1 })).to.throw(RangeError, 'deepYAML.maxWaiting must be an integer of at least 0, got -1');
    expect(() => new DeepYAMLParser({ timeoutMs: 0 })).to.throw(RangeError, 'deepYAML.timeoutMs must be a number of at least 1, got 0');
  });
});

describe('nestingOf', () => {
  it('finds the deepest flow level and the first excess in one scan, skipping quoted text and comments', () => {
    expect(nestingOf('{"a":[{"b":"[[[{{{"}]}', 10)).to.deep.equal({ deepest: 3 });
    expect(nestingOf("a: ['[[[', {b: 1}] # {{{{", 10, true)).to.deep.equal({ deepest: 2 });
    expect(nestingOf('[[[\n[[', 4)).to.deep.equal({ excess: { char: '[', line: 1 }, deepest: 5 });
    expect(scanNesting('[[[\n[[', 4)).to.deep.equal({ char: '[', line: 1 });
    // The writer's one scan answers the YAML parser's lower limit as a scan of its own would.
    for (const depth of [399, 400, 401, 2000]) {
      const text = `a: ${'['.repeat(depth)}${']'.repeat(depth)}`;
      expect(yamlIsDeep(text, nestingOf(text, 10_000, true).deepest), `${depth}`).to.equal(yamlIsDeep(text));
    }
  });
});
