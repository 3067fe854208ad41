import crypto from 'node:crypto';
import type { ScriptVersion, ScriptVersionList } from '@moonrelay/contract/script-versions';
import type { z } from 'zod';
import {
  SCRIPT_LIST_ERRORS,
  scriptMovedOn,
  type CreateScriptRequest,
  type Script,
  type ScriptListQuerySchema,
  type ScriptPage,
  type ScriptSummary,
  type UpdateScriptRequest,
} from '@moonrelay/contract/scripts';
import { ERRORS } from '@moonrelay/contract/messages';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { changesContent, patchOf, scriptVersions, type VersionOrigin } from './script-versions.ts';
import { scriptsRepo, type ScriptPatch, type ScriptPosition, type ScriptRow } from './scripts.repo.ts';

const flag = (value: boolean | undefined) => (value ? 1 : 0) as 0 | 1;

export function toScript(row: ScriptRow): Script {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    code: row.code,
    isAutoExecute: row.isAutoExecute === 1,
    isPublic: row.isPublic === 1,
    executionCount: Number(row.executionCount),
    userId: row.userId,
    gameId: row.gameId,
    gameName: row.gameName,
    gameImageUrl: row.gameImageUrl,
    autoExecuteGames: row.autoExecuteGames ? JSON.parse(row.autoExecuteGames) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    version: Number(row.version),
    lastChangedByKey: row.lastChangedByKey,
  };
}

type SummaryRow = Pick<
  ScriptRow,
  'id' | 'name' | 'description' | 'isAutoExecute' | 'isPublic' | 'executionCount' | 'createdAt' | 'updatedAt'
>;

export function toScriptSummary(row: SummaryRow): ScriptSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    isAutoExecute: row.isAutoExecute === 1,
    isPublic: row.isPublic === 1,
    executionCount: Number(row.executionCount),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A page's cursor: the last script's updatedAt and id; anything else this list never answered is a 400. */
function startOf(cursor: string | undefined): ScriptPosition | undefined {
  const at = decodeCursor(cursor, SCRIPT_LIST_ERRORS.invalidCursor);
  if (!at) return undefined;
  if (Number.isNaN(Date.parse(at.time)) || at.time.includes('\u0000') || at.id.includes('\u0000')) {
    throw new AppError(400, SCRIPT_LIST_ERRORS.invalidCursor);
  }
  return { updatedAt: at.time, id: at.id };
}

/** Only the fields the request carries are changed; `null` clears an optional field. */
function toPatch(update: UpdateScriptRequest): ScriptPatch {
  const patch: ScriptPatch = {};
  if (update.name !== undefined) patch.name = update.name;
  if (update.code !== undefined) patch.code = update.code;
  if (update.description !== undefined) patch.description = update.description || null;
  if (update.isAutoExecute !== undefined) patch.isAutoExecute = flag(update.isAutoExecute);
  if (update.isPublic !== undefined) patch.isPublic = flag(update.isPublic);
  if (update.gameId !== undefined) patch.gameId = update.gameId;
  if (update.gameName !== undefined) patch.gameName = update.gameName;
  if (update.gameImageUrl !== undefined) patch.gameImageUrl = update.gameImageUrl;
  if (update.autoExecuteGames !== undefined) {
    patch.autoExecuteGames = update.autoExecuteGames === null ? null : JSON.stringify(update.autoExecuteGames);
  }
  return patch;
}

/**
 * How the caller reached the API: a save through an API key is marked as such in the history, with
 * the key's name (the personal key's too), and the script remembers which key changed it last.
 */
/** How a save came, and (on a team) the member who made it: the version's history names them. */
export type SaveChannel = ({ via: 'session' } | { via: 'key'; keyName: string }) & { by?: string };
const BY_SESSION: SaveChannel = { via: 'session' };
const keyNameOf = (channel: SaveChannel): string | null => (channel.via === 'key' ? channel.keyName : null);

export function createScriptsService(deps: { db: Db }) {
  const { db } = deps;
  const notFound = () => new AppError(404, ERRORS.scriptNotFound);

  const owned = async (userId: string, id: string, on: Db = db): Promise<ScriptRow> => {
    const row = await scriptsRepo.findForUser(on, userId, id);
    if (!row) throw notFound();
    return row;
  };

  /**
   * Applies a patch and, when it changes the script's content, keeps the result as a new version,
   * in one transaction. The number comes from the UPDATE itself (version + 1), so saves that race
   * each get their own number, in the order they committed, and none is lost.
   */
  function save(
    userId: string,
    id: string,
    patch: ScriptPatch,
    origin: VersionOrigin,
    baseVersion?: number,
  ): Promise<ScriptRow> {
    return inTransaction(db, async (trx) => {
      const current = await owned(userId, id, trx);
      if (baseVersion !== undefined && current.version !== baseVersion)
        throw new AppError(409, scriptMovedOn(baseVersion, current.version));
      const bump = changesContent(current, patch);
      const changedBy = bump ? { lastChangedByKey: origin.keyName ?? null } : {};
      const row = await scriptsRepo.updateForUser(
        trx,
        userId,
        id,
        { ...patch, ...changedBy, updatedAt: nowIso() },
        bump,
        baseVersion,
      );
      // Gone, or (with baseVersion) saved by someone else between the read and this write.
      if (!row) {
        const now = await scriptsRepo.findForUser(trx, userId, id);
        if (now && baseVersion !== undefined) throw new AppError(409, scriptMovedOn(baseVersion, now.version));
        throw notFound();
      }
      if (bump) await scriptVersions.record(trx, row, origin);
      return row;
    });
  }

  return {
    async list(userId: string): Promise<Script[]> {
      return (await scriptsRepo.listForUser(db, userId)).map(toScript);
    },

    /**
     * One page of My Scripts: summaries without code, most recently updated first, searched and
     * filtered by the database. `autoExecuteOnly`: the caller (a key of the game scope alone) may
     * see the auto-execute scripts only, and counts only those.
     */
    async page(
      userId: string,
      query: z.output<typeof ScriptListQuerySchema>,
      { autoExecuteOnly = false }: { autoExecuteOnly?: boolean } = {},
    ): Promise<ScriptPage> {
      const { cursor, limit, q, type } = query;
      const start = startOf(cursor);
      const filters = { q, type, autoExecuteOnly };
      // One more than asked tells whether another page follows.
      const rows = await scriptsRepo.listPage(db, userId, filters, start, limit + 1);
      const { total, matching } = await scriptsRepo.countPage(db, userId, filters);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        scripts: page.map(toScriptSummary),
        nextCursor: rows.length > limit && last ? encodeCursor(last.updatedAt, last.id) : null,
        total,
        matching,
      };
    },

    async get(userId: string, id: string): Promise<Script> {
      return toScript(await owned(userId, id));
    },

    async create(userId: string, input: CreateScriptRequest, channel: SaveChannel = BY_SESSION): Promise<Script> {
      const now = nowIso();
      const row: ScriptRow = {
        id: crypto.randomUUID(),
        userId,
        name: input.name,
        description: input.description || null,
        code: input.code,
        isAutoExecute: flag(input.isAutoExecute),
        isPublic: flag(input.isPublic),
        executionCount: 0,
        gameId: input.gameId ?? null,
        gameName: input.gameName ?? null,
        gameImageUrl: input.gameImageUrl ?? null,
        autoExecuteGames: input.autoExecuteGames ? JSON.stringify(input.autoExecuteGames) : null,
        createdAt: now,
        updatedAt: now,
        version: 1,
        lastChangedByKey: keyNameOf(channel),
      };
      await inTransaction(db, async (trx) => {
        await scriptsRepo.insert(trx, row);
        await scriptVersions.record(trx, row, {
          savedBy: channel.by ?? userId,
          via: channel.via,
          keyName: keyNameOf(channel),
        });
      });
      return toScript(row);
    },

    async update(
      userId: string,
      id: string,
      update: UpdateScriptRequest,
      channel: SaveChannel = BY_SESSION,
    ): Promise<Script> {
      return toScript(
        await save(
          userId,
          id,
          toPatch(update),
          { savedBy: channel.by ?? userId, via: channel.via, keyName: keyNameOf(channel) },
          update.baseVersion,
        ),
      );
    },

    async remove(userId: string, id: string): Promise<void> {
      // The versions go with it (script_versions cascades).
      if (!(await scriptsRepo.deleteForUser(db, userId, id))) throw notFound();
    },

    async versions(userId: string, id: string): Promise<ScriptVersionList> {
      return scriptVersions.list(db, await owned(userId, id));
    },

    async version(userId: string, id: string, number: number): Promise<ScriptVersion> {
      const script = await owned(userId, id);
      return scriptVersions.toVersion(script, await scriptVersions.find(db, script, number));
    },

    /**
     * Makes the script what version `number` was. The restore is a new version of its own (marked
     * with the version it brought back), even when the content equals the current one, so the
     * history says that it happened.
     */
    async restore(userId: string, id: string, number: number, channel: SaveChannel = BY_SESSION): Promise<Script> {
      return toScript(
        await inTransaction(db, async (trx) => {
          const script = await owned(userId, id, trx);
          const version = await scriptVersions.find(trx, script, number);
          const row = await scriptsRepo.updateForUser(
            trx,
            userId,
            id,
            { ...patchOf(version), lastChangedByKey: keyNameOf(channel), updatedAt: nowIso() },
            true,
          );
          if (!row) throw notFound();
          await scriptVersions.record(trx, row, {
            savedBy: channel.by ?? userId,
            via: 'restore',
            restoredFrom: number,
            keyName: keyNameOf(channel),
          });
          return row;
        }),
      );
    },
  };
}

export type ScriptsService = ReturnType<typeof createScriptsService>;
