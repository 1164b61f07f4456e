/**
 * apiregistration.k8s.io/v1 APIServices, as kube-apiserver 1.34.4 (its kube-aggregator) serves them: the
 * strategies of kube-aggregator's pkg/registry/apiservice (cluster-scoped, no generation; a create
 * starts with an empty status, a local APIService, one without `spec.service`, with the `Available`
 * condition its `Local` reason gives; an update keeps the status, a `/status` write keeps the spec and the
 * labels, annotations, finalizers and owner references; every update needs a resourceVersion),
 * `SetDefaults_ServiceReference` (port 443), `ValidateAPIService` and its update and status variants
 * (pkg/apis/apiregistration/validation), and the Table the REST's `ConvertToTable` prints.
 *
 * @see https://kubernetes.io/docs/concepts/extend-kubernetes/api-extension/apiserver-aggregation/
 */
import { FieldPath, goQuote, invalid, notSupported, required, type FieldError, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { cloneJSON, isObject, objects, str, type JSONObject } from './internal/own.js';
import { isDNS1035Label, isDNS1123Subdomain } from './internal/semantics.js';
import { pathSegmentErrors, validateGenericObjectMetaUpdate, validateObjectMeta } from './objectMeta.js';

const conditionStatuses = ['True', 'False', 'Unknown'];

const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});
const conditionsOf = (o: KubeObject): JSONObject[] => (isObject(o.status) ? objects(o.status.conditions) : []);
/** An int32 member as Go holds it (0 when absent; the decoder has refused other types). */
const int32Of = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** `NewLocalAvailableAPIServiceCondition`: what a local APIService always reports. */
export function localAvailableCondition(now: string): JSONObject {
  return { type: 'Available', status: 'True', lastTransitionTime: now, reason: 'Local', message: 'Local APIServices are always available' };
}

/** `ValidateAPIService`: its metadata (the name must be `<version>.<group>`), group, version, priorities and service. */
function validateAPIService(o: KubeObject): FieldError[] {
  const spec = specOf(o);
  const group = str(spec.group);
  const version = str(spec.version);
  const requiredName = `${version}.${group}`;
  // The name function ignores `prefix`: a generateName is held to the whole name's rules.
  const nameErrors = (name: string): string[] => {
    const segment = pathSegmentErrors(name, false);
    if (segment.length > 0) return segment;
    return name === requiredName ? [] : [`must be \`spec.version+"."+spec.group\`: ${goQuote(requiredName)}`];
  };
  const errs = validateObjectMeta(o.metadata, false, nameErrors, false);
  const path = FieldPath.root('spec');
  if (group === '' && version !== 'v1') errs.push(required(path.child('group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(invalid(path.child('group'), group, msg));
  for (const msg of isDNS1035Label(version)) errs.push(invalid(path.child('version'), version, msg));
  const groupPriority = int32Of(spec.groupPriorityMinimum);
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(invalid(path.child('groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'));
  const versionPriority = int32Of(spec.versionPriority);
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(invalid(path.child('versionPriority'), versionPriority, 'must be positive and less than 1000'));
  // caBundle is a []byte: base64 on the wire, its decoded length is what counts.
  const caBytes = typeof spec.caBundle === 'string' ? Buffer.from(spec.caBundle, 'base64').length : 0;
  const insecure = spec.insecureSkipTLSVerify === true;
  if (!isObject(spec.service)) {
    if (caBytes !== 0) errs.push(invalid(path.child('caBundle'), `${caBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (insecure) errs.push(invalid(path.child('insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  const service = spec.service;
  const sp = path.child('service');
  if (str(service.namespace) === '') errs.push(required(sp.child('namespace'), ''));
  if (str(service.name) === '') errs.push(required(sp.child('name'), ''));
  const port = int32Of(service.port);
  if (port < 1 || port > 65535) errs.push(invalid(sp.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (insecure && caBytes > 0) errs.push(invalid(path.child('insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
  return errs;
}

/** `ValidateAPIServiceStatus`: each condition's status is one of the three. */
function validateAPIServiceStatus(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  conditionsOf(o).forEach((c, i) => {
    const status = str(c.status);
    if (!conditionStatuses.includes(status)) errs.push(notSupported(FieldPath.root('status', 'conditions').index(i).child('status'), status, conditionStatuses));
  });
  return errs;
}

/** The Table's Available cell: the condition's status, with its reason unless True; Unknown without one. */
function availableCell(o: KubeObject): string {
  const c = conditionsOf(o).find((x) => x.type === 'Available');
  if (c === undefined) return 'Unknown';
  const status = str(c.status);
  const reason = str(c.reason);
  return status === 'True' || reason === '' ? status : `${status} (${reason})`;
}

/** The members of the metadata a `/status` write does not change. */
const statusKeptMetadata = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function apiServiceSpec(): BuiltinSpec {
  return {
    names: { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices', singular: 'apiservice', kind: 'APIService', namespaced: false, shortNames: [], categories: ['api-extensions'], status: true, nameValidation: 'pathSegment' },
    columns: [
      { def: { name: 'Service', type: 'string', priority: 0 }, cell: (o) => {
        const service = specOf(o).service;
        return isObject(service) ? `${str(service.namespace)}/${str(service.name)}` : 'Local';
      } },
      { def: { name: 'Available', type: 'string', priority: 0 }, cell: availableCell },
    ],
    // SetDefaults_ServiceReference.
    defaults: (o) => {
      const service = specOf(o).service;
      if (isObject(service) && (service.port === undefined || service.port === null)) service.port = 443;
    },
    prepareForCreate: (o, _warnings, ctx) => {
      o.status = isObject(specOf(o).service) ? {} : { conditions: [localAvailableCondition(ctx.now)] };
    },
    prepareForStatusUpdate: (o, old) => {
      if (old.spec === undefined) delete o.spec;
      else o.spec = cloneJSON(old.spec);
      const meta = o.metadata as Record<string, unknown>;
      const oldMeta = old.metadata as Record<string, unknown>;
      for (const k of statusKeptMetadata) {
        if (oldMeta[k] === undefined) delete meta[k];
        else meta[k] = cloneJSON(oldMeta[k]);
      }
    },
    // The strategy validates the metadata itself (with its own name rule); rest.BeforeCreate's generic
    // check runs only once it found nothing.
    strategyValidatesMeta: false,
    validate: validateAPIService,
    validateWholeUpdate: (o, old, generic) => [...generic, ...validateGenericObjectMetaUpdate(o.metadata, old.metadata), ...validateAPIService(o)],
    validateStatusUpdate: (o, old, meta) => [...meta, ...validateGenericObjectMetaUpdate(o.metadata, old.metadata), ...validateAPIServiceStatus(o)],
    allowUnconditionalUpdate: false,
  };
}

/** The apiregistration.k8s.io/v1 kinds the embedded server serves. */
export function apiServiceResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(apiServiceSpec())];
}
