/** Runs `kubekit` in-process or as a child process, capturing its output. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCli } from '@kubekit/cli';
import type { CliOptions } from '@kubekit/cli';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
/** This package's test fixtures. */
export const fixtures = fileURLToPath(new URL('../fixtures', import.meta.url));

/** What one run printed and returned. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link kubekit}. */
export interface RunOptions extends Omit<CliOptions, 'stdout' | 'stderr' | 'readStdin'> {
  stdin?: string;
  /** Whether the streams claim to be terminals. @defaultValue false */
  tty?: boolean;
}

/** Runs `kubekit <args>` in this process (cwd: the fixtures directory unless given). */
export async function kubekit(args: string[], options: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const { stdin = '', tty = false, ...rest } = options;
  const code = await runCli(args, {
    cwd: fixtures,
    env: {},
    ...rest,
    stdout: { write: (text: string) => (stdout += text), isTTY: tty },
    stderr: { write: (text: string) => (stderr += text), isTTY: tty },
    readStdin: () => Promise.resolve(stdin),
  });
  return { code, stdout, stderr };
}

/**
 * How long {@link kubekitProcess} lets a child run before it kills it. A test that runs `n` children
 * sets its mocha timeout to {@link childrenTimeoutMs}(n), so that a slow child (tsx compiling the
 * sources on a loaded machine) meets this bound, not mocha's default 20 s.
 */
export const childTimeoutMs = 60_000;

/** A mocha timeout for a test that runs `children` child processes one after another: each one's bound, plus 10 s for the test's own work. */
export function childrenTimeoutMs(children: number): number {
  return children * childTimeoutMs + 10_000;
}

/** Runs `node --import tsx --conditions=kubekit-source packages/cli/src/bin.ts <args>` from the repository root. */
export function kubekitProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--conditions=kubekit-source', 'packages/cli/src/bin.ts', ...args],
      { cwd: repoRoot, env: { PATH: process.env.PATH, ...env }, timeout: childTimeoutMs },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          fail(error);
          return;
        }
        done({ code: error === null ? 0 : (error.code as number), stdout, stderr });
      },
    );
  });
}
