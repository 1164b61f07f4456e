import { exitCodes } from '../exitCodes.js';
import { CommandError } from './context.js';

/** The feature gates `kubekit serve` knows, with their defaults (as in Kubernetes 1.32+, where both are GA or on). */
const knownGates = { CustomResourceFieldSelectors: true } as const;

/** The feature gates of the embedded server. */
export type FeatureGates = { -readonly [K in keyof typeof knownGates]: boolean };

/** Go's strconv.ParseBool, which kube-apiserver's `--feature-gates` uses. */
function parseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  return undefined;
}

/**
 * Parses kube-apiserver's `--feature-gates` syntax (`A=true,B=false`, repeatable) for the gates the
 * embedded server implements, with kube-apiserver's messages for what it refuses.
 *
 * @throws CommandError (usage) for an unknown gate or a value that is not a Go boolean
 */
export function parseFeatureGates(values: readonly string[] | undefined): FeatureGates {
  const gates: FeatureGates = { ...knownGates };
  for (const value of values ?? []) {
    for (const part of value.split(',')) {
      const entry = part.trim();
      if (entry === '') continue;
      const eq = entry.indexOf('=');
      const key = (eq < 0 ? entry : entry.slice(0, eq)).trim();
      if (!Object.hasOwn(knownGates, key)) throw new CommandError(`--feature-gates: unrecognized feature gate: ${key} (known: ${Object.keys(knownGates).join(', ')})`, exitCodes.usage);
      if (eq < 0) throw new CommandError(`--feature-gates: missing bool value for ${key}`, exitCodes.usage);
      const text = entry.slice(eq + 1).trim();
      const enabled = parseBool(text);
      if (enabled === undefined) throw new CommandError(`--feature-gates: invalid value of ${key}=${text}, err: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`, exitCodes.usage);
      gates[key as keyof FeatureGates] = enabled;
    }
  }
  return gates;
}
