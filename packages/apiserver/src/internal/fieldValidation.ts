/**
 * Server-side field validation (`fieldValidation=Strict|Warn|Ignore`): duplicate fields found in the
 * request body as sent (JSON or YAML), and unknown fields found by pruning, reported as the apiserver
 * reports them — `duplicate field "spec.x"` (JSON), `line N: key "x" already set in map` (YAML; one `yaml: unmarshal errors:` error under Strict), then
 * `unknown field "spec.x"` — as one `400 strict decoding error: …` or as `Warning` headers.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/test/integration/apiserver/field_validation_test.go
 */
import { KubeError } from '@kubekit/core';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
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

/** The duplicate map keys of a YAML text, as `line N: key "k" already set in map`. */
export function yamlDuplicateFields(text: string): string[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter });
  const out: string[] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (seen.has(key)) {
          const offset = (pair.key as Node | null)?.range?.[0] ?? 0;
          out.push(`line ${lineCounter.linePos(offset).line}: key ${JSON.stringify(key)} already set in map`);
        }
        seen.add(key);
        visit(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return out;
}

/** A duplicate-key message of {@link yamlDuplicateFields}. */
const yamlDuplicate = /^line \d+: key /;

/**
 * Reports the field problems of a write per `fieldValidation`: nothing for `Ignore`, warnings for
 * `Warn`, and for `Strict` the write's {@link WriteContext.strictError}, else a `400 BadRequest` with
 * every problem (after `strictPrefix`: the built-in kinds' decoder says `Deployment in version "v1"
 * cannot be handled as a Deployment: `).
 *
 * @throws KubeError (`BadRequest`) `strict decoding error: …` under `Strict`.
 */
export function reportFieldProblems(ctx: WriteContext, unknownFields: readonly string[], strictPrefix = ''): void {
  if (ctx.fieldValidation === 'Ignore') return;
  const messages = [...ctx.duplicateFields, ...unknownFields.map((p) => `unknown field ${JSON.stringify(p)}`)];
  if (messages.length === 0) return;
  if (ctx.fieldValidation === 'Strict') {
    // go-yaml reports all duplicate keys as one error (a yaml.TypeError of several lines); warnings
    // list them one by one (field_validation_test.go, "post-strict-validation-yaml").
    const yaml = ctx.duplicateFields.filter((m) => yamlDuplicate.test(m));
    const rest = messages.filter((m) => !yaml.includes(m));
    const all = yaml.length === 0 ? rest : [`yaml: unmarshal errors:\n  ${yaml.join('\n  ')}`, ...rest];
    const message = `strict decoding error: ${all.join(', ')}`;
    throw ctx.strictError?.(message) ?? KubeError.badRequest(`${strictPrefix}${message}`);
  }
  for (const m of messages) if (!ctx.warnings.includes(m)) ctx.warnings.push(m);
}
