import assert from 'node:assert/strict';
import { untilAborted } from '../../src/internal/untilAborted.js';

describe('untilAborted', () => {
  it('rejects at once with the reason of a signal that aborted before the call', async () => {
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    const never = new Promise<number>(() => undefined);
    await assert.rejects(untilAborted(never, controller.signal), (err) => err === reason);
  });

  it('rejects when the signal aborts first, and passes the outcome on otherwise', async () => {
    const controller = new AbortController();
    const pending = untilAborted(new Promise<number>(() => undefined), controller.signal);
    controller.abort();
    await assert.rejects(pending, (err: Error) => err.name === 'AbortError');
    assert.equal(await untilAborted(Promise.resolve(7), new AbortController().signal), 7);
  });
});
