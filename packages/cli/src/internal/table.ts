/**
 * Tables as `kubectl get` prints them: Go's `text/tabwriter` with kubectl's settings (minimum cell
 * width 6, padding 3, spaces), headers upper-cased, and a cell's text cut at its first line break.
 *
 * @see https://github.com/kubernetes/cli-runtime/blob/master/pkg/printers/tabwriter.go
 */

const minWidth = 6;
const padding = 3;

function cellText(value: string): string {
  const lineBreak = value.search(/[\f\n\r]/);
  return lineBreak < 0 ? value : `${value.slice(0, lineBreak)}...`;
}

function width(text: string): number {
  return [...text].length;
}

/** Formats rows (the first being the header) into aligned lines, each ending in `\n`. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(cellText));
  const columns = Math.max(0, ...cells.map((row) => row.length));
  const widths: number[] = [];
  for (let c = 0; c < columns - 1; c++) {
    widths.push(Math.max(minWidth, ...cells.map((row) => width(row[c] ?? '') + padding)));
  }
  return cells
    .map((row) => row.map((cell, c) => (c < columns - 1 ? cell + ' '.repeat(widths[c] - width(cell)) : cell)).join('') + '\n')
    .join('');
}
