import crypto from 'node:crypto';
import {
  SHARE_ERRORS,
  SHARES_PER_SCRIPT,
  type CreatedScriptShare,
  type ScriptShare,
  type SharedScript,
} from '@moonrelay/contract/shares';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Script } from '@moonrelay/contract/scripts';
import { inTransaction, type Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { sha256Hex } from '../../security/digest.ts';
import { holds, type HeldPermissions } from '../../security/team-permissions.ts';
import { scriptsRepo } from './scripts.repo.ts';
import type { ScriptsService } from './scripts.service.ts';
import { usersRepo } from '../users/users.repo.ts';

/**
 * Read-only share links of scripts (docs/decisions/049), and copying a script into another team.
 * A link is a random token looked up by its SHA-256; it names the script, never a copy of it, so
 * it shows the script as it is now and stops when the script or the share is deleted.
 */
export function createScriptSharesService(deps: {
  db: Db;
  scripts: ScriptsService;
  /** What the person holds on a team (null: not a member), for copying into it. */
  accessOf: (personId: string, teamId: string) => Promise<HeldPermissions | null>;
}) {
  const { db, scripts } = deps;

  const listRows = (userId: string, scriptId?: string) => {
    let query = db
      .selectFrom('scriptShares')
      .innerJoin('scripts', 'scripts.id', 'scriptShares.scriptId')
      .leftJoin('users', 'users.id', 'scriptShares.createdBy')
      .select([
        'scriptShares.id',
        'scriptShares.scriptId',
        'scripts.name as scriptName',
        'scriptShares.createdAt',
        'users.username as createdBy',
      ])
      .where('scriptShares.userId', '=', userId);
    if (scriptId) query = query.where('scriptShares.scriptId', '=', scriptId);
    return query.orderBy('scriptShares.createdAt', 'desc').orderBy('scriptShares.id', 'desc').execute();
  };

  async function sharedRow(token: string) {
    const row = await db
      .selectFrom('scriptShares')
      .innerJoin('scripts', 'scripts.id', 'scriptShares.scriptId')
      .select([
        'scripts.name',
        'scripts.description',
        'scripts.code',
        'scripts.version',
        'scripts.updatedAt',
        'scriptShares.createdAt as sharedAt',
      ])
      .where('scriptShares.tokenHash', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!row) throw new AppError(404, SHARE_ERRORS.notFound);
    return row;
  }

  /** A copy in `teamId`, saved by `actorId`: a new script with its own history. */
  const copyInto = (
    teamId: string,
    actorId: string,
    source: { name: string; description: string | null; code: string },
  ) =>
    scripts.create(
      teamId,
      { name: source.name, description: source.description ?? undefined, code: source.code },
      { via: 'session', by: actorId },
    );

  return {
    async create(userId: string, actorId: string, scriptId: string): Promise<CreatedScriptShare> {
      const token = crypto.randomBytes(24).toString('base64url');
      const row = {
        id: crypto.randomUUID(),
        scriptId,
        userId,
        tokenHash: sha256Hex(token),
        createdBy: actorId,
        createdAt: nowIso(),
      };
      const script = await inTransaction(db, async (trx) => {
        const found = await scriptsRepo.findForUser(trx, userId, scriptId);
        if (!found) throw new AppError(404, ERRORS.scriptNotFound);
        const count = await trx
          .selectFrom('scriptShares')
          .select((eb) => eb.fn.countAll<string | number>().as('count'))
          .where('scriptId', '=', scriptId)
          .executeTakeFirstOrThrow();
        if (Number(count.count) >= SHARES_PER_SCRIPT) throw new AppError(409, SHARE_ERRORS.tooMany);
        await trx.insertInto('scriptShares').values(row).execute();
        return found;
      });
      const createdBy = await usersRepo.usernameOf(db, actorId);
      return {
        id: row.id,
        scriptId,
        scriptName: script.name,
        createdAt: row.createdAt,
        createdBy,
        token,
      };
    },

    async list(userId: string): Promise<ScriptShare[]> {
      return listRows(userId);
    },

    async remove(userId: string, shareId: string): Promise<void> {
      const result = await db
        .deleteFrom('scriptShares')
        .where('id', '=', shareId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw new AppError(404, SHARE_ERRORS.shareNotFound);
    },

    async shared(token: string): Promise<SharedScript> {
      const row = await sharedRow(token);
      return { ...row, version: Number(row.version) };
    },

    async copyShared(token: string, teamId: string, actorId: string): Promise<Script> {
      return copyInto(teamId, actorId, await sharedRow(token));
    },

    /** Copies a script of `fromId`'s into another team the person may add scripts to. */
    async copy(fromId: string, scriptId: string, actorId: string, toTeamId: string): Promise<Script> {
      const source = await scriptsRepo.findForUser(db, fromId, scriptId);
      if (!source) throw new AppError(404, ERRORS.scriptNotFound);
      const held = await deps.accessOf(actorId, toTeamId);
      if (!held || !holds(held, 'scripts.write')) throw new AppError(403, SHARE_ERRORS.targetTeam);
      return copyInto(toTeamId, actorId, source);
    },
  };
}

export type ScriptSharesService = ReturnType<typeof createScriptSharesService>;
