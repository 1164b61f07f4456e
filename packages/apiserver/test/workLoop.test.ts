// The queue and loop of the background controllers and the garbage collector. Items are held open
// by promises the test resolves, never by sleeping.
import { expect } from 'chai';
import { WorkLoop } from '../src/internal/workLoop.js';

/** A promise and its resolver. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves after `n` turns of the event loop. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('WorkLoop', () => {
  it('works each queued key once, in order, and is idle afterwards', async () => {
    const seen: string[] = [];
    const loop = new WorkLoop(async (key) => {
      seen.push(key);
    });
    loop.enqueue('a');
    loop.enqueue('b');
    loop.enqueue('a');
    expect(loop.isIdle()).to.equal(false);
    await loop.idle();
    expect(seen).to.deep.equal(['a', 'b']);
    expect(loop.isIdle()).to.equal(true);
  });

  it('keeps working after an item fails', async () => {
    const seen: string[] = [];
    const loop = new WorkLoop(async (key) => {
      seen.push(key);
      if (key === 'bad') throw new Error('conflict');
    });
    loop.enqueue('bad');
    loop.enqueue('good');
    await loop.idle();
    expect(seen).to.deep.equal(['bad', 'good']);
  });

  it('yields a turn of the event loop every itemsPerTurn items', async () => {
    const seen: string[] = [];
    const loop = new WorkLoop(async (key) => {
      seen.push(key);
    }, 3);
    for (let i = 0; i < 7; i++) loop.enqueue(String(i));
    let between = -1;
    // Queued after the loop's first turn is scheduled: runs once the loop yields.
    setImmediate(() => setImmediate(() => {
      between = seen.length;
    }));
    await loop.idle();
    expect(seen).to.have.length(7);
    expect(between).to.be.within(3, 6);
  });

  it('stops on close: the item in flight finishes, queued ones never start, and close waits for it', async () => {
    const started: string[] = [];
    const hold = gate();
    let finished = false;
    const loop = new WorkLoop(async (key) => {
      started.push(key);
      await hold.promise;
      finished = true;
    });
    loop.enqueue('first');
    loop.enqueue('second');
    await turns(2);
    expect(started).to.deep.equal(['first']);
    let closed = false;
    const closing = loop.close().then(() => {
      closed = true;
    });
    await turns(3);
    expect(closed, 'close waits for the item in flight').to.equal(false);
    hold.open();
    await closing;
    expect(finished).to.equal(true);
    loop.enqueue('third');
    await turns(3);
    expect(started).to.deep.equal(['first']);
    expect(loop.isIdle()).to.equal(true);
    await loop.idle();
  });

  it('closes at once when nothing runs', async () => {
    const loop = new WorkLoop(async () => {
      throw new Error('never called');
    });
    await loop.close();
    loop.enqueue('x');
    expect(loop.isIdle()).to.equal(true);
  });
});
