import fs from 'node:fs';
import path from 'node:path';
import { CLOUD_RUN_ENDED, type CloudLogLine } from '@moonrelay/contract/cloud-runs';
import { endpoints } from '@moonrelay/contract/endpoints';
import { ExecutionTargetSchema, type ExecutionResponse, type ExecutionTarget } from '@moonrelay/contract/executions';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Run } from '@moonrelay/contract/runs';
import { ApiError, type Api } from '../api.ts';
import type { Command, Context } from '../context.ts';
import { sleep } from '../wait.ts';
import { EXIT, UsageError, type Output } from '../output.ts';
import { metaOf, toPosix } from '../project.ts';
import { diagnosticLine, shown } from './lua.ts';

/** How long `run --target game` waits for the game's result unless --timeout says. */
const GAME_WAIT_DEFAULT_SECONDS = 120;

type Source =
  { kind: 'file'; file: string; code: string; scriptId?: string } | { kind: 'script'; id: string; name: string };

/** A file path, else a script of the project or the account by name (or id). */
async function resolveSource(context: Context, given: string): Promise<Source> {
  const absolute = path.resolve(context.cwd, given);
  if (fs.existsSync(absolute) && fs.statSync(absolute).isFile()) {
    const project = context.maybeProject();
    const relative = project ? toPosix(path.relative(project.root, absolute)) : undefined;
    const scriptId = relative ? project?.data.scripts[relative]?.id : undefined;
    return { kind: 'file', file: absolute, code: fs.readFileSync(absolute, 'utf8'), ...(scriptId ? { scriptId } : {}) };
  }
  const project = context.maybeProject();
  if (project) {
    for (const [file, entry] of Object.entries(project.data.scripts)) {
      if (entry.id === given || metaOf(project, file, entry).name === given) {
        return { kind: 'script', id: entry.id, name: metaOf(project, file, entry).name };
      }
    }
  }
  let scripts;
  try {
    scripts = await context.api().call(endpoints.listScripts);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      throw new UsageError(`no file named ${given}, and finding a script by name needs the scripts:read scope`);
    }
    throw error;
  }
  const exact = scripts.filter((script) => script.id === given || script.name === given);
  const matches = exact.length ? exact : scripts.filter((script) => script.name.toLowerCase() === given.toLowerCase());
  if (matches.length === 0) throw new UsageError(`no file or script named ${given}`);
  if (matches.length > 1) {
    context.out.warn(`${matches.length} scripts are named ${given}: running the one saved last (${matches[0]!.id})`);
  }
  return { kind: 'script', id: matches[0]!.id, name: matches[0]!.name };
}

const levelOf: Record<CloudLogLine['type'], 'out' | 'info' | 'warning' | 'error'> = {
  output: 'out',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

function printLog(out: Output, line: CloudLogLine): void {
  const level = levelOf[line.type];
  if (level === 'out') out.out(line.message);
  else if (level === 'info') out.out(out.color.blue(line.message));
  else if (level === 'warning') out.out(out.color.yellow(line.message));
  else out.out(out.color.red(line.message));
}

/** Asks for the run until `done` says it ended (or the wait runs out, or Ctrl-C). */
async function follow(
  api: Api,
  context: Context,
  executionId: string,
  done: (run: Run) => boolean,
  onEach: (run: Run) => void,
  deadlineMs: number,
): Promise<Run | 'timeout' | 'stopped'> {
  let delay = 250;
  for (;;) {
    const run = await api.call(endpoints.getExecution, { params: { id: executionId } });
    onEach(run);
    if (done(run)) return run;
    if (Date.now() >= deadlineMs) return 'timeout';
    await sleep(Math.min(delay, Math.max(0, deadlineMs - Date.now())), context.signal);
    if (context.signal.aborted) return 'stopped';
    delay = Math.min(delay * 2, 1000);
  }
}

export const run: Command = {
  name: 'run',
  summary: 'Run a file or a saved script in the sandbox, a dry run, your game or Roblox (cloud)',
  help: `Usage: moonrelay run FILE|NAME [--target sandbox|dry-run|game|cloud] [--server ID] [--timeout SECONDS] [--json]

Runs a local file's code (a file moonrelay.json maps counts as a run of its script when the code is
the script's current code), or a saved script by name (or id) as it is on the server.

Targets:
  sandbox   Moonrelay's Lua sandbox (default): prints the output
  dry-run   The sandbox with an emulated Roblox game server: prints the output and what changed
  game      Your connected game server: waits for its result (default: the server pinged last)
  cloud     Roblox itself (Open Cloud Luau Execution): follows the run, printing its logs as they
            come, then its return values

Options:
  --target T         Where to run it (default sandbox)
  --server ID        Game target: which game server runs it
  --timeout SECONDS  Cloud: how long Roblox may run it (1-300, default 300).
                     Game: how long to wait for the result (default ${GAME_WAIT_DEFAULT_SECONDS})
  --json             Print one JSON document: { success, target, executionId, execution, run }

Exit codes: 0 the run succeeded, 1 it failed (or no game was connected, or the wait ran out),
2 bad usage or a refused call (a syntax error, a missing scope). Needs the execute scope.`,
  options: {
    target: { type: 'string', short: 't' },
    server: { type: 'string' },
    timeout: { type: 'string' },
    json: { type: 'boolean' },
  },
  positionals: true,
  async run(context, values, positionals) {
    const { out } = context;
    if (positionals.length !== 1) throw new UsageError('run takes one FILE or script NAME (see moonrelay run --help)');
    const parsedTarget = ExecutionTargetSchema.safeParse(values.target ?? 'sandbox');
    if (!parsedTarget.success) {
      throw new UsageError(`--target must be one of ${ExecutionTargetSchema.options.join(', ')}`);
    }
    const target: ExecutionTarget = parsedTarget.data;
    let timeout: number | undefined;
    if (values.timeout !== undefined) {
      timeout = Number(values.timeout);
      if (!Number.isInteger(timeout) || timeout < 1)
        throw new UsageError('--timeout must be a whole number of seconds');
    }
    const serverId = values.server as string | undefined;
    if (serverId !== undefined && target !== 'game') throw new UsageError('--server goes with --target game');
    const json = values.json === true;
    const api = context.api();
    const source = await resolveSource(context, positionals[0]!);
    const cloudTimeout = target === 'cloud' && timeout !== undefined ? { timeoutSeconds: timeout } : {};

    let response: ExecutionResponse;
    try {
      if (source.kind === 'file') {
        const answer = await api.call(endpoints.executeCode, {
          body: {
            code: source.code,
            target,
            ...(serverId ? { serverId } : {}),
            ...cloudTimeout,
            ...(source.scriptId ? { scriptId: source.scriptId } : {}),
          },
        });
        if (!('executionId' in answer)) throw new UsageError('the server answered a script for a game, not a run');
        response = answer;
      } else {
        response = await api.call(endpoints.executeScript, {
          params: { id: source.id },
          body: { target, ...(serverId ? { serverId } : {}), ...cloudTimeout },
        });
      }
    } catch (error) {
      if (json && error instanceof Error) {
        out.out(JSON.stringify({ success: false, target, error: error.message }, null, 2));
        return EXIT.usage;
      }
      if (error instanceof ApiError && error.message.startsWith(ERRORS.luaSyntaxPrefix) && error.issues.length) {
        const name = source.kind === 'file' ? shown(context, source.file) : source.name;
        for (const issue of error.issues) {
          const [line, column] = issue.path.split(':').map(Number);
          out.note(diagnosticLine(name, { line: line!, column: column!, message: issue.message }));
        }
        return EXIT.usage;
      }
      throw error;
    }

    const document = (success: boolean, finalRun: Run | null) => ({
      success,
      target,
      executionId: response.executionId,
      execution: response,
      run: finalRun,
    });

    // Sandbox and dry run: the answer is the result.
    if (target === 'sandbox' || target === 'dry-run') {
      if (json) {
        out.out(JSON.stringify(document(response.success, null), null, 2));
        return response.success ? EXIT.ok : EXIT.failed;
      }
      if (response.output)
        process.stdout.write(response.output.endsWith('\n') ? response.output : `${response.output}\n`);
      if (response.dryRun) {
        const summary = response.dryRun;
        const lines = [
          ...summary.created.map((item) => `created ${item.count} ${item.className}`),
          ...summary.destroyed.map((item) => `destroyed ${item.count} ${item.className}`),
          ...summary.changed.map((item) => `set ${item.instance}.${item.property} = ${item.value}`),
          ...(summary.changedOmitted ? [`…and ${summary.changedOmitted} more changes`] : []),
        ];
        out.info(
          out.errColor.bold(
            `Dry run: ${summary.gameSeconds} game seconds, ended ${summary.endedBy === 'idle' ? 'idle' : 'at its game time limit'}`,
          ),
        );
        for (const line of lines) out.info(`  ${line}`);
      }
      if (response.error) out.note(out.errColor.red(response.error));
      if (response.limit) out.note(out.errColor.red(`stopped by the sandbox's ${response.limit} limit`));
      if (response.hint) out.info(`hint: ${response.hint.message}`);
      return response.success ? EXIT.ok : EXIT.failed;
    }

    if (target === 'game') {
      if (response.gameConnected === false) {
        if (json) out.out(JSON.stringify(document(false, null), null, 2));
        else out.error(`${response.error ?? ERRORS.gameNotConnected}. ${response.instructions ?? ''}`.trim());
        return EXIT.failed;
      }
      let final: Run | null = null;
      if (response.pending) {
        const wait = timeout ?? GAME_WAIT_DEFAULT_SECONDS;
        if (!json) out.info(`sent to game server ${response.serverId ?? ''}; waiting for its result…`);
        const outcome = await follow(
          api,
          context,
          response.executionId,
          (current) => current.status !== 'pending',
          () => {},
          Date.now() + wait * 1000,
        );
        if (outcome === 'timeout' || outcome === 'stopped') {
          const why = outcome === 'timeout' ? `no result within ${wait} s` : 'stopped waiting';
          if (json) out.out(JSON.stringify({ ...document(false, null), error: why }, null, 2));
          else out.error(`${why}; the run is ${response.executionId} (moonrelay runs shows it when it ends)`);
          return outcome === 'stopped' ? 130 : EXIT.failed;
        }
        final = outcome;
      }
      const success = final ? final.status === 'succeeded' : response.success;
      const output = final ? final.output : response.output;
      const error = final ? final.error : response.error;
      if (json) {
        out.out(JSON.stringify(document(success, final), null, 2));
      } else {
        if (output) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
        if (error) out.note(out.errColor.red(error));
      }
      return success ? EXIT.ok : EXIT.failed;
    }

    // Cloud: follow the run, telling its new log lines as they appear.
    let printed = 0;
    let lastState = response.cloudState;
    let lastReason: string | null = null;
    if (!json) out.info(`cloud run ${response.executionId}: ${lastState ?? 'waiting'}`);
    const outcome = await follow(
      api,
      context,
      response.executionId,
      (current) => current.cloud == null || CLOUD_RUN_ENDED.includes(current.cloud.state),
      (current) => {
        const cloud = current.cloud;
        if (!cloud || json) return;
        for (const line of cloud.logs.slice(printed)) printLog(out, line);
        printed = Math.max(printed, cloud.logs.length);
        if (cloud.state !== lastState) out.info(`cloud run: ${cloud.state}`);
        if (cloud.waitingReason && cloud.waitingReason !== lastReason) out.info(cloud.waitingReason);
        lastState = cloud.state;
        lastReason = cloud.waitingReason;
      },
      Number.POSITIVE_INFINITY,
    );
    if (outcome === 'timeout' || outcome === 'stopped') {
      if (json) out.out(JSON.stringify({ ...document(false, null), error: 'stopped following' }, null, 2));
      else out.error(`stopped following; the run goes on in Roblox (${response.executionId})`);
      return 130;
    }
    const cloud = outcome.cloud;
    const success = cloud?.state === 'succeeded';
    if (json) {
      out.out(JSON.stringify(document(success, outcome), null, 2));
      return success ? EXIT.ok : EXIT.failed;
    }
    if (cloud?.returnValues && cloud.returnValues.length) out.out(JSON.stringify(cloud.returnValues));
    if (!success) {
      const reason = [cloud?.errorCode, cloud?.errorMessage ?? outcome.error].filter(Boolean).join(': ');
      out.error(`cloud run ${cloud?.state ?? outcome.status}${reason ? `: ${reason}` : ''}`);
    }
    return success ? EXIT.ok : EXIT.failed;
  },
};
