import crypto from 'node:crypto';
import type { CommandView, GameCommandType } from '@moonrelay/contract/game';
import {
  BAN_MAX_USERS_PER_CALL,
  MODERATION_ERRORS,
  MODERATION_HISTORY_MAX,
  PERMANENT_BAN,
  type BanList,
  type BanRequest,
  type ModerationAction,
  type ModerationHistory,
  type ModerationKind,
} from '@moonrelay/contract/moderation';
import type { Db } from '../../db/database.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { AppError } from '../../http/app-error.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import type { Logger } from '../../logger.ts';
import { AUDIT_ACTIONS, type AuditAction, type AuditActor, type AuditService } from '../audit/audit.service.ts';
import { atMostEvery } from '../../platform/at-most-every.ts';
import type { CommandsService } from '../game/commands.service.ts';
import type { RaisedEvent } from '../notifications/notifier.ts';
import type { ActiveBan } from '@moonrelay/contract/open-cloud';
import type { RestrictionRequest } from '../open-cloud/restrictions.ts';
import { PLAYER_NOT_FOUND } from '../players/players.service.ts';
import type { BanPath } from '@moonrelay/contract/moderation';
import { chooseBanPath } from './ban-path.ts';
import { readGameOutcome } from './game-report.ts';
import { endOf, moderationRepo, type BanPosition, type ModerationRow } from './moderation.repo.ts';
import { moderationEvent } from './moderation-events.ts';

const DEFAULT_HISTORY = 100;
/** How old a pending Open Cloud ban must be before the sweep queues it again (it was queued at once). */
const OPEN_CLOUD_REQUEUE_AFTER_MS = 30_000;
/** A claim whose command does not exist this long after is let go (its process died in between). */
const CLAIM_LETGO_MS = 60_000;
/**
 * Servers that connect look for their owner's waiting bans at most this often (the connects in
 * between share the next look): a restart storm connects thousands of one owner's servers a second.
 */
const CONNECT_DISPATCH_GAP_MS = 1_000;

/** A ban list page's cursor: the last ban's creation time and id; anything else this list never answered is a 400. */
function banPosition(cursor: string | undefined): BanPosition | undefined {
  const at = decodeCursor(cursor, MODERATION_ERRORS.invalidCursor);
  if (!at) return undefined;
  if (Number.isNaN(Date.parse(at.time)) || at.time.includes('\u0000') || at.id.includes('\u0000')) {
    throw new AppError(400, MODERATION_ERRORS.invalidCursor);
  }
  return { createdAt: at.time, id: at.id };
}

export function toModerationAction(row: ModerationRow): ModerationAction {
  return {
    id: row.id,
    userId: Number(row.robloxUserId),
    kind: row.kind as ModerationKind,
    actorId: row.actorId,
    actorName: row.actorName,
    message: row.message,
    privateReason: row.privateReason,
    durationSeconds: row.durationSeconds,
    excludeAltAccounts: Boolean(row.excludeAltAccounts),
    path: row.path as ModerationAction['path'],
    state: row.state as ModerationAction['state'],
    error: row.error,
    serverId: row.serverId,
    replaces: row.replaces,
    endedBy: row.endedBy,
    createdAt: row.createdAt,
    completedAt: row.completedAt,
  };
}

/**
 * A timed ban runs from when it was applied (or asked for, while pending) until its `endsAt`, the
 * same test the ban list's pages make in the database; a permanent one never ends.
 */
const banInForce = (row: ModerationRow, nowMs: number) => row.endsAt === null || Date.parse(row.endsAt) > nowMs;

/** The ban settings a batched BanAsync call shares: bans alike go in one call. */
const banSettings = (row: ModerationRow) =>
  JSON.stringify([row.durationSeconds, row.message, row.privateReason, row.excludeAltAccounts]);

export interface ModerationDeps {
  db: Db;
  audit: AuditService;
  commands: Pick<CommandsService, 'enqueue'>;
  /** The owner's live game servers, newest first. */
  liveServers: (ownerId: string) => Promise<string[]>;
  /** Raises a notification event (the notifier's raise). */
  raise: (ownerId: string, build: () => RaisedEvent) => void;
  /**
   * The Open Cloud path (modules/open-cloud): an owner with a saved key has bans and unbans sent
   * through it, with no game server needed; its outcomes come back through recordBanOutcome.
   */
  openCloud: {
    hasKey(ownerId: string): Promise<boolean>;
    enqueue(request: RestrictionRequest): Promise<void>;
    /** Bans in force in Roblox as last imported with the owner's key (empty without one). */
    activeBans(ownerId: string): Promise<ActiveBan[]>;
    /** The queued update of an action, if any: where Roblox's answer stands. */
    find(actionId: string): Promise<{ state: string; error: string | null } | undefined>;
    /**
     * Takes a ban made elsewhere off the imported list, inside the unban's transaction; false when it
     * is no longer there (another unban took it first).
     */
    forgetImportedBan(trx: Db, ownerId: string, robloxUserId: string): Promise<boolean>;
  };
  logger: Logger;
}

/**
 * Notes, warnings, kicks, bans and unbans of an owner's Roblox players (docs/decisions/037). Every
 * action is a row kept for good and an audit entry; a ban or unban is pending until its path reports
 * (recordBanOutcome), and the game path sends pending ones to a live server, 50 alike to a call.
 */
export function createModerationService(deps: ModerationDeps) {
  const { db, audit, logger } = deps;

  const requirePlayer = async (ownerId: string, robloxUserId: string): Promise<string> => {
    const names = await moderationRepo.knownPlayers(db, ownerId, [robloxUserId]);
    const name = names.get(robloxUserId);
    if (name === undefined) throw new AppError(404, PLAYER_NOT_FOUND);
    return name;
  };

  const currentBan = async (ownerId: string, robloxUserId: string): Promise<ModerationRow | undefined> => {
    const nowMs = Date.now();
    return (await moderationRepo.unendedBans(db, ownerId, [robloxUserId])).find((row) => banInForce(row, nowMs));
  };

  /**
   * Roblox's bans in force (last import) that Moonrelay did not make and is not already lifting,
   * of one player or all of the owner's.
   */
  const bansMadeElsewhere = async (ownerId: string, robloxUserId?: string): Promise<ActiveBan[]> => {
    const imported = (await deps.openCloud.activeBans(ownerId)).filter(
      (ban) => robloxUserId === undefined || String(ban.userId) === robloxUserId,
    );
    if (imported.length === 0) return [];
    const ids = imported.map((ban) => String(ban.userId));
    const nowMs = Date.now();
    const [ours, lifting] = await Promise.all([
      moderationRepo.unendedBans(db, ownerId, ids),
      moderationRepo.pendingUnbans(db, ownerId, ids),
    ]);
    const covered = new Set(ours.filter((row) => banInForce(row, nowMs)).map((row) => row.robloxUserId));
    return imported.filter((ban) => !covered.has(String(ban.userId)) && !lifting.has(String(ban.userId)));
  };

  const newRow = (
    ownerId: string,
    actor: AuditActor,
    robloxUserId: string,
    kind: ModerationKind,
    fields: Partial<ModerationRow> & { message: string },
  ): ModerationRow => {
    const row: Omit<ModerationRow, 'endsAt'> = {
      id: crypto.randomUUID(),
      userId: ownerId,
      robloxUserId,
      kind,
      actorId: actor.id,
      actorName: actor.name,
      privateReason: null,
      durationSeconds: null,
      excludeAltAccounts: 0,
      path: null,
      state: 'pending',
      error: null,
      commandId: null,
      claimedAt: null,
      serverId: null,
      replaces: null,
      endedBy: null,
      createdAt: nowIso(),
      completedAt: null,
      ...fields,
    };
    return { ...row, endsAt: endOf(row) };
  };

  const pathFor = async (ownerId: string) => chooseBanPath({ hasOpenCloudKey: await deps.openCloud.hasKey(ownerId) });

  const banRow = (
    ownerId: string,
    actor: AuditActor,
    robloxUserId: string,
    ban: BanRequest,
    replaces: string | null,
    path: BanPath,
  ) =>
    newRow(ownerId, actor, robloxUserId, 'ban', {
      message: ban.displayReason,
      privateReason: ban.privateReason || null,
      durationSeconds: ban.durationSeconds === PERMANENT_BAN ? null : ban.durationSeconds,
      excludeAltAccounts: ban.excludeAltAccounts ? 1 : 0,
      path,
      replaces,
    });

  const auditAction = (
    actor: AuditActor,
    action: AuditAction,
    row: ModerationRow,
    extra: Record<string, unknown> = {},
  ) =>
    audit.record({
      actor,
      action,
      targetType: 'player',
      targetId: row.robloxUserId,
      teamId: row.userId,
      details: {
        ownerId: row.userId,
        actionId: row.id,
        reason: row.message,
        ...(row.privateReason ? { privateReason: row.privateReason } : {}),
        ...(row.kind === 'ban'
          ? { durationSeconds: row.durationSeconds, excludeAltAccounts: Boolean(row.excludeAltAccounts) }
          : {}),
        path: row.path,
        result: row.state,
        ...extra,
      },
    });

  /** An outcome arrived: stored once, audited, and told to the owner's notification destinations. */
  async function settle(
    row: ModerationRow,
    outcome: { state: 'applied' | 'failed'; error: string | null; serverId?: string | null },
  ) {
    const done = await moderationRepo.complete(db, row.id, outcome, nowIso());
    if (!done) return false;
    await audit.record({
      actor: { id: null, name: null },
      action: AUDIT_ACTIONS.moderationOutcome,
      targetType: 'player',
      targetId: done.robloxUserId,
      teamId: done.userId,
      details: {
        ownerId: done.userId,
        actionId: done.id,
        kind: done.kind,
        takenBy: done.actorName,
        path: done.path,
        result: done.state,
        ...(done.error ? { error: done.error } : {}),
      },
    });
    const names = await moderationRepo.knownPlayers(db, done.userId, [done.robloxUserId]);
    const event = moderationEvent(toModerationAction(done), names.get(done.robloxUserId) ?? null);
    if (event) deps.raise(done.userId, () => event);
    return true;
  }

  /**
   * Sends the owner's waiting bans and unbans to one live game server (bans are universe-wide, one
   * server is enough), bans alike 50 to a command as BanAsync takes them. With no live server they
   * keep waiting; the next server to connect (or the sweep) sends them.
   */
  async function dispatch(ownerId: string): Promise<number> {
    const waiting = await moderationRepo.waitingForGame(db, ownerId);
    if (waiting.length === 0) return 0;
    if ((await deps.liveServers(ownerId)).length === 0) return 0;
    const groups = new Map<string, ModerationRow[]>();
    for (const row of waiting) {
      const key = row.kind === 'ban' ? `ban ${banSettings(row)}` : 'unban';
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    let sent = 0;
    for (const rows of groups.values()) {
      for (let start = 0; start < rows.length; start += BAN_MAX_USERS_PER_CALL) {
        const commandId = crypto.randomUUID();
        const claimed = await moderationRepo.claim(
          db,
          rows.slice(start, start + BAN_MAX_USERS_PER_CALL).map((row) => row.id),
          commandId,
        );
        if (claimed.length === 0) continue;
        const first = claimed[0]!;
        const userIds = [...new Set(claimed.map((row) => Number(row.robloxUserId)))];
        const type: GameCommandType = first.kind === 'ban' ? 'ban' : 'unban';
        const data =
          type === 'ban'
            ? {
                userIds,
                durationSeconds: first.durationSeconds ?? PERMANENT_BAN,
                displayReason: first.message,
                privateReason: first.privateReason ?? '',
                excludeAltAccounts: Boolean(first.excludeAltAccounts),
              }
            : { userIds };
        // To whichever of the owner's servers pings first: bans are universe-wide, and if the server
        // that takes it goes before answering, the lease runs out and another one takes it.
        await deps.commands.enqueue(
          ownerId,
          { type, data },
          { source: 'moderation', serverIds: [null], idFor: () => commandId },
        );
        sent += claimed.length;
      }
    }
    return sent;
  }

  /** Warnings and kicks go at once to the server the player is on; 409 when they are on none. */
  async function toPlayer(
    ownerId: string,
    actor: AuditActor,
    robloxUserId: number,
    kind: 'warning' | 'kick',
    message: string,
  ): Promise<ModerationAction> {
    const id = String(robloxUserId);
    await requirePlayer(ownerId, id);
    const serverId = await moderationRepo.onlineServer(db, ownerId, id);
    if (serverId === undefined) throw new AppError(409, MODERATION_ERRORS.notOnline);
    const commandId = crypto.randomUUID();
    const row = newRow(ownerId, actor, id, kind, { message, path: 'game', commandId, claimedAt: nowIso(), serverId });
    await moderationRepo.insert(db, [row]);
    await deps.commands.enqueue(
      ownerId,
      { type: kind === 'kick' ? 'kick' : 'warn', data: { userId: robloxUserId, message } },
      { source: 'moderation', serverIds: [serverId], idFor: () => commandId },
    );
    await auditAction(actor, kind === 'kick' ? AUDIT_ACTIONS.moderationKick : AUDIT_ACTIONS.moderationWarning, row, {
      serverId,
    });
    return toModerationAction(row);
  }

  /** Hands bans and unbans on the Open Cloud path to its queue (idempotent by the action's id). */
  async function toOpenCloud(rows: ModerationRow[]): Promise<void> {
    for (const row of rows) {
      if (row.path !== 'open_cloud' || row.state !== 'pending') continue;
      await deps.openCloud.enqueue({
        actionId: row.id,
        ownerId: row.userId,
        robloxUserId: Number(row.robloxUserId),
        active: row.kind === 'ban',
        durationSeconds: row.kind === 'ban' ? row.durationSeconds : null,
        displayReason: row.kind === 'ban' ? row.message : '',
        privateReason: row.privateReason ?? '',
        excludeAltAccounts: Boolean(row.excludeAltAccounts),
      });
    }
  }

  const afterBanChange = async (ownerId: string, rows: ModerationRow[]) => {
    try {
      await toOpenCloud(rows);
      await dispatch(ownerId);
    } catch (error) {
      // The rows are stored: the sweep sends them. The caller's request still succeeded.
      logger.warn({ err: error }, 'sending bans failed; the sweep retries');
    }
  };

  return {
    async history(ownerId: string, robloxUserId: number, limit?: number): Promise<ModerationHistory> {
      const id = String(robloxUserId);
      await requirePlayer(ownerId, id);
      const [rows, ban, elsewhere] = await Promise.all([
        moderationRepo.history(db, ownerId, id, Math.min(limit ?? DEFAULT_HISTORY, MODERATION_HISTORY_MAX)),
        currentBan(ownerId, id),
        bansMadeElsewhere(ownerId, id),
      ]);
      return {
        actions: rows.map(toModerationAction),
        ban: ban ? toModerationAction(ban) : null,
        elsewhere: ban ? null : (elsewhere[0] ?? null),
      };
    },

    /**
     * A page of Moonrelay's bans in force, newest first, and how many there are; with the first page
     * (no cursor), Roblox's bans in force that none of them covers (made elsewhere).
     */
    async bans(ownerId: string, page: { cursor?: string; limit: number }): Promise<BanList> {
      const after = banPosition(page.cursor);
      const now = nowIso();
      const [rows, total, imported] = await Promise.all([
        moderationRepo.bansPage(db, ownerId, now, after, page.limit + 1),
        moderationRepo.countBans(db, ownerId, now),
        after ? [] : bansMadeElsewhere(ownerId),
      ]);
      const names = await moderationRepo.knownPlayers(
        db,
        ownerId,
        imported.map((ban) => String(ban.userId)),
      );
      const shown = rows.slice(0, page.limit);
      const last = shown.at(-1);
      return {
        bans: shown.map((row) => ({ ...toModerationAction(row), name: row.name })),
        nextCursor: rows.length > page.limit && last ? encodeCursor(last.createdAt, last.id) : null,
        total,
        elsewhere: imported.map((ban) => ({ ...ban, name: names.get(String(ban.userId)) ?? null })),
      };
    },

    async note(ownerId: string, actor: AuditActor, robloxUserId: number, text: string): Promise<ModerationAction> {
      const id = String(robloxUserId);
      await requirePlayer(ownerId, id);
      const now = nowIso();
      const row = newRow(ownerId, actor, id, 'note', { message: text, state: 'applied', completedAt: now });
      await moderationRepo.insert(db, [row]);
      await auditAction(actor, AUDIT_ACTIONS.moderationNote, row);
      return toModerationAction(row);
    },

    warn: (ownerId: string, actor: AuditActor, robloxUserId: number, message: string) =>
      toPlayer(ownerId, actor, robloxUserId, 'warning', message),

    kick: (ownerId: string, actor: AuditActor, robloxUserId: number, message: string) =>
      toPlayer(ownerId, actor, robloxUserId, 'kick', message),

    /** Bans players (one, or up to 50 alike); every one must be known and not banned already. */
    async ban(
      ownerId: string,
      actor: AuditActor,
      robloxUserIds: number[],
      ban: BanRequest,
    ): Promise<ModerationAction[]> {
      const ids = [...new Set(robloxUserIds.map(String))];
      if (ids.length > BAN_MAX_USERS_PER_CALL) throw new AppError(400, MODERATION_ERRORS.tooManyPlayers);
      const known = await moderationRepo.knownPlayers(db, ownerId, ids);
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined)
        throw new AppError(404, ids.length === 1 ? PLAYER_NOT_FOUND : `${PLAYER_NOT_FOUND}: ${unknown}`);
      const nowMs = Date.now();
      const banned = (await moderationRepo.unendedBans(db, ownerId, ids)).find((row) => banInForce(row, nowMs));
      if (banned) {
        throw new AppError(
          409,
          ids.length === 1
            ? MODERATION_ERRORS.alreadyBanned
            : `${MODERATION_ERRORS.alreadyBanned}: ${banned.robloxUserId}`,
        );
      }
      const path = await pathFor(ownerId);
      const rows = ids.map((id) => banRow(ownerId, actor, id, ban, null, path));
      await moderationRepo.insert(db, rows);
      for (const row of rows) await auditAction(actor, AUDIT_ACTIONS.moderationBan, row);
      await afterBanChange(ownerId, rows);
      return Promise.all(rows.map(async (row) => toModerationAction((await moderationRepo.find(db, row.id)) ?? row)));
    },

    /** A changed ban is a new ban replacing the one in force; the old one stays in the history. */
    async editBan(
      ownerId: string,
      actor: AuditActor,
      robloxUserId: number,
      ban: BanRequest,
    ): Promise<ModerationAction> {
      const id = String(robloxUserId);
      await requirePlayer(ownerId, id);
      const old = await currentBan(ownerId, id);
      if (!old) throw new AppError(409, MODERATION_ERRORS.notBanned);
      const row = banRow(ownerId, actor, id, ban, old.id, await pathFor(ownerId));
      await db.transaction().execute(async (trx) => {
        await moderationRepo.insert(trx, [row]);
        if (!(await moderationRepo.endBan(trx, old.id, row.id))) throw new AppError(409, MODERATION_ERRORS.banChanged);
      });
      await auditAction(actor, AUDIT_ACTIONS.moderationBanEdited, row, { replaces: old.id });
      await afterBanChange(ownerId, [row]);
      return toModerationAction((await moderationRepo.find(db, row.id)) ?? row);
    },

    /**
     * Lifts the ban in force: Moonrelay's own, or else one made elsewhere (Creator Hub, another tool)
     * that the last Open Cloud import listed; that one goes off the imported list at once.
     */
    async unban(
      ownerId: string,
      actor: AuditActor,
      robloxUserId: number,
      reason: string | undefined,
    ): Promise<ModerationAction> {
      const id = String(robloxUserId);
      await requirePlayer(ownerId, id);
      const ban = await currentBan(ownerId, id);
      const elsewhere = ban ? undefined : (await bansMadeElsewhere(ownerId, id))[0];
      if (!ban && !elsewhere) throw new AppError(409, MODERATION_ERRORS.notBanned);
      const row = newRow(ownerId, actor, id, 'unban', {
        message: reason ?? '',
        path: await pathFor(ownerId),
      });
      await db.transaction().execute(async (trx) => {
        await moderationRepo.insert(trx, [row]);
        // Guarded either way: of two unbans sent at once, one lifts the ban and the other is a 409.
        const lifted = ban
          ? await moderationRepo.endBan(trx, ban.id, row.id)
          : await deps.openCloud.forgetImportedBan(trx, ownerId, id);
        if (!lifted) throw new AppError(409, MODERATION_ERRORS.notBanned);
      });
      await auditAction(
        actor,
        AUDIT_ACTIONS.moderationUnban,
        row,
        ban ? { lifts: ban.id } : { lifts: 'elsewhere', bannedSince: elsewhere?.startTime ?? null },
      );
      await afterBanChange(ownerId, [row]);
      return toModerationAction((await moderationRepo.find(db, row.id)) ?? row);
    },

    /**
     * The outcome of a ban or unban from its path (the game's report, or the Open Cloud path's
     * answer). Recorded once: an outcome for an action that already has one changes nothing and
     * answers false.
     */
    async recordBanOutcome(
      actionId: string,
      outcome: { state: 'applied' } | { state: 'failed'; error: string },
    ): Promise<boolean> {
      const row = await moderationRepo.find(db, actionId);
      if (!row || row.state !== 'pending') return false;
      return settle(row, { state: outcome.state, error: outcome.state === 'failed' ? outcome.error : null });
    },

    /** Game commands that finished (the commands service's onFinished): their moderation rows' outcomes. */
    async commandsFinished(
      commands: Pick<CommandView, 'id' | 'type' | 'status' | 'output' | 'error' | 'source' | 'serverId'>[],
    ) {
      for (const command of commands) {
        if (command.source !== 'moderation') continue;
        await settleCommand(command);
      }
    },

    dispatch,

    /**
     * A server of the owner just connected: its waiting bans go to it (or another live one). At
     * once for the first connect; the connects within CONNECT_DISPATCH_GAP_MS after a look share
     * the next one, so a restart storm costs a read of the waiting rows a second, not one a server.
     */
    serverConnected: atMostEvery(CONNECT_DISPATCH_GAP_MS, dispatch),

    /**
     * Puts right what a crash or a lost message left: rows whose command finished without their
     * outcome being stored are settled from the stored result, then waiting bans go to live servers.
     */
    async sweep(): Promise<void> {
      for (const stranded of await moderationRepo.stranded(db, isoPlus(nowIso(), -CLAIM_LETGO_MS))) {
        if (stranded.foundId === null) await moderationRepo.release(db, stranded.commandId!);
        else
          await settleCommand({
            id: stranded.commandId!,
            type: stranded.type as GameCommandType,
            status: stranded.status as CommandView['status'],
            output: stranded.output,
            error: stranded.error,
            serverId: stranded.serverId,
          });
      }
      for (const ownerId of await moderationRepo.ownersWaiting(db)) await dispatch(ownerId);
      // Open Cloud bans still pending a while after they were queued: one whose answer came but was
      // not recorded (the database went away just then) is recorded from the queue's row; one a
      // stopped process never queued is queued now (one update per action: never sent twice).
      const stale = await moderationRepo.waitingForOpenCloud(db, isoPlus(nowIso(), -OPEN_CLOUD_REQUEUE_AFTER_MS));
      for (const row of stale) {
        const update = await deps.openCloud.find(row.id);
        if (update?.state === 'applied') await settle(row, { state: 'applied', error: null });
        else if (update?.state === 'failed') await settle(row, { state: 'failed', error: update.error ?? 'Failed' });
        else if (!update) await toOpenCloud([row]);
      }
    },
  };

  async function settleCommand(command: Pick<CommandView, 'id' | 'type' | 'status' | 'output' | 'error' | 'serverId'>) {
    const rows = await moderationRepo.pendingForCommand(db, command.id);
    if (rows.length === 0) return;
    const outcome = readGameOutcome(command);
    if (outcome.kind === 'retry') {
      if (command.type === 'ban' || command.type === 'unban') {
        await moderationRepo.release(db, command.id);
        return;
      }
      // A kick or warning is for the player where they are now: it is not sent again later.
      for (const row of rows) await settle(row, { state: 'failed', error: 'The game server did not take it in time' });
      return;
    }
    for (const row of rows) await settle(row, { ...outcome.outcome(row.robloxUserId), serverId: command.serverId });
  }
}

export type ModerationService = ReturnType<typeof createModerationService>;
