// The YAML kube-apiserver answers for `Accept: application/yaml`: the object's JSON converted by
// sigs.k8s.io/yaml@v1.6.0's JSONToYAML, which reads the JSON with go-yaml v2 into interface{} and
// marshals that with go-yaml v2 (go.yaml.in/yaml/v2@v2.4.2). This is a port of the part of go-yaml's
// emitter (emitterc.go) such a value reaches: block mappings with sorted keys, block sequences, `{}`
// and `[]` for empty ones, and scalars in the style encode.go's stringv asks for and
// yaml_emitter_select_scalar_style settles on, folded at the best width of 80 columns.
import { GoYAMLMap, GoYAMLPlain, parseGoYAMLJSON, type GoYAMLNode } from './goYAMLParse.js';
import { goYAMLKeyLess, goYAMLPlainString } from './goYAMLResolve.js';
import { analyze, countLowSurrogates, escapeOf, isBreak, isLowSurrogate, isPrintable, utf8Length, type Analysis } from './goYAMLScalar.js';

export { GoYAMLError } from './goYAMLParse.js';

/**
 * Converts a JSON document to exactly the bytes sigs.k8s.io/yaml's JSONToYAML gives for it (ending in a
 * newline). Where JSONToYAML fails (control characters, escapes or keys go-yaml refuses, nesting past
 * 10,000 levels), throws a GoYAMLError whose message is JSONToYAML's error text.
 *
 * The bytes matter where JSON writers differ: go-yaml reads a raw LS, PS or NEL in a string as a line
 * break and folds it (with the spaces around it). encoding/json escapes LS and PS (`\u2028`, `\u2029`)
 * and JSON.stringify does not, so to answer as kube-apiserver does, pass JSON with those two escaped
 * (inside JSON they occur only in strings: `text.replace(/\u2028/g, '\\u2028')`, and the same for
 * `\u2029`). A raw NEL is folded by both.
 *
 * @example
 * ```ts
 * jsonToGoYAML('{"kind":"Pod","data":{"b":"1","a":true}}'); // 'data:\n  a: true\n  b: "1"\nkind: Pod\n'
 * ```
 */
export function jsonToGoYAML(jsonText: string): string {
  const emitter = new Emitter();
  emitter.document(parseGoYAMLJSON(jsonText));
  return emitter.text();
}

const bestIndent = 2;
const bestWidth = 80;

const enum Style { Plain, Single, Double, Literal }

interface KeyInfo {
  style: Style;
  analysis: Readonly<Analysis>;
  simple: boolean;
  runes: string | number[];
}

type Frame = { list: GoYAMLNode[]; i: number } | { keys: string[]; values: GoYAMLNode[]; i: number };

/** The emitter's state as emitterc.go keeps it, for the events a JSON value produces. */
class Emitter {
  // Text goes to `pieces`, joined into flat `chunks` every few thousand pieces: a string grown by a
  // million appends is a rope of a million nodes that the garbage collector walks again and again.
  private readonly pieces: string[] = [];
  private readonly chunks: string[] = [];
  // The objects of a list repeat their keys: each key's style and analysis, worked out once.
  private readonly keys = new Map<string, KeyInfo>();
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  text(): string {
    this.chunks.push(this.pieces.join(''));
    this.pieces.length = 0;
    return this.chunks.join('');
  }

  document(root: GoYAMLNode): void {
    const frames: Frame[] = [];
    this.node(root, false, frames);
    while (frames.length > 0) {
      const f = frames[frames.length - 1]!;
      if ('list' in f) {
        if (f.i === f.list.length) {
          this.indent = this.indents.pop()!;
          frames.pop();
          continue;
        }
        this.writeIndent();
        this.writeIndicator('-', true, false, true);
        this.node(f.list[f.i++]!, false, frames);
      } else {
        if (f.i === f.keys.length) {
          this.indent = this.indents.pop()!;
          frames.pop();
          continue;
        }
        const key = f.keys[f.i]!;
        const value = f.values[f.i++]!;
        this.writeIndent();
        const k = this.keyInfo(key);
        if (k.simple) {
          this.scalar(key, k.style, k.analysis, true);
          this.writeIndicator(':', false, false, false);
        } else {
          this.writeIndicator('?', true, false, true);
          this.scalar(key, k.style, k.analysis, false);
          this.writeIndent();
          this.writeIndicator(':', true, false, true);
        }
        this.node(value, true, frames);
      }
    }
    // DOCUMENT-END, implicit: a line break, no "...".
    this.writeIndent();
  }

  /** yaml_emitter_emit_node for a value; a non-empty collection becomes a frame for the caller's loop. */
  private node(n: GoYAMLNode, mappingContext: boolean, frames: Frame[]): void {
    if (typeof n === 'string') {
      this.scalar(n, stringStyle(n), analyze(n), false);
    } else if (n instanceof GoYAMLPlain) {
      this.scalar(n.text, Style.Plain, analyze(n.text), false);
    } else if (Array.isArray(n)) {
      if (n.length === 0) {
        this.emptyFlow('[', ']');
        return;
      }
      this.increaseIndent(false, mappingContext && !this.indention);
      frames.push({ list: n, i: 0 });
    } else {
      if (n.keys.length === 0) {
        this.emptyFlow('{', '}');
        return;
      }
      this.increaseIndent(false, false);
      const sorted = this.sortedEntries(n);
      frames.push({ keys: sorted.keys, values: sorted.values, i: 0 });
    }
  }

  private sortedEntries(m: GoYAMLMap): { keys: string[]; values: GoYAMLNode[] } {
    if (m.keys.length === 1) return m;
    const runes = m.keys.map((k) => this.keyInfo(k).runes);
    const order = m.keys.map((_, i) => i);
    order.sort((x, y) => (goYAMLKeyLess(runes[x]!, runes[y]!) ? -1 : goYAMLKeyLess(runes[y]!, runes[x]!) ? 1 : 0));
    return { keys: order.map((i) => m.keys[i]!), values: order.map((i) => m.values[i]!) };
  }

  private keyInfo(key: string): KeyInfo {
    let k = this.keys.get(key);
    if (k === undefined) {
      const analysis = analyze(key);
      // check_simple_key: one line, at most 128 bytes.
      k = {
        style: stringStyle(key),
        analysis,
        simple: !analysis.multiline && utf8Length(key) <= 128,
        // keyList.Less compares runes: a key with characters beyond the BMP is compared as code points.
        runes: /[\ud800-\udfff]/.test(key) ? Array.from(key, (ch) => ch.codePointAt(0)!) : key,
      };
      if (this.keys.size < 10000) this.keys.set(key, k);
    }
    return k;
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? bestIndent : 0;
    else if (!indentless) this.indent += bestIndent;
  }

  /** yaml_emitter_emit_scalar: the style select_scalar_style settles on, written one indent deeper. */
  private scalar(value: string, requested: Style, a: Readonly<Analysis>, simpleKey: boolean): void {
    let style = requested;
    if (simpleKey && a.multiline) style = Style.Double;
    if (style === Style.Plain) {
      if (!a.blockPlainAllowed || (value.length === 0 && simpleKey)) style = Style.Single;
    }
    if (style === Style.Single && !a.singleQuotedAllowed) style = Style.Double;
    if (style === Style.Literal && (!a.blockAllowed || simpleKey)) style = Style.Double;
    this.increaseIndent(true, false);
    switch (style) {
      case Style.Plain:
        this.writePlain(value, !simpleKey);
        break;
      case Style.Single:
        this.writeSingleQuoted(value, !simpleKey);
        break;
      case Style.Double:
        this.writeDoubleQuoted(value, !simpleKey);
        break;
      case Style.Literal:
        this.writeLiteral(value);
        break;
    }
    this.indent = this.indents.pop()!;
  }

  private put(s: string): void {
    this.pieces.push(s);
    this.column += s.length;
  }

  private putBreak(): void {
    this.pieces.push('\n');
    this.column = 0;
  }

  private writeIndent(): void {
    if (this.pieces.length > 4096) {
      this.chunks.push(this.pieces.join(''));
      this.pieces.length = 0;
    }
    const indent = this.indent < 0 ? 0 : this.indent;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    if (this.column < indent) this.put(spaces(indent - this.column));
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(indicator);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private writePlain(value: string, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    // A plain scalar holds no breaks and no characters beyond the BMP (neither is allowed plain), so
    // its length is its width; it can only fold at a space past column 80.
    if (!allowBreaks || this.column + value.length <= bestWidth || value.indexOf(' ') < 0) {
      this.put(value);
    } else {
      let spaces = false;
      let from = 0;
      for (let i = 0; i < value.length; i++) {
        if (value.charCodeAt(i) !== 0x20) {
          spaces = false;
          continue;
        }
        if (!spaces && this.column + (i - from) > bestWidth && value.charCodeAt(i + 1) !== 0x20) {
          this.put(value.slice(from, i));
          this.indention = false;
          this.writeIndent();
          from = i + 1;
        }
        spaces = true;
      }
      this.put(value.slice(from));
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > bestWidth && i > 0 && i < value.length - 1 && value.charCodeAt(i + 1) !== 0x20) {
          this.writeIndent();
        } else {
          this.put(' ');
        }
        spaces = true;
      } else if (c === 0x2028 || c === 0x2029) {
        // A single-quoted scalar's only breaks: LS and PS, written as they are.
        this.pieces.push(value[i]);
        this.column = 0;
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (c === 0x27) this.put("'");
        this.put(value[i]!);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(value: string, allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // is_bom looks at the start of the value, so a leading BOM escapes every character.
    const bom = value.charCodeAt(0) === 0xfeff;
    let spaces = false;
    for (let i = 0; i < value.length; i++) {
      let c = value.charCodeAt(i);
      let ch = value[i]!;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
        c = value.codePointAt(i)!;
        ch = value.slice(i, i + 2);
        i++;
      }
      if (bom || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put('\\' + escapeOf(c));
        spaces = false;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > bestWidth && i > 0 && i < value.length - 1) {
          this.writeIndent();
          if (value.charCodeAt(i + 1) === 0x20) this.put('\\');
        } else {
          this.put(' ');
        }
        spaces = true;
      } else {
        this.pieces.push(ch);
        this.column++;
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(value: string): void {
    this.writeIndicator('|', true, false, false);
    // yaml_emitter_write_block_scalar_hints: an indentation hint for a leading space or break, '-' to
    // strip a missing final break, '+' to keep more than one.
    const first = value.charCodeAt(0);
    if (first === 0x20 || isBreak(first)) this.writeIndicator(String(bestIndent), false, false, false);
    const last = value.codePointAt(value.length - 1 - (isLowSurrogate(value.charCodeAt(value.length - 1)) ? 1 : 0))!;
    if (!isBreak(last)) {
      this.writeIndicator('-', false, false, false);
    } else if (value.length === 1 || isBreak(value.charCodeAt(value.length - 2))) {
      this.writeIndicator('+', false, false, false);
    }
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (isBreak(c)) {
        if (c === 0x0a) this.putBreak();
        else {
          this.pieces.push(value[i]);
          this.column = 0;
        }
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        let end = i + 1;
        while (end < value.length && !isBreak(value.charCodeAt(end))) end++;
        // A literal line is written as it is; characters beyond the BMP count one column each.
        const line = value.slice(i, end);
        this.pieces.push(line);
        this.column += line.length - countLowSurrogates(line);
        i = end - 1;
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** The style encode.go's stringv asks for: literal with a newline, plain if it reads back as a string, else double-quoted. */
function stringStyle(s: string): Style {
  if (s.indexOf('\n') >= 0) return Style.Literal;
  return goYAMLPlainString(s) ? Style.Plain : Style.Double;
}

const indentation: string[] = [];

/** n spaces, from a table. */
function spaces(n: number): string {
  return (indentation[n] ??= ' '.repeat(n));
}

