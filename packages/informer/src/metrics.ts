/**
 * What an informer reports about itself, for any metrics system. `@kubekit/controller`'s
 * `ControllerMetrics` implements it in Prometheus form; a `Manager` hands its own to the informers it
 * runs. Every hook is called synchronously and must not throw. `resource` names the informer's
 * resource as `plural.group` (`shirts.stable.example.com`, `pods` for the core group).
 */
export interface InformerMetricsSink {
  /** A complete state arrived (a paginated list or a streaming list); `relist` when it was not the first. */
  listed(resource: string, relist: boolean): void;
  /** A watch request was opened. */
  watchStarted(resource: string): void;
  /** A list or watch failed. */
  failed(resource: string): void;
  /** A watch event was applied (`ADDED`, `MODIFIED`, `DELETED`). */
  event(resource: string, type: string): void;
  /** The number of cached objects changed. */
  cacheSize(resource: string, objects: number): void;
}

/**
 * What a REST client reports per request: the HTTP `method`, the server's `host`, the status `code`
 * (or `<error>` when no response arrived) and the seconds until the response headers arrived.
 */
export interface RestClientMetricsSink {
  request(method: string, host: string, code: string, seconds: number): void;
}

const restSinks = new Set<RestClientMetricsSink>();

/**
 * Reports every request of every kubekit REST client in this process (informers' and `KubeClient`s')
 * to `sink`, as client-go's global `metrics.Register` does, until the returned function is called.
 */
export function registerRestClientMetrics(sink: RestClientMetricsSink): () => void {
  restSinks.add(sink);
  return () => {
    restSinks.delete(sink);
  };
}

/** @internal Called by the REST client after each request. */
export function reportRestRequest(method: string, host: string, code: string, seconds: number): void {
  for (const sink of restSinks) {
    try {
      sink.request(method, host, code, seconds);
    } catch {
      // A metrics sink must never break a request.
    }
  }
}
