/**
 * certificates.k8s.io/v1 CertificateSigningRequests, as kube-apiserver 1.34.4 serves them: the strategies
 * of pkg/registry/certificates/certificates (a create takes the requesting user's name, uid, groups and
 * extra into the spec and starts without status; an update of the object changes neither spec nor
 * status; `/status` keeps the Approved and Denied conditions; `/approval` changes only the conditions;
 * both give conditions their missing times), `ValidateCertificateSigningRequestCreate` and the update
 * validations of pkg/apis/certificates/validation (the request's PEM, DER and signature; usages; signer
 * name; expiration; conditions; the issued certificate's PEM, set once), the Table of
 * printCertificateSigningRequest, and the three admission plugins every cluster runs on them:
 * CertificateApproval (`approve` on the `signers` resource to write `/approval`), CertificateSigning
 * (`sign` to change `/status`), CertificateSubjectRestriction (no `system:masters` organization for the
 * `kubernetes.io/kube-apiserver-client` signer).
 *
 * There is no signer: nothing approves, signs or garbage-collects requests (kube-controller-manager does
 * that on a cluster).
 *
 * @see https://kubernetes.io/docs/reference/access-authn-authz/certificate-signing-requests/
 */
import { FieldPath, KubeError, duplicate, forbidden, goQuote, humanDuration, invalid, notSupported, required, tooLong, type FieldError, type KubeObject } from '@kubekit/core';
import { forbiddenError } from './internal/http.js';
import { BuiltinResourceType, type BuiltinSpec } from './builtinKinds.js';
import { certificateError, parseCertificateRequest } from './internal/certificateRequest.js';
import { cloneJSON, isObject, objects, setOwn, str, type JSONObject } from './internal/own.js';
import { semanticEqual } from './internal/deepEqual.js';
import { isDNS1123Label, isDNS1123Subdomain } from './internal/semantics.js';
import { validateStrategyObjectMetaUpdate } from './objectMeta.js';
import type { AuthorizationRequest, UserInfo } from './rbacAuthorizer.js';
import type { WriteContext } from './resourceType.js';
import { ageCell, builtinAgeColumn } from './table.js';

/** Whether a user may do `request` (the apiserver's authorizer, which the approval and signing plugins ask). */
export type Authorize = (user: UserInfo, request: AuthorizationRequest) => boolean;

const group = 'certificates.k8s.io';
const legacyUnknownSigner = 'kubernetes.io/legacy-unknown';
const apiserverClientSigner = 'kubernetes.io/kube-apiserver-client';
/** `allValidUsages`, sorted as `sets.String.List` writes them. */
const validUsages = ['any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping'];
/** The condition types whose status may only be `True`. */
const trueConditionTypes = ['Approved', 'Denied', 'Failed'];
const allStatusValues = ['False', 'True', 'Unknown'];

const specOf = (o: KubeObject): JSONObject => (isObject(o.spec) ? o.spec : {});
const statusOf = (o: KubeObject): JSONObject => (isObject(o.status) ? o.status : {});
const conditionsOf = (o: KubeObject): JSONObject[] => objects(statusOf(o).conditions);
/** A `[]byte` member as Go holds it (a base64 string on the wire; the decoder has checked it). */
const bytesOf = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : '', 'base64');

/** What the validation tolerates because the old object already has it (`getValidationOptions`). */
interface Options {
  approvalConditions: boolean;
  certificate: boolean;
  bothApprovedAndDenied: boolean;
  legacySignerName: boolean;
  duplicateConditionTypes: boolean;
  emptyConditionType: boolean;
  arbitraryCertificate: boolean;
  unknownUsages: boolean;
  duplicateUsages: boolean;
}

function hasDuplicates(values: readonly string[]): boolean {
  return new Set(values).size !== values.length;
}

function optionsFor(o: KubeObject, old: KubeObject | undefined): Options {
  const types = old === undefined ? [] : conditionsOf(old).map((c) => str(c.type));
  const usages = old === undefined ? [] : (Array.isArray(specOf(old).usages) ? (specOf(old).usages as unknown[]).map(str) : []);
  const oldCertificate = old === undefined ? undefined : bytesOf(statusOf(old).certificate);
  return {
    approvalConditions: false,
    certificate: false,
    bothApprovedAndDenied: types.includes('Approved') && types.includes('Denied'),
    legacySignerName: old !== undefined && specOf(old).signerName === legacyUnknownSigner,
    duplicateConditionTypes: hasDuplicates(types),
    emptyConditionType: types.includes(''),
    arbitraryCertificate: oldCertificate !== undefined && (oldCertificate.equals(bytesOf(statusOf(o).certificate)) || certificateError(oldCertificate) !== undefined),
    unknownUsages: usages.some((u) => !validUsages.includes(u)),
    duplicateUsages: hasDuplicates(usages),
  };
}

/** `ValidateSignerName` (core validation's names.go). */
function signerNameErrors(path: FieldPath, name: string): FieldError[] {
  if (name === '') return [required(path)];
  const segments = name.split('/');
  if (segments.length !== 2) return [invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments;
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(tooLong(path, '', 253));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length === 0) continue;
    errs.push(...msgs.map((m) => invalid(path, domain, `validating label ${goQuote(label)}: ${m}`)));
    break;
  }
  if (domainLabels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length === 0) continue;
    errs.push(...msgs.map((m) => invalid(path, rest, `validating label ${goQuote(label)}: ${m}`)));
    break;
  }
  if (name.length > 253 + 253 + 63 + 1 + 1) errs.push(tooLong(path, '', 571));
  return errs;
}

/** `validateConditions`. */
function conditionErrors(o: KubeObject, opts: Options): FieldError[] {
  const path = FieldPath.root('status', 'conditions');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(o).forEach((c, i) => {
    const type = str(c.type);
    const status = str(c.status);
    if (!opts.emptyConditionType && type === '') errs.push(required(path.index(i).child('type')));
    const allowed = trueConditionTypes.includes(type) ? ['True'] : allStatusValues;
    if (status === '') errs.push(required(path.index(i).child('status')));
    else if (!allowed.includes(status)) errs.push(notSupported(path.index(i).child('status'), status, allowed));
    if (!opts.bothApprovedAndDenied) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.duplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(path.index(i).child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

/** `validateCertificateSigningRequest` past its metadata. */
function requestErrors(o: KubeObject, opts: Options): FieldError[] {
  const spec = specOf(o);
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const request = spec.request === undefined || spec.request === null ? undefined : bytesOf(spec.request);
  const parsed = parseCertificateRequest(request ?? Buffer.alloc(0));
  // The bad value is the []byte, which encoding/json writes as base64 (null when absent).
  if ('error' in parsed) errs.push(invalid(path.child('request'), request === undefined ? null : request.toString('base64'), parsed.error));
  const usages = Array.isArray(spec.usages) ? spec.usages.map(str) : [];
  if (usages.length === 0) errs.push(required(path.child('usages')));
  if (!opts.unknownUsages) usages.forEach((u, i) => { if (!validUsages.includes(u)) errs.push(notSupported(path.child('usages').index(i), u, validUsages)); });
  if (!opts.duplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(duplicate(path.child('usages').index(i), u));
      seen.add(u);
    });
  }
  const signerName = str(spec.signerName);
  if (!opts.legacySignerName && signerName === legacyUnknownSigner) errs.push(invalid(path.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...signerNameErrors(path.child('signerName'), signerName));
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) errs.push(invalid(path.child('expirationSeconds'), spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...conditionErrors(o, opts));
  if (!opts.arbitraryCertificate) {
    const why = certificateError(bytesOf(statusOf(o).certificate));
    if (why !== undefined) errs.push(invalid(FieldPath.root('status', 'certificate'), '<certificate data>', why));
  }
  return errs;
}

/** `validateCertificateSigningRequestUpdate` past the metadata: the request again, then what may not change. */
function updateErrors(o: KubeObject, old: KubeObject, opts: Options): FieldError[] {
  const errs = requestErrors(o, opts);
  const count = (x: KubeObject, type: string): JSONObject[] => conditionsOf(x).filter((c) => str(c.type) === type);
  const conditions = FieldPath.root('status', 'conditions');
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (count(o, type).length < count(old, type).length) errs.push(forbidden(conditions, `updates may not remove a condition of type ${goQuote(type)}`));
  }
  if (!opts.approvalConditions) {
    for (const type of ['Approved', 'Denied']) {
      const before = count(old, type);
      const after = count(o, type);
      if (after.length > before.length) errs.push(forbidden(conditions, `updates may not add a condition of type ${goQuote(type)}`));
      // A change of one (same count) cannot reach here: the strategies keep the old conditions of these types.
      else if (after.length === before.length && !semanticEqual(before, after)) errs.push(forbidden(conditions, `updates may not modify a condition of type ${goQuote(type)}`));
    }
  }
  const certificate = bytesOf(statusOf(o).certificate);
  const oldCertificate = bytesOf(statusOf(old).certificate);
  if (!certificate.equals(oldCertificate)) {
    if (!opts.certificate) errs.push(forbidden(FieldPath.root('status', 'certificate'), 'updates may not set certificate content'));
    else if (oldCertificate.length > 0) errs.push(forbidden(FieldPath.root('status', 'certificate'), 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** `csrStrategy.PrepareForCreate`: the spec's user is the requesting user's; no status. */
function prepareForCreate(o: KubeObject, ctx: WriteContext | undefined): void {
  const spec = isObject(o.spec) ? o.spec : (o.spec = {});
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  const user = ctx?.user;
  if (user !== undefined) {
    if (user.username !== '') spec.username = user.username;
    if ((user.uid ?? '') !== '') spec.uid = user.uid;
    if (user.groups.length > 0) spec.groups = [...user.groups];
    const extra = Object.entries(user.extra ?? {});
    if (extra.length > 0) {
      const out: JSONObject = Object.create(null) as JSONObject;
      for (const [k, v] of extra.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) setOwn(out, k, [...v]);
      spec.extra = out;
    }
  }
  o.status = {};
}

/** The write's time (RFC 3339, in seconds). */
const nowOf = (ctx: WriteContext | undefined): string => ctx?.now ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `populateConditionTimestamps`: a condition's missing update time is now, its missing transition time the old one of its type and status (else now). */
function populateConditionTimestamps(o: KubeObject, old: KubeObject, now: string): void {
  const before = conditionsOf(old);
  for (const c of conditionsOf(o)) {
    if (str(c.lastUpdateTime) === '') c.lastUpdateTime = now;
    if (str(c.lastTransitionTime) === '') {
      const same = before.find((b) => b.type === c.type && b.status === c.status && str(b.lastTransitionTime) !== '');
      c.lastTransitionTime = same === undefined ? now : same.lastTransitionTime;
    }
  }
}

/** `csrStatusStrategy.PrepareForUpdate` past the spec: the old Approved and Denied conditions kept where their count is the same. */
function prepareStatus(o: KubeObject, old: KubeObject, ctx: WriteContext | undefined): void {
  const conditions = conditionsOf(o);
  for (const type of ['Approved', 'Denied']) {
    const oldOnes = conditionsOf(old).filter((c) => str(c.type) === type);
    const indices = conditions.flatMap((c, i) => (str(c.type) === type ? [i] : []));
    if (indices.length !== oldOnes.length) continue;
    const list = statusOf(o).conditions as unknown[];
    indices.forEach((at, k) => { list[at] = cloneJSON(oldOnes[k]); });
  }
  populateConditionTimestamps(o, old, nowOf(ctx));
}

/** The Forbidden answer of an admission plugin (`admission.NewForbidden`). */
function refusal(o: KubeObject, why: string): KubeError {
  return forbiddenError(group, 'certificatesigningrequests', str(o.metadata.name), why);
}

/** `certauthorization.IsAuthorizedForSignerName`: the verb on the signer by name, else on its domain's wildcard. */
function authorizedForSigner(authorize: Authorize, user: UserInfo, verb: string, signerName: string): boolean {
  const ask = (name: string): boolean => authorize(user, { resourceRequest: true, verb, namespace: '', apiGroup: group, resource: 'signers', subresource: '', name });
  return ask(signerName) || ask(`${signerName.split('/')[0]}/*`);
}

/** The CertificateApproval, CertificateSigning and CertificateSubjectRestriction plugins. */
function admit(authorize: Authorize | undefined, o: KubeObject, old: KubeObject | undefined, ctx: WriteContext): void {
  const signerName = str(specOf(old ?? o).signerName);
  if (old === undefined) {
    if (ctx.subresource !== '' || signerName !== apiserverClientSigner) return;
    const parsed = parseCertificateRequest(bytesOf(specOf(o).request));
    if ('error' in parsed) throw refusal(o, `failed to parse CSR: ${parsed.error}`);
    if (parsed.organizations.includes('system:masters')) throw refusal(o, `use of ${apiserverClientSigner} signer with system:masters group is not allowed`);
    return;
  }
  if (authorize === undefined || ctx.user === undefined) return;
  if (ctx.subresource === 'approval' && !authorizedForSigner(authorize, ctx.user, 'approve', signerName)) {
    throw refusal(old, `user not permitted to approve requests with signerName ${goQuote(signerName)}`);
  }
  if (ctx.subresource === 'status') {
    const unchanged = bytesOf(statusOf(o).certificate).equals(bytesOf(statusOf(old).certificate)) && semanticEqual(statusOf(o).conditions ?? [], statusOf(old).conditions ?? []);
    if (!unchanged && !authorizedForSigner(authorize, ctx.user, 'sign', signerName)) throw refusal(old, `user not permitted to sign requests with signerName ${goQuote(signerName)}`);
  }
}

/** `extractCSRStatus`: Denied, Approved or Pending, then Failed and Issued. */
function conditionCell(o: KubeObject): string {
  const types = new Set(conditionsOf(o).map((c) => str(c.type)));
  let cell = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) cell += ',Failed';
  if (bytesOf(statusOf(o).certificate).length > 0) cell += ',Issued';
  return cell;
}

function certificateSigningRequest(authorize: Authorize | undefined): BuiltinSpec {
  return {
    names: { group, version: 'v1', resource: 'certificatesigningrequests', singular: 'certificatesigningrequest', kind: 'CertificateSigningRequest', namespaced: false, shortNames: ['csr'], status: true, nameValidation: 'pathSegment', objectSubresources: ['approval'] },
    // printCertificateSigningRequest puts Age right after Name.
    age: false,
    columns: [
      { def: builtinAgeColumn, cell: ageCell },
      { def: { name: 'SignerName', type: 'string', priority: 0 }, cell: (o) => str(specOf(o).signerName) || '<none>' },
      { def: { name: 'Requestor', type: 'string', priority: 0 }, cell: (o) => str(specOf(o).username) },
      { def: { name: 'RequestedDuration', type: 'string', priority: 0 }, cell: (o) => (typeof specOf(o).expirationSeconds === 'number' ? humanDuration((specOf(o).expirationSeconds as number) * 1000) : '<none>') },
      { def: { name: 'Condition', type: 'string', priority: 0 }, cell: conditionCell },
    ],
    prepareForCreate: (o, _warnings, ctx) => prepareForCreate(o, ctx),
    // Certificate requests change after creation only through their subresources.
    prepareForUpdate: (o, old) => {
      if (old.spec === undefined) delete o.spec;
      else o.spec = cloneJSON(old.spec);
    },
    dropStatusFields: prepareStatus,
    validate: (o) => requestErrors(o, optionsFor(o, undefined)),
    // ValidateCertificateSigningRequestUpdate puts its ValidateObjectMetaUpdate last.
    validateWholeUpdate: (o, old, generic) => [...generic, ...updateErrors(o, old, optionsFor(o, old)), ...validateStrategyObjectMetaUpdate(o.metadata, old.metadata)],
    validateStatusUpdate: (o, old, meta) => [...updateErrors(o, old, { ...optionsFor(o, old), certificate: true }), ...meta],
    subresourceStrategies: {
      approval: {
        // csrApprovalStrategy: the new conditions (their times given), everything else of spec and status from the old object.
        prepareForUpdate: (o, old, ctx) => {
          populateConditionTimestamps(o, old, nowOf(ctx));
          const conditions = statusOf(o).conditions;
          if (old.spec === undefined) delete o.spec;
          else o.spec = cloneJSON(old.spec);
          const status: JSONObject = cloneJSON(statusOf(old));
          if (conditions === undefined) delete status.conditions;
          else status.conditions = conditions;
          o.status = status;
        },
        writesStatus: true,
        validateUpdate: (o, old, meta) => [...meta, ...updateErrors(o, old, { ...optionsFor(o, old), approvalConditions: true })],
      },
    },
    admitAll: (o, old, ctx) => admit(authorize, o, old, ctx),
  };
}

/** The certificates.k8s.io/v1 kinds the embedded server serves (`authorize`: the authorizer the approval and signing plugins ask; without one they allow everything). */
export function certificateResourceTypes(authorize?: Authorize): BuiltinResourceType[] {
  return [new BuiltinResourceType(certificateSigningRequest(authorize))];
}
