/** Naming helpers: English plurals for resource names and Kubernetes version priority. */

/** The plural resource name of a kind, as kubebuilder forms it: `CronTab` → `crontabs`, `Policy` → `policies`. */
export function pluralize(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Compares two version names by Kubernetes version priority (the order `kubectl` and discovery use):
 * GA before beta before alpha, higher numbers first, then names that do not look like Kubernetes
 * versions, alphabetically.
 */
export function compareVersionPriority(a: string, b: string): number {
  const ma = kubeVersion.exec(a);
  const mb = kubeVersion.exec(b);
  if (ma === null || mb === null) {
    if (ma !== null) return -1;
    if (mb !== null) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const stability = (m: RegExpExecArray): number => (m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1);
  if (stability(ma) !== stability(mb)) return stability(mb) - stability(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}
