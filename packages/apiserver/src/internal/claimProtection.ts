/** The finalizer that keeps a PersistentVolumeClaim while a Pod uses it (StorageObjectInUseProtection). */
export const pvcProtectionFinalizer = 'kubernetes.io/pvc-protection';
