/**
 * The scheduling parts of a pod spec, checked as kube-apiserver 1.34 checks them in `ValidatePodSpec`
 * (pkg/apis/core/validation): node, pod and pod anti-affinity (`validateAffinity`), the DNS config
 * (`validatePodDNSConfig`), readiness gates, scheduling gates and topology spread constraints.
 *
 * Not checked: `matchLabelKeys` and `mismatchLabelKeys` (of affinity terms and spread constraints),
 * which the apiserver also merges into the label selector of a new pod.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 */
import { FieldPath, duplicate, invalid, notSupported, required, forbidden, type FieldError } from '@kubekit/core';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, validateLabelSelector, type LabelSelectorObject } from './internal/semantics.js';
import { isObject, type JSONObject } from './internal/own.js';
import { append, int, isSet, list, obj, str } from './internal/podFields.js';
import { ipFamily } from './podStatus.js';

const maxNameservers = 3;
const maxSearchPaths = 32;
const maxSearchListChars = 2048;
const scheduleActions = ['DoNotSchedule', 'ScheduleAnyway'];
const inclusionPolicies = ['Honor', 'Ignore'];

function qualifiedName(value: string, path: FieldPath): FieldError[] {
  return isQualifiedName(value).map((msg) => invalid(path, value, msg));
}

/** `validateAffinity`: node affinity, pod affinity and pod anti-affinity. */
export function validateAffinity(affinity: unknown, path: FieldPath): FieldError[] {
  if (!isObject(affinity)) return [];
  const errs: FieldError[] = [];
  if (isSet(affinity.nodeAffinity)) {
    const na = obj(affinity.nodeAffinity);
    const p = path.child('nodeAffinity');
    if (isSet(na.requiredDuringSchedulingIgnoredDuringExecution)) {
      append(errs, validateNodeSelector(obj(na.requiredDuringSchedulingIgnoredDuringExecution), p.child('requiredDuringSchedulingIgnoredDuringExecution')));
    }
    list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const term = obj(t);
      const tp = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const weight = int(term.weight) ?? 0;
      if (weight <= 0 || weight > 100) errs.push(invalid(tp.child('weight'), weight, 'must be in the range 1-100'));
      // Preferred terms may have any label value: they can match when a cluster has one node.
      append(errs, validateNodeSelectorTerm(obj(term.preference), tp.child('preference'), true));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    if (!isSet(affinity[kind])) continue;
    const pa = obj(affinity[kind]);
    const p = path.child(kind);
    list(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      append(errs, validatePodAffinityTerm(obj(t), p.child('requiredDuringSchedulingIgnoredDuringExecution').index(i)));
    });
    list(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const term = obj(t);
      const tp = p.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
      const weight = int(term.weight) ?? 0;
      if (weight <= 0 || weight > 100) errs.push(invalid(tp.child('weight'), weight, 'must be in the range 1-100'));
      append(errs, validatePodAffinityTerm(obj(term.podAffinityTerm), tp.child('podAffinityTerm')));
    });
  }
  return errs;
}

/** `ValidateNodeSelector`: at least one term, each valid. */
export function validateNodeSelector(selector: JSONObject, path: FieldPath, anyLabelValue = false): FieldError[] {
  const terms = list(selector.nodeSelectorTerms);
  const p = path.child('nodeSelectorTerms');
  if (terms.length === 0) return [required(p, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(obj(t), p.index(i), anyLabelValue));
}

/** `ValidateNodeSelectorTerm`: its label requirements and its field requirements. */
function validateNodeSelectorTerm(term: JSONObject, path: FieldPath, anyLabelValue: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(term.matchExpressions).forEach((r, j) => errs.push(...validateNodeSelectorRequirement(obj(r), path.child('matchExpressions').index(j), anyLabelValue)));
  list(term.matchFields).forEach((r, j) => errs.push(...validateNodeFieldSelectorRequirement(obj(r), path.child('matchFields').index(j))));
  return errs;
}

/** `ValidateNodeSelectorRequirement`. */
function validateNodeSelectorRequirement(rq: JSONObject, path: FieldPath, anyLabelValue: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq.values).map(str);
  const operator = str(rq.operator);
  switch (operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) errs.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  append(errs, qualifiedName(str(rq.key), path.child('key')));
  if (!anyLabelValue) values.forEach((v, i) => errs.push(...isValidLabelValue(v).map((msg) => invalid(path.child('values').index(i), v, msg))));
  return errs;
}

/** `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, with `In` or `NotIn` and one node name. */
function validateNodeFieldSelectorRequirement(rq: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq.values).map(str);
  const operator = str(rq.operator);
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(path.child('operator'), operator, 'not a valid selector operator'));
  }
  if (str(rq.key) !== 'metadata.name') errs.push(invalid(path.child('key'), str(rq.key), 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...isDNS1123Subdomain(v).map((msg) => invalid(path.child('values').index(i), v, msg))));
  return errs;
}

/** `validatePodAffinityTerm`: its selectors, namespaces and a topology key. */
function validatePodAffinityTerm(term: JSONObject, path: FieldPath): FieldError[] {
  const errs = [
    ...selector(term.labelSelector, path.child('labelSelector')),
    ...selector(term.namespaceSelector, path.child('namespaceSelector')),
  ];
  // The apiserver names each bad namespace at `namespace`.
  for (const ns of list(term.namespaces).map(str)) append(errs, isDNS1123Label(ns).map((msg) => invalid(path.child('namespace'), ns, msg)));
  const key = str(term.topologyKey);
  if (key === '') errs.push(required(path.child('topologyKey'), 'can not be empty'));
  append(errs, qualifiedName(key, path.child('topologyKey')));
  return errs;
}

function selector(value: unknown, path: FieldPath): FieldError[] {
  return isSet(value) ? validateLabelSelector(value as LabelSelectorObject, path) : [];
}

/** `validatePodDNSConfig`: nameservers for `None`, at most 3 valid IPs, search domains, named options. */
export function validateDNSConfig(dnsConfig: unknown, dnsPolicy: unknown, path: FieldPath): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!isObject(dnsConfig)) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(dnsConfig.nameservers).length === 0) return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isObject(dnsConfig)) return [];
  const errs: FieldError[] = [];
  const nameservers = list(dnsConfig.nameservers).map(str);
  if (nameservers.length > maxNameservers) errs.push(invalid(path.child('nameservers'), nameservers, `must not have more than ${maxNameservers} nameservers`));
  nameservers.forEach((ns, i) => {
    if (ipFamily(ns) === undefined) errs.push(invalid(path.child('nameservers').index(i), ns, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const searches = list(dnsConfig.searches).map(str);
  if (searches.length > maxSearchPaths) errs.push(invalid(path.child('searches'), searches, `must not have more than ${maxSearchPaths} search paths`));
  if (searches.join(' ').length > maxSearchListChars) {
    errs.push(invalid(path.child('searches'), searches, `must not have more than ${maxSearchListChars} characters (including spaces) in the search list`));
  }
  // RelaxedDNSSearchValidation is locked on in 1.34: `.` alone, or a subdomain (underscores allowed) with an optional trailing dot.
  searches.forEach((search, i) => {
    if (search === '.') return;
    const domain = search.endsWith('.') ? search.slice(0, -1) : search;
    append(errs, subdomainWithUnderscoreErrors(domain).map((msg) => invalid(path.child('searches').index(i), domain, msg)));
  });
  list(dnsConfig.options).forEach((o, i) => {
    if (str(obj(o).name) === '') errs.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

/** `IsDNS1123SubdomainWithUnderscore`. */
function subdomainWithUnderscoreErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!/^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$/.test(value)) {
    errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')");
  }
  return errs;
}

/** `validateReadinessGates`: condition types are qualified names. */
export function validateReadinessGates(gates: unknown[], path: FieldPath): FieldError[] {
  return gates.flatMap((g, i) => qualifiedName(str(obj(g).conditionType), path.index(i).child('conditionType')));
}

/** `validateSchedulingGates`: qualified names, no duplicates. */
export function validateSchedulingGates(gates: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  gates.forEach((g, i) => {
    const name = str(obj(g).name);
    append(errs, qualifiedName(name, path.index(i)));
    if (seen.has(name)) errs.push(duplicate(path.index(i), name));
    seen.add(name);
  });
  return errs;
}

/** `validateTopologySpreadConstraints` (without `matchLabelKeys`). */
export function validateTopologySpreadConstraints(constraints: unknown[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const all = constraints.map(obj);
  const pair = (c: JSONObject): string => JSON.stringify([str(c.topologyKey), str(c.whenUnsatisfiable)]);
  // Where each (topologyKey, whenUnsatisfiable) pair last appears: a constraint is repeated when a later one has its pair.
  const last = new Map<string, number>();
  all.forEach((c, i) => last.set(pair(c), i));
  all.forEach((c, i) => {
    const p = path.index(i);
    const maxSkew = int(c.maxSkew) ?? 0;
    if (maxSkew <= 0) errs.push(invalid(p.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const key = str(c.topologyKey);
    if (key === '') errs.push(required(p.child('topologyKey'), 'can not be empty'));
    const action = str(c.whenUnsatisfiable);
    if (!scheduleActions.includes(action)) errs.push(notSupported(p.child('whenUnsatisfiable'), action, scheduleActions));
    if ((last.get(pair(c)) ?? i) > i) {
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${key}, ${action}}`));
    }
    if (isSet(c.minDomains)) {
      const minDomains = int(c.minDomains) ?? 0;
      if (minDomains <= 0) errs.push(invalid(p.child('minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule') errs.push(invalid(p.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (isSet(c[f]) && !inclusionPolicies.includes(str(c[f]))) errs.push(notSupported(p.child(f), str(c[f]), inclusionPolicies));
    }
    append(errs, selector(c.labelSelector, p.child('labelSelector')));
  });
  return errs;
}
