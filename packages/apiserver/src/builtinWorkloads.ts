/**
 * The workload kinds operators create: apps/v1 Deployments, StatefulSets, DaemonSets and ReplicaSets,
 * batch/v1 Jobs and CronJobs — with the defaults of their registered defaulting functions (the pod
 * template's included), the validation operators commonly hit (selector required, non-empty and
 * matching the template's labels, the template as `ValidatePodTemplateSpec` checks it, restart
 * policies, no deadline for the apps kinds), generation
 * on spec changes, status and scale subresources, and the Table columns of the apiserver's printers.
 *
 * There is no controller behind them: no ReplicaSet is rolled out, no Pod is created, no Job runs.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go
 * @see https://github.com/kubernetes/kubernetes/blob/master/pkg/printers/internalversion/printers.go
 */
import { replicasPathMappings } from './managedFields/scaleHandler.js';
import { FieldError, FieldPath, forbidden, goJSON, goJSONString, humanDuration, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { isDNS1123Label, labelSelectorFromObject, validateLabelSelector, validateLabels, type LabelSelectorObject } from './internal/semantics.js';
import { BuiltinResourceType, type BuiltinColumn, type BuiltinSpec } from './builtinKinds.js';
import { childObject, cloneJSON, isObject, objectAt, setDefault, valueAt, type JSONObject } from './internal/own.js';
import { roundUpListToMilli } from './internal/resourceList.js';
import { semanticEqual } from './internal/deepEqual.js';
import { defaultPodTemplate } from './podDefaults.js';
import { validatePodSpec } from './podSpecValidation.js';
import { validatePodSpecificAnnotations } from './podValidation.js';
import { validateAnnotations } from './objectMeta.js';
import { append } from './internal/podFields.js';
import { claimSpecWarnings, podNameWarning, podSpecWarnings } from './podWarnings.js';
import { validateClaimSpec } from './claimValidation.js';
import { indexedHostnameErrors, jobImmutableFields, nonnegative, validateCronJob, validateJobSpecFields } from './jobValidation.js';
import { wasEmpty } from './builtinGoJSON.js';

/** `GetWarningsForPodTemplate` of `spec.template` (the strategies warn on create, and on an update that bumps the generation, which prepareForUpdate has set by then). */
function templateWarnings(o: KubeObject, path: string[] = ['spec']): string[] {
  const template = valueAt(o, ...path, 'template');
  return podSpecWarnings(FieldPath.root(...path, 'template'), valueAt(template, 'spec'), valueAt(template, 'metadata'));
}

/**
 * `dropDisabledStatusFields` of Deployments and ReplicaSets: `status.terminatingReplicas` belongs to the
 * DeploymentReplicaSetTerminatingReplicas feature, off in 1.34, so a status write drops it unless the stored
 * status has it.
 */
function dropTerminatingReplicas(o: KubeObject, old: KubeObject): void {
  const had = isObject(old.status) && old.status.terminatingReplicas !== undefined && old.status.terminatingReplicas !== null;
  if (!had && isObject(o.status)) delete o.status.terminatingReplicas;
}

/** The warnings of a StatefulSet's volume claim templates (`GetWarningsForPersistentVolumeClaimSpec` under `spec.volumeClaimTemplates[i]` and `more`). */
function claimTemplateWarnings(o: KubeObject, more: string[]): string[] {
  const templates = valueAt(o, 'spec', 'volumeClaimTemplates');
  if (!Array.isArray(templates)) return [];
  return templates.flatMap((t, i) => claimSpecWarnings(FieldPath.root('spec', 'volumeClaimTemplates').index(i).child(...more), isObject(t) ? t.spec : undefined));
}

/** A StatefulSet's warning for a negative `revisionHistoryLimit` (which it takes: every revision is kept). */
function revisionHistoryWarning(o: KubeObject): string[] {
  const limit = valueAt(o, 'spec', 'revisionHistoryLimit');
  return typeof limit === 'number' && limit < 0 ? ['spec.revisionHistoryLimit: a negative value retains all historical revisions; a value >= 0 is recommended'] : [];
}

/** `WarningsForJobSpec`: an Indexed Job too large to track its failed indexes, then the template's warnings. */
function jobSpecWarnings(o: KubeObject, path: string[]): string[] {
  const warnings: string[] = [];
  const completions = valueAt(o, ...path, 'completions');
  const parallelism = valueAt(o, ...path, 'parallelism');
  if (valueAt(o, ...path, 'completionMode') === 'Indexed' && typeof completions === 'number' && completions > 100_000 && typeof parallelism === 'number' && parallelism > 10_000) {
    warnings.push(`${path.join('.')}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`);
  }
  return [...warnings, ...templateWarnings(o, path)];
}

/**
 * `ValidatePodTemplateSpec`: the template's labels and annotations (named without `metadata`, as the
 * apiserver names them), the pod-specific annotations, the pod spec ({@link validatePodSpec}), and no
 * ephemeral containers.
 */
export function validatePodTemplate(template: unknown, path: FieldPath): FieldError[] {
  const meta = objectAt(template, 'metadata');
  const spec = valueAt(template, 'spec');
  const errs = [
    ...validateLabels(meta?.labels as Record<string, string> | undefined, path.child('labels')),
    ...validateAnnotations(meta?.annotations as Record<string, string> | undefined, path.child('annotations')),
    ...validatePodSpecificAnnotations(meta?.annotations, spec, path.child('annotations')),
    ...validatePodSpec(spec, path.child('spec'), false),
  ];
  const ephemeral = valueAt(template, 'spec', 'ephemeralContainers');
  if (Array.isArray(ephemeral) && ephemeral.length > 0) errs.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}

/** Go's `json.Marshal` of a `metav1.LabelSelector`: its members in declaration order, empty ones left out. */
export function selectorJSON(selector: unknown): string {
  if (!isObject(selector)) return goJSON(selector ?? null);
  const parts: string[] = [];
  if (isObject(selector.matchLabels) && Object.keys(selector.matchLabels).length > 0) parts.push(`"matchLabels":${goJSON(selector.matchLabels)}`);
  if (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0) {
    const exprs = selector.matchExpressions.map((e) => {
      if (!isObject(e)) return goJSON(e);
      const members = [`"key":${goJSON(e.key ?? '')}`, `"operator":${goJSON(e.operator ?? '')}`];
      if (Array.isArray(e.values) && e.values.length > 0) members.push(`"values":${goJSON(e.values)}`);
      return `{${members.join(',')}}`;
    });
    parts.push(`"matchExpressions":[${exprs.join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The selector checks of `ValidateDeploymentSpec` and `ValidateReplicaSetSpec` (`deployment`),
 * `ValidateStatefulSetSpec`, `ValidateDaemonSetSpec` and `validateJobSpec`, each in its order: required
 * (not for a DaemonSet), `ValidateLabelSelector`'s errors, not empty (not for a DaemonSet or a Job here;
 * a DaemonSet's comes after the template check), the selector that does not convert (`LabelSelectorAsSelector`:
 * "invalid label selector" for the first two kinds, no detail for a StatefulSet, nothing for the others),
 * and the template's labels matching it (a nil selector matches nothing, an empty one everything).
 * `unparsable`: the template is not validated then (Deployments, ReplicaSets, StatefulSets).
 */
function validateSelector(o: KubeObject, kindWord: 'deployment' | 'statefulset' | 'daemonset' | 'job', templatePath = ['spec', 'template']): { errs: FieldError[]; unparsable: boolean } {
  const path = FieldPath.root('spec', 'selector');
  const selector = valueAt(o, 'spec', 'selector');
  const labels = objectAt(o, ...templatePath, 'metadata', 'labels');
  const errs: FieldError[] = [];
  const nil = selector === undefined || selector === null;
  const empty = isObject(selector) && (isObject(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0) + (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0) === 0;
  const emptyError = new FieldError('FieldValueInvalid', path, selector, `empty selector is invalid for ${kindWord}`, selectorJSON(selector));
  if (nil) {
    if (kindWord !== 'daemonset') errs.push(required(path, ''));
  } else {
    errs.push(...validateLabelSelector(selector as LabelSelectorObject, path));
    if (empty && (kindWord === 'deployment' || kindWord === 'statefulset')) errs.push(emptyError);
  }
  let matches = false;
  let unparsable = false;
  if (!nil) {
    try {
      const parsed = labelSelectorFromObject(selector as LabelSelectorObject);
      const set: Record<string, string> = {};
      for (const [k, v] of Object.entries(labels ?? {})) set[k] = String(v);
      matches = empty || parsed.matches(set);
    } catch {
      unparsable = true;
    }
  }
  if (unparsable) {
    if (kindWord === 'deployment') errs.push(new FieldError('FieldValueInvalid', path, selector, 'invalid label selector', selectorJSON(selector)));
    else if (kindWord === 'statefulset') errs.push(new FieldError('FieldValueInvalid', path, selector, '', selectorJSON(selector)));
  } else if (!matches) {
    const emptied = wasEmpty(valueAt(o, ...templatePath, 'metadata'), 'labels');
    errs.push(invalid(FieldPath.root(...templatePath).child('metadata', 'labels'), labels ?? (emptied ? {} : null), '`selector` does not match template `labels`'));
  }
  if (empty && kindWord === 'daemonset') errs.push(emptyError);
  return { errs, unparsable: unparsable && kindWord !== 'daemonset' && kindWord !== 'job' };
}

/** The selector checks and, unless the selector does not convert, the template's (`ValidatePodTemplateSpecForReplicaSet`). */
function validateReplicaSetTemplate(o: KubeObject): FieldError[] {
  const { errs, unparsable } = validateSelector(o, 'deployment');
  if (unparsable) return errs;
  return [
    ...errs,
    ...validatePodTemplate(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template')),
    ...validateAlwaysRunning(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template'), 'ReplicaSet'),
  ];
}

/** `ValidateNonnegativeField` of an integer field of the spec, when it is set. */
export function nonnegativeAt(o: KubeObject, ...path: string[]): FieldError[] {
  const v = valueAt(o, ...path);
  // An int64 beyond 2^53 is decoded as a bigint.
  return nonnegative(typeof v === 'number' || typeof v === 'bigint' ? v : undefined, FieldPath.root(path[0], ...path.slice(1)));
}

const percentPattern = /^[0-9]+%$/;
const percentMessage = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** `field.Invalid` of an `IntOrString`, which Go prints with `json.Marshal` (a string as JSON, not `%q`). */
function invalidIntOrString(path: FieldPath, value: unknown, detail: string): FieldError {
  return new FieldError('FieldValueInvalid', path, value, detail, goJSON(value ?? 0));
}

/** `ValidatePositiveIntOrPercent`: a percentage (`[0-9]+%`) or a nonnegative integer. */
export function intOrPercentErrors(value: unknown, path: FieldPath): FieldError[] {
  if (typeof value === 'string') return percentPattern.test(value) ? [] : [invalidIntOrString(path, value, percentMessage)];
  return typeof value === 'number' && value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** `getIntOrPercentValue`: a percentage's number, else the integer (a string that is neither counts as `strconv.Atoi` reads it, 0 when it cannot). */
function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return 0;
  if (percentPattern.test(value)) return Number(value.slice(0, -1));
  return /^[+-]?[0-9]+$/.test(value) ? Number(value) : 0;
}

/** `IsNotMoreThan100Percent`. */
export function notOver100Percent(value: unknown, path: FieldPath): FieldError[] {
  return typeof value === 'string' && percentPattern.test(value) && Number(value.slice(0, -1)) > 100 ? [invalidIntOrString(path, value, 'must not be greater than 100%')] : [];
}

/** Go's `json.Marshal` of an internal update strategy (`{"Type":…,"RollingUpdate":{…}|null}`): no JSON tags, zero values kept. */
function strategyJSON(strategy: JSONObject, rollingUpdate: (ru: JSONObject) => string): string {
  const type = typeof strategy.type === 'string' ? strategy.type : '';
  const ru = isObject(strategy.rollingUpdate) ? rollingUpdate(strategy.rollingUpdate) : 'null';
  return `{"Type":${goJSONString(type)},"RollingUpdate":${ru}}`;
}

const intOrStringJSON = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? goJSON(v) : '0');
const unavailableSurgeJSON = (ru: JSONObject): string => `{"MaxUnavailable":${intOrStringJSON(ru.maxUnavailable)},"MaxSurge":${intOrStringJSON(ru.maxSurge)}}`;

/**
 * What `ValidateDeploymentSpec` checks after the template: the strategy (`ValidateDeploymentStrategy`,
 * `ValidateRollingUpdateDeployment`), `minReadySeconds`, `revisionHistoryLimit` and
 * `progressDeadlineSeconds`.
 */
function validateDeploymentRollout(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec', 'strategy');
  const strategy = objectAt(o, 'spec', 'strategy') ?? {};
  const ru = strategy.rollingUpdate;
  if (strategy.type === 'Recreate') {
    if (ru !== undefined && ru !== null) errs.push(forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
  } else if (strategy.type === 'RollingUpdate') {
    if (!isObject(ru)) errs.push(required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
    else {
      const ruPath = path.child('rollingUpdate');
      errs.push(...intOrPercentErrors(ru.maxUnavailable, ruPath.child('maxUnavailable')), ...intOrPercentErrors(ru.maxSurge, ruPath.child('maxSurge')));
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) errs.push(invalidIntOrString(ruPath.child('maxUnavailable'), ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
      errs.push(...notOver100Percent(ru.maxUnavailable, ruPath.child('maxUnavailable')));
    }
  } else {
    errs.push(new FieldError('FieldValueNotSupported', path, strategy, 'supported values: "Recreate", "RollingUpdate"', strategyJSON(strategy, unavailableSurgeJSON)));
  }
  errs.push(...nonnegativeAt(o, 'spec', 'minReadySeconds'), ...nonnegativeAt(o, 'spec', 'revisionHistoryLimit'));
  const deadline = valueAt(o, 'spec', 'progressDeadlineSeconds');
  if (typeof deadline === 'number') {
    errs.push(...nonnegativeAt(o, 'spec', 'progressDeadlineSeconds'));
    const minReady = valueAt(o, 'spec', 'minReadySeconds');
    if (deadline <= (typeof minReady === 'number' ? minReady : 0)) errs.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** What `ValidateDaemonSetSpec` checks after the template: `minReadySeconds`, the update strategy (`ValidateDaemonSetUpdateStrategy`) and `revisionHistoryLimit`. */
function validateDaemonSetRollout(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [...nonnegativeAt(o, 'spec', 'minReadySeconds')];
  const path = FieldPath.root('spec', 'updateStrategy');
  const strategy = objectAt(o, 'spec', 'updateStrategy') ?? {};
  const ru = strategy.rollingUpdate;
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(ru)) errs.push(required(path.child('rollingUpdate'), ''));
    else {
      const ruPath = path.child('rollingUpdate');
      errs.push(
        ...intOrPercentErrors(ru.maxUnavailable, ruPath.child('maxUnavailable')), ...intOrPercentErrors(ru.maxSurge, ruPath.child('maxSurge')),
        ...notOver100Percent(ru.maxUnavailable, ruPath.child('maxUnavailable')), ...notOver100Percent(ru.maxSurge, ruPath.child('maxSurge')),
      );
      const unavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const surge = intOrPercentValue(ru.maxSurge) !== 0;
      if (unavailable && surge) errs.push(invalidIntOrString(ruPath.child('maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!unavailable && !surge) errs.push(required(ruPath.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
    }
  } else if (strategy.type !== 'OnDelete') {
    errs.push(new FieldError('FieldValueNotSupported', path, strategy, 'supported values: "RollingUpdate", "OnDelete"', strategyJSON(strategy, unavailableSurgeJSON)));
  }
  errs.push(...nonnegativeAt(o, 'spec', 'revisionHistoryLimit'));
  return errs;
}

/** The update strategy checks of `ValidateStatefulSetSpec` (after the pod management policy). */
function validateStatefulSetUpdateStrategy(o: KubeObject): FieldError[] {
  const path = FieldPath.root('spec', 'updateStrategy');
  const strategy = objectAt(o, 'spec', 'updateStrategy') ?? {};
  const ru = strategy.rollingUpdate;
  const partitionJSON = (r: JSONObject): string => `{"Partition":${typeof r.partition === 'number' ? goJSON(r.partition) : '0'},"MaxUnavailable":${r.maxUnavailable === undefined || r.maxUnavailable === null ? 'null' : intOrStringJSON(r.maxUnavailable)}}`;
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') return [required(path, '')];
  if (strategy.type === 'OnDelete') {
    return isObject(ru) ? [new FieldError('FieldValueInvalid', path.child('rollingUpdate'), ru, "only allowed for updateStrategy 'RollingUpdate'", partitionJSON(ru))] : [];
  }
  if (strategy.type === 'RollingUpdate') {
    if (!isObject(ru)) return [];
    const ruPath = path.child('rollingUpdate');
    const errs = nonnegativeAt(o, 'spec', 'updateStrategy', 'rollingUpdate', 'partition');
    if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
      errs.push(...intOrPercentErrors(ru.maxUnavailable, ruPath.child('maxUnavailable')));
      if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalidIntOrString(ruPath.child('maxUnavailable'), ru.maxUnavailable, 'cannot be 0'));
      errs.push(...notOver100Percent(ru.maxUnavailable, ruPath.child('maxUnavailable')));
    }
    return errs;
  }
  return [new FieldError('FieldValueInvalid', path, strategy, "must be 'RollingUpdate' or 'OnDelete'", strategyJSON(strategy, partitionJSON))];
}

function validateReplicas(o: KubeObject): FieldError[] {
  const r = valueAt(o, 'spec', 'replicas');
  if (typeof r === 'number' && r < 0) return [invalid('spec.replicas', r, 'must be greater than or equal to 0')];
  return [];
}

/**
 * What the apps kinds add to `ValidatePodTemplateSpec`: their pods restart `Always` and have no
 * `activeDeadlineSeconds` (`kindWord` names the kind as the apiserver's sentence does: a Deployment's
 * says ReplicaSet).
 */
export function validateAlwaysRunning(template: unknown, path: FieldPath, kindWord: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = valueAt(template, 'spec', 'restartPolicy');
  if (policy !== 'Always') errs.push(notSupported(path.child('spec', 'restartPolicy'), typeof policy === 'string' ? policy : '', ['Always']));
  const deadline = valueAt(template, 'spec', 'activeDeadlineSeconds');
  if (deadline !== undefined && deadline !== null) errs.push(forbidden(path.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kindWord} is not Supported`));
  return errs;
}

/**
 * `ValidatePodTemplateSpecForStatefulSet` as `ValidateStatefulSetSpec` calls it: the template is checked
 * without its host name and subdomain (the controller sets them) and with a claim volume for each
 * volume claim template (mounts may name them; they come first, so the template's own volumes are
 * numbered after them), and its labels and annotations are checked a second time.
 */
function validateStatefulSetTemplate(o: KubeObject): FieldError[] {
  const path = FieldPath.root('spec', 'template');
  const template = valueAt(o, 'spec', 'template');
  const claims = valueAt(o, 'spec', 'volumeClaimTemplates');
  let checked = template;
  if (isObject(template) && isObject(template.spec)) {
    const copy = cloneJSON(template);
    const spec = childObject(copy, 'spec');
    delete spec.hostname;
    delete spec.subdomain;
    if (Array.isArray(claims) && claims.length > 0) {
      const added = new Map<string, JSONObject>();
      for (const c of claims) {
        const name = isObject(c) && isObject(c.metadata) && typeof c.metadata.name === 'string' ? c.metadata.name : '';
        added.set(name, { name, persistentVolumeClaim: { claimName: name } });
      }
      const own = Array.isArray(spec.volumes) ? spec.volumes.filter((v) => !(isObject(v) && typeof v.name === 'string' && added.has(v.name))) : [];
      spec.volumes = [...added.values(), ...own];
    }
    checked = copy;
  }
  const meta = objectAt(template, 'metadata');
  return [
    ...validatePodTemplate(checked, path),
    ...validateLabels(meta?.labels as Record<string, string> | undefined, path.child('labels')),
    ...validateAnnotations(meta?.annotations as Record<string, string> | undefined, path.child('annotations')),
    ...validatePodSpecificAnnotations(meta?.annotations, valueAt(template, 'spec'), path.child('annotations')),
  ];
}

/**
 * `ValidateJobSpec`'s restart policy: `OnFailure` or `Never` (`Always`, the default, is `Required`), and
 * `Never` when a pod failure policy is given.
 */
function validateJobRestartPolicy(template: unknown, path: FieldPath, podFailurePolicy: unknown): FieldError[] {
  const policy = valueAt(template, 'spec', 'restartPolicy');
  const p = path.child('spec', 'restartPolicy');
  if (policy === 'Always' || policy === undefined || policy === null || policy === '') return [required(p, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [notSupported(p, policy, ['OnFailure', 'Never'])];
  if (podFailurePolicy !== undefined && podFailurePolicy !== null && policy !== 'Never') return [invalid(p, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/** A field that may not change after creation: `field is immutable`. */
function immutable(o: KubeObject, old: KubeObject, ...path: string[]): FieldError[] {
  const now = valueAt(o, ...path);
  if (semanticEqual(now, valueAt(old, ...path))) return [];
  // A selector is printed as Go marshals its LabelSelector (members in declaration order).
  const text = path.join('.') === 'spec.selector' ? selectorJSON(now) : undefined;
  return [new FieldError('FieldValueInvalid', FieldPath.root(path[0], ...path.slice(1)), now ?? null, 'field is immutable', text)];
}

function num(o: unknown, ...path: string[]): number {
  const v = valueAt(o, ...path);
  return typeof v === 'number' ? v : 0;
}

/** `metav1.FormatLabelSelector`: the selector as text, `<none>` when empty, `<error>` when invalid. */
export function formatSelector(selector: unknown): string {
  try {
    const text = labelSelectorFromObject(isObject(selector) ? selector as LabelSelectorObject : undefined).toString();
    return text === '' ? '<none>' : text;
  } catch {
    return '<error>';
  }
}

function containerList(template: unknown): JSONObject[] {
  const list = valueAt(template, 'spec', 'containers');
  return Array.isArray(list) ? list.filter(isObject) : [];
}

/** The wide columns `Containers`, `Images` (and `Selector`) of kinds with a pod template. */
export function templateColumns(templatePath: string[], selector: boolean): BuiltinColumn[] {
  const cols: BuiltinColumn[] = [
    { def: { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.' }, cell: (o) => containerList(valueAt(o, ...templatePath)).map((c) => String(c.name ?? '')).join(',') },
    { def: { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.' }, cell: (o) => containerList(valueAt(o, ...templatePath)).map((c) => String(c.image ?? '')).join(',') },
  ];
  if (selector) cols.push({ def: { name: 'Selector', type: 'string', priority: 1, description: 'Label selector of the pods.' }, cell: (o) => formatSelector(valueAt(o, 'spec', 'selector')) });
  return cols;
}

function int(name: string, description: string, cell: (o: KubeObject) => number): BuiltinColumn {
  return { def: { name, type: 'integer', priority: 0, description }, cell };
}

// The apps kinds' replicas path in every version the ScaleHandler maps (registry/apps/*/storage: replicasPathIn…).
const replicasScale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', replicasPathMappings: replicasPathMappings(['apps/v1beta1', 'apps/v1beta2', 'apps/v1'], '.spec.replicas'), selector: (o: KubeObject) => { const s = formatSelector(valueAt(o, 'spec', 'selector')); return s === '<none>' || s === '<error>' ? '' : s; } };

const deployment: BuiltinSpec = {
  names: { group: 'apps', version: 'v1', resource: 'deployments', singular: 'deployment', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'], status: true, nameValidation: 'subdomain', scale: replicasScale },
  generation: true,
  columns: [
    { def: { name: 'Ready', type: 'string', priority: 0, description: 'Number of the pod with ready state' }, cell: (o) => `${num(o, 'status', 'readyReplicas')}/${num(o, 'spec', 'replicas')}` },
    int('Up-to-date', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.', (o) => num(o, 'status', 'updatedReplicas')),
    int('Available', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.', (o) => num(o, 'status', 'availableReplicas')),
  ],
  wide: templateColumns(['spec', 'template'], true),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    setDefault(spec, 'replicas', 1);
    const strategy = childObject(spec, 'strategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = childObject(strategy, 'rollingUpdate');
      setDefault(ru, 'maxUnavailable', '25%');
      setDefault(ru, 'maxSurge', '25%');
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'progressDeadlineSeconds', 600);
    defaultPodTemplate(childObject(spec, 'template'));
  },
  prepareForCreate: (o) => { o.status = {}; },
  validate: (o) => [
    ...validateReplicas(o), ...validateReplicaSetTemplate(o),
    ...validateDeploymentRollout(o),
  ],
  validateUpdate: (o, old) => immutable(o, old, 'spec', 'selector'),
  warningsOnCreate: (o) => [...podNameWarning(o, 'Pod names and hostnames'), ...templateWarnings(o)],
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : templateWarnings(o)),
  statusKeepsLabels: true,
  dropStatusFields: dropTerminatingReplicas,
  validateStatusUpdate: validateDeploymentStatusUpdate,
};

/** A status member as its Go integer (absent or null: 0; an int64 beyond 2^53, such as observedGeneration, is a bigint). */
function statusInt(o: KubeObject, key: string): number | bigint {
  const v = valueAt(o, 'status', key);
  return typeof v === 'number' || typeof v === 'bigint' ? v : 0;
}

/** The count checks of an apps kind's status validation (pkg/apis/apps/validation). */
interface StatusCountRules {
  /** Counts that must not be negative, in the order they are checked. */
  counts: readonly string[];
  /** Pointer counts, checked when set. */
  optional?: readonly string[];
  /** `[count, bound, message]`: a count that must not exceed another (message: `cannot be greater than status.<bound>`). */
  notAbove?: readonly (readonly [string, string, string?])[];
  /** Whether `collisionCount` may not go down (`IsDecremented`). */
  collisions?: boolean;
}

/** The errors of an apps kind's status counts; the collision count's last, as the update functions add it. */
function statusCountErrors(o: KubeObject, old: KubeObject, rules: StatusCountRules): { counts: FieldError[]; collision: FieldError[] } {
  const errs: FieldError[] = [];
  const path = (key: string): FieldPath => FieldPath.root('status', key);
  const nonNegative = (key: string): void => {
    if (statusInt(o, key) < 0) errs.push(invalid(path(key), statusInt(o, key), 'must be greater than or equal to 0'));
  };
  for (const key of rules.counts) nonNegative(key);
  for (const key of rules.optional ?? []) if (['number', 'bigint'].includes(typeof valueAt(o, 'status', key))) nonNegative(key);
  for (const [key, bound, message] of rules.notAbove ?? []) {
    if (statusInt(o, key) > statusInt(o, bound)) errs.push(invalid(path(key), statusInt(o, key), message ?? `cannot be greater than status.${bound}`));
  }
  const collision: FieldError[] = [];
  // IsDecremented: a collision count that was set and is now lower, or gone.
  const before = valueAt(old, 'status', 'collisionCount');
  const now = valueAt(o, 'status', 'collisionCount');
  if (rules.collisions === true && typeof before === 'number' && (typeof now !== 'number' || now < before)) {
    collision.push(invalid(path('collisionCount'), typeof now === 'number' ? now : 0, 'cannot be decremented'));
  }
  return { counts: errs, collision };
}

/** `ValidateDeploymentStatusUpdate`: the metadata update, the counts, then the collision count. */
function validateDeploymentStatusUpdate(o: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const { counts, collision } = statusCountErrors(o, old, {
    counts: ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
    optional: ['terminatingReplicas', 'collisionCount'],
    notAbove: [['updatedReplicas', 'replicas'], ['readyReplicas', 'replicas'], ['availableReplicas', 'replicas'], ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas']],
    collisions: true,
  });
  return [...meta, ...counts, ...collision];
}

/** `ValidateReplicaSetStatusUpdate`: the metadata update, then the counts. */
function validateReplicaSetStatusUpdate(o: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const { counts } = statusCountErrors(o, old, {
    counts: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
    optional: ['terminatingReplicas'],
    notAbove: [['fullyLabeledReplicas', 'replicas'], ['readyReplicas', 'replicas'], ['availableReplicas', 'replicas'], ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas']],
  });
  return [...meta, ...counts];
}

/** `ValidateStatefulSetStatusUpdate`: the counts, the metadata update, then the collision count. */
function validateStatefulSetStatusUpdate(o: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const { counts, collision } = statusCountErrors(o, old, {
    counts: ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
    optional: ['observedGeneration', 'collisionCount'],
    notAbove: [['readyReplicas', 'replicas'], ['currentReplicas', 'replicas'], ['updatedReplicas', 'replicas'], ['availableReplicas', 'replicas'], ['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas']],
    collisions: true,
  });
  return [...counts, ...meta, ...collision];
}

/** `ValidateDaemonSetStatusUpdate`: the metadata update, the counts, then the collision count. */
function validateDaemonSetStatusUpdate(o: KubeObject, old: KubeObject, meta: FieldError[]): FieldError[] {
  const { counts, collision } = statusCountErrors(o, old, {
    counts: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'],
    optional: ['collisionCount'],
    collisions: true,
  });
  return [...meta, ...counts, ...collision];
}

const replicaSet: BuiltinSpec = {
  names: { group: 'apps', version: 'v1', resource: 'replicasets', singular: 'replicaset', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'], status: true, nameValidation: 'subdomain', scale: replicasScale },
  validateStatusUpdate: validateReplicaSetStatusUpdate,
  dropStatusFields: dropTerminatingReplicas,
  generation: true,
  columns: [
    int('Desired', 'Number of desired pods.', (o) => num(o, 'spec', 'replicas')),
    int('Current', 'Replicas is the most recently observed number of replicas.', (o) => num(o, 'status', 'replicas')),
    int('Ready', 'The number of ready replicas for this replica set.', (o) => num(o, 'status', 'readyReplicas')),
  ],
  wide: templateColumns(['spec', 'template'], true),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    setDefault(spec, 'replicas', 1);
    defaultPodTemplate(childObject(spec, 'template'));
  },
  prepareForCreate: (o) => { o.status = { replicas: 0 }; },
  validate: (o) => [
    ...validateReplicas(o), ...nonnegativeAt(o, 'spec', 'minReadySeconds'), ...validateReplicaSetTemplate(o),
  ],
  validateUpdate: (o, old) => immutable(o, old, 'spec', 'selector'),
  warningsOnCreate: (o) => [...podNameWarning(o, 'Pod names and hostnames'), ...templateWarnings(o)],
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : templateWarnings(o)),
};

const statefulSet: BuiltinSpec = {
  names: { group: 'apps', version: 'v1', resource: 'statefulsets', singular: 'statefulset', kind: 'StatefulSet', namespaced: true, shortNames: ['sts'], categories: ['all'], status: true, nameValidation: 'subdomain', scale: replicasScale },
  validateStatusUpdate: validateStatefulSetStatusUpdate,
  generation: true,
  columns: [{ def: { name: 'Ready', type: 'string', priority: 0, description: 'Number of the pod with ready state' }, cell: (o) => `${num(o, 'status', 'readyReplicas')}/${num(o, 'spec', 'replicas')}` }],
  wide: templateColumns(['spec', 'template'], false),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    const strategy = childObject(spec, 'updateStrategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') setDefault(childObject(strategy, 'rollingUpdate'), 'partition', 0);
    setDefault(spec, 'revisionHistoryLimit', 10);
    const retention = childObject(spec, 'persistentVolumeClaimRetentionPolicy');
    setDefault(retention, 'whenDeleted', 'Retain');
    setDefault(retention, 'whenScaled', 'Retain');
    defaultPodTemplate(childObject(spec, 'template'));
    // SetDefaults_StatefulSet: each claim template is a PersistentVolumeClaim with its own defaults
    // (TypeMeta, SetDefaults_PersistentVolumeClaim's volume mode and Pending phase).
    if (Array.isArray(spec.volumeClaimTemplates)) {
      for (const claim of spec.volumeClaimTemplates) {
        if (!isObject(claim)) continue;
        setDefault(claim, 'apiVersion', 'v1');
        setDefault(claim, 'kind', 'PersistentVolumeClaim');
        const claimSpec = childObject(claim, 'spec');
        setDefault(claimSpec, 'volumeMode', 'Filesystem');
        const claimStatus = childObject(claim, 'status');
        setDefault(claimStatus, 'phase', 'Pending');
        // SetDefaults_ResourceList.
        if (isObject(claimSpec.resources)) for (const list of ['limits', 'requests']) roundUpListToMilli(claimSpec.resources[list]);
        for (const list of ['capacity', 'allocatedResources']) roundUpListToMilli(claimStatus[list]);
      }
    }
  },
  prepareForCreate: (o) => { o.status = { replicas: 0, availableReplicas: 0 }; },
  validateCreate: (o) => validateStatefulSetSpec(o, true),
  // ValidateStatefulSetUpdate: the spec again, without the claim templates and the service name (both
  // immutable: values stored before may stay), then what may not change.
  validateUpdate: (o, old) => [...validateStatefulSetSpec(o, false), ...statefulSetImmutable(o, old)],
  // The claim templates' warnings on every update too; their paths are upstream's (no `spec` on create,
  // a capitalised `Spec` on update).
  warningsOnCreate: (o) => [...templateWarnings(o), ...claimTemplateWarnings(o, []), ...revisionHistoryWarning(o)],
  warningsOnUpdate: (o, old) => [...(o.metadata.generation === old.metadata.generation ? [] : templateWarnings(o)), ...claimTemplateWarnings(o, ['Spec']), ...revisionHistoryWarning(o)],
};

/** `ValidateStatefulSetSpec` (on create with its claim templates and service name; an update tolerates stored ones). */
function validateStatefulSetSpec(o: KubeObject, create: boolean): FieldError[] {
  const errs = [...validatePodManagementPolicy(o), ...validateStatefulSetUpdateStrategy(o)];
  const retention = valueAt(o, 'spec', 'persistentVolumeClaimRetentionPolicy');
  if (isObject(retention)) {
    for (const when of ['whenDeleted', 'whenScaled']) {
      const policy = retention[when] ?? '';
      if (policy !== 'Retain' && policy !== 'Delete') errs.push(notSupported(FieldPath.root('spec', 'persistentVolumeClaimRetentionPolicy', when), policy, ['Retain', 'Delete']));
    }
  }
  const claims = valueAt(o, 'spec', 'volumeClaimTemplates');
  if (create && Array.isArray(claims)) claims.forEach((c, i) => errs.push(...validateClaimSpec(isObject(c) ? c.spec : undefined, FieldPath.root('spec', 'volumeClaimTemplates').index(i).child('spec'))));
  errs.push(...validateReplicas(o), ...nonnegativeAt(o, 'spec', 'minReadySeconds'));
  errs.push(...nonnegativeAt(o, 'spec', 'ordinals', 'start'));
  const serviceName = valueAt(o, 'spec', 'serviceName');
  if (create && typeof serviceName === 'string' && serviceName !== '') for (const msg of isDNS1123Label(serviceName)) errs.push(invalid('spec.serviceName', serviceName, msg));
  errs.push(...statefulSetSelectorAndTemplate(o), ...validateAlwaysRunning(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template'), 'StatefulSet'));
  return errs;
}

/** What `ValidateStatefulSetUpdate` lets change: replicas, ordinals, template, update strategy, history limit, claim retention and minReadySeconds. */
function statefulSetImmutable(o: KubeObject, old: KubeObject): FieldError[] {
  const spec = cloneJSON(isObject(o.spec) ? o.spec : {});
  const was = isObject(old.spec) ? old.spec : {};
  for (const key of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy']) {
    if (Object.hasOwn(was, key)) spec[key] = was[key];
    else delete spec[key];
  }
  if (semanticEqual(spec, was)) return [];
  return [forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
}

/** A StatefulSet's selector checks, then its template's unless the selector does not convert. */
function statefulSetSelectorAndTemplate(o: KubeObject): FieldError[] {
  const { errs, unparsable } = validateSelector(o, 'statefulset');
  return unparsable ? errs : [...errs, ...validateStatefulSetTemplate(o)];
}

/** `ValidateStatefulSetSpec`: the pod management policy is one of the two. */
function validatePodManagementPolicy(o: KubeObject): FieldError[] {
  const policy = valueAt(o, 'spec', 'podManagementPolicy');
  if (policy === undefined || policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'")];
}

/**
 * The internal `spec.templateGeneration` of a DaemonSet, which apps/v1 carries as this annotation: 1 on
 * create, one more on each update that changes the template, whatever the client sends.
 */
const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

function setTemplateGeneration(o: KubeObject, generation: number): void {
  o.metadata.annotations = { ...o.metadata.annotations, [templateGenerationAnnotation]: String(generation) };
}

const daemonSet: BuiltinSpec = {
  names: { group: 'apps', version: 'v1', resource: 'daemonsets', singular: 'daemonset', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'], status: true, nameValidation: 'subdomain' },
  validateStatusUpdate: validateDaemonSetStatusUpdate,
  generation: true,
  columns: [
    int('Desired', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).', (o) => num(o, 'status', 'desiredNumberScheduled')),
    int('Current', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.', (o) => num(o, 'status', 'currentNumberScheduled')),
    int('Ready', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.', (o) => num(o, 'status', 'numberReady')),
    int('Up-to-date', 'The total number of nodes that are running updated daemon pod', (o) => num(o, 'status', 'updatedNumberScheduled')),
    int('Available', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)', (o) => num(o, 'status', 'numberAvailable')),
    {
      def: { name: 'Node Selector', type: 'string', priority: 0, description: 'NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/' },
      cell: (o) => {
        const ns = objectAt(o, 'spec', 'template', 'spec', 'nodeSelector');
        const keys = Object.keys(ns ?? {}).sort();
        return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${String(ns![k])}`).join(',');
      },
    },
  ],
  wide: templateColumns(['spec', 'template'], true),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    const strategy = childObject(spec, 'updateStrategy');
    setDefault(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const ru = childObject(strategy, 'rollingUpdate');
      setDefault(ru, 'maxUnavailable', 1);
      setDefault(ru, 'maxSurge', 0);
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
    defaultPodTemplate(childObject(spec, 'template'));
  },
  prepareForCreate: (o) => {
    o.status = { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 };
    setTemplateGeneration(o, 1);
  },
  versionedAnnotations: [templateGenerationAnnotation],
  prepareForUpdate: (o, old) => {
    const previous = Number.parseInt(old.metadata.annotations?.[templateGenerationAnnotation] ?? '0', 10) || 0;
    setTemplateGeneration(o, semanticEqual(valueAt(o, 'spec', 'template'), valueAt(old, 'spec', 'template')) ? previous : previous + 1);
  },
  validate: (o) => [
    ...validateSelector(o, 'daemonset').errs,
    ...validatePodTemplate(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template')),
    ...validateAlwaysRunning(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template'), 'DaemonSet'),
    ...validateDaemonSetRollout(o),
  ],
  validateUpdate: (o, old) => immutable(o, old, 'spec', 'selector'),
  warningsOnCreate: (o) => templateWarnings(o),
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : templateWarnings(o)),
};

function jobStatus(o: KubeObject): string {
  const conds = valueAt(o, 'status', 'conditions');
  const has = (type: string): boolean => Array.isArray(conds) && conds.some((c) => isObject(c) && c.type === type && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (valueAt(o, 'spec', 'suspend') === true) return 'Suspended';
  return 'Running';
}

/** The `Completions` cell: `succeeded/completions`, or `succeeded/1 of parallelism` without completions. */
function jobCompletions(o: KubeObject): string {
  const succeeded = num(o, 'status', 'succeeded');
  const completions = valueAt(o, 'spec', 'completions');
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = num(o, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(o: KubeObject, now: number): string {
  const start = valueAt(o, 'status', 'startTime');
  if (typeof start !== 'string') return '';
  const end = valueAt(o, 'status', 'completionTime');
  return humanDuration((typeof end === 'string' ? Date.parse(end) : now) - Date.parse(start));
}

const jobUidLabel = 'batch.kubernetes.io/controller-uid';

/** The Job defaults of `SetDefaults_Job` (no pod template restart policy: validation requires one). */
function defaultJobSpec(spec: JSONObject): void {
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  // SetDefaults_Job: a Job with a per-index backoff limit has no overall one (math.MaxInt32).
  setDefault(spec, 'backoffLimit', spec.backoffLimitPerIndex === undefined || spec.backoffLimitPerIndex === null ? 6 : 2147483647);
  setDefault(spec, 'completionMode', 'NonIndexed');
  defaultPodConditionPatterns(spec);
  setDefault(spec, 'suspend', false);
  if (spec.podFailurePolicy === undefined || spec.podFailurePolicy === null) setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
  else setDefault(spec, 'podReplacementPolicy', 'Failed');
  // A default (not the strategy's): the field manager sees it, so a new Job's managed fields own it.
  setDefault(spec, 'manualSelector', false);
}

/** `SetDefaults_PodFailurePolicyOnPodConditionsPattern` (wherever the type is: Jobs and CronJobs' templates): a pattern's status is True unless given. */
function defaultPodConditionPatterns(jobSpec: JSONObject): void {
  const rules = valueAt(jobSpec, 'podFailurePolicy', 'rules');
  for (const rule of Array.isArray(rules) ? rules : []) {
    if (!isObject(rule) || !Array.isArray(rule.onPodConditions)) continue;
    for (const p of rule.onPodConditions) if (isObject(p)) setDefault(p, 'status', 'True');
  }
}

/** `SetDefaults_Job`: a Job without labels takes its pod template's. */
function defaultJobLabels(o: KubeObject): void {
  const labels = objectAt(o, 'spec', 'template', 'metadata', 'labels');
  if (labels === undefined) return;
  if (o.metadata.labels === undefined || Object.keys(o.metadata.labels).length === 0) o.metadata.labels = { ...(labels as Record<string, string>) };
}

const job: BuiltinSpec = {
  orphanDependentsByDefault: true,
  orphanWarning: 'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
  names: { group: 'batch', version: 'v1', resource: 'jobs', singular: 'job', kind: 'Job', namespaced: true, shortNames: [], categories: ['all'], status: true, nameValidation: 'subdomain' },
  generation: true,
  columns: [
    { def: { name: 'Status', type: 'string', priority: 0, description: 'Status of the job.' }, cell: jobStatus },
    { def: { name: 'Completions', type: 'string', priority: 0, description: 'The desired number of successfully finished pods the job should be run with.' }, cell: jobCompletions },
    { def: { name: 'Duration', type: 'string', priority: 0, description: 'Time required to complete the job.' }, cell: jobDuration },
  ],
  wide: templateColumns(['spec', 'template'], true),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    defaultJobSpec(spec);
    defaultJobLabels(o);
    // SetDefaults_PodSpec makes a missing restart policy Always, which Job validation then refuses.
    defaultPodTemplate(childObject(spec, 'template'));
  },
  prepareForCreate: (o) => {
    o.status = {};
    const spec = childObject(o, 'spec');
    if (spec.manualSelector === true) return;
    spec.manualSelector = false;
    // generateSelector: the Job's uid selects its pods.
    const uid = o.metadata.uid ?? '';
    const name = o.metadata.name ?? '';
    if (!isObject(spec.selector)) spec.selector = { matchLabels: { [jobUidLabel]: uid } };
    const meta = childObject(childObject(spec, 'template'), 'metadata');
    meta.labels = { ...(isObject(meta.labels) ? meta.labels : {}), [jobUidLabel]: uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
    // SetDefaults_Job runs again when the apiserver reads the stored Job back, now with these labels.
    defaultJobLabels(o);
  },
  // ValidateJob: validateJobSpec (its fields, the pod template, the restart policy), then the selector, then
  // an indexed Job's last pod hostname.
  validate: (o) => {
    const tp = FieldPath.root('spec', 'template');
    const template = valueAt(o, 'spec', 'template');
    const errs = [...validateJobSpecFields(o.spec, FieldPath.root('spec')), ...validatePodTemplate(template, tp)];
    append(errs, validateJobRestartPolicy(template, tp, valueAt(o, 'spec', 'podFailurePolicy')));
    return [...errs, ...validateSelector(o, 'job').errs, ...indexedHostnameErrors(o)];
  },
  validateUpdate: (o, old) => [
    ...immutable(o, old, 'spec', 'completions'), ...immutable(o, old, 'spec', 'selector'), ...immutable(o, old, 'spec', 'template'), ...jobImmutableFields(o, old),
  ],
  warningsOnCreate: (o) => [...podNameWarning(o, 'Pod names and hostnames'), ...jobSpecWarnings(o, ['spec'])],
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : jobSpecWarnings(o, ['spec'])),
};

const cronJob: BuiltinSpec = {
  names: { group: 'batch', version: 'v1', resource: 'cronjobs', singular: 'cronjob', kind: 'CronJob', namespaced: true, shortNames: ['cj'], categories: ['all'], status: true, nameValidation: 'subdomain' },
  generation: true,
  columns: [
    { def: { name: 'Schedule', type: 'string', priority: 0, description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.' }, cell: (o) => String(valueAt(o, 'spec', 'schedule') ?? '') },
    { def: { name: 'Timezone', type: 'string', priority: 0, description: 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.' }, cell: (o) => { const tz = valueAt(o, 'spec', 'timeZone'); return typeof tz === 'string' ? tz : '<none>'; } },
    { def: { name: 'Suspend', type: 'boolean', priority: 0, description: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.' }, cell: (o) => (valueAt(o, 'spec', 'suspend') === true ? 'True' : 'False') },
    int('Active', 'A list of pointers to currently running jobs.', (o) => { const a = valueAt(o, 'status', 'active'); return Array.isArray(a) ? a.length : 0; }),
    { def: { name: 'Last Schedule', type: 'string', priority: 0, description: 'Information when was the last time the job was successfully scheduled.' }, cell: (o, now) => { const t = valueAt(o, 'status', 'lastScheduleTime'); return typeof t === 'string' ? humanDuration(now - Date.parse(t)) : '<none>'; } },
  ],
  wide: templateColumns(['spec', 'jobTemplate', 'spec', 'template'], false).concat([{ def: { name: 'Selector', type: 'string', priority: 1, description: 'Label selector of the pods.' }, cell: (o) => formatSelector(valueAt(o, 'spec', 'jobTemplate', 'spec', 'selector')) }]),
  defaults: (o) => {
    const spec = childObject(o, 'spec');
    setDefault(spec, 'concurrencyPolicy', 'Allow');
    setDefault(spec, 'suspend', false);
    setDefault(spec, 'successfulJobsHistoryLimit', 3);
    setDefault(spec, 'failedJobsHistoryLimit', 1);
    const jobTemplate = childObject(spec, 'jobTemplate');
    childObject(jobTemplate, 'metadata');
    defaultPodConditionPatterns(childObject(jobTemplate, 'spec'));
    defaultPodTemplate(childObject(childObject(jobTemplate, 'spec'), 'template'));
  },
  prepareForCreate: (o) => { o.status = {}; },
  validateCreate: (o) => validateCronJob(o, undefined, (tp) => cronJobTemplate(o, tp)),
  validateUpdate: (o, old) => validateCronJob(o, old, (tp) => cronJobTemplate(o, tp)),
  warningsOnCreate: (o) => [...podNameWarning(o, 'Pod names and hostnames'), ...jobSpecWarnings(o, ['spec', 'jobTemplate', 'spec'])],
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : jobSpecWarnings(o, ['spec', 'jobTemplate', 'spec'])),
};

/** A CronJob's job template's pod template and restart policy (the rest of `validateJobSpec` is `validateJobSpecFields`). */
function cronJobTemplate(o: KubeObject, tp: FieldPath): FieldError[] {
  const template = valueAt(o, 'spec', 'jobTemplate', 'spec', 'template');
  const errs = validatePodTemplate(template, tp);
  append(errs, validateJobRestartPolicy(template, tp, valueAt(o, 'spec', 'jobTemplate', 'spec', 'podFailurePolicy')));
  return errs;
}

/** The workload kinds (see the file comment). */
export function workloadResourceTypes(): BuiltinResourceType[] {
  return [deployment, statefulSet, daemonSet, replicaSet, job, cronJob].map((s) => new BuiltinResourceType(s));
}
