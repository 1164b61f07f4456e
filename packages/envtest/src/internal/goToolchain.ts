/** Finding the Go toolchain and checking it is new enough for a go.mod. */
import { execFile } from 'node:child_process';
import { EnvtestError } from '../envtestError.js';

/** A Go release as `[major, minor, patch]`. */
export type GoVersion = readonly [number, number, number];

/** Parses `go1.26.8`, `1.24.0`, `1.24` or `go1.25rc1` (the pre-release counts as `.0`). */
export function parseGoVersion(text: string): GoVersion | undefined {
  const m = /^(?:go)?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** Negative, zero or positive as `a` is older than, equal to, or newer than `b`. */
export function compareGoVersions(a: GoVersion, b: GoVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The `go` directive of a go.mod text. */
export function goModGoVersion(goMod: string): GoVersion | undefined {
  const m = /^go (\S+)\s*$/m.exec(goMod);
  return m ? parseGoVersion(m[1]) : undefined;
}

/** Where `go` is and which release it is. */
export interface GoToolchain {
  /** The command run (`go`, or the `go` option / `KUBEKIT_GO`). */
  command: string;
  /** The version, as `go version` prints it (`go1.26.8`). */
  version: string;
}

/**
 * Runs `<command> version` and checks the release against what a go.mod needs. `GOTOOLCHAIN=local`
 * is set for every Go command envtest runs, so Go never downloads a toolchain behind the user's back:
 * a too-old Go is an error that says what is needed instead.
 */
export async function findGoToolchain(command: string, needed: GoVersion): Promise<GoToolchain> {
  const neededText = `go${needed.join('.')}`;
  const out = await new Promise<string>((resolve, reject) => {
    execFile(command, ['version'], { env: { ...process.env, GOTOOLCHAIN: 'local' }, timeout: 60_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout);
    });
  }).catch((err: NodeJS.ErrnoException) => {
    const why = err.code === 'ENOENT' ? `"${command}" was not found on PATH` : `"${command} version" failed: ${err.message}`;
    throw new EnvtestError(
      `@kubekit/envtest builds the real kube-apiserver from the official Kubernetes Go modules and needs Go ${neededText} or newer, but ${why}. ` +
        'Install Go from https://go.dev/dl/ (or set KUBEKIT_GO to the go binary).',
      { cause: err },
    );
  });
  const m = /\bgo(\d+\.\d+(?:\.\d+)?\S*)/.exec(out);
  const have = m ? parseGoVersion(m[1]) : undefined;
  if (!m || have === undefined) {
    throw new EnvtestError(`could not read the Go version from "${command} version": ${JSON.stringify(out.trim())}; Go ${neededText} or newer is needed`);
  }
  if (compareGoVersions(have, needed) < 0) {
    throw new EnvtestError(
      `@kubekit/envtest needs Go ${neededText} or newer to build kube-apiserver (its go.mod says "go ${needed.join('.')}"), but "${command}" is go${m[1]}. Install a newer Go from https://go.dev/dl/.`,
    );
  }
  return { command, version: `go${m[1]}` };
}
