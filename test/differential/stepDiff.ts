/**
 * Where kubekit's transcript of a generated case differs from the reference's (the randomized and the
 * hostile suites): the differing steps up to the first different status — what follows it is its
 * consequence — each with its class (`create: status 422 vs 201`, `json patch: body`, …); and a
 * campaign's tally of the classes.
 */
import { canonical, type Step } from './normalize.js';

/** One differing step: kubekit's and the reference's answer (either missing when the transcripts differ in length). */
export interface DifferingStep {
  op: string;
  label: string;
  kubekit: Step | undefined;
  reference: Step | undefined;
}

/** What differs in a step: its status, its warnings, its events, its body, or the transcript's shape. */
function aspect(a: Step | undefined, b: Step | undefined): string {
  if (a === undefined || b === undefined) return 'missing step';
  if (a.status !== b.status) return `status ${String(b.status)} vs ${String(a.status)}`;
  if (canonical(a.warnings) !== canonical(b.warnings)) return 'warnings';
  if (canonical(a.events) !== canonical(b.events)) return 'events';
  return (a.body as { reason?: string } | undefined)?.reason !== undefined ? 'error message' : 'body';
}

/** The differing steps of two transcripts and their classes; `opOf` names a step label's operation. */
export function diffSteps(mine: Step[], ref: Step[], opOf: (label: string) => string): { steps: DifferingStep[]; classes: string[] } {
  const steps: DifferingStep[] = [];
  const classes: string[] = [];
  for (let i = 0; i < Math.max(mine.length, ref.length); i++) {
    const a = mine[i];
    const b = ref[i];
    if (a !== undefined && b !== undefined && a.label === b.label && canonical(a) === canonical(b)) continue;
    const label = (b ?? a).label;
    steps.push({ op: opOf(label), label, kubekit: a, reference: b });
    classes.push(`${opOf(label)}: ${aspect(a, b)}`);
    if (a === undefined || b === undefined || a.label !== b.label || a.status !== b.status) break;
  }
  return { steps, classes };
}

/** A campaign's count of differing cases by class, allow-listed or not, printed at its end. */
export class DifferenceTally {
  private readonly byClass = new Map<string, { cases: number; allowed: number }>();
  /** Cases with a difference, allow-listed ones included. */
  differing = 0;

  /** Counts a differing case: its classes, and whether every one of its differences is allow-listed. */
  count(classes: string[], allowed: boolean): void {
    this.differing++;
    for (const cls of new Set(classes)) {
      const t = this.byClass.get(cls) ?? { cases: 0, allowed: 0 };
      t.cases++;
      if (allowed) t.allowed++;
      this.byClass.set(cls, t);
    }
  }

  /** The summary lines: the cases run and differing, then each class, the most frequent first. */
  lines(suite: string, seed: number, ran: number): string[] {
    return [
      `differential, ${suite}: seed ${seed}: ${ran} cases, ${this.differing} differ`,
      ...[...this.byClass].sort((a, b) => b[1].cases - a[1].cases).map(([cls, t]) => `  ${t.cases} × ${cls}${t.allowed > 0 ? ` (${t.allowed} allow-listed)` : ''}`),
    ];
  }
}
