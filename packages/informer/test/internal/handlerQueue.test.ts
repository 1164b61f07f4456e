import { expect } from 'chai';
import fc from 'fast-check';
import { PendingReason } from '../../src/internal/deleteReasons.js';
import { HandlerQueue, type Notification } from '../../src/internal/handlerQueue.js';

interface Obj {
  k: string;
  v: number;
}

function recorder(): { lines: string[]; handler: ConstructorParameters<typeof HandlerQueue<Obj>>[0] } {
  const lines: string[] = [];
  return {
    lines,
    handler: {
      add: (o) => void lines.push(`add ${o.k}${o.v}`),
      update: (o, old) => void lines.push(`update ${o.k}${o.v}<-${old.v}`),
      delete: (o, { reason }) => void lines.push(`delete ${o.k}${o.v} ${reason}`),
      synced: () => void lines.push('synced'),
    },
  };
}

describe('HandlerQueue', () => {
  it('does deliver every notification in order while under its limit', async () => {
    const { lines, handler } = recorder();
    const q = new HandlerQueue<Obj>(handler, () => {});
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 1 } });
    q.enqueue('a', { kind: 'update', obj: { k: 'a', v: 2 }, old: { k: 'a', v: 1 } });
    q.synced();
    q.enqueue('a', { kind: 'delete', obj: { k: 'a', v: 2 }, reason: 'leftSelection' });
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 3 } });
    await q.idle();
    expect(lines).to.deep.equal(['add a1', 'update a2<-1', 'synced', 'delete a2 leftSelection', 'add a3']);
    expect(q.hasSynced).to.equal(true);
  });

  it('does merge per object once the handler lags, keeping what it saw as old', async () => {
    const { lines, handler } = recorder();
    const q = new HandlerQueue<Obj>(handler, () => {}, 1);
    q.enqueue('a', { kind: 'update', obj: { k: 'a', v: 2 }, old: { k: 'a', v: 1 } });
    q.enqueue('a', { kind: 'update', obj: { k: 'a', v: 3 }, old: { k: 'a', v: 2 } });
    q.enqueue('b', { kind: 'add', obj: { k: 'b', v: 1 } });
    q.enqueue('b', { kind: 'update', obj: { k: 'b', v: 2 }, old: { k: 'b', v: 1 } });
    q.enqueue('c', { kind: 'add', obj: { k: 'c', v: 1 } });
    q.enqueue('c', { kind: 'delete', obj: { k: 'c', v: 1 }, reason: 'deleted' });
    q.enqueue('d', { kind: 'update', obj: { k: 'd', v: 2 }, old: { k: 'd', v: 1 } });
    q.enqueue('d', { kind: 'delete', obj: { k: 'd', v: 2 }, reason: 'deleted' });
    q.enqueue('d', { kind: 'add', obj: { k: 'd', v: 3 } });
    q.enqueue('d', { kind: 'update', obj: { k: 'd', v: 4 }, old: { k: 'd', v: 3 } });
    expect(q.size).to.equal(5);
    await q.idle();
    expect(lines).to.deep.equal(['update a3<-1', 'add b2', 'delete d2 deleted', 'add d4']);
  });

  it('does not queue notifications of a kind the registration has no handler for', async () => {
    const deletes: string[] = [];
    const q = new HandlerQueue<Obj>({ delete: (o, { reason }) => void deletes.push(`${o.k}${o.v} ${reason}`) }, () => {}, 1);
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 1 } });
    q.enqueue('a', { kind: 'update', obj: { k: 'a', v: 2 }, old: { k: 'a', v: 1 } });
    expect(q.size).to.equal(0);
    // Lagging or not, the delete reaches the delete handler (no add of the object was queued to cancel it).
    q.enqueue('a', { kind: 'delete', obj: { k: 'a', v: 2 }, reason: 'deleted' });
    q.enqueue('b', { kind: 'delete', obj: { k: 'b', v: 1 }, reason: 'leftSelection' });
    q.synced();
    expect(q.size).to.equal(3);
    await q.idle();
    expect(deletes).to.deep.equal(['a2 deleted', 'b1 leftSelection']);
    expect(q.hasSynced).to.equal(true);
  });

  // The per-object bookkeeping exists only while the handler lags (and until it caught up): a lag that
  // ends, then begins again, must never merge into a notification older than one queued in between.
  it('does deliver each object\'s states in order, ending with the latest, however often it lags and catches up', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ key: fc.constantFrom('a', 'b'), release: fc.oneof(fc.constant(0), fc.constant(0), fc.nat(2)) }), { minLength: 1, maxLength: 40 }),
      fc.integer({ min: 1, max: 4 }),
      async (steps, limit) => {
        const seen = new Map<string, number[]>();
        // Each delivery waits until the test releases it: the queue drains only as far as released.
        let credits = 0;
        let wake: (() => void) | undefined;
        const take = async (): Promise<void> => {
          while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
          credits--;
        };
        const release = async (n: number): Promise<void> => {
          credits += n;
          for (let i = 0; i < 4 * n + 2; i++) {
            wake?.();
            await new Promise((resolve) => setImmediate(resolve));
          }
        };
        const q = new HandlerQueue<Obj>({
          update: async (o) => {
            await take();
            seen.set(o.k, [...(seen.get(o.k) ?? []), o.v]);
          },
        }, () => {}, limit);
        const latest = new Map<string, number>();
        let v = 0;
        for (const step of steps) {
          const old = latest.get(step.key) ?? 0;
          latest.set(step.key, ++v);
          q.enqueue(step.key, { kind: 'update', obj: { k: step.key, v }, old: { k: step.key, v: old } });
          if (step.release > 0) await release(step.release);
        }
        credits = Number.POSITIVE_INFINITY;
        wake?.();
        await q.idle();
        for (const [key, vs] of seen) {
          expect(vs, key).to.deep.equal([...vs].sort((x, y) => x - y));
          expect(new Set(vs).size, key).to.equal(vs.length);
          expect(vs.at(-1), key).to.equal(latest.get(key));
        }
        expect([...seen.keys()].sort()).to.deep.equal([...latest.keys()].sort());
      },
    ), { numRuns: 500, seed: 4358 });
  });

  it('does wait for a handler that returns a promise before the next notification', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = new HandlerQueue<Obj>({
      add: async (o) => {
        order.push(`start ${o.k}`);
        if (o.k === 'a') await gate;
        order.push(`end ${o.k}`);
      },
    }, () => {});
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 1 } });
    q.enqueue('b', { kind: 'add', obj: { k: 'b', v: 1 } });
    await new Promise((r) => setImmediate(r));
    expect(order).to.deep.equal(['start a']);
    release();
    await q.idle();
    expect(order).to.deep.equal(['start a', 'end a', 'start b', 'end b']);
  });

  it('does hold back only the object whose delete reason is pending, in order (issue 13)', async () => {
    const { lines, handler } = recorder();
    const q = new HandlerQueue<Obj>(handler, () => {});
    const reason = new PendingReason();
    q.enqueue('a', { kind: 'delete', obj: { k: 'a', v: 1 }, reason });
    q.enqueue('b', { kind: 'add', obj: { k: 'b', v: 1 } });
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 2 } });
    q.enqueue('b', { kind: 'update', obj: { k: 'b', v: 2 }, old: { k: 'b', v: 1 } });
    await new Promise((r) => setImmediate(r));
    expect(lines).to.deep.equal(['add b1', 'update b2<-1']);
    expect(q.size).to.equal(2);
    let idle = false;
    void q.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).to.equal(false);
    q.enqueue('a', { kind: 'update', obj: { k: 'a', v: 3 }, old: { k: 'a', v: 2 } });
    reason.settle('leftSelection');
    await q.idle();
    expect(lines).to.deep.equal(['add b1', 'update b2<-1', 'delete a1 leftSelection', 'add a2', 'update a3<-2']);
  });

  it('does deliver a delete whose reason was settled before its turn without holding it', async () => {
    const { lines, handler } = recorder();
    const q = new HandlerQueue<Obj>(handler, () => {});
    const first = new PendingReason();
    const second = new PendingReason();
    q.enqueue('a', { kind: 'delete', obj: { k: 'a', v: 1 }, reason: first });
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 2 } });
    q.enqueue('a', { kind: 'delete', obj: { k: 'a', v: 2 }, reason: second });
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 3 } });
    first.settle('deleted');
    await new Promise((r) => setImmediate(r));
    expect(lines).to.deep.equal(['delete a1 deleted', 'add a2']);
    second.settle('unknown');
    await q.idle();
    expect(lines).to.deep.equal(['delete a1 deleted', 'add a2', 'delete a2 unknown', 'add a3']);
  });

  it('does keep per-object order under random interleavings of pending reasons', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ k: fc.constantFrom('a', 'b', 'c'), pending: fc.boolean(), settleAt: fc.nat(20) }), { maxLength: 30 }),
      async (steps) => {
        const seen = new Map<string, number[]>();
        const q = new HandlerQueue<Obj>({
          add: (o) => void (seen.get(o.k) ?? seen.set(o.k, []).get(o.k)!).push(o.v),
          delete: (o) => void (seen.get(o.k) ?? seen.set(o.k, []).get(o.k)!).push(o.v),
        }, () => {});
        const reasons: { at: number; r: PendingReason }[] = [];
        const sent = new Map<string, number[]>();
        const present = new Set<string>();
        steps.forEach((step, v) => {
          (sent.get(step.k) ?? sent.set(step.k, []).get(step.k)!).push(v);
          if (present.has(step.k)) {
            present.delete(step.k);
            const r = new PendingReason();
            if (step.pending) reasons.push({ at: step.settleAt, r });
            else r.settle('deleted');
            q.enqueue(step.k, { kind: 'delete', obj: { k: step.k, v }, reason: r });
          } else {
            present.add(step.k);
            q.enqueue(step.k, { kind: 'add', obj: { k: step.k, v } });
          }
        });
        for (const { r } of reasons.sort((x, y) => y.at - x.at)) {
          await new Promise((res) => setImmediate(res));
          r.settle('leftSelection');
        }
        await q.idle();
        expect(Object.fromEntries(seen)).to.deep.equal(Object.fromEntries(sent));
      },
    ), { numRuns: 100 });
  });

  it('does report throwing and rejecting handlers and go on', async () => {
    const errors: unknown[] = [];
    const seen: string[] = [];
    const q = new HandlerQueue<Obj>({
      add: (o) => {
        seen.push(o.k);
        if (o.k === 'a') throw new Error('sync');
        if (o.k === 'b') return Promise.reject(new Error('async'));
        return undefined;
      },
    }, (e) => errors.push((e as Error).message));
    for (const k of ['a', 'b', 'c']) q.enqueue(k, { kind: 'add', obj: { k, v: 1 } });
    await q.idle();
    expect(seen).to.deep.equal(['a', 'b', 'c']);
    expect(errors).to.deep.equal(['sync', 'async']);
  });

  it('does drop pending notifications once stopped', async () => {
    const { lines, handler } = recorder();
    const q = new HandlerQueue<Obj>(handler, () => {});
    q.enqueue('a', { kind: 'add', obj: { k: 'a', v: 1 } });
    q.stop();
    q.enqueue('b', { kind: 'add', obj: { k: 'b', v: 1 } });
    await q.idle();
    await new Promise((r) => setImmediate(r));
    expect(lines).to.deep.equal([]);
  });

  it('does leave a handler with the final state of every object, whatever it skipped', async () => {
    const step = fc.record({ key: fc.constantFrom('a', 'b', 'c'), op: fc.constantFrom('put', 'del') });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), async (steps, limit) => {
        const view = new Map<string, number>();
        const violations: string[] = [];
        const q = new HandlerQueue<Obj>({
          add: (o) => {
            if (view.has(o.k)) violations.push(`add ${o.k}`);
            view.set(o.k, o.v);
          },
          update: (o, old) => {
            if (view.get(o.k) !== old.v) violations.push(`update ${o.k}`);
            view.set(o.k, o.v);
          },
          delete: (o) => {
            if (!view.has(o.k)) violations.push(`delete ${o.k}`);
            view.delete(o.k);
          },
        }, () => {}, limit);
        const truth = new Map<string, number>();
        let v = 0;
        for (const s of steps) {
          const old = truth.get(s.key);
          let n: Notification<Obj> | undefined;
          if (s.op === 'put') {
            truth.set(s.key, ++v);
            n = old === undefined ? { kind: 'add', obj: { k: s.key, v } } : { kind: 'update', obj: { k: s.key, v }, old: { k: s.key, v: old } };
          } else if (old !== undefined) {
            truth.delete(s.key);
            n = { kind: 'delete', obj: { k: s.key, v: old }, reason: 'deleted' };
          }
          if (n !== undefined) q.enqueue(s.key, n);
          expect(q.size).to.be.at.most(limit + 2 * 3);
        }
        await q.idle();
        expect(violations).to.deep.equal([]);
        expect([...view].sort()).to.deep.equal([...truth].sort());
      }),
    );
  });
});
