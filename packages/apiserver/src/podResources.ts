/**
 * The checks kube-apiserver 1.34 makes of a container's `resources` (`validateResourceRequirements`
 * with `validateContainerResourceName`, pkg/apis/core/validation): names a container may request,
 * quantities not negative, whole numbers for extended resources, requests not above limits (equal to
 * them for resources that cannot be overcommitted), hugepages in whole pages and beside CPU or memory.
 * A Pod's containers, and a workload's template's, are checked alike (`podContainers.ts` calls it per container).
 *
 * Go walks the `limits` and `requests` maps in no fixed order; kubekit walks each in key order.
 */
import { FieldPath, canonicalQuantity, decimalOfWritten, forbidden, invalid, notSupported, quantityDecimal, required, type FieldError, type QuantityDecimal } from '@kubekit/core';
import { isQualifiedName } from '@kubekit/selectors';
import { isObject } from './internal/own.js';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** `helper.standardResources`: the unprefixed names `validateResourceName` accepts (quota names included). */
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
/** `helper.integerResources`: counted in whole numbers (as extended resources are). */
const integerResources = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
const hugePagesPrefix = 'hugepages-';

/** `helper.IsNativeResource`: unprefixed, or in the `kubernetes.io/` domain. */
export const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** `helper.IsHugePageResourceName`. */
export const isHugePages = (name: string): boolean => name.startsWith(hugePagesPrefix);
/** `helper.IsOvercommitAllowed`: native and not hugepages. */
export const overcommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);
/** `helper.IsExtendedResourceName`: not native, not `requests.`, and a qualified name with `requests.` before it. */
export const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** `IsStandardResourceName`: a standard name, or hugepages (a container's `hugepages-…`, a quota's `requests.hugepages-…`). */
const isStandard = (name: string): boolean => standardResources.has(name) || isHugePages(name) || name.startsWith(`requests.${hugePagesPrefix}`);

/**
 * `validateResourceRequirements` of one container (or, with `nameErrors` of {@link podResourceNameErrors},
 * of a pod's pod-level resources: `validatePodResourceRequirements`).
 */
export function validateResourceRequirements(resources: Record<string, unknown>, path: FieldPath, nameErrors = containerResourceNameErrors): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = quantities(resources.limits);
  const requests = quantities(resources.requests);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    const p = limPath.key(name);
    errs.push(...nameErrors(name, p), ...validateValue(name, q, p));
    if (isHugePages(name)) {
      hugePages = true;
      const e = hugePagesError(name, q);
      if (e !== undefined) errs.push(invalid(p, q.text, e));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of requests) {
    const p = reqPath.key(name);
    errs.push(...nameErrors(name, p), ...validateValue(name, q, p));
    const limit = limits.get(name);
    if (limit !== undefined) {
      const order = compare(q.value, limit.value);
      // Resources that cannot be overcommitted must request exactly their limit.
      if (order !== 0 && !overcommitAllowed(name)) errs.push(invalid(reqPath, q.text, `must be equal to ${name} limit of ${limit.text}`));
      else if (order > 0) errs.push(invalid(reqPath, q.text, `must be less than or equal to ${name} limit of ${limit.text}`));
    } else if (!overcommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      hugePages = true;
      const e = hugePagesError(name, q);
      if (e !== undefined) errs.push(invalid(p, q.text, e));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

interface Quantity {
  /** As the apiserver writes it. */
  text: string;
  value: QuantityDecimal;
}

/** The quantities of a `limits` or `requests` map, in key order (those the decoder refused are reported there). */
function quantities(list: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (!isObject(list)) return out;
  for (const name of Object.keys(list).sort()) {
    const text = canonicalQuantity(list[name]);
    const value = text === undefined ? undefined : decimalOfWritten(text);
    if (text !== undefined && value !== undefined) out.set(name, { text, value });
  }
  return out;
}

/** `validateResourceName`: a qualified name, standard when it has no prefix. */
export function resourceNameErrors(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length === 0 && !name.includes('/') && !isStandard(name)) errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  return errs;
}

/** `validateContainerResourceName`. */
export function containerResourceNameErrors(name: string, path: FieldPath): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** `resourcehelper.SupportedPodLevelResources`, as `NotSupported` lists them. */
const podLevelResources = ['cpu', 'hugepages-', 'memory'];

/** `validatePodResourceName`: a resource name, and one pod-level resources may have (CPU, memory, hugepages). */
export function podResourceNameErrors(name: string, path: FieldPath): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (errs.length > 0) return errs;
  return name === 'cpu' || name === 'memory' || isHugePages(name) ? [] : [notSupported(path, name, podLevelResources)];
}

/** `ValidateResourceQuantityValue`: not negative; a whole number for integer (extended) resources. */
function validateValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.value.negative) errs.push(invalid(path, q.text, 'must be greater than or equal to 0'));
  // MilliValue() % 1000 != 0: a fraction (a value below one milli-unit reads as one).
  if ((integerResources.has(name) || isExtended(name)) && q.value.digits !== '' && q.value.exponent < 0) errs.push(invalid(path, q.text, 'must be an integer'));
  return errs;
}

/**
 * `ValidateResourceQuantityValue` of one quantity as decoded (a JSON string, number or null), for lists
 * other than a container's (a Node's capacity and allocatable); one the decoder refused has none here.
 */
export function resourceQuantityErrors(name: string, value: unknown, path: FieldPath): FieldError[] {
  const text = canonicalQuantity(value);
  const decimal = text === undefined ? undefined : decimalOfWritten(text);
  return text === undefined || decimal === undefined ? [] : validateValue(name, { text, value: decimal }, path);
}

/** `validateResourceQuantityHugePageValue`: a whole number of pages of the size the name gives. */
function hugePagesError(name: string, q: Quantity): string | undefined {
  const page = quantityDecimal(name.slice(hugePagesPrefix.length));
  const fail = `${q.text} is not positive integer multiple of ${name}`;
  // A page size that is no quantity, not positive, or not whole refuses every value.
  if (page === undefined || page.negative || page.digits === '' || page.exponent < 0) return fail;
  // Value() rounds up to a whole number; it must be a multiple of the page size (zero is).
  const value = wholeUp(q.value);
  const size = BigInt(page.digits) * 10n ** BigInt(page.exponent);
  return value !== undefined && value % size === 0n ? undefined : fail;
}

/** The value rounded up to a whole number, or `undefined` beyond 10^40 (no hugepage count is that large). */
function wholeUp(v: QuantityDecimal): bigint | undefined {
  if (v.digits === '') return 0n;
  if (v.exponent >= 0) return v.digits.length + v.exponent > 40 ? undefined : BigInt(v.digits) * 10n ** BigInt(v.exponent);
  const cut = -v.exponent;
  const whole = cut >= v.digits.length ? 0n : BigInt(v.digits.slice(0, v.digits.length - cut));
  return v.negative ? -whole : whole + 1n;
}

/** Compares two exact quantities without big arithmetic. */
function compare(a: QuantityDecimal, b: QuantityDecimal): number {
  const sign = (x: QuantityDecimal): number => (x.digits === '' ? 0 : x.negative ? -1 : 1);
  const sa = sign(a);
  const sb = sign(b);
  if (sa !== sb || sa === 0) return Math.sign(sa - sb);
  // Same sign: compare magnitudes by the position of their leading digit, then digit by digit.
  const lead = a.digits.length + a.exponent - (b.digits.length + b.exponent);
  if (lead !== 0) return sa * Math.sign(lead);
  const width = Math.max(a.digits.length, b.digits.length);
  const da = a.digits.padEnd(width, '0');
  const db = b.digits.padEnd(width, '0');
  return da === db ? 0 : sa * (da < db ? -1 : 1);
}
