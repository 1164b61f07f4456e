/**
 * `@kubekit/informer`: Field-selected informers with client-go-grade reliability: list+watch, reflector, store, indexers, shared informers.
 *
 * @packageDocumentation
 */

export {};
