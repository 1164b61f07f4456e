/**
 * The admissionregistration.k8s.io/v1 kinds `ValidatingAdmissionPolicy` (with `/status`) and
 * `ValidatingAdmissionPolicyBinding`, as kube-apiserver 1.34.4 serves them: the defaults of
 * `SetObjectDefaults_ValidatingAdmissionPolicy` and `…Binding`, `ValidateValidatingAdmissionPolicy` and
 * `…Binding` in the reference's words (the CEL of match conditions, variables, validations, messages and
 * audit annotations compiled as the apiserver compiles them, in its environment for new expressions unless
 * the old object had the expression), the strategies (status cleared on create and kept on update, the
 * generation bumped by a change of `spec`, a `/status` that keeps the spec and the metadata), and the Tables
 * of printValidatingAdmissionPolicy and printValidatingAdmissionPolicyBinding. What the policies do to
 * requests is in policyAdmission.ts.
 *
 * The strategies' check that a user who is not a superuser may read the `paramKind` (and the object a
 * binding's `paramRef` names) is not made: the embedded server's own user is in `system:masters`.
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/validating-admission-policy/
 */
import { AdmissionCompiler, type AdmissionCompileResult, type AdmissionDeclarations, type AdmissionResultType } from '@kubekit/cel';
import {
  FieldError, FieldPath, duplicate, forbidden, internalError, invalid, notSupported, required, tooMany, type KubeObject,
} from '@kubekit/core';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { validateMetaConditions } from './policyKinds.js';
import { pathSegmentErrors, resetObjectMetaForStatus } from './objectMeta.js';
import { isObject, objects, str, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, validateLabelSelector, type LabelSelectorObject } from './internal/semantics.js';

const group = 'admissionregistration.k8s.io';
const failurePolicies = ['Fail', 'Ignore'];
const matchPolicies = ['Equivalent', 'Exact'];
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const scopes = ['*', 'Cluster', 'Namespaced'];
const reasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const actions = ['Audit', 'Deny', 'Warn'];
const maxAuditAnnotations = 20;
const maxAuditAnnotationValueExpressionLength = 5 * 1024;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => str(x)) : []);
const present = (v: unknown): boolean => v !== undefined && v !== null;

/** Fills the defaults of a `MatchResources` (`SetDefaults_MatchResources`, `SetDefaults_Rule` of its rules). */
function defaultMatchResources(m: unknown): void {
  if (!isObject(m)) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const rules of [m.resourceRules, m.excludeResourceRules]) for (const r of objects(rules)) r.scope ??= '*';
}

/** `SetObjectDefaults_ValidatingAdmissionPolicy`. */
function defaultPolicy(o: KubeObject): void {
  if (!isObject(o.spec)) o.spec = {};
  const spec = o.spec as JSONObject;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

/** `SetObjectDefaults_ValidatingAdmissionPolicyBinding`. */
function defaultBinding(o: KubeObject): void {
  if (!isObject(o.spec)) o.spec = {};
  defaultMatchResources((o.spec as JSONObject).matchResources);
}

const hasWildcard = (list: readonly string[]): boolean => list.includes('*');

/** `validateResources`: the forms of `resource/subresource` and their wildcards. */
function validateResources(resources: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSub.has(res)) errs.push(invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** `validateRuleWithOperations` (subresources allowed), after `validateNamedRuleWithOperations`' names. */
function validateNamedRule(rule: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  strings(rule.resourceNames).forEach((name, i) => {
    for (const msg of pathSegmentErrors(name, false)) errs.push(invalid(path.child('resourceNames').index(i), name, msg));
    if (names.has(name)) errs.push(duplicate(path.child('resourceNames').index(i), name));
    else names.add(name);
  });
  const ops = strings(rule.operations);
  if (ops.length === 0) errs.push(required(path.child('operations')));
  if (ops.length > 1 && hasWildcard(ops)) errs.push(invalid(path.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!operations.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, operations));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(strings(rule.resources), path.child('resources')));
  if (present(rule.scope) && !scopes.includes(str(rule.scope))) errs.push(notSupported(path.child('scope'), rule.scope, scopes));
  return errs;
}

/** `validateMatchResources`: the policy, the selectors (strictly), the rules. */
function validateMatchResources(m: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!present(m.matchPolicy)) errs.push(required(path.child('matchPolicy')));
  else if (!matchPolicies.includes(str(m.matchPolicy))) errs.push(notSupported(path.child('matchPolicy'), m.matchPolicy, matchPolicies));
  for (const f of ['namespaceSelector', 'objectSelector'] as const) {
    if (!present(m[f])) errs.push(required(path.child(f)));
    else errs.push(...validateLabelSelector(m[f] as LabelSelectorObject, path.child(f)));
  }
  objects(m.resourceRules).forEach((r, i) => errs.push(...validateNamedRule(r, path.child('resourceRules').index(i))));
  objects(m.excludeResourceRules).forEach((r, i) => errs.push(...validateNamedRule(r, path.child('excludeResourceRules').index(i))));
  return errs;
}

/** `parseGroupVersion` of the validation: the group and version, or the error. */
function parseGroupVersion(gv: string): { group: string; version: string } | string {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return `unexpected GroupVersion string: ${gv}`;
}

/** `validateParamKind`. */
function validateParamKind(pk: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(pk.apiVersion);
  if (apiVersion === '') errs.push(required(path.child('apiVersion')));
  else {
    const gv = parseGroupVersion(apiVersion);
    if (typeof gv === 'string') errs.push(invalid(path.child('apiVersion'), apiVersion, gv));
    else {
      if (gv.group !== '') {
        const msgs = isDNS1123Subdomain(gv.group);
        if (msgs.length > 0) errs.push(invalid(path.child('apiVersion'), gv.group, msgs.join(',')));
      }
      if (gv.version === '') errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else {
        const msgs = isDNS1035Label(gv.version);
        if (msgs.length > 0) errs.push(invalid(path.child('apiVersion'), gv.version, msgs.join(',')));
      }
    }
  }
  const kind = str(pk.kind);
  if (kind === '') errs.push(required(path.child('kind')));
  else {
    const msgs = isDNS1035Label(kind.toLowerCase());
    if (msgs.length > 0) errs.push(invalid(path.child('kind'), kind, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  return errs;
}

/** The expressions the old object had, by kind: those compile in the environment of stored expressions. */
interface Preexisting {
  matchConditions: Set<string>;
  validations: Set<string>;
  messages: Set<string>;
  auditAnnotations: Set<string>;
}

function preexistingOf(old: KubeObject | undefined): Preexisting {
  const out: Preexisting = { matchConditions: new Set(), validations: new Set(), messages: new Set(), auditAnnotations: new Set() };
  const spec = isObject(old?.spec) ? old.spec : {};
  for (const m of objects(spec.matchConditions)) out.matchConditions.add(str(m.expression));
  for (const v of objects(spec.validations)) {
    out.validations.add(str(v.expression));
    if (str(v.messageExpression) !== '') out.messages.add(str(v.messageExpression));
  }
  for (const a of objects(spec.auditAnnotations)) out.auditAnnotations.add(str(a.valueExpression));
  return out;
}

/** `convertCELErrorToValidationError`: an expression that did not compile. */
function compileError(path: FieldPath, expression: string, r: AdmissionCompileResult): FieldError[] {
  if (r.ok) return [];
  return [r.internal ? internalError(path, r.detail) : invalid(path, expression, r.detail)];
}

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** Whether a text has the line breaks the CEL grammar knows. */
const hasNewlines = (s: string): boolean => /[\n\r]/.test(s);

/**
 * `validateMatchConditions` of a policy or a webhook: at most 64, each a qualified name (unique) and an
 * expression that compiles to a bool (`params` declared for a policy with a param kind; `stored`: the
 * expressions the old object had, which compile in the environment of stored expressions).
 */
export function validateMatchConditions(raw: unknown, path: FieldPath, params: boolean, stored: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const conditions = objects(raw);
  if (conditions.length > 64) errs.push(tooMany(path, conditions.length, 64));
  const stateless = new AdmissionCompiler(false);
  const names = new Set<string>();
  conditions.forEach((m, i) => {
    const p = path.index(i);
    const expression = str(m.expression).trim();
    if (expression === '') errs.push(required(p.child('expression')));
    else errs.push(...compileError(p.child('expression'), expression, stateless.compile(expression, 'bool', { params, authorizer: true, environment: stored.has(expression) ? 'stored' : 'new' })));
    const name = str(m.name);
    if (name === '') errs.push(required(p.child('name')));
    else errs.push(...isQualifiedName(name).map((msg) => invalid(p.child('name'), name, msg)));
    if (name !== '') {
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/**
 * `ValidateValidatingAdmissionPolicy` past the metadata (`old`: the object being updated, whose expressions
 * compile as stored ones, and whose unchanged match conditions are not checked again).
 */
export function validatePolicySpec(o: KubeObject, old?: KubeObject): FieldError[] {
  const spec: JSONObject = isObject(o.spec) ? o.spec : {};
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const pre = preexistingOf(old);
  const oldSpec: JSONObject = isObject(old?.spec) ? old.spec : {};
  const ignoreMatchConditions = old !== undefined && semanticEqual(spec.paramKind, oldSpec.paramKind) && semanticEqual(spec.matchConditions, oldSpec.matchConditions);
  const variables = objects(spec.variables);
  // The compiler of the variables, validations, messages and audit annotations (with `variables` when
  // the policy has some); match conditions have a stateless one.
  let compiler: AdmissionCompiler | undefined;
  const shared = (): AdmissionCompiler => (compiler ??= new AdmissionCompiler(variables.length > 0));
  const env = (set: Set<string>, expression: string): AdmissionDeclarations['environment'] => (set.has(expression) ? 'stored' : 'new');
  const hasParams = present(spec.paramKind);
  const compile = (c: AdmissionCompiler, expression: string, want: AdmissionResultType, decls: AdmissionDeclarations, at: FieldPath, shown = expression): FieldError[] =>
    compileError(at, shown, c.compile(expression, want, decls));

  if (!present(spec.failurePolicy)) errs.push(required(path.child('failurePolicy')));
  else if (!failurePolicies.includes(str(spec.failurePolicy))) errs.push(notSupported(path.child('failurePolicy'), spec.failurePolicy, failurePolicies));
  if (isObject(spec.paramKind)) errs.push(...validateParamKind(spec.paramKind, path.child('paramKind')));
  if (!isObject(spec.matchConstraints)) errs.push(required(path.child('matchConstraints')));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, path.child('matchConstraints')));
    // At least one resource rule, for the types of the expressions.
    if (objects(spec.matchConstraints.resourceRules).length === 0) errs.push(required(path.child('matchConstraints', 'resourceRules')));
  }
  if (!ignoreMatchConditions) errs.push(...validateMatchConditions(spec.matchConditions, path.child('matchConditions'), hasParams, pre.matchConditions));
  variables.forEach((v, i) => {
    const p = path.child('variables').index(i);
    const name = str(v.name);
    if (name.trim() === '') errs.push(required(p.child('name'), 'name is not specified'));
    else if (!celIdentifier.test(name) || celReserved.has(name)) errs.push(invalid(p.child('name'), name, 'must be a valid CEL identifier'));
    const expression = str(v.expression);
    if (expression.trim() === '') errs.push(required(p.child('expression'), 'expression is not specified'));
    else {
      // The apiserver looks a variable up among the old validations' expressions.
      const r = shared().compileVariable(name, expression, { params: hasParams, authorizer: true, environment: env(pre.validations, expression) });
      errs.push(...compileError(p.child('expression'), expression, r));
    }
  });
  const validations = objects(spec.validations);
  const audits = objects(spec.auditAnnotations);
  if (validations.length === 0 && audits.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => {
    const p = path.child('validations').index(i);
    const expression = str(v.expression);
    const message = str(v.message);
    const messageExpression = str(v.messageExpression);
    if (expression.trim() === '') errs.push(required(p.child('expression'), 'expression is not specified'));
    else errs.push(...compile(shared(), expression, 'bool', { params: hasParams, authorizer: true, environment: env(pre.validations, expression) }, p.child('expression')));
    if (messageExpression !== '' && messageExpression.trim() === '') errs.push(invalid(p.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
    else if (messageExpression.trim() !== '') {
      errs.push(...compile(shared(), messageExpression, 'string', { params: hasParams, authorizer: false, environment: env(pre.messages, messageExpression) }, p.child('messageExpression')));
    }
    if (message !== '' && message.trim() === '') errs.push(invalid(p.child('message'), message, 'must be non-empty if specified'));
    else if (hasNewlines(message.trim())) errs.push(invalid(p.child('message'), message, 'must not contain line breaks'));
    if (present(v.reason) && !reasons.includes(str(v.reason))) errs.push(notSupported(p.child('reason'), v.reason, reasons));
  });
  if (audits.length > 0) {
    if (audits.length > maxAuditAnnotations) errs.push(invalid(path.child('auditAnnotations'), spec.auditAnnotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
    const keys = new Set<string>();
    const policyName = o.metadata.name ?? '';
    audits.forEach((a, i) => {
      const p = path.child('auditAnnotations').index(i);
      const key = str(a.key);
      if (policyName !== '') errs.push(...isQualifiedName(`${policyName}/${key}`).map((msg) => invalid(p.child('key'), `${policyName}/${key}`, msg)));
      else errs.push(invalid(p.child('key'), key, 'requires metadata.name be non-empty'));
      const valueExpression = str(a.valueExpression);
      const trimmed = valueExpression.trim();
      if (trimmed === '') errs.push(required(p.child('valueExpression'), 'valueExpression is not specified'));
      else if (Buffer.byteLength(trimmed) > maxAuditAnnotationValueExpressionLength) {
        errs.push(required(p.child('valueExpression'), `must not exceed ${maxAuditAnnotationValueExpressionLength} bytes in length`));
      } else {
        errs.push(...compile(shared(), trimmed, 'stringOrNull', { params: hasParams, authorizer: true, environment: env(pre.auditAnnotations, valueExpression) }, p.child('valueExpression'), valueExpression));
      }
      if (keys.has(key)) errs.push(duplicate(p.child('key'), key));
      keys.add(key);
    });
  }
  return errs;
}

/** `validateParamRef`. */
function validateParamRef(pr: JSONObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(pr.name);
  const hasSelector = present(pr.selector);
  if (name !== '') {
    for (const msg of pathSegmentErrors(name, false)) errs.push(invalid(path.child('name'), name, msg));
    if (hasSelector) errs.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(pr.selector as LabelSelectorObject, path.child('selector')));
    if (name !== '') errs.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector) errs.push(required(path, 'one of name or selector must be specified'));
  const action = str(pr.parameterNotFoundAction);
  if (action === '') errs.push(required(path.child('parameterNotFoundAction')));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(notSupported(path.child('parameterNotFoundAction'), action, ['Deny', 'Allow']));
  return errs;
}

/** `ValidateValidatingAdmissionPolicyBinding` past the metadata. */
export function validateBindingSpec(o: KubeObject): FieldError[] {
  const spec: JSONObject = isObject(o.spec) ? o.spec : {};
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (policyName === '') errs.push(required(path.child('policyName')));
  else for (const msg of isDNS1123Subdomain(policyName)) errs.push(invalid(path.child('policyName'), policyName, msg));
  if (isObject(spec.paramRef)) errs.push(...validateParamRef(spec.paramRef, path.child('paramRef')));
  if (isObject(spec.matchResources)) errs.push(...validateMatchResources(spec.matchResources, path.child('matchResources')));
  const va = strings(spec.validationActions);
  const vp = path.child('validationActions');
  const seen = new Set<string>();
  va.forEach((a, i) => {
    if (!actions.includes(a)) errs.push(notSupported(vp.index(i), a, actions));
    if (seen.has(a)) errs.push(duplicate(vp.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errs.push(invalid(vp, va, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  }
  if (seen.size === 0) errs.push(required(vp, 'at least one validation action is required'));
  return errs;
}

/** `validateValidatingAdmissionPolicyStatus`: the type checking's warnings, and the conditions. */
function validateStatusUpdate(o: KubeObject, _old: KubeObject, meta: FieldError[]): FieldError[] {
  const status: JSONObject = isObject(o.status) ? o.status : {};
  const path = FieldPath.root('status');
  const errs = [...meta];
  if (isObject(status.typeChecking)) {
    objects(status.typeChecking.expressionWarnings).forEach((w, i) => {
      const p = path.child('typeChecking', 'expressionWarnings').index(i);
      if (str(w.warning) === '') errs.push(required(p.child('warning')));
      if (str(w.fieldRef).trim() === '') errs.push(required(p.child('fieldRef')));
    });
  }
  errs.push(...validateMetaConditions(status.conditions, path.child('conditions')));
  return errs;
}

/** `ResetObjectMetaForStatus` and the status strategy: a `/status` write changes the status only. */
function prepareForStatusUpdate(o: KubeObject, old: KubeObject): void {
  o.spec = old.spec;
  resetObjectMetaForStatus(o.metadata, old.metadata);
}

/** `LabelSelector.String()` of the generated protobuf code (the Table's `ParamRef` of a selector). */
function selectorString(s: JSONObject): string {
  const labels = isObject(s.matchLabels) ? s.matchLabels : {};
  const matchLabels = Object.keys(labels).sort().map((k) => `${k}: ${str(labels[k])},`).join('');
  const expressions = objects(s.matchExpressions).map((e) => `LabelSelectorRequirement{Key:${str(e.key)},Operator:${str(e.operator)},Values:[${strings(e.values).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** The Table's `ParamRef` cell of a binding. */
function paramRefCell(o: KubeObject): string {
  const pr = isObject(o.spec) && isObject(o.spec.paramRef) ? o.spec.paramRef : undefined;
  if (pr === undefined) return '<unset>';
  const name = str(pr.name);
  if (name !== '') return str(pr.namespace) !== '' ? `${str(pr.namespace)}/${name}` : `*/${name}`;
  return isObject(pr.selector) ? selectorString(pr.selector) : '<unset>';
}

const policy: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'validatingadmissionpolicies', singular: 'validatingadmissionpolicy', kind: 'ValidatingAdmissionPolicy', namespaced: false, shortNames: [], categories: ['api-extensions'], status: true, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'Validations', type: 'integer', priority: 0 }, cell: (o) => objects(isObject(o.spec) ? o.spec.validations : undefined).length },
    {
      def: { name: 'ParamKind', type: 'string', priority: 0 },
      cell: (o) => {
        const pk = isObject(o.spec) && isObject(o.spec.paramKind) ? o.spec.paramKind : undefined;
        return pk === undefined ? '<unset>' : `${str(pk.apiVersion)}/${str(pk.kind)}`;
      },
    },
  ],
  generation: true,
  allowUnconditionalUpdate: false,
  defaults: defaultPolicy,
  // PrepareForCreate: the status is the server's.
  prepareForCreate: (o) => {
    o.status = {};
  },
  updateValidatesMeta: true,
  validateCreate: (o) => validatePolicySpec(o),
  validateUpdate: (o, old) => validatePolicySpec(o, old),
  prepareForStatusUpdate,
  validateStatusUpdate,
};

const binding: BuiltinSpec = {
  names: { group, version: 'v1', resource: 'validatingadmissionpolicybindings', singular: 'validatingadmissionpolicybinding', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false, shortNames: [], categories: ['api-extensions'], status: false, nameValidation: 'subdomain' },
  columns: [
    { def: { name: 'PolicyName', type: 'string', priority: 0 }, cell: (o) => (isObject(o.spec) ? str(o.spec.policyName) : '') },
    { def: { name: 'ParamRef', type: 'string', priority: 0 }, cell: paramRefCell },
  ],
  generation: true,
  allowUnconditionalUpdate: false,
  defaults: defaultBinding,
  updateValidatesMeta: true,
  validate: validateBindingSpec,
};

/** The two kinds, served in admissionregistration.k8s.io/v1 (cluster-scoped): the policy, then its binding. */
export function validatingAdmissionPolicyTypes(): [BuiltinResourceType, BuiltinResourceType] {
  return [new BuiltinResourceType(policy), new BuiltinResourceType(binding)];
}
