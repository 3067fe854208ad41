/**
 * How moonrelay talks: results on stdout, notes, progress and errors on stderr. Colours only when
 * the stream is a terminal and NO_COLOR is not set; a progress line only on a terminal; quiet by
 * default in CI (CI=true), where only results, summaries and errors are printed.
 */

export type Env = Record<string, string | undefined>;

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Bad usage or a refused call: exit 2. */
export class UsageError extends Error {
  readonly exitCode = EXIT.usage;
}

/** The thing asked for did not succeed (a failed run, a conflict, a syntax error): exit 1. */
export class Failure extends Error {
  readonly exitCode = EXIT.failed;
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90, bold: 1, dim: 2 } as const;
export type Paint = Record<keyof typeof CODES, (text: string) => string>;

function paint(enabled: boolean): Paint {
  const entries = Object.entries(CODES).map(([name, code]) => [
    name,
    enabled ? (text: string) => `\u001b[${code}m${text}\u001b[0m` : (text: string) => text,
  ]);
  return Object.fromEntries(entries) as Paint;
}

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Output {
  /** Colours for stdout and for stderr (each is plain unless that stream is a terminal). */
  color: Paint;
  errColor: Paint;
  quiet: boolean;
  /** A result: always printed, on stdout. */
  out(line: string): void;
  /** A note about what happens: stderr, not when quiet. */
  info(line: string): void;
  /** A warning: stderr, always. */
  warn(line: string): void;
  /** A one-line error: stderr, always. */
  error(line: string): void;
  /** A line of its own on stderr, always, without the error's prefix (details, diagnostics, a script's error). */
  note(line: string): void;
  /** A progress line that rewrites itself (terminal only, not when quiet); `done()` clears it. */
  progress(line: string): void;
  done(): void;
}

export function createOutput(
  env: Env,
  options: { quiet?: boolean; verbose?: boolean } = {},
  streams: { stdout: Stream; stderr: Stream } = { stdout: process.stdout, stderr: process.stderr },
): Output {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const inCi = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  const quiet = options.verbose ? false : (options.quiet ?? inCi);
  const color = paint(!noColor && streams.stdout.isTTY === true);
  const errColor = paint(!noColor && streams.stderr.isTTY === true);
  const progressShown = streams.stderr.isTTY === true && !quiet;
  let progressActive = false;
  const clear = () => {
    if (progressActive) streams.stderr.write('\r\u001b[2K');
    progressActive = false;
  };
  return {
    color,
    errColor,
    quiet,
    out(line) {
      clear();
      streams.stdout.write(`${line}\n`);
    },
    info(line) {
      if (quiet) return;
      clear();
      streams.stderr.write(`${line}\n`);
    },
    warn(line) {
      clear();
      streams.stderr.write(`${errColor.yellow('warning:')} ${line}\n`);
    },
    error(line) {
      clear();
      streams.stderr.write(`${errColor.red('moonrelay:')} ${line}\n`);
    },
    note(line) {
      clear();
      streams.stderr.write(`${line}\n`);
    },
    progress(line) {
      if (!progressShown) return;
      streams.stderr.write(`\r\u001b[2K${line}`);
      progressActive = true;
    },
    done: clear,
  };
}

/** A count with its noun: "1 file", "3 files". */
export const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;

/** "12:03:04" in local time, for lines printed as things happen. */
export const clock = (date = new Date()) => date.toTimeString().slice(0, 8);
