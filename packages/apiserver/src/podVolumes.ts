/**
 * A pod spec's volumes and its containers' volume mounts and devices, checked as kube-apiserver 1.34
 * checks them (`ValidateVolumes`, `validateVolumeSource`, `ValidateVolumeMounts`, `ValidateVolumeDevices`
 * in pkg/apis/core/validation): names are unique DNS labels, each volume has exactly one source, the
 * sources operators use most have their required fields (emptyDir, hostPath, secret, nfs,
 * persistentVolumeClaim, downwardAPI, configMap, projected, csi, ephemeral), and a mount names a
 * volume that passed, at a unique path. The other sources count as a source without checks of their own.
 *
 * Paths and words are the apiserver's, its slips included (`downwarAPI`, `cephFS`, a mount's `subPath`
 * without its index).
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { canonicalQuantity, decimalOfWritten, duplicate, FieldPath, forbidden, invalid, notFound, notSupported, required, tooLong, type FieldError } from '@kubekit/core';
import { isDNS1123Label, isDNS1123Subdomain } from './internal/semantics.js';
import { type JSONObject } from './internal/own.js';
import { append, int, isSet, list, obj, str, validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from './internal/podFields.js';
import { validateObjectFieldSelector, validateResourceFieldSelector } from './internal/downwardAPI.js';
import { validateClaimTemplate } from './claimValidation.js';

/** The volume sources in the order `validateVolumeSource` looks at them, with the path its "more than 1" error names. */
const volumeSources: readonly (readonly [string, string])[] = [
  ['emptyDir', 'emptyDir'], ['hostPath', 'hostPath'], ['gitRepo', 'gitRepo'], ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'], ['secret', 'secret'], ['nfs', 'nfs'], ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'], ['flocker', 'flocker'], ['persistentVolumeClaim', 'persistentVolumeClaim'], ['rbd', 'rbd'],
  ['cinder', 'cinder'], ['cephfs', 'cephFS'], ['quobyte', 'quobyte'], ['downwardAPI', 'downwarAPI'], ['fc', 'fc'],
  ['flexVolume', 'flexVolume'], ['configMap', 'configMap'], ['azureFile', 'azureFile'], ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'], ['portworxVolume', 'portworxVolume'], ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'], ['projected', 'projected'], ['scaleIO', 'scaleIO'], ['csi', 'csi'], ['ephemeral', 'ephemeral'],
  ['image', 'image'],
];

const fileModeError = 'must be a number between 0 and 0777 (octal), both inclusive';
const hostPathTypes = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const pullPolicies = ['Always', 'IfNotPresent', 'Never'];
const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'];
const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'];
/** `validVolumeDownwardAPIFieldPathExpressions`, sorted as `sets.List` prints them. */
const volumeFieldPaths = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** The volumes that passed validation by name (mounts may name only these), and the errors. */
export interface ValidatedVolumes {
  volumes: Map<string, JSONObject>;
  errors: FieldError[];
}

/** `ValidateVolumes`: each volume's source, then its name (required, a DNS label, unique). */
export function validateVolumes(volumes: unknown[], path: FieldPath): ValidatedVolumes {
  const out: ValidatedVolumes = { volumes: new Map(), errors: [] };
  volumes.forEach((v, i) => {
    const vol = obj(v);
    const p = path.index(i);
    const name = str(vol.name);
    const errs = validateVolumeSource(vol, p);
    if (name === '') errs.push(required(p.child('name'), ''));
    else for (const msg of isDNS1123Label(name)) errs.push(invalid(p.child('name'), name, msg));
    // Only volumes without errors are remembered, for duplicates as for mounts.
    if (out.volumes.has(name)) errs.push(duplicate(p.child('name'), name));
    if (errs.length === 0) out.volumes.set(name, vol);
    else append(out.errors, errs);
  });
  return out;
}

/** `validateVolumeSource`: exactly one source, and that source's own fields. */
function validateVolumeSource(vol: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const [key, forbiddenPath] of volumeSources) {
    if (!isSet(vol[key])) continue;
    // emptyDir comes first, so it never meets another source before it.
    if (count > 0) {
      errs.push(forbidden(path.child(forbiddenPath), 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    append(errs, validateSource(key, obj(vol[key]), path.child(key)));
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

function validateSource(key: string, source: JSONObject, path: FieldPath): FieldError[] {
  switch (key) {
    case 'emptyDir': {
      const limit = canonicalQuantity(source.sizeLimit);
      const value = limit === undefined ? undefined : decimalOfWritten(limit);
      return value !== undefined && value.negative && value.digits !== '' ? [forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')] : [];
    }
    case 'hostPath': {
      const p = str(source.path);
      if (p === '') return [required(path.child('path'), '')];
      const errs = validatePathNoBacksteps(p, path.child('path'));
      if (isSet(source.type) && !hostPathTypes.includes(str(source.type))) errs.push(notSupported(path.child('type'), source.type, hostPathTypes));
      return errs;
    }
    case 'secret':
      return [
        ...(str(source.secretName) === '' ? [required(path.child('secretName'), '')] : []),
        ...validateMode(source.defaultMode, path.child('defaultMode')),
        ...list(source.items).flatMap((kp, i) => validateKeyToPath(obj(kp), path.child('items').index(i))),
      ];
    case 'configMap':
      return [
        ...(str(source.name) === '' ? [required(path.child('name'), '')] : []),
        ...validateMode(source.defaultMode, path.child('defaultMode')),
        ...list(source.items).flatMap((kp, i) => validateKeyToPath(obj(kp), path.child('items').index(i))),
      ];
    case 'nfs':
      return validateNFSVolumeSource(source, path);
    case 'persistentVolumeClaim':
      return str(source.claimName) === '' ? [required(path.child('claimName'), '')] : [];
    case 'downwardAPI':
      return [
        ...validateMode(source.defaultMode, path.child('defaultMode')),
        // Each item's errors are reported at the source's path, not the item's.
        ...list(source.items).flatMap((f) => validateDownwardAPIFile(obj(f), path)),
      ];
    case 'projected':
      return [...validateMode(source.defaultMode, path.child('defaultMode')), ...validateProjectionSources(source, path)];
    case 'csi': {
      const errs: FieldError[] = [];
      append(errs, validateCSIDriverName(str(source.driver), path.child('driver')));
      if (isSet(source.nodePublishSecretRef)) {
        const name = str(obj(source.nodePublishSecretRef).name);
        if (name === '') errs.push(required(path.child('nodePublishSecretRef', 'name'), ''));
        else for (const msg of isDNS1123Subdomain(name)) errs.push(invalid(path.child('name'), name, msg));
      }
      return errs;
    }
    case 'ephemeral':
      return isSet(source.volumeClaimTemplate) ? validateClaimTemplate(source.volumeClaimTemplate, path.child('volumeClaimTemplate')) : [required(path.child('volumeClaimTemplate'), '')];
    // The ImageVolume feature is off in 1.34: the apiserver drops image volumes (and their mounts) before
    // validation, which kubekit does not; it counts the source and checks nothing of it.
    default:
      return [];
  }
}

/** `validatePullPolicy`. */
export function validatePullPolicy(policy: unknown, path: FieldPath): FieldError[] {
  const p = str(policy);
  if (pullPolicies.includes(p)) return [];
  return p === '' ? [required(path, '')] : [notSupported(path, p, pullPolicies)];
}

/** `ValidateCSIDriverName`: required, at most 63 characters, a DNS subdomain in lower case. */
export function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (driver === '') errs.push(required(path, ''));
  if (driver.length > 63) errs.push(tooLong(path, '', 63));
  for (const msg of isDNS1123Subdomain(driver.toLowerCase())) errs.push(invalid(path, driver, msg));
  return errs;
}

/** A file mode: 0 to 0777. */
function validateMode(mode: unknown, path: FieldPath): FieldError[] {
  const m = int(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [invalid(path, m, fileModeError)] : [];
}

/** `validateKeyToPath`: a key, a local path, a file mode. */
function validateKeyToPath(kp: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(kp.key) === '') errs.push(required(path.child('key'), ''));
  if (str(kp.path) === '') errs.push(required(path.child('path'), ''));
  append(errs, validateLocalNonReservedPath(str(kp.path), path.child('path')));
  append(errs, validateMode(kp.mode, path.child('mode')));
  return errs;
}

/** `validateDownwardAPIVolumeFile`. */
function validateDownwardAPIFile(file: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(file.path) === '') errs.push(required(path.child('path'), ''));
  append(errs, validateLocalNonReservedPath(str(file.path), path.child('path')));
  if (isSet(file.fieldRef)) {
    append(errs, validateObjectFieldSelector(obj(file.fieldRef), volumeFieldPaths, path.child('fieldRef')));
    if (isSet(file.resourceFieldRef)) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isSet(file.resourceFieldRef)) {
    append(errs, validateResourceFieldSelector(obj(file.resourceFieldRef), path.child('resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  append(errs, validateMode(file.mode, path.child('mode')));
  return errs;
}

/** `validateProjectionSources`: one source per item, each with its fields, no path twice. */
function validateProjectionSources(projected: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const paths = new Set<string>();
  const claim = (p: string, bad: unknown): void => {
    if (paths.has(p)) errs.push(invalid(path, bad, 'conflicting duplicate paths'));
    else paths.add(p);
  };
  list(projected.sources).forEach((s, i) => {
    const source = obj(s);
    const sp = path.child('sources').index(i);
    let count = 0;
    for (const kind of ['secret', 'configMap']) {
      if (!isSet(source[kind])) continue;
      count++;
      const ref = obj(source[kind]);
      const pp = sp.child(kind);
      if (str(ref.name) === '') errs.push(required(pp.child('name'), ''));
      list(ref.items).forEach((kp, j) => {
        append(errs, validateKeyToPath(obj(kp), pp.child('items').index(j)));
        const p = str(obj(kp).path);
        if (p !== '') claim(p, str(ref.name));
      });
    }
    if (isSet(source.downwardAPI)) {
      count++;
      for (const f of list(obj(source.downwardAPI).items)) {
        append(errs, validateDownwardAPIFile(obj(f), sp.child('downwardAPI')));
        const p = str(obj(f).path);
        if (p !== '') claim(p, p);
      }
    }
    if (isSet(source.serviceAccountToken)) {
      count++;
      const token = obj(source.serviceAccountToken);
      const pp = sp.child('serviceAccountToken');
      const seconds = int(token.expirationSeconds) ?? 0;
      if (seconds < 600) errs.push(invalid(pp.child('expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalid(pp.child('expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
      // The path's errors name the projected source's path, not the token's.
      if (str(token.path) === '') errs.push(required(path.child('path'), ''));
      else append(errs, validateLocalNonReservedPath(str(token.path), path.child('path')));
    }
    // clusterTrustBundle and podCertificate (features off in 1.34) count without checks of their own.
    for (const kind of ['clusterTrustBundle', 'podCertificate']) if (isSet(source[kind])) count++;
    if (count > 1) errs.push(forbidden(sp, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

/** What `ValidateVolumeMounts` and `ValidateVolumeDevices` need of a container. */
export function validateVolumeMounts(container: JSONObject, volumes: Map<string, JSONObject>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const devices = new Map<string, string>();
  for (const d of list(container.volumeDevices)) devices.set(str(obj(d).name), str(obj(d).devicePath));
  const devicePaths = new Set(devices.values());
  const mountPoints = new Set<string>();
  const privileged = obj(container.securityContext).privileged === true;
  list(container.volumeMounts).forEach((m, i) => {
    const mount = obj(m);
    const p = path.index(i);
    const name = str(mount.name);
    const mountPath = str(mount.mountPath);
    if (name === '') errs.push(required(p.child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(p.child('name'), name));
    if (mountPath === '') errs.push(required(p.child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (devices.has(name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errs.push(invalid(p.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    // The apiserver names these without the mount's index.
    const subPath = str(mount.subPath);
    const subPathExpr = str(mount.subPathExpr);
    if (subPath !== '') append(errs, validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr !== '') {
      if (subPath !== '') errs.push(invalid(p.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      append(errs, validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
    if (isSet(mount.mountPropagation)) {
      const propagation = str(mount.mountPropagation);
      const pp = path.child('mountPropagation');
      if (!mountPropagations.includes(propagation)) errs.push(notSupported(pp, propagation, mountPropagations));
      if (propagation === 'Bidirectional' && !privileged) errs.push(forbidden(pp, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    append(errs, validateRecursiveReadOnly(mount, path.child('recursiveReadOnly')));
  });
  return errs;
}

/** `validateMountRecursiveReadOnly`. */
function validateRecursiveReadOnly(mount: JSONObject, path: FieldPath): FieldError[] {
  if (!isSet(mount.recursiveReadOnly)) return [];
  const mode = str(mount.recursiveReadOnly);
  if (mode === 'Disabled') return [];
  if (mode !== 'Enabled' && mode !== 'IfPossible') return [notSupported(path, mode, recursiveReadOnlyModes)];
  const errs: FieldError[] = [];
  if (mount.readOnly !== true) errs.push(forbidden(path, 'may only be specified when readOnly is true'));
  if (isSet(mount.mountPropagation) && mount.mountPropagation !== 'None') errs.push(forbidden(path, 'may only be specified when mountPropagation is None or not specified'));
  return errs;
}

/** `ValidateVolumeDevices`: block devices of claims, at unique paths that no mount uses. */
export function validateVolumeDevices(container: JSONObject, volumes: Map<string, JSONObject>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mounts = new Map<string, string>();
  for (const m of list(container.volumeMounts)) mounts.set(str(obj(m).name), str(obj(m).mountPath));
  const mountPaths = new Set(mounts.values());
  const names = new Set<string>();
  const paths = new Set<string>();
  list(container.volumeDevices).forEach((d, i) => {
    const device = obj(d);
    const p = path.index(i);
    const name = str(device.name);
    const devicePath = str(device.devicePath);
    const volume = volumes.get(name);
    if (name === '') errs.push(required(p.child('name'), ''));
    if (names.has(name)) errs.push(invalid(p.child('name'), name, 'must be unique'));
    if (volume !== undefined && !isSet(volume.persistentVolumeClaim) && !isSet(volume.ephemeral)) {
      errs.push(invalid(p.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    }
    if (volume === undefined) errs.push(notFound(p.child('name'), name));
    if (devicePath === '') errs.push(required(p.child('devicePath'), ''));
    if (paths.has(devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath !== '' && devicePath.split('/').includes('..')) errs.push(invalid(p.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mounts.has(name)) errs.push(invalid(p.child('name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errs.push(invalid(p.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name !== '') names.add(name);
  });
  return errs;
}

/** `validateNFSVolumeSource` (a pod's volume and a PersistentVolume's source): a server, and an absolute path. */
export function validateNFSVolumeSource(source: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (str(source.server) === '') errs.push(required(path.child('server'), ''));
  if (str(source.path) === '') errs.push(required(path.child('path'), ''));
  if (!str(source.path).startsWith('/')) errs.push(invalid(path.child('path'), str(source.path), 'must be an absolute path'));
  return errs;
}
