// Shared builders for the CEL tests: a CronTab-like CRD around a schema, and objects of it.
import type { CustomResourceDefinition, JSONSchemaProps, ValidationRule } from '../../src/index.js';

/** A namespaced `stable.example.com/v1` CronTab CRD whose `v1` schema is `schema`. */
export function crdWith(schema: JSONSchemaProps): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

/** A root schema with `spec` as given. */
export function specSchema(spec: JSONSchemaProps, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec }, ...extra };
}

/** An object schema with the given properties and rules. */
export function object(properties: Record<string, JSONSchemaProps>, rules: ValidationRule[] = [], extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return { type: 'object', properties, ...(rules.length > 0 ? { 'x-kubernetes-validations': rules } : {}), ...extra };
}

/** A CronTab object with the given spec. */
export function cronTab(spec: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-new-cron-object', namespace: 'default' }, spec, ...extra };
}
