/**
 * core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices, as kube-apiserver 1.34.4 serves them with no
 * controller behind them (a bare apiserver has no controller-manager to fill them from Services):
 *
 * - Endpoints: the strategy of pkg/registry/core/endpoint (no generation, the IP warnings unless the
 *   endpoints controller manages the object), `SetDefaults_Endpoints` (a port's protocol), `ValidateEndpoints`
 *   (subsets' addresses and ports; an update that leaves the subsets as they were is not held to them), the
 *   deprecation warning every request gets since 1.33 (`APILifecycleDeprecated`), and printEndpoints' Table;
 * - EndpointSlices: the strategy of pkg/registry/discovery/endpointslice (generation 1 on create, bumped by
 *   any change but metadata's other than labels; `deprecatedTopology` dropped, as v1 never keeps it),
 *   `SetDefaults_EndpointPort`, `ValidateEndpointSlice` and `ValidateEndpointSliceUpdate` (addresses of the
 *   slice's type, ports, hints, counts, an `addressType` fixed once set), the FQDN and IP warnings, and
 *   printEndpointSlice's Table.
 *
 * A PUT of an Endpoints object that does not exist is a 404 here, where kube-apiserver creates it
 * (`AllowCreateOnUpdate`): kubekit's update path never creates.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/discovery/validation/validation.go
 */
import { FieldError, FieldPath, duplicate, goQuote, invalid, notSupported, required, tooMany, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isObject, objects, setDefault, str, type JSONObject } from './internal/own.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './internal/semantics.js';
import { portProtocols } from './podContainers.js';
import { ipWarnings, ipv6Text, parseIP, type ParsedIP } from './podWarnings.js';
import { endpointIPErrors, legacyIPErrors } from './serviceValidation.js';

/** The Warning every request for core/v1 Endpoints gets (the apiserver's deprecation filter). */
const endpointsDeprecation = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';
/** `endpointscontroller.LabelManagedBy` and its value on the objects that controller writes. */
const endpointsManagedBy = ['endpoints.kubernetes.io/managed-by', 'endpoint-controller'] as const;
/** `discoveryv1.LabelManagedBy` and the two controllers whose slices are not warned about. */
const sliceManagedBy = 'endpointslice.kubernetes.io/managed-by';
const sliceControllers = ['endpointslice-controller.k8s.io', 'endpointslicemirroring-controller.k8s.io'];
const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
/** The limits of pkg/apis/discovery/validation. */
const maxAddresses = 100;
const maxPorts = 20000;
const maxEndpoints = 1000;
const maxHints = 8;
const invalidIP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** `validation.IsValidPortNum`'s words. */
const portRangeMessage = 'must be between 1 and 65535, inclusive';

const messagesAt = (path: FieldPath, value: string, messages: string[]): FieldError[] => messages.map((m) => invalid(path, value, m));
const labelsOf = (o: KubeObject): Record<string, string> => o.metadata.labels ?? {};
const managedBy = (o: KubeObject, key: string): string => (Object.hasOwn(labelsOf(o), key) ? labelsOf(o)[key] : '');

// ---- core/v1 Endpoints ----

/** `SetDefaults_Endpoints`: a port without a protocol is TCP. */
function defaultEndpoints(o: KubeObject): void {
  for (const subset of objects(o.subsets)) {
    for (const port of objects(subset.ports)) if (str(port.protocol) === '') port.protocol = 'TCP';
  }
}

/** `validateEndpointAddress`: the IP (legacy form, then not a special range), the hostname, the node name. */
function endpointAddressErrors(address: JSONObject, path: FieldPath): FieldError[] {
  const ip = str(address.ip);
  const errs = legacyIPErrors(path.child('ip'), ip, []);
  const hostname = str(address.hostname);
  if (hostname !== '') errs.push(...messagesAt(path.child('hostname'), hostname, isDNS1123Label(hostname)));
  if (typeof address.nodeName === 'string') errs.push(...messagesAt(path.child('nodeName'), address.nodeName, isDNS1123Subdomain(address.nodeName)));
  errs.push(...endpointIPErrors(path.child('ip'), ip));
  return errs;
}

/** `validateEndpointPort`: a name when the subset has several ports, the number, the protocol, the app protocol. */
function endpointPortErrors(port: JSONObject, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(port.name);
  if (requireName && name === '') errs.push(required(path.child('name'), ''));
  else if (name !== '') errs.push(...messagesAt(path.child('name'), name, isDNS1123Label(name)));
  const number = typeof port.port === 'number' ? port.port : 0;
  if (number < 1 || number > 65535) errs.push(invalid(path.child('port'), number, portRangeMessage));
  const protocol = str(port.protocol);
  if (protocol === '') errs.push(required(path.child('protocol'), ''));
  else if (!portProtocols.includes(protocol)) errs.push(notSupported(path.child('protocol'), protocol, portProtocols));
  if (typeof port.appProtocol === 'string') errs.push(...messagesAt(path.child('appProtocol'), port.appProtocol, isQualifiedName(port.appProtocol)));
  return errs;
}

/** `validateEndpointSubsets`: each subset has an address, each address and port valid. */
function subsetErrors(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  objects(o.subsets).forEach((subset, i) => {
    const path = FieldPath.root('subsets').index(i);
    const ready = objects(subset.addresses);
    const notReady = objects(subset.notReadyAddresses);
    if (ready.length === 0 && notReady.length === 0) errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...endpointAddressErrors(a, path.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...endpointAddressErrors(a, path.child('notReadyAddresses').index(j))));
    const ports = objects(subset.ports);
    ports.forEach((p, j) => errs.push(...endpointPortErrors(p, ports.length > 1, path.child('ports').index(j))));
  });
  return errs;
}

/** `endpointsWarnings`: addresses in a form a future release refuses, unless the endpoints controller wrote them. */
function endpointsWarnings(o: KubeObject): string[] {
  if (managedBy(o, endpointsManagedBy[0]) === endpointsManagedBy[1]) return [];
  return objects(o.subsets).flatMap((subset, i) => (['addresses', 'notReadyAddresses'] as const).flatMap((member) =>
    objects(subset[member]).flatMap((a, j) => ipWarnings(FieldPath.root('subsets').index(i).child(member).index(j).child('ip'), str(a.ip)))));
}

/** Go's `net.JoinHostPort`: an IPv6 host in brackets. */
const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** `formatEndpoints` (all ports): the first three address:port pairs, and how many more. */
function endpointsCell(o: KubeObject): string {
  const subsets = objects(o.subsets);
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  for (const subset of subsets) {
    const addresses = objects(subset.addresses);
    const ports = objects(subset.ports);
    // A headless Service's endpoints may have no ports: the addresses alone.
    const pairs = ports.length === 0 ? [undefined] : ports.map((p) => (typeof p.port === 'number' ? p.port : 0));
    for (const port of pairs) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) break;
        list.push(port === undefined ? str(a.ip) : joinHostPort(str(a.ip), port));
      }
    }
  }
  const text = list.join(',');
  return count > max ? `${text} + ${count - max} more...` : text;
}

const endpoints: BuiltinSpec = {
  names: { group: '', version: 'v1', resource: 'endpoints', singular: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'], status: false, nameValidation: 'subdomain' },
  allowCreateOnUpdate: true,
  deprecationWarning: endpointsDeprecation,
  columns: [{ def: { name: 'Endpoints', type: 'string', priority: 0 }, cell: endpointsCell }],
  defaults: defaultEndpoints,
  // ValidateEndpoints runs ValidateObjectMeta on update too.
  updateValidatesMeta: true,
  validateCreate: subsetErrors,
  // Subsets an update leaves as they were are not held to today's rules (older releases took them).
  validateUpdate: (o, old) => (semanticEqual(o.subsets ?? null, old.subsets ?? null) ? [] : subsetErrors(o)),
  warningsOnCreate: endpointsWarnings,
  warningsOnUpdate: (o) => endpointsWarnings(o),
};

// ---- discovery.k8s.io/v1 EndpointSlices ----

/**
 * `SetDefaults_EndpointPort`: an empty name and TCP when not given. The two lists have no `omitempty`:
 * encoding/json writes them `null` when absent.
 */
function defaultEndpointSlice(o: KubeObject): void {
  setDefault(o, 'endpoints', null);
  setDefault(o, 'ports', null);
  for (const port of objects(o.ports)) {
    setDefault(port, 'name', '');
    setDefault(port, 'protocol', 'TCP');
  }
}

/** `dropTopologyOnV1`: v1 has no `deprecatedTopology` (a stored v1 slice never has one to take a node name from). */
function dropTopology(o: KubeObject): void {
  for (const endpoint of objects(o.endpoints)) delete endpoint.deprecatedTopology;
}

/** Go's `net.IP.String` of a parsed address. */
const ipText = (ip: ParsedIP): string => (ip.v4 ? ip.bytes.slice(12).join('.') : ipv6Text(ip.bytes));

/** `validation.IsValidIP`: an address Go's strict parser takes (no leading zeros, not IPv4-mapped), in canonical form. */
function strictIPErrors(path: FieldPath, value: string): FieldError[] {
  const ip = parseIP(value);
  if (ip === undefined) return [invalid(path, value, invalidIP)];
  const errs: FieldError[] = [];
  const v4Part = value.slice(value.lastIndexOf(':') + 1);
  if (v4Part.split('.').some((p) => p.length > 1 && p.startsWith('0')) && v4Part.includes('.')) errs.push(invalid(path, value, 'must not have leading 0s'));
  if (ip.v4 && value.includes(':')) errs.push(invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
  if (errs.length > 0) return errs;
  const canonical = ipText(ip);
  return canonical === value ? [] : [invalid(path, value, `must be in canonical form (${goQuote(canonical)})`)];
}

/** `validation.IsFullyQualifiedDomainName`: a subdomain of two labels or more (a trailing dot allowed). */
function fqdnErrors(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path, '')];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return [invalid(path, name, subdomain.join(','))];
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const why = isDNS1123Label(label);
    if (why.length > 0) return [invalid(path, label, why.join(','))];
  }
  return [];
}

/** One address of a slice, checked as its `addressType` says (`path`: the address's, `list`: the list's). */
function sliceAddressErrors(type: string, value: string, path: FieldPath, list: FieldPath): FieldError[] {
  if (type === 'FQDN') return fqdnErrors(path, value);
  if (type !== 'IPv4' && type !== 'IPv6') return [];
  const parseErrs = type === 'IPv4' ? legacyIPErrors(path, value, []) : strictIPErrors(path, value);
  if (parseErrs.length > 0) return parseErrs;
  const v4 = parseIP(value)?.v4 === true;
  // The family's error names the list, not the address (upstream's path).
  const errs = v4 === (type === 'IPv4') ? [] : [invalid(list, value, `must be an ${type} address`)];
  return [...errs, ...endpointIPErrors(path, value)];
}

/** `validateHints`: at most 8 zones and 8 nodes, each once, zones label values, nodes node names. */
function hintErrors(hints: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const lists = [['forZones', isValidLabelValue], ['forNodes', isDNS1123Subdomain]] as const;
  for (const [member, check] of lists) {
    const entries = objects(hints[member]);
    const listPath = path.child(member);
    if (entries.length > maxHints) return [...errs, tooMany(listPath, entries.length, maxHints)];
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const name = str(entry.name);
      const p = listPath.index(i).child('name');
      if (seen.has(name)) errs.push(duplicate(p, name));
      seen.add(name);
      errs.push(...messagesAt(p, name, check(name)));
    });
  }
  return errs;
}

/** `validateEndpoints`: at most 1000, each with 1 to 100 addresses of the slice's type, a node name, a hostname, hints. */
function sliceEndpointErrors(o: KubeObject): FieldError[] {
  const list = objects(o.endpoints);
  const root = FieldPath.root('endpoints');
  if (list.length > maxEndpoints) return [tooMany(root, list.length, maxEndpoints)];
  const type = str(o.addressType);
  const errs: FieldError[] = [];
  list.forEach((endpoint, i) => {
    const path = root.index(i);
    const addressPath = path.child('addresses');
    const addresses = Array.isArray(endpoint.addresses) ? endpoint.addresses.map(str) : [];
    if (addresses.length === 0) errs.push(required(addressPath, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(tooMany(addressPath, addresses.length, maxAddresses));
    addresses.forEach((a, j) => errs.push(...sliceAddressErrors(type, a, addressPath.index(j), addressPath)));
    if (typeof endpoint.nodeName === 'string') errs.push(...messagesAt(path.child('nodeName'), endpoint.nodeName, isDNS1123Subdomain(endpoint.nodeName)));
    if (typeof endpoint.hostname === 'string') errs.push(...messagesAt(path.child('hostname'), endpoint.hostname, isDNS1123Label(endpoint.hostname)));
    if (isObject(endpoint.hints)) errs.push(...hintErrors(endpoint.hints, path.child('hints')));
  });
  return errs;
}

/** `validatePorts`: at most 20000, names labels and unique (the empty one too), protocols known, app protocols qualified names. */
function slicePortErrors(o: KubeObject): FieldError[] {
  const ports = objects(o.ports);
  const root = FieldPath.root('ports');
  if (ports.length > maxPorts) return [tooMany(root, ports.length, maxPorts)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const path = root.index(i);
    const name = str(port.name);
    if (name !== '') errs.push(...messagesAt(path.child('name'), name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    names.add(name);
    const protocol = port.protocol;
    if (typeof protocol !== 'string') errs.push(required(path.child('protocol'), ''));
    else if (!portProtocols.includes(protocol)) errs.push(notSupported(path.child('protocol'), protocol, portProtocols));
    if (typeof port.appProtocol === 'string') errs.push(...messagesAt(path.child('appProtocol'), port.appProtocol, isQualifiedName(port.appProtocol)));
  });
  return errs;
}

/** `ValidateEndpointSlice` past its metadata (`old` on update: endpoints left as they were are not checked again). */
function validateEndpointSlice(o: KubeObject, old: KubeObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(o.addressType);
  if (type === '') errs.push(required('addressType', ''));
  else if (!addressTypes.includes(type)) errs.push(notSupported('addressType', type, addressTypes));
  errs.push(...slicePortErrors(o));
  const endpointErrs = sliceEndpointErrors(o);
  if (endpointErrs.length > 0 && old !== undefined && semanticEqual(o.endpoints ?? null, old.endpoints ?? null)) return errs;
  return [...errs, ...endpointErrs];
}

/** `warnOnBadIPs`: addresses in a form a future release refuses, unless an endpoint slice controller wrote them. */
function sliceIPWarnings(o: KubeObject): string[] {
  if (sliceControllers.includes(managedBy(o, sliceManagedBy))) return [];
  return objects(o.endpoints).flatMap((endpoint, i) => (Array.isArray(endpoint.addresses) ? endpoint.addresses : [])
    .flatMap((a, j) => ipWarnings(FieldPath.root('endpoints').index(i).child('addresses').index(j), str(a))));
}

/** The content the generation counts: everything but the metadata (the kind and version are the same on both). */
function sliceContent(o: KubeObject): JSONObject {
  const { metadata: _meta, apiVersion: _v, kind: _k, ...rest } = o;
  return rest;
}

/** `listWithMoreString`: the first three, how many more, or `<unset>` for none. */
function listCell(list: string[]): string {
  const max = 3;
  if (list.length > max) return `${list.slice(0, max).join(',')} + ${list.length - max} more...`;
  return list.length === 0 ? '<unset>' : list.join(',');
}

const endpointSlice: BuiltinSpec = {
  names: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', singular: 'endpointslice', kind: 'EndpointSlice', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'AddressType', type: 'string', priority: 0 }, cell: (o) => str(o.addressType) },
    // formatDiscoveryPorts: the number, else the name, else `*`.
    { def: { name: 'Ports', type: 'string', priority: 0 }, cell: (o) => listCell(objects(o.ports).map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*'))) },
    { def: { name: 'Endpoints', type: 'string', priority: 0 }, cell: (o) => listCell(objects(o.endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(str) : []))) },
  ],
  defaults: defaultEndpointSlice,
  prepareForCreate: (o) => {
    o.metadata.generation = 1;
    dropTopology(o);
  },
  prepareForUpdate: (o, old) => {
    // Any change but the metadata's bumps the generation, and so does one of the labels.
    if (!semanticEqual(sliceContent(o), sliceContent(old)) || !semanticEqual(o.metadata.labels ?? {}, old.metadata.labels ?? {})) {
      o.metadata.generation = (typeof old.metadata.generation === 'number' ? old.metadata.generation : 0) + 1;
    }
    if (!semanticEqual(o.endpoints ?? null, old.endpoints ?? null)) dropTopology(o);
  },
  updateValidatesMeta: true,
  validateCreate: (o) => validateEndpointSlice(o, undefined),
  validateUpdate: (o, old) => {
    const errs = validateEndpointSlice(o, old);
    if (str(o.addressType) !== str(old.addressType)) errs.push(invalid('addressType', str(o.addressType), 'field is immutable'));
    return errs;
  },
  warningsOnCreate: (o) => [...(o.addressType === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : []), ...sliceIPWarnings(o)],
  warningsOnUpdate: (o) => sliceIPWarnings(o),
};

/** The core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlice kinds the embedded server serves. */
export function endpointResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(endpoints), new BuiltinResourceType(endpointSlice)];
}
