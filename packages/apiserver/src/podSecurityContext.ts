/**
 * Pod and container security contexts, checked as kube-apiserver 1.34 checks them
 * (`validatePodSpecSecurityContext`, `ValidateSecurityContext` in pkg/apis/core/validation): user and
 * group IDs in 0…2^31-1, `shareProcessNamespace` not with `hostPID`, the fsGroup change policy, seccomp
 * and AppArmor profiles, and a container's privilege escalation combined with `privileged` or
 * CAP_SYS_ADMIN.
 *
 * Not checked: sysctls, Windows options, the supplemental groups and SELinux change policies,
 * `procMount`, and whether profiles match the seccomp and AppArmor annotations of a pod.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { FieldError, FieldPath, goJSON, goJSONString, invalid, notSupported, required, tooLong, trimSpace } from '@kubekit/core';
import { isObject, type JSONObject } from './internal/own.js';
import { append, int64, isSet, list, str, validateLocalDescendingPath } from './internal/podFields.js';

const maxID = 2147483647n;
const idRangeError = `must be between 0 and ${maxID}, inclusive`;
const fsGroupChangePolicies = ['Always', 'OnRootMismatch'];
const profileTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** `IsValidUserID` and `IsValidGroupID` (the same range). */
function validateID(value: unknown, path: FieldPath): FieldError[] {
  const id = int64(value);
  return id !== undefined && (id < 0n || id > maxID) ? [invalid(path, value, idRangeError)] : [];
}

/** `validatePodSpecSecurityContext` (`hostPID` is a member of the v1 pod spec, not of its context). */
export function validatePodSecurityContext(spec: JSONObject, path: FieldPath): FieldError[] {
  if (!isObject(spec.securityContext)) return [];
  const sc = spec.securityContext;
  const errs = [
    ...validateID(sc.fsGroup, path.child('fsGroup')),
    ...validateID(sc.runAsUser, path.child('runAsUser')),
    ...validateID(sc.runAsGroup, path.child('runAsGroup')),
  ];
  list(sc.supplementalGroups).forEach((g, i) => errs.push(...validateID(g, path.child('supplementalGroups').index(i))));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(invalid(path.child('shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (isSet(sc.fsGroupChangePolicy) && !fsGroupChangePolicies.includes(str(sc.fsGroupChangePolicy))) {
    errs.push(notSupported(path.child('fsGroupChangePolicy'), str(sc.fsGroupChangePolicy), fsGroupChangePolicies));
  }
  append(errs, validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  append(errs, validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

/** `ValidateSecurityContext` of a container. */
export function validateContainerSecurityContext(value: unknown, path: FieldPath): FieldError[] {
  if (!isObject(value)) return [];
  const sc = value;
  const errs = [...validateID(sc.runAsUser, path.child('runAsUser')), ...validateID(sc.runAsGroup, path.child('runAsGroup'))];
  append(errs, validateSeccompProfile(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    // The context prints as the apiserver's internal Go struct marshalled to JSON.
    if (sc.privileged === true) errs.push(invalidContext(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    const add = isObject(sc.capabilities) ? list(sc.capabilities.add) : [];
    for (const cap of add) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalidContext(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  append(errs, validateAppArmorProfile(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

/** An Invalid error on the whole context, which Go prints as its internal struct marshalled to JSON. */
function invalidContext(path: FieldPath, sc: JSONObject, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, sc, detail, securityContextJSON(sc));
}

/** `json.Marshal` of an internal Go struct: its field names in declaration order, unset pointers as null. */
function structJSON(fields: readonly (readonly [string, string])[]): string {
  return `{${fields.map(([name, value]) => `${goJSONString(name)}:${value}`).join(',')}}`;
}

function pointer(v: unknown): string {
  return isSet(v) ? goJSON(v) : 'null';
}

function seccompJSON(v: unknown): string {
  return isObject(v) ? structJSON([['Type', goJSON(str(v.type))], ['LocalhostProfile', pointer(v.localhostProfile)]]) : 'null';
}

/** A `core.SecurityContext` as the apiserver prints it in an error. */
function securityContextJSON(sc: JSONObject): string {
  const caps = sc.capabilities;
  const se = sc.seLinuxOptions;
  const win = sc.windowsOptions;
  const armor = sc.appArmorProfile;
  return structJSON([
    ['Capabilities', isObject(caps) ? structJSON([['Add', pointer(caps.add)], ['Drop', pointer(caps.drop)]]) : 'null'],
    ['Privileged', pointer(sc.privileged)],
    ['SELinuxOptions', isObject(se) ? structJSON(['User', 'Role', 'Type', 'Level'].map((f) => [f, goJSON(str(se[f.toLowerCase()]))] as const)) : 'null'],
    ['WindowsOptions', isObject(win) ? structJSON([['GMSACredentialSpecName', pointer(win.gmsaCredentialSpecName)], ['GMSACredentialSpec', pointer(win.gmsaCredentialSpec)], ['RunAsUserName', pointer(win.runAsUserName)], ['HostProcess', pointer(win.hostProcess)]]) : 'null'],
    ['RunAsUser', pointer(sc.runAsUser)],
    ['RunAsGroup', pointer(sc.runAsGroup)],
    ['RunAsNonRoot', pointer(sc.runAsNonRoot)],
    ['ReadOnlyRootFilesystem', pointer(sc.readOnlyRootFilesystem)],
    ['AllowPrivilegeEscalation', pointer(sc.allowPrivilegeEscalation)],
    ['ProcMount', pointer(sc.procMount)],
    ['SeccompProfile', seccompJSON(sc.seccompProfile)],
    ['AppArmorProfile', isObject(armor) ? structJSON([['Type', goJSON(str(armor.type))], ['LocalhostProfile', pointer(armor.localhostProfile)]]) : 'null'],
  ]);
}

/** `validateSeccompProfileField`: a known type, and a local profile path exactly for `Localhost`. */
function validateSeccompProfile(value: unknown, path: FieldPath): FieldError[] {
  if (!isObject(value)) return [];
  const errs: FieldError[] = [];
  const type = str(value.type);
  if (type === '') errs.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!profileTypes.includes(type)) errs.push(notSupported(path.child('type'), type, profileTypes));
  if (type === 'Localhost') {
    if (!isSet(value.localhostProfile)) errs.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else append(errs, validateLocalDescendingPath(str(value.localhostProfile), path.child('localhostProfile')));
  } else if (isSet(value.localhostProfile)) {
    errs.push(new FieldError('FieldValueInvalid', path.child('localhostProfile'), value, 'can only be set when seccomp type is Localhost', seccompJSON(value)));
  }
  return errs;
}

/** `ValidateAppArmorProfileField`. */
function validateAppArmorProfile(value: unknown, path: FieldPath): FieldError[] {
  if (!isObject(value)) return [];
  const errs: FieldError[] = [];
  const type = str(value.type);
  const local = value.localhostProfile;
  switch (type) {
    case 'Localhost':
      if (!isSet(local)) {
        errs.push(required(path.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
      } else {
        const profile = str(local);
        if (trimSpace(profile) !== profile) errs.push(invalid(path.child('localhostProfile'), profile, 'must not be padded with whitespace'));
        else if (profile === '') errs.push(required(path.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
        if (Buffer.byteLength(profile, 'utf8') > 4095) errs.push(tooLong(path.child('localhostProfile'), '', 4095));
      }
      break;
    case 'RuntimeDefault': case 'Unconfined':
      if (isSet(local)) errs.push(invalid(path.child('localhostProfile'), local, 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errs.push(required(path.child('type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(notSupported(path.child('type'), type, profileTypes));
  }
  return errs;
}
