/**
 * Hostile access reviews (hostileCase.ts plays them): SubjectAccessReviews, LocalSubjectAccessReviews and
 * SelfSubjectAccessReviews with attributes, selectors, users and groups of every shape and type, and
 * TokenReviews and SelfSubjectRulesReviews without what they need. Both servers answer from the same
 * default RBAC policy (no case creates bindings: the apiserver's authorizer reads them through informers,
 * so a review right after a binding could answer from before it).
 *
 * Not drawn, as the two servers differ there by design or by chance: metadata that makes the review's
 * "must be empty" error print its managed fields (their time is the second each server read it); the
 * non-resource paths two default bindings allow (`/healthz`, `/version`…: the apiserver names whichever
 * binding its cache yields first); a SelfSubjectRulesReview's rules (their order is the caches'); a
 * TokenReview with a token and a SelfSubjectReview (the servers' identities differ).
 */
import type { HostileRequest } from './hostileCase.js';
import type { Rng } from './randomSchema.js';

const A = '/apis/authorization.k8s.io/v1';

function selector(r: Rng, kind: 'field' | 'label'): string {
  const ops = kind === 'field' ? ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Bogus', ''] : ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', ''];
  const requirement = (): string => {
    const key = r.pick(['a', '', 'a b', 'metadata.name', 'x/y', 'k'.repeat(70), '__proto__']);
    const values = r.pick(['', ',"values":[]', ',"values":["x"]', ',"values":["x","y"]', ',"values":["a b"]', ',"values":null', ',"values":"x"']);
    return `{"key":${JSON.stringify(key)},"operator":${JSON.stringify(r.pick(ops))}${values}}`;
  };
  return r.pick([
    '{}', 'null', '"a=b"', '{"rawSelector":"a=b"}', '{"rawSelector":"a in (b"}', '{"rawSelector":"a=b,=c"}', '{"rawSelector":"metadata.name==x"}', '{"rawSelector":5}',
    `{"requirements":[${requirement()}]}`, `{"requirements":[${requirement()},${requirement()}]}`, `{"rawSelector":"a","requirements":[${requirement()}]}`, '{"requirements":{}}', '{"requirements":[null]}',
  ]);
}

function resourceAttributes(r: Rng): string {
  const members: string[] = [];
  if (r.chance(0.8)) members.push(`"namespace":${r.pick(['"{ns}"', '""', '"other"', '5'])}`);
  if (r.chance(0.9)) members.push(`"verb":${r.pick(['"get"', '"list"', '"watch"', '"create"', '"*"', '""', '5', 'null'])}`);
  if (r.chance(0.4)) members.push(`"group":${r.pick(['""', '"apps"', '"*"', '"rbac.authorization.k8s.io"'])}`);
  if (r.chance(0.3)) members.push(`"version":${r.pick(['"v1"', '""', '"*"'])}`);
  if (r.chance(0.9)) members.push(`"resource":${r.pick(['"pods"', '"secrets"', '"deployments"', '"*"', '"nodes"', '"selfsubjectaccessreviews"', '[]'])}`);
  if (r.chance(0.3)) members.push(`"subresource":${r.pick(['"log"', '"scale"', '"status"', '""'])}`);
  if (r.chance(0.3)) members.push(`"name":${r.pick(['"x"', '""', '"a/b"'])}`);
  if (r.chance(0.25)) members.push(`"fieldSelector":${selector(r, 'field')}`);
  if (r.chance(0.25)) members.push(`"labelSelector":${selector(r, 'label')}`);
  if (r.chance(0.05)) members.push('"bogus":1');
  return `{${members.join(',')}}`;
}

function specOf(r: Rng, self: boolean): string {
  const members: string[] = [];
  const which = r.int(0, 9);
  if (which <= 6) members.push(`"resourceAttributes":${resourceAttributes(r)}`);
  else if (which === 7) members.push(`"nonResourceAttributes":{"path":${r.pick(['"/api"', '"/apis/x"', '"/metrics"', '"/openapi/v2"', '""', '5'])},"verb":${r.pick(['"get"', '"post"', '""'])}}`);
  else if (which === 8) members.push(`"resourceAttributes":${resourceAttributes(r)}`, '"nonResourceAttributes":{"path":"/api","verb":"get"}');
  if (!self) {
    if (r.chance(0.8)) members.push(`"user":${r.pick(['"alice"', '"system:kube-scheduler"', '"system:kube-controller-manager"', '"system:serviceaccount:{ns}:op"', '""', '5'])}`);
    if (r.chance(0.5)) members.push(`"groups":${r.pick(['[]', '["system:authenticated"]', '["system:masters"]', '["devs"]', '"devs"', '[5]', 'null'])}`);
    if (r.chance(0.1)) members.push(`"uid":${r.pick(['"u"', '5'])}`);
    if (r.chance(0.1)) members.push(`"extra":${r.pick(['{"k":["v"]}', '{"k":"v"}', '{"__proto__":["v"]}', '[]'])}`);
  }
  return `{${members.join(',')}}`;
}

/** One hostile review. */
export function reviewRequest(r: Rng): HostileRequest {
  const g = r.int(0, 9);
  if (g === 9) {
    const [label, path, body] = r.pick<[string, string, string]>([
      ['token review without a token', '/apis/authentication.k8s.io/v1/tokenreviews', '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{}}'],
      ['token review of the wrong type', '/apis/authentication.k8s.io/v1/tokenreviews', '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":5}}'],
      ['rules review without a namespace', `${A}/selfsubjectrulesreviews`, '{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{}}'],
      ['rules review of the wrong type', `${A}/selfsubjectrulesreviews`, '{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":["x"]}}'],
      ['a review listed', `${A}/subjectaccessreviews`, ''],
      ['a review read', `${A}/subjectaccessreviews/x`, ''],
    ]);
    return { kind: 'review', label, method: body === '' ? 'GET' : 'POST', path, contentType: 'application/json', ...(body === '' ? {} : { body }) };
  }
  const [kind, path] = r.pick<[string, string]>([['SubjectAccessReview', `${A}/subjectaccessreviews`], ['LocalSubjectAccessReview', `${A}/namespaces/{ns}/localsubjectaccessreviews`], ['SelfSubjectAccessReview', `${A}/selfsubjectaccessreviews`]]);
  const spec = specOf(r, kind === 'SelfSubjectAccessReview');
  const [shape, body] = r.pick<[string, string]>([
    ['', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","spec":${spec}}`],
    ['', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","spec":${spec}}`],
    ['', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","spec":${spec}}`],
    [' without kind', `{"spec":${spec}}`],
    [' of another kind', `{"apiVersion":"authorization.k8s.io/v1","kind":"${r.pick(['SubjectAccessReview', 'SelfSubjectAccessReview', 'LocalSubjectAccessReview', 'TokenReview', 'Pod'])}","spec":${spec}}`],
    [' with a status', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","spec":${spec},"status":${r.pick(['{"allowed":true}', '{"allowed":"yes"}', '{"reason":"x","denied":true}'])}}`],
    [' with metadata', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","metadata":${r.pick(['{}', 'null', '"x"', '{"uid":"u"}', '{"creationTimestamp":"2020-01-01T00:00:00Z"}', '{"namespace":"{ns}"}'])},"spec":${spec}}`],
    [' with __proto__', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}","__proto__":{"polluted":"yes"},"spec":${spec}}`],
    [' without spec', `{"apiVersion":"authorization.k8s.io/v1","kind":"${kind}"}`],
  ]);
  const q = r.pick(['', '', '', '?dryRun=All', '?fieldValidation=Strict', '?dryRun=Bogus']);
  return { kind: 'review', label: `${kind}${shape}${q}`, method: 'POST', path: path + q, contentType: 'application/json', body };
}
