// JSON text read as sigs.k8s.io/yaml's JSONToYAML reads it: with go-yaml v2's parser
// (go.yaml.in/yaml/v2@v2.4.2 readerc.go, scannerc.go) into interface{}. JSON is YAML flow syntax, so
// for the JSON encoding/json writes the result is the JSON value, typed as go-yaml types it (an int64,
// else a uint64, else a float64; the text itself when a float64 overflows). The YAML reading shows
// through in a few places, kept here: a raw NEL, LS or PS in a string is a line break that YAML folds,
// and what go-yaml refuses (control characters, the `\/` escape, escaped surrogates, a key more than
// 1024 characters before its ':', nesting beyond 10,000) is a GoYAMLError with go-yaml's words.
import { KubeError } from '@kubekit/core';
import { goYAMLNumberText } from './goYAMLResolve.js';

/** A JSON object as go-yaml's map[interface{}]interface{}: a later duplicate key replaces the value. */
export class GoYAMLMap {
  readonly keys: string[] = [];
  readonly values: GoYAMLNode[] = [];
  // Duplicate keys are rare and objects small: a linear search until there are many keys.
  private index: Map<string, number> | undefined;

  set(key: string, value: GoYAMLNode): void {
    let at: number;
    if (this.index !== undefined) {
      at = this.index.get(key) ?? -1;
    } else {
      at = this.keys.indexOf(key);
      if (this.keys.length >= 16) this.index = new Map(this.keys.map((k, i) => [k, i]));
    }
    if (at < 0) {
      this.index?.set(key, this.keys.length);
      this.keys.push(key);
      this.values.push(value);
    } else {
      this.values[at] = value;
    }
  }
}

/** A number, bool or null, as the plain text go-yaml writes for it. */
export class GoYAMLPlain {
  constructor(readonly text: string) {}
}

/** A value decoded from the JSON text: a string, a plain scalar, a list, or a map. */
export type GoYAMLNode = string | GoYAMLPlain | GoYAMLNode[] | GoYAMLMap;

/** go-yaml refused the JSON text; `message` is the error JSONToYAML returns (`yaml: …`). */
export class GoYAMLError extends KubeError {
  override name = 'GoYAMLError';
  constructor(message: string) {
    // What ErrorToAPIStatus makes of an error without a Status: 500 with no reason.
    super('Unknown', message, { code: 500 });
  }
}

const maxFlowLevel = 10000;
const plainTrue = new GoYAMLPlain('true');
const plainFalse = new GoYAMLPlain('false');
const plainNull = new GoYAMLPlain('null');

// A run of characters a JSON string holds as they are; anything else needs a look.
const ordinaryRun = /[^"\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]*/y;
const numberToken = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

type Container = { list: GoYAMLNode[] } | { map: GoYAMLMap; key: string };

/** Reads a JSON text as go-yaml does; throws GoYAMLError where go-yaml fails. */
export function parseGoYAMLJSON(text: string): GoYAMLNode {
  let pos = 0;
  const stack: Container[] = [];
  let result: GoYAMLNode | undefined;

  const invalid = (what: string): never => {
    throw new KubeError('InternalError', `jsonToGoYAML: invalid JSON at offset ${pos}: ${what}`);
  };
  const skipSpace = (): void => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };
  const store = (v: GoYAMLNode): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) result = v;
    else if ('list' in top) top.list.push(v);
    else top.map.set(top.key, v);
  };
  // After a value: ',' then the next member, or the container's end (which may close several).
  const afterValue = (): boolean => {
    for (;;) {
      skipSpace();
      const top = stack[stack.length - 1];
      if (top === undefined) return false;
      const c = text[pos];
      if (c === ',') {
        pos++;
        if ('map' in top) readKey(top);
        return true;
      }
      if (c === ('list' in top ? ']' : '}')) {
        pos++;
        stack.pop();
        continue;
      }
      return invalid(`expected ',' or '${'list' in top ? ']' : '}'}'`);
    }
  };
  const readKey = (top: { map: GoYAMLMap; key: string }): void => {
    skipSpace();
    if (text[pos] !== '"') invalid('expected a string key');
    const start = pos;
    top.key = readString();
    skipSpace();
    if (text[pos] !== ':') invalid("expected ':'");
    // go-yaml's simple key: on one line, its ':' at most 1024 characters after its start.
    if (pos - start > 1024 || /[\n\r\u0085\u2028\u2029]/.test(text.slice(start, pos))) {
      if (codePoints(text, start, pos) > 1024 || /[\n\r\u0085\u2028\u2029]/.test(text.slice(start, pos))) {
        const line = lineOf(text, pos);
        throw new GoYAMLError(`yaml: ${line > 0 ? `line ${line}: ` : ''}did not find expected ',' or '}'`);
      }
    }
    pos++;
  };
  const readString = (): string => {
    const open = pos;
    pos++;
    let out = '';
    for (;;) {
      ordinaryRun.lastIndex = pos;
      ordinaryRun.test(text);
      if (ordinaryRun.lastIndex > pos) {
        out += text.slice(pos, ordinaryRun.lastIndex);
        pos = ordinaryRun.lastIndex;
      }
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        return out;
      }
      if (c === 0x5c) {
        out += readEscape();
      } else if (Number.isNaN(c) || c < 0x20) {
        invalid('unterminated string or raw control character');
      } else if (c === 0x85 || c === 0x2028 || c === 0x2029) {
        pos = open;
        return readFoldedString();
      } else if (c >= 0xd800 && c <= 0xdfff) {
        out += surrogate();
      } else {
        throw new GoYAMLError('yaml: control characters are not allowed');
      }
    }
  };
  const surrogate = (): string => {
    const c = text.charCodeAt(pos);
    const d = text.charCodeAt(pos + 1);
    if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
      pos += 2;
      return text.slice(pos - 2, pos);
    }
    // A lone surrogate cannot be sent as UTF-8; Node's encoder writes U+FFFD for it.
    pos++;
    return '\ufffd';
  };
  const readEscape = (): string => {
    const e = text[pos + 1];
    const simple = e === undefined ? undefined : jsonEscapes[e];
    if (simple !== undefined) {
      pos += 2;
      return simple;
    }
    if (e === '/') scannerError(pos, 'found unknown escape character');
    if (e !== 'u') return invalid('bad escape');
    const hex = text.slice(pos + 2, pos + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) invalid('bad \\u escape');
    const v = parseInt(hex, 16);
    if (v >= 0xd800 && v <= 0xdfff) scannerError(pos + 2, 'found invalid Unicode character escape code');
    // An escaped control character is data: go-yaml's reader refuses only raw ones.
    pos += 6;
    return String.fromCharCode(v);
  };
  const scannerError = (at: number, problem: string): never => {
    const line = lineOf(text, at);
    throw new GoYAMLError(`yaml: ${line > 0 ? `line ${line + 1}: ` : ''}${problem}`);
  };
  // scannerc.go's yaml_parser_scan_flow_scalar for a double-quoted scalar with raw line breaks: blanks
  // before a break are dropped, blanks after it skipped, a lone '\n'-kind break folds to a space and
  // further breaks are kept (NEL read as '\n'; LS and PS as themselves).
  const readFoldedString = (): string => {
    pos++;
    let s = '';
    let column0 = false;
    for (;;) {
      if (column0 && /^(?:---|\.\.\.)[ \t\n\r\u0085\u2028\u2029]/.test(text.slice(pos, pos + 4))) {
        scannerError(pos, 'found unexpected document indicator');
      }
      for (;;) {
        const c = text.charCodeAt(pos);
        if (c === 0x22 || c === 0x20 || c === 0x85 || c === 0x2028 || c === 0x2029) break;
        if (c === 0x5c) s += readEscape();
        else if (Number.isNaN(c) || c < 0x20) invalid('unterminated string or raw control character');
        else if (c >= 0xd800 && c <= 0xdfff) s += surrogate();
        else if ((c >= 0x7f && c <= 0x9f) || c === 0xfffe || c === 0xffff) throw new GoYAMLError('yaml: control characters are not allowed');
        else s += text[pos++];
      }
      if (text.charCodeAt(pos) === 0x22) {
        pos++;
        return s;
      }
      let whitespaces = '';
      let leadingBreak = '';
      let trailingBreaks = '';
      let leadingBlanks = false;
      for (;;) {
        const c = text.charCodeAt(pos);
        if (c === 0x20) {
          if (!leadingBlanks) whitespaces += ' ';
          column0 = false;
        } else if (c === 0x85 || c === 0x2028 || c === 0x2029) {
          const br = c === 0x85 ? '\n' : text[pos]!;
          if (!leadingBlanks) {
            whitespaces = '';
            leadingBreak = br;
            leadingBlanks = true;
          } else {
            trailingBreaks += br;
          }
          column0 = true;
        } else {
          break;
        }
        pos++;
      }
      if (leadingBlanks) {
        if (leadingBreak === '\n') s += trailingBreaks === '' ? ' ' : trailingBreaks;
        else s += leadingBreak + trailingBreaks;
      } else {
        s += whitespaces;
      }
    }
  };

  skipSpace();
  for (;;) {
    const c = text[pos];
    let more = false;
    if (c === '{' || c === '[') {
      if (stack.length >= maxFlowLevel) scannerError(pos, `exceeded max depth of ${maxFlowLevel}`);
      pos++;
      skipSpace();
      if (c === '{') {
        const map = new GoYAMLMap();
        store(map);
        if (text[pos] === '}') {
          pos++;
          more = afterValue();
        } else {
          const top = { map, key: '' };
          stack.push(top);
          readKey(top);
          more = true;
        }
      } else {
        const list: GoYAMLNode[] = [];
        store(list);
        if (text[pos] === ']') {
          pos++;
          more = afterValue();
        } else {
          stack.push({ list });
          more = true;
        }
      }
      if (more) {
        skipSpace();
        continue;
      }
      break;
    }
    if (c === '"') {
      store(readString());
    } else if (text.startsWith('true', pos)) {
      pos += 4;
      store(plainTrue);
    } else if (text.startsWith('false', pos)) {
      pos += 5;
      store(plainFalse);
    } else if (text.startsWith('null', pos)) {
      pos += 4;
      store(plainNull);
    } else {
      numberToken.lastIndex = pos;
      const m = numberToken.exec(text);
      if (m === null || m[0] === '') return invalid('expected a value');
      pos += m[0].length;
      const shown = goYAMLNumberText(m[0]);
      // A float64 overflow leaves go-yaml the text as a string.
      store(shown === undefined ? m[0] : new GoYAMLPlain(shown));
    }
    if (!afterValue()) break;
    skipSpace();
  }
  skipSpace();
  if (pos !== text.length) invalid('text after the value');
  return result!;
}

const jsonEscapes: Record<string, string | undefined> = Object.assign(Object.create(null) as Record<string, string>, {
  '"': '"', '\\': '\\', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
});

/** The 0-based line of a position as go-yaml counts lines (CR LF is one break). */
function lineOf(text: string, at: number): number {
  const m = text.slice(0, at).match(/\r\n|[\n\r\u0085\u2028\u2029]/g);
  return m === null ? 0 : m.length;
}

function codePoints(text: string, from: number, to: number): number {
  let n = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > from) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}
