/**
 * The `PersistentVolumeClaimResize` admission plugin of kube-apiserver 1.34.4
 * (plugin/pkg/admission/storage/persistentvolume/resize): an update of a claim (not of a subresource) that
 * grows its storage request is refused unless the claim was bound, and unless the claim names the same
 * class before and after, that class is stored, and it allows volume expansion.
 */
import type { KubeObject } from '@kubekit/core';
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';
import { storageClassOf } from './builtinServiceKinds.js';
import { compareQuantity, quantityAt } from './claimValidation.js';
import { valueAt } from './internal/own.js';
import { storeKey, type ObjectStore } from './storage/objectStore.js';
import { storageClassesBucket } from './storageKinds.js';

export class ClaimResizeAdmission implements AdmissionPlugin {
  constructor(private readonly store: ObjectStore) {}

  validate(attrs: AdmissionAttributes): void {
    const { names } = attrs.type;
    if (attrs.operation !== 'UPDATE' || attrs.subresource !== '' || names.group !== '' || names.resource !== 'persistentvolumeclaims') return;
    const claim = attrs.object;
    const old = attrs.oldObject;
    if (claim === undefined || old === undefined) return;
    if (compareQuantity(quantityAt(claim, 'spec', 'resources', 'requests', 'storage'), quantityAt(old, 'spec', 'resources', 'requests', 'storage')) <= 0) return;
    if (valueAt(old, 'status', 'phase') !== 'Bound') throw admissionForbidden(attrs, 'Only bound persistent volume claims can be expanded');
    if (!this.allowsResize(claim, old)) throw admissionForbidden(attrs, 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  }

  /** `allowResize`: one class named before and after, stored, with `allowVolumeExpansion: true`. */
  private allowsResize(claim: KubeObject, old: KubeObject): boolean {
    const name = storageClassOf(claim);
    if (name === '' || name !== storageClassOf(old)) return false;
    const found = this.store.get(storageClassesBucket, storeKey('', name));
    return found !== undefined && (found as { allowVolumeExpansion?: unknown }).allowVolumeExpansion === true;
  }
}
