/**
 * What a command needs from its surroundings: output streams, the working directory, the environment,
 * a clock and a stop signal. `runCli` builds it from the process, tests build it from buffers.
 */

/** A writable text stream (process.stdout, or a buffer in tests). */
export interface TextOutput {
  write(text: string): unknown;
  /** Whether the stream is a terminal: colour is used only then. */
  isTTY?: boolean;
}

/** The surroundings of one CLI run. */
export interface CliContext {
  readonly stdout: TextOutput;
  readonly stderr: TextOutput;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The current time, for AGE columns. */
  readonly now: () => Date;
  /** Reads standard input (for `-f -`). */
  readonly readStdin: () => Promise<string>;
  /** Stops long-running commands (`serve`). */
  readonly signal: AbortSignal | undefined;
  /** ANSI colours for stderr, enabled only when it is a terminal (and never with NO_COLOR). */
  readonly colors: Colors;
  /** ANSI colours for stdout, likewise. */
  readonly stdoutColors: Colors;
}

/** Colour helpers; each returns its text unchanged when colour is off. */
export interface Colors {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
}

const plain = (text: string): string => text;

/**
 * Colours for a stream: on for terminals unless `NO_COLOR` is set, or forced with `FORCE_COLOR`
 * (`0` forces them off).
 * @see https://no-color.org
 */
export function colorsFor(stream: TextOutput, env: Readonly<Record<string, string | undefined>>): Colors {
  const force = env.FORCE_COLOR;
  const enabled = force !== undefined && force !== '' ? force !== '0' : stream.isTTY === true && (env.NO_COLOR ?? '') === '';
  if (!enabled) return { red: plain, green: plain, yellow: plain, bold: plain };
  const wrap = (open: number, close: number) => (text: string): string => `\u001b[${open}m${text}\u001b[${close}m`;
  return { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), bold: wrap(1, 22) };
}

/** An error that ends a command with a given exit code and message (printed as `error: …`). */
export class CommandError extends Error {
  override name = 'CommandError';
  constructor(message: string, readonly exitCode: number) {
    super(message);
  }
}
