/**
 * `@kubekit/controller`: Work queues, reconcilers, controllers, a manager with leader election, metrics and logging.
 *
 * @packageDocumentation
 */

export {};
