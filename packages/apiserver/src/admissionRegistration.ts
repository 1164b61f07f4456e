/**
 * The admissionregistration.k8s.io/v1 kinds `ValidatingWebhookConfiguration` and
 * `MutatingWebhookConfiguration`: stored like the other built-in kinds, defaulted and validated as the
 * apiserver does (`SetDefaults_ValidatingWebhook`, `ValidateValidatingWebhookConfiguration`: names,
 * client config, match conditions, review versions, side effects, timeouts, label selectors and the policy enums).
 *
 * @see https://kubernetes.io/docs/reference/kubernetes-api/extend-resources/validating-webhook-configuration-v1/
 */
import { FieldError, FieldPath, duplicate, invalid, notSupported, required, type KubeObject } from '@kubekit/core';
import { validateLabelSelector, type LabelSelectorObject } from '@kubekit/selectors';
import { BuiltinResourceType } from './builtinKinds.js';
import { isObject } from './internal/own.js';
import { deepEqual } from './internal/deepEqual.js';
import { validateMatchConditions } from './validatingAdmissionPolicy.js';

/** Fills the apiserver's defaults into every webhook of a configuration (in place). */
function setDefaults(mutating: boolean): (o: KubeObject) => void {
  return (o) => {
    if (!Array.isArray(o.webhooks)) return;
    for (const w of o.webhooks) {
      if (!isObject(w)) continue;
      w.failurePolicy ??= 'Fail';
      w.matchPolicy ??= 'Equivalent';
      w.namespaceSelector ??= {};
      w.objectSelector ??= {};
      w.timeoutSeconds ??= 10;
      if (mutating) w.reinvocationPolicy ??= 'Never';
      if (isObject(w.clientConfig) && isObject(w.clientConfig.service)) w.clientConfig.service.port ??= 443;
      if (Array.isArray(w.rules)) for (const r of w.rules) if (isObject(r)) r.scope ??= '*';
    }
  };
}

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

function validateClientConfig(cc: unknown, path: FieldPath): FieldError[] {
  if (!isObject(cc)) return [required(path, 'exactly one of url or service is required')];
  const hasURL = typeof cc.url === 'string';
  const hasService = isObject(cc.service);
  if (hasURL === hasService) return [required(path, 'exactly one of url or service is required')];
  const errs: FieldError[] = [];
  if (hasURL) {
    let url: URL | undefined;
    try {
      url = new URL(cc.url as string);
    } catch {
      errs.push(required(path.child('url'), 'url must be a valid URL'));
    }
    if (url !== undefined) {
      if (url.protocol !== 'https:') errs.push(invalid(path.child('url'), url.protocol.replace(/:$/, ''), "'https' is the only allowed URL scheme; desired format: https://host[/path]"));
      if (url.search !== '') errs.push(invalid(path.child('url'), url.search.slice(1), 'query parameters are not permitted in the URL'));
      if (url.hash !== '') errs.push(invalid(path.child('url'), url.hash.slice(1), 'fragments are not permitted in the URL'));
    }
  } else {
    const svc = cc.service as Record<string, unknown>;
    const sp = path.child('service');
    if (typeof svc.name !== 'string' || svc.name === '') errs.push(required(sp.child('name'), ''));
    if (typeof svc.namespace !== 'string' || svc.namespace === '') errs.push(required(sp.child('namespace'), ''));
    const port = svc.port;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) errs.push(invalid(sp.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
    if (svc.path !== undefined && (typeof svc.path !== 'string' || !svc.path.startsWith('/'))) errs.push(invalid(sp.child('path'), svc.path, "must start with a '/'"));
  }
  return errs;
}

function validateRules(rules: unknown, path: FieldPath): FieldError[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) return [invalid(path, rules, 'must be a list')];
  const errs: FieldError[] = [];
  rules.forEach((r, i) => {
    const p = path.index(i);
    if (!isObject(r)) {
      errs.push(invalid(p, r, 'must be an object'));
      return;
    }
    const ops = Array.isArray(r.operations) ? r.operations : [];
    if (ops.length === 0) errs.push(required(p.child('operations'), ''));
    ops.forEach((o, j) => {
      if (!operations.includes(String(o))) errs.push(notSupported(p.child('operations').index(j), o, operations));
    });
    for (const field of ['apiGroups', 'apiVersions', 'resources'] as const) {
      if (!Array.isArray(r[field]) || r[field].length === 0) errs.push(required(p.child(field), ''));
    }
    if (!['*', 'Cluster', 'Namespaced'].includes(String(r.scope))) errs.push(notSupported(p.child('scope'), r.scope, ['*', 'Cluster', 'Namespaced']));
  });
  return errs;
}

/**
 * The expressions of the old configuration's match conditions (they compile as stored ones), and whether its
 * webhooks' match conditions are all unchanged (then they are not checked again).
 */
function preexisting(o: KubeObject, old: KubeObject | undefined): { stored: Set<string>; unchanged: boolean } {
  const webhooks = (x: KubeObject | undefined): Record<string, unknown>[] => (Array.isArray(x?.webhooks) ? x.webhooks.filter(isObject) : []);
  const stored = new Set<string>();
  for (const w of webhooks(old)) for (const m of Array.isArray(w.matchConditions) ? w.matchConditions : []) if (isObject(m) && typeof m.expression === 'string') stored.add(m.expression);
  const [now, before] = [webhooks(o), webhooks(old)];
  const unchanged = old !== undefined && now.length === before.length && now.every((w, i) => deepEqual(w.matchConditions, before[i].matchConditions));
  return { stored, unchanged };
}

function validateConfiguration(mutating: boolean): (o: KubeObject, old?: KubeObject) => FieldError[] {
  return (o, old) => {
    const errs: FieldError[] = [];
    const conditions = preexisting(o, old);
    if (o.webhooks === undefined || o.webhooks === null) return errs;
    if (!Array.isArray(o.webhooks)) return [invalid(FieldPath.root('webhooks'), o.webhooks, 'must be a list')];
    const seen = new Set<string>();
    o.webhooks.forEach((w, i) => {
      const p = FieldPath.root('webhooks').index(i);
      if (!isObject(w)) {
        errs.push(invalid(p, w, 'must be an object'));
        return;
      }
      const name = typeof w.name === 'string' ? w.name : '';
      if (name === '') errs.push(required(p.child('name'), ''));
      else if (!dns1123Subdomain.test(name) || name.length > 253) errs.push(invalid(p.child('name'), name, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"));
      else if (name.split('.').length < 3) errs.push(invalid(p.child('name'), name, 'should be a domain with at least three segments separated by dots'));
      // In the reference kube-apiserver's order: rules, policies, side effects, timeout, selectors,
      // client config, review versions, and a duplicate name last.
      errs.push(...validateRules(w.rules, p.child('rules')));
      if (w.failurePolicy !== 'Fail' && w.failurePolicy !== 'Ignore') errs.push(notSupported(p.child('failurePolicy'), w.failurePolicy, ['Fail', 'Ignore']));
      if (w.matchPolicy !== 'Exact' && w.matchPolicy !== 'Equivalent') errs.push(notSupported(p.child('matchPolicy'), w.matchPolicy, ['Equivalent', 'Exact']));
      if (w.sideEffects === undefined || w.sideEffects === null) errs.push(required(p.child('sideEffects'), 'must specify one of None, NoneOnDryRun'));
      else if (w.sideEffects !== 'None' && w.sideEffects !== 'NoneOnDryRun') errs.push(notSupported(p.child('sideEffects'), w.sideEffects, ['None', 'NoneOnDryRun']));
      const t = w.timeoutSeconds;
      if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > 30) errs.push(invalid(p.child('timeoutSeconds'), t, 'the timeout value must be between 1 and 30 seconds'));
      for (const field of ['namespaceSelector', 'objectSelector'] as const) {
        if (w[field] !== undefined && w[field] !== null) errs.push(...validateLabelSelector(w[field] as LabelSelectorObject, p.child(field)));
      }
      if (mutating && w.reinvocationPolicy !== 'Never' && w.reinvocationPolicy !== 'IfNeeded') errs.push(notSupported(p.child('reinvocationPolicy'), w.reinvocationPolicy, ['IfNeeded', 'Never']));
      errs.push(...validateClientConfig(w.clientConfig, p.child('clientConfig')));
      if (!conditions.unchanged) errs.push(...validateMatchConditions(w.matchConditions, p.child('matchConditions'), false, conditions.stored));
      const versions = Array.isArray(w.admissionReviewVersions) ? w.admissionReviewVersions : [];
      if (versions.length === 0) errs.push(required(p.child('admissionReviewVersions'), 'must specify one of v1, v1beta1'));
      else if (!versions.some((v) => v === 'v1' || v === 'v1beta1')) errs.push(invalid(p.child('admissionReviewVersions'), versions, 'must include at least one of v1, v1beta1'));
      if (name !== '' && seen.has(name)) errs.push(duplicate(p.child('name'), name));
      seen.add(name);
    });
    return errs;
  };
}

/** The two webhook configuration kinds, served in admissionregistration.k8s.io/v1 (cluster-scoped). */
export function admissionRegistrationTypes(): BuiltinResourceType[] {
  const kind = (mutating: boolean): BuiltinResourceType => {
    const k = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
    return new BuiltinResourceType({
      names: { group: 'admissionregistration.k8s.io', version: 'v1', resource: `${k.toLowerCase()}s`, singular: k.toLowerCase(), kind: k, namespaced: false, shortNames: [], categories: ['api-extensions'], status: false, nameValidation: 'subdomain' },
      columns: [{ def: { name: 'Webhooks', type: 'integer', priority: 0, description: 'Webhooks indicates the number of webhooks in the configuration.' }, cell: (o) => (Array.isArray(o.webhooks) ? o.webhooks.length : 0) }],
      // The strategy sets generation 1 on create and bumps it when the webhooks change.
      generation: true,
      generationField: 'webhooks',
      // A PUT needs the resourceVersion it replaces (the strategy's AllowUnconditionalUpdate is false).
      allowUnconditionalUpdate: false,
      normalize: setDefaults(mutating),
      validate: validateConfiguration(mutating),
    });
  };
  return [kind(true), kind(false)];
}
