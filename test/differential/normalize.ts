/**
 * Normalising answers so two servers' transcripts compare: uids, timestamps and resourceVersions are
 * replaced by their order of first appearance, generated names by their prefix, ages and continue
 * tokens by placeholders. What stays is what a client may rely on: status codes, reasons, messages,
 * causes, warnings and bodies.
 */

/** One recorded step of a scenario. */
export interface Step {
  label: string;
  [key: string]: unknown;
}

export interface NormalizeOptions {
  /** Keep `metadata.managedFields` (server-side apply scenarios compare them). @defaultValue false */
  managedFields?: boolean;
}

const timeKeys = new Set(['creationTimestamp', 'deletionTimestamp', 'lastTransitionTime', 'time', 'renewTime', 'acquireTime', 'eventTime', 'firstTimestamp', 'lastTimestamp']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Normalises a scenario's steps (a deep copy; the input is untouched). */
export function normalizeSteps(steps: readonly Step[], options: NormalizeOptions = {}): Step[] {
  const uids = new Map<string, string>();
  const rvs = new Map<string, string>();
  const generated = new Map<string, string>();

  // First pass: generated names (metadata.generateName + suffix) anywhere in the transcript.
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) { v.forEach(collect); return; }
    if (!isRecord(v)) return;
    const meta = v.metadata;
    if (isRecord(meta) && typeof meta.generateName === 'string' && typeof meta.name === 'string' && meta.name.startsWith(meta.generateName) && meta.name !== meta.generateName) {
      if (!generated.has(meta.name)) generated.set(meta.name, `${meta.generateName}<generated-${generated.size + 1}>`);
    }
    for (const k of Object.keys(v)) collect(v[k]);
  };
  collect(steps);
  // Then the uids, numbered in the order the walk below meets them, so that a uid a patch copied into
  // another member (a JSON patch moving /metadata/uid into spec) is the same placeholder wherever it is.
  const collectUids = (v: unknown, key: string | undefined): void => {
    if (typeof v === 'string') {
      if (key === 'uid' && v !== '' && !uids.has(v)) uids.set(v, `<uid-${uids.size + 1}>`);
      return;
    }
    if (Array.isArray(v)) { for (const x of v) collectUids(x, undefined); return; }
    if (!isRecord(v)) return;
    for (const k of Object.keys(v)) if (k !== 'managedFields' || options.managedFields === true) collectUids(v[k], k);
  };
  collectUids(steps, undefined);

  const rv = (value: string): string => {
    if (!/^\d+$/.test(value)) return value;
    let n = rvs.get(value);
    if (n === undefined) { n = `<rv-${rvs.size + 1}>`; rvs.set(value, n); }
    return n;
  };
  const str = (s: string): string => {
    let out = s;
    for (const [name, placeholder] of generated) out = out.split(name).join(placeholder);
    out = out.replace(/too old resource version: (\d+) \((\d+)\)/g, (_m, a: string, b: string) => `too old resource version: ${rv(a)} (${rv(b)})`);
    // The version a read waited for, and the server's at the end of the wait: the reference's revision
    // moves with its own background writes (leases), so which version it had reached is not compared.
    out = out.replace(/Too large resource version: (\d+), current: (\d+)/g, (_m, a: string) => `Too large resource version: ${rv(a)}, current: <current>`);
    return out;
  };

  const walk = (v: unknown, key: string | undefined, parent: Record<string, unknown> | undefined): unknown => {
    if (typeof v === 'string') {
      const uid = uids.get(v);
      if (uid !== undefined) return uid;
      if (key !== undefined && timeKeys.has(key)) return '<time>';
      if (key === 'resourceVersion') return rv(v);
      if (key === 'continue' && v !== '') return '<continue>';
      return str(v);
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, undefined, undefined));
    if (!isRecord(v)) return v;
    // A PodDisruptionBudget's disruptedPods: pod names to the times of their evictions.
    if (key === 'disruptedPods') return Object.fromEntries(Object.keys(v).map((k) => [k, '<time>']));
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      if (k === 'managedFields' && !options.managedFields) continue;
      // A list's own resourceVersion is the store's at the time of the read, which counts the writes of
      // whatever else runs against the server (the hostile suite plays two cases at once): it is neither
      // compared nor numbered.
      const meta = v[k];
      if (k === 'metadata' && typeof v.kind === 'string' && v.kind.endsWith('List') && isRecord(meta) && typeof meta.resourceVersion === 'string') {
        out[k] = { ...(walk({ ...meta, resourceVersion: undefined }, k, v) as Record<string, unknown>), resourceVersion: '<list-rv>' };
        continue;
      }
      out[k] = walk(meta, k, v);
    }
    // managedFields are ordered by time (seconds) before manager name; with times normalised away, a
    // second boundary falling between two writes on one server only must not count as a difference.
    if (Array.isArray(out.managedFields)) out.managedFields = [...(out.managedFields as Record<string, unknown>[])].sort((a, b) => (managedFieldsOrder(a) < managedFieldsOrder(b) ? -1 : managedFieldsOrder(a) > managedFieldsOrder(b) ? 1 : 0));
    // Table rows: the Age column's cells are durations since creation.
    if (out.kind === 'Table' && Array.isArray(out.columnDefinitions) && Array.isArray(out.rows)) {
      const ages = (out.columnDefinitions as { name?: string }[]).flatMap((c, i) => (c.name === 'Age' ? [i] : []));
      for (const row of out.rows as { cells?: unknown[] }[]) for (const i of ages) if (row.cells && i < row.cells.length) row.cells[i] = '<age>';
    }
    void parent;
    return out;
  };
  return steps.map((s) => walk(s, undefined, undefined) as Step);
}

function managedFieldsOrder(e: Record<string, unknown>): string {
  return [e.operation, e.manager, e.apiVersion, e.subresource].map((x) => (typeof x === 'string' ? x : '')).join('\u0000');
}

/** Stable JSON with sorted keys (order of object keys is not part of the API). */
export function canonical(v: unknown): string {
  const sort = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(sort);
    if (!isRecord(x)) return x;
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(x).sort()) o[k] = sort(x[k]);
    return o;
  };
  return JSON.stringify(sort(v), null, 1);
}

/** The first differing lines of two canonical transcripts, for the report. */
export function firstDifference(a: string, b: string, context = 3): string {
  const la = a.split('\n');
  const lb = b.split('\n');
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  const from = Math.max(0, i - context);
  const lines: string[] = [];
  for (let j = from; j < Math.min(Math.max(la.length, lb.length), i + context + 1); j++) {
    if (la[j] === lb[j]) lines.push(`   ${la[j] ?? ''}`);
    else {
      if (j < la.length) lines.push(` - ${la[j]}`);
      if (j < lb.length) lines.push(` + ${lb[j]}`);
    }
  }
  return lines.join('\n');
}
