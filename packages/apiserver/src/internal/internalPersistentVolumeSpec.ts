// The internal core.PersistentVolumeSpec as encoding/json writes it in a field error's value (a
// VolumeAttachment's inline spec in `spec: Invalid value: {…}: field is immutable`): Go's field names (the
// internal types have no JSON tags), every member written, the embedded PersistentVolumeSource's members
// in its place.
import { canonicalQuantity, goJSON } from '@kubekit/core';
import { isObject, str, type JSONObject } from './own.js';
import { isSet, obj } from './podFields.js';
import { nodeAffinityText } from '../persistentVolumeKinds.js';

/** The embedded PersistentVolumeSource's members: Go name, JSON name. */
const sources: readonly (readonly [string, string])[] = [
  ['GCEPersistentDisk', 'gcePersistentDisk'], ['AWSElasticBlockStore', 'awsElasticBlockStore'], ['HostPath', 'hostPath'], ['Glusterfs', 'glusterfs'],
  ['NFS', 'nfs'], ['RBD', 'rbd'], ['Quobyte', 'quobyte'], ['ISCSI', 'iscsi'], ['FlexVolume', 'flexVolume'], ['Cinder', 'cinder'], ['CephFS', 'cephfs'],
  ['FC', 'fc'], ['Flocker', 'flocker'], ['AzureFile', 'azureFile'], ['VsphereVolume', 'vsphereVolume'], ['AzureDisk', 'azureDisk'],
  ['PhotonPersistentDisk', 'photonPersistentDisk'], ['PortworxVolume', 'portworxVolume'], ['ScaleIO', 'scaleIO'], ['Local', 'local'], ['StorageOS', 'storageos'],
];

const strings = (v: unknown): string => (Array.isArray(v) ? goJSON(v.map(str)) : 'null');
const pointer = (v: unknown): string => (isSet(v) ? goJSON(str(v)) : 'null');
const secretRef = (v: unknown): string => (isObject(v) ? `{"Name":${goJSON(str(v.name))},"Namespace":${goJSON(str(v.namespace))}}` : 'null');

/**
 * A source kubekit does not model member by member: its JSON names with the first letter raised, which is
 * Go's name for most of them (not for initialisms such as `fsType`).
 */
function capitalised(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(capitalised).join(',')}]`;
  if (!isObject(v)) return goJSON(v ?? null);
  return `{${Object.keys(v).map((k) => `${goJSON(k.charAt(0).toUpperCase() + k.slice(1))}:${capitalised(v[k])}`).join(',')}}`;
}

function csiSource(v: unknown): string {
  if (!isObject(v)) return 'null';
  const attrs = isObject(v.volumeAttributes) ? `{${Object.keys(v.volumeAttributes).sort().map((k) => `${goJSON(k)}:${goJSON(str(obj(v.volumeAttributes)[k]))}`).join(',')}}` : 'null';
  return `{"Driver":${goJSON(str(v.driver))},"VolumeHandle":${goJSON(str(v.volumeHandle))},"ReadOnly":${v.readOnly === true},"FSType":${goJSON(str(v.fsType))},"VolumeAttributes":${attrs},`
    + ['controllerPublishSecretRef', 'nodeStageSecretRef', 'nodePublishSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef'].map((k) => `${goJSON(k.charAt(0).toUpperCase() + k.slice(1))}:${secretRef(v[k])}`).join(',')
    + '}';
}

function claimRef(v: unknown): string {
  if (!isObject(v)) return 'null';
  const fields = [['Kind', 'kind'], ['Namespace', 'namespace'], ['Name', 'name'], ['UID', 'uid'], ['APIVersion', 'apiVersion'], ['ResourceVersion', 'resourceVersion'], ['FieldPath', 'fieldPath']];
  return `{${fields.map(([g, j]) => `"${g}":${goJSON(str(v[j]))}`).join(',')}}`;
}

/** The internal PersistentVolumeSpec of `spec` (a v1 spec's JSON) as encoding/json writes it. */
export function internalPersistentVolumeSpecJSON(spec: JSONObject): string {
  const capacity = isObject(spec.capacity)
    ? `{${Object.keys(spec.capacity).sort().map((k) => `${goJSON(k)}:${goJSON(canonicalQuantity(obj(spec.capacity)[k]) ?? str(obj(spec.capacity)[k]))}`).join(',')}}`
    : 'null';
  const members = [
    `"Capacity":${capacity}`,
    ...sources.map(([g, j]) => `"${g}":${isObject(spec[j]) ? capitalised(spec[j]) : 'null'}`),
    `"CSI":${csiSource(spec.csi)}`,
    `"AccessModes":${strings(spec.accessModes)}`,
    `"ClaimRef":${claimRef(spec.claimRef)}`,
    `"PersistentVolumeReclaimPolicy":${goJSON(str(spec.persistentVolumeReclaimPolicy))}`,
    `"StorageClassName":${goJSON(str(spec.storageClassName))}`,
    `"MountOptions":${strings(spec.mountOptions)}`,
    `"VolumeMode":${pointer(spec.volumeMode)}`,
    `"NodeAffinity":${nodeAffinityText(spec.nodeAffinity)}`,
    `"VolumeAttributesClassName":${pointer(spec.volumeAttributesClassName)}`,
  ];
  return `{${members.join(',')}}`;
}
