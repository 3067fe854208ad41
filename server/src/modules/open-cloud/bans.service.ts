import type { ActiveBan, BanLogEntry, Bans } from '@moonrelay/contract/open-cloud';
import type { Db } from '../../db/database.ts';
import { bansRepo, keysRepo, type ActiveBanRow, type BanLogRow } from './open-cloud.repo.ts';

const DEFAULT_LIMIT = 100;

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

const toActive = (row: ActiveBanRow): ActiveBan => ({
  userId: Number(row.robloxUserId),
  durationSeconds: nullableNumber(row.durationSeconds),
  startTime: row.startTime,
  displayReason: row.displayReason,
  privateReason: row.privateReason,
  excludeAltAccounts: Boolean(Number(row.excludeAltAccounts)),
  updateTime: row.updateTime,
});

const toLog = (row: BanLogRow): BanLogEntry => ({
  userId: Number(row.robloxUserId),
  durationSeconds: nullableNumber(row.durationSeconds),
  startTime: row.startTime,
  displayReason: row.displayReason,
  privateReason: row.privateReason,
  excludeAltAccounts: Boolean(Number(row.excludeAltAccounts)),
  active: Boolean(Number(row.active)),
  moderator: row.moderator,
  createTime: row.createTime,
  placeId: row.placeId,
});

/** The owner's bans as last imported from Roblox, for the universe of their current key. */
export function createBansService(deps: { db: Db }) {
  const { db } = deps;
  return {
    async list(ownerId: string, limit = DEFAULT_LIMIT): Promise<Bans> {
      const key = await keysRepo.find(db, ownerId);
      if (!key) return { universeId: null, active: [], logs: [], lastImportAt: null, lastImportError: null };
      const [active, logs] = await Promise.all([
        bansRepo.active(db, ownerId, key.universeId, limit),
        bansRepo.logs(db, ownerId, key.universeId, limit),
      ]);
      return {
        universeId: key.universeId,
        active: active.map(toActive),
        logs: logs.map(toLog),
        lastImportAt: key.lastImportAt,
        lastImportError: key.lastImportError,
      };
    },

    /**
     * A ban made elsewhere is being lifted from Moonrelay: it leaves the imported list now (in the
     * caller's transaction), not at the next import. False when it is not listed (any more).
     */
    forget: (trx: Db, ownerId: string, robloxUserId: string) => bansRepo.removeActive(trx, ownerId, robloxUserId),
  };
}

export type BansService = ReturnType<typeof createBansService>;
