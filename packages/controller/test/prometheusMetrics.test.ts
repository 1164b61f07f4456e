import { expect } from 'chai';
import { FakeClock } from '@kubekit/core';
import { ControllerMetrics, WorkQueue } from '@kubekit/controller';

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
});
