/**
 * Cuts `metadata.managedFields` out of the JSON text of watch events and lists before it is parsed,
 * so that the informer's default transform (which drops them) costs no parsing: they are often
 * half of an object's bytes and most of its JSON values.
 *
 * Only the `managedFields` of the objects themselves go: `object.metadata` of a watch event and
 * `items[*].metadata` of a list. The text is walked as JSON (strings skipped whole, escapes
 * honoured), so a key of that name anywhere else — in a spec, inside a string — stays. Text that is
 * not well-formed is returned as it is, for the parser to report.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

const eventPath = ['object', 'metadata'];
const objectPath = ['metadata'];
const listPath = ['items', '', 'metadata'];

// The fast path, for JSON as the apiserver writes custom resources (compact, keys sorted): an
// object opens with apiVersion, kind and metadata, whose members before managedFields can only be
// these (flat string maps, strings, integers, a list of strings), and whose member after it is
// `name`. The apiserver's managedFields hold objects and strings only, so the first `]` after the
// array opens is its end, when no `[` comes in between and `,"name":` comes right after (a `]`
// inside a string followed by `,"` would close that string and leave `name":`, which is not JSON).
// Native regular expressions and `indexOf` check all of this; anything else (a bracket inside
// managedFields, no `name` after it, another key order) takes the walk.
// A JSON string, unrolled (runs of plain characters, then one escape at a time): fewer steps than `(?:[^"\\]|\\.)*`.
const str = String.raw`"[^"\\]*(?:\\.[^"\\]*)*"`;
const metadataHead = String.raw`"metadata":\{(?:"(?:annotations|labels)":\{(?:${str}:${str},?)*\},|"(?:creationTimestamp|deletionTimestamp|generateName)":${str},|"(?:deletionGracePeriodSeconds|generation)":-?\d+,|"finalizers":\[(?:${str},?)*\],)*"managedFields":\[`;
const objectHead = String.raw`\{"apiVersion":${str},"kind":${str},${metadataHead}`;
const eventHead = new RegExp(String.raw`\{"type":"[A-Z]+","object":${objectHead}`, 'y');
const itemHead = new RegExp(objectHead, 'y');
const listHead = new RegExp(String.raw`\{"apiVersion":${str},"items":\[`, 'y');
const managedFieldsKey = '"managedFields":['.length;

/**
 * Where the `"name":` member right after the managedFields array that opens just before `open`
 * starts, or -1 when that cannot be told without a walk (see above).
 */
function nameAfter(text: string, open: number): number {
  const close = text.indexOf(']', open);
  if (close === -1 || !text.startsWith(',"name":', close + 1)) return -1;
  // Forward: V8 finds one character forward with memchr, backward (lastIndexOf) one by one.
  const bracket = text.indexOf('[', open);
  return bracket === -1 || bracket > close ? close + 2 : -1;
}

/** A watch event's text without `object.metadata.managedFields`. */
export function skipManagedFieldsInEvent(line: string): string {
  return skipOne(line, eventHead, eventPath);
}

/** An object's text (a GET's answer) without `metadata.managedFields`. */
export function skipManagedFieldsInObject(text: string): string {
  return skipOne(text, itemHead, objectPath);
}

/** A list's text without `items[*].metadata.managedFields`. */
export function skipManagedFieldsInList(text: string): string {
  // Most lists of most resources have none: nothing to do.
  if (!text.includes('"managedFields"')) return text;
  return fastList(text) ?? cut(text, listPath, false);
}

/** `text` without the `managedFields` of the one object that `head` (fast) or `path` (walk) leads to. */
function skipOne(text: string, head: RegExp, path: readonly string[]): string {
  // The fast path first: it stops at managedFields, where a search for the key would have read as far.
  head.lastIndex = 0;
  if (head.test(text)) {
    const open = head.lastIndex;
    const name = nameAfter(text, open);
    if (name !== -1) return text.slice(0, open - managedFieldsKey) + text.slice(name);
  }
  // Most lines of most resources have none: nothing to do.
  if (!text.includes('"managedFields"')) return text;
  return cut(text, path, true);
}

/** The fast path for a list whose every item has the shape above; `undefined` when one has not. */
function fastList(text: string): string | undefined {
  listHead.lastIndex = 0;
  if (!listHead.test(text)) return undefined;
  let p = listHead.lastIndex;
  // Joined at the end: one flat string, where `+=` would build a rope that every later read walks.
  const parts: string[] = [];
  let from = 0;
  for (;;) {
    if (text.charCodeAt(p) === CLOSE_ARRAY) {
      parts.push(text.slice(from));
      return parts.join('');
    }
    itemHead.lastIndex = p;
    if (!itemHead.test(text)) return undefined;
    const open = itemHead.lastIndex;
    const name = nameAfter(text, open);
    if (name === -1) return undefined;
    parts.push(text.slice(from, open - managedFieldsKey));
    from = name;
    // The rest of the item: from inside its metadata, two levels deep.
    const end = closeFrom(text, name, 2);
    if (end === -1) return undefined;
    p = end;
    if (text.charCodeAt(p) === COMMA) p++;
    else if (text.charCodeAt(p) !== CLOSE_ARRAY) return undefined;
  }
}

/** The index of the quote that closes the string opening at `open`, or -1 when it does not close. */
function stringEnd(text: string, open: number): number {
  // Native searches for the quote (most of an object's text is in its strings); a quote after an odd
  // run of backslashes is escaped.
  let q = text.indexOf('"', open + 1);
  while (q !== -1 && text.charCodeAt(q - 1) === BACKSLASH) {
    let b = q - 1;
    while (text.charCodeAt(b - 1) === BACKSLASH) b--;
    if ((q - b) % 2 === 0) break;
    q = text.indexOf('"', q + 1);
  }
  return q;
}

/** The index just past the container that closes `depth` levels up from `i`, or -1. */
function closeFrom(text: string, i: number, depth: number): number {
  const n = text.length;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Walks `text` as JSON and cuts every `managedFields` member of an object reached by `path` (keys;
 * `''` for any array element). One tight loop: this runs on every byte the informer receives.
 */
function cut(text: string, path: readonly string[], once: boolean): string {
  const n = text.length;
  // matched: how many leading levels of the current position follow `path`; depth: containers open.
  let depth = 0;
  let matched = 0;
  let pendingKey = -1; // the start of the last key read at this depth, until its value opens
  let pendingKeyEnd = -1;
  let out = '';
  let from = 0;
  const target = path.length; // the depth of the metadata object's members
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (i >= n) return text;
      // A key? (the next non-space character is a colon)
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) !== COLON) continue;
      pendingKey = start;
      pendingKeyEnd = i + 1;
      if (matched === target && depth === target + 1 && keyIs(text, start, i + 1, 'managedFields')) {
        let v = j + 1;
        while (v < n && isSpace(text.charCodeAt(v))) v++;
        const end = valueEnd(text, v);
        if (end === -1) return text;
        // Cut the member with the comma before it, or with the one after it when it comes first. Only
        // a member set off as JSON sets it off (`,` or `{` before, `,` or `}` after): anything else is
        // not JSON, and a cut could make it so (two digit runs joined, for one); the parser reports it.
        let before = start - 1;
        while (before >= 0 && isSpace(text.charCodeAt(before))) before--;
        let after = end;
        while (after < n && isSpace(text.charCodeAt(after))) after++;
        const left = text.charCodeAt(before);
        const right = text.charCodeAt(after);
        if ((left !== COMMA && left !== OPEN_OBJECT) || (right !== COMMA && right !== CLOSE_OBJECT)) return text;
        let cutFrom = start;
        let cutTo = end;
        if (left === COMMA) cutFrom = before;
        else if (right === COMMA) cutTo = after + 1;
        out += text.slice(from, cutFrom);
        from = cutTo;
        if (once) return out + text.slice(from);
        i = end - 1;
        pendingKey = -1;
        continue;
      }
      i = j;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      // Opening a container inside the top-level one: it follows the path if its parent does and
      // it is reached by the path's next key (or, for '', as an element of an array).
      if (depth >= 1 && matched === depth - 1 && depth - 1 < target) {
        const want = path[depth - 1];
        if (want === '' ? pendingKey === -1 : pendingKey !== -1 && keyIs(text, pendingKey, pendingKeyEnd, want)) matched = depth;
      }
      depth++;
      pendingKey = -1;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      // The container closed was entered at `depth`: it no longer counts.
      if (matched >= depth) matched = Math.max(0, depth - 1);
      pendingKey = -1;
      continue;
    }
    if (c === COMMA) pendingKey = -1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The index just past the JSON value that starts at `i`, or -1 if it does not end. */
function valueEnd(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (depth === 0) return i < n ? i + 1 : -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && c === COMMA) {
      return i;
    }
  }
  return -1;
}

/** Whether the string from `start` (its opening quote) to `end` (past its closing quote) is `name`. */
function keyIs(text: string, start: number, end: number, name: string): boolean {
  return end - start - 2 === name.length && text.startsWith(name, start + 1);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
