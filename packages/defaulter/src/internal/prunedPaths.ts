// Pruned-path bookkeeping with upstream's format (schema.UnknownFieldPathOptions): keys joined by
// `.`, indices appended as `[i]` without a dot, so `spec.foo`, `array[1].b`, `[0].a`.
import { compareGoStrings } from './json.js';

/** Collects the paths of pruned fields while an algorithm walks an object. */
export class PrunedPaths {
  /** The path segments to the current value, each already carrying its `.` or `[i]`. */
  private readonly segments: string[] = [];
  readonly paths: string[] = [];

  /** Whether the walk is at the root (no segment yet). */
  atRoot(): boolean {
    return this.segments.length === 0;
  }

  /** Descends into the field `key`. */
  pushKey(key: string): void {
    this.segments.push(this.segments.length === 0 ? key : `.${key}`);
  }

  /** Descends into the item `index`. */
  pushIndex(index: number): void {
    this.segments.push(`[${index}]`);
  }

  /** Returns from the last descent. */
  pop(): void {
    this.segments.pop();
  }

  /** Records the pruned field `key` of the current value. */
  record(key: string): void {
    const parent = this.segments.join('');
    this.paths.push(parent === '' ? key : `${parent}.${key}`);
  }

  /** The recorded paths in Go's `sort.Strings` order. */
  sorted(): string[] {
    return this.paths.sort(compareGoStrings);
  }
}
