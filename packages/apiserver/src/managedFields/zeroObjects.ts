/**
 * The empty object of a built-in kind as the apiserver's field manager sees it on create: the Go zero
 * value serialised to JSON (`scope.Creater.New(kind)`), in which struct-valued fields are always present
 * (`spec: {}`, a pod template's `metadata: {creationTimestamp: null}`) and lists without `omitempty` are
 * `null`. A create's `Update` entry owns the nodes it adds; nodes the zero value already has are not
 * "added", so they carry no `.` in FieldsV1 (`f:spec` without `.` on a Deployment, with `.` on a custom
 * resource, whose empty object is `{}`).
 */
type JSONObject = Record<string, unknown>;

const meta = (): JSONObject => ({ creationTimestamp: null });
const podTemplate = (): JSONObject => ({ metadata: meta(), spec: { containers: null } });

const zero: Record<string, () => JSONObject> = {
  '/v1/Pod': () => ({ spec: { containers: null }, status: {} }),
  '/v1/Node': () => ({ spec: {}, status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' } } }),
  '/v1/Service': () => ({ spec: {}, status: { loadBalancer: {} } }),
  '/v1/Endpoints': () => ({}),
  '/v1/ReplicationController': () => ({ spec: {}, status: { replicas: 0 } }),
  '/v1/PodTemplate': () => ({ template: podTemplate() }),
  '/v1/ResourceQuota': () => ({ spec: {}, status: {} }),
  '/v1/LimitRange': () => ({ spec: {} }),
  '/v1/PersistentVolumeClaim': () => ({ spec: { resources: {} }, status: {} }),
  '/v1/PersistentVolume': () => ({ spec: {}, status: {} }),
  'storage.k8s.io/v1/StorageClass': () => ({ provisioner: '' }),
  'storage.k8s.io/v1/VolumeAttributesClass': () => ({ driverName: '' }),
  'storage.k8s.io/v1/CSIDriver': () => ({ spec: {} }),
  'storage.k8s.io/v1/CSINode': () => ({ spec: { drivers: null } }),
  'storage.k8s.io/v1/CSIStorageCapacity': () => ({ storageClassName: '' }),
  'storage.k8s.io/v1/VolumeAttachment': () => ({ spec: { attacher: '', source: {}, nodeName: '' }, status: { attached: false } }),
  'resource.k8s.io/v1/DeviceClass': () => ({ spec: {} }),
  'resource.k8s.io/v1/ResourceClaim': () => ({ spec: { devices: { requests: null } }, status: {} }),
  'resource.k8s.io/v1/ResourceClaimTemplate': () => ({ spec: { metadata: meta(), spec: { devices: { requests: null } } } }),
  'resource.k8s.io/v1/ResourceSlice': () => ({ spec: { driver: '', pool: { name: '', generation: 0, resourceSliceCount: 0 }, devices: null } }),
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': () => ({ spec: { priorityLevelConfiguration: { name: '' }, matchingPrecedence: 0 }, status: {} }),
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': () => ({ spec: { type: '' }, status: {} }),
  '/v1/Namespace': () => ({ spec: {}, status: {} }),
  '/v1/Event': () => ({ involvedObject: {}, reason: '', message: '', source: {}, firstTimestamp: null, lastTimestamp: null, type: '', eventTime: null, reportingComponent: '', reportingInstance: '' }),
  'events.k8s.io/v1/Event': () => ({ eventTime: null, regarding: {}, deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null }),
  'coordination.k8s.io/v1/Lease': () => ({ spec: {} }),
  'authorization.k8s.io/v1/SubjectAccessReview': () => ({ spec: {}, status: { allowed: false } }),
  'authorization.k8s.io/v1/LocalSubjectAccessReview': () => ({ spec: {}, status: { allowed: false } }),
  'authorization.k8s.io/v1/SelfSubjectAccessReview': () => ({ spec: {}, status: { allowed: false } }),
  'authorization.k8s.io/v1/SelfSubjectRulesReview': () => ({ spec: {}, status: { resourceRules: null, nonResourceRules: null, incomplete: false } }),
  'authentication.k8s.io/v1/TokenReview': () => ({ spec: {}, status: { user: {} } }),
  'authentication.k8s.io/v1/SelfSubjectReview': () => ({ status: { userInfo: {} } }),
  'networking.k8s.io/v1/Ingress': () => ({ spec: {}, status: { loadBalancer: {} } }),
  'networking.k8s.io/v1/IngressClass': () => ({ spec: {} }),
  'networking.k8s.io/v1/NetworkPolicy': () => ({ spec: { podSelector: {} } }),
  'networking.k8s.io/v1/ServiceCIDR': () => ({ spec: {}, status: {} }),
  'networking.k8s.io/v1/IPAddress': () => ({ spec: {} }),
  'scheduling.k8s.io/v1/PriorityClass': () => ({ value: 0 }),
  'certificates.k8s.io/v1/CertificateSigningRequest': () => ({ spec: { request: null, signerName: '' }, status: {} }),
  'node.k8s.io/v1/RuntimeClass': () => ({ handler: '' }),
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': () => ({ spec: {}, status: {} }),
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': () => ({ spec: {} }),
  'apiregistration.k8s.io/v1/APIService': () => ({ spec: { groupPriorityMinimum: 0, versionPriority: 0 }, status: {} }),
  'discovery.k8s.io/v1/EndpointSlice': () => ({ addressType: '', endpoints: null, ports: null }),
  'autoscaling/v2/HorizontalPodAutoscaler': () => ({ spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 }, status: { desiredReplicas: 0, currentMetrics: null } }),
  'autoscaling/v1/HorizontalPodAutoscaler': () => ({ spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 }, status: { currentReplicas: 0, desiredReplicas: 0 } }),
  'policy/v1/PodDisruptionBudget': () => ({ spec: {}, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } }),
  'apps/v1/Deployment': () => ({ spec: { selector: null, template: podTemplate(), strategy: {} }, status: {} }),
  'apps/v1/ReplicaSet': () => ({ spec: { selector: null, template: podTemplate() }, status: { replicas: 0 } }),
  'apps/v1/ControllerRevision': () => ({ data: null, revision: 0 }),
  'apps/v1/StatefulSet': () => ({ spec: { selector: null, template: podTemplate(), serviceName: '', updateStrategy: {} }, status: { replicas: 0, availableReplicas: 0 } }),
  'apps/v1/DaemonSet': () => ({ spec: { selector: null, template: podTemplate(), updateStrategy: {} }, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 } }),
  'batch/v1/Job': () => ({ spec: { template: podTemplate() }, status: {} }),
  'batch/v1/CronJob': () => ({ spec: { schedule: '', jobTemplate: { metadata: meta(), spec: { template: podTemplate() } } }, status: {} }),
  'rbac.authorization.k8s.io/v1/Role': () => ({ rules: null }),
  'rbac.authorization.k8s.io/v1/ClusterRole': () => ({ rules: null }),
  'rbac.authorization.k8s.io/v1/RoleBinding': () => ({ roleRef: { apiGroup: '', kind: '', name: '' } }),
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': () => ({ roleRef: { apiGroup: '', kind: '', name: '' } }),
  'apiextensions.k8s.io/v1/CustomResourceDefinition': () => ({ spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null }, status: { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: null } }),
};

/** The empty object of a kind for the field manager (apiVersion and kind aside, which it never records). */
export function zeroObject(group: string, version: string, kind: string): JSONObject | undefined {
  const make = zero[`${group}/${version}/${kind}`];
  return make === undefined ? undefined : { metadata: meta(), ...make() };
}
