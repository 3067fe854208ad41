import type { z } from 'zod';
import {
  RUN_ERRORS,
  type Run,
  type RunInitiator,
  type RunListQuerySchema,
  type RunPage,
  type RunStatus,
  type RunSummary,
} from '@moonrelay/contract/runs';
import type { ExecutionTarget } from '@moonrelay/contract/executions';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { CloudRun } from '@moonrelay/contract/cloud-runs';
import { publicState } from '../cloud-runs/cloud-state.ts';
import { runsRepo, type RunPosition, type RunRow } from './runs.repo.ts';

/** How each stored status reads in the API (a game run waiting for its result is stored 'queued'). */
const STATUS: Record<string, RunStatus> = {
  queued: 'pending',
  succeeded: 'succeeded',
  failed: 'failed',
  not_connected: 'not_connected',
};

export function toRunSummary(row: Omit<RunRow, 'cloudPhase'> & { cloudPhase?: string | null }): RunSummary {
  return {
    id: row.id,
    scriptId: row.scriptId,
    scriptName: row.scriptName,
    scriptVersion: row.scriptVersion,
    target: row.target as ExecutionTarget,
    serverId: row.serverId,
    status: STATUS[row.status] ?? 'failed',
    limitHit: row.limitHit as RunSummary['limitHit'],
    durationMs: row.durationMs,
    startedBy: row.initiator as RunInitiator,
    actorId: row.actorId,
    actorName: row.actorName,
    keyName: row.keyName,
    ...(row.target === 'cloud' ? { cloudState: row.cloudPhase ? publicState(row.cloudPhase) : 'waiting' } : {}),
    createdAt: row.createdAt,
  };
}

/**
 * The cursor is the last run of a page (its time and id), opaque to the caller: base64url JSON.
 * Paging by position rather than offset means runs recorded meanwhile neither repeat nor hide one.
 */
export const encodeCursor = (position: RunPosition): string =>
  Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');

function decodeCursor(cursor: string): RunPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      !Number.isNaN(Date.parse(parsed[0])) &&
      !parsed[0].includes('\u0000') &&
      !parsed[1].includes('\u0000')
    ) {
      return { createdAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // Not base64url JSON: answered as any other unknown cursor, below.
  }
  throw new AppError(400, RUN_ERRORS.invalidCursor);
}

/** A user's run history: their own runs only; another user's run answers 404 as one that never was. */
export function createRunsService(deps: {
  db: Db;
  /** A cloud run's task, logs and return values (modules/cloud-runs). */
  cloud?: { detail(executionId: string): Promise<CloudRun | undefined> };
}) {
  const { db } = deps;
  return {
    async list(userId: string, query: z.output<typeof RunListQuerySchema>): Promise<RunPage> {
      const { cursor, limit, ...filters } = query;
      const start = cursor === undefined ? undefined : decodeCursor(cursor);
      // One more than asked tells whether another page follows.
      const rows = await runsRepo.list(db, userId, filters, start, limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        runs: page.map(toRunSummary),
        nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
      };
    },

    async get(userId: string, id: string): Promise<Run> {
      const row = await runsRepo.findForUser(db, userId, id);
      if (!row) throw new AppError(404, RUN_ERRORS.notFound);
      return {
        ...toRunSummary(row),
        code: row.code ?? row.codeExcerpt,
        codeComplete: row.code !== null,
        output: row.output,
        error: row.error,
        ...(row.target === 'cloud' ? { cloud: (await deps.cloud?.detail(row.id)) ?? null } : {}),
      };
    },

    /** A run's summary for the live event; undefined once it is gone (retention, account deletion). */
    async summary(id: string): Promise<{ userId: string; run: RunSummary } | undefined> {
      const row = await runsRepo.summary(db, id);
      return row && { userId: row.userId, run: toRunSummary(row) };
    },
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
