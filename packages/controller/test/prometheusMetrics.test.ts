import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import { Controller, ControllerMetrics, TerminalError, WorkQueue, type EventSource, type SourceHandlers } from '@kubekit/controller';

describe('ControllerMetrics', () => {
  it('exposes client-go work queue metrics and controller-runtime reconcile metrics by name', async () => {
    const clock = new FakeClock(0);
    const metrics = new ControllerMetrics();
    const queue = new WorkQueue<string>({ name: 'shirts', clock, metrics: metrics.forQueue('shirts') });
    metrics.trackQueue(queue);
    queue.add('a'); queue.add('b'); queue.add('a');
    await queue.get();
    await clock.advance(3000);
    metrics.reconciled('shirts', 'success', 0.25);
    metrics.reconciled('shirts', 'error', 0.5);
    const text = await metrics.registry.metrics();
    expect(text).to.contain('workqueue_adds_total{name="shirts"} 2');
    expect(text).to.contain('workqueue_depth{name="shirts"} 1');
    expect(text).to.contain('workqueue_unfinished_work_seconds{name="shirts"} 3');
    expect(text).to.contain('workqueue_longest_running_processor_seconds{name="shirts"} 3');
    expect(text).to.contain('controller_runtime_reconcile_total{controller="shirts",result="success"} 1');
    expect(text).to.contain('controller_runtime_reconcile_errors_total{controller="shirts"} 1');
    expect(text).to.match(/workqueue_queue_duration_seconds_count\{name="shirts"\} 1/);
  });

  // controller-runtime (pkg/internal/controller/metrics): a terminal error counts as an error and as a
  // terminal error; active_workers counts the reconciles running; its reconcile buckets reach 60 s and
  // the work queue's (client-go's) reach 1000 s.
  it('counts terminal errors and active workers, with controller-runtime\'s buckets', async () => {
    const metrics = new ControllerMetrics({ processMetrics: false });
    let handlers!: SourceHandlers<{ metadata: { namespace: string; name: string } }>;
    const source: EventSource = { addEventHandler: (h) => { handlers = h; return { remove() {} }; }, waitForSync: () => Promise.resolve() };
    let release!: () => void;
    let running = 0;
    const c = new Controller({
      name: 'shirts', metrics, maxConcurrentReconciles: 2,
      reconciler: async ({ name }) => {
        running++;
        if (name === 'stuck') await new Promise<void>((r) => { release = r; });
        throw new TerminalError(`${name} cannot be reconciled`);
      },
    }).for(source);
    const ac = new AbortController();
    const run = c.start(ac.signal);
    const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20 && handlers === undefined; i++) await tick();
    handlers.add({ metadata: { namespace: 'default', name: 'stuck' } });
    for (let i = 0; i < 20 && running < 1; i++) await tick();
    let text = await metrics.registry.metrics();
    expect(text).to.contain('controller_runtime_active_workers{controller="shirts"} 1');
    expect(text).to.contain('controller_runtime_max_concurrent_reconciles{controller="shirts"} 2');
    handlers.add({ metadata: { namespace: 'default', name: 'bad' } });
    for (let i = 0; i < 20 && running < 2; i++) await tick();
    release();
    for (let i = 0; i < 50 && !(await metrics.registry.metrics()).includes('controller_runtime_terminal_reconcile_errors_total{controller="shirts"} 2'); i++) await tick();
    ac.abort();
    await run;
    text = await metrics.registry.metrics();
    expect(text).to.contain('controller_runtime_terminal_reconcile_errors_total{controller="shirts"} 2');
    expect(text).to.contain('controller_runtime_reconcile_errors_total{controller="shirts"} 2');
    expect(text).to.contain('controller_runtime_reconcile_total{controller="shirts",result="error"} 2');
    expect(text).to.contain('controller_runtime_active_workers{controller="shirts"} 0');
    expect(text).to.contain('controller_runtime_reconcile_time_seconds_bucket{le="60",controller="shirts"} 2');
    expect(text).to.contain('workqueue_queue_duration_seconds_bucket{le="1000",name="shirts"} 2');
  });
});
