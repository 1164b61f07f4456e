/**
 * The `ValidatingAdmissionPolicy` admission plugin, as kube-apiserver 1.34.4 runs it after the mutating
 * webhooks and before the validating ones: every stored binding whose policy exists, by policy, is matched
 * against the request (the policy's `matchConstraints`, then the binding's `matchResources`: operations,
 * groups, versions, resources with subresources and `*`, resource names, excluded rules, namespace and
 * object selectors, `matchPolicy: Equivalent`), its params are collected (`paramRef` by name or selector,
 * in the request's namespace or the one named, `parameterNotFoundAction`), and for each param the policy's
 * match conditions, validations, messages and audit annotations are evaluated (validating/validator.go).
 * A failed validation is a denial (`Deny`: the request is refused with the first denial, its reason giving
 * the code), a warning (`Warn`: `Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': …`)
 * or nothing visible (`Audit`); an expression that fails, and a policy or binding that cannot be used (a
 * `paramKind` not served, params not found with `Deny`), deny under `failurePolicy: Fail` and are ignored
 * under `Ignore`. The policies and bindings themselves, and the access reviews, are exempt.
 *
 * The reference applies a policy once its informers have seen it (a short delay); here it applies from the
 * write that stores it. Bindings are taken in name order, by policy in name order (the reference's order
 * follows its caches and is not fixed).
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
 */
import {
  AdmissionCompiler, type AdmissionActivation, type AdmissionAuthorizer, type AdmissionInput, type AdmissionProgram, type AuthorizationCheck,
} from '@kubekit/cel';
import { KubeError, type KubeObject, type StatusReason } from '@kubekit/core';
import { requestKindOf, type AdmissionAttributes } from './admission.js';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { labelSelectorFromObject, type LabelSelectorObject } from './internal/semantics.js';
import { gvkString } from './internal/webhookReview.js';
import { RbacAuthorizer, aggregate, serverUser, userInfoJSON, type UserInfo } from './rbacAuthorizer.js';
import type { ResourceType } from './resourceType.js';
import { scaleOf } from './scaleSubresource.js';
import type { ObjectStore } from './storage/objectStore.js';

/** What the plugin needs from the server. */
export interface PolicyAdmissionOptions {
  store: ObjectStore;
  policyType: ResourceType;
  bindingType: ResourceType;
  /** Every served type: the kinds `paramKind` names, and the versions `matchPolicy: Equivalent` matches. */
  types: () => readonly ResourceType[];
}

/** `celconfig.RuntimeCELCostBudget`: the cost all validations of one evaluation may spend. */
const runtimeCostBudget = 10_000_000;
/** `celconfig.RuntimeCELCostBudgetMatchConditions`. */
export const matchConditionsCostBudget = 2_500_000;
/** `celconfig.MaxEvaluatedMessageExpressionSizeBytes`: a longer message is not used. */
const maxMessageBytes = 5 * 1024;
export const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';

/** The resources the plugin never intercepts (`admissionResources` and kube-apiserver's `exclusion.Excluded`). */
const exempt = new Set([
  'admissionregistration.k8s.io/validatingadmissionpolicies', 'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'admissionregistration.k8s.io/mutatingadmissionpolicies', 'admissionregistration.k8s.io/mutatingadmissionpolicybindings',
  'authentication.k8s.io/selfsubjectreviews', 'authentication.k8s.io/tokenreviews', 'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews', 'authorization.k8s.io/selfsubjectrulesreviews', 'authorization.k8s.io/subjectaccessreviews',
]);

/** A policy compiled (cached by the stored object). */
interface CompiledPolicy {
  compiler: AdmissionCompiler;
  matchConditions: { name: string; expression: string; program: ReturnType<AdmissionCompiler['compile']> }[];
  validations: {
    expression: string; message: string; reason: string; messageExpression: string;
    program: ReturnType<AdmissionCompiler['compile']>; messageProgram?: ReturnType<AdmissionCompiler['compile']>;
  }[];
  auditAnnotations: { key: string; valueExpression: string; program: ReturnType<AdmissionCompiler['compile']> }[];
}

/** A denial: the policy, the binding (none for a policy's configuration error), the message, the reason. */
interface Denial {
  policy: string;
  binding?: string;
  message: string;
  reason: StatusReason;
}

/** The request as one policy sees it: its attributes in the version the policy matched. */
/** An admission request as its expressions are given it. */
export interface AdmissionRequest {
  attrs: AdmissionAttributes;
  operation: string;
  namespace: string;
  name: string;
  /** The type the policy matched (the request's, or an equivalent version). */
  matched: ResourceType;
}

/** `rules.Matcher` and the names of a `NamedRuleWithOperations`. */
function ruleMatches(rule: JSONObject, r: AdmissionRequest, t: ResourceType): boolean {
  const has = (list: unknown, v: string): boolean => Array.isArray(list) && list.some((x) => x === '*' || x === v);
  const scope = str(rule.scope) === '' ? '*' : str(rule.scope);
  const isNamespace = t.names.group === '' && t.names.version === 'v1' && t.names.resource === 'namespaces';
  if (scope === 'Namespaced' && (isNamespace || r.namespace === '')) return false;
  if (scope === 'Cluster' && !(isNamespace || r.namespace === '')) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!has(rule.operations, r.operation) || !has(rule.apiGroups, t.names.group) || !has(rule.apiVersions, t.names.version)) return false;
  const sub = r.attrs.subresource;
  const resourceMatches = (Array.isArray(rule.resources) ? rule.resources : []).some((x) => {
    const s = str(x);
    const slash = s.indexOf('/');
    const [res, rsub] = slash < 0 ? [s, ''] : [s.slice(0, slash), s.slice(slash + 1)];
    return (res === '*' || res === t.names.resource) && (rsub === '*' || rsub === sub);
  });
  return resourceMatches;
}

function namesMatch(rule: JSONObject, name: string): boolean {
  const names = Array.isArray(rule.resourceNames) ? rule.resourceNames : [];
  return names.length === 0 || names.includes(name);
}

const labelsOf = (o: KubeObject | undefined): Record<string, string> => (o?.metadata?.labels ?? {}) as Record<string, string>;

/** See the file comment. */
export class PolicyAdmission {
  private readonly compiled = new WeakMap<KubeObject, CompiledPolicy>();

  constructor(private readonly options: PolicyAdmissionOptions) {}

  /**
   * Runs the policies on a request that validated; adds their warnings to `attrs.wctx.warnings` and throws
   * the first denial.
   */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    const { type } = attrs;
    if (exempt.has(`${type.names.group}/${type.names.resource}`)) return;
    const { store } = this.options;
    const byPolicy = new Map<string, KubeObject[]>();
    for (const [, b] of store.values(this.options.bindingType.bucket)) {
      const name = isObject(b.spec) ? str(b.spec.policyName) : '';
      const list = byPolicy.get(name) ?? [];
      list.push(b);
      byPolicy.set(name, list);
    }
    if (byPolicy.size === 0) return;
    const isNamespace = type.names.group === '' && type.names.resource === 'namespaces';
    const name = attrs.name !== '' ? attrs.name : (attrs.object?.metadata.name ?? '');
    const base = { attrs, operation: attrs.operation, name, namespace: isNamespace ? name : attrs.namespace };
    const denials: Denial[] = [];
    for (const policyName of [...byPolicy.keys()].sort()) {
      const policy = store.get(this.options.policyType.bucket, policyName);
      if (policy === undefined) continue;
      await this.dispatch(policy, byPolicy.get(policyName) ?? [], base, denials);
    }
    if (denials.length === 0) return;
    const first = denials[0];
    const message = first.binding === undefined
      ? `ValidatingAdmissionPolicy '${first.policy}' denied request: ${first.message}`
      : `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`;
    const { group, resource } = type.names;
    const qualified = group === '' ? resource : `${resource}.${group}`;
    // admission.NewForbidden names the object, or the one being created, or `Unknown` (a collection's deletes).
    const shown = name !== '' ? name : 'Unknown';
    const code = first.reason === 'Forbidden' ? 403 : first.reason === 'Unauthorized' ? 401 : first.reason === 'RequestEntityTooLarge' ? 413 : 422;
    throw new KubeError(first.reason, `${qualified} ${JSON.stringify(shown)} is forbidden: ${message}`, {
      code, details: { name: shown, ...(group === '' ? {} : { group }), kind: resource, causes: [{ message }] },
    });
  }

  /** One policy with its bindings (validating/dispatcher.go `Dispatch`, for one hook). */
  private async dispatch(policy: KubeObject, bindings: KubeObject[], base: Omit<AdmissionRequest, 'matched'>, denials: Denial[]): Promise<void> {
    const spec: JSONObject = isObject(policy.spec) ? policy.spec : {};
    const policyName = policy.metadata.name ?? '';
    const failurePolicy = str(spec.failurePolicy) === 'Ignore' ? 'Ignore' : 'Fail';
    const configError = (message: string, binding?: string): void => {
      if (failurePolicy === 'Ignore') return;
      denials.push({ policy: policyName, binding, message: binding === undefined ? `failed to configure policy: ${message}` : `failed to configure binding: ${message}`, reason: 'Invalid' });
    };
    if (!isObject(spec.matchConstraints)) {
      configError('policy contained no match constraints, a required field');
      return;
    }
    const matched = this.matches(spec.matchConstraints, base);
    if (matched === undefined) return;
    const request: AdmissionRequest = { ...base, matched };
    // The param kind's type, or the policy's configuration error.
    let paramType: ResourceType | undefined;
    const paramKind = isObject(spec.paramKind) ? spec.paramKind : undefined;
    if (paramKind !== undefined) {
      paramType = this.paramType(paramKind);
      if (paramType === undefined) {
        configError(`failed to find resource referenced by paramKind: '${paramKindString(paramKind)}'`);
        return;
      }
    }
    const compiled = this.compile(policy);
    for (const binding of bindings.sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))) {
      const bindingName = binding.metadata.name ?? '';
      const bspec: JSONObject = isObject(binding.spec) ? binding.spec : {};
      if (isObject(bspec.matchResources) && this.matches(bspec.matchResources, base) === undefined) continue;
      let params: (KubeObject | null)[];
      try {
        params = await this.collectParams(paramKind, paramType, isObject(bspec.paramRef) ? bspec.paramRef : undefined, request.namespace);
      } catch (err) {
        configError(err instanceof Error ? err.message : String(err), bindingName);
        continue;
      }
      const actions = Array.isArray(bspec.validationActions) ? bspec.validationActions.map(String) : [];
      for (const param of params) {
        const input = await admissionInput(this.options.store, request, param);
        this.evaluate(compiled, failurePolicy, input, (message, reason, viaActions) => {
          if (!viaActions) {
            denials.push({ policy: policyName, binding: bindingName, message, reason });
            return;
          }
          for (const action of actions) {
            if (action === 'Deny') denials.push({ policy: policyName, binding: bindingName, message, reason });
            else if (action === 'Warn') {
              const w = `Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': ${message}`;
              if (!base.attrs.wctx.warnings.includes(w)) base.attrs.wctx.warnings.push(w);
            }
          }
        });
      }
    }
  }

  /**
   * `Matcher.Matches`: the selectors, the excluded rules, then the rules (the request's type, else with
   * `Equivalent` another served version of the resource); the type matched, or undefined.
   */
  private matches(m: JSONObject, r: Omit<AdmissionRequest, 'matched'>): ResourceType | undefined {
    if (!this.namespaceMatches(m.namespaceSelector, r)) return undefined;
    const objectSelector = selector(m.objectSelector);
    if (objectSelector !== undefined && !objectSelector.isEmpty()) {
      const { object, oldObject } = r.attrs;
      const hit = (o: KubeObject | undefined): boolean => o !== undefined && objectSelector.matches(labelsOf(o));
      if (!hit(object) && !hit(oldObject)) return undefined;
    }
    const equivalent = str(m.matchPolicy) !== 'Exact';
    const candidates = this.candidates(r.attrs.type, equivalent);
    const inRules = (rules: unknown): ResourceType | undefined => {
      for (const t of candidates) {
        if (objects(rules).some((rule) => ruleMatches(rule, { ...r, matched: t }, t) && namesMatch(rule, r.name))) return t;
      }
      return undefined;
    };
    if (inRules(m.excludeResourceRules) !== undefined) return undefined;
    if (objects(m.resourceRules).length === 0) return r.attrs.type;
    return inRules(m.resourceRules);
  }

  /** The request's type first, then (for `Equivalent`) the other served versions of its resource. */
  private candidates(type: ResourceType, equivalent: boolean): ResourceType[] {
    if (!equivalent) return [type];
    const n = type.names;
    return [type, ...this.options.types().filter((t) => t !== type && t.names.group === n.group && t.names.resource === n.resource && t.bucket === type.bucket)];
  }

  /** `MatchNamespaceSelector`: cluster-scoped requests always match; a namespace's own labels for a namespace. */
  private namespaceMatches(raw: unknown, r: Omit<AdmissionRequest, 'matched'>): boolean {
    const { type } = r.attrs;
    const isNamespace = type.names.group === '' && type.names.resource === 'namespaces';
    if (r.namespace === '' && !isNamespace) return true;
    const s = selector(raw);
    if (s === undefined || s.isEmpty()) return true;
    if (isNamespace && r.attrs.subresource === '' && (r.operation === 'CREATE' || r.operation === 'UPDATE')) return s.matches(labelsOf(r.attrs.object));
    return s.matches(labelsOf(this.options.store.get('/namespaces', r.namespace)));
  }

  private paramType(pk: JSONObject): ResourceType | undefined {
    const apiVersion = str(pk.apiVersion);
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    return this.options.types().find((t) => t.names.group === group && t.names.version === version && t.names.kind === str(pk.kind));
  }

  /** `CollectParams`: the params of a binding (a single `null` when the policy or the binding uses none). */
  private async collectParams(pk: JSONObject | undefined, t: ResourceType | undefined, ref: JSONObject | undefined, namespace: string): Promise<(KubeObject | null)[]> {
    if (pk === undefined || t === undefined || ref === undefined) return [null];
    let scope = '';
    if (t.names.namespaced) {
      scope = str(ref.namespace) !== '' ? str(ref.namespace) : namespace;
      if (scope === '') throw new Error('cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
    } else if (str(ref.namespace) !== '') {
      throw new Error('paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
    }
    const { store } = this.options;
    const shown = async (o: KubeObject): Promise<KubeObject> => {
      const v = await t.fromStorage(o);
      return { ...v, apiVersion: typeof v.apiVersion === 'string' && v.apiVersion !== '' ? v.apiVersion : str(pk.apiVersion), kind: typeof v.kind === 'string' && v.kind !== '' ? v.kind : str(pk.kind) };
    };
    let params: KubeObject[] = [];
    const name = str(ref.name);
    if (name !== '') {
      const o = store.get(t.bucket, t.names.namespaced ? `${scope}/${name}` : name);
      if (o !== undefined) params = [await shown(o)];
    } else if (isObject(ref.selector)) {
      const s = labelSelectorFromObject(ref.selector as LabelSelectorObject);
      for (const [key, o] of store.values(t.bucket)) {
        if (t.names.namespaced && !key.startsWith(`${scope}/`)) continue;
        if (s.matches(labelsOf(o))) params.push(await shown(o));
      }
    } else {
      throw new Error('one of name or selector must be provided');
    }
    if (params.length === 0 && str(ref.parameterNotFoundAction) === 'Deny') throw new Error('no params found for policy binding with `Deny` parameterNotFoundAction');
    return params;
  }

  /**
   * `validator.Validate` for one param: the match conditions, then the validations and their messages,
   * then the audit annotations. `deny(message, reason, viaActions)` is called for each failed validation
   * and each expression that failed under `Fail` (both as the binding's actions say), and for each audit
   * annotation that failed under `Fail` (always a denial).
   */
  private evaluate(c: CompiledPolicy, failurePolicy: 'Fail' | 'Ignore', input: { cel: AdmissionInput; namespace: unknown },
    deny: (message: string, reason: StatusReason, viaActions: boolean) => void): void {
    const fail = (message: string, viaActions = true): void => {
      if (failurePolicy === 'Fail') deny(message, 'Invalid', viaActions);
    };
    if (c.matchConditions.length > 0) {
      // Match conditions see no namespace object.
      const activation = c.compiler.activation({ ...input.cel, namespaceObject: null });
      const errors: string[] = [];
      let budget = matchConditionsCostBudget;
      for (const m of c.matchConditions) {
        const result = run(activation, m.program, m.expression, budget);
        if (result.outOfBudget) {
          fail(outOfBudget);
          return;
        }
        budget = result.budget;
        if (result.error !== undefined) errors.push(result.error);
        else if (result.value === false) return;
      }
      if (errors.length > 0) {
        fail(aggregate(errors));
        return;
      }
    }
    const activation = c.compiler.activation(input.cel);
    let budget = runtimeCostBudget;
    const results: { error?: string; value?: unknown }[] = [];
    for (const v of c.validations) {
      const result = run(activation, v.program, v.expression, budget);
      if (result.outOfBudget) {
        fail(outOfBudget);
        return;
      }
      budget = result.budget;
      results.push(result);
    }
    // The messages, each evaluated (failed validation or not) with what the validations left of the budget.
    const messageActivation = c.compiler.activation({ ...input.cel, authorizer: undefined });
    const messages: (string | undefined)[] = [];
    let messagesOutOfBudget = false;
    for (const v of c.validations) {
      if (v.messageProgram === undefined || messagesOutOfBudget) {
        messages.push(undefined);
        continue;
      }
      const m = run(messageActivation, v.messageProgram, v.messageExpression, budget);
      if (m.outOfBudget) {
        messagesOutOfBudget = true;
        messages.push(undefined);
        continue;
      }
      budget = m.budget;
      messages.push(m.error === undefined && typeof m.value === 'string' ? m.value : undefined);
    }
    c.validations.forEach((v, i) => {
      const result = results[i];
      if (result.error !== undefined) {
        fail(result.error);
        return;
      }
      if (messagesOutOfBudget) {
        fail(`failed messageExpression: ${outOfBudget}`);
        return;
      }
      if (result.value === true) return;
      let message = messages[i]?.trim() ?? '';
      if (Buffer.byteLength(message) > maxMessageBytes || message.includes('\n')) message = '';
      if (message === '' && v.message !== '') message = v.message.trim();
      if (message === '') message = `failed expression: ${v.expression.trim()}`;
      deny(message, v.reason === '' ? 'Invalid' : v.reason as StatusReason, true);
    });
    if (c.auditAnnotations.length === 0) return;
    // Audit annotations have no visible effect; an expression that fails denies under `Fail`.
    const audits = c.compiler.activation({ ...input.cel, namespaceObject: input.namespace });
    let auditBudget = runtimeCostBudget;
    for (const a of c.auditAnnotations) {
      const result = run(audits, a.program, a.valueExpression, auditBudget);
      if (result.outOfBudget) {
        fail(outOfBudget);
        return;
      }
      auditBudget = result.budget;
      if (result.error !== undefined) fail(result.error, false);
    }
  }

  /** The policy's expressions compiled as the apiserver's `compilePolicy` does (stored environment). */
  private compile(policy: KubeObject): CompiledPolicy {
    const cached = this.compiled.get(policy);
    if (cached !== undefined) return cached;
    const spec: JSONObject = isObject(policy.spec) ? policy.spec : {};
    const params = isObject(spec.paramKind);
    const compiler = new AdmissionCompiler(true);
    const decls = { params, authorizer: true, environment: 'stored' as const };
    for (const v of objects(spec.variables)) compiler.compileVariable(str(v.name), str(v.expression), decls);
    const out: CompiledPolicy = {
      compiler,
      matchConditions: objects(spec.matchConditions).map((m) => ({ name: str(m.name), expression: str(m.expression), program: compiler.compile(str(m.expression), 'bool', decls) })),
      validations: objects(spec.validations).map((v) => ({
        expression: str(v.expression), message: str(v.message), reason: str(v.reason), messageExpression: str(v.messageExpression), program: compiler.compile(str(v.expression), 'bool', decls),
        ...(str(v.messageExpression) === '' ? {} : { messageProgram: compiler.compile(str(v.messageExpression), 'string', { ...decls, authorizer: false }) }),
      })),
      auditAnnotations: objects(spec.auditAnnotations).map((a) => ({ key: str(a.key), valueExpression: str(a.valueExpression), program: compiler.compile(str(a.valueExpression), 'stringOrNull', decls) })),
    };
    this.compiled.set(policy, out);
    return out;
  }
}

/** One expression's evaluation in the words of `evaluationActivation.Evaluate`. */
export function run(activation: AdmissionActivation, program: ReturnType<AdmissionCompiler['compile']>, expression: string, budget: number): { value?: unknown; error?: string; budget: number; outOfBudget?: boolean } {
  if (!program.ok) return { error: `compilation error: ${program.detail}`, budget };
  const r = activation.evaluate(program.program as AdmissionProgram);
  const cost = r.cost + activation.takeVariableCost();
  if (cost > budget) return { budget: -1, outOfBudget: true };
  const left = budget - cost;
  if (!r.ok) return { error: `expression '${expression}' resulted in error: ${r.error}`, budget: left };
  return { value: r.value, budget: left };
}

function selector(raw: unknown): ReturnType<typeof labelSelectorFromObject> | undefined {
  if (!isObject(raw)) return undefined;
  try {
    return labelSelectorFromObject(raw as LabelSelectorObject);
  } catch {
    return undefined;
  }
}

/** `schema.GroupVersionKind.String()` of a `paramKind`. */
function paramKindString(pk: JSONObject): string {
  return gvkString(str(pk.apiVersion), str(pk.kind));
}

/** The options object of the operation, as the admission request carries it. */
function operationOptions(operation: string, attrs: AdmissionAttributes): JSONObject {
  const kind = operation === 'CREATE' ? 'CreateOptions' : operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  return { kind, apiVersion: 'meta.k8s.io/v1', ...(attrs.dryRun ? { dryRun: ['All'] } : {}), ...attrs.options };
}

/** `CreateNamespaceObject`: the namespace's status, spec and some of its metadata. */
function namespaceObject(ns: KubeObject): JSONObject {
  const m = ns.metadata;
  const meta: JSONObject = {};
  for (const k of ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'finalizers'] as const) {
    if (m[k] !== undefined) meta[k] = m[k];
  }
  const out: JSONObject = { metadata: meta };
  if (ns.spec !== undefined) out.spec = ns.spec;
  if (ns.status !== undefined) out.status = ns.status;
  return out;
}

/** An authorizer check asked of the RBAC authorizer (the privileged group first). */
function authorize(authorizer: RbacAuthorizer, check: AuthorizationCheck): { allowed: boolean; reason: string } {
  const user: UserInfo = { username: check.user.username, uid: check.user.uid, groups: check.user.groups, extra: check.user.extra };
  const d = check.resourceRequest
    ? authorizer.authorize(user, { resourceRequest: true, verb: check.verb, namespace: check.namespace, apiGroup: check.apiGroup, resource: check.resource, subresource: check.subresource, name: check.name })
    : authorizer.authorize(user, { resourceRequest: false, verb: check.verb, path: check.path });
  return { allowed: d.allowed, reason: d.reason };
}

/**
 * What admission expressions see (`CreateAdmissionRequest` and the bindings of plugin/cel): the object and old
 * object in the matched version, the request, the namespace, the params and the authorizer. The admission
 * webhooks' match conditions see the same, without a namespace object or params.
 */
export async function admissionInput(store: ObjectStore, r: AdmissionRequest, param: KubeObject | null): Promise<{ cel: AdmissionInput; namespace: unknown }> {
  const { attrs, matched } = r;
  const { type } = attrs;
  const convert = async (o: KubeObject | undefined): Promise<KubeObject | null> => {
    if (o === undefined) return null;
    if (matched === type) return o;
    return matched.fromStorage(await type.toStorage(structuredClone(o)));
  };
  // A write through `/scale` is admitted as the Scale it is (autoscaling/v1), not as the object it changes.
  const scale = attrs.subresource === 'scale' && matched.names.scale !== undefined;
  const view = async (o: KubeObject | undefined): Promise<KubeObject | null> => {
    const v = await convert(o);
    return v !== null && scale ? scaleOf(matched, v) : v;
  };
  const gvk = (t: ResourceType) => (scale ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : requestKindOf(t, attrs.subresource));
  const gvr = (t: ResourceType) => ({ group: t.names.group, version: t.names.version, resource: t.names.resource });
  const user = attrs.user ?? serverUser;
  const request: JSONObject = {
    kind: gvk(matched), resource: gvr(matched), requestKind: gvk(type), requestResource: gvr(type),
    operation: r.operation, userInfo: userInfoJSON(user), dryRun: attrs.dryRun, options: operationOptions(r.operation, attrs),
  };
  if (attrs.subresource !== '') {
    request.subResource = attrs.subresource;
    request.requestSubResource = attrs.subresource;
  }
  if (r.name !== '') request.name = r.name;
  if (r.namespace !== '') request.namespace = r.namespace;
  const isNamespace = type.names.group === '' && type.names.resource === 'namespaces';
  const ns = r.namespace === '' || isNamespace ? undefined : store.get('/namespaces', r.namespace);
  const authorizer = new RbacAuthorizer(store);
  const admissionAuthorizer: AdmissionAuthorizer = {
    authorize: (check) => authorize(authorizer, check),
    user: { username: user.username, uid: user.uid, groups: user.groups, extra: user.extra },
    requestResource: { group: type.names.group, resource: type.names.resource, subresource: attrs.subresource, namespace: r.namespace, name: r.name },
  };
  return {
    cel: {
      object: r.operation === 'DELETE' ? null : await view(attrs.object), oldObject: await view(attrs.oldObject), request,
      namespaceObject: ns === undefined ? null : namespaceObject(ns), params: param, authorizer: admissionAuthorizer,
    },
    namespace: ns ?? null,
  };
}
