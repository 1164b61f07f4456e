import { KubeError } from '@kubekit/core';
import { defaultAndPrune } from '@kubekit/defaulter';
import type { ResolvedObject } from './resolveResource.js';

/** An object as the apiserver would store it, with the unknown fields pruned on the way. */
export interface StoredForm {
  readonly object: ResolvedObject['object'];
  readonly pruned: string[];
}

/**
 * A copy of the object decoded with its version's schema as the apiserver does on create (KEP-575: unknown
 * fields and non-nullable nulls pruned, defaults applied top-down), or the `KubeError` the apiserver would
 * answer instead. The caller's object is left as it is.
 */
export function storedForm(item: ResolvedObject): StoredForm | KubeError {
  const object = structuredClone(item.object);
  try {
    return { object, pruned: defaultAndPrune(object, item.version.schema?.openAPIV3Schema, { isResourceRoot: true }) };
  } catch (err) {
    if (err instanceof KubeError) return err;
    throw err;
  }
}
