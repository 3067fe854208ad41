import crypto from 'node:crypto';
import type {
  MassExecutionRequest,
  MassExecutionResponse,
  MassProgress,
  MassProgressStatus,
} from '@moonrelay/contract/admin';
import type { CommandView } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import type { EventBus } from '../../platform/event-bus.ts';
import type { JobQueue } from '../../platform/job-queue.ts';
import { AUDIT_ACTIONS, AUDIT_CODE_EXCERPT, type AuditActor, type AuditService } from '../audit/audit.service.ts';
import type { ExecutionsService } from '../executions/executions.service.ts';
import type { GameLinkService } from '../game/game-link.service.ts';
import type { HttpLuaTools } from '../lua-tools/lua-tools.http.ts';
import { commandsRepo } from '../game/commands.repo.ts';
import { toCommandView } from '../game/commands.service.ts';
import { adminRepo } from './admin.repo.ts';
import { commandDetails } from './admin.service.ts';

export const MASS_EXECUTION_JOB = 'mass-execution';

interface MassJob {
  batchId: string;
  userId: string;
  /** The admin who started the batch. */
  initiatedBy: string | null;
  command?: MassExecutionRequest['command'];
  code?: string;
}

const COMMAND_STATUS: Record<CommandView['status'], MassProgressStatus> = {
  queued: 'sent',
  delivered: 'delivered',
  succeeded: 'succeeded',
  failed: 'failed',
  expired: 'expired',
};
const FINAL = new Set<MassProgressStatus>(['succeeded', 'failed', 'expired', 'not_connected']);

/**
 * Mass execution: one job per selected user on the job queue. Each job sends the command (or runs
 * the script) on that user's game; every step of every user's part is pushed to the admins'
 * screens (`mass:progress`), following the commands and executions it started until they end.
 */
export function createMassExecution(deps: {
  db: Db;
  bus: EventBus;
  jobs: JobQueue;
  audit: AuditService;
  gameLink: GameLinkService;
  executions: ExecutionsService;
  luaTools: HttpLuaTools;
}) {
  const { bus } = deps;
  /** Commands and executions still running, by id: whose part of which batch they are. */
  const followed = new Map<string, { batchId: string; userId: string; commandId: string | null }>();

  const report = (progress: MassProgress) => {
    bus.publish({ type: 'mass:progress', progress });
  };

  /** A followed command moved on: its part of the batch moves with it (screens never move a row back). */
  const followCommand = (command: CommandView) => {
    const part = followed.get(command.id);
    if (!part) return;
    const status = COMMAND_STATUS[command.status];
    if (FINAL.has(status)) followed.delete(command.id);
    report({ ...part, status, output: command.output, error: command.error });
  };

  bus.subscribe((event) => {
    if (event.type === 'command:update') {
      followCommand(event.command);
    } else if (event.type === 'execution:result') {
      const part = followed.get(event.execution.executionId);
      if (!part) return;
      followed.delete(event.execution.executionId);
      report({
        ...part,
        status: event.execution.success ? 'succeeded' : 'failed',
        output: event.execution.output,
        error: event.execution.error,
      });
    }
  });

  async function runPart(job: MassJob): Promise<void> {
    const part = { batchId: job.batchId, userId: job.userId };
    if (job.command) {
      if (!(await deps.gameLink.executionServer(job.userId, undefined))) {
        report({ ...part, status: 'not_connected', commandId: null, output: null, error: ERRORS.gameNotConnected });
        return;
      }
      const rows = await deps.gameLink.send(job.userId, job.command, 'admin');
      for (const row of rows) followed.set(row.id, { ...part, commandId: row.id });
      report({ ...part, status: 'sent', commandId: rows[0]!.id, output: null, error: null });
      // A long-polling game may have taken (even answered) a command before it was followed: catch up.
      for (const row of rows) {
        const current = await commandsRepo.findForUser(deps.db, job.userId, row.id);
        if (current && current.status !== 'queued') followCommand(toCommandView(current));
      }
      return;
    }
    const result = await deps.executions.runCode(
      job.userId,
      job.code!,
      'game',
      undefined,
      job.initiatedBy ?? undefined,
    );
    if (!result.gameConnected) {
      report({ ...part, status: 'not_connected', commandId: null, output: null, error: result.error });
    } else if (result.pending) {
      followed.set(result.executionId, { ...part, commandId: null });
      report({ ...part, status: 'sent', commandId: null, output: null, error: null });
    } else {
      report({
        ...part,
        status: result.success ? 'succeeded' : 'failed',
        commandId: null,
        output: result.output,
        error: result.error,
      });
    }
  }

  deps.jobs.register<MassJob>(MASS_EXECUTION_JOB, async (job) => {
    try {
      await runPart(job);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The job failed';
      report({
        batchId: job.batchId,
        userId: job.userId,
        status: 'failed',
        commandId: null,
        output: null,
        error: message,
      });
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
      const items: MassProgress[] = [];
      for (const userId of userIds) {
        if (!known.has(userId)) {
          items.push({ batchId, userId, status: 'failed', commandId: null, output: null, error: ERRORS.userNotFound });
          continue;
        }
        items.push({ batchId, userId, status: 'queued', commandId: null, output: null, error: null });
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
  };
}

export type MassExecution = ReturnType<typeof createMassExecution>;
