/**
 * The internal `core.PersistentVolumeSource` of a PersistentVolume's spec as `json.MarshalIndent(v, "", " ")`
 * writes it (the internal types have no JSON tags: Go field names, every field, nil pointers as `null`), and
 * the diff of two of them that `ValidatePersistentVolumeUpdate` quotes when the source changed.
 *
 * The sources kubekit validates (hostPath, gcePersistentDisk, awsElasticBlockStore, nfs, local, csi) are
 * written field by field; another source is written from its JSON members, capitalised, in their order.
 */
import { goJSONString } from '@kubekit/core';
import { isObject, type JSONObject } from './own.js';
import { unifiedDiff } from './unifiedDiff.js';

/** A Go value to print: a struct or map is its entries in order. */
type GoValue = null | string | number | boolean | GoValue[] | { entries: [string, GoValue][] };

/** The internal struct's member order, JSON member → Go field. */
const sourceFields: readonly (readonly [string, string])[] = [
  ['gcePersistentDisk', 'GCEPersistentDisk'], ['awsElasticBlockStore', 'AWSElasticBlockStore'], ['hostPath', 'HostPath'], ['glusterfs', 'Glusterfs'],
  ['nfs', 'NFS'], ['rbd', 'RBD'], ['quobyte', 'Quobyte'], ['iscsi', 'ISCSI'], ['flexVolume', 'FlexVolume'], ['cinder', 'Cinder'], ['cephfs', 'CephFS'],
  ['fc', 'FC'], ['flocker', 'Flocker'], ['azureFile', 'AzureFile'], ['vsphereVolume', 'VsphereVolume'], ['azureDisk', 'AzureDisk'],
  ['photonPersistentDisk', 'PhotonPersistentDisk'], ['portworxVolume', 'PortworxVolume'], ['scaleIO', 'ScaleIO'], ['local', 'Local'],
  ['storageos', 'StorageOS'], ['csi', 'CSI'],
];

type Field = readonly [json: string, go: string, kind: 'string' | 'bool' | 'int' | 'ptr' | 'map' | 'secret'];
const secretRef: readonly Field[] = [['name', 'Name', 'string'], ['namespace', 'Namespace', 'string']];
const structs: Readonly<Record<string, readonly Field[]>> = {
  hostPath: [['path', 'Path', 'string'], ['type', 'Type', 'ptr']],
  gcePersistentDisk: [['pdName', 'PDName', 'string'], ['fsType', 'FSType', 'string'], ['partition', 'Partition', 'int'], ['readOnly', 'ReadOnly', 'bool']],
  awsElasticBlockStore: [['volumeID', 'VolumeID', 'string'], ['fsType', 'FSType', 'string'], ['partition', 'Partition', 'int'], ['readOnly', 'ReadOnly', 'bool']],
  nfs: [['server', 'Server', 'string'], ['path', 'Path', 'string'], ['readOnly', 'ReadOnly', 'bool']],
  local: [['path', 'Path', 'string'], ['fsType', 'FSType', 'ptr']],
  csi: [
    ['driver', 'Driver', 'string'], ['volumeHandle', 'VolumeHandle', 'string'], ['readOnly', 'ReadOnly', 'bool'], ['fsType', 'FSType', 'string'],
    ['volumeAttributes', 'VolumeAttributes', 'map'], ['controllerPublishSecretRef', 'ControllerPublishSecretRef', 'secret'],
    ['nodeStageSecretRef', 'NodeStageSecretRef', 'secret'], ['nodePublishSecretRef', 'NodePublishSecretRef', 'secret'],
    ['controllerExpandSecretRef', 'ControllerExpandSecretRef', 'secret'], ['nodeExpandSecretRef', 'NodeExpandSecretRef', 'secret'],
  ],
};

function structValue(v: JSONObject, fields: readonly Field[]): GoValue {
  return {
    entries: fields.map(([json, go, kind]): [string, GoValue] => {
      const member = v[json];
      switch (kind) {
        case 'string': return [go, typeof member === 'string' ? member : ''];
        case 'bool': return [go, member === true];
        case 'int': return [go, typeof member === 'number' ? member : 0];
        case 'ptr': return [go, member === undefined || member === null ? null : plain(member)];
        case 'map': return [go, isObject(member) ? { entries: Object.keys(member).sort().map((k) => [k, plain(member[k])]) } : null];
        case 'secret': return [go, isObject(member) ? structValue(member, secretRef) : null];
      }
    }),
  };
}

/** A member kubekit has no struct for: its JSON, objects with their members capitalised. */
function plain(v: unknown): GoValue {
  if (Array.isArray(v)) return v.map(plain);
  if (isObject(v)) return { entries: Object.keys(v).map((k) => [k.charAt(0).toUpperCase() + k.slice(1), plain(v[k])]) };
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return null;
}

function marshalIndent(v: GoValue, indent: string): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goJSONString(v);
  if (typeof v !== 'object') return String(v);
  const inner = `${indent} `;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : `[\n${v.map((e) => inner + marshalIndent(e, inner)).join(',\n')}\n${indent}]`;
  if (v.entries.length === 0) return '{}';
  return `{\n${v.entries.map(([k, e]) => `${inner}${goJSONString(k)}: ${marshalIndent(e, inner)}`).join(',\n')}\n${indent}}`;
}

/** The spec's source as the internal struct's indented JSON. */
export function persistentVolumeSourceText(spec: JSONObject): string {
  const entries = sourceFields.map(([json, go]): [string, GoValue] => {
    const source = spec[json];
    if (!isObject(source)) return [go, null];
    const fields = Object.hasOwn(structs, json) ? structs[json] : undefined;
    return [go, fields === undefined ? plain(source) : structValue(source, fields)];
  });
  return marshalIndent({ entries }, '');
}

/** The diff `ValidatePersistentVolumeUpdate` quotes, or undefined when the sources are the same. */
export function persistentVolumeSourceDiff(oldSpec: JSONObject, newSpec: JSONObject): string | undefined {
  const before = persistentVolumeSourceText(oldSpec);
  const after = persistentVolumeSourceText(newSpec);
  return before === after ? undefined : unifiedDiff(before, after);
}
