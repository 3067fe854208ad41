import crypto from 'node:crypto';
import type { CreateScriptRequest, Script, UpdateScriptRequest } from '@moonrelay/contract/scripts';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { scriptsRepo, type ScriptPatch, type ScriptRow } from './scripts.repo.ts';

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
  };
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

export function createScriptsService(deps: { db: Db }) {
  const { db } = deps;
  const notFound = () => new AppError(404, ERRORS.scriptNotFound);

  return {
    async list(userId: string): Promise<Script[]> {
      return (await scriptsRepo.listForUser(db, userId)).map(toScript);
    },

    async get(userId: string, id: string): Promise<Script> {
      const row = await scriptsRepo.findForUser(db, userId, id);
      if (!row) throw notFound();
      return toScript(row);
    },

    async create(userId: string, input: CreateScriptRequest): Promise<Script> {
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
      };
      await scriptsRepo.insert(db, row);
      return toScript(row);
    },

    async update(userId: string, id: string, update: UpdateScriptRequest): Promise<Script> {
      const changed = await scriptsRepo.updateForUser(db, userId, id, { ...toPatch(update), updatedAt: nowIso() });
      if (!changed) throw notFound();
      const row = await scriptsRepo.findForUser(db, userId, id);
      if (!row) throw notFound();
      return toScript(row);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!(await scriptsRepo.deleteForUser(db, userId, id))) throw notFound();
    },
  };
}

export type ScriptsService = ReturnType<typeof createScriptsService>;
