/**
 * The parts of a batch/v1 Job's spec `validateJobSpec` checks besides its pod template (kube-apiserver
 * 1.34.4): counts and deadlines not negative, `managedBy` a domain-prefixed path, the completion mode and
 * what an indexed Job allows (per-index backoff, failed indexes, the success policy), the pod failure
 * policy's rules, and the pod replacement policy; and `ValidateJobSpecUpdate`'s immutable fields.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/batch/validation/validation.go
 */
import { FieldError, FieldPath, duplicate, goQuote, invalid, notSupported, omitValue, parseGoDuration, required, tooLong, tooMany, type KubeObject } from '@kubekit/core';
import { isObject, num, objects, valueAt, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from './internal/semantics.js';

const maxParallelismForIndexedJob = 100_000;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;
const maxPodFailurePolicyRules = 20;
const maxOnExitCodesValues = 255;
const maxOnPodConditionsPatterns = 20;
const maxManagedByLength = 63;
const maxSucceededIndexesLength = 64 * 1024;
const maxSuccessPolicyRules = 20;
const actions = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const operators = ['In', 'NotIn'];
const conditionStatuses = ['False', 'True', 'Unknown'];
const replacementPolicies = ['Failed', 'TerminatingOrFailed'];


/** `ValidateNonnegativeField` (the workload kinds use it too). */
export function nonnegative(value: number | bigint | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** `IsDomainPrefixedPath`. */
export function domainPrefixedPath(path: FieldPath, value: string): FieldError[] {
  if (value === '') return [required(path, '')];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const errs = isDNS1123Subdomain(host).map((msg) => invalid(path, host, msg));
  const rest = value.slice(slash + 1);
  if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest)) errs.push(invalid(path, rest, "Invalid path: regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+'"));
  return errs;
}

/** `validateJobSpec`'s checks before the pod template, in its order. */
export function validateJobSpecFields(specValue: unknown, path: FieldPath): FieldError[] {
  const spec = isObject(specValue) ? specValue : {};
  const parallelism = num(spec.parallelism);
  const completions = num(spec.completions);
  const perIndex = num(spec.backoffLimitPerIndex);
  const maxFailed = num(spec.maxFailedIndexes);
  const errs = [
    ...nonnegative(parallelism, path.child('parallelism')), ...nonnegative(completions, path.child('completions')),
    ...nonnegative(num(spec.activeDeadlineSeconds), path.child('activeDeadlineSeconds')), ...nonnegative(num(spec.backoffLimit), path.child('backoffLimit')),
    ...nonnegative(num(spec.ttlSecondsAfterFinished), path.child('ttlSecondsAfterFinished')), ...nonnegative(perIndex, path.child('backoffLimitPerIndex')),
  ];
  if (maxFailed !== undefined) {
    errs.push(...nonnegative(maxFailed, path.child('maxFailedIndexes')));
    if (perIndex === undefined) errs.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    errs.push(...domainPrefixedPath(path.child('managedBy'), spec.managedBy));
    if (Buffer.byteLength(spec.managedBy) > maxManagedByLength) errs.push(tooLong(path.child('managedBy'), '', maxManagedByLength));
  }
  const mode = spec.completionMode;
  if (typeof mode === 'string') {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) errs.push(invalid(path.child('parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'));
      if (maxFailed !== undefined && maxFailed > maxFailedIndexesForIndexedJob) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`));
      if (completions !== undefined && completions > completionsSoftLimit && perIndex !== undefined) {
        if (maxFailed === undefined) errs.push(required(path.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
        if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions) {
          errs.push(invalid(path.child('parallelism'), parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} when completions are above ${completionsSoftLimit} and used with backoff limit per index`));
        }
        if (maxFailed !== undefined && maxFailed > maxFailedIndexesLimitForHighCompletions) {
          errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} when completions are above ${completionsSoftLimit} and used with backoff limit per index`));
        }
      }
    }
  }
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    if (perIndex !== undefined) errs.push(invalid(path.child('backoffLimitPerIndex'), perIndex, 'requires indexed completion mode'));
    if (maxFailed !== undefined) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, 'requires indexed completion mode'));
  }
  if (isObject(spec.podFailurePolicy)) errs.push(...podFailurePolicyErrors(spec, path.child('podFailurePolicy')));
  if (isObject(spec.successPolicy)) {
    if (mode !== 'Indexed') errs.push(new FieldError('FieldValueInvalid', path.child('successPolicy'), spec.successPolicy, 'requires indexed completion mode', successPolicyGo(spec.successPolicy)));
    else errs.push(...successPolicyErrors(spec, path.child('successPolicy')));
  }
  const replacement = spec.podReplacementPolicy;
  if (typeof replacement === 'string') {
    if (isObject(spec.podFailurePolicy)) {
      if (replacement !== 'Failed') errs.push(notSupported(path.child('podReplacementPolicy'), replacement, ['Failed']));
    } else if (!replacementPolicies.includes(replacement)) {
      errs.push(notSupported(path.child('podReplacementPolicy'), replacement, replacementPolicies));
    }
  }
  return errs;
}

/** A success policy as Go marshals the internal type (`{"Rules":[{"SucceededIndexes":…,"SucceededCount":…}]}`). */
function successPolicyGo(policy: JSONObject): string {
  const rules = Array.isArray(policy.rules) ? policy.rules : null;
  const rule = (r: unknown): string => {
    const o = isObject(r) ? r : {};
    return `{"SucceededIndexes":${typeof o.succeededIndexes === 'string' ? JSON.stringify(o.succeededIndexes) : 'null'},"SucceededCount":${typeof o.succeededCount === 'number' ? o.succeededCount : 'null'}}`;
  };
  return `{"Rules":${rules === null ? 'null' : `[${rules.map(rule).join(',')}]`}}`;
}

/** `validatePodFailurePolicy` and its rules. */
function podFailurePolicyErrors(spec: JSONObject, path: FieldPath): FieldError[] {
  const rules = Array.isArray(valueAt(spec, 'podFailurePolicy', 'rules')) ? valueAt(spec, 'podFailurePolicy', 'rules') as unknown[] : [];
  const rulesPath = path.child('rules');
  const errs: FieldError[] = [];
  if (rules.length > maxPodFailurePolicyRules) errs.push(tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const names = new Set<string>();
  for (const list of ['containers', 'initContainers']) for (const c of objects(valueAt(spec, 'template', 'spec', list))) if (typeof c.name === 'string') names.add(c.name);
  rules.forEach((r, i) => {
    const rule = isObject(r) ? r : {};
    const rulePath = rulesPath.index(i);
    const action = typeof rule.action === 'string' ? rule.action : '';
    if (action === '') errs.push(required(rulePath.child('action'), `valid values: ${goStringList(actions)}`));
    else if (action === 'FailIndex') {
      if (spec.backoffLimitPerIndex === undefined || spec.backoffLimitPerIndex === null) errs.push(invalid(rulePath.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!actions.includes(action)) errs.push(notSupported(rulePath.child('action'), action, actions));
    const onExitCodes = isObject(rule.onExitCodes) ? rule.onExitCodes : undefined;
    const onConditions = objects(rule.onPodConditions);
    if (onExitCodes !== undefined) errs.push(...exitCodesErrors(onExitCodes, rulePath.child('onExitCodes'), names));
    if (onConditions.length > 0) errs.push(...podConditionsErrors(onConditions, rulePath.child('onPodConditions')));
    if (onExitCodes !== undefined && onConditions.length > 0) errs.push(invalid(rulePath, omitValue, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (onExitCodes === undefined && onConditions.length === 0) errs.push(invalid(rulePath, omitValue, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/** Go's `%q` of a sorted list of strings: `["a" "b"]`. */
function goStringList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function podConditionsErrors(patterns: JSONObject[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > maxOnPodConditionsPatterns) errs.push(tooMany(path, patterns.length, maxOnPodConditionsPatterns));
  patterns.forEach((p, j) => {
    const at = path.index(j);
    const type = typeof p.type === 'string' ? p.type : '';
    for (const msg of isQualifiedName(type)) errs.push(invalid(at.child('type'), type, msg));
    const status = typeof p.status === 'string' ? p.status : '';
    if (status === '') errs.push(required(at.child('status'), `valid values: ${goStringList(conditionStatuses)}`));
    else if (!conditionStatuses.includes(status)) errs.push(notSupported(at.child('status'), status, conditionStatuses));
  });
  return errs;
}

function exitCodesErrors(req: JSONObject, path: FieldPath, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = typeof req.operator === 'string' ? req.operator : '';
  if (operator === '') errs.push(required(path.child('operator'), `valid values: ${goStringList(operators)}`));
  else if (!operators.includes(operator)) errs.push(notSupported(path.child('operator'), operator, operators));
  if (typeof req.containerName === 'string' && !names.has(req.containerName)) {
    errs.push(invalid(path.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = Array.isArray(req.values) ? req.values.filter((v): v is number => typeof v === 'number') : [];
  const valuesPath = path.child('values');
  if (values.length === 0) errs.push(invalid(valuesPath, Array.isArray(req.values) ? [] : null, 'at least one value is required'));
  else if (values.length > maxOnExitCodesValues) errs.push(tooMany(valuesPath, values.length, maxOnExitCodesValues));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalid(valuesPath.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(valuesPath.index(j), v));
    else seen.add(v);
    if (j > 0 && values[j - 1] > v) ordered = false;
  });
  if (!ordered) errs.push(invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

/** `validateSuccessPolicy` (an indexed Job's). */
function successPolicyErrors(spec: JSONObject, path: FieldPath): FieldError[] {
  const rules = Array.isArray(valueAt(spec, 'successPolicy', 'rules')) ? valueAt(spec, 'successPolicy', 'rules') as unknown[] : [];
  const rulesPath = path.child('rules');
  const errs: FieldError[] = [];
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > maxSuccessPolicyRules) errs.push(tooMany(rulesPath, rules.length, maxSuccessPolicyRules));
  const completions = num(spec.completions) ?? 0;
  rules.forEach((r, i) => {
    const rule = isObject(r) ? r : {};
    const at = rulesPath.index(i);
    const count = num(rule.succeededCount);
    const indexes = typeof rule.succeededIndexes === 'string' ? rule.succeededIndexes : undefined;
    if (count === undefined && indexes === undefined) errs.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (indexes !== undefined) {
      if (Buffer.byteLength(indexes) > maxSucceededIndexesLength) errs.push(tooLong(at.child('succeededIndexes'), '', maxSucceededIndexesLength));
      const parsed = indexesTotal(indexes, completions);
      if (typeof parsed === 'string') errs.push(invalid(at.child('succeededIndexes'), indexes, `error parsing succeededIndexes: ${parsed}`));
      else total = parsed;
    }
    if (count !== undefined) {
      errs.push(...nonnegative(count, at.child('succeededCount')));
      if (count > completions) errs.push(invalid(at.child('succeededCount'), count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (indexes !== undefined && count > total) errs.push(invalid(at.child('succeededCount'), count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

/** `strconv.Atoi`: an optional sign and decimal digits (within int64), else undefined. */
function atoi(text: string): number | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Math.abs(n) <= 9_223_372_036_854_775_807 ? n : undefined;
}

/** `validateIndexesFormat`: the number of indexes of `0,2-4`-style intervals below `completions`, or why it does not parse. */
function indexesTotal(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2) return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
    const x = atoi(limits[0]);
    if (x === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[0])}`;
    if (x >= completions) return `too large index: ${JSON.stringify(limits[0])}`;
    let y = x;
    if (limits.length > 1) {
      const end = atoi(limits[1]);
      if (end === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[1])}`;
      if (end >= completions) return `too large index: ${JSON.stringify(limits[1])}`;
      if (x >= end) return `non-increasing order, previous: ${x}, current: ${end}`;
      y = end;
    }
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** `ValidateJob`'s last check: an indexed Job's last pod hostname (`<name>-<completions-1>`) must be a DNS label. */
export function indexedHostnameErrors(o: KubeObject): FieldError[] {
  const completions = num(valueAt(o, 'spec', 'completions'));
  if (valueAt(o, 'spec', 'completionMode') !== 'Indexed' || completions === undefined || completions <= 0) return [];
  const name = o.metadata.name ?? '';
  const hostname = `${name}-${completions - 1}`;
  return isDNS1123Label(hostname).length > 0 ? [invalid('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`)] : [];
}

/** `ValidateJobSpecUpdate`'s immutable fields after the ones kubekit checked (completion mode, pod failure and success policies, per-index backoff, managedBy). */
export function jobImmutableFields(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    const now = valueAt(o, 'spec', key);
    if (semanticEqual(now, valueAt(old, 'spec', key))) continue;
    const text = key === 'podFailurePolicy' ? podFailurePolicyGo(now) : key === 'successPolicy' && isObject(now) ? successPolicyGo(now) : undefined;
    errs.push(new FieldError('FieldValueInvalid', FieldPath.root('spec', key), now ?? null, 'field is immutable', text));
  }
  return errs;
}

/** A pod failure policy as Go marshals the internal type (`{"Rules":[…]}`, members capitalised). */
function podFailurePolicyGo(policy: unknown): string | undefined {
  if (!isObject(policy)) return undefined;
  const rules = Array.isArray(policy.rules) ? policy.rules : null;
  const rule = (r: unknown): string => {
    const o = isObject(r) ? r : {};
    const codes = isObject(o.onExitCodes)
      ? `{"ContainerName":${typeof o.onExitCodes.containerName === 'string' ? JSON.stringify(o.onExitCodes.containerName) : 'null'},"Operator":${JSON.stringify(String(o.onExitCodes.operator ?? ''))},"Values":${Array.isArray(o.onExitCodes.values) ? JSON.stringify(o.onExitCodes.values) : 'null'}}`
      : 'null';
    const conditions = Array.isArray(o.onPodConditions) ? `[${objects(o.onPodConditions).map((p) => `{"Type":${JSON.stringify(String(p.type ?? ''))},"Status":${JSON.stringify(String(p.status ?? ''))}}`).join(',')}]` : 'null';
    return `{"Action":${JSON.stringify(String(o.action ?? ''))},"OnExitCodes":${codes},"OnPodConditions":${conditions}}`;
  };
  return `{"Rules":${rules === null ? 'null' : `[${rules.map(rule).join(',')}]`}}`;
}

/** Whether Go's `time.LoadLocation` finds `name` (the IANA database, as Node's Intl knows it). */
function knownTimeZone(name: string): boolean {
  if (name === 'UTC' || name === '') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A cron field's bounds and names (robfig/cron's `bounds`). */
interface Bounds { min: number; max: number; names?: Readonly<Record<string, number>> }
const cronFields: readonly Bounds[] = [
  { min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 },
  { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } },
  { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
];
const descriptors = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];


/** `strconv.Atoi`, as robfig's `mustParseInt` reports it. */
function cronInt(expr: string): number | string {
  if (!/^[+-]?\d+$/.test(expr)) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`;
  const n = Number(expr);
  if (!Number.isSafeInteger(n) && Math.abs(n) > 9_223_372_036_854_775_807) return `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`;
  return n < 0 ? `negative number (${n}) not allowed: ${expr}` : n;
}

/** robfig/cron's `getRange`: its error, if any. */
function cronRangeError(expr: string, b: Bounds): string | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    const named = (e: string): number | string => (b.names !== undefined && Object.hasOwn(b.names, e.toLowerCase()) ? b.names[e.toLowerCase()] : cronInt(e));
    const s = named(lowAndHigh[0]);
    if (typeof s === 'string') return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = named(lowAndHigh[1]);
      if (typeof e === 'string') return e;
      end = e;
    } else return `too many hyphens: ${expr}`;
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    const st = cronInt(rangeAndStep[1]);
    if (typeof st === 'string') return st;
    step = st;
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) return `too many slashes: ${expr}`;
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return step === 0 ? `step of range should be a positive number: ${expr}` : undefined;
}

/** `time.ParseDuration`'s error for `text`, if any. */
function durationError(text: string): string | undefined {
  return parseGoDuration(text).error;
}

/**
 * robfig/cron's `ParseStandard` (five fields, descriptors, a `TZ=`/`CRON_TZ=` prefix naming a known
 * zone): its error, if any.
 */
function scheduleError(schedule: string): string | undefined {
  let spec = schedule;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const location = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
    if (location !== 'Local' && !knownTimeZone(location)) return `provided bad location ${location}: unknown time zone ${location}`;
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (descriptors.includes(spec)) return undefined;
    if (spec.startsWith('@every ')) {
      const why = durationError(spec.slice('@every '.length));
      return why === undefined ? undefined : `failed to parse duration ${spec}: ${why}`;
    }
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  for (let i = 0; i < 5; i++) {
    for (const expr of fields[i].split(',').filter((e) => e !== '')) {
      const why = cronRangeError(expr, cronFields[i]);
      if (why !== undefined) return why;
    }
  }
  return undefined;
}

/** `validateCronJobSpec` (and on create the name's length): schedule, deadline, time zone, concurrency, the job template, history limits. */
export function validateCronJob(o: KubeObject, old: KubeObject | undefined, template: (path: FieldPath) => FieldError[]): FieldError[] {
  const spec = isObject(o.spec) ? o.spec : {};
  const oldSpec = old !== undefined && isObject(old.spec) ? old.spec : undefined;
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') {
    errs.push(required(path.child('schedule'), ''));
  } else {
    const parse = scheduleError(schedule);
    if (parse !== undefined) errs.push(invalid(path.child('schedule'), schedule, parse));
    const allowTZ = oldSpec !== undefined && typeof oldSpec.schedule === 'string' && oldSpec.schedule.includes('TZ');
    if (allowTZ && schedule.includes('TZ') && typeof spec.timeZone === 'string') errs.push(invalid(path.child('schedule'), schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    else if (!allowTZ && schedule.includes('TZ')) errs.push(invalid(path.child('schedule'), schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  errs.push(...nonnegative(num(spec.startingDeadlineSeconds), path.child('startingDeadlineSeconds')));
  const zone = spec.timeZone;
  if (typeof zone === 'string' && (oldSpec === undefined || oldSpec.timeZone !== zone)) {
    const zonePath = path.child('timeZone');
    if (zone === '') errs.push(invalid(zonePath, zone, 'timeZone must be nil or non-empty string'));
    else if (zone.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part))) errs.push(invalid(zonePath, zone, `unknown time zone ${zone}`));
    else {
      if (zone.toLowerCase() === 'local') errs.push(invalid(zonePath, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
      // time.LoadLocation takes "Local" itself (only that spelling).
      if (zone !== 'Local' && (!knownTimeZone(zone) || zone.toLowerCase() === 'local')) errs.push(invalid(zonePath, zone, `unknown time zone ${zone}`));
    }
  }
  const policy = typeof spec.concurrencyPolicy === 'string' ? spec.concurrencyPolicy : '';
  if (policy === '') errs.push(required(path.child('concurrencyPolicy'), ''));
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy)) errs.push(notSupported(path.child('concurrencyPolicy'), policy, ['Allow', 'Forbid', 'Replace']));
  // ValidateJobTemplateSpec: validateJobSpec, then no selector and no manual selector.
  const jobPath = path.child('jobTemplate', 'spec');
  errs.push(...validateJobSpecFields(valueAt(spec, 'jobTemplate', 'spec'), jobPath), ...template(jobPath.child('template')));
  const selector = valueAt(spec, 'jobTemplate', 'spec', 'selector');
  if (selector !== undefined && selector !== null) errs.push(invalid(jobPath.child('selector'), selector, '`selector` will be auto-generated'));
  if (valueAt(spec, 'jobTemplate', 'spec', 'manualSelector') === true) errs.push(notSupported(jobPath.child('manualSelector'), true, ['nil', 'false']));
  errs.push(...nonnegative(num(spec.successfulJobsHistoryLimit), path.child('successfulJobsHistoryLimit')), ...nonnegative(num(spec.failedJobsHistoryLimit), path.child('failedJobsHistoryLimit')));
  if (old === undefined && Buffer.byteLength(o.metadata.name ?? '') > 52) errs.push(invalid('metadata.name', o.metadata.name, 'must be no more than 52 characters'));
  return errs;
}
