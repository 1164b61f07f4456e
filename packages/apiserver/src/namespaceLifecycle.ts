/**
 * The `NamespaceLifecycle` admission plugin's refusal to delete the namespaces the apiserver keeps
 * (k8s.io/apiserver's admission/plugin/namespace/lifecycle, registered with `default`, `kube-system` and
 * `kube-public`): the first plugin of the chain, so it refuses before any webhook is called. Like every
 * mutating admission of a DELETE it runs once the object has been read and the preconditions checked (a
 * wrong UID is a 409 first), a dry run included. Refusing new objects in a terminating namespace is the
 * write path's (writeHandler.ts).
 */
import { admissionForbidden, type AdmissionAttributes, type AdmissionPlugin } from './admission.js';

/** The namespaces no one may delete. */
const immortalNamespaces: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

export class NamespaceLifecycleAdmission implements AdmissionPlugin {
  admit(attrs: AdmissionAttributes): void {
    const { group, resource } = attrs.type.names;
    if (attrs.operation === 'DELETE' && group === '' && resource === 'namespaces' && attrs.subresource === '' && immortalNamespaces.has(attrs.name)) {
      throw admissionForbidden(attrs, 'this namespace may not be deleted');
    }
  }
}
