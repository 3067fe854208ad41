import { parseArgs } from 'node:util';
import { check, format } from './commands/lua.ts';
import { init } from './commands/init.ts';
import { login, logout } from './commands/login.ts';
import { logs, runs } from './commands/logs.ts';
import { run } from './commands/run.ts';
import { pull, push } from './commands/sync.ts';
import { watch } from './commands/watch.ts';
import { createContext, type Command } from './context.ts';
import { createOutput, EXIT, type Env } from './output.ts';
import { version } from './version.ts';

const COMMANDS: Command[] = [login, logout, init, pull, push, watch, run, check, format, logs, runs];

const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean' },
} as const;

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return `moonrelay ${version}: your Moonrelay scripts as files, from a terminal

Usage: moonrelay <command> [options]

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Options for every command:
  -h, --help     Help for the command
  -q, --quiet    Only results, summaries and errors (the default when CI=true)
  --verbose      Everything, also in CI
  --version      Print moonrelay's version

Environment:
  MOONRELAY_URL, MOONRELAY_API_KEY   The server and key (win over what login stored)
  NO_COLOR                           No colours (colours are only used on a terminal anyway)
  MOONRELAY_TRACE=1                  Print each API call (method, path, status, time) on stderr

Exit codes: 0 success, 1 a failed run, conflict, syntax error or needed format,
2 bad usage or a call the server refused (or could not be reached).

Full reference: docs/cli.md`;
}

/** Node's parseArgs messages, shortened to what the user typed wrong. */
function usageMessage(error: unknown, command: string): string {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-[^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `${command}: unknown option ${option ?? ''}`.trim();
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${command}: ${message.split('.')[0]}`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `${command}: takes no arguments (${/'([^']*)'/.exec(message)?.[1] ?? ''})`;
  return `${command}: ${message}`;
}

export async function main(argv: string[], env: Env, cwd: string): Promise<number> {
  const [name, ...rest] = argv;
  const earlyOut = createOutput(env, { quiet: false });
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    (name === undefined ? process.stderr : process.stdout).write(`${mainHelp()}\n`);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    earlyOut.out(version);
    return EXIT.ok;
  }
  const helpFor = name === 'help' ? rest[0] : undefined;
  const command = COMMANDS.find((candidate) => candidate.name === (helpFor ?? name));
  if (!command) {
    earlyOut.error(`unknown command ${helpFor ?? name} (moonrelay --help lists them)`);
    return EXIT.usage;
  }
  if (helpFor) {
    process.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...COMMON_OPTIONS, ...command.options },
      allowPositionals: command.positionals === true,
      strict: true,
    });
  } catch (error) {
    earlyOut.error(`${usageMessage(error, command.name)} (moonrelay ${command.name} --help)`);
    return EXIT.usage;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    process.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  const out = createOutput(env, {
    quiet: values.quiet === true ? true : undefined,
    verbose: values.verbose === true,
  });

  const stop = new AbortController();
  const onSignal = () => {
    // A second Ctrl-C leaves at once.
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const context = createContext(env, cwd, out, stop.signal);
  try {
    return await command.run(context, values, parsed.positionals);
  } catch (error) {
    const exitCode = (error as { exitCode?: number }).exitCode;
    if (typeof exitCode === 'number') {
      out.error((error as Error).message);
      return exitCode;
    }
    const { code, message } = error as NodeJS.ErrnoException;
    if (code && typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      // A file that cannot be read or written: the system's words, one line.
      out.error(message);
      return EXIT.usage;
    }
    out.error(
      `unexpected error: ${message ?? String(error)}${env.MOONRELAY_DEBUG ? '' : ' (MOONRELAY_DEBUG=1 shows where)'}`,
    );
    if (env.MOONRELAY_DEBUG) process.stderr.write(`${(error as Error).stack}\n`);
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

const exitCode = await main(process.argv.slice(2), process.env, process.cwd());
process.exitCode = exitCode;
