/**
 * The flowcontrol.apiserver.k8s.io/v1 kinds of API Priority and Fairness, as kube-apiserver 1.34.4 serves
 * them (pkg/registry/flowcontrol/{flowschema,prioritylevelconfiguration}, pkg/apis/flowcontrol):
 *
 * - FlowSchemas: `SetDefaults_FlowSchemaSpec` (a matching precedence of 1000), `ValidateFlowSchema` (the
 *   precedence, the distinguisher, the priority level's name, each rule's subjects, resource and
 *   non-resource rules, the status's conditions), the printer's columns (`MissingPL` from the `Dangling`
 *   condition, rows in the order of matching precedence then name).
 * - PriorityLevelConfigurations: the v1 defaults of an exempt or limited level and of a queuing
 *   configuration, `ValidatePriorityLevelConfiguration` (the type and its member, the limit response, the
 *   queuing's shuffle sharding), the printer's columns.
 *
 * Both: a status dropped on create and kept by updates, a generation that grows with the spec, a status
 * strategy that keeps the old metadata (but the managed fields) and spec and validates only the
 * conditions. The objects the apiserver writes at start and the `Dangling` condition it keeps are in
 * flowControlBootstrap.ts; requests are classified by them in requestClassifier.ts (the `X-Kubernetes-PF-*`
 * headers; nothing is queued or limited).
 *
 * @see https://kubernetes.io/docs/concepts/cluster-administration/flow-control/
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FieldError, FieldPath, compareGoStrings, forbidden, goJSON, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { wasEmpty } from './builtinGoJSON.js';
import { cloneJSON, isObject, str, type JSONObject } from './internal/own.js';
import { list, obj } from './internal/podFields.js';
import { isDNS1123Label, isDNS1123Subdomain } from './internal/semantics.js';
import { validateObjectMeta } from './objectMeta.js';

const group = 'flowcontrol.apiserver.k8s.io';
const maxMatchingPrecedence = 10000;
const maxQueues = 10 * 1000 * 1000;
/** shufflesharding.MaxHashBits. */
const maxHashBits = 60;
const supportedVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";
/** flowcontrol/v1beta3's `PriorityLevelPreserveZeroConcurrencySharesKey`, refused on every version. */
const preserveZeroSharesAnnotation = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

const int = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0);
const strings = (v: unknown): string[] => list(v).map(str);

/** A list of strings as a field error prints it (`null` when absent). */
const stringsJSON = (v: unknown): string => (Array.isArray(v) ? goJSON(v.map(str)) : 'null');

/** A verbs list: given, `*` alone, or each a supported verb. */
function verbErrors(verbs: unknown, path: FieldPath): FieldError[] {
  const given = strings(verbs);
  if (given.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (given.includes('*')) return given.length > 1 ? [new FieldError('FieldValueInvalid', path, given, "if '*' is present, must not specify other verbs", stringsJSON(verbs))] : [];
  if (given.every((v) => supportedVerbs.includes(v))) return [];
  return [new FieldError('FieldValueNotSupported', path, given, notSupported(path, '', supportedVerbs).detail, stringsJSON(verbs))];
}

/** `ValidateNonResourceURLPath`. */
function nonResourceURLError(url: string, path: FieldPath): FieldError | undefined {
  if (url === '') return invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return invalid(path, url, 'must not contain double slash');
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && url.slice(-2) !== '/*')) return invalid(path, url, 'wildcard can only do suffix matching');
  return undefined;
}

/** `ValidateFlowSchemaResourcePolicyRule`. */
function resourceRuleErrors(rule: JSONObject, path: FieldPath): FieldError[] {
  const errs = verbErrors(rule.verbs, path.child('verbs'));
  const wildcardList = (field: string, missing: string, what: string): void => {
    const given = strings(rule[field]);
    if (given.length === 0) errs.push(required(path.child(field), missing));
    else if (given.length > 1 && given.includes('*')) errs.push(new FieldError('FieldValueInvalid', path.child(field), given, `if '*' is present, must not specify other ${what}`, stringsJSON(rule[field])));
  };
  wildcardList('apiGroups', 'resource rules must supply at least one api group', 'api groups');
  wildcardList('resources', 'resource rules must supply at least one resource', 'resources');
  const namespaces = strings(rule.namespaces);
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(required(path.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) errs.push(new FieldError('FieldValueInvalid', path.child('namespaces'), namespaces, "if '*' is present, must not specify other namespaces", stringsJSON(rule.namespaces)));
  } else {
    namespaces.forEach((ns, i) => errs.push(...isDNS1123Label(ns).map((msg) => invalid(path.child('namespaces').index(i), ns, nsErrIntro + msg))));
  }
  return errs;
}

/** `ValidateFlowSchemaNonResourcePolicyRule`. */
function nonResourceRuleErrors(rule: JSONObject, path: FieldPath): FieldError[] {
  const errs = verbErrors(rule.verbs, path.child('verbs'));
  const urls = strings(rule.nonResourceURLs);
  if (urls.length === 0) errs.push(required(path.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(new FieldError('FieldValueInvalid', path.child('nonResourceURLs'), urls, "if '*' is present, must not specify other non-resource URLs", stringsJSON(rule.nonResourceURLs)));
  } else {
    urls.forEach((u, i) => {
      const err = nonResourceURLError(u, path.child('nonResourceURLs').index(i));
      if (err !== undefined) errs.push(err);
    });
  }
  return errs;
}

const subjectMembers = { ServiceAccount: 'serviceAccount', User: 'user', Group: 'group' } as const;
const forbiddenMember: Record<string, string> = {
  serviceAccount: "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
  user: "user is forbidden when subject kind is not 'User'",
  group: "group is forbidden when subject kind is not 'Group'",
};

/** `ValidateFlowSchemaSubject`: the member of its kind, then the others forbidden. */
function subjectErrors(subject: JSONObject, path: FieldPath): FieldError[] {
  const kind = str(subject.kind);
  if (!Object.hasOwn(subjectMembers, kind)) return [notSupported(path.child('kind'), kind, ['Group', 'ServiceAccount', 'User'])];
  const own = subjectMembers[kind as keyof typeof subjectMembers];
  const errs: FieldError[] = [];
  const member = subject[own];
  const memberPath = path.child(own);
  if (!isObject(member)) errs.push(required(memberPath, `${own} is required when subject kind is '${kind}'`));
  else if (own === 'serviceAccount') {
    const name = str(member.name);
    if (name === '') errs.push(required(memberPath.child('name'), ''));
    else if (name !== '*') errs.push(...isDNS1123Subdomain(name).map((msg) => invalid(memberPath.child('name'), name, msg)));
    const ns = str(member.namespace);
    if (ns !== '') errs.push(...isDNS1123Label(ns).map((msg) => invalid(memberPath.child('namespace'), ns, msg)));
    else errs.push(required(memberPath.child('namespace'), 'must specify namespace for service account'));
  } else if (str(member.name) === '') errs.push(required(memberPath.child('name'), ''));
  for (const other of ['serviceAccount', 'user', 'group'] as const) {
    if (other !== own && isObject(subject[other])) errs.push(forbidden(path.child(other), forbiddenMember[other]));
  }
  return errs;
}

/** `ValidateFlowSchemaPolicyRulesWithSubjects`. */
function ruleErrors(rule: JSONObject, path: FieldPath): FieldError[] {
  const subjects = list(rule.subjects);
  const errs = subjects.length > 0
    ? subjects.flatMap((s, i) => subjectErrors(obj(s), path.child('subjects').index(i)))
    : [required(path.child('subjects'), 'subjects must contain at least one value')];
  const [resourceRules, nonResourceRules] = [list(rule.resourceRules), list(rule.nonResourceRules)];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...resourceRuleErrors(obj(r), path.child('resourceRules').index(i))));
  nonResourceRules.forEach((r, i) => errs.push(...nonResourceRuleErrors(obj(r), path.child('nonResourceRules').index(i))));
  return errs;
}

/** `ValidateFlowSchemaStatus` / `ValidatePriorityLevelConfigurationStatus`: condition types given, once each. */
function conditionErrors(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(obj(o.status).conditions).forEach((c, i) => {
    const type = str(obj(c).type);
    const path = FieldPath.root('status', 'conditions').index(i);
    if (seen.has(type)) errs.push(new FieldError('FieldValueDuplicate', path.child('type'), type, ''));
    seen.add(type);
    if (type === '') errs.push(required(path.child('type'), ''));
  });
  return errs;
}

/** The shape of an internal type's field, for printing it as encoding/json does (Go field names, no tags). */
type GoShape = 'string' | 'int' | 'bool' | 'strings' | { fields: readonly (readonly [string, string, GoShape])[]; pointer?: boolean } | { items: GoShape };

const named: GoShape = { fields: [['name', 'Name', 'string']], pointer: true };
const flowSchemaSpecShape: GoShape = { fields: [
  ['priorityLevelConfiguration', 'PriorityLevelConfiguration', { fields: [['name', 'Name', 'string']] }],
  ['matchingPrecedence', 'MatchingPrecedence', 'int'],
  ['distinguisherMethod', 'DistinguisherMethod', { fields: [['type', 'Type', 'string']], pointer: true }],
  ['rules', 'Rules', { items: { fields: [
    ['subjects', 'Subjects', { items: { fields: [['kind', 'Kind', 'string'], ['user', 'User', named], ['group', 'Group', named], ['serviceAccount', 'ServiceAccount', { fields: [['namespace', 'Namespace', 'string'], ['name', 'Name', 'string']], pointer: true }]] } }],
    ['resourceRules', 'ResourceRules', { items: { fields: [['verbs', 'Verbs', 'strings'], ['apiGroups', 'APIGroups', 'strings'], ['resources', 'Resources', 'strings'], ['clusterScope', 'ClusterScope', 'bool'], ['namespaces', 'Namespaces', 'strings']] } }],
    ['nonResourceRules', 'NonResourceRules', { items: { fields: [['verbs', 'Verbs', 'strings'], ['nonResourceURLs', 'NonResourceURLs', 'strings']] } }],
  ] } }],
] };
const optionalInt: GoShape = { fields: [], pointer: true };
const priorityLevelSpecShape: GoShape = { fields: [
  ['type', 'Type', 'string'],
  ['limited', 'Limited', { pointer: true, fields: [
    ['nominalConcurrencyShares', 'NominalConcurrencyShares', 'int'],
    ['limitResponse', 'LimitResponse', { fields: [['type', 'Type', 'string'], ['queuing', 'Queuing', { pointer: true, fields: [['queues', 'Queues', 'int'], ['handSize', 'HandSize', 'int'], ['queueLengthLimit', 'QueueLengthLimit', 'int']] }]] }],
    ['lendablePercent', 'LendablePercent', optionalInt],
    ['borrowingLimitPercent', 'BorrowingLimitPercent', optionalInt],
  ] }],
  ['exempt', 'Exempt', { pointer: true, fields: [['nominalConcurrencyShares', 'NominalConcurrencyShares', optionalInt], ['lendablePercent', 'LendablePercent', optionalInt]] }],
] };

/**
 * A value of the internal type as encoding/json writes it (`semantic`: as `equality.Semantic.DeepEqual`
 * compares it, an empty list as none). A pointer to an int32 is a shape without fields.
 */
function goValue(v: unknown, shape: GoShape, semantic: boolean, sentEmpty = false): unknown {
  if (shape === 'string') return str(v);
  if (shape === 'int') return int(v);
  if (shape === 'bool') return v === true;
  // An empty list the request sent is an empty slice, written `[]` (the decoded object no longer has it).
  if (!semantic && sentEmpty && (shape === 'strings' || 'items' in shape) && !Array.isArray(v)) return [];
  if (shape === 'strings') return Array.isArray(v) && (!semantic || v.length > 0) ? v.map(str) : null;
  if ('items' in shape) return Array.isArray(v) && (!semantic || v.length > 0) ? v.map((x) => goValue(x, shape.items, semantic)) : null;
  if (shape.pointer === true && (v === undefined || v === null)) return null;
  if (shape.fields.length === 0) return int(v);
  const m = obj(v);
  return Object.fromEntries(shape.fields.map(([json, go, s]) => [go, goValue(m[json], s, semantic, wasEmpty(v, json))]));
}

/** The objects kube-apiserver writes at start (`scripts/gen-bootstrap-flowcontrol.mjs`), each with its producer's fieldsV1. */
export interface BootstrapFlowControlObject extends KubeObject {
  fieldsV1: Record<string, unknown>;
}

let bootstrap: readonly BootstrapFlowControlObject[] | undefined;

/** The bootstrap objects, PriorityLevelConfigurations first, without the fields the server sets. */
export function bootstrapFlowControlObjects(): readonly BootstrapFlowControlObject[] {
  bootstrap ??= (JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/bootstrap-flowcontrol.json', import.meta.url)), 'utf8')) as { objects: BootstrapFlowControlObject[] }).objects;
  return bootstrap;
}

/** The names of the mandatory objects of both kinds. */
export const mandatoryFlowControlNames: ReadonlySet<string> = new Set(['exempt', 'catch-all']);

/** The spec of a mandatory object (`exempt` and `catch-all` of both kinds), from the bootstrap objects. */
function mandatorySpec(kind: string, name: string): JSONObject | undefined {
  if (!mandatoryFlowControlNames.has(name)) return undefined;
  const o = bootstrapFlowControlObjects().find((x) => x.kind === kind && x.metadata.name === name);
  return o === undefined ? undefined : obj(o.spec);
}

/** The mandatory objects' fixed specs (`ValidateIfMandatoryPriorityLevelConfigurationObject` and its FlowSchema twin). */
function mandatoryErrors(o: KubeObject, shape: GoShape): FieldError[] {
  const name = o.metadata.name ?? '';
  const fixed = mandatorySpec(o.kind ?? '', name);
  if (fixed === undefined) return [];
  const spec = obj(o.spec);
  // The exempt priority level's `exempt` member may differ.
  const have = o.kind === 'PriorityLevelConfiguration' && name === 'exempt' ? { ...spec, exempt: fixed.exempt } : spec;
  if (JSON.stringify(goValue(have, shape, true)) === JSON.stringify(goValue(fixed, shape, true))) return [];
  const detail = o.kind === 'PriorityLevelConfiguration' && name === 'exempt' ? `spec of '${name}' except the 'spec.exempt' field must equal the fixed value` : `spec of '${name}' must equal the fixed value`;
  return [new FieldError('FieldValueInvalid', 'spec', o.spec ?? null, detail, JSON.stringify(goValue(spec, shape, false)))];
}

/** `ValidateFlowSchemaSpec` and the status (the metadata is validated before). */
function validateFlowSchema(o: KubeObject): FieldError[] {
  const spec = obj(o.spec);
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const precedence = int(spec.matchingPrecedence);
  if (precedence <= 0) errs.push(invalid(path.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) errs.push(invalid(path.child('matchingPrecedence'), precedence, `must not be greater than ${maxMatchingPrecedence}`));
  if (precedence === 1 && o.metadata.name !== 'exempt') errs.push(invalid(path.child('matchingPrecedence'), precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (isObject(spec.distinguisherMethod)) {
    const type = str(spec.distinguisherMethod.type);
    if (type !== 'ByNamespace' && type !== 'ByUser') {
      const p = path.child('distinguisherMethod', 'type');
      errs.push(new FieldError('FieldValueNotSupported', p, spec.distinguisherMethod, notSupported(p, '', ['ByNamespace', 'ByUser']).detail, `{"Type":${goJSON(type)}}`));
    }
  }
  const plName = str(obj(spec.priorityLevelConfiguration).name);
  const plPath = path.child('priorityLevelConfiguration', 'name');
  if (plName !== '') errs.push(...isDNS1123Subdomain(plName).map((msg) => invalid(plPath, plName, msg)));
  else errs.push(required(plPath, 'must reference a priority level'));
  list(spec.rules).forEach((r, i) => errs.push(...ruleErrors(obj(r), path.child('rules').index(i))));
  errs.push(...mandatoryErrors(o, flowSchemaSpecShape));
  errs.push(...conditionErrors(o));
  return errs;
}

/** `ValidateQueuingConfiguration`: positive numbers, at most 10^7 queues, a hand the deck can deal. */
function queuingErrors(q: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const [limit, queues, hand] = [int(q.queueLengthLimit), int(q.queues), int(q.handSize)];
  if (limit <= 0) errs.push(invalid(path.child('queueLengthLimit'), limit, 'must be positive'));
  if (queues <= 0) errs.push(invalid(path.child('queues'), queues, 'must be positive'));
  else if (queues > maxQueues) errs.push(invalid(path.child('queues'), queues, `must not be greater than ${maxQueues}`));
  if (hand <= 0) errs.push(invalid(path.child('handSize'), hand, 'must be positive'));
  else if (hand > queues) errs.push(invalid(path.child('handSize'), hand, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * hand) > maxHashBits) {
    errs.push(invalid(path.child('handSize'), hand, `required entropy bits of deckSize ${queues} and handSize ${hand} should not be greater than ${maxHashBits}`));
  }
  return errs;
}

/** `ValidateLimitResponse`. */
function limitResponseErrors(lr: JSONObject, path: FieldPath): FieldError[] {
  const type = str(lr.type);
  if (type === 'Reject') return isObject(lr.queuing) ? [forbidden(path.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited')] : [];
  if (type === 'Queue') return isObject(lr.queuing) ? queuingErrors(lr.queuing, path.child('queuing')) : [required(path.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited')];
  return [notSupported(path.child('type'), type, ['Queue', 'Reject'])];
}

const lendableErrors = (v: unknown, path: FieldPath): FieldError[] => (v !== undefined && v !== null && (int(v) < 0 || int(v) > 100) ? [invalid(path, int(v), 'must be between 0 and 100, inclusive')] : []);

/** `ValidatePriorityLevelConfigurationSpec` and the status (the metadata is validated before). */
function validatePriorityLevel(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (Object.hasOwn(o.metadata.annotations ?? {}, preserveZeroSharesAnnotation)) {
    errs.push(forbidden('metadata.annotations', `annotation '${preserveZeroSharesAnnotation}' is forbidden`));
  }
  const spec = obj(o.spec);
  const path = FieldPath.root('spec');
  const type = str(spec.type);
  if ((o.metadata.name === 'exempt') !== (type === 'Exempt')) errs.push(invalid(path.child('type'), type, "must be 'Exempt' if and only if `name` is 'exempt'"));
  if (type === 'Exempt') {
    if (isObject(spec.limited)) errs.push(forbidden(path.child('limited'), 'must be nil if the type is not Limited'));
    if (isObject(spec.exempt)) {
      const shares = spec.exempt.nominalConcurrencyShares;
      if (shares !== undefined && shares !== null && int(shares) < 0) errs.push(invalid(path.child('exempt', 'nominalConcurrencyShares'), int(shares), 'must be a non-negative integer'));
      errs.push(...lendableErrors(spec.exempt.lendablePercent, path.child('exempt', 'lendablePercent')));
    }
  } else if (type === 'Limited') {
    if (isObject(spec.exempt)) errs.push(forbidden(path.child('exempt'), 'must be nil if the type is Limited'));
    if (!isObject(spec.limited)) errs.push(required(path.child('limited'), 'must not be empty when type is Limited'));
    else {
      const limited = spec.limited;
      const lp = path.child('limited');
      if (int(limited.nominalConcurrencyShares) < 0) errs.push(invalid(lp.child('nominalConcurrencyShares'), int(limited.nominalConcurrencyShares), 'must be a non-negative integer'));
      errs.push(...limitResponseErrors(obj(limited.limitResponse), lp.child('limitResponse')));
      errs.push(...lendableErrors(limited.lendablePercent, lp.child('lendablePercent')));
      const borrowing = limited.borrowingLimitPercent;
      if (borrowing !== undefined && borrowing !== null && int(borrowing) < 0) errs.push(invalid(lp.child('borrowingLimitPercent'), int(borrowing), 'if specified, must be a non-negative integer'));
    }
  } else {
    errs.push(notSupported(path.child('type'), type, ['Exempt', 'Limited']));
  }
  errs.push(...mandatoryErrors(o, priorityLevelSpecShape));
  errs.push(...conditionErrors(o));
  return errs;
}

/**
 * The status strategies: `ObjectMeta` is the old one (but the managed fields, which the write handler puts back),
 * the spec the old one, the status the new one (a `generateName` sent to `/status` is dropped too).
 */
function prepareStatusUpdate(o: KubeObject, old: KubeObject): void {
  if (old.spec === undefined) delete o.spec;
  else o.spec = cloneJSON(old.spec);
  o.metadata = cloneJSON(old.metadata);
}

/** The `MissingPL` cell: the `Dangling` condition's status, `?` without one. */
function dangling(o: KubeObject): string {
  const c = list(obj(o.status).conditions).find((x) => obj(x).type === 'Dangling');
  return c === undefined ? '?' : str(obj(c).status);
}

/** `FlowSchemaSequence`: by matching precedence, then name. */
function compareFlowSchemas(a: KubeObject, b: KubeObject): number {
  const d = int(obj(a.spec).matchingPrecedence) - int(obj(b.spec).matchingPrecedence);
  if (d !== 0) return d;
  return compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

const flowSchema: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'flowschemas', singular: 'flowschema', kind: 'FlowSchema', namespaced: false, shortNames: [], status: true, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'PriorityLevel', type: 'string', priority: 0 }, cell: (o) => str(obj(obj(o.spec).priorityLevelConfiguration).name) },
    { def: { name: 'MatchingPrecedence', type: 'string', priority: 0 }, cell: (o) => int(obj(o.spec).matchingPrecedence) },
    { def: { name: 'DistinguisherMethod', type: 'string', priority: 0 }, cell: (o) => (isObject(obj(o.spec).distinguisherMethod) ? str(obj(obj(o.spec).distinguisherMethod).type) : '<none>') },
  ],
  // After Age, though of priority 0.
  wide: [{ def: { name: 'MissingPL', type: 'string', priority: 0 }, cell: dangling }],
  compareTableRows: compareFlowSchemas,
  generation: true,
  // SetDefaults_FlowSchemaSpec.
  defaults: (o) => {
    const spec: JSONObject = isObject(o.spec) ? o.spec : (o.spec = {});
    if (int(spec.matchingPrecedence) === 0) spec.matchingPrecedence = 1000;
  },
  prepareForCreate: (o) => { o.status = {}; },
  validate: validateFlowSchema,
  // ValidateFlowSchemaUpdate is ValidateFlowSchema: the metadata as on a create.
  validateWholeUpdate: (o, _old, generic) => [...generic, ...validateObjectMeta(o.metadata, false, 'subdomain'), ...validateFlowSchema(o)],
  prepareForStatusUpdate: prepareStatusUpdate,
  validateStatusUpdate: (o, _old, meta) => [...meta, ...conditionErrors(o)],
};

/** The v1 defaults of an exempt or limited level and of its queuing. */
function defaultPriorityLevel(o: KubeObject): void {
  const spec: JSONObject = isObject(o.spec) ? o.spec : (o.spec = {});
  const zeroIfUnset = (m: JSONObject, k: string, v: number): void => { if (m[k] === undefined || m[k] === null) m[k] = v; };
  if (isObject(spec.exempt)) {
    zeroIfUnset(spec.exempt, 'nominalConcurrencyShares', 0);
    zeroIfUnset(spec.exempt, 'lendablePercent', 0);
  }
  if (isObject(spec.limited)) {
    zeroIfUnset(spec.limited, 'nominalConcurrencyShares', 30);
    zeroIfUnset(spec.limited, 'lendablePercent', 0);
    const queuing = obj(spec.limited.limitResponse).queuing;
    if (isObject(queuing)) {
      for (const [k, v] of [['handSize', 8], ['queues', 64], ['queueLengthLimit', 50]] as const) if (int(queuing[k]) === 0) queuing[k] = v;
    }
  }
}

const priorityLevel: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'prioritylevelconfigurations', singular: 'prioritylevelconfiguration', kind: 'PriorityLevelConfiguration', namespaced: false, shortNames: [], status: true, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'Type', type: 'string', priority: 0 }, cell: (o) => str(obj(o.spec).type) },
    { def: { name: 'NominalConcurrencyShares', type: 'string', priority: 0 }, cell: (o) => (isObject(obj(o.spec).limited) ? int(obj(obj(o.spec).limited).nominalConcurrencyShares) : '<none>') },
    ...(['queues', 'handSize', 'queueLengthLimit'] as const).map((k) => ({
      def: { name: k === 'queues' ? 'Queues' : k === 'handSize' ? 'HandSize' : 'QueueLengthLimit', type: 'string', priority: 0 },
      cell: (o: KubeObject): unknown => {
        const queuing = obj(obj(obj(o.spec).limited).limitResponse).queuing;
        return isObject(queuing) ? int(queuing[k]) : '<none>';
      },
    })),
  ],
  generation: true,
  defaults: defaultPriorityLevel,
  prepareForCreate: (o) => { o.status = {}; },
  validate: validatePriorityLevel,
  validateWholeUpdate: (o, _old, generic) => [...generic, ...validateObjectMeta(o.metadata, false, 'subdomain'), ...validatePriorityLevel(o)],
  prepareForStatusUpdate: prepareStatusUpdate,
  validateStatusUpdate: (o, _old, meta) => [...meta, ...conditionErrors(o)],
};

/** The flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration kinds. */
export function flowControlResourceTypes(): BuiltinResourceType[] {
  return [new BuiltinResourceType(flowSchema), new BuiltinResourceType(priorityLevel)];
}
