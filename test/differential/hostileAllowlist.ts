/**
 * Known classes of differences in the hostile differential suite (hostile.test.ts), each with the reason
 * it is accepted. As in randomAllowlist.ts, an entry matches a class of answers: a difference outside
 * every class fails the suite.
 */
import { canonical, type Step } from './normalize.js';
import type { HostileCase } from './hostileCase.js';

/** One differing step of a hostile case, as the predicates see it. */
export interface HostileDifference {
  /** The request's kind (`json patch`, `apply`, …), or `state` / `canary` for the reads after it. */
  op: string;
  label: string;
  kubekit: Step | undefined;
  reference: Step | undefined;
  case: HostileCase;
}

export interface AllowedHostileDifference {
  name: string;
  reason: string;
  matches(d: HostileDifference): boolean;
}

type Body = { code?: number; message?: string; causes?: { field?: string; message?: string }[] } | undefined;
const bodyOf = (st: Step | undefined): Body => (st?.body !== null && typeof st?.body === 'object' ? st.body as Body : undefined);

/** The internal errors of kube-apiserver 1.34.4 for a client's mistake that the predicate below names. */
const referenceInternalErrors = [
  // registry/store.go Update: ObjectResourceVersion's parse error returned unwrapped (test/hostile/reference.test.ts).
  /^strconv\.ParseUint: parsing /,
  // handlers/delete.go: a DeleteOptions body that does not decode is returned unwrapped.
  /^couldn't get version\/kind; json parse error: /,
  // The field manager's apply: structured-merge-diff's typed conversion errors are not made 4xx.
  /^failed to create typed patch object /,
  // handlers/delete.go: a DeleteOptions body member of the wrong JSON type (a grace period of 1.5), unwrapped too.
  /^json: cannot unmarshal \w+(?: \S+)? into Go struct field DeleteOptions\./,
  // handlers/delete.go: a DELETE body of another kind than DeleteOptions fails the meta codec unwrapped.
  /^no kind ".*" is registered for version ".*" in scheme /,
  // strategicpatch: a `$setElementOrder` naming a member the Go struct lacks, or standing in a map (strategicMergeConvert.test.ts).
  /^unable to find api field in struct \w+ for the json field "/,
  /^merging an object in json but data type is not struct, instead is: /,
  // strategicpatch: a list element without its merge key, and a `$patch: merge` directive in a list
  // (hostileDeployments.ts; packages/apiserver/test/strategicMergePatch.test.ts refuses both with a 400).
  /^map: map\[.*\] does not contain declared merge key: /,
  /^merging lists cannot yet be specified in the patch$/,
  // A patched custom resource without an apiVersion: the unstructured codec's error is not made 4xx (kubekit
  // answers the same words, a 400; test/hostile/writeOrder.test.ts).
  /^Internal error occurred: Object 'apiVersion' is missing in 'object has no apiVersion field'$/,
  // The watch cache's parse of a watch's resourceVersion (futureResourceVersion.test.ts has the list's).
  /^resourceVersion: Invalid value: ".*": strconv\.ParseUint: /,
];

/**
 * A patch's 422 that quotes the patched object (`patch: Invalid value: "<json>": <error>`): evanphx/json-patch
 * re-marshals only the members a patch touched (sorted), the rest keeps the stored object's field order, and
 * the quoted managedFields are the field manager's; kubekit quotes the object with sorted members. The
 * quoted objects are compared as JSON without managedFields, the error text exactly.
 */
function samePatchQuote(d: HostileDifference): boolean {
  const a = bodyOf(d.kubekit);
  const b = bodyOf(d.reference);
  if (a?.code !== 422 || b?.code !== 422 || a.causes?.length !== 1 || b.causes?.length !== 1) return false;
  if (a.causes[0].field !== 'patch' || b.causes[0].field !== 'patch') return false;
  const split = (m: string | undefined): [unknown, string] | undefined => {
    const x = /^Invalid value: "((?:[^"\\]|\\.)*)": (.*)$/s.exec(m ?? '');
    if (x === null) return undefined;
    try {
      // Bytes that are not UTF-8: Go keeps them, and %q prints each as \xNN; kubekit read the body as UTF-8,
      // each such byte a U+FFFD, which it prints as it is.
      const quoted = x[1].replace(/\\x[0-9a-f]{2}/g, '\\ufffd');
      // A node port in the quoted text is masked as a bare `<node port>` (maskAllocations), which is no JSON value.
      const text = (JSON.parse(`"${quoted}"`) as string).replace(/<node port>/g, '"<node port>"');
      const obj = JSON.parse(text) as { metadata?: Record<string, unknown> };
      if (obj.metadata !== undefined) delete obj.metadata.managedFields;
      return [obj, x[2]];
    } catch {
      return undefined;
    }
  };
  // Built-in objects' merge and JSON patch quotes replay identical (seeds 20261216 and 20261218): only a custom
  // resource's quote, or one of a body that is not UTF-8, may differ in order.
  const customResource = d.case.requests.some((q) => q.path.startsWith('{cr}'));
  const notUTF8 = /\\x[0-9a-f]{2}/.test(b.causes[0].message ?? '');
  if (!customResource && !notUTF8) return false;
  const x = split(a.causes[0].message);
  const y = split(b.causes[0].message);
  return x !== undefined && y !== undefined && x[1] === y[1] && sameJSON(x[0], y[0]);
}

/**
 * Whether two decoded JSON values are equal, object keys in any order, compared without recursion: a
 * quoted object can nest 10,000 levels (a deep patch), past what a recursive walk (or JSON.stringify)
 * reaches on the stack.
 */
function sameJSON(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop()!;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') {
      if (x !== y) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x).sort();
    const ky = Object.keys(y).sort();
    if (kx.length !== ky.length || kx.some((k, n) => k !== ky[n])) return false;
    for (const k of kx) pending.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
  }
  return true;
}

/** A step's warnings, sorted, as text. */
const sortedWarnings = (st: Step | undefined): string => JSON.stringify(Array.isArray(st?.warnings) ? [...(st.warnings as string[])].sort() : []);

/** Whether a JSON patch has an operation whose `path` or `from` lies under a member an earlier operation set to null. */
function reachesUnderNull(body: string | undefined): boolean {
  let ops: unknown;
  try {
    ops = JSON.parse(body ?? '');
  } catch {
    return false;
  }
  if (!Array.isArray(ops)) return false;
  const nulled: string[] = [];
  for (const op of ops as { op?: unknown; path?: unknown; from?: unknown; value?: unknown }[]) {
    if (op === null || typeof op !== 'object') continue;
    const under = (p: unknown): boolean => typeof p === 'string' && nulled.some((n) => p.startsWith(`${n}/`));
    if (under(op.path) || under(op.from)) return true;
    if ((op.op === 'add' || op.op === 'replace') && op.value === null && typeof op.path === 'string') nulled.push(op.path);
  }
  return false;
}

export const allowedHostileDifferences: AllowedHostileDifference[] = [
  {
    name: 'reference 500 for a client\'s mistake',
    reason: 'kube-apiserver 1.34.4 answers some bad requests with an internal error (a resourceVersion that is not a number on update or watch, a DeleteOptions body that does not decode or has another kind, a value of the wrong type in an apply that structured-merge-diff cannot convert); kubekit answers them 4xx with the same cause, never 5xx, and changes nothing.',
    matches: (d) => (d.reference?.status as number) >= 500 && (d.kubekit?.status as number) >= 400 && (d.kubekit?.status as number) < 500
      && referenceInternalErrors.some((re) => re.test(bodyOf(d.reference)?.message ?? '')),
  },
  {
    name: 'YAML parser wording',
    reason: 'go-yaml and the `yaml` package word syntax errors differently ("yaml: line 6: found character that cannot start any token" against "Tabs are not allowed as indentation at line 6, column 1"); the status and the decoder prefix agree. Matching it needs go-yaml\'s scanner.',
    matches: (d) => d.reference?.status === 400 && d.kubekit?.status === 400
      && /^((error decoding YAML: )?error converting YAML to JSON: |the object provided is unrecognized \(must be of type \w+\): )yaml: /.test(bodyOf(d.reference)?.message ?? '')
      && (bodyOf(d.kubekit)?.message ?? '').startsWith((bodyOf(d.reference)?.message ?? '').replace(/yaml: .*$/s, ''))
      // A create's summary of the body (after the words) agrees too.
      && (bodyOf(d.kubekit)?.message ?? '').endsWith(/ \([0-9a-f]+( \.\.\.)?\)$/.exec(bodyOf(d.reference)?.message ?? '')?.[0] ?? ''),
  },
  {
    name: 'patched object quoted with another member order',
    reason: 'a patch\'s 422 on `patch` quotes the patched object as evanphx/json-patch left it: members the patch touched re-marshalled in sorted order, the others in the stored object\'s order, with the field manager\'s managedFields; kubekit quotes a custom resource with sorted members, and a body that is not UTF-8 with U+FFFD where Go prints the bytes (\\xff); only those two match (a built-in object\'s merge and JSON patch quotes are json-patch\'s since seeds 20261216 and 20261218). Same object, same error.',
    matches: samePatchQuote,
  },
  {
    name: 'reference times out',
    reason: 'kube-apiserver 1.34.4 gives up after its request timeout (504 "Timeout: request did not complete within requested timeout") on some deeply nested patches of built-in kinds while the machine is loaded; kubekit answers them. What kubekit answers is checked where the reference finishes.',
    matches: (d) => d.reference?.status === 504 && /^Timeout: request did not complete within requested timeout/.test(bodyOf(d.reference)?.message ?? ''),
  },
  {
    name: 'unknown fields of a JSON patch warned in another order',
    reason: 'the apiserver reads a JSON patch\'s result as evanphx/json-patch writes it: objects the patch walked through re-marshalled with sorted members, values it inserted or copied in the order of their text (a stored object\'s in its Go struct\'s order); kubekit follows both for built-in kinds since seed 20261216 (test/hostile/jsonPatchUnknownFields.test.ts); this entry covers any case left that differs in this order only. The same warnings, the same answer otherwise.',
    matches: (d) => (d.op === 'json patch' || /(^|: )json patch/.test(d.label)) && d.kubekit?.status === d.reference?.status
      && canonical(d.kubekit?.body) === canonical(d.reference?.body)
      && sortedWarnings(d.kubekit) === sortedWarnings(d.reference),
  },
  {
    name: 'list at a resourceVersion older than the reference\'s compaction',
    reason: 'the hostile continue token and `resourceVersion=1&resourceVersionMatch=Exact` name resourceVersion 1, older than the watch cache of the resource listed (a custom resource\'s starts with its CRD, a built-in one\'s at startup, both after resourceVersion 1; seen for widgets and namespaces), so the reference reads that list from etcd, which its apiserver compacts every 5 minutes to the revision of the tick before (storage/etcd3/compact.go): past 10 minutes of a campaign both are the 410 Expired; kubekit keeps its history by count (10,000 changes, not time) and still serves them. Within the first 10 minutes both servers answer alike.',
    matches: (d) => d.reference?.status === 410 && d.kubekit?.status === 200 && (
      (/^query: (?:.*&)?continue=eyJ/.test(d.label) && (bodyOf(d.reference)?.message ?? '').startsWith('The provided continue parameter is too old to display a consistent list result.'))
      || (/^query: (?:.*&)?resourceVersion=1&resourceVersionMatch=Exact/.test(d.label) && bodyOf(d.reference)?.message === 'The resourceVersion for the provided list is too old.')),
  },
  {
    name: 'reference handler panics',
    reason: 'kube-apiserver 1.34.4\'s handler panics and the connection is dropped (net/http recovers it) on a POST of a custom resource with Content-Type application/vnd.kubernetes.protobuf, which custom resources do not support, and on a JSON patch whose `test` operation has no `value` for a missing member, or whose `replace` of the whole document ("") has none (evanphx/json-patch v4 dereferences the absent value), or whose operation reaches under a member an earlier operation set to null (it dereferences the null container); kubekit answers 415 listing the media types, tests the missing member against null, leaves the document as it is (as for a replace of "" with null), and answers a path under null as any other missing path (the apiserver\'s generic 422 for a failed JSON patch).',
    // kubekit's answer: a 4xx, or (a `test` of a missing member against null, which passes) a 2xx; never a 5xx.
    matches: (d) => d.label === 'case failed' && d.reference?.error === 'socket hang up' && (d.kubekit?.status as number) >= 200 && (d.kubekit?.status as number) < 500
      && d.case.requests.some((q) => (q.method === 'POST' && q.path.startsWith('{cr}') && q.contentType === 'application/vnd.kubernetes.protobuf')
        || (q.contentType === 'application/json-patch+json' && [...(q.body ?? '').matchAll(/\{[^{}]*"op":"(?:test|replace)"[^{}]*\}/g)]
          .some((m) => !m[0].includes('"value"') && (m[0].includes('"op":"test"') || m[0].includes('"path":""'))))
        || (q.contentType === 'application/json-patch+json' && reachesUnderNull(q.body))),
  },
];
