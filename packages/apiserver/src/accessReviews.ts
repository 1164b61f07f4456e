/**
 * The review kinds, as kube-apiserver 1.34.4 serves them: objects that are created, answered and never
 * stored (`verbs: [create]`; any other verb on the collection is a 405, any URL of one object a 404).
 *
 * - authorization.k8s.io/v1 `SubjectAccessReview` (may a user do this?), `LocalSubjectAccessReview` (the
 *   same, within the URL's namespace), `SelfSubjectAccessReview` (may I?) and `SelfSubjectRulesReview`
 *   (what may I do in this namespace?): validated as pkg/apis/authorization/validation does (exactly one of
 *   resource and non-resource attributes, someone to ask about, metadata empty, selectors' requirements),
 *   answered by {@link RbacAuthorizer} from the stored RBAC objects (pkg/registry/authorization/*);
 * - authentication.k8s.io/v1 `SelfSubjectReview` (who am I?) and `TokenReview` (whose is this token?).
 *
 * The self reviews answer for the request's user: the server's own identity, {@link serverUser} (in
 * `system:masters`, so "may I" is always yes; the bootstrap `cluster-admin` binding gives it every rule), or
 * the user its impersonation headers name (`kubectl auth can-i --as=…`, see `impersonation.ts`). A token
 * review accepts the server's token (any token when it has none, as its requests do), as the server's
 * identity.
 */
import { FieldError, FieldPath, KubeError, forbidden, invalid, required, stringifyJSON, type KubeObject } from '@kubekit/core';
import { SelectorParseError, newLabelRequirement, parseFieldSelector, parseLabelSelector, validateLabelSelectorRequirement, type LabelOperator } from '@kubekit/selectors';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import { aggregate, serverUser, userInfoJSON, type AuthorizationRequest, type RbacAuthorizer, type UserInfo } from './rbacAuthorizer.js';
import type { ServiceAccountTokens } from './serviceAccountTokens.js';

/** What a review is answered with: the store's RBAC objects, the request's time and user. */
export interface ReviewContext {
  authorizer: RbacAuthorizer;
  now: string;
  /** Who asks (the self reviews answer for them). */
  user: UserInfo;
  /** The admission plugins' and webhooks' validation of the decoded review (the REST's `createValidation`). */
  admit(): Promise<void>;
  /** The service account tokens the server issues, which a token review checks. */
  tokens?: ServiceAccountTokens;
}

type Answer = (review: KubeObject, rctx: ReviewContext) => Promise<KubeObject>;

/** A kind whose objects are reviews: created and answered, never stored. */
export class ReviewResourceType extends BuiltinResourceType {
  constructor(spec: BuiltinSpec, readonly answer: Answer) {
    super({ ...spec, verbs: ['create'] });
  }
}

const authorizationGroup = 'authorization.k8s.io';
const authenticationGroup = 'authentication.k8s.io';

/** The six review kinds; `token` is the server's bearer token (none: every token is its). */
export function accessReviewTypes(token: string | undefined): ReviewResourceType[] {
  const names = (group: string, resource: string, kind: string, namespaced = false): BuiltinSpec['names'] => ({
    group, version: 'v1', resource, singular: resource.slice(0, -1), kind, namespaced, shortNames: [], status: false, nameValidation: 'subdomain',
  });
  return [
    new ReviewResourceType({ names: names(authorizationGroup, 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true) }, answerLocalSubjectAccessReview),
    new ReviewResourceType({ names: names(authorizationGroup, 'selfsubjectaccessreviews', 'SelfSubjectAccessReview') }, answerSelfSubjectAccessReview),
    new ReviewResourceType({ names: names(authorizationGroup, 'selfsubjectrulesreviews', 'SelfSubjectRulesReview') }, answerSelfSubjectRulesReview),
    new ReviewResourceType({ names: names(authorizationGroup, 'subjectaccessreviews', 'SubjectAccessReview') }, answerSubjectAccessReview),
    new ReviewResourceType({ names: names(authenticationGroup, 'selfsubjectreviews', 'SelfSubjectReview') }, answerSelfSubjectReview),
    new ReviewResourceType({ names: names(authenticationGroup, 'tokenreviews', 'TokenReview') }, (review, rctx) => answerTokenReview(review, rctx, token)),
  ];
}

function spec(review: KubeObject): JSONObject {
  return isObject(review.spec) ? review.spec : {};
}

/** The review as answered: kind, apiVersion, metadata, spec and the status (Go's field order). */
function answered(review: KubeObject, status: JSONObject): KubeObject {
  const { kind, apiVersion, metadata, spec: s } = review;
  return { kind, apiVersion, metadata, ...(s === undefined ? {} : { spec: s }), status } as KubeObject;
}

/** `field.Invalid` of a Go struct without JSON tags: its field names as Go prints them. */
function invalidStruct(path: string, value: unknown, detail: string): FieldError {
  const text = isObject(value) ? stringifyJSON({ Path: str(value.path), Verb: str(value.verb) }) : 'null';
  return new FieldError('FieldValueInvalid', path, value ?? null, detail, text);
}

/** `ValidateSubjectAccessReviewSpec` (`user`: whether someone must be named, as the non-self kinds require). */
function specErrors(s: JSONObject, user: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = s.resourceAttributes;
  const nonResource = s.nonResourceAttributes;
  if (isObject(resource) && isObject(nonResource)) errs.push(invalidStruct('spec.nonResourceAttributes', nonResource, 'cannot be specified in combination with resourceAttributes'));
  if (!isObject(resource) && !isObject(nonResource)) errs.push(invalidStruct('spec.resourceAttributes', undefined, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (user && str(s.user) === '' && (!Array.isArray(s.groups) || s.groups.length === 0)) errs.push(invalid('spec.user', str(s.user), 'at least one of user or group must be specified'));
  if (isObject(resource)) {
    errs.push(...selectorErrors(resource.fieldSelector, 'spec.resourceAttributes.fieldSelector', fieldRequirementErrors));
    errs.push(...selectorErrors(resource.labelSelector, 'spec.resourceAttributes.labelSelector', (r, p) => validateLabelSelectorRequirement(requirementOf(r), p, { allowUnknownOperatorInRequirement: true })));
  }
  return errs;
}

function requirementOf(r: JSONObject): { key: string; operator: string; values: string[] } {
  return { key: str(r.key), operator: str(r.operator), values: Array.isArray(r.values) ? r.values.map(str) : [] };
}

/** `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`. */
function selectorErrors(selector: unknown, path: string, requirementErrors: (r: JSONObject, p: FieldPath) => FieldError[]): FieldError[] {
  if (!isObject(selector)) return [];
  const errs: FieldError[] = [];
  const raw = str(selector.rawSelector);
  const requirements = objects(selector.requirements);
  if (raw !== '' && requirements.length > 0) errs.push(invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  if (raw === '' && requirements.length === 0) errs.push(required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  requirements.forEach((r, i) => errs.push(...requirementErrors(r, FieldPath.root(path).child('requirements').index(i))));
  return errs;
}

/** `ValidateFieldSelectorRequirement` with unknown operators allowed. */
function fieldRequirementErrors(r: JSONObject, p: FieldPath): FieldError[] {
  const { key, operator, values } = requirementOf(r);
  const errs: FieldError[] = [];
  if (key === '') errs.push(required(p.child('key'), 'must be specified'));
  if ((operator === 'In' || operator === 'NotIn') && values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  if ((operator === 'Exists' || operator === 'DoesNotExist') && values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  return errs;
}

/** `metadata: must be empty` unless the object's metadata holds nothing but managed fields (and, for `keep`, the namespace). */
function metadataErrors(review: KubeObject, detail: string, keep?: 'namespace'): FieldError[] {
  const meta = review.metadata;
  const extra = Object.keys(meta).filter((k) => k !== 'managedFields' && k !== keep && !isEmptyValue(meta[k as keyof typeof meta]));
  if (extra.length === 0) return [];
  return [new FieldError('FieldValueInvalid', 'metadata', meta, detail, stringifyJSON(goOrderedMeta(meta)))];
}

/** Empty and nil maps and lists are the same to `apiequality.Semantic.DeepEqual`. */
function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** ObjectMeta's members in the order of its Go fields (how `field.Invalid` prints it). */
const objectMetaOrder = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

function goOrderedMeta(meta: KubeObject['metadata']): JSONObject {
  const out: JSONObject = {};
  for (const k of objectMetaOrder) if (Object.hasOwn(meta, k) && !isEmptyValue(meta[k as keyof typeof meta])) out[k] = meta[k as keyof typeof meta];
  return out;
}

/** `apierrors.NewInvalid(authorizationapi.Kind(review.Kind), "", errs)`: the decoded review's kind is empty. */
function invalidReview(errs: FieldError[]): KubeError {
  return KubeError.invalid({ group: authorizationGroup, kind: '' }, '', errs);
}

/** `ResourceAttributesFrom` / `NonResourceAttributesFrom` and what `BuildEvaluationError` says of the selectors. */
function requestOf(s: JSONObject): { request: AuthorizationRequest; selectorProblems: string[] } {
  const resource = s.resourceAttributes;
  if (!isObject(resource)) {
    const non = isObject(s.nonResourceAttributes) ? s.nonResourceAttributes : {};
    return { request: { resourceRequest: false, verb: str(non.verb), path: str(non.path) }, selectorProblems: [] };
  }
  const request: AuthorizationRequest = {
    resourceRequest: true, verb: str(resource.verb), namespace: str(resource.namespace), apiGroup: str(resource.group),
    resource: str(resource.resource), subresource: str(resource.subresource), name: str(resource.name),
  };
  const problems: string[] = [];
  const field = selectorParse(resource.fieldSelector, (text) => parseFieldSelector(text), fieldRequirementsParse);
  if (field !== undefined) problems.push(`spec.resourceAttributes.fieldSelector ${field}ignored due to parse error`);
  const label = selectorParse(resource.labelSelector, (text) => parseLabelSelector(text), labelRequirementsParse);
  if (label !== undefined) problems.push(`spec.resourceAttributes.labelSelector ${label}ignored due to parse error`);
  return { request, selectorProblems: problems };
}

/**
 * Whether a selector of the review failed to parse: undefined if not, `''` if all of it is ignored,
 * `'partially '` if some requirements were kept. A raw selector is parsed first; requirements, when
 * given, decide.
 */
function selectorParse(selector: unknown, parseRaw: (text: string) => unknown, parseRequirements: (reqs: JSONObject[]) => { kept: number; failed: boolean }): string | undefined {
  if (!isObject(selector)) return undefined;
  let outcome: { kept: number; failed: boolean } | undefined;
  const raw = str(selector.rawSelector);
  if (raw !== '') {
    try {
      parseRaw(raw);
      outcome = { kept: 1, failed: false };
    } catch (err) {
      if (!(err instanceof SelectorParseError)) throw err;
      outcome = { kept: 0, failed: true };
    }
  }
  const requirements = objects(selector.requirements);
  if (requirements.length > 0) outcome = parseRequirements(requirements);
  if (outcome === undefined || !outcome.failed) return undefined;
  return outcome.kept > 0 ? 'partially ' : '';
}

const labelOperatorOf: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** `labelSelectorAsSelector`: each requirement that `labels.NewRequirement` takes is kept. */
function labelRequirementsParse(reqs: JSONObject[]): { kept: number; failed: boolean } {
  let kept = 0;
  let failed = false;
  for (const r of reqs) {
    const { key, operator, values } = requirementOf(r);
    const op = Object.hasOwn(labelOperatorOf, operator) ? labelOperatorOf[operator] : undefined;
    try {
      if (op === undefined) throw new SelectorParseError(`${operator} is not a valid label selector operator`);
      newLabelRequirement(key, op, values.length === 0 ? null : values);
      kept++;
    } catch (err) {
      if (!(err instanceof SelectorParseError)) throw err;
      failed = true;
    }
  }
  return { kept, failed };
}

/** `fieldSelectorAsSelector`: `In` and `NotIn` with one value are kept. */
function fieldRequirementsParse(reqs: JSONObject[]): { kept: number; failed: boolean } {
  let kept = 0;
  for (const r of reqs) {
    const { operator, values } = requirementOf(r);
    if ((operator === 'In' || operator === 'NotIn') && values.length === 1) kept++;
  }
  return { kept, failed: kept < reqs.length };
}

/** `SubjectAccessReviewStatus`, from the authorizer's decision and the selectors' problems. */
function decide(rctx: ReviewContext, user: UserInfo, s: JSONObject): JSONObject {
  const { request, selectorProblems } = requestOf(s);
  const decision = rctx.authorizer.authorize(user, request);
  const status: JSONObject = { allowed: decision.allowed };
  if (decision.reason !== '') status.reason = decision.reason;
  if (selectorProblems.length > 0) status.evaluationError = selectorProblems.join('; ');
  return status;
}

/** The user a review names (`AuthorizationAttributesFrom`). */
function userOf(s: JSONObject): UserInfo {
  const extra: Record<string, string[]> = {};
  // Request data as keys: own properties only (`__proto__` is a key too).
  if (isObject(s.extra)) for (const [k, v] of Object.entries(s.extra)) setOwn(extra, k, Array.isArray(v) ? v.map(str) : []);
  return { username: str(s.user), uid: str(s.uid), groups: Array.isArray(s.groups) ? s.groups.map(str) : [], extra };
}

async function answerSubjectAccessReview(review: KubeObject, rctx: ReviewContext): Promise<KubeObject> {
  const s = spec(review);
  const errs = [...specErrors(s, true), ...metadataErrors(review, 'must be empty')];
  if (errs.length > 0) throw invalidReview(errs);
  await rctx.admit();
  return answered(review, decide(rctx, userOf(s), s));
}

async function answerSelfSubjectAccessReview(review: KubeObject, rctx: ReviewContext): Promise<KubeObject> {
  const s = spec(review);
  const errs = [...specErrors(s, false), ...metadataErrors(review, 'must be empty')];
  if (errs.length > 0) throw invalidReview(errs);
  await rctx.admit();
  return answered(review, decide(rctx, rctx.user, s));
}

async function answerLocalSubjectAccessReview(review: KubeObject, rctx: ReviewContext): Promise<KubeObject> {
  const s = spec(review);
  const namespace = review.metadata.namespace ?? '';
  const errs = [...specErrors(s, true), ...metadataErrors(review, 'must be empty except for namespace', 'namespace')];
  const resource = s.resourceAttributes;
  if (isObject(resource) && str(resource.namespace) !== namespace) errs.push(invalid('spec.resourceAttributes.namespace', str(resource.namespace), 'must match metadata.namespace'));
  if (isObject(s.nonResourceAttributes)) errs.push(invalidStruct('spec.nonResourceAttributes', s.nonResourceAttributes, 'disallowed on this kind of request'));
  if (errs.length > 0) throw invalidReview(errs);
  await rctx.admit();
  return answered(review, decide(rctx, userOf(s), s));
}

async function answerSelfSubjectRulesReview(review: KubeObject, rctx: ReviewContext): Promise<KubeObject> {
  const namespace = str(spec(review).namespace);
  if (namespace === '') throw KubeError.badRequest('no namespace on request');
  await rctx.admit();
  const { rules, errors } = rctx.authorizer.rulesFor(rctx.user, namespace);
  const resourceRules: JSONObject[] = [];
  const nonResourceRules: JSONObject[] = [];
  for (const rule of rules) {
    const filled = (list: string[] | undefined): string[] | undefined => (list === undefined || list.length === 0 ? undefined : list);
    if ((rule.resources ?? []).length > 0) {
      resourceRules.push(withoutUndefined({ verbs: rule.verbs, apiGroups: filled(rule.apiGroups), resources: filled(rule.resources), resourceNames: filled(rule.resourceNames) }));
    }
    if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
  }
  // The REST answers a new review: the request's metadata and spec are not in it.
  const status: JSONObject = { resourceRules, nonResourceRules, incomplete: false };
  if (errors.length > 0) status.evaluationError = aggregate(errors);
  return { kind: review.kind, apiVersion: review.apiVersion, metadata: {}, spec: {}, status } as KubeObject;
}

function withoutUndefined(o: JSONObject): JSONObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

async function answerSelfSubjectReview(review: KubeObject, rctx: ReviewContext): Promise<KubeObject> {
  await rctx.admit();
  // A new review, made when asked: only its creation time and the requester.
  return { kind: review.kind, apiVersion: review.apiVersion, metadata: { creationTimestamp: rctx.now }, status: { userInfo: userInfoJSON(rctx.user) } } as KubeObject;
}

async function answerTokenReview(review: KubeObject, rctx: ReviewContext, token: string | undefined): Promise<KubeObject> {
  const s = spec(review);
  const given = str(s.token);
  if (given === '') throw KubeError.badRequest('token is required for TokenReview in authentication');
  await rctx.admit();
  const audiences = Array.isArray(s.audiences) ? s.audiences.map(str) : [];
  // A service account token of this server: its user, or the authenticators' errors (the union's
  // aggregate, after the bearer token's own).
  const account = rctx.tokens?.authenticate(given, audiences);
  if (account !== undefined) {
    if ('error' in account) return answered(review, { user: {}, error: `[invalid bearer token, ${account.error}]` });
    return answered(review, { authenticated: true, user: userInfoJSON(account.user), audiences: account.audiences });
  }
  if (token !== undefined && given !== token) return answered(review, { user: {}, error: 'invalid bearer token' });
  return answered(review, withoutUndefined({ authenticated: true, user: userInfoJSON(serverUser), audiences: audiences.length === 0 ? undefined : audiences }));
}

/** Whether a kind's objects are reviews. */
export function isReviewType(type: unknown): type is ReviewResourceType {
  return type instanceof ReviewResourceType;
}
