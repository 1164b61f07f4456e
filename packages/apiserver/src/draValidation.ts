/**
 * The validation of the resource.k8s.io/v1 kinds (pkg/apis/resource/validation of kube-apiserver 1.34.4),
 * in its order and words, for the strategies of draKinds.ts: names, device requests and sub-requests,
 * allocation modes, tolerations, constraints, opaque configurations, the limits on list sizes, a slice's
 * pool, node selection and devices (attributes, capacities), a claim's status (reservations, allocation,
 * devices' status), and the fields fixed once created.
 *
 * CEL selectors are compiled in the DRA environment, `cel.bind` and the cost estimate included
 * (`deviceSelectorIssue` of `@kubekit/cel`).
 */
import { deviceSelectorIssue } from '@kubekit/cel';
import { FieldError, FieldPath, duplicate, forbidden, goJSON, internalError, invalid, notSupported, required, tooLong, tooMany, type KubeObject } from '@kubekit/core';
import { validateLabels } from '@kubekit/selectors';
import { wasEmpty } from './builtinGoJSON.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isObject, type JSONObject } from './internal/own.js';
import { goJSONInOrder } from './internal/rawJSON.js';
import { isSet, list, obj, str } from './internal/podFields.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './internal/semantics.js';
import { validateAnnotations, validateObjectMeta, validateStrategyObjectMetaUpdate } from './objectMeta.js';
import { validateMetaConditions } from './policyKinds.js';
import { validateNodeSelector } from './podScheduling.js';
import { ipv6Text, parseIP } from './podWarnings.js';
import { isCIDRSloppy } from './serviceValidation.js';
import { validateCSIDriverName } from './podVolumes.js';
import { isExtended } from './podResources.js';

const deviceRequestsMaxSize = 32;
const deviceConstraintsMaxSize = 32;
const deviceConfigMaxSize = 32;
const deviceSelectorsMaxSize = 32;
const firstAvailableMaxSize = 8;
const celExpressionMaxLength = 10 * 1024;
const opaqueParametersMaxLength = 10 * 1024;
const reservedForMaxSize = 256;
const allocationResultsMaxSize = 32;
const deviceStatusMaxConditions = 8;
const deviceStatusDataMaxLength = 10 * 1024;
const networkDataMaxIPs = 16;
const interfaceNameMaxLength = 256;
const hardwareAddressMaxLength = 128;
const sliceMaxDevices = 128;
const maxAttributesAndCapacities = 32;
const deviceMaxDomainLength = 63;
const deviceMaxIDLength = 32;
const attributeMaxValueLength = 64;
const poolNameMaxLength = 253;
const requestNameRefDetail = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
const cIdentifierMessage = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";

type Path = FieldPath;
const int = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);
const label = (value: string, path: Path): FieldError[] => isDNS1123Label(value).map((m) => invalid(path, value, m));
const subdomain = (value: string, path: Path): FieldError[] => isDNS1123Subdomain(value).map((m) => invalid(path, value, m));

/** `validateSlice`: each item, then the size. */
function validateSlice(items: unknown, max: number, item: (v: unknown, p: Path) => FieldError[], path: Path): FieldError[] {
  const all = list(items);
  const errs = all.flatMap((v, i) => item(v, path.index(i)));
  if (max >= 0 && all.length > max) errs.push(tooMany(path, all.length, max));
  return errs;
}

/** `validateSet`: `validateSlice`, then each repeated key (at the item's `member`, or the item; `keyText`: how Go prints a key that is not JSON's). */
function validateSet(items: unknown, max: number, item: (v: unknown, p: Path) => FieldError[], key: (v: unknown) => unknown, path: Path, member?: string, keyText?: string): FieldError[] {
  const errs = validateSlice(items, max, item, path);
  const seen = new Set<string>();
  list(items).forEach((v, i) => {
    const k = key(v);
    const id = JSON.stringify(k);
    const at = member === undefined ? path.index(i) : path.index(i).child(member);
    if (seen.has(id)) errs.push(keyText === undefined ? duplicate(at, k) : new FieldError('FieldValueDuplicate', at, k, '', keyText));
    else seen.add(id);
  });
  return errs;
}

/** `truncateIfTooLong`: a long map key shortened in the middle in the path. */
function truncated(key: string, max: number): string {
  const limit = Math.max(max, 16);
  if (key.length <= limit) return key;
  const remaining = limit - 3;
  return `${key.slice(0, Math.floor((remaining + 1) / 2))}...${key.slice(key.length - Math.floor(remaining / 2))}`;
}

/** `validateMap`: each key and its value (Go visits a map in random order; kubekit in the object's). */
function validateMap(m: unknown, truncateAt: number, key: (k: string, p: Path) => FieldError[], value: (v: unknown, p: Path) => FieldError[], path: Path): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(obj(m))) {
    const p = path.key(truncated(k, truncateAt));
    errs.push(...key(k, p), ...value(v, p));
  }
  return errs;
}

function validatePoolName(name: string, path: Path): FieldError[] {
  if (name === '') return [required(path, '')];
  const errs: FieldError[] = [];
  if (name.length > poolNameMaxLength) errs.push(tooLong(path, '', poolNameMaxLength));
  for (const part of name.split('/')) errs.push(...subdomain(part, path));
  return errs;
}

function validateCIdentifier(id: string, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  if (id.length > deviceMaxIDLength) errs.push(tooLong(path, '', deviceMaxIDLength));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(id)) errs.push(invalid(path, id, cIdentifierMessage));
  return errs;
}

/** `validateQualifiedName` of an attribute or capacity name: a C identifier, with a driver-like domain before a `/`. */
function validateQualifiedName(name: string, path: Path): FieldError[] {
  if (name === '') return [required(path, 'name required')];
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(parts[0], path);
  if (parts.length !== 2) return [];
  const errs: FieldError[] = [];
  if (parts[0] === '') errs.push(required(path, 'the domain must not be empty'));
  else errs.push(...validateCSIDriverName(parts[0], path));
  if (parts[1] === '') errs.push(required(path, 'the name must not be empty'));
  else errs.push(...validateCIdentifier(parts[1], path));
  return errs;
}

function validateFullyQualifiedName(name: string, path: Path): FieldError[] {
  const errs = validateQualifiedName(name, path);
  if (name !== '' && !name.includes('/')) errs.push(invalid(path, name, 'must include a domain'));
  return errs;
}

/** The request names of a claim: each request's, with the names of its sub-requests. */
type RequestNames = Map<string, Set<string> | undefined>;

function gatherRequestNames(devices: JSONObject): RequestNames {
  const names: RequestNames = new Map();
  for (const r of list(devices.requests).map(obj)) {
    const subs = list(r.firstAvailable);
    names.set(str(r.name), subs.length === 0 ? undefined : new Set(subs.map((s) => str(obj(s).name))));
  }
  return names;
}

function hasRequest(names: RequestNames, ref: string): boolean {
  const segments = ref.split('/');
  if (segments.length > 2 || !names.has(segments[0])) return false;
  return segments.length === 1 || (names.get(segments[0])?.has(segments[1]) ?? false);
}

function validateRequestNameRef(name: string, path: Path, names: RequestNames): FieldError[] {
  const segments = name.split('/');
  if (segments.length > 2) return [invalid(path, name, requestNameRefDetail)];
  const errs = segments.flatMap((s) => label(s, path));
  if (!hasRequest(names, name)) errs.push(invalid(path, name, requestNameRefDetail));
  return errs;
}

/** `validateCELSelector`: the length, then the compilation (in the environment of stored expressions when `stored`). */
function validateCELSelector(cel: JSONObject, path: Path, stored: boolean): FieldError[] {
  const expression = str(cel.expression);
  if (expression.length > celExpressionMaxLength) return [tooLong(path.child('expression'), '', celExpressionMaxLength)];
  const issue = deviceSelectorIssue(expression, stored ? 'stored' : 'new');
  if (issue === undefined) return [];
  const at = path.child('expression');
  return [issue.type === 'Forbidden' ? forbidden(at, issue.detail) : issue.type === 'InternalError' ? internalError(at, issue.detail) : invalid(at, expression, issue.detail)];
}

function validateSelectors(selectors: unknown, path: Path, stored: boolean): FieldError[] {
  return validateSlice(selectors, deviceSelectorsMaxSize, (s, p) => (isObject(obj(s).cel) ? validateCELSelector(obj(obj(s).cel), p.child('cel'), stored) : [required(p.child('cel'), '')]), path);
}

function validateAllocationMode(r: JSONObject, path: Path): FieldError[] {
  const count = int(r.count);
  switch (str(r.allocationMode)) {
    case 'All':
      return count !== 0 ? [invalid(path.child('count'), count, "must not be specified when allocationMode is 'All'")] : [];
    case 'ExactCount':
      return count <= 0 ? [invalid(path.child('count'), count, 'must be greater than zero')] : [];
    default:
      return [notSupported(path.child('allocationMode'), str(r.allocationMode), ['All', 'ExactCount'])];
  }
}

function validateDeviceClassName(name: string, path: Path): FieldError[] {
  return name === '' ? [required(path, '')] : subdomain(name, path);
}

function validateToleration(t: JSONObject, path: Path): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(t.key);
  if (key !== '') errs.push(...isQualifiedName(key).map((m) => invalid(path.child('key'), key, m)));
  const value = str(t.value);
  switch (str(t.operator)) {
    case 'Exists':
      if (value !== '') errs.push(invalid(path.child('value'), value, 'must be empty for operator `Exists`'));
      break;
    case 'Equal':
      errs.push(...isValidLabelValue(value).map((m) => invalid(path.child('value'), value, m)));
      break;
    case '':
      errs.push(required(path.child('operator'), ''));
      break;
    default:
      errs.push(notSupported(path.child('operator'), str(t.operator), ['Equal', 'Exists']));
  }
  const effect = str(t.effect);
  if (effect !== '' && effect !== 'NoSchedule' && effect !== 'NoExecute') errs.push(notSupported(path.child('effect'), effect, ['NoExecute', 'NoSchedule']));
  return errs;
}

/** What an exact request and a sub-request share: class, selectors, allocation mode, tolerations. */
function validateRequestBody(r: JSONObject, path: Path, stored: boolean): FieldError[] {
  return [
    ...validateDeviceClassName(str(r.deviceClassName), path.child('deviceClassName')),
    ...validateSelectors(r.selectors, path.child('selectors'), stored),
    ...validateAllocationMode(r, path),
    ...list(r.tolerations).flatMap((t, i) => validateToleration(obj(t), path.child('tolerations').index(i))),
  ];
}

function validateDeviceRequest(request: unknown, path: Path, stored: boolean): FieldError[] {
  const r = obj(request);
  const errs = label(str(r.name), path.child('name'));
  let kinds = 0;
  if (list(r.firstAvailable).length > 0) {
    kinds++;
    errs.push(...validateSet(r.firstAvailable, firstAvailableMaxSize, (s, p) => [...label(str(obj(s).name), p.child('name')), ...validateRequestBody(obj(s), p, stored)], (s) => str(obj(s).name), path.child('firstAvailable'), 'name'));
  }
  if (isObject(r.exactly)) {
    kinds++;
    errs.push(...validateRequestBody(r.exactly, path.child('exactly'), stored));
  }
  if (kinds === 0) errs.push(required(path, 'exactly one of `exactly` or `firstAvailable` is required'));
  if (kinds > 1) errs.push(invalid(path, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  return errs;
}

/** `validateRawExtension` of opaque parameters (or a device's status data). */
function validateRawExtension(value: unknown, path: Path, stored: boolean, max: number): FieldError[] {
  if (value === undefined) return [required(path, '')];
  if (!stored && goJSON(value).length > max) return [tooLong(path, '', max)];
  if (value === null) return [required(path, '')];
  if (!isObject(value)) return [new FieldError('FieldValueInvalid', path, '<value omitted>', 'must be a valid JSON object', '"<value omitted>"')];
  return [];
}

function validateDeviceConfiguration(c: JSONObject, path: Path, stored: boolean): FieldError[] {
  if (!isObject(c.opaque)) return [required(path.child('opaque'), '')];
  const p = path.child('opaque');
  return [...validateCSIDriverName(str(c.opaque.driver), p.child('driver')), ...validateRawExtension(c.opaque.parameters, p.child('parameters'), stored, opaqueParametersMaxLength)];
}

function validateRequestRefs(refs: unknown, path: Path, names: RequestNames): FieldError[] {
  return validateSet(refs, deviceRequestsMaxSize, (n, p) => validateRequestNameRef(str(n), p, names), str, path);
}

function validateConstraint(c: JSONObject, path: Path, names: RequestNames): FieldError[] {
  const errs = validateRequestRefs(c.requests, path.child('requests'), names);
  if (isSet(c.matchAttribute)) errs.push(...validateFullyQualifiedName(str(c.matchAttribute), path.child('matchAttribute')));
  else if (isSet(c.distinctAttribute)) errs.push(...validateFullyQualifiedName(str(c.distinctAttribute), path.child('distinctAttribute')));
  else errs.push(required(path.child('matchAttribute'), ''));
  return errs;
}

/** `validateResourceClaimSpec` (`stored`: the CEL expressions were stored before). */
function validateClaimSpec(spec: unknown, path: Path, stored: boolean): FieldError[] {
  const devices = obj(obj(spec).devices);
  const p = path.child('devices');
  const names = gatherRequestNames(devices);
  return [
    ...validateSet(devices.requests, deviceRequestsMaxSize, (r, q) => validateDeviceRequest(r, q, stored), (r) => str(obj(r).name), p.child('requests'), 'name'),
    ...validateSlice(devices.constraints, deviceConstraintsMaxSize, (c, q) => validateConstraint(obj(c), q, names), p.child('constraints')),
    ...validateSlice(devices.config, deviceConfigMaxSize, (c, q) => [...validateRequestRefs(obj(c).requests, q.child('requests'), names), ...validateDeviceConfiguration(obj(c), q, stored)], p.child('config')),
  ];
}

// Internal Go structs as an error message prints them (`%v` of a struct is JSON with Go field names).
type GoMember = readonly [goName: string, json: string, kind: string];
const goStructs: Record<string, readonly GoMember[]> = {
  ResourceClaimSpec: [['Devices', 'devices', 'struct:DeviceClaim']],
  DeviceClaim: [['Requests', 'requests', 'list:DeviceRequest'], ['Constraints', 'constraints', 'list:DeviceConstraint'], ['Config', 'config', 'list:DeviceClaimConfiguration']],
  DeviceRequest: [['Name', 'name', 'string'], ['Exactly', 'exactly', 'ptr:ExactDeviceRequest'], ['FirstAvailable', 'firstAvailable', 'list:DeviceSubRequest']],
  ExactDeviceRequest: [['DeviceClassName', 'deviceClassName', 'string'], ['Selectors', 'selectors', 'list:DeviceSelector'], ['AllocationMode', 'allocationMode', 'string'], ['Count', 'count', 'int'], ['AdminAccess', 'adminAccess', 'value'], ['Tolerations', 'tolerations', 'list:DeviceToleration'], ['Capacity', 'capacity', 'ptr:CapacityRequirements']],
  DeviceSubRequest: [['Name', 'name', 'string'], ['DeviceClassName', 'deviceClassName', 'string'], ['Selectors', 'selectors', 'list:DeviceSelector'], ['AllocationMode', 'allocationMode', 'string'], ['Count', 'count', 'int'], ['Tolerations', 'tolerations', 'list:DeviceToleration'], ['Capacity', 'capacity', 'ptr:CapacityRequirements']],
  DeviceSelector: [['CEL', 'cel', 'ptr:CELDeviceSelector']],
  CELDeviceSelector: [['Expression', 'expression', 'string']],
  DeviceToleration: [['Key', 'key', 'string'], ['Operator', 'operator', 'string'], ['Value', 'value', 'string'], ['Effect', 'effect', 'string'], ['TolerationSeconds', 'tolerationSeconds', 'value']],
  DeviceConstraint: [['Requests', 'requests', 'value'], ['MatchAttribute', 'matchAttribute', 'value'], ['DistinctAttribute', 'distinctAttribute', 'value']],
  DeviceClaimConfiguration: [['Requests', 'requests', 'value'], ['Opaque', 'opaque', 'ptr:OpaqueDeviceConfiguration']],
  OpaqueDeviceConfiguration: [['Driver', 'driver', 'string'], ['Parameters', 'parameters', 'raw']],
  CapacityRequirements: [['Requests', 'requests', 'value']],
  AllocationResult: [['Devices', 'devices', 'struct:DeviceAllocationResult'], ['NodeSelector', 'nodeSelector', 'ptr:NodeSelector'], ['AllocationTimestamp', 'allocationTimestamp', 'value']],
  DeviceAllocationResult: [['Results', 'results', 'list:DeviceRequestAllocationResult'], ['Config', 'config', 'list:DeviceAllocationConfiguration']],
  DeviceRequestAllocationResult: [
    ['Request', 'request', 'string'], ['Driver', 'driver', 'string'], ['Pool', 'pool', 'string'], ['Device', 'device', 'string'], ['AdminAccess', 'adminAccess', 'value'],
    ['Tolerations', 'tolerations', 'list:DeviceToleration'], ['BindingConditions', 'bindingConditions', 'value'], ['BindingFailureConditions', 'bindingFailureConditions', 'value'],
    ['ShareID', 'shareID', 'value'], ['ConsumedCapacity', 'consumedCapacity', 'value'],
  ],
  DeviceAllocationConfiguration: [['Source', 'source', 'string'], ['Requests', 'requests', 'value'], ['Opaque', 'opaque', 'ptr:OpaqueDeviceConfiguration']],
  NodeSelector: [['NodeSelectorTerms', 'nodeSelectorTerms', 'list:NodeSelectorTerm']],
  NodeSelectorTerm: [['MatchExpressions', 'matchExpressions', 'list:NodeSelectorRequirement'], ['MatchFields', 'matchFields', 'list:NodeSelectorRequirement']],
  NodeSelectorRequirement: [['Key', 'key', 'string'], ['Operator', 'operator', 'string'], ['Values', 'values', 'value']],
};

function goStructText(value: unknown, name: string): string {
  const o = obj(value);
  return `{${(goStructs[name] ?? []).map(([goName, key, kind]) => `${goJSON(goName)}:${goMemberText(o[key], kind, wasEmpty(o, key))}`).join(',')}}`;
}

/** A member's text; `emptied`: an empty list the request sent, which encodeAsGo dropped but Go holds as `[]`. */
function goMemberText(v: unknown, kind: string, emptied: boolean): string {
  const [k, type] = kind.split(':');
  switch (k) {
    case 'string': return goJSON(str(v));
    case 'int': return String(int(v));
    case 'struct': return goStructText(v, type);
    case 'ptr': return isObject(v) ? goStructText(v, type) : 'null';
    case 'list': return Array.isArray(v) ? `[${v.map((x) => goStructText(x, type)).join(',')}]` : emptied ? '[]' : 'null';
    // A RawExtension is written as the text it holds, its members in the order written.
    case 'raw': return v === undefined ? 'null' : goJSONInOrder(v);
    default: return v === undefined ? 'null' : goJSON(v);
  }
}

/** The ObjectMeta members a template's metadata may carry, in Go order (json tags, omitempty). */
const templateMetaOrder = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

function claimTemplateSpecText(spec: unknown): string {
  const meta = obj(obj(spec).metadata);
  const members = templateMetaOrder.filter((k) => isSet(meta[k]) && meta[k] !== '' && meta[k] !== 0 && !(isObject(meta[k]) && Object.keys(meta[k]).length === 0) && !(Array.isArray(meta[k]) && meta[k].length === 0));
  return `{${[...members.map((k) => `${goJSON(k)}:${goJSON(meta[k])}`), `"Spec":${goStructText(obj(spec).spec, 'ResourceClaimSpec')}`].join(',')}}`;
}

/** `ValidateImmutableField` of a spec, its value printed as the internal Go struct. */
function immutable(path: string, value: unknown, text: string): FieldError {
  return new FieldError('FieldValueInvalid', path, value ?? null, 'field is immutable', text);
}

/** `ValidateResourceClaim` past its metadata. */
export function validateResourceClaim(o: KubeObject): FieldError[] {
  return validateClaimSpec(o.spec, FieldPath.root('spec'), false);
}

/** The claim strategy's update: `ValidateResourceClaim`, then `ValidateResourceClaimUpdate` (metadata, the spec fixed, the spec again). */
export function validateResourceClaimUpdate(o: KubeObject, old: KubeObject, generic: FieldError[]): FieldError[] {
  const errs = [...generic, ...validateObjectMeta(o.metadata, true, 'subdomain'), ...validateResourceClaim(o), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata)];
  if (!semanticEqual(o.spec ?? null, old.spec ?? null)) errs.push(immutable('spec', o.spec, goStructText(o.spec, 'ResourceClaimSpec')));
  return [...errs, ...validateClaimSpec(o.spec, FieldPath.root('spec'), true)];
}

/** `ValidateResourceClaimTemplate` past its metadata: the template's metadata (labels and annotations only) and claim spec. */
export function validateResourceClaimTemplate(o: KubeObject): FieldError[] {
  return validateTemplateSpec(o.spec, false);
}

function validateTemplateSpec(spec: unknown, stored: boolean): FieldError[] {
  const s = obj(spec);
  const meta = obj(s.metadata);
  const metaPath = FieldPath.root('spec', 'metadata');
  const errs = [
    ...validateAnnotations(isObject(meta.annotations) ? (meta.annotations as Record<string, string>) : undefined, metaPath.child('annotations')),
    ...validateLabels(isObject(meta.labels) ? (meta.labels as Record<string, string>) : undefined, metaPath.child('labels')),
  ];
  for (const [key, goName] of [['name', 'name'], ['generateName', 'generateName'], ['namespace', 'namespace'], ['selfLink', 'selfLink'], ['uid', 'uID'], ['resourceVersion', 'resourceVersion'], ['generation', 'generation'], ['creationTimestamp', 'creationTimestamp'], ['deletionTimestamp', 'deletionTimestamp'], ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'], ['ownerReferences', 'ownerReferences'], ['finalizers', 'finalizers'], ['managedFields', 'managedFields']]) {
    const v = meta[key];
    const zero = v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);
    if (!zero) errs.push(forbidden(metaPath.child(goName), 'cannot be set'));
  }
  return [...errs, ...validateClaimSpec(s.spec, FieldPath.root('spec', 'spec'), stored)];
}

/** The template strategy's update: `ValidateResourceClaimTemplate`, then `ValidateResourceClaimTemplateUpdate`. */
export function validateResourceClaimTemplateUpdate(o: KubeObject, old: KubeObject, generic: FieldError[]): FieldError[] {
  const errs = [...generic, ...validateObjectMeta(o.metadata, true, 'subdomain'), ...validateResourceClaimTemplate(o), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata)];
  if (!semanticEqual(o.spec ?? null, old.spec ?? null)) errs.push(immutable('spec', o.spec, claimTemplateSpecText(o.spec)));
  return [...errs, ...validateTemplateSpec(o.spec, true)];
}

/** `validateDeviceClassSpec` (`old`: the selectors and configs unchanged since are stored). */
function validateDeviceClassSpec(spec: unknown, old: unknown): FieldError[] {
  const s = obj(spec);
  const path = FieldPath.root('spec');
  const storedSelectors = old !== undefined && semanticEqual(s.selectors ?? null, obj(old).selectors ?? null);
  const storedConfig = old !== undefined && semanticEqual(s.config ?? null, obj(old).config ?? null);
  const errs = [
    ...validateSelectors(s.selectors, path.child('selectors'), storedSelectors),
    ...validateSlice(s.config, deviceConfigMaxSize, (c, p) => validateDeviceConfiguration(obj(c), p, storedConfig), path.child('config')),
  ];
  if (isSet(s.extendedResourceName) && !isExtended(str(s.extendedResourceName))) errs.push(invalid(path.child('extendedResourceName'), str(s.extendedResourceName), 'must be a valid extended resource name'));
  return errs;
}

/** `ValidateDeviceClass` past its metadata. */
export function validateDeviceClass(o: KubeObject): FieldError[] {
  return validateDeviceClassSpec(o.spec, undefined);
}

/** The class strategy's update: `ValidateDeviceClass`, then `ValidateDeviceClassUpdate` (metadata, the spec again). */
export function validateDeviceClassUpdate(o: KubeObject, old: KubeObject, generic: FieldError[]): FieldError[] {
  return [...generic, ...validateObjectMeta(o.metadata, false, 'subdomain'), ...validateDeviceClass(o), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata), ...validateDeviceClassSpec(o.spec, old.spec)];
}

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$/;

/** The internal `DeviceAttribute` as a field error prints it. */
function attributeText(a: JSONObject): string {
  const ptr = (v: unknown): string => (isSet(v) ? goJSON(v) : 'null');
  return `{"IntValue":${ptr(a.int)},"BoolValue":${ptr(a.bool)},"StringValue":${ptr(a.string)},"VersionValue":${ptr(a.version)}}`;
}

function validateAttribute(v: unknown, path: Path): FieldError[] {
  const a = obj(v);
  const errs: FieldError[] = [];
  let n = 0;
  if (isSet(a.bool)) n++;
  if (isSet(a.int)) n++;
  if (isSet(a.string)) {
    n++;
    if (str(a.string).length > attributeMaxValueLength) errs.push(tooLong(path.child('string'), '', attributeMaxValueLength));
  }
  if (isSet(a.version)) {
    n++;
    const version = str(a.version);
    if (!semver.test(version)) errs.push(invalid(path.child('version'), version, 'must be a string compatible with semver.org spec 2.0.0'));
    if (version.length > attributeMaxValueLength) errs.push(tooLong(path.child('version'), '', attributeMaxValueLength));
  }
  if (n === 0) errs.push(required(path, 'exactly one value must be specified'));
  if (n > 1) errs.push(new FieldError('FieldValueInvalid', path, a, 'exactly one value must be specified', attributeText(a)));
  return errs;
}

function validateDevice(v: unknown, path: Path): FieldError[] {
  const d = obj(v);
  const errs = label(str(d.name), path.child('name'));
  const count = Object.keys(obj(d.attributes)).length + Object.keys(obj(d.capacity)).length;
  if (count > maxAttributesAndCapacities) errs.push(invalid(path, count, `the total number of attributes and capacities must not exceed ${maxAttributesAndCapacities}`));
  const keyMax = deviceMaxDomainLength + 1 + deviceMaxIDLength;
  errs.push(...validateMap(d.attributes, keyMax, validateQualifiedName, validateAttribute, path.child('attributes')));
  errs.push(...validateMap(d.capacity, keyMax, validateQualifiedName, (c, p) => (isSet(obj(c).requestPolicy) ? [forbidden(p.child('requestPolicy'), 'allowMultipleAllocations must be true')] : []), path.child('capacity')));
  return errs;
}

/** `validateResourceSliceSpec` (`old`: the fixed pool name, driver and node name checked against it). */
function validateSliceSpec(spec: unknown, old: unknown): FieldError[] {
  const s = obj(spec);
  const path = FieldPath.root('spec');
  const pool = obj(s.pool);
  const errs = validateCSIDriverName(str(s.driver), path.child('driver'));
  errs.push(...validatePoolName(str(pool.name), path.child('pool', 'name')));
  if (int(pool.resourceSliceCount) <= 0) errs.push(invalid(path.child('pool', 'resourceSliceCount'), int(pool.resourceSliceCount), 'must be greater than zero'));
  if (int(pool.generation) < 0) errs.push(invalid(path.child('pool', 'generation'), int(pool.generation), 'must be greater than or equal to zero'));
  if (old !== undefined) {
    const o = obj(old);
    if (str(pool.name) !== str(obj(o.pool).name)) errs.push(invalid(path.child('pool', 'name'), str(pool.name), 'field is immutable'));
    if (str(s.driver) !== str(o.driver)) errs.push(invalid(path.child('driver'), str(s.driver), 'field is immutable'));
    if ((s.nodeName ?? null) !== (o.nodeName ?? null)) errs.push(new FieldError('FieldValueInvalid', path.child('nodeName'), s.nodeName ?? null, 'field is immutable', isSet(s.nodeName) ? goJSON(s.nodeName) : 'null'));
  }
  const set: string[] = [];
  if (isSet(s.nodeName)) {
    const node = str(s.nodeName);
    if (node !== '') {
      set.push('`nodeName`');
      errs.push(...subdomain(node, path.child('nodeName')));
    } else errs.push(invalid(path.child('nodeName'), node, 'must be either unset or set to a non-empty string'));
  }
  if (isObject(s.nodeSelector)) {
    set.push('`nodeSelector`');
    errs.push(...validateNodeSelector(s.nodeSelector, path.child('nodeSelector')));
    const terms = list(s.nodeSelector.nodeSelectorTerms);
    if (terms.length !== 1) errs.push(new FieldError('FieldValueInvalid', path.child('nodeSelector', 'nodeSelectorTerms'), terms, 'must have exactly one node selector term', Array.isArray(s.nodeSelector.nodeSelectorTerms) ? goJSON(terms) : 'null'));
  }
  for (const k of ['allNodes', 'perDeviceNodeSelection']) {
    if (!isSet(s[k])) continue;
    if (s[k] === true) set.push(`\`${k}\``);
    else errs.push(invalid(path.child(k), s[k], 'must be either unset or set to true'));
  }
  const which = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
  if (set.length === 0) errs.push(required(path, which));
  if (set.length > 1) errs.push(invalid(path, `{${set.join(', ')}}`, `${which}, but multiple fields are set`));
  errs.push(...validateSet(s.devices, sliceMaxDevices, validateDevice, (d) => str(obj(d).name), path.child('devices'), 'name'));
  return errs;
}

/** `ValidateResourceSlice` past its metadata. */
export function validateResourceSlice(o: KubeObject): FieldError[] {
  return validateSliceSpec(o.spec, undefined);
}

/** `ValidateResourceSliceUpdate` past rest.BeforeUpdate's checks: the metadata update, the spec against the old one. */
export function validateResourceSliceUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  return [...validateStrategyObjectMetaUpdate(o.metadata, old.metadata), ...validateSliceSpec(o.spec, old.spec)];
}

/** `structured.MakeSharedDeviceID` as a key: driver, pool, device and share ID. */
export const sharedDeviceKey = (d: JSONObject): string => JSON.stringify([str(d.driver), str(d.pool), str(d.device), d.shareID ?? null]);
/**
 * A `structured.SharedDeviceID` as a field error prints it: its members are `unique.Handle`s, whose JSON
 * is `{}` whatever they hold.
 */
const sharedDeviceIDText = '{"Driver":{},"Pool":{},"Device":{},"ShareID":{}}';
const sharedDeviceText = (d: JSONObject): string => `${str(d.driver)}/${str(d.pool)}/${str(d.device)}${isSet(d.shareID) ? `/${str(d.shareID)}` : ''}`;

function validateAllocation(allocation: JSONObject, path: Path, names: RequestNames): FieldError[] {
  const devices = obj(allocation.devices);
  const p = path.child('devices');
  const errs = [
    ...validateSlice(devices.results, allocationResultsMaxSize, (r, q) => {
      const res = obj(r);
      return [
        ...validateRequestNameRef(str(res.request), q.child('request'), names),
        ...validateCSIDriverName(str(res.driver), q.child('driver')),
        ...validatePoolName(str(res.pool), q.child('pool')),
        ...label(str(res.device), q.child('device')),
      ];
    }, p.child('results')),
    ...validateSlice(devices.config, 2 * deviceConfigMaxSize, (c, q) => {
      const config = obj(c);
      const source = str(config.source);
      const errs: FieldError[] = [];
      if (source === '') errs.push(required(q.child('source'), ''));
      else if (source !== 'FromClaim' && source !== 'FromClass') errs.push(notSupported(q.child('source'), source, ['FromClaim', 'FromClass']));
      return [...errs, ...validateRequestRefs(config.requests, q.child('requests'), names), ...validateDeviceConfiguration(config, q, false)];
    }, p.child('config')),
  ];
  if (isObject(allocation.nodeSelector)) errs.push(...validateNodeSelector(allocation.nodeSelector, path.child('nodeSelector')));
  return errs;
}

/** `validation.IsValidInterfaceAddress`: a CIDR `ParseCIDRSloppy` takes, written as the address and its prefix length are. */
function interfaceAddressErrors(value: string, path: Path): FieldError[] {
  const ip = isCIDRSloppy(value) ? parseIP(value.slice(0, value.indexOf('/'))) : undefined;
  if (ip === undefined) return [invalid(path, value, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)')];
  let bits = Number(value.slice(value.indexOf('/') + 1));
  if (ip.v4 && bits > 32) bits -= 96;
  const canonical = `${ip.v4 ? ip.bytes.slice(12).join('.') : ipv6Text(ip.bytes)}/${bits}`;
  return canonical === value ? [] : [invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

/** `validateDeviceStatus` past the device's identity: conditions, data, network data. */
function deviceStatusDetailErrors(dev: JSONObject, p: Path): FieldError[] {
  const errs: FieldError[] = [];
  const conditions = list(dev.conditions);
  if (conditions.length > deviceStatusMaxConditions) errs.push(tooMany(p.child('conditions'), conditions.length, deviceStatusMaxConditions));
  errs.push(...validateMetaConditions(dev.conditions, p.child('conditions')));
  if (isSet(dev.data)) errs.push(...validateRawExtension(dev.data, p.child('data'), false, deviceStatusDataMaxLength));
  if (isObject(dev.networkData)) {
    const net = dev.networkData;
    const q = p.child('networkData');
    if (str(net.interfaceName).length > interfaceNameMaxLength) errs.push(tooLong(q.child('interfaceName'), '', interfaceNameMaxLength));
    if (str(net.hardwareAddress).length > hardwareAddressMaxLength) errs.push(tooLong(q.child('hardwareAddress'), '', hardwareAddressMaxLength));
    errs.push(...validateSet(net.ips, networkDataMaxIPs, (a, r) => interfaceAddressErrors(str(a), r), str, q.child('ips')));
  }
  return errs;
}

/** `validateResourceClaimStatusUpdate` (after the metadata update the caller placed). */
export function validateResourceClaimStatusUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const status = obj(o.status);
  const before = obj(old.status);
  const path = FieldPath.root('status');
  const names = gatherRequestNames(obj(obj(o.spec).devices));
  const errs = validateSet(status.reservedFor, reservedForMaxSize, (r, p) => {
    const ref = obj(r);
    const e: FieldError[] = [];
    if (str(ref.resource) === '') e.push(required(p.child('resource'), ''));
    if (str(ref.name) === '') e.push(required(p.child('name'), ''));
    if (str(ref.uid) === '') e.push(required(p.child('uid'), ''));
    return e;
  }, (r) => str(obj(r).uid), path.child('reservedFor'), 'uid');
  const allocated = new Set(list(obj(obj(status.allocation).devices).results).map((r) => sharedDeviceKey(obj(r))));
  errs.push(...validateSet(status.devices, -1, (d, p) => {
    const dev = obj(d);
    const e = [...validateCSIDriverName(str(dev.driver), p.child('driver')), ...validatePoolName(str(dev.pool), p.child('pool')), ...label(str(dev.device), p.child('device'))];
    if (!allocated.has(sharedDeviceKey(dev))) e.push(new FieldError('FieldValueInvalid', p, sharedDeviceText(dev), 'must be an allocated device in the claim', sharedDeviceIDText));
    return [...e, ...deviceStatusDetailErrors(dev, p)];
  }, (d) => sharedDeviceText(obj(d)), path.child('devices'), 'deviceID', sharedDeviceIDText));
  if (list(status.reservedFor).length > 0) {
    if (!isObject(status.allocation)) errs.push(forbidden(path.child('reservedFor'), 'may not be specified when `allocated` is not set'));
    else if (isSet(o.metadata.deletionTimestamp)) {
      // Compared as Go compares the reference structs (not as texts: members may come in another order).
      const oldRefs = list(before.reservedFor);
      if (list(status.reservedFor).some((r) => !oldRefs.some((b) => semanticEqual(r, b)))) errs.push(forbidden(path.child('reservedFor'), 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
    }
  }
  if (isObject(before.allocation) && isObject(status.allocation)) {
    if (!semanticEqual(status.allocation, before.allocation)) errs.push(immutable('status.allocation', status.allocation, goStructText(status.allocation, 'AllocationResult')));
  } else if (isObject(status.allocation)) errs.push(...validateAllocation(status.allocation, path.child('allocation'), names));
  return errs;
}

