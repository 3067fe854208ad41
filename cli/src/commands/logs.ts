import { CONSOLE_PAGE_MAX_LINES } from '@moonrelay/contract/constants';
import type { ConsoleLine } from '@moonrelay/contract/console';
import { endpoints } from '@moonrelay/contract/endpoints';
import { RUNS_PAGE_SIZE_MAX, type RunSummary } from '@moonrelay/contract/runs';
import type { Api } from '../api.ts';
import type { Command, Context } from '../context.ts';
import { sleep } from '../wait.ts';
import { EXIT, UsageError, type Output } from '../output.ts';

/** How often `logs --follow` asks for new lines (the live socket takes only dashboard sessions). */
const FOLLOW_EVERY_MS = 1000;
/** Pages looked back through for lines that arrived between two looks (CONSOLE_PAGE_MAX_LINES each). */
const CATCH_UP_PAGES = 10;

function positiveInt(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new UsageError(`${name} must be a whole number from 1 to ${max}`);
  }
  return number;
}

function printLine(out: Output, line: ConsoleLine, showServer: boolean): void {
  const time = line.time.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
  const paintLevel =
    line.level === 'error'
      ? out.color.red
      : line.level === 'warning'
        ? out.color.yellow
        : line.level === 'info'
          ? out.color.blue
          : (text: string) => text;
  const server = showServer ? ` ${out.color.cyan(line.serverId)}` : '';
  out.out(`${out.color.gray(time)}${server} ${paintLevel(line.level.padEnd(7))} ${line.text}`);
  if (line.stack) for (const stackLine of line.stack.split('\n')) out.out(`    ${out.color.gray(stackLine)}`);
}

/**
 * Lines newer than the ones seen: the newest page, then older pages until a line already seen
 * (ids are opaque, so this goes by the ids seen, not by comparing them).
 */
async function newLines(
  api: Api,
  serverId: string | undefined,
  seen: Set<string>,
): Promise<{ lines: ConsoleLine[]; gap: boolean }> {
  const fresh: ConsoleLine[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < CATCH_UP_PAGES; page++) {
    const answer = await api.call(endpoints.gameConsole, {
      query: { limit: CONSOLE_PAGE_MAX_LINES, ...(serverId ? { serverId } : {}), ...(cursor ? { cursor } : {}) },
    });
    for (const line of answer.lines) {
      if (seen.has(line.id)) return { lines: fresh.reverse(), gap: false };
      fresh.push(line);
    }
    if (!answer.nextCursor) return { lines: fresh.reverse(), gap: false };
    cursor = answer.nextCursor;
  }
  return { lines: fresh.reverse(), gap: true };
}

export const logs: Command = {
  name: 'logs',
  summary: "Print your game servers' console (--follow keeps printing new lines)",
  help: `Usage: moonrelay logs [--follow] [--server ID] [--lines N]

Prints the newest lines of your game servers' console (what their scripts printed, warned and
threw), oldest first. With --follow it keeps printing new lines as they arrive until Ctrl-C: it
asks the API every second (the live socket accepts dashboard sessions only, not API keys).

Options:
  -f, --follow     Keep printing new lines
  --server ID      One game server only
  -n, --lines N    How many of the newest lines to print first (default 100, at most ${CONSOLE_PAGE_MAX_LINES})

Needs the commands scope.`,
  options: {
    follow: { type: 'boolean', short: 'f' },
    server: { type: 'string' },
    lines: { type: 'string', short: 'n' },
  },
  async run(context: Context, values) {
    const { out } = context;
    const api = context.api();
    const serverId = values.server as string | undefined;
    const limit = positiveInt(values.lines, '--lines', CONSOLE_PAGE_MAX_LINES) ?? 100;
    const first = await api.call(endpoints.gameConsole, { query: { limit, ...(serverId ? { serverId } : {}) } });
    const showServer = serverId === undefined;
    for (const line of [...first.lines].reverse()) printLine(out, line, showServer);
    if (first.lines.length === 0) out.info(`No console lines yet${serverId ? ` from ${serverId}` : ''}`);
    if (!values.follow) return EXIT.ok;
    // The newest line already printed is enough to find where new ones begin.
    const recent = new Set(first.lines.slice(0, 1).map((line) => line.id));
    while (!context.signal.aborted) {
      await sleep(FOLLOW_EVERY_MS, context.signal);
      if (context.signal.aborted) break;
      const { lines, gap } = await newLines(api, serverId, recent);
      if (gap) out.warn('more lines arrived than moonrelay could catch up with; some are not shown');
      for (const line of lines) printLine(out, line, showServer);
      if (lines.length) {
        recent.clear();
        recent.add(lines[lines.length - 1]!.id);
      }
    }
    return EXIT.ok;
  },
};

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export const runs: Command = {
  name: 'runs',
  summary: 'List your recent runs',
  help: `Usage: moonrelay runs [--limit N] [--json]

Lists your recent runs, newest first: when, where (target and game server), how it ended, which
script (or custom code), how long it took, who started it and with which key.

Options:
  --limit N   How many (default 20, at most ${RUNS_PAGE_SIZE_MAX})
  --json      Print the runs as one JSON document

Needs the execute scope.`,
  options: { limit: { type: 'string' }, json: { type: 'boolean' } },
  async run(context, values) {
    const { out } = context;
    const limit = positiveInt(values.limit, '--limit', RUNS_PAGE_SIZE_MAX) ?? 20;
    const page = await context.api().call(endpoints.listExecutions, { query: { limit } });
    if (values.json) {
      out.out(JSON.stringify(page.runs, null, 2));
      return EXIT.ok;
    }
    if (page.runs.length === 0) {
      out.info('No runs yet');
      return EXIT.ok;
    }
    const statusColor = (run: RunSummary) =>
      run.status === 'succeeded' ? out.color.green : run.status === 'pending' ? out.color.yellow : out.color.red;
    const rows = page.runs.map((run) => [
      run.id,
      run.createdAt.replace('T', ' ').replace(/(\.\d+)?Z$/, ''),
      run.target + (run.serverId ? `:${run.serverId}` : ''),
      run.cloudState && run.status === 'pending' ? `${run.status} (${run.cloudState})` : run.status,
      run.scriptName ? `${run.scriptName}${run.scriptVersion ? ` v${run.scriptVersion}` : ''}` : '(code)',
      duration(run.durationMs),
      [run.actorName ?? run.startedBy, run.keyName ? `key "${run.keyName}"` : null].filter(Boolean).join(', '),
    ]);
    const headers = ['ID', 'WHEN (UTC)', 'TARGET', 'STATUS', 'SCRIPT', 'TOOK', 'BY'];
    const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
    const pad = (cells: string[]) =>
      cells
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd();
    out.out(out.color.bold(pad(headers)));
    rows.forEach((row, index) => {
      const line = pad(row);
      const status = row[3]!;
      // Colour the status cell alone, after padding, so the columns stay aligned.
      const start = widths.slice(0, 3).reduce((sum, width) => sum + width + 2, 0);
      out.out(line.slice(0, start) + statusColor(page.runs[index]!)(status) + line.slice(start + status.length));
    });
    return EXIT.ok;
  },
};
