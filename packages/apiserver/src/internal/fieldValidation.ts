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

/** The duplicate map keys of a YAML text, as `line N: key "k" already set in map`. */
export function yamlDuplicateFields(text: string): string[] {
  return yamlDuplicateKeys(yamlModule, text);
}

/**
 * {@link yamlDuplicateFields} with the `yaml` package passed in. Self-contained (no imports, no helpers),
 * because deepYAML.ts also runs it on a worker thread from its source text.
 */
export function yamlDuplicateKeys(yaml: typeof yamlModule, text: string): string[] {
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { uniqueKeys: false, lineCounter });
  const out: string[] = [];
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
    const key = yaml.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (f.seen.has(key)) {
      const offset = (pair.key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
      out.push(`line ${lineCounter.linePos(offset).line}: key ${JSON.stringify(key)} already set in map`);
    }
    f.seen.add(key);
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
    const message = `strict decoding error: ${strictProblems(messages)}`;
    throw ctx.strictError?.(message) ?? KubeError.badRequest(`${strictPrefix}${message}`);
  }
  for (const m of messages) if (!ctx.warnings.includes(m)) ctx.warnings.push(m);
}
