/**
 * Server-side field validation (`fieldValidation=Strict|Warn|Ignore`): duplicate fields found in the
 * request body as sent (JSON or YAML), and unknown fields found by pruning, reported as the apiserver
 * reports them — `duplicate field "x"` (JSON), `line N: key "x" already set in map` (YAML), then
 * `unknown field "spec.x"` — as one `400 strict decoding error: …` or as `Warning` headers.
 *
 * @see https://github.com/kubernetes/kubernetes/blob/master/test/integration/apiserver/field_validation_test.go
 */
import { KubeError } from '@kubekit/core';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { WriteContext } from '../resourceType.js';

/**
 * The duplicate object keys of a JSON text, in document order, as `duplicate field "key"`. Assumes
 * the text is valid JSON (it was parsed before).
 */
export function jsonDuplicateFields(text: string): string[] {
  const out: string[] = [];
  const stack: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (expectKey) {
        const raw = text.slice(i, j + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const keys = stack[stack.length - 1]!;
        if (keys.has(key)) out.push(`duplicate field ${JSON.stringify(key)}`);
        else keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1] instanceof Set;
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

/**
 * Reports the field problems of a write per `fieldValidation`: nothing for `Ignore`, warnings for
 * `Warn`, and for `Strict` a `400 BadRequest` with every problem (after `strictPrefix`: the built-in
 * kinds' decoder says `Deployment in version "v1" cannot be handled as a Deployment: `).
 *
 * @throws KubeError (`BadRequest`) `strict decoding error: …` under `Strict`.
 */
export function reportFieldProblems(ctx: WriteContext, unknownFields: readonly string[], strictPrefix = ''): void {
  if (ctx.fieldValidation === 'Ignore') return;
  const messages = [...ctx.duplicateFields, ...unknownFields.map((p) => `unknown field ${JSON.stringify(p)}`)];
  if (messages.length === 0) return;
  if (ctx.fieldValidation === 'Strict') throw KubeError.badRequest(`${strictPrefix}strict decoding error: ${messages.join(', ')}`);
  for (const m of messages) if (!ctx.warnings.includes(m)) ctx.warnings.push(m);
}
