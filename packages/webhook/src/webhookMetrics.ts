import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a review ended, for {@link WebhookMetrics}. */
export type ReviewResult = 'allowed' | 'denied' | 'converted' | 'failed' | 'bad_request' | 'error';

/**
 * Webhook metrics in Prometheus form, with controller-runtime's names
 * (`controller_runtime_webhook_requests_total{webhook,code}`,
 * `controller_runtime_webhook_latency_seconds{webhook}`,
 * `controller_runtime_webhook_requests_in_flight{webhook}`) plus
 * `kubekit_webhook_reviews_total{webhook,result}` (allowed, denied, converted, failed, bad_request,
 * error), each labelled by the webhook's path.
 *
 * Pass a manager's `metrics.registry` to serve them beside the controllers' on one `/metrics`.
 */
export class WebhookMetrics {
  /** The registry the metrics are registered in. */
  readonly registry: Registry;
  private readonly requests: Counter<'webhook' | 'code'>;
  private readonly reviews: Counter<'webhook' | 'result'>;
  private readonly latency: Histogram<'webhook'>;
  private readonly inFlight: Gauge<'webhook'>;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    this.requests = new Counter({ name: 'controller_runtime_webhook_requests_total', help: 'Total number of admission requests by HTTP status code.', labelNames: ['webhook', 'code'], registers: [registry] });
    this.reviews = new Counter({ name: 'kubekit_webhook_reviews_total', help: 'Total number of reviews by webhook path and result.', labelNames: ['webhook', 'result'], registers: [registry] });
    this.latency = new Histogram({ name: 'controller_runtime_webhook_latency_seconds', help: 'Histogram of the latency of processing admission requests', labelNames: ['webhook'], registers: [registry] });
    this.inFlight = new Gauge({ name: 'controller_runtime_webhook_requests_in_flight', help: 'Current number of admission requests being served.', labelNames: ['webhook'], registers: [registry] });
  }

  /** Marks a request to `webhook` as started; the returned function records its end. */
  started(webhook: string): (code: number, result: ReviewResult, seconds: number) => void {
    this.inFlight.inc({ webhook });
    return (code, result, seconds) => {
      this.inFlight.dec({ webhook });
      this.requests.inc({ webhook, code: String(code) });
      this.reviews.inc({ webhook, result });
      this.latency.observe({ webhook }, seconds);
    };
  }
}
