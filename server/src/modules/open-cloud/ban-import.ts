import crypto from 'node:crypto';
import { OPEN_CLOUD_ERRORS } from '@moonrelay/contract/open-cloud';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { Clock } from './clock.ts';
import { bansRepo, keysRepo, type ActiveBanRow, type BanLogRow } from './open-cloud.repo.ts';
import {
  cloudUnavailable,
  CloudUnreachable,
  durationSeconds,
  idOf,
  robloxErrorText,
  type CloudAnswer,
  type OpenCloudClient,
  type UserRestriction,
  type UserRestrictionLog,
} from './roblox-open-cloud.ts';

export interface BanImportResult {
  imported: number;
  active: number;
}

export const IMPORT_UNDER_WAY = 'An import of your bans is under way; try again in a moment';
/** Roblox's largest page. */
const PAGE_SIZE = 100;
/** A bound on one import's pages (100,000 entries), so a misbehaving answer cannot loop forever. */
const MAX_PAGES = 1000;
/** How long one process holds an owner's import. */
const LEASE_MS = 5 * 60_000;

/** Roblox's ISO times, with however many fractional digits, as Moonrelay stores times. */
const isoOf = (text: string | undefined) => {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

function moderatorOf(log: UserRestrictionLog): string {
  if (log.moderator?.robloxUser) return `users/${idOf(log.moderator.robloxUser)}`;
  if (log.moderator?.gameServerScript !== undefined) return 'game server script';
  return 'unknown';
}

/** Why an import stopped, in words for the owner and with the status the REST call answers. */
function refusal(answer: CloudAnswer): AppError {
  if (answer.status === 401 || answer.status === 403)
    return new AppError(400, `${OPEN_CLOUD_ERRORS.keyRefused} Roblox said: ${robloxErrorText(answer)}`);
  return cloudUnavailable(`Roblox answered ${answer.status}: ${robloxErrorText(answer)}`);
}

/**
 * Imports what Roblox knows of an owner's bans: the history (listLogs), newest first, only up to the
 * newest entry imported last time, and the list of bans in force now (replaced as a whole). Bans made
 * in Creator Hub, by BanAsync in a game or by another tool show up here like Moonrelay's own.
 */
export function createBanImport(deps: { db: Db; box: SecretBox; client: OpenCloudClient; clock: Clock }) {
  const { db, client } = deps;
  const iso = () => new Date(deps.clock.now()).toISOString();
  /** One import per owner at a time in this process: a second caller shares the first's. */
  const inFlight = new Map<string, Promise<BanImportResult>>();

  async function ask(call: () => Promise<CloudAnswer>): Promise<CloudAnswer> {
    let answer: CloudAnswer;
    try {
      answer = await call();
    } catch (error) {
      if (error instanceof CloudUnreachable) throw cloudUnavailable(OPEN_CLOUD_ERRORS.robloxUnreachable);
      throw error;
    }
    if (answer.status < 200 || answer.status >= 300) throw refusal(answer);
    return answer;
  }

  async function importHistory(
    ownerId: string,
    key: { universeId: string; apiKey: string },
    since: string | null,
  ): Promise<{ imported: number; newest: string | null }> {
    let newest = since;
    let imported = 0;
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await ask(() => client.listLogs(key, { maxPageSize: PAGE_SIZE, pageToken }));
      const body = (answer.body ?? {}) as { logs?: UserRestrictionLog[]; nextPageToken?: string };
      const logs = Array.isArray(body.logs) ? body.logs : [];
      const rows: BanLogRow[] = [];
      let reachedKnown = false;
      for (const log of logs) {
        const createTime = isoOf(log.createTime);
        if (!createTime) continue;
        // Newest first: an entry older than the last import's newest means the rest is known.
        if (since && createTime < since) {
          reachedKnown = true;
          continue;
        }
        if (!newest || createTime > newest) newest = createTime;
        rows.push({
          id: crypto.randomUUID(),
          ownerId,
          universeId: key.universeId,
          robloxUserId: idOf(log.user),
          placeId: log.place ? idOf(log.place) : null,
          moderator: moderatorOf(log),
          createTime,
          active: log.active ? 1 : 0,
          startTime: isoOf(log.startTime),
          durationSeconds: durationSeconds(log.duration),
          displayReason: log.displayReason ?? '',
          privateReason: log.privateReason ?? '',
          excludeAltAccounts: log.excludeAltAccounts ? 1 : 0,
          importedAt: iso(),
        });
      }
      // Entries at the same time as the last import's newest may be new or known: the unique key tells.
      imported += await bansRepo.insertLogs(db, rows);
      pageToken = body.nextPageToken || undefined;
      if (reachedKnown || !pageToken) break;
    }
    return { imported, newest };
  }

  async function importActive(ownerId: string, key: { universeId: string; apiKey: string }): Promise<number> {
    const rows: ActiveBanRow[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await ask(() =>
        client.listRestrictions(key, {
          maxPageSize: PAGE_SIZE,
          pageToken,
          filter: 'game_join_restriction.active == "true"',
        }),
      );
      const body = (answer.body ?? {}) as { userRestrictions?: UserRestriction[]; nextPageToken?: string };
      for (const restriction of Array.isArray(body.userRestrictions) ? body.userRestrictions : []) {
        const ban = restriction.gameJoinRestriction;
        if (!ban?.active) continue;
        rows.push({
          ownerId,
          universeId: key.universeId,
          robloxUserId: idOf(restriction.user),
          startTime: isoOf(ban.startTime),
          durationSeconds: durationSeconds(ban.duration),
          displayReason: ban.displayReason ?? '',
          privateReason: ban.privateReason ?? '',
          excludeAltAccounts: ban.excludeAltAccounts ? 1 : 0,
          updateTime: isoOf(restriction.updateTime),
        });
      }
      pageToken = body.nextPageToken || undefined;
      if (!pageToken) break;
    }
    // A user listed twice (a page boundary moving under a ban made meanwhile) is kept once.
    const unique = [...new Map(rows.map((row) => [row.robloxUserId, row])).values()];
    await bansRepo.replaceActive(db, ownerId, unique);
    return unique.length;
  }

  async function run(ownerId: string): Promise<BanImportResult> {
    const row = await keysRepo.find(db, ownerId);
    if (!row) throw new AppError(404, OPEN_CLOUD_ERRORS.noKey);
    if (
      !(await keysRepo.lease(db, ownerId, 'importingUntil', iso(), new Date(deps.clock.now() + LEASE_MS).toISOString()))
    )
      throw new AppError(409, IMPORT_UNDER_WAY);
    const key = { universeId: row.universeId, apiKey: deps.box.open(row.keySealed) };
    try {
      const history = await importHistory(ownerId, key, row.logsImportedUntil);
      const active = await importActive(ownerId, key);
      await keysRepo.update(db, ownerId, {
        logsImportedUntil: history.newest,
        lastImportAt: iso(),
        lastImportError: null,
        importingUntil: null,
      });
      return { imported: history.imported, active };
    } catch (error) {
      await keysRepo.update(db, ownerId, {
        lastImportAt: iso(),
        lastImportError: error instanceof Error ? error.message : String(error),
        importingUntil: null,
      });
      throw error;
    }
  }

  return {
    run(ownerId: string): Promise<BanImportResult> {
      const current = inFlight.get(ownerId);
      if (current) return current;
      const work = run(ownerId).finally(() => inFlight.delete(ownerId));
      inFlight.set(ownerId, work);
      return work;
    },
  };
}
