// Nesting limits of request bodies. The apiserver decodes JSON with Go's encoding/json scanner, which
// refuses a value nested deeper than 10,000 levels (`maxNestingDepth` in encoding/json/scanner.go:
// "invalid character '{' exceeded max depth"), and YAML with go-yaml, which stops at 10,000 flow
// levels or indents (`max_flow_level`/`max_indents` in go.yaml.in/yaml/v2 scannerc.go: "exceeded max
// depth of 10000"). The embedded server accepts what they accept: its walks over request data are
// iterative (or bounded by the schema), so nesting costs memory, never Node's stack; the YAML parser
// (the `yaml` package) recurses, so deep YAML is parsed on a worker thread (deepYAML.ts).
import { KubeError, invalid, stringifyJSON } from '@kubekit/core';

/** The deepest nesting the apiserver's JSON and YAML decoders accept. */
export const apiserverMaxDepth = 10_000;

/** Where a text first nests deeper than a limit: the character that opened the level, and its line. */
export interface DepthExcess {
  /** The `{` or `[` that opened the first level beyond the limit. */
  char: string;
  /** Its 0-based line. */
  line: number;
}

/**
 * Scans JSON (or flow-style YAML) text for the first `{`/`[` that opens a level deeper than `limit`,
 * skipping quoted strings. Iterative and linear in the text.
 */
export function scanNesting(text: string, limit: number, yaml = false): DepthExcess | undefined {
  return nestingOf(text, limit, yaml).excess;
}

/**
 * {@link scanNesting}, also telling the deepest level the text reached (up to `limit + 1`), so that
 * one scan answers a second, lower limit too.
 */
export function nestingOf(text: string, limit: number, yaml = false): { excess?: DepthExcess; deepest: number } {
  let depth = 0;
  let deepest = 0;
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) line++;
    else if (c === 0x22) { // "
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
        else if (d === 0x0a) line++;
      }
    } else if (yaml && c === 0x27) { // ' (YAML single quotes, '' escapes a quote)
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x27 && text.charCodeAt(i + 1) === 0x27) i++;
        else if (d === 0x27) break;
        else if (d === 0x0a) line++;
      }
    } else if (yaml && c === 0x23) { // # comment to the end of the line
      while (i + 1 < text.length && text.charCodeAt(i + 1) !== 0x0a) i++;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (depth > limit) return { excess: { char: text[i], line }, deepest };
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return { deepest };
}

/** How deeply a decoded value nests (a scalar 0, `{}` 1), counted iteratively up to `limit + 1`. */
export function valueDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return max;
}

/**
 * Throws the apiserver's 422 when a patched object nests deeper than its decoder reads back
 * (`applyPatchToCurrentObject` in handlers/patch.go: the patched JSON does not decode into the object):
 * a JSON patch can place a value deeper than its body nests (an `add` path, `copy`, `move`).
 */
export function checkPatchedDepth(patched: unknown): void {
  if (valueDepth(withoutManagedFields(patched), apiserverMaxDepth) <= apiserverMaxDepth) return;
  const text = stringifyJSON(patched);
  const excess = scanNesting(text, apiserverMaxDepth) ?? { char: '{', line: 0 };
  throw KubeError.invalid({ group: '', kind: '' }, '', [
    invalid('patch', text, `couldn't get version/kind; json parse error: ${goJSONDepthMessage(excess)}`),
  ]);
}

/**
 * The object without `metadata.managedFields` (a shallow copy), or the value itself. Managed fields nest
 * a few levels deeper than the fields they list and the server rewrites them on every write, so an object
 * at the limit stays patchable (the real server drops managed fields that would nest past it).
 */
function withoutManagedFields(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const meta = (v as Record<string, unknown>).metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta) || !Object.hasOwn(meta, 'managedFields')) return v;
  return { ...v, metadata: { ...meta, managedFields: undefined } };
}

/**
 * The first 30 bytes of a body as the apiserver quotes them in decode errors (`summarizeData` in
 * handlers/rest.go): as text when it starts with `{`, else in hex.
 */
export function summarizeData(body: Buffer, maxLength = 30): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, maxLength);
  const more = body.length > maxLength ? ' ...' : '';
  return body[0] === 0x7b ? head.toString('utf8') + more : head.toString('hex') + more;
}

/** Go's encoding/json message for a value nested past its limit. */
export function goJSONDepthMessage(excess: DepthExcess): string {
  return `invalid character '${excess.char}' exceeded max depth`;
}

/** go-yaml's message for a document nested past its limit (`yaml: line N: …` past the first line). */
export function goYAMLDepthMessage(excess: DepthExcess): string {
  return `yaml: ${excess.line > 0 ? `line ${excess.line + 1}: ` : ''}exceeded max depth of ${apiserverMaxDepth}`;
}
