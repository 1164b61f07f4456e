/**
 * The `Priority` and `DefaultTolerationSeconds` admission plugins on pods, as {@link AdmissionPlugin}s of the
 * chain, so that they run where kube-apiserver 1.34.4 runs them: after `LimitRanger`, before `RuntimeClass`
 * and the mutating webhooks. What each does to a pod is in podDefaults.ts.
 */
import type { AdmissionAttributes, AdmissionPlugin } from './admission.js';
import type { PriorityClassLister } from './internal/priorityClassLister.js';
import { admitPodPriority, admitPodPriorityOnUpdate, admitPodTolerations } from './podDefaults.js';

/** Whether a request writes a pod itself (not a subresource), with the object to change. */
const isPodWrite = (attrs: AdmissionAttributes): boolean =>
  attrs.type.names.group === '' && attrs.type.names.resource === 'pods' && attrs.subresource === '' && attrs.object !== undefined;

/** The `Priority` plugin's `Admit` of pods (plugin/pkg/admission/priority): a new pod's priority, an updated one's kept. */
export class PodPriorityAdmission implements AdmissionPlugin {
  constructor(private readonly classes: PriorityClassLister) {}

  admit(attrs: AdmissionAttributes): void {
    if (!isPodWrite(attrs) || attrs.object === undefined) return;
    if (attrs.operation === 'CREATE') admitPodPriority(attrs.object, this.classes);
    else if (attrs.operation === 'UPDATE' && attrs.oldObject !== undefined) admitPodPriorityOnUpdate(attrs.object, attrs.oldObject);
  }
}

/** The `DefaultTolerationSeconds` plugin (plugin/pkg/admission/defaulttolerationseconds) on pods created or updated. */
export class DefaultTolerationSecondsAdmission implements AdmissionPlugin {
  admit(attrs: AdmissionAttributes): void {
    if (!isPodWrite(attrs) || attrs.object === undefined) return;
    if (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') admitPodTolerations(attrs.object);
  }
}
