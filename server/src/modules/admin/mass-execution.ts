import crypto from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { MassExecutionRequest, MassExecutionResponse, MassProgress } from '@moonrelay/contract/admin';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { databaseUnavailable } from '../../db/errors.ts';
import { AppError } from '../../http/app-error.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { AUDIT_ACTIONS, AUDIT_CODE_EXCERPT, type AuditActor, type AuditService } from '../audit/audit.service.ts';
import type { ExecutionsService } from '../executions/executions.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { adminRepo } from './admin.repo.ts';
import { commandDetails } from './admin.service.ts';
import { derivedId, type MassProgressStore } from './mass-progress.ts';

export const MASS_EXECUTION_JOB = 'mass-execution';

/** Pauses between tries to record a failed part while the database is away (about 30 s in all). */
const FAILURE_RECORD_PAUSES_MS = [100, 250, 500, 1000, 2000, 4000, 8000, 8000, 8000];

interface MassJob {
  batchId: string;
  userId: string;
  /** The admin who started the batch. */
  initiatedBy: string | null;
  command?: MassExecutionRequest['command'];
  code?: string;
}

/**
 * Mass execution: one job per selected user on the job queue. Each job claims its user's part in
 * the database (mass_execution_items), then sends the command (or runs the script) on that user's
 * game. Progress is the database's: every step moves the part's row forward and is pushed to the
 * admins' screens (`mass:progress`); a command's or run's outcome moves it wherever it is recorded,
 * so a worker dying mid-batch leaves nothing stuck. A part is claimed once and its command or run
 * id is derived from the batch and the user, so a job the queue runs again sends nothing twice.
 */
export function createMassExecution(deps: {
  db: Db;
  jobs: JobQueue;
  audit: AuditService;
  gameLink: GameLinkService;
  executions: ExecutionsService;
  luaTools: HttpLuaTools;
  progress: MassProgressStore;
}) {
  const { progress } = deps;

  async function runPart(job: MassJob): Promise<void> {
    const part = { batchId: job.batchId, userId: job.userId };
    if (job.command) {
      const commandId = derivedId('mass-command', job.batchId, job.userId);
      if (!(await progress.claim(job.batchId, job.userId, { commandId }))) return alreadyTaken(job);
      if (!(await deps.gameLink.executionServer(job.userId, undefined))) {
        await progress.advance(part, { status: 'not_connected', error: ERRORS.gameNotConnected });
        return;
      }
      // The command (a broadcast to every live server of the user) carries the part's id.
      await deps.gameLink.send(job.userId, job.command, 'admin', undefined, commandId);
      await progress.advance(part, { status: 'sent' });
      return;
    }
    const executionId = derivedId('mass-run', job.batchId, job.userId);
    // Checked when the batch started; checked here before the claim too, so the run's own check finds
    // the syntax checker warm and the claimed part's run is recorded and queued at once.
    await deps.luaTools.assertValidSyntax(job.code!);
    if (!(await progress.claim(job.batchId, job.userId, { executionId }))) return alreadyTaken(job);
    const result = await deps.executions.runCode(job.userId, job.code!, 'game', undefined, {
      initiatedBy: job.initiatedBy ?? undefined,
      executionId,
    });
    if (!result.gameConnected) {
      await progress.advance(part, { status: 'not_connected', output: null, error: result.error });
    } else if (result.pending) {
      await progress.advance(part, { status: 'sent' });
    } else {
      await progress.advance(part, {
        status: result.success ? 'succeeded' : 'failed',
        output: result.output,
        error: result.error,
      });
    }
  }

  /**
   * The part was claimed before (this job ran already, on a worker that died): send nothing. The
   * queue runs a job again only once its first worker stopped renewing its lock, so a part that
   * worker claimed but never sent never will be: it ends failed now, not after a command's lifetime.
   */
  async function alreadyTaken(job: MassJob): Promise<void> {
    const item = await progress.find(job.batchId, job.userId);
    if (!item) return;
    if (item.status === 'sending' && !(await progress.wasSent(item))) {
      await progress.advance(
        { batchId: job.batchId, userId: job.userId },
        { status: 'failed', output: null, error: ERRORS.massPartNeverSent },
      );
      return;
    }
    progress.republish(item);
  }

  /**
   * Records a part's failure. The error that failed the part is often the database going away (a
   * failover cuts every session), and then the first try to record it fails too: the part would
   * stay 'sending' until the sweep ends it after a command's lifetime. So it is tried again, with a
   * growing pause, for about half a minute; the job keeps its place in the queue meanwhile.
   */
  async function recordFailure(job: MassJob, error: unknown): Promise<void> {
    const message = databaseUnavailable(error)
      ? ERRORS.databaseUnavailable
      : error instanceof Error
        ? error.message
        : 'The job failed';
    for (let attempt = 0; ; attempt++) {
      try {
        await progress.jobFailed(job.batchId, job.userId, message);
        return;
      } catch (recordError) {
        if (attempt >= FAILURE_RECORD_PAUSES_MS.length) throw recordError;
        await delay(FAILURE_RECORD_PAUSES_MS[attempt]);
      }
    }
  }

  deps.jobs.register<MassJob>(MASS_EXECUTION_JOB, async (job) => {
    try {
      await runPart(job);
    } catch (error) {
      await recordFailure(job, error);
    }
  });

  return {
    async start(actor: AuditActor, request: MassExecutionRequest): Promise<MassExecutionResponse> {
      const code =
        request.code ??
        (request.command && 'code' in (request.command.data ?? {})
          ? (request.command.data as { code: string }).code
          : undefined);
      if (code !== undefined) await deps.luaTools.assertValidSyntax(code);
      const userIds = [...new Set(request.userIds)];
      const known = new Set((await adminRepo.existingUserIds(deps.db, userIds)).map((row) => row.id));
      const batchId = crypto.randomUUID();
      await deps.audit.record({
        actor,
        action: AUDIT_ACTIONS.adminMassExecution,
        targetType: 'batch',
        targetId: batchId,
        details: {
          userIds,
          ...(request.command
            ? { command: commandDetails(request.command) }
            : { code: request.code!.slice(0, AUDIT_CODE_EXCERPT) }),
        },
      });
      const items: MassProgress[] = userIds.map((userId) =>
        known.has(userId)
          ? { batchId, userId, status: 'queued', commandId: null, output: null, error: null }
          : { batchId, userId, status: 'failed', commandId: null, output: null, error: ERRORS.userNotFound },
      );
      // Recorded before any job is queued, so a job always finds its part to claim.
      await progress.createBatch(items, { initiatedBy: actor.id, kind: request.command ? 'command' : 'code' });
      for (const userId of userIds) {
        if (!known.has(userId)) continue;
        await deps.jobs.enqueue<MassJob>(MASS_EXECUTION_JOB, {
          batchId,
          userId,
          initiatedBy: actor.id,
          command: request.command,
          code: request.code,
        });
      }
      return { batchId, items };
    },

    /** A batch's parts as recorded (404 for a batch that does not exist). */
    async batch(batchId: string): Promise<MassExecutionResponse> {
      const items = await progress.batch(batchId);
      if (items.length === 0) throw new AppError(404, ERRORS.massExecutionNotFound);
      return { batchId, items };
    },
  };
}

export type MassExecution = ReturnType<typeof createMassExecution>;
