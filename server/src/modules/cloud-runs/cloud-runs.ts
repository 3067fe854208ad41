import {
  CLOUD_LOG_LINES_MAX,
  CLOUD_RUN_ERRORS,
  CLOUD_SCRIPT_MAX_BYTES,
  CLOUD_TIMEOUT_DEFAULT_SECONDS,
  LUAU_EXECUTION_WRITE,
  type CloudLogLine,
  type CloudPlaceStatus,
  type CloudRun,
} from '@moonrelay/contract/cloud-runs';
import type { ConsoleBatch } from '@moonrelay/contract/console';
import { CONSOLE_LINE_MAX_CHARS } from '@moonrelay/contract/constants';
import type { ExecutionResponse } from '@moonrelay/contract/executions';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { Logger } from '../../logger.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { createOutbox, leaseThrough, type HeldKey } from '../../platform/outbox.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { consoleText } from '../console/console-text.ts';
import { executionsRepo } from '../executions/executions.repo.ts';
import { runsRepo } from '../executions/runs.repo.ts';
import { toRunSummary } from '../executions/runs.service.ts';
import type { Clock } from '../open-cloud/clock.ts';
import { scopesOf } from '../open-cloud/open-cloud-keys.ts';
import { keysRepo, type KeyRow } from '../open-cloud/open-cloud.repo.ts';
import { backoffMs } from '../open-cloud/pacing.ts';
import {
  CloudUnreachable,
  createCloudCaller,
  robloxErrorText,
  type CloudAnswer,
} from '../open-cloud/roblox-open-cloud.ts';
import { publicState } from './cloud-state.ts';
import { cloudLogsRepo, cloudTasksRepo, UNFINISHED_PHASES, type CloudTaskRow } from './cloud-runs.repo.ts';
import {
  createLuauExecutionClient,
  isTaskPath,
  logPageOf,
  taskOf,
  type RobloxLogLine,
} from './luau-execution-client.ts';
import { createRateBudgets, type CloudEndpoint } from './rate-budget.ts';

export interface CloudRunsConfig {
  /** Roblox's Open Cloud (ROBLOX_OPEN_CLOUD_URL). */
  baseUrl: string;
  /** The first wait after a 429 without a time, a 5xx or no answer; each next one doubles. */
  retryBaseMs: number;
  /** How long one process holds an owner's following (the scale-out mode), renewed as it goes. */
  leaseMs: number;
  /** How often a running task is read; a queued one is read less and less often, up to 15 s. */
  pollMs: number;
  /** A task still unfinished this long after its timeout is given up on. */
  marginMs: number;
  /** Roblox's documented limit of unfinished tasks per place; a 429 on a create lowers it. */
  unfinishedPerPlace: number;
}

/** What a new cloud run is created with, checked before anything is recorded. */
export interface CloudTarget {
  universeId: string;
  placeId: string;
  placeVersion: string | null;
}

/** Console lines of cloud runs are kept under this server id, beside the live servers'. */
export const CLOUD_CONSOLE_SERVER = 'roblox-cloud';
export const CLOUD_FOLLOW_JOB = 'cloud-runs-follow';
export const CLOUD_SWEEP_MS = 1_000;
/** A queued task is read at most this seldom (its reads back off while Roblox keeps it queued). */
const QUEUED_POLL_MAX_MS = 15_000;
/** A run that Roblox's limits kept in Moonrelay's queue this long is given up on. */
const WAITING_FOR_MS = 24 * 3600_000;
/** Rows one round looks at; an owner with more waits for the next round. */
const ROUND_ROWS = 2_000;

const LOG_TYPES: Record<string, CloudLogLine['type']> = {
  OUTPUT: 'output',
  INFO: 'info',
  WARNING: 'warning',
  ERROR: 'error',
};
const CONSOLE_LEVEL: Record<CloudLogLine['type'], 'output' | 'info' | 'warning' | 'error'> = {
  output: 'output',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

/** The run's output as the Runs page shows it: one line per message, warnings and errors marked. */
export function outputText(lines: Pick<CloudLogLine, 'message' | 'type'>[]): string {
  return lines
    .map((line) =>
      line.type === 'warning'
        ? `Warning: ${line.message}`
        : line.type === 'error'
          ? `Error: ${line.message}`
          : line.message,
    )
    .join('\n');
}

type Ending =
  | { phase: 'succeeded'; results: unknown[] }
  | { phase: 'failed' | 'timed_out' | 'cancelled'; errorCode: string; error: string; results?: unknown[] };

export interface ConsoleSink {
  ingest(userId: string, serverId: string, batch: ConsoleBatch): void;
}

/**
 * Cloud runs: a durable queue of Luau Execution tasks per owner (one row per run, written with the
 * run), created oldest first within Roblox's limits as its answers state them, and followed to their
 * end by whichever process holds the owner's lease. Each round does what is due and returns; the
 * sweep (every second) hands out owners with work due, so no job slot is held while Roblox runs.
 */
export function createCloudRuns(deps: {
  db: Db;
  jobs: JobQueue;
  box: SecretBox;
  bus: EventBus;
  clock: Clock;
  config: CloudRunsConfig;
  logger: Logger;
  console?: ConsoleSink;
  /** The key's scopes from Roblox, for a key saved before they were asked (null: Roblox did not say). */
  introspect: (apiKey: string) => Promise<string[] | null>;
  onlyProcess: boolean;
}) {
  const { db, box, bus, clock, config, logger } = deps;
  const iso = (ms = clock.now()) => new Date(ms).toISOString();
  const client = createLuauExecutionClient(createCloudCaller({ baseUrl: config.baseUrl, now: () => clock.now() }));
  const budgets = createRateBudgets({ now: () => clock.now(), retryBaseMs: config.retryBaseMs });
  /** A place's limit of unfinished tasks, lowered where Roblox refused a create under the documented one. */
  const placeLimits = new Map<string, number>();
  /** Aborted by stop(): reads in flight are cut (their rows stay as they were). Creates are never cut. */
  let stopping = new AbortController();
  let lastSeq = 0;
  const nextSeq = (nowMs: number) => (lastSeq = Math.max(lastSeq + 1, nowMs * 1000));

  /** Calls one endpoint, spending one of the owner's budget for it and noting what Roblox says is left. */
  async function withinBudget(
    ownerId: string,
    endpoint: CloudEndpoint,
    send: () => Promise<CloudAnswer>,
  ): Promise<CloudAnswer> {
    budgets.spend(ownerId, endpoint);
    const answer = await send();
    budgets.note(ownerId, endpoint, answer);
    return answer;
  }

  const canCall = (ownerId: string, endpoint: CloudEndpoint) => budgets.nextAllowed(ownerId, endpoint) <= clock.now();

  function publishLogs(row: CloudTaskRow, phase: string, lines: CloudLogLine[]) {
    bus.publish({
      type: 'execution:logs',
      userId: row.ownerId,
      executionId: row.executionId,
      state: publicState(phase),
      lines,
    });
  }

  async function publishRun(executionId: string): Promise<void> {
    const updated = await runsRepo.summary(db, executionId);
    if (updated) bus.publish({ type: 'execution:updated', userId: updated.userId, run: toRunSummary(updated) });
  }

  /** Moves a row on; tells the screens when its phase changed. False when the run ended meanwhile. */
  async function move(row: CloudTaskRow, patch: Parameters<typeof cloudTasksRepo.update>[2]): Promise<boolean> {
    const moved = await cloudTasksRepo.update(db, row.executionId, patch);
    if (moved && patch.phase && patch.phase !== row.phase) {
      publishLogs(row, patch.phase, []);
      await publishRun(row.executionId);
    }
    return moved;
  }

  /** Keeps new log lines (to CLOUD_LOG_LINES_MAX), tells the run's screens and the console. */
  async function keepLines(row: CloudTaskRow, lines: RobloxLogLine[], phase: string): Promise<number> {
    const room = Math.max(0, CLOUD_LOG_LINES_MAX - row.logCount);
    const kept = lines.slice(0, room).map((line, index) => ({
      executionId: row.executionId,
      seq: row.logCount + index,
      // Printed by a script: made safe to store and show as the console's lines are (no NUL, which
      // PostgreSQL's text cannot hold, no control characters or lone surrogates).
      message: consoleText(line.message),
      type: LOG_TYPES[line.messageType] ?? 'output',
      time:
        line.createTime && !Number.isNaN(Date.parse(line.createTime)) ? new Date(line.createTime).toISOString() : null,
    }));
    if (kept.length === 0) return 0;
    await cloudLogsRepo.append(db, kept);
    const told = kept.map(({ message, type, time }) => ({ message, type: type as CloudLogLine['type'], time }));
    publishLogs(row, phase, told);
    deps.console?.ingest(row.ownerId, CLOUD_CONSOLE_SERVER, {
      lines: told.map((line) => ({
        time: line.time ? Date.parse(line.time) : clock.now(),
        level: CONSOLE_LEVEL[line.type],
        text: line.message.slice(0, CONSOLE_LINE_MAX_CHARS),
      })),
    });
    return kept.length;
  }

  /**
   * Reads the task's new log lines, page after page while the logs budget lasts. Roblox's pages are
   * read from the last page's token; the lines of that page kept already are skipped, so a line is
   * kept once however often its page is read. Answers whether every line there is was read.
   */
  async function readLogs(row: CloudTaskRow, apiKey: string, phase: string): Promise<boolean> {
    let token = row.logsPageToken;
    let skip = row.logsPageSkip;
    let count = row.logCount;
    for (;;) {
      if (!canCall(row.ownerId, 'logs') || stopping.signal.aborted) return false;
      let answer: CloudAnswer;
      try {
        answer = await withinBudget(row.ownerId, 'logs', () =>
          client.listLogs(apiKey, row.taskPath!, token, stopping.signal),
        );
      } catch (error) {
        // Not read this time (no answer, or a stop): read again from the same place at the next poll.
        if (error instanceof CloudUnreachable) return false;
        throw error;
      }
      if (answer.status !== 200) return false;
      const page = logPageOf(answer);
      const fresh = page.lines.slice(skip);
      count += await keepLines({ ...row, logCount: count }, fresh, phase);
      if (page.nextPageToken) {
        token = page.nextPageToken;
        skip = 0;
      } else {
        skip = page.lines.length;
      }
      await cloudTasksRepo.update(db, row.executionId, { logsPageToken: token, logsPageSkip: skip, logCount: count });
      if (!page.nextPageToken) return true;
    }
  }

  /** Ends a run: the task's row (once: false when it had ended), then the run and its screens. */
  async function finish(row: CloudTaskRow, ending: Ending): Promise<void> {
    const ended = await cloudTasksRepo.update(db, row.executionId, {
      state: 'done',
      phase: ending.phase,
      errorCode: ending.phase === 'succeeded' ? null : ending.errorCode,
      error: ending.phase === 'succeeded' ? null : ending.error,
      results: ending.results ? JSON.stringify(ending.results) : null,
      waitingReason: null,
      doneAt: iso(),
    });
    if (ended) await endRun(row, ending);
  }

  /** The run of an ended task: its output from the kept lines, its error as Roblox gave it, its screens told. */
  async function endRun(row: CloudTaskRow, ending: Ending): Promise<void> {
    const now = clock.now();
    const lines = await cloudLogsRepo.list(db, row.executionId, CLOUD_LOG_LINES_MAX);
    const output = outputText(
      lines.map((line) => ({ message: line.message, type: line.type as CloudLogLine['type'] })),
    );
    const success = ending.phase === 'succeeded';
    const runError = ending.phase === 'succeeded' ? null : `${ending.errorCode}: ${ending.error}`;
    const durationMs = row.acceptedAt ? Math.max(0, now - Date.parse(row.acceptedAt)) : 0;
    await executionsRepo.complete(db, row.executionId, {
      status: success ? 'succeeded' : 'failed',
      output,
      error: runError,
      durationMs,
    });
    publishLogs(row, ending.phase, []);
    await publishRun(row.executionId);
    bus.publish({
      type: 'execution:result',
      userId: row.ownerId,
      execution: {
        success,
        output,
        error: runError,
        target: 'cloud',
        executionId: row.executionId,
        durationMs,
        queued: true,
        cloudState: ending.phase,
      },
    });
  }

  const later = (row: CloudTaskRow, answer: CloudAnswer | null) =>
    clock.now() + (answer?.retryAfterMs ?? backoffMs(config.retryBaseMs, row.attempts + 1));

  /** Asks Roblox to create the task; the row is marked creating first, so a restart never sends it again. */
  async function create(row: CloudTaskRow, apiKey: string): Promise<void> {
    if (!(await move(row, { phase: 'creating', createSentAt: iso(), waitingReason: null }))) return;
    let answer: CloudAnswer;
    try {
      answer = await withinBudget(row.ownerId, 'create', () =>
        client.createTask(
          apiKey,
          { universeId: row.universeId, placeId: row.placeId, placeVersion: row.placeVersion },
          { script: row.script, timeoutSeconds: row.timeoutSeconds },
        ),
      );
    } catch (error) {
      if (!(error instanceof CloudUnreachable)) throw error;
      // Refused before it left: sending it again cannot start it twice.
      if (error.notSent) {
        await move(row, {
          phase: 'waiting',
          createSentAt: null,
          attempts: row.attempts + 1,
          waitingReason: `Waiting for Roblox: it could not be reached (${error.message})`,
          nextAttemptAt: iso(later(row, null)),
        });
        return;
      }
      await finish(row, { phase: 'failed', errorCode: 'UNKNOWN', error: CLOUD_RUN_ERRORS.createUnknown });
      return;
    }
    const task = answer.status === 200 ? taskOf(answer) : undefined;
    if (task && isTaskPath(task.path)) {
      await move(row, {
        phase: task.state === 'PROCESSING' ? 'running' : 'queued',
        taskPath: task.path,
        acceptedAt: iso(),
        attempts: 0,
        nextAttemptAt: iso(clock.now() + config.pollMs),
      });
      return;
    }
    // 429 and 503 say Roblox took nothing: the create is sent again when allowed. A 500, 502, 504 or
    // 408 may come after Roblox made the task: as with a lost answer, it is not sent again.
    if (answer.status === 408 || (answer.status >= 500 && answer.status !== 503)) {
      await finish(row, {
        phase: 'failed',
        errorCode: 'UNKNOWN',
        error: `${CLOUD_RUN_ERRORS.createUnknown} (Roblox answered ${answer.status}: ${robloxErrorText(answer)})`,
      });
      return;
    }
    if (answer.status === 429 || answer.status === 503) {
      const wait = answer.status === 429 ? budgets.nextAllowed(row.ownerId, 'create') : later(row, answer);
      await move(row, {
        phase: 'waiting',
        createSentAt: null,
        attempts: row.attempts + 1,
        waitingReason: `Waiting for Roblox: ${robloxErrorText(answer)}`,
        nextAttemptAt: iso(Math.max(wait, clock.now() + 1)),
      });
      return;
    }
    // 400 (the script, the timeout), 401/403 (the key, its scope, the universe), 404 (the place or
    // version): the same request would be refused again. Roblox's own words are kept.
    const code = (answer.body as { code?: unknown } | null)?.code;
    await finish(row, {
      phase: 'failed',
      errorCode: typeof code === 'string' ? code : `HTTP_${answer.status}`,
      error: `Roblox refused the task (${answer.status}): ${robloxErrorText(answer)}`,
    });
  }

  /** Reads the task once; reads its logs while it runs, and all of them once it ended. */
  async function poll(row: CloudTaskRow, apiKey: string): Promise<void> {
    let answer: CloudAnswer;
    try {
      answer = await withinBudget(row.ownerId, 'read', () => client.getTask(apiKey, row.taskPath!, stopping.signal));
    } catch (error) {
      if (!(error instanceof CloudUnreachable)) throw error;
      if (stopping.signal.aborted) return;
      await move(row, { attempts: row.attempts + 1, nextAttemptAt: iso(later(row, null)) });
      return;
    }
    if (answer.status === 404) {
      await finish(row, {
        phase: 'failed',
        errorCode: 'NOT_FOUND',
        error: `${CLOUD_RUN_ERRORS.lost}: ${robloxErrorText(answer)}`,
      });
      return;
    }
    if (answer.status === 401 || answer.status === 403) {
      await finish(row, { phase: 'failed', errorCode: `HTTP_${answer.status}`, error: robloxErrorText(answer) });
      return;
    }
    const task = answer.status === 200 ? taskOf(answer) : undefined;
    if (!task) {
      const wait = answer.status === 429 ? budgets.nextAllowed(row.ownerId, 'read') : later(row, answer);
      await move(row, { attempts: row.attempts + 1, nextAttemptAt: iso(Math.max(wait, clock.now() + 1)) });
      return;
    }
    if (task.state === 'QUEUED') {
      // Roblox has not started it: each read waits longer, so queued tasks spend little of the budget.
      const waitMs = Math.min(QUEUED_POLL_MAX_MS, config.pollMs * 2 ** Math.min(row.attempts, 8));
      await move(row, { phase: 'queued', attempts: row.attempts + 1, nextAttemptAt: iso(clock.now() + waitMs) });
      return;
    }
    if (task.state === 'PROCESSING') {
      if (row.phase !== 'running') await move(row, { phase: 'running' });
      await readLogs(row, apiKey, 'running');
      await cloudTasksRepo.update(db, row.executionId, {
        attempts: 0,
        nextAttemptAt: iso(clock.now() + config.pollMs),
      });
      return;
    }
    // Ended: its last lines are read before the run ends, now or when the logs budget allows.
    const current = (await cloudTasksRepo.find(db, row.executionId)) ?? row;
    if (!(await readLogs({ ...current, phase: 'ending' }, apiKey, 'ending'))) {
      await move(current, {
        phase: 'ending',
        nextAttemptAt: iso(Math.max(budgets.nextAllowed(row.ownerId, 'logs'), clock.now() + config.pollMs)),
      });
      return;
    }
    const results = Array.isArray(task.output?.results) ? task.output.results : undefined;
    // A run that ended well returned something, if only nothing ([]); a failed one keeps what Roblox gave, if any.
    if (task.state === 'COMPLETE') await finish(current, { phase: 'succeeded', results: results ?? [] });
    else
      await finish(current, {
        // Roblox's own timeout is a timed-out run, as Moonrelay's margin is.
        phase:
          task.state === 'CANCELLED' ? 'cancelled' : task.error?.code === 'DEADLINE_EXCEEDED' ? 'timed_out' : 'failed',
        errorCode: task.error?.code ?? (task.state === 'CANCELLED' ? 'CANCELLED' : 'INTERNAL_ERROR'),
        error: task.error?.message ?? (task.state === 'CANCELLED' ? 'Roblox cancelled the task' : 'The task failed'),
        ...(results?.length ? { results } : {}),
      });
  }

  /** Without a key nothing can create or read the owner's tasks: their runs end, saying why. */
  async function failedWithoutKey(ownerId: string): Promise<boolean> {
    if (await keysRepo.find(db, ownerId)) return false;
    for (const row of await cloudTasksRepo.pending(db, ownerId, ROUND_ROWS)) {
      const sent = row.phase !== 'waiting';
      await finish(row, {
        phase: 'failed',
        errorCode: 'NO_KEY',
        error: sent ? CLOUD_RUN_ERRORS.keyRemoved : CLOUD_RUN_ERRORS.noKey,
      });
    }
    return true;
  }

  /** One round for an owner: what is due now, within the budgets; the sweep brings the owner back. */
  async function round(ownerId: string, lease: HeldKey): Promise<void> {
    const keyRow = await keysRepo.find(db, ownerId);
    if (!keyRow) {
      await failedWithoutKey(ownerId);
      return;
    }
    const apiKey = box.open(keyRow.keySealed);
    const rows = await cloudTasksRepo.pending(db, ownerId, ROUND_ROWS);
    const now = clock.now();
    const due = (row: CloudTaskRow) => Date.parse(row.nextAttemptAt) <= now;
    const live: CloudTaskRow[] = [];
    for (const row of rows) {
      if (stopping.signal.aborted) return;
      // Only this round works on the owner, so a row found creating was cut off by a process that stopped.
      if (row.phase === 'creating') {
        await finish(row, { phase: 'failed', errorCode: 'UNKNOWN', error: CLOUD_RUN_ERRORS.createUnknown });
      } else if (row.acceptedAt && now > Date.parse(row.acceptedAt) + row.timeoutSeconds * 1000 + config.marginMs) {
        await finish(row, { phase: 'timed_out', errorCode: 'DEADLINE_EXCEEDED', error: CLOUD_RUN_ERRORS.didNotFinish });
      } else if (row.phase === 'waiting' && now > Date.parse(row.createdAt) + WAITING_FOR_MS) {
        await finish(row, {
          phase: 'failed',
          errorCode: 'RESOURCE_EXHAUSTED',
          error: `Roblox's limits kept it waiting for 24 hours (${row.waitingReason ?? 'waiting for Roblox'})`,
        });
      } else live.push(row);
    }

    // Tasks Roblox holds first: reading them is what frees the place for the waiting ones.
    for (const row of live) {
      if (stopping.signal.aborted) return;
      if (row.phase === 'waiting' || !due(row)) continue;
      if (!canCall(ownerId, 'read')) {
        await cloudTasksRepo.postpone(
          db,
          ownerId,
          ['queued', 'running', 'ending'],
          iso(budgets.nextAllowed(ownerId, 'read')),
        );
        break;
      }
      await lease.keep();
      await poll(row, apiKey);
    }

    const after = await cloudTasksRepo.pending(db, ownerId, ROUND_ROWS);
    const unfinished = new Map<string, number>();
    for (const row of after)
      if ((UNFINISHED_PHASES as readonly string[]).includes(row.phase) || row.phase === 'ending')
        unfinished.set(row.placeId, (unfinished.get(row.placeId) ?? 0) + 1);
    for (const row of after) {
      if (stopping.signal.aborted) return;
      if (row.phase !== 'waiting' || Date.parse(row.nextAttemptAt) > clock.now()) continue;
      const limit = placeLimits.get(row.placeId) ?? config.unfinishedPerPlace;
      const inPlace = unfinished.get(row.placeId) ?? 0;
      if (inPlace >= limit) {
        const reason = `Waiting for Roblox: ${inPlace} unfinished tasks in place ${row.placeId}, its limit`;
        // Checked again when one of them ends (a read above), or at the next sweep.
        if (row.waitingReason !== reason) await move(row, { waitingReason: reason });
        continue;
      }
      if (!canCall(ownerId, 'create')) {
        const until = budgets.nextAllowed(ownerId, 'create');
        const reason = `Waiting for Roblox: its limit of new tasks a minute (the next at ${iso(until)})`;
        // Every waiting run says so, not only the next one.
        await cloudTasksRepo.postpone(db, ownerId, ['waiting'], iso(until), reason);
        break;
      }
      await lease.keep();
      const before = inPlace;
      await create(row, apiKey);
      const created = await cloudTasksRepo.find(db, row.executionId);
      if (created && created.phase !== 'waiting') unfinished.set(row.placeId, before + 1);
      // Refused for the place's unfinished tasks under the documented limit: that many is its limit now.
      else if (created?.state === 'pending' && before > 0 && /unfinished|concurrent/i.test(created.waitingReason ?? ''))
        placeLimits.set(row.placeId, before);
    }
  }

  const following = createOutbox({
    job: CLOUD_FOLLOW_JOB,
    keyField: 'ownerId',
    jobs: deps.jobs,
    onlyProcess: deps.onlyProcess,
    lease: leaseThrough(keysRepo.leases.followingUntil, (work) => work(db)),
    leaseMs: config.leaseMs,
    beforeLease: async (ownerId) => !(await failedWithoutKey(ownerId)),
    round,
    due: (now, limit) => cloudTasksRepo.dueOwners(db, now, limit),
    now: () => clock.now(),
    stopping: () => stopping.signal.aborted,
  });

  let sweepsSincePrune = 0;
  async function sweep(): Promise<void> {
    await following.sweep();
    sweepsSincePrune += 1;
    if (sweepsSincePrune * CLOUD_SWEEP_MS < 60_000) return;
    sweepsSincePrune = 0;
    await cloudTasksRepo.pruneDone(db, iso(clock.now() - 24 * 3600_000));
  }

  /** The key's scopes, asked of Roblox (and kept) when the key was saved before they were asked. */
  async function keyScopes(keyRow: KeyRow): Promise<string[] | null> {
    const known = scopesOf(keyRow);
    if (known) return known;
    const asked = await deps.introspect(box.open(keyRow.keySealed));
    if (asked) await keysRepo.update(db, keyRow.userId, { scopes: JSON.stringify(asked) });
    return asked;
  }

  /**
   * Checks that the owner can run code in Roblox before anything is recorded: a key, its scope
   * (as Roblox's introspection names it), a place, and a script within Roblox's limit.
   */
  async function cloudTarget(ownerId: string, code: string): Promise<CloudTarget> {
    if (Buffer.byteLength(code, 'utf8') > CLOUD_SCRIPT_MAX_BYTES)
      throw new AppError(413, CLOUD_RUN_ERRORS.scriptTooLarge);
    const keyRow = await keysRepo.find(db, ownerId);
    if (!keyRow) throw new AppError(400, CLOUD_RUN_ERRORS.noKey);
    const scopes = await keyScopes(keyRow);
    if (scopes && !scopes.includes(LUAU_EXECUTION_WRITE))
      throw new AppError(400, CLOUD_RUN_ERRORS.missingScope(LUAU_EXECUTION_WRITE));
    if (!keyRow.placeId) throw new AppError(400, CLOUD_RUN_ERRORS.noPlace);
    return { universeId: keyRow.universeId, placeId: keyRow.placeId, placeVersion: keyRow.placeVersion };
  }

  let loop: Promise<void> | undefined;

  return {
    target: cloudTarget,

    /** Where the owner's cloud runs would run, and what is missing when one cannot start. */
    async placeStatus(ownerId: string): Promise<CloudPlaceStatus> {
      const keyRow = await keysRepo.find(db, ownerId);
      const place = {
        universeId: keyRow?.universeId ?? null,
        placeId: keyRow?.placeId ?? null,
        placeVersion: keyRow?.placeVersion ?? null,
      };
      try {
        await cloudTarget(ownerId, '');
        return { ...place, ready: true, reason: null };
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return { ...place, ready: false, reason: error.message };
        throw error;
      }
    },

    /** Writes the run's task (in the run's own transaction): durable before anything is sent. */
    async queue(
      trx: Db,
      run: { executionId: string; ownerId: string; code: string; timeoutSeconds?: number },
      target: CloudTarget,
    ): Promise<void> {
      const now = clock.now();
      await cloudTasksRepo.insert(trx, {
        executionId: run.executionId,
        ownerId: run.ownerId,
        universeId: target.universeId,
        placeId: target.placeId,
        placeVersion: target.placeVersion,
        script: run.code,
        timeoutSeconds: run.timeoutSeconds ?? CLOUD_TIMEOUT_DEFAULT_SECONDS,
        seq: nextSeq(now),
        state: 'pending',
        phase: 'waiting',
        nextAttemptAt: iso(now),
        attempts: 0,
        logsPageSkip: 0,
        logCount: 0,
        createdAt: iso(now),
      });
    },

    /** Asks for a round for the owner now (after a run was queued). */
    async follow(ownerId: string): Promise<void> {
      await following.hand(ownerId);
    },

    /** The answer to the execute call: the run is queued, its logs and result follow. */
    answer(executionId: string): ExecutionResponse {
      return {
        success: true,
        queued: true,
        pending: true,
        output: '',
        error: null,
        target: 'cloud',
        executionId,
        durationMs: 0,
        cloudState: 'waiting',
      };
    },

    /** The task part of a run's detail; undefined for a run with no task. */
    async detail(executionId: string): Promise<CloudRun | undefined> {
      const row = await cloudTasksRepo.find(db, executionId);
      if (!row) return undefined;
      const logs = await cloudLogsRepo.list(db, executionId, CLOUD_LOG_LINES_MAX);
      let returnValues: unknown[] | null = null;
      try {
        returnValues = row.results ? (JSON.parse(row.results) as unknown[]) : null;
      } catch {
        returnValues = null;
      }
      return {
        state: publicState(row.phase),
        universeId: row.universeId,
        placeId: row.placeId,
        placeVersion: row.placeVersion,
        timeoutSeconds: row.timeoutSeconds,
        taskPath: row.taskPath,
        waitingReason: row.waitingReason,
        errorCode: row.errorCode,
        errorMessage: row.error,
        returnValues,
        logs: logs.map((line) => ({ message: line.message, type: line.type as CloudLogLine['type'], time: line.time })),
        startedAt: row.acceptedAt,
        finishedAt: row.doneAt,
      };
    },

    /** Cancels a run still in Moonrelay's queue; a run Roblox took is a 409. */
    async cancel(ownerId: string, executionId: string): Promise<void> {
      const row = await cloudTasksRepo.find(db, executionId);
      if (!row || row.ownerId !== ownerId) throw new AppError(404, 'Execution not found');
      const ending = { phase: 'cancelled', errorCode: 'CANCELLED', error: CLOUD_RUN_ERRORS.cancelled } as const;
      // Guarded on the phase: of a cancel and the create that would send it, one wins.
      const cancelled = await cloudTasksRepo.cancelWaiting(db, executionId, {
        state: 'done',
        phase: 'cancelled',
        errorCode: ending.errorCode,
        error: ending.error,
        waitingReason: null,
        doneAt: iso(),
      });
      if (!cancelled) throw new AppError(409, CLOUD_RUN_ERRORS.notCancellable);
      await endRun(row, ending);
    },

    round,
    sweep,

    start(): void {
      if (loop) return;
      stopping = new AbortController();
      const signal = stopping.signal;
      loop = (async () => {
        while (!signal.aborted) {
          await sweep().catch((error: unknown) => logger.error({ err: error }, 'cloud runs sweep failed'));
          await clock.sleep(CLOUD_SWEEP_MS, signal);
        }
      })();
    },

    /** Stops the sweep, cuts reads in flight and waits for the rounds (a create call out ends first). */
    async stop(): Promise<void> {
      stopping.abort();
      await loop;
      loop = undefined;
      await following.idle();
    },
  };
}

export type CloudRuns = ReturnType<typeof createCloudRuns>;
