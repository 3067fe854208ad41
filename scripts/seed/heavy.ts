/**
 * The heavy account: what a successful game has in Moonrelay, written through the server's own
 * services and repositories into an app built as main.ts builds it. At scale 1: 1,000 scripts of
 * 20 versions, 200,000 runs over 90 days, 50,000 console lines of 200 servers, 5,000 live servers
 * with 100,000 players online among 2,000,000 player records, 5,000 moderation actions, 20,000
 * audit entries, schedules and notification destinations with their delivery logs.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { sql } from 'kysely';
import { NOTIFICATION_ATTEMPTS_KEPT, NOTIFICATION_DESTINATIONS_PER_USER } from '@moonrelay/contract/notifications';
import { SCHEDULES_PER_USER_MAX } from '@moonrelay/contract/constants';
import type { RosterPlayer } from '@moonrelay/contract/players';
import type { MoonrelayApp } from '../../server/src/app.ts';
import { loadConfig, type Config } from '../../server/src/config.ts';
import { writeInChunks } from '../../server/src/db/bulk-writes.ts';
import { inTransaction, type Db } from '../../server/src/db/database.ts';
import { AUDIT_ACTIONS, type AuditAction } from '../../server/src/modules/audit/audit.service.ts';
import { consoleRepo, type ConsoleLineFields } from '../../server/src/modules/console/console.repo.ts';
import type { ExecutionRow } from '../../server/src/modules/executions/executions.repo.ts';
import { runsRepo } from '../../server/src/modules/executions/runs.repo.ts';
import { moderationRepo } from '../../server/src/modules/moderation/moderation.repo.ts';
import { attemptsRepo, deliveriesRepo } from '../../server/src/modules/notifications/notifications.repo.ts';
import { usersRepo } from '../../server/src/modules/users/users.repo.ts';
import { sha256Hex } from '../../server/src/security/digest.ts';

export const HEAVY_USERNAME = 'heavy';
export const HEAVY_EMAIL = 'heavy@example.com';
export const HEAVY_PASSWORD = 'heavy-account-password';

const DAY_MS = 24 * 60 * 60 * 1000;
/** What one roster report carries at most (ROSTER_MAX_PLAYERS). */
const ROSTER_PLAYERS_PER_CALL = 700;
/** Roster reports handed to the roster at once: it writes up to 4,000 players per transaction. */
const ROSTER_CALLS_AT_ONCE = 5;
/**
 * The players seen before come and go as whole rosters of 20 on 200 servers (a round of 4,000
 * players, the roster's batch). Ending a session on SQLite looks at every open session of its
 * server, so whole rosters of 700 each replacing the last cost about 0.4 s each, 2,800 of them an
 * hour; rosters of 20 cost 1/35 of that per player.
 */
const PAST_ROSTER_PLAYERS = 20;
const PAST_SERVERS = 200;
/** How often the live servers' presence is renewed (the connection window is 10 s). */
const PRESENCE_RENEW_MS = 3_000;
/** Rows per transaction where the seed writes in bulk. */
const ROWS_PER_TRANSACTION = 10_000;
const VERSIONS_PER_SCRIPT = 20;
/** The first Roblox user id of the seeded players. */
const FIRST_PLAYER_ID = 1_000_000;
/** The player with the longest moderation history (the bench reads it). */
export const MODERATED_PLAYER_ID = FIRST_PLAYER_ID;

/** What scale 1 holds; each count is multiplied by the scale (at least 1). */
const FULL = {
  scripts: 1_000,
  runs: 200_000,
  consoleLines: 50_000,
  consoleServers: 200,
  liveServers: 5_000,
  onlinePlayers: 100_000,
  playerRecords: 2_000_000,
  moderationActions: 5_000,
  auditEntries: 20_000,
  /** 30 asked; an account holds SCHEDULES_PER_USER_MAX (20), so 20 at scale 1. */
  schedules: 30,
  destinations: 20,
};
export type HeavyCounts = { [K in keyof typeof FULL]: number } & { versionsPerScript: number };

export function heavyCounts(scale: number): HeavyCounts {
  const of = (n: number) => Math.max(1, Math.round(n * scale));
  const counts = Object.fromEntries(Object.entries(FULL).map(([key, n]) => [key, of(n)])) as HeavyCounts;
  counts.schedules = Math.min(counts.schedules, SCHEDULES_PER_USER_MAX);
  counts.destinations = Math.min(counts.destinations, NOTIFICATION_DESTINATIONS_PER_USER);
  counts.onlinePlayers = Math.max(counts.onlinePlayers, counts.liveServers);
  counts.playerRecords = Math.max(counts.playerRecords, counts.onlinePlayers);
  counts.versionsPerScript = VERSIONS_PER_SCRIPT;
  return counts;
}

/**
 * The config the seed's app runs with: the server's own (environment), on the given database, with
 * PLAYER_RECORDS_MAX raised to hold the records. A SQLite file's folder is the data folder (where
 * the server's secret is kept, with which the destinations' URLs are sealed).
 */
export function seedConfig(database: string | undefined, env: NodeJS.ProcessEnv = process.env): Config {
  const url = database
    ? database.startsWith('postgres')
      ? database
      : `sqlite:${path.resolve(database.replace(/^sqlite:/, ''))}`
    : env.DATABASE_URL;
  const dataDir =
    url?.startsWith('sqlite:') && !env.DATA_DIR ? path.dirname(url.slice('sqlite:'.length)) : env.DATA_DIR;
  return loadConfig({
    ...env,
    ...(url ? { DATABASE_URL: url } : {}),
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    PLAYER_RECORDS_MAX: String(Math.max(Number(env.PLAYER_RECORDS_MAX ?? 0), 10_000_000)),
    // The seed's roster reports are many and fast; a real fleet's pings are spread out.
    GAME_SHED_LAG_MS: '0',
  });
}

export interface SeedResult {
  userId: string;
  username: string;
  password: string;
  apiKey: string;
  /** A session of the owner. */
  token: string;
  counts: HeavyCounts;
  scriptIds: string[];
  liveServerIds: string[];
  consoleServerIds: string[];
  destinationIds: string[];
  /** Seconds each part took. */
  timings: Record<string, number>;
}

/** Whether the database already has the heavy owner (a second seed is refused). */
export async function hasHeavyOwner(db: Db): Promise<boolean> {
  return (await usersRepo.findByEmailOrUsername(db, HEAVY_USERNAME)) !== undefined;
}

/** A small deterministic generator, so two seeds at one scale hold the same shapes. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const player = (id: number): RosterPlayer => ({
  userId: id,
  name: `Player${id}`,
  displayName: `Shown ${id}`,
  accountAgeDays: id % 3650,
});

const scriptCode = (index: number, version: number) =>
  [
    `-- Script ${index}, version ${version}`,
    `local Players = game:GetService("Players")`,
    `local reward = ${version * 10}`,
    `for _, p in ipairs(Players:GetPlayers()) do`,
    `  print("reward", p.Name, reward + ${index})`,
    `end`,
  ].join('\n');

/** Runs `work` over `items`, `atOnce` at a time. */
async function inParallel<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(atOnce, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/**
 * Keeps the live servers connected (presence) until the answered function is called: without pings
 * the roster's sweep ends their players' sessions once the connection window has passed.
 */
export function keepServersLive(app: MoonrelayApp, userId: string, serverIds: readonly string[]): () => void {
  const touch = () => {
    const now = Date.now();
    for (const serverId of serverIds) void app.services.presence.touch(userId, serverId, null, now);
  };
  touch();
  const timer = setInterval(touch, PRESENCE_RENEW_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Fills the app's database with the heavy account at `scale`. Refuses a database that has it.
 * `log` hears the progress. The live servers stay live while the answered `stopPresence` is not
 * called (the caller serving the app keeps it; a seed alone stops it before closing).
 */
export async function seedHeavy(
  app: MoonrelayApp,
  options: { scale: number; log?: (line: string) => void },
): Promise<SeedResult & { stopPresence: () => void }> {
  const { services } = app;
  const db = app.database.db;
  const log = options.log ?? (() => {});
  const counts = heavyCounts(options.scale);
  const random = randomFrom(Math.round(options.scale * 1e6));
  const timings: Record<string, number> = {};
  const part = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    log(`${name}...`);
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    timings[name] = Math.round(seconds * 10) / 10;
    log(`${name}: ${seconds.toFixed(1)} s`);
    return result;
  };

  if (await hasHeavyOwner(db)) {
    throw new Error(`This database already has the heavy account (${HEAVY_USERNAME}); seed a fresh database instead.`);
  }

  // The owner, registered as the sign-up form does; an admin (the admin screens are timed too).
  const owner = await part('owner', async () => {
    const auth = await services.accounts.register(
      { email: HEAVY_EMAIL, username: HEAVY_USERNAME, name: 'Heavy Games Studio', password: HEAVY_PASSWORD },
      { address: null, userAgent: 'moonrelay seed' },
    );
    await services.users.promote(HEAVY_USERNAME);
    const apiKey = auth.user.apiKey ?? (await services.apiKeys.reveal(auth.user.id));
    if (!apiKey) throw new Error('The heavy account has no API key');
    return { id: auth.user.id, token: auth.token, apiKey, name: auth.user.name };
  });
  const userId = owner.id;
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();

  // Scripts: created and saved through the scripts service, each save a version.
  const scriptIds = await part(`scripts (${counts.scripts} x ${VERSIONS_PER_SCRIPT} versions)`, async () => {
    const ids: string[] = new Array(counts.scripts);
    const indexes = Array.from({ length: counts.scripts }, (_, i) => i);
    await inParallel(indexes, app.database.kind === 'postgres' ? 8 : 1, async (i) => {
      const script = await services.scripts.create(userId, {
        name: `Script ${String(i + 1).padStart(4, '0')} ${['shop', 'rewards', 'admin', 'events'][i % 4]}`,
        description: `Seeded script ${i + 1}`,
        code: scriptCode(i, 1),
      });
      for (let version = 2; version <= VERSIONS_PER_SCRIPT; version++) {
        await services.scripts.update(userId, script.id, { code: scriptCode(i, version) });
      }
      ids[i] = script.id;
      if ((i + 1) % 100 === 0) log(`  ${i + 1} scripts`);
    });
    return ids;
  });

  const liveServerIds = Array.from({ length: counts.liveServers }, (_, i) => `live-${String(i).padStart(5, '0')}`);
  const consoleServerIds = liveServerIds.slice(0, counts.consoleServers);
  while (consoleServerIds.length < counts.consoleServers) consoleServerIds.push(`gone-${consoleServerIds.length}`);

  // Runs. Recording each through the executions service (a sandbox or game run per call) would take
  // hours at 200,000, so the finished runs are written as its `record` writes them (the same row,
  // the code kept once per distinct code, each script's run count), in transactions of bulk
  // inserts through writeInChunks.
  await part(`runs (${counts.runs})`, async () => {
    const runCounts = new Map<string, number>();
    const codes = new Map<string, { code: string; createdAt: string }>();
    for (let start = 0; start < counts.runs; start += ROWS_PER_TRANSACTION) {
      const rows: ExecutionRow[] = [];
      for (let i = start; i < Math.min(counts.runs, start + ROWS_PER_TRANSACTION); i++) {
        const scriptIndex = random() < 0.85 ? Math.floor(random() * scriptIds.length) : -1;
        const scriptId = scriptIndex >= 0 ? scriptIds[scriptIndex]! : null;
        const version = 1 + Math.floor(random() * VERSIONS_PER_SCRIPT);
        const code = scriptIndex >= 0 ? scriptCode(scriptIndex, version) : `print("quick check ${i % 50}")`;
        const game = random() < 0.6;
        const roll = random();
        const limitHit =
          !game && roll > 0.97 ? (['memory', 'instructions', 'output', 'deadline'] as const)[i % 4]! : null;
        const status = limitHit
          ? 'failed'
          : game && roll > 0.95
            ? 'not_connected'
            : roll > 0.85
              ? 'failed'
              : 'succeeded';
        const createdAt = iso(now - Math.floor(random() * 90 * DAY_MS));
        const codeHash = sha256Hex(code);
        if (!codes.has(codeHash)) codes.set(codeHash, { code, createdAt });
        if (scriptId) runCounts.set(scriptId, (runCounts.get(scriptId) ?? 0) + 1);
        const initiator = i % 10 === 0 ? 'schedule' : 'user';
        rows.push({
          id: crypto.randomUUID(),
          userId,
          scriptId,
          scriptVersion: scriptId ? version : null,
          target: game ? 'game' : 'sandbox',
          status,
          codeExcerpt: code.slice(0, 500),
          output: status === 'succeeded' ? `reward Player${i % 1000} ${version * 10}` : '',
          error: status === 'failed' ? (limitHit ? `${limitHit} limit reached` : 'attempt to index nil') : null,
          limitHit,
          durationMs: Math.floor(random() * (game ? 400 : 60)),
          createdAt,
          initiatedBy: null,
          serverId: game && status !== 'not_connected' ? liveServerIds[i % liveServerIds.length]! : null,
          scriptName: scriptId ? `Script ${String(scriptIndex + 1).padStart(4, '0')}` : null,
          initiator,
          codeHash,
          actorId: initiator === 'user' ? userId : null,
          actorName: initiator === 'user' ? owner.name : null,
          keyName: null,
        });
      }
      await inTransaction(db, (trx) =>
        writeInChunks(trx, rows, (chunk) => trx.insertInto('executions').values(chunk).execute()),
      );
      log(`  ${Math.min(counts.runs, start + ROWS_PER_TRANSACTION)} runs`);
    }
    await inTransaction(db, async (trx) => {
      for (const [codeHash, { code, createdAt }] of codes)
        await runsRepo.keepCode(trx, { userId, codeHash, code, createdAt });
      // Each script's all-time count of runs, as executionsRepo.countRun keeps it one run at a time.
      for (const [scriptId, count] of runCounts) {
        await trx.updateTable('scripts').set({ executionCount: count }).where('id', '=', scriptId).execute();
      }
    });
  });

  // Console lines through the console repository's bulk insert (the service's ingest is paced for
  // live pings), spread over the last week, a quarter of them warnings and errors.
  await part(`console lines (${counts.consoleLines} on ${counts.consoleServers} servers)`, async () => {
    const levels = ['output', 'output', 'info', 'output', 'warning', 'error'] as const;
    const span = 7 * DAY_MS;
    for (let start = 0; start < counts.consoleLines; start += ROWS_PER_TRANSACTION) {
      const rows: ConsoleLineFields[] = [];
      const end = Math.min(counts.consoleLines, start + ROWS_PER_TRANSACTION);
      for (let i = start; i < end; i++) {
        const level = levels[i % levels.length]!;
        // Oldest first: the ids then follow the lines' times, as live lines do.
        const at = iso(now - span + Math.floor((i / counts.consoleLines) * span));
        rows.push({
          userId,
          serverId: consoleServerIds[i % consoleServerIds.length]!,
          time: at,
          level,
          text:
            level === 'error'
              ? `ServerScriptService.Shop:${40 + (i % 60)}: attempt to index nil with 'Coins' (purchase ${i})`
              : level === 'warning'
                ? `DataStore request was added to queue (player ${FIRST_PLAYER_ID + (i % 5000)})`
                : `reward Player${FIRST_PLAYER_ID + (i % 5000)} ${i % 100} coins`,
          stack: level === 'error' ? `Script 'ServerScriptService.Shop', Line ${40 + (i % 60)}` : null,
          script: level === 'error' ? 'ServerScriptService.Shop' : null,
          own: 0,
          executionId: null,
          dropped: null,
          receivedAt: at,
        });
      }
      await inTransaction(db, (trx) => consoleRepo.insert(trx, rows));
    }
  });

  // Players through the roster, as the game servers' pings report them: first the players seen
  // over the last 80 days (whole rosters of 700 replacing each other on a few servers, so each
  // record has a closed session), then the ones online now on the live servers.
  const stopPresence = await part(
    `players (${counts.playerRecords} records, ${counts.onlinePlayers} online on ${counts.liveServers} servers)`,
    async () => {
      const history = counts.playerRecords - counts.onlinePlayers;
      const calls = Math.ceil(history / PAST_ROSTER_PLAYERS);
      const historyServers = Math.max(1, Math.min(PAST_SERVERS, calls));
      const span = 80 * DAY_MS;
      const reports: { serverId: string; players: RosterPlayer[]; atMs: number }[] = [];
      for (let call = 0; call < calls; call++) {
        const first = FIRST_PLAYER_ID + call * PAST_ROSTER_PLAYERS;
        const count = Math.min(PAST_ROSTER_PLAYERS, history - call * PAST_ROSTER_PLAYERS);
        reports.push({
          serverId: `past-${call % historyServers}`,
          players: Array.from({ length: count }, (_, i) => player(first + i)),
          atMs: now - span + Math.floor((call / calls) * (span - DAY_MS)),
        });
      }
      // Each past server's last roster is followed by an empty one: its players left.
      for (let s = 0; s < historyServers; s++) {
        reports.push({ serverId: `past-${s}`, players: [], atMs: now - DAY_MS / 2 });
      }
      // A round of reports on distinct servers at once: the roster writes them in one transaction.
      for (let start = 0; start < reports.length; start += historyServers) {
        await Promise.all(
          reports
            .slice(start, start + historyServers)
            .map((r) =>
              services.roster.apply(userId, r.serverId, { count: r.players.length, players: r.players }, r.atMs),
            ),
        );
        if ((start / historyServers) % 50 === 0)
          log(`  ${Math.min(reports.length, start + historyServers)}/${reports.length} past rosters`);
      }

      // The live servers ping (presence) and report who is on them.
      const stop = keepServersLive(app, userId, liveServerIds);
      const firstOnline = FIRST_PLAYER_ID + history;
      const perServer = Math.floor(counts.onlinePlayers / counts.liveServers);
      const extra = counts.onlinePlayers - perServer * counts.liveServers;
      let next = firstOnline;
      const online = liveServerIds.map((serverId, s) => {
        const size = perServer + (s < extra ? 1 : 0);
        const players = Array.from({ length: size }, (_, i) => player(next + i));
        next += size;
        return { serverId, players };
      });
      // Whole reports of about 700 players at once, as the roster batches them.
      const atOnce = Math.max(
        ROSTER_CALLS_AT_ONCE,
        Math.floor((ROSTER_CALLS_AT_ONCE * ROSTER_PLAYERS_PER_CALL) / Math.max(1, perServer)),
      );
      for (let start = 0; start < online.length; start += atOnce) {
        const at = Date.now();
        await Promise.all(
          online
            .slice(start, start + atOnce)
            .map((s) => services.roster.apply(userId, s.serverId, { count: s.players.length, players: s.players }, at)),
        );
      }
      return stop;
    },
  );

  // Moderation: bulk rows through the moderation repository, finished (applied or failed), so the
  // server's sweep has nothing to send. One player has a long history; the rest a few actions each.
  await part(`moderation actions (${counts.moderationActions})`, async () => {
    const kinds = ['note', 'warning', 'kick', 'ban', 'unban'] as const;
    const rows = Array.from({ length: counts.moderationActions }, (_, i) => {
      const kind = kinds[i % kinds.length]!;
      const robloxUserId = String(
        i < 200 ? MODERATED_PLAYER_ID : FIRST_PLAYER_ID + 1 + Math.floor(random() * 50_000 * options.scale + i),
      );
      const createdAt = iso(
        now - Math.floor(((counts.moderationActions - i) / counts.moderationActions) * 60 * DAY_MS),
      );
      return {
        id: crypto.randomUUID(),
        userId,
        robloxUserId,
        kind,
        actorId: userId,
        actorName: owner.name,
        message: `${kind} ${i}: ${['exploiting', 'spam in chat', 'trading scam', 'griefing'][i % 4]}`,
        privateReason: kind === 'ban' ? 'Seen on the anti-cheat report' : null,
        durationSeconds: kind === 'ban' ? (i % 2 ? 86_400 : null) : null,
        path: kind === 'note' ? null : 'game',
        state: kind === 'note' ? 'applied' : i % 17 === 0 ? 'failed' : 'applied',
        error: kind !== 'note' && i % 17 === 0 ? 'The player was not in the game' : null,
        commandId: null,
        claimedAt: null,
        serverId: kind === 'note' ? null : liveServerIds[i % liveServerIds.length]!,
        replaces: null,
        endedBy: null,
        createdAt,
        completedAt: createdAt,
      };
    });
    await moderationRepo.insert(db, rows);
  });

  // Audit entries through the audit service, a transaction per thousand.
  await part(`audit entries (${counts.auditEntries})`, async () => {
    const actions: AuditAction[] = [
      AUDIT_ACTIONS.moderationNote,
      AUDIT_ACTIONS.moderationKick,
      AUDIT_ACTIONS.moderationBan,
      AUDIT_ACTIONS.accountApiKeyCreated,
      AUDIT_ACTIONS.scheduleChanged,
      AUDIT_ACTIONS.adminCommandSent,
    ];
    for (let start = 0; start < counts.auditEntries; start += 1_000) {
      await inTransaction(db, async (trx) => {
        for (let i = start; i < Math.min(counts.auditEntries, start + 1_000); i++) {
          await services.audit.record(
            {
              actor: { id: userId, name: owner.name },
              action: actions[i % actions.length]!,
              targetType: 'player',
              targetId: String(FIRST_PLAYER_ID + (i % 10_000)),
              details: { ownerId: userId, note: `seeded entry ${i}` },
              teamId: userId,
            },
            trx,
          );
        }
      });
    }
  });

  // Schedules through the schedules service, half of them paused; the rest once a year.
  await part(`schedules (${counts.schedules})`, async () => {
    for (let i = 0; i < counts.schedules; i++) {
      await services.schedules.create(userId, scriptIds[i % scriptIds.length]!, {
        kind: 'cron',
        cron: `${i % 60} 3 1 1 *`,
        timeZone: 'UTC',
        target: 'sandbox',
        enabled: i % 2 === 0,
      });
    }
  });

  // Notification destinations through the notifications service; their delivery logs (the last
  // 100 attempts each) through its repositories, delivered or given up, so nothing is sent.
  const destinationIds = await part(`notification destinations (${counts.destinations})`, async () => {
    const ids: string[] = [];
    const attempts = Math.min(
      NOTIFICATION_ATTEMPTS_KEPT,
      Math.max(5, Math.round(NOTIFICATION_ATTEMPTS_KEPT * options.scale * 10)),
    );
    for (let d = 0; d < counts.destinations; d++) {
      const destination = await services.notifications.create(userId, {
        kind: 'webhook',
        name: `Webhook ${d + 1}`,
        url: `https://hooks.example.com/moonrelay/${d + 1}`,
        events: ['player.banned', 'run.failed'],
      });
      ids.push(destination.id);
      const deliveries = Array.from({ length: attempts }, (_, i) => {
        const occurredAt = iso(now - (attempts - i) * 60_000);
        return {
          id: crypto.randomUUID(),
          destinationId: destination.id,
          eventId: crypto.randomUUID(),
          event: i % 2 ? 'player.banned' : 'run.failed',
          payload: JSON.stringify({ seeded: i }),
          occurredAt,
          seq: i + 1,
          state: i % 9 === 0 ? 'failed' : 'delivered',
          attempts: 1,
          nextAttemptAt: occurredAt,
          deliveredAt: i % 9 === 0 ? null : occurredAt,
        };
      });
      await deliveriesRepo.insertMany(db, deliveries);
      for (const delivery of deliveries) {
        await attemptsRepo.insert(db, {
          id: crypto.randomUUID(),
          destinationId: destination.id,
          eventId: delivery.eventId,
          event: delivery.event,
          at: delivery.occurredAt,
          seq: delivery.seq,
          status: delivery.state === 'failed' ? 500 : 204,
          error: delivery.state === 'failed' ? 'The webhook answered 500' : null,
          latencyMs: 40 + ((delivery.seq as number) % 200),
          answer: delivery.state === 'failed' ? 'Internal Server Error' : '',
        });
      }
    }
    return ids;
  });

  // PostgreSQL plans from its statistics and reads an index alone only where its visibility map
  // says the rows are visible to all, both of which autovacuum brings some time after a bulk load.
  // Until then it takes the new tables for empty (a search of the online players took 3.8 s, not
  // 20 ms, on a nested loop) and counts the players online by reading every session (81.8 ms, not
  // 2.4 ms, at scale 0.1). The seeded database is vacuumed and analyzed as a running one would be.
  if (app.database.kind === 'postgres') await part('vacuum analyze', async () => sql`vacuum analyze`.execute(db));

  return {
    userId,
    username: HEAVY_USERNAME,
    password: HEAVY_PASSWORD,
    apiKey: owner.apiKey,
    token: owner.token,
    counts,
    scriptIds,
    liveServerIds,
    consoleServerIds,
    destinationIds,
    timings,
    stopPresence,
  };
}
