/**
 * The one list of known differences between kubekit's embedded server and the real kube-apiserver.
 * Each entry names a scenario, optionally the steps the difference is confined to, and why it is
 * accepted (or who fixes it). A difference outside this list fails the differential suite, and so does
 * an entry that is no longer needed: its scenario answers identically, or one of its steps does (or no
 * longer exists). Entries name existing scenarios, once each.
 */
export interface AllowedDifference {
  scenario: string;
  /** Step labels the difference is confined to; absent: any step of the scenario. */
  steps?: string[];
  reason: string;
}

export const allowedDifferences: AllowedDifference[] = [
  // ---- request decoding and query parsing
  {
    scenario: 'watch/resource-versions',
    steps: ['watch with an unparsable resourceVersion'],
    reason: 'a watch from an unparsable resourceVersion is a 500 without a reason on the apiserver (the parse error escapes the watch cache unwrapped), which no client can rely on; kubekit answers the 422 Invalid on ListOptions.resourceVersion that it gives every other unparsable resourceVersion of a watch.',
  },
  // ---- the environment, not kubekit
  {
    scenario: 'builtin/namespaces-configmaps-secrets',
    steps: ['create in a terminating namespace'],
    reason: 'the reference runs no kube-controller-manager, so a deleted namespace stays Terminating (403 NamespaceTerminating); kubekit\'s namespace controller has already removed it (404).',
  },
  // ---- built-in kinds (test/differential/builtinScenarios.ts)
  {
    scenario: 'builtin/jobs',
    steps: ['update: template changed'],
    reason: 'the "field is immutable" message prints the new template as the apiserver\'s internal Go type marshalled to JSON (Go field names such as "Spec" and "Containers", every unset field as null, the Job\'s uid in its labels); kubekit prints the template as sent. Status, reason, field and cause type agree.',
  },
  {
    scenario: 'builtin/serviceaccounts-and-pvcs',
    steps: ['update: access modes changed'],
    reason: 'the apiserver appends a go-cmp diff of its internal PersistentVolumeClaimSpec ("@@ -1,6 +1,6 @@ … \"AccessModes\": …") to "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"; kubekit names the changed fields instead. Status, reason, field and the sentence agree.',
  },
  {
    scenario: 'builtin/field-validation',
    steps: ['Strict merge patch'],
    reason: 'both answer the 422 on the patch ("\" \"\" is invalid: patch: Invalid value: <the patched object as JSON>: strict decoding error: unknown field …"), but the quoted object is the server\'s own: the apiserver marshals its typed Deployment in struct field order with its uid, resourceVersion and managedFields; kubekit marshals the patched object with sorted keys and without managedFields for updates.',
  },
];
