/**
 * Compile errors of a CEL expression, printed as cel-go's `Issues.String()` prints them:
 * `ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'` followed by
 * the source line and a caret under the column, errors sorted by position, at most 100.
 */

const maxErrorsToReport = 100;
const maxSnippetLength = 16384;

interface Issue {
  /**
   * A UTF-16 offset into the source (-1: column -1 of line 1, printed `1:0`), or `'none'` for cel-go's
   * `NoLocation` (printed `-1:0`, no snippet).
   */
  offset: number | 'none';
  message: string;
}

/** The line (1-based) and column (0-based, in code points) of a UTF-16 offset. */
function location(source: string, offset: number | 'none'): { line: number; column: number } {
  if (offset === 'none') return { line: -1, column: -1 };
  // Offset -1 (an expression cel-go made at no location) is column -1 of line 1.
  if (offset < 0) return { line: 1, column: -1 };
  // cel-go places an error in an empty source at column -1 of line 1, which has no snippet.
  if (source.length === 0) return { line: 1, column: -1 };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 0;
  for (let i = lineStart; i < offset && i < source.length; i++) {
    const cp = source.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    column++;
  }
  return { line, column };
}

/** Collects the errors of one compilation. */
export class CelIssues {
  private readonly issues: Issue[] = [];
  private count = 0;

  constructor(private readonly source: string) {}

  /** Records an error at a source offset (`'none'`: at no place in the source). */
  report(offset: number | 'none', message: string): void {
    this.count++;
    if (this.count <= maxErrorsToReport) this.issues.push({ offset, message });
  }

  get length(): number {
    return this.count;
  }

  /** The messages alone, in report order. */
  messages(): string[] {
    return this.issues.map((i) => i.message);
  }

  /** cel-go's `Errors.ToDisplayString()`. */
  toString(): string {
    const lines = this.source.split('\n');
    const located = this.issues.map((i) => ({ ...location(this.source, i.offset), message: i.message }));
    const sorted = located
      .map((l, idx) => ({ l, idx }))
      .sort((a, b) => a.l.line - b.l.line || a.l.column - b.l.column || a.idx - b.idx)
      .map((x) => x.l);
    const out = sorted.map(({ line, column, message }) => {
      let s = `ERROR: <input>:${line}:${column + 1}: ${message}`;
      const snippet = lines[line - 1];
      if (snippet !== undefined && this.source.length > 0 && snippet.length <= maxSnippetLength) {
        const text = snippet.replace(/\t/g, ' ');
        let ind = '';
        const cps = [...text];
        for (let i = 0; i < column && i < cps.length; i++) ind += utf8Length(cps[i]) > 1 ? '\uff0e' : '.';
        ind += cps[column] !== undefined && utf8Length(cps[column]) > 1 ? '\uff3e' : '^';
        s += `\n | ${text}\n | ${ind}`;
      }
      return s;
    });
    if (this.count > maxErrorsToReport) out.push(`${this.count - maxErrorsToReport} more errors were truncated`);
    return out.join('\n');
  }
}

function utf8Length(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}
