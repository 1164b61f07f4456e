/**
 * The workload kinds older tooling and the apps controllers read, as kube-apiserver 1.34.4 serves them
 * with no controller behind them:
 *
 * - core/v1 ReplicationControllers (`rc`, in the `all` category): the strategy of
 *   pkg/registry/core/replicationcontroller (generation 1 on create, bumped by a spec change; a status of
 *   its own; dependents orphaned by a DELETE without a policy, as v1 always did, without the Jobs' warning),
 *   `SetDefaults_ReplicationController` (selector and labels taken from the template's labels, one
 *   replica), `ValidateReplicationController`, which its update runs again after
 *   `ValidateReplicationControllerUpdate` (each spec error is so listed twice in the causes, once in the
 *   message), the old `non-convertible.kubernetes.io/…` annotations that refuse updates, `/status`
 *   (`ValidateReplicationControllerStatusUpdate`), `/scale` (an `autoscaling/v1` Scale whose selector is the
 *   selector map as text), the warnings (the template's on update are the *old* template's: the strategy
 *   passes the templates in swapped order) and printReplicationController's Table;
 * - core/v1 PodTemplates: generation 1 on create, bumped by a change of `template`; `ValidatePodTemplate`
 *   and `ValidatePodTemplateUpdate` (the template as a pod template); the deleted object returned by a
 *   DELETE; printPodTemplate's Table, which has no `Age`;
 * - apps/v1 ControllerRevisions: no generation; `data` (any JSON object) and `revision` (not negative)
 *   checked on create, `data` immutable; printControllerRevision's Table (the controller owner as
 *   `kind.group/name`).
 *
 * A revision's `data` is a `runtime.RawExtension`, which kube-apiserver keeps as the bytes it was sent and
 * compares as bytes. kubekit keeps the parsed JSON and compares its members in the order they were written,
 * and writes it in Go's map order where the apiserver's goes through a map (a strategic merge patch, an
 * apply): the same data in another key order is a change, and such a patch of data not written in sorted
 * order is refused, as there. What the parsed JSON no longer has is not compared: whitespace, how numbers
 * were spelt (`1.50`, `1e2`), repeated keys and the order of keys that are array indexes (`"10"`, `"2"`),
 * which JavaScript objects put first; kube-apiserver refuses a patch of data written with any of these.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/registry/core/replicationcontroller/strategy.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/core/validation/validation.go
 * @see https://github.com/kubernetes/kubernetes/blob/v1.34.4/pkg/apis/apps/validation/validation.go
 */
import { FieldError, FieldPath, invalid, required, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinColumn, type BuiltinSpec } from './builtinKinds.js';
import { nonnegativeAt, templateColumns, validateAlwaysRunning, validatePodTemplate } from './builtinWorkloads.js';
import { wasEmpty } from './builtinGoJSON.js';
import { semanticEqual } from './internal/deepEqual.js';
import { childObject, isObject, objectAt, setDefault, str, valueAt } from './internal/own.js';
import { goJSONInOrder } from './internal/rawJSON.js';
import { replicasPathMappings } from './managedFields/scaleHandler.js';
import { validateObjectMeta, validateStrategyObjectMetaUpdate } from './objectMeta.js';
import { defaultPodTemplate } from './podDefaults.js';
import { podNameWarning, podSpecWarnings } from './podWarnings.js';

/** A label map's entries, `undefined` values left out (a decoded map holds strings only). */
function labelEntries(map: unknown): [string, string][] {
  return isObject(map) ? Object.entries(map).filter((e): e is [string, string] => typeof e[1] === 'string') : [];
}

/** `labels.Set(m).String()`: `k=v` pairs sorted by key, joined by commas (`''` for none). */
function labelSetText(map: unknown): string {
  return labelEntries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join(',');
}

/** `labels.FormatLabels`: the set as text, `<none>` when empty. */
function formatLabels(map: unknown): string {
  const text = labelSetText(map);
  return text === '' ? '<none>' : text;
}

/** An integer member at `path`, 0 when absent (a Go int32 or int64 field; an int64 beyond 2^53 is a bigint). */
function count(o: unknown, ...path: string[]): number | bigint {
  const v = valueAt(o, ...path);
  return typeof v === 'number' || typeof v === 'bigint' ? v : 0;
}

function intColumn(name: string, cell: (o: KubeObject) => number | bigint): BuiltinColumn {
  return { def: { name, type: 'integer', priority: 0 }, cell };
}

/** The warnings of a pod template (`GetWarningsForPodTemplate`), none without one. */
function podTemplateWarnings(template: unknown, path: FieldPath): string[] {
  return isObject(template) ? podSpecWarnings(path, template.spec, template.metadata) : [];
}

// ---- core/v1 ReplicationControllers ----

/** `SetDefaults_ReplicationController` and the declarative replicas default, then the template's pod defaults. */
function defaultReplicationController(o: KubeObject): void {
  const spec = childObject(o, 'spec');
  const template = objectAt(spec, 'template');
  const labels = objectAt(template, 'metadata', 'labels');
  // A template with labels (even none: a non-nil map) gives them to an empty selector and to an RC without labels.
  if (labels !== undefined) {
    if (labelEntries(spec.selector).length === 0) spec.selector = { ...labels };
    if (Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...(labels as Record<string, string>) };
  }
  setDefault(spec, 'replicas', 1);
  if (template !== undefined) defaultPodTemplate(template);
}

/**
 * `ValidateReplicationControllerSpec`: minReadySeconds, a selector with at least one label, replicas, and
 * the template (`ValidatePodTemplateSpecForRC`: matching the selector, a pod template, always restarting,
 * no deadline).
 */
function validateReplicationControllerSpec(o: KubeObject): FieldError[] {
  const errs = nonnegativeAt(o, 'spec', 'minReadySeconds');
  const selector = labelEntries(valueAt(o, 'spec', 'selector'));
  if (selector.length === 0) errs.push(required('spec.selector', ''));
  const replicas = valueAt(o, 'spec', 'replicas');
  if (typeof replicas !== 'number') errs.push(required('spec.replicas', ''));
  else errs.push(...nonnegativeAt(o, 'spec', 'replicas'));
  const path = FieldPath.root('spec', 'template');
  const template = valueAt(o, 'spec', 'template');
  if (!isObject(template)) return [...errs, required(path, '')];
  const labels = objectAt(template, 'metadata', 'labels');
  if (selector.length > 0 && !selector.every(([k, v]) => labels !== undefined && Object.hasOwn(labels, k) && labels[k] === v)) {
    const emptied = wasEmpty(valueAt(template, 'metadata'), 'labels');
    errs.push(invalid(path.child('metadata', 'labels'), labels ?? (emptied ? {} : null), '`selector` does not match template `labels`'));
  }
  return [...errs, ...validatePodTemplate(template, path), ...validateAlwaysRunning(template, path, 'ReplicationController')];
}

/** The annotation prefix of fields an old release could not convert (`core.NonConvertibleAnnotationPrefix`). */
const nonConvertiblePrefix = 'non-convertible.kubernetes.io';

/**
 * The RC strategy's refusals for each `non-convertible.kubernetes.io…/<field>` annotation of the stored
 * object: a selector field may not change, any other field is refused outright (keys with more or fewer
 * than one `/` are passed over). Go walks the annotations as a map, in no fixed order; here in key order.
 */
function nonConvertibleErrors(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const annotations = old.metadata.annotations ?? {};
  for (const key of Object.keys(annotations).sort()) {
    if (!key.startsWith(nonConvertiblePrefix)) continue;
    const parts = key.split('/');
    if (parts.length !== 2) continue;
    const field = parts[1];
    if (field.includes('selector')) {
      const selector = valueAt(o, 'spec', 'selector');
      if (!semanticEqual(selector ?? null, valueAt(old, 'spec', 'selector') ?? null)) errs.push(invalid('spec.selector', selector ?? null, 'cannot update non-convertible selector'));
    } else {
      errs.push(new FieldError('FieldValueNotFound', field, annotations[key], 'unknown non-convertible field'));
    }
  }
  return errs;
}

/** `ValidateReplicationControllerStatus` (after the metadata update): no negative count, none above `replicas`, available not above ready. */
function validateReplicationControllerStatusUpdate(o: KubeObject, _old: KubeObject, meta: FieldError[]): FieldError[] {
  const errs = [...meta];
  const at = (key: string): FieldPath => FieldPath.root('status', key);
  for (const key of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    if (count(o, 'status', key) < 0) errs.push(invalid(at(key), count(o, 'status', key), 'must be greater than or equal to 0'));
  }
  const replicas = count(o, 'status', 'replicas');
  for (const key of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (count(o, 'status', key) > replicas) errs.push(invalid(at(key), count(o, 'status', key), 'cannot be greater than status.replicas'));
  }
  if (count(o, 'status', 'availableReplicas') > count(o, 'status', 'readyReplicas')) errs.push(invalid(at('availableReplicas'), count(o, 'status', 'availableReplicas'), 'cannot be greater than readyReplicas'));
  return errs;
}

const replicationController: BuiltinSpec = {
  names: {
    group: '', version: 'v1', resource: 'replicationcontrollers', singular: 'replicationcontroller', kind: 'ReplicationController', namespaced: true, shortNames: ['rc'], categories: ['all'], status: true, nameValidation: 'subdomain',
    // scaleFromRC: the selector map as a selector's text.
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', replicasPathMappings: replicasPathMappings(['v1'], '.spec.replicas'), selector: (o) => labelSetText(valueAt(o, 'spec', 'selector')) },
  },
  // rcStrategy.DefaultGarbageCollectionPolicy: v1 orphans, for backwards compatibility.
  orphanDependentsByDefault: true,
  generation: true,
  columns: [
    intColumn('Desired', (o) => count(o, 'spec', 'replicas')),
    intColumn('Current', (o) => count(o, 'status', 'replicas')),
    intColumn('Ready', (o) => count(o, 'status', 'readyReplicas')),
  ],
  wide: [...templateColumns(['spec', 'template'], false), { def: { name: 'Selector', type: 'string', priority: 1 }, cell: (o) => formatLabels(valueAt(o, 'spec', 'selector')) }],
  defaults: defaultReplicationController,
  prepareForCreate: (o) => { o.status = { replicas: 0 }; },
  validate: validateReplicationControllerSpec,
  // rcStrategy.ValidateUpdate: ValidateReplicationController (the new object's metadata, the spec), then
  // ValidateReplicationControllerUpdate (the metadata update, the spec again), then the annotations.
  validateWholeUpdate: (o, old, generic) => [
    ...generic,
    ...validateObjectMeta(o.metadata, true, 'subdomain'), ...validateReplicationControllerSpec(o),
    ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata), ...validateReplicationControllerSpec(o),
    ...nonConvertibleErrors(o, old),
  ],
  validateStatusUpdate: validateReplicationControllerStatusUpdate,
  warningsOnCreate: (o) => [...podNameWarning(o, 'Pod names and hostnames'), ...podTemplateWarnings(valueAt(o, 'spec', 'template'), FieldPath.root('spec', 'template'))],
  // rcStrategy.WarningsOnUpdate hands GetWarningsForPodTemplate the old template as the one to warn about.
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : podTemplateWarnings(valueAt(old, 'spec', 'template'), FieldPath.root('spec', 'template'))),
};

// ---- core/v1 PodTemplates ----

const podTemplate: BuiltinSpec = {
  names: { group: '', version: 'v1', resource: 'podtemplates', singular: 'podtemplate', kind: 'PodTemplate', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
  deleteReturnsObject: true,
  generation: true,
  generationField: 'template',
  // printPodTemplate: no Age.
  age: false,
  columns: [
    ...templateColumns(['template'], false).map((c) => ({ ...c, def: { ...c.def, priority: 0 } })),
    { def: { name: 'Pod Labels', type: 'string', priority: 0, description: 'The labels for the pod template.' }, cell: (o) => formatLabels(valueAt(o, 'template', 'metadata', 'labels')) },
  ],
  // The template is a struct, never nil: always defaulted.
  defaults: (o) => defaultPodTemplate(childObject(o, 'template')),
  validate: (o) => validatePodTemplate(valueAt(o, 'template'), FieldPath.root('template')),
  warningsOnCreate: (o) => podTemplateWarnings(valueAt(o, 'template'), FieldPath.root('template')),
  warningsOnUpdate: (o, old) => (o.metadata.generation === old.metadata.generation ? [] : podTemplateWarnings(valueAt(o, 'template'), FieldPath.root('template'))),
};

// ---- apps/v1 ControllerRevisions ----

/** `ValidateControllerRevisionCreate`'s check of `data`: set, and a JSON object. */
function validateRevisionData(o: KubeObject): FieldError[] {
  const data = o.data;
  if (data === undefined || data === null) return [required('data', 'data is mandatory')];
  return isObject(data) ? [] : [required('data', 'data must be a valid JSON object')];
}

/**
 * `ValidateControllerRevisionUpdate`: `data` may not change. Go compares the raw texts, so the same data
 * with its keys in another order is a change; the text compared here is the data's members in the order
 * they were written ({@link goJSONInOrder}).
 */
function revisionDataImmutable(o: KubeObject, old: KubeObject): FieldError[] {
  const text = goJSONInOrder(o.data ?? null);
  if (text === goJSONInOrder(old.data ?? null)) return [];
  return [new FieldError('FieldValueInvalid', 'data', o.data ?? null, 'field is immutable', text)];
}

/** printControllerRevision's `Controller`: the controller owner as `kind.group/name` (lower-case kind and group), `<none>` without one. */
function controllerCell(o: KubeObject): string {
  const ref = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (ref === undefined) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const kind = str(ref.kind);
  if (kind === '' && group === '') return str(ref.name);
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${str(ref.name)}`;
}

const controllerRevision: BuiltinSpec = {
  names: { group: 'apps', version: 'v1', resource: 'controllerrevisions', singular: 'controllerrevision', kind: 'ControllerRevision', namespaced: true, shortNames: [], status: false, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'Controller', type: 'string', priority: 0, description: 'Controller of the object' }, cell: controllerCell },
    // The column is a string; the cell, the revision as the int64 it is.
    { def: { name: 'Revision', type: 'string', priority: 0 }, cell: (o) => count(o, 'revision') },
  ],
  validate: (o) => nonnegativeAt(o, 'revision'),
  validateCreate: validateRevisionData,
  // ValidateControllerRevisionUpdate: the metadata update, the new object's metadata and revision, the data.
  validateWholeUpdate: (o, old, generic) => [
    ...generic,
    ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata), ...validateObjectMeta(o.metadata, true, 'subdomain'),
    ...nonnegativeAt(o, 'revision'), ...revisionDataImmutable(o, old),
  ],
};

/** The kinds of this module (see the file comment). */
export function legacyWorkloadResourceTypes(): BuiltinResourceType[] {
  return [replicationController, podTemplate, controllerRevision].map((s) => new BuiltinResourceType(s));
}
