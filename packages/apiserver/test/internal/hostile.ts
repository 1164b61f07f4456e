// Shared pieces of the hostile-input suites: a CRD whose spec keeps unknown fields (so request keys
// such as `__proto__` survive decoding as data), and a check that `Object.prototype` is untouched.
import { expect } from 'chai';
import type { KubeObject } from '@kubekit/core';

/** The own property names of a pristine `Object.prototype`, taken when this module loads. */
const pristine = Object.getOwnPropertyNames(Object.prototype).sort();

/** The keys every write path is fed, each a way to a prototype in JavaScript and plain data in Go. */
export const prototypeKeys = ['__proto__', 'constructor', 'prototype'] as const;

/** Asserts that nothing was added to `Object.prototype` (nor to the array and function prototypes). */
export function expectPristinePrototypes(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).to.deep.equal(pristine);
  const probe: Record<string, unknown> = {};
  for (const k of ['polluted', 'isAdmin', 'deletionTimestamp', 'x']) {
    expect(probe[k], `Object.prototype.${k}`).to.equal(undefined);
    expect((Array.prototype as unknown as Record<string, unknown>)[k], `Array.prototype.${k}`).to.equal(undefined);
    expect((Function.prototype as unknown as Record<string, unknown>)[k], `Function.prototype.${k}`).to.equal(undefined);
  }
}

/**
 * A namespaced CRD `widgets.hostile.example.com` with status and scale subresources and a `spec` that
 * preserves unknown fields.
 */
export function widgetCRD(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.hostile.example.com' },
    spec: {
      group: 'hostile.example.com', scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{
        name: 'v1', served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
                properties: {
                  replicas: { type: 'integer', default: 1 },
                  data: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  labels: { type: 'object', additionalProperties: { type: 'string', default: 'd' } },
                  mode: { type: 'string', default: 'auto' },
                },
              },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { replicas: { type: 'integer' } } },
            },
          },
        },
      }],
    },
  };
}

/** The path of the widgets collection in a namespace. */
export const widgets = (ns = 'default'): string => `/apis/hostile.example.com/v1/namespaces/${ns}/widgets`;
