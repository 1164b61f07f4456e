/**
 * scheduling.k8s.io/v1 PriorityClasses, as kube-apiserver 1.34.4 serves them: the strategy of
 * pkg/registry/scheduling/priorityclass (generation 1 on create, never bumped; the REST's `Delete` refuses
 * the system classes), `SetDefaults_PriorityClass`, `ValidatePriorityClass` on create and
 * `ValidatePriorityClassUpdate` on update (which does not run the former: only `value` and
 * `preemptionPolicy` are held), the Table of printPriorityClass, the two system classes the
 * `scheduling/bootstrap-system-priority-classes` post-start hook creates, and the `Priority` admission
 * plugin's check of PriorityClasses (at most one `globalDefault`). What the plugin does to pods is in
 * podDefaults.ts; both read the stored classes through a {@link PriorityClassLister} (internal/priorityClassLister.ts).
 *
 * @see https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 */
import { KubeError, forbidden, invalid, notSupported, required, type FieldError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { defaultPriorityClass, priorityValue, type PriorityClassLister } from './internal/priorityClassLister.js';

/** `scheduling.HighestUserDefinablePriority`: the most a class whose name is not `system-` may have. */
const highestUserDefinablePriority = 1_000_000_000;
/** `scheduling.SystemPriorityClassPrefix`: names reserved for the system classes. */
const systemPrefix = 'system-';
const preemptionPolicies = ['PreemptLowerPriority', 'Never'];

/** The system classes (`schedulingapiv1.SystemPriorityClasses`), in the order the bootstrap hook creates them. */
const systemClasses: readonly { name: string; value: number; description: string }[] = [
  { name: 'system-node-critical', value: 2_000_001_000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: 2_000_000_000, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

/** `IsKnownSystemPriorityClass`: undefined for a system class as it must be, else why not. */
function systemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = systemClasses.find((c) => c.name === name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  // No system class is a global default.
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

/** `ValidatePriorityClass` past its metadata: reserved names, the value's range, the preemption policy. */
function validatePriorityClass(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = o.metadata.name ?? '';
  const value = priorityValue(o);
  if (name.startsWith(systemPrefix)) {
    const why = systemClassError(name, value, o.globalDefault === true);
    if (why !== undefined) errs.push(forbidden('metadata.name', `priority class names with '${systemPrefix}' prefix are reserved for system use only. error: ${why}`));
  } else if (value > highestUserDefinablePriority) {
    errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  // ValidatePreemptionPolicy, on a policy that is set (the defaults set it unless it was sent as "").
  const policy = o.preemptionPolicy;
  if (typeof policy === 'string') {
    if (policy === '') errs.push(required('preemptionPolicy'));
    else if (!preemptionPolicies.includes(policy)) errs.push(notSupported('preemptionPolicy', policy, preemptionPolicies));
  }
  return errs;
}

/** `ValidatePriorityClassUpdate` past its metadata: the value and the preemption policy never change. */
function validatePriorityClassUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (priorityValue(o) !== priorityValue(old)) errs.push(forbidden('value', 'may not be changed in an update.'));
  const policy = o.preemptionPolicy ?? null;
  if (policy !== (old.preemptionPolicy ?? null)) errs.push(invalid('preemptionPolicy', policy, 'field is immutable'));
  return errs;
}

/**
 * The `Priority` plugin's `validatePriorityClass`, after the strategy's validation: a class that is the
 * global default is refused when another one already is (on update: another than itself).
 */
function admitPriorityClass(o: KubeObject, old: KubeObject | undefined, classes: PriorityClassLister): void {
  if (o.globalDefault !== true) return;
  const current = defaultPriorityClass(classes);
  if (current === undefined || (old !== undefined && current.metadata.name === o.metadata.name)) return;
  const name = o.metadata.name ?? '';
  throw new KubeError('Forbidden', `priorityclasses.scheduling.k8s.io ${JSON.stringify(name)} is forbidden: PriorityClass ${current.metadata.name ?? ''} is already marked as default. Only one default can exist`, {
    details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
  });
}

/** The REST's `Delete`: a system class is never deleted, whether or not it is stored. */
function refuseSystemClassDeletion(name: string): void {
  if (!systemClasses.some((c) => c.name === name)) return;
  throw new KubeError('Forbidden', `priorityclasses.scheduling.k8s.io ${JSON.stringify(name)} is forbidden: this is a system priority class and cannot be deleted`, {
    details: { name, group: 'scheduling.k8s.io', kind: 'priorityclasses' },
  });
}

/** The system classes as the bootstrap hook creates them (the defaults give them their preemption policy). */
export function systemPriorityClasses(): KubeObject[] {
  return systemClasses.map((c) => ({
    apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass',
    metadata: { name: c.name, generation: 1 },
    value: c.value, description: c.description, preemptionPolicy: 'PreemptLowerPriority',
  }));
}

function priorityClassSpec(classes: PriorityClassLister | undefined): BuiltinSpec {
  return {
    names: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', singular: 'priorityclass', kind: 'PriorityClass', namespaced: false, shortNames: ['pc'], status: false, nameValidation: 'subdomain' },
    columns: [
      { def: { name: 'Value', type: 'integer', priority: 0 }, cell: (o) => priorityValue(o) },
      { def: { name: 'Global-Default', type: 'boolean', priority: 0 }, cell: (o) => o.globalDefault === true },
    ],
    // The apiserver prints Tables wide: the policy comes after Age, at priority 0.
    wide: [{ def: { name: 'PreemptionPolicy', type: 'string', priority: 0 }, cell: (o) => (typeof o.preemptionPolicy === 'string' ? o.preemptionPolicy : '') }],
    // SetDefaults_PriorityClass.
    defaults: (o) => {
      if (o.preemptionPolicy === undefined || o.preemptionPolicy === null) o.preemptionPolicy = 'PreemptLowerPriority';
    },
    // PrepareForCreate sets the generation; no update changes it (the kind has no spec).
    prepareForCreate: (o) => { o.metadata.generation = 1; },
    validateCreate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
    admit: classes === undefined ? undefined : (o, old) => admitPriorityClass(o, old, classes),
    refuseDeletion: refuseSystemClassDeletion,
  };
}

/** The scheduling.k8s.io/v1 kinds the embedded server serves (`classes`: the stored ones, for the `Priority` plugin). */
export function schedulingResourceTypes(classes?: PriorityClassLister): BuiltinResourceType[] {
  return [new BuiltinResourceType(priorityClassSpec(classes))];
}
