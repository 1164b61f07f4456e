/**
 * Server-side field validation (`fieldValidation=Strict|Warn|Ignore`): duplicate fields found in the
 * request body as sent (JSON or YAML), and unknown fields found by pruning, reported as the apiserver
 * reports them — `duplicate field "spec.x"` (JSON), `line N: key "x" already set in map` (YAML; one `yaml: unmarshal errors:` error under Strict), then
 * `unknown field "spec.x"` — as one `400 strict decoding error: …` or as `Warning` headers.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/test/integration/apiserver/field_validation_test.go
 */
import { KubeError } from '@kubekit/core';
import * as yamlModule from 'yaml';
import type { WriteContext } from '../resourceType.js';

/**
 * The duplicate object keys of a JSON text, in document order, as `duplicate field "path"` with the
 * key's full path (`spec.color`, `spec.items[0].a`), as sigs.k8s.io/json's strict decoder names them.
 * Assumes the text is valid JSON (it was parsed before).
 */
export function jsonDuplicateFields(text: string): string[] {
  interface Frame { keys: Set<string> | null; path: string; key: string; index: number }
  const out: string[] = [];
  const stack: Frame[] = [];
  const childPath = (f: Frame | undefined): string =>
    f === undefined ? '' : f.keys !== null ? (f.path === '' ? f.key : `${f.path}.${f.key}`) : `${f.path}[${f.index}]`;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (expectKey) {
        const raw = text.slice(i, j + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const frame = stack[stack.length - 1];
        frame.key = key;
        if (frame.keys!.has(key)) out.push(`duplicate field ${JSON.stringify(childPath(frame))}`);
        else frame.keys!.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ keys: c === 0x7b ? new Set() : null, path: childPath(stack[stack.length - 1]), key: '', index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const frame = stack[stack.length - 1];
      if (frame.keys !== null) expectKey = true;
      else frame.index++;
    }
  }
  return out;
}

/**
 * The duplicate map keys of a YAML text as go-yaml's strict decoder reports them, `line N: key K already set in
 * map`: K as Go's `%#v` prints the decoded key (`"a"`, `true`, `1`, `1.5`), N the line of the value that
 * would have been set (go-yaml's `setMapIndex`). A merge key (`<<: *anchor`, an inline map, or a list of
 * them, walked backwards) sets the merged map's keys where it stands, so a key set both by a merge and
 * explicitly, in either order, is reported (kube-apiserver 1.34.4).
 */
export function yamlDuplicateFields(text: string): string[] {
  return yamlDuplicateKeys(yamlModule, text);
}

/**
 * {@link yamlDuplicateFields} with the `yaml` package passed in. Self-contained (no imports, no helpers),
 * because deepYAML.ts also runs it on a worker thread from its source text.
 */
export function yamlDuplicateKeys(yaml: typeof yamlModule, text: string): string[] {
  const lineCounter = new yaml.LineCounter();
  // YAML 1.1, as go-yaml v2 reads keys (`y` is true); integers as bigints (Go's int, printed in full).
  const doc = yaml.parseDocument(text, { uniqueKeys: false, lineCounter, version: '1.1', intAsBigInt: true });
  const out: string[] = [];
  /** A decoded key as Go's %#v prints it. */
  const goKey = (v: unknown): string => {
    if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    if (v === null || v === undefined) return '<nil>';
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
      if (v === 0) return Object.is(v, -0) ? '-0' : '0';
      // strconv's shortest 'g': an exponent below -4, or of 6 or more, is written e±dd.
      const [mantissa, exponent] = v.toExponential().split('e');
      const e = Number(exponent);
      if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
      return String(v);
    }
    return JSON.stringify(String(v));
  };
  const lineOf = (node: unknown, fallback: unknown): number => {
    const range = (node as { range?: [number, number, number] } | null)?.range ?? (fallback as { range?: [number, number, number] } | null)?.range;
    return lineCounter.linePos(range?.[0] ?? 0).line;
  };
  const isMerge = (key: unknown): boolean => yaml.isScalar(key) && typeof key.value === 'symbol';
  // Merged maps are walked for their keys only; aliases make that exponential in the worst case, so it is bounded.
  let mergeBudget = 100_000;
  /** Records `key` (set by a value at `line`) in `seen`, reporting it when it is there already. */
  const set = (seen: Set<string>, key: unknown, line: number): void => {
    // Keys are Go values of their own types: the int 1 and the float 1.0 differ; -0.0 and 0.0 do not.
    const id = `${typeof key}:${typeof key === 'number' && key === 0 ? 0 : String(key)}`;
    if (seen.has(id)) out.push(`line ${line}: key ${goKey(key)} already set in map`);
    seen.add(id);
  };
  /** Sets the keys a merge key's value brings, in go-yaml's order (a list backwards). */
  const merge = (seen: Set<string>, value: unknown, depth: number): void => {
    if (depth > 64 || mergeBudget <= 0) return;
    const node = yaml.isAlias(value) ? value.resolve(doc) : value;
    if (yaml.isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) merge(seen, node.items[i], depth + 1);
      return;
    }
    if (!yaml.isMap(node)) return;
    for (const item of node.items) {
      if (--mergeBudget <= 0) return;
      const pair = item as { key: unknown; value: unknown };
      if (isMerge(pair.key)) merge(seen, pair.value, depth + 1);
      else set(seen, yaml.isScalar(pair.key) ? pair.key.value : pair.key, lineOf(pair.value, pair.key));
    }
  };
  // Depth-first in document order (a duplicate key is reported before what its value holds), with an
  // explicit stack of the maps and sequences being walked: deep documents do not touch Node's stack.
  const frames: { items: unknown[]; next: number; seen: Set<string> | undefined }[] = [];
  const enter = (node: unknown): void => {
    if (yaml.isMap(node)) frames.push({ items: node.items, next: 0, seen: new Set() });
    else if (yaml.isSeq(node)) frames.push({ items: node.items, next: 0, seen: undefined });
  };
  enter(doc.contents);
  while (frames.length > 0) {
    const f = frames[frames.length - 1];
    if (f.next >= f.items.length) {
      frames.pop();
      continue;
    }
    const item = f.items[f.next++];
    if (f.seen === undefined) {
      enter(item);
      continue;
    }
    const pair = item as { key: unknown; value: unknown };
    if (isMerge(pair.key)) {
      merge(f.seen, pair.value, 0);
      // An inline map merged is walked where it stands as well (an alias's map is walked at its anchor).
      if (!yaml.isAlias(pair.value)) enter(pair.value);
      continue;
    }
    set(f.seen, yaml.isScalar(pair.key) ? pair.key.value : pair.key, lineOf(pair.value, pair.key));
    enter(pair.value);
  }
  return out;
}

/** A duplicate-key message of {@link yamlDuplicateFields}. */
const yamlDuplicate = /^line \d+: key /;

/**
 * Field problems as one strict decoding error words them: go-yaml reports all duplicate keys as one error
 * (a yaml.TypeError of several lines), first; warnings list them one by one (field_validation_test.go,
 * "post-strict-validation-yaml").
 */
export function strictProblems(messages: readonly string[]): string {
  const yaml = messages.filter((m) => yamlDuplicate.test(m));
  const rest = messages.filter((m) => !yamlDuplicate.test(m));
  return (yaml.length === 0 ? rest : [`yaml: unmarshal errors:\n  ${yaml.join('\n  ')}`, ...rest]).join(', ');
}

/**
 * How many problems sigs.k8s.io/json's strict decoder keeps (`saveStrictError`): a built-in kind decoded from
 * JSON or YAML reports at most these, as one error or as warnings. Unknown fields a custom resource's schema
 * prunes, and those the unstructured converter finds (a strategic merge patch's), are all reported.
 */
export const strictDecodingErrorLimit = 100;

/**
 * Reports the field problems of a write per `fieldValidation`: nothing for `Ignore`, warnings for
 * `Warn`, and for `Strict` the write's {@link WriteContext.strictError}, else a `400 BadRequest` with
 * every problem (after `strictPrefix`: the built-in kinds' decoder says `Deployment in version "v1"
 * cannot be handled as a Deployment: `), each once, at most `limit` of them.
 *
 * @throws KubeError (`BadRequest`) `strict decoding error: …` under `Strict`.
 */
export function reportFieldProblems(ctx: WriteContext, unknownFields: readonly string[], strictPrefix = '', limit = Infinity): void {
  if (ctx.fieldValidation === 'Ignore') return;
  const messages = [...new Set([...ctx.duplicateFields, ...unknownFields.map((p) => `unknown field ${JSON.stringify(p)}`)])].slice(0, limit);
  if (messages.length === 0) return;
  if (ctx.fieldValidation === 'Strict') {
    const message = `strict decoding error: ${strictProblems(messages)}`;
    throw ctx.strictError?.(message) ?? KubeError.badRequest(`${strictPrefix}${message}`);
  }
  for (const m of messages) if (!ctx.warnings.includes(m)) ctx.warnings.push(m);
}
