/**
 * Admission webhooks in the write path, as the apiserver's `MutatingAdmissionWebhook` and
 * `ValidatingAdmissionWebhook` plugins run them: the webhooks of every stored
 * `MutatingWebhookConfiguration` (configurations by name, webhooks in order), then, after the
 * object's own validation, those of every `ValidatingWebhookConfiguration`. A DELETE calls the
 * mutating webhooks with neither object (they can only deny it), then the validating ones with the
 * object being deleted as `oldObject`. Around the webhooks run the in-tree plugins given as
 * {@link AdmissionPlugin}s, in the apiserver's order: LimitRanger's `Admit` before the mutating webhooks and
 * its `Validate` before the validating ones, ResourceQuota after them.
 *
 * Per webhook: `rules` (operations, groups, versions, resources with `/subresource` and `*` forms,
 * scope), `matchPolicy` (`Equivalent` also matches the other served versions of a custom resource and
 * sends the object converted to the matched version), `namespaceSelector` (the namespace's labels; a
 * Namespace's own labels), `objectSelector` (the new or the old object's labels), `sideEffects` (a
 * dry-run request to a webhook with side effects is refused), `timeoutSeconds`, `failurePolicy`
 * (`Ignore` skips a webhook that cannot be called or answers nonsense, `Fail` rejects the request),
 * and for mutating webhooks JSON patches (the patched object is pruned and defaulted again) and
 * `reinvocationPolicy: IfNeeded` (called once more when a later webhook changed the object).
 * A denial becomes the apiserver's error: `admission webhook "<w>" denied the request: <message>`, with
 * the webhook's code (at least 400) and reason.
 *
 * The embedded server has no authentication: requests are made as `system:admin`.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/
 */
import { randomUUID } from 'node:crypto';
import { KubeError, goQuote, isStatusReason, noopLogger, parseJSON, stringifyJSON, type KubeObject, type Logger, type StatusReason } from '@kubekit/core';
import { forbiddenError } from './internal/http.js';
import { labelSelectorFromObject } from '@kubekit/selectors';
import { deepEqual } from './internal/deepEqual.js';
import { loopbackServiceResolver, postReview, type WebhookClientConfig, type WebhookServiceResolver } from './internal/webhookClient.js';
import { applyJSONPatch } from './patch.js';
import type { ResourceType, WriteContext } from './resourceType.js';
import type { ObjectStore } from './storage/objectStore.js';
import { isObject, str } from './internal/own.js';
import { remainingMs, type RequestContext } from './internal/requestContext.js';
import { aggregate, serverUser, userInfoJSON, type UserInfo } from './rbacAuthorizer.js';
import { admissionInput, matchConditionsCostBudget, outOfBudget, run, type PolicyAdmission } from './policyAdmission.js';
import { AdmissionCompiler } from '@kubekit/cel';
import { admissionReviewKind, decodeReview, verifyAdmissionResponse } from './internal/webhookReview.js';
import { goJSONSyntaxError, goUnmarshalTypeError } from './internal/goJSON.js';

/** One admission request, as the write path knows it. */
export interface AdmissionAttributes {
  /** The type the request was made to (its group, version, resource). */
  type: ResourceType;
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  namespace: string;
  name: string;
  subresource: string;
  dryRun: boolean;
  /** The new object (CREATE, UPDATE), in the request's version. */
  object?: KubeObject;
  /** The current object (UPDATE, DELETE), in the request's version. */
  oldObject?: KubeObject;
  /** Warnings of the request: the webhooks' warnings are added. */
  wctx: WriteContext;
  /** Who makes the request (the user it impersonates, if any). @defaultValue {@link serverUser} */
  user?: UserInfo;
  /**
   * The members of the operation's options the request set (`dryRun`, `fieldManager`, `fieldValidation`
   * of its `CreateOptions` or `UpdateOptions`). @defaultValue `dryRun` only
   */
  options?: Readonly<Record<string, unknown>>;
}

interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

interface Webhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: Rule[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: Parameters<typeof labelSelectorFromObject>[0];
  objectSelector?: Parameters<typeof labelSelectorFromObject>[0];
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  matchConditions?: { name?: string; expression?: string }[];
}

/** A webhook's match conditions, compiled once per webhook object (a changed configuration is a new object). */
interface CompiledConditions {
  compiler: AdmissionCompiler;
  conditions: { expression: string; program: ReturnType<AdmissionCompiler['compile']> }[];
}

/**
 * An in-tree admission plugin of the chain (a `MutationInterface` and/or `ValidationInterface` of
 * k8s.io/apiserver's admission package), for the plugins that read stored objects (LimitRanger,
 * ResourceQuota). Each looks at the requests it handles and lets the others be.
 */
export interface AdmissionPlugin {
  /** `Admit`: may change `attrs.object` in place. @throws KubeError the plugin's refusal */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** `Validate`: may refuse the request. @throws KubeError the plugin's refusal */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

/** What the dispatcher needs from the server. */
export interface AdmissionOptions {
  /**
   * The in-tree plugins before the webhooks, in the apiserver's order: their `admit` before the mutating
   * webhooks, their `validate` before the validating ones (LimitRanger). @defaultValue none
   */
  plugins?: readonly AdmissionPlugin[];
  /** The in-tree plugins after the validating webhooks (ResourceQuota). @defaultValue none */
  finalPlugins?: readonly AdmissionPlugin[];
  store: ObjectStore;
  /** Every served type (for `matchPolicy: Equivalent`) and the two configuration types. */
  types: () => readonly ResourceType[];
  mutatingType: ResourceType;
  validatingType: ResourceType;
  /** @defaultValue the service's port on 127.0.0.1 */
  resolveService?: WebhookServiceResolver;
  /** The ValidatingAdmissionPolicy plugin, run before the validating webhooks. @defaultValue none */
  policies?: PolicyAdmission;
  logger?: Logger;
}

/** The kind of a request: a subresource's own kind (a pod's `eviction` takes an Eviction), else the resource's. */
export function requestKindOf(type: ResourceType, subresource: string): { group: string; version: string; kind: string } {
  const own = subresource === '' ? undefined : type.names.kindSubresources?.find((k) => k.subresource === subresource);
  return own !== undefined ? { group: own.group, version: own.version, kind: own.kind } : { group: type.names.group, version: type.names.version, kind: type.names.kind };
}

/** The reason of a denial that names none, by its code. */
const reasonsByCode: Readonly<Record<number, StatusReason>> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError' };

function matchesList(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).some((x) => x === '*' || x === value);
}

/** Whether a rule covers a request (`rules.Matcher`). */
function ruleMatches(rule: Rule, operation: string, group: string, version: string, resource: string, subresource: string, namespaced: boolean): boolean {
  if (!matchesList(rule.operations, operation) || !matchesList(rule.apiGroups, group) || !matchesList(rule.apiVersions, version)) return false;
  const scope = rule.scope ?? '*';
  if ((scope === 'Cluster' && namespaced) || (scope === 'Namespaced' && !namespaced)) return false;
  return (rule.resources ?? []).some((r) => {
    if (r === '*/*') return true;
    const slash = r.indexOf('/');
    if (slash < 0) return (r === '*' || r === resource) && subresource === '';
    const [res, sub] = [r.slice(0, slash), r.slice(slash + 1)];
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function labelsOf(o: KubeObject | undefined): Record<string, string> {
  return (o?.metadata?.labels ?? {}) as Record<string, string>;
}

/** Whether an object of the request matches a selector; an absent object matches none (`matchObject`). */
function objectMatches(selector: ReturnType<typeof labelSelectorFromObject>, o: KubeObject | undefined): boolean {
  return o !== undefined && selector.matches(labelsOf(o));
}

/** The write context of a DELETE's admission (its webhooks' warnings are not shown), with the request's context. */
function deleteContext(request: RequestContext | undefined): WriteContext {
  return { fieldValidation: 'Ignore', warnings: [], duplicateFields: [], subresource: '', now: '', request };
}

/** `admission.NewForbidden`: `<resource> "<name>" is forbidden: <why>`, the name the request's or its object's. */
export function admissionForbidden(attrs: AdmissionAttributes, why: string): KubeError {
  const { group, resource } = attrs.type.names;
  const meta = attrs.object?.metadata;
  const name = attrs.name !== '' ? attrs.name : str(meta?.name) !== '' ? str(meta?.name) : str(meta?.generateName) !== '' ? str(meta?.generateName) : 'Unknown';
  return forbiddenError(group, resource, name, why);
}

/** What one matched webhook is called with: the type (version) the object is sent in. */
interface Invocation {
  hook: Webhook;
  configuration: string;
  sendAs: ResourceType;
}

/** See the file comment. */
export class Admission {
  private readonly resolveService: WebhookServiceResolver;
  private readonly logger: Logger;
  private readonly conditionCache = new WeakMap<Webhook, CompiledConditions>();

  constructor(private readonly options: AdmissionOptions) {
    this.resolveService = options.resolveService ?? loopbackServiceResolver;
    this.logger = options.logger ?? noopLogger;
  }

  /**
   * Runs the in-tree mutating plugins, then the mutating webhooks; resolves with the object to go on with
   * (the given one when no webhook matched).
   */
  async mutate(attrs: AdmissionAttributes): Promise<KubeObject | undefined> {
    for (const p of this.options.plugins ?? []) await p.admit?.(attrs);
    const invocations = this.matching(this.options.mutatingType, attrs, true);
    if (invocations.length === 0) return attrs.object;
    let object = attrs.object;
    const reinvoke: Invocation[] = [];
    const changedAfter = new Map<Invocation, boolean>();
    for (const inv of invocations) {
      const before = object;
      object = await this.callMutating(inv, { ...attrs, object });
      const changed = !deepEqual(before, object);
      if (changed) for (const k of changedAfter.keys()) if (k !== inv) changedAfter.set(k, true);
      if (inv.hook.reinvocationPolicy === 'IfNeeded') changedAfter.set(inv, false);
    }
    for (const [inv, changed] of changedAfter) if (changed) reinvoke.push(inv);
    for (const inv of reinvoke) object = await this.callMutating(inv, { ...attrs, object });
    return object;
  }

  /**
   * Runs the in-tree validating plugins, the validating admission policies, the validating webhooks, then the
   * final plugins (the apiserver's order: LimitRanger, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook,
   * ResourceQuota); throws the first refusal or denial (or failure of a `Fail` webhook).
   */
  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.options.plugins ?? []) await p.validate?.(attrs);
    await this.options.policies?.validate(attrs);
    // Which webhooks are called is settled first, match conditions included (an error under Fail is the
    // answer before any is called); then they are all called at once.
    await this.callValidating(await this.conditionsHold(this.matching(this.options.validatingType, attrs), attrs), attrs);
    for (const p of this.options.finalPlugins ?? []) await p.validate?.(attrs);
  }

  /**
   * The mutating admission of a DELETE (the in-tree plugins, then the webhooks), with the object about to be
   * deleted as `oldObject`: per object, once it is read and the preconditions hold, as the registry calls
   * `AdmissionToValidateObjectDeleteFunc` (rest/delete.go). It cannot change a deletion, but it can deny it.
   * `name` is empty for the objects of a delete of a collection (the request's static attributes).
   */
  async mutateDelete(type: ResourceType, namespace: string, name: string, dryRun: boolean, oldObject: KubeObject, user?: UserInfo, context?: RequestContext): Promise<void> {
    await this.mutate({ type, operation: 'DELETE', namespace, name, subresource: '', dryRun, oldObject, wctx: deleteContext(context), user });
  }

  /**
   * The validating admission of a DELETE, with the object about to be deleted as `oldObject`; `warnings`
   * takes the policies' warnings (the webhooks' are not shown).
   */
  async validateDelete(type: ResourceType, namespace: string, name: string, dryRun: boolean, oldObject: KubeObject, user?: UserInfo, warnings?: string[], context?: RequestContext): Promise<void> {
    const attrs: AdmissionAttributes = { type, operation: 'DELETE', namespace, name, subresource: '', dryRun, oldObject, wctx: deleteContext(context), user };
    await this.options.policies?.validate(warnings === undefined ? attrs : { ...attrs, wctx: { ...attrs.wctx, warnings } });
    await this.callValidating(await this.conditionsHold(this.matching(this.options.validatingType, attrs), attrs), attrs);
  }

  private configurations(type: ResourceType): { name: string; webhooks: Webhook[] }[] {
    const { store } = this.options;
    const out: { name: string; webhooks: Webhook[] }[] = [];
    for (const key of store.keys(type.bucket)) {
      const o = store.get(type.bucket, key);
      if (o === undefined || !Array.isArray(o.webhooks)) continue;
      out.push({ name: o.metadata.name ?? '', webhooks: o.webhooks.filter(isObject) as unknown as Webhook[] });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The webhooks of the configurations that match a request (`mutating`: their object selectors are checked at each call, with the object as it is then). */
  private matching(configType: ResourceType, attrs: AdmissionAttributes, mutating = false): Invocation[] {
    const out: Invocation[] = [];
    const { type } = attrs;
    // Webhook configurations are not subject to webhooks, so that a broken webhook can be removed.
    if (type.names.group === 'admissionregistration.k8s.io') return out;
    for (const config of this.configurations(configType)) {
      for (const hook of config.webhooks) {
        const sendAs = this.matchedType(hook, attrs);
        if (sendAs === undefined || (!mutating && !this.objectSelectorMatches(hook, attrs)) || !this.namespaceSelectorMatches(hook, attrs)) continue;
        out.push({ hook, configuration: config.name, sendAs });
      }
    }
    return out;
  }

  /**
   * The invocations whose webhook's match conditions hold (`matchconditions.Matcher`): any condition false skips
   * the webhook; otherwise an error skips it under Ignore and, under Fail, refuses the request with a 403 (the
   * errors aggregated), before any webhook is called.
   */
  private async conditionsHold(invocations: Invocation[], attrs: AdmissionAttributes): Promise<Invocation[]> {
    const out: Invocation[] = [];
    for (const inv of invocations) {
      const conditions = inv.hook.matchConditions ?? [];
      if (conditions.length === 0) {
        out.push(inv);
        continue;
      }
      const compiled = this.compiledConditions(inv.hook);
      const input = await admissionInput(this.options.store, { attrs, operation: attrs.operation, namespace: attrs.namespace, name: attrs.name, matched: inv.sendAs }, null);
      const activation = compiled.compiler.activation({ ...input.cel, namespaceObject: null });
      const errors: string[] = [];
      let budget = matchConditionsCostBudget;
      let skip = false;
      for (const c of compiled.conditions) {
        const result = run(activation, c.program, c.expression, budget);
        if (result.outOfBudget === true) {
          errors.splice(0, errors.length, outOfBudget);
          break;
        }
        budget = result.budget;
        if (result.error !== undefined) errors.push(result.error);
        else if (result.value === false) {
          skip = true;
          break;
        }
      }
      if (skip) continue;
      if (errors.length > 0) {
        if (inv.hook.failurePolicy === 'Ignore') continue;
        throw admissionForbidden(attrs, aggregate(errors));
      }
      out.push(inv);
    }
    return out;
  }

  private compiledConditions(hook: Webhook): CompiledConditions {
    let compiled = this.conditionCache.get(hook);
    if (compiled === undefined) {
      const compiler = new AdmissionCompiler(false);
      const conditions = (hook.matchConditions ?? []).map((c) => ({ expression: str(c.expression), program: compiler.compile(str(c.expression), 'bool', { params: false, authorizer: true, environment: 'stored' }) }));
      compiled = { compiler, conditions };
      this.conditionCache.set(hook, compiled);
    }
    return compiled;
  }

  private matchedType(hook: Webhook, attrs: AdmissionAttributes): ResourceType | undefined {
    const { type } = attrs;
    const n = type.names;
    const rules = hook.rules ?? [];
    const matches = (t: ResourceType): boolean => rules.some((r) => ruleMatches(r, attrs.operation, t.names.group, t.names.version, t.names.resource, attrs.subresource, n.namespaced));
    if (matches(type)) return type;
    if ((hook.matchPolicy ?? 'Equivalent') !== 'Equivalent') return undefined;
    return this.options.types().find((t) => t !== type && t.names.group === n.group && t.names.resource === n.resource && t.bucket === type.bucket && matches(t));
  }

  private objectSelectorMatches(hook: Webhook, attrs: AdmissionAttributes): boolean {
    try {
      const objectSelector = labelSelectorFromObject(hook.objectSelector ?? {});
      return objectSelector.isEmpty() || objectMatches(objectSelector, attrs.object) || objectMatches(objectSelector, attrs.oldObject);
    } catch (err) {
      throw new KubeError('InternalError', `Internal error occurred: failed calling webhook "${hook.name}": invalid selector: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private namespaceSelectorMatches(hook: Webhook, attrs: AdmissionAttributes): boolean {
    try {
      const namespaceSelector = labelSelectorFromObject(hook.namespaceSelector ?? {});
      if (namespaceSelector.isEmpty()) return true;
      const { names } = attrs.type;
      if (names.group === '' && names.resource === 'namespaces') {
        // A namespace's own labels: the new object's for a create or update, else the stored one's
        // (a DELETE's mutating webhooks get no object), as predicates/namespace GetNamespaceLabels.
        const own = attrs.operation !== 'DELETE' && attrs.subresource === '' ? attrs.object : this.options.store.get('/namespaces', attrs.name);
        return namespaceSelector.matches(labelsOf(own));
      }
      if (!names.namespaced) return true;
      const ns = this.options.store.get('/namespaces', attrs.namespace);
      return namespaceSelector.matches(labelsOf(ns));
    } catch (err) {
      throw new KubeError('InternalError', `Internal error occurred: failed calling webhook "${hook.name}": invalid selector: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Calls the validating webhooks in parallel, as the validating dispatcher does: every one is called, whatever
   * the others answer, and one error is the answer (the apiserver's first to arrive; here the first in order,
   * so that the answer does not depend on timing).
   */
  private async callValidating(invocations: Invocation[], attrs: AdmissionAttributes): Promise<void> {
    const outcomes = await Promise.allSettled(invocations.map((inv) => this.call(inv, attrs, false)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  private async callMutating(inv: Invocation, attrs: AdmissionAttributes): Promise<KubeObject | undefined> {
    // A mutating webhook's object selector and match conditions see the object as the webhooks before it left it.
    if (!this.objectSelectorMatches(inv.hook, attrs) || (await this.conditionsHold([inv], attrs)).length === 0) return attrs.object;
    const patched = await this.call(inv, attrs, true);
    return patched ?? attrs.object;
  }

  /** Converts between the request's version and the version a webhook is sent. */
  private async convert(object: KubeObject | undefined, from: ResourceType, to: ResourceType): Promise<KubeObject | undefined> {
    if (object === undefined || from === to) return object;
    return to.fromStorage(await from.toStorage(object));
  }

  /** Calls one webhook; for a mutating one resolves with the patched object (in the request's version). */
  private async call(inv: Invocation, attrs: AdmissionAttributes, mutating: boolean): Promise<KubeObject | undefined> {
    const { hook, sendAs } = inv;
    if (attrs.dryRun && hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') {
      throw KubeError.badRequest(`admission webhook "${hook.name}" does not support dry run`);
    }
    const { type } = attrs;
    const uid = randomUUID();
    const object = await this.convert(attrs.object, type, sendAs);
    const oldObject = await this.convert(attrs.oldObject, type, sendAs);
    const reviewVersion = (hook.admissionReviewVersions ?? ['v1']).find((v) => v === 'v1' || v === 'v1beta1') ?? 'v1';
    const gvk = (t: ResourceType) => requestKindOf(t, attrs.subresource);
    const gvr = (t: ResourceType) => ({ group: t.names.group, version: t.names.version, resource: t.names.resource });
    const request: Record<string, unknown> = {
      uid, kind: gvk(sendAs), resource: gvr(sendAs), requestKind: gvk(type), requestResource: gvr(type),
      // Both omitted when empty (a collection's objects, a cluster-scoped kind).
      ...(attrs.name === '' ? {} : { name: attrs.name }), ...(attrs.namespace === '' ? {} : { namespace: attrs.namespace }), operation: attrs.operation,
      userInfo: userInfoJSON(attrs.user ?? serverUser),
      object: object ?? null, oldObject: oldObject ?? null, dryRun: attrs.dryRun,
      options: { apiVersion: 'meta.k8s.io/v1', kind: `${attrs.operation === 'CREATE' ? 'Create' : attrs.operation === 'UPDATE' ? 'Update' : 'Delete'}Options` },
    };
    if (attrs.subresource !== '') {
      request.subResource = attrs.subresource;
      request.requestSubResource = attrs.subresource;
    }
    const review = { apiVersion: `admission.k8s.io/${reviewVersion}`, kind: 'AdmissionReview', request };
    // A failure to call the webhook, or an answer it cannot take: the request fails, or goes on without the
    // webhook when its failure policy is Ignore.
    const failed = (why: string): undefined => {
      const message = `failed calling webhook "${hook.name}": ${why}`;
      if (hook.failurePolicy === 'Ignore') {
        this.logger.warn('failed calling webhook, failing open', { webhook: hook.name, error: message });
        return undefined;
      }
      throw new KubeError('InternalError', `Internal error occurred: ${message}`, { details: { causes: [{ message }] } });
    };
    let text: string;
    try {
      // The call's deadline: the webhook's timeout or what is left of the request's, whichever comes first
      // (the dispatchers' context.WithTimeout under the request's context).
      const timeoutMs = Math.min((hook.timeoutSeconds ?? 10) * 1000, remainingMs(attrs.wctx.request));
      text = await postReview(hook.clientConfig ?? {}, stringifyJSON(review), timeoutMs, this.resolveService, { timeoutParameter: true, signal: attrs.wctx.request?.signal });
    } catch (err) {
      return failed(`failed to call webhook: ${err instanceof Error ? err.message : String(err)}`);
    }
    const answer = decodeReview(text, admissionReviewKind, reviewVersion);
    if ('callError' in answer) return failed(`failed to call webhook: ${answer.callError}`);
    const verified = verifyAdmissionResponse(answer.review, reviewVersion, uid, mutating);
    if ('invalid' in verified) return failed(`received invalid webhook response: ${verified.invalid}`);
    const { response } = verified;
    if (Array.isArray(response.warnings)) for (const w of response.warnings) if (typeof w === 'string') attrs.wctx.warnings.push(w);
    // An absent `allowed` is false: denied, without explanation unless the status gives one.
    if (response.allowed !== true) throw this.denial(hook.name, isObject(response.status) ? response.status : undefined);
    if (!mutating || typeof response.patch !== 'string') return undefined;
    // The mutating dispatcher: an empty patch, or an empty list of operations, changes nothing; a patch that is
    // not a list of operations is the call's failure (its failure policy applies); applying it and decoding the
    // result are the request's errors whatever the policy.
    const patchText = Buffer.from(response.patch, 'base64').toString('utf8');
    if (patchText === '') return undefined;
    const undecodable = patchDecodeError(patchText);
    if (undecodable !== undefined) return failed(`received undecodable patch in webhook response: ${undecodable}`);
    const ops = parseJSON(patchText);
    if (!Array.isArray(ops) || ops.length === 0) return undefined;
    if (object === undefined) throw new KubeError('InternalError', `Internal error occurred: admission webhook ${goQuote(hook.name)} attempted to modify the object, which is not supported for this operation`);
    // A v1beta1 review's patch type is not checked: JSONPatch, the only one.
    const patchType = reviewVersion === 'v1' ? response.patchType : 'JSONPatch';
    if (patchType !== 'JSONPatch') return failed(`unsupported patch type ${goQuote(String(patchType ?? ''))}`);
    let patched: KubeObject;
    try {
      patched = applyJSONPatch(object, ops) as KubeObject;
    } catch (err) {
      throw new KubeError('InternalError', `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`);
    }
    // A subresource's own kind (a pod's Binding or Eviction) is read by the subresource's handler, which
    // decodes what it is given; it is not the resource's kind to decode here.
    if (requestKindOf(type, attrs.subresource).kind !== type.names.kind) return patched;
    // As the apiserver: the patched object is decoded (pruned) and defaulted again.
    // Decoded by a plain JSON serializer: what it cannot take is an internal error in encoding/json's words.
    const decoded = sendAs.decode(patched, { ...attrs.wctx, warnings: [], duplicateFields: [], fieldValidation: 'Ignore', strictError: (m) => new KubeError('InternalError', `Internal error occurred: ${m}`) });
    return this.convert(decoded, sendAs, type);
  }

  /**
   * The apiserver's `ToStatusErr` as of Kubernetes 1.34 (the reference kube-apiserver's): a code below
   * 400 becomes 400, the message is `admission webhook "<w>" denied the request: <message or reason>`
   * (or `… without explanation`), the webhook's reason and details are kept. The apiserver leaves the
   * reason empty when the webhook gave none; kubekit's Status always has one, taken from the code.
   */
  private denial(webhook: string, status: Record<string, unknown> | undefined): KubeError {
    const given = typeof status?.code === 'number' ? status.code : 0;
    const code = given < 400 ? 400 : given;
    const deniedBy = `admission webhook "${webhook}" denied the request`;
    const text = typeof status?.message === 'string' ? status.message : '';
    const reasonText = typeof status?.reason === 'string' ? status.reason : '';
    const message = text !== '' ? `${deniedBy}: ${text}` : reasonText !== '' ? `${deniedBy}: ${reasonText}` : `${deniedBy} without explanation`;
    const reason = isStatusReason(reasonText) ? reasonText : (reasonsByCode[code] ?? 'Unknown');
    return new KubeError(reason, message, { code, ...(isObject(status?.details) ? { details: status.details } : {}) });
  }
}


/**
 * Why `jsonpatch.DecodePatch` refuses a patch's text (encoding/json into `[]map[string]*json.RawMessage`), or
 * undefined: a syntax error, or a value that is not a list of objects (null is none).
 */
function patchDecodeError(text: string): string | undefined {
  const syntax = goJSONSyntaxError(text);
  if (syntax !== undefined) return syntax;
  const ops = JSON.parse(text) as unknown;
  if (ops === null) return undefined;
  if (!Array.isArray(ops)) return goUnmarshalTypeError(ops, 'jsonpatch.Patch');
  const bad = ops.find((op) => op !== null && (typeof op !== 'object' || Array.isArray(op)));
  return bad === undefined ? undefined : goUnmarshalTypeError(bad, 'jsonpatch.Operation');
}
