import crypto from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { MassExecutionResponse, MassProgressStatus } from '@moonrelay/contract/admin';
import type { DeliveredCommand, GameCommandResponse } from '@moonrelay/contract/game';
import { freePort, startInstance, startRedis, type Instance } from './instances.ts';
import { SimulatedGame } from './simulated-game.ts';

/**
 * Fault drills (docs/operations.md, "Fault drills"): the faults an operator meets, injected into a
 * real scale-out deployment on 127.0.0.1 while game servers long-poll and users send commands, with
 * what every drill must leave true checked from the outside. Shared by `npm run drill`
 * (bench/drill.ts, the full size) and server/src/drill.test.ts (a short version in `npm test`).
 *
 * Setup: a fresh PostgreSQL database, a private redis-server, two server instances and a worker.
 * Game servers (several per user) long-poll (`wait: 2`) their home instance and move to the other
 * when theirs stops answering, as behind a load balancer. Users post a stream of commands (a
 * teleport whose coordinates name it, to one of their servers) through both instances, each with an
 * Idempotency-Key and retried with the same key on a 503, a 409 "in progress" or a broken connection,
 * as a careful client does. Each drill also runs one mass execution (code on every user's game).
 */

export const DRILLS = ['instance-kill', 'redis-restart', 'postgres-terminate', 'worker-kill'] as const;
export type DrillName = (typeof DRILLS)[number];

export interface DrillOptions {
  /** Simulated game servers (spread over the users and both instances). */
  games: number;
  users: number;
  /** Commands per second over all users. */
  commandsPerSecond: number;
  drills: DrillName[];
  /** How long the stream flows before the fault. */
  beforeSeconds: number;
  /** How long it keeps flowing once every instance round-trips a command again. */
  afterSeconds: number;
  /** How long Redis stays away in the Redis drill. */
  redisDownSeconds: number;
  /** How long a killed instance or worker stays dead before it is started again. */
  restartDelaySeconds: number;
  /** After the stream stops: how long an acknowledged command may take to reach its game before it counts as lost. */
  deliveryBoundSeconds: number;
  /** How long every mass-execution part may take to reach a final state after recovery. */
  massBoundSeconds: number;
  /** The longest a fault may take to recover from before the drill counts it as not recovered. */
  recoveryBoundSeconds: number;
  /** PostgreSQL server to create the drill's database on (`postgres://...` to its `postgres` database). */
  adminUrl: string;
  log(line: string): void;
  /** Given the drill's clean-up (stop everything it started, drop its database), for a caller stopped by a signal. */
  onCleanUp?(cleanUp: () => Promise<void>): void;
}

export const FULL_DRILL: Omit<DrillOptions, 'adminUrl' | 'log'> = {
  games: 50,
  users: 10,
  commandsPerSecond: 20,
  drills: [...DRILLS],
  beforeSeconds: 5,
  afterSeconds: 5,
  redisDownSeconds: 3,
  restartDelaySeconds: 1,
  deliveryBoundSeconds: 20,
  // A part the killed worker claimed but never sent ends when the queue runs its job again (BullMQ's lock: 30-60 s).
  massBoundSeconds: 90,
  recoveryBoundSeconds: 60,
};

export interface DrillRow {
  drill: DrillName;
  /** Stream commands answered 200. */
  acknowledged: number;
  /** Acknowledged commands that reached their game. */
  delivered: number;
  /** Acknowledged (or a mass part reported succeeded) but never delivered within the bound. */
  lost: number;
  /** Commands (or mass parts) that reached a game under more than one command id: they ran twice. */
  duplicated: number;
  /** The same command id received again (at-least-once delivery after a lost answer; the game skips it). */
  redelivered: number;
  /** Stream commands whose careful client gave up without an answer (not acknowledged: may or may not have run). */
  unresolved: number;
  /** Answer statuses the games' pings got, and the users' calls (stream, probes, admin). */
  gameStatuses: Record<string, number>;
  userStatuses: Record<string, number>;
  /** Requests that got no answer (connection refused or cut). */
  connectionErrors: number;
  /** Every refusal by who got it, status and error, and how often. */
  refusals: Record<string, number>;
  /** 500 answers seen by anyone (must be 0). */
  status500: number;
  /** 503 answers seen by anyone (expected while a dependency is away). */
  status503: number;
  /** Processes that exited without being killed by the drill. */
  crashes: number;
  crashNotes: string[];
  massParts: number;
  /** Mass-execution parts not in a final state after the bound. */
  massNotFinal: number;
  massStatuses: Record<string, number>;
  /** From the fault until a command round-trips through every instance again (null: not within the bound). */
  recoverySeconds: number | null;
  /** How long the fault itself lasted (a dependency away, a process dead). */
  faultSeconds: number;
}

/** What a drill row breaks: empty when every invariant holds. */
export function invariantFailures(row: DrillRow): string[] {
  const failures: string[] = [];
  if (row.status500 > 0) failures.push(`${row.status500} answer(s) with 500`);
  if (row.lost > 0) failures.push(`${row.lost} acknowledged command(s) lost`);
  if (row.duplicated > 0) failures.push(`${row.duplicated} command(s) run twice`);
  if (row.crashes > 0) failures.push(`${row.crashes} process crash(es)`);
  if (row.massNotFinal > 0) failures.push(`${row.massNotFinal} mass-execution part(s) not final`);
  if (row.recoverySeconds === null) failures.push('no command round-trip on every instance within the bound');
  return failures;
}

const FINAL: MassProgressStatus[] = ['succeeded', 'failed', 'not_connected', 'expired'];
const PASSWORD = 'drill password 0123';
const HUGE = '1000000000';
/** A careful client gives up on one command after this long without an answer. */
const GIVE_UP_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = (ms: number) => ms + Math.random() * ms;

/** What one drill saw; the games, senders and probes write into the current one. */
class Tally {
  gameStatuses: Record<string, number> = {};
  userStatuses: Record<string, number> = {};
  connectionErrors = 0;
  /** Each refusal (status and error) and how often it came. */
  refusals: Record<string, number> = {};
  crashNotes: string[] = [];
  acknowledged: { id: string; serverId: string }[] = [];
  unresolved = 0;
  game(status: number) {
    this.gameStatuses[status] = (this.gameStatuses[status] ?? 0) + 1;
  }
  user(status: number) {
    this.userStatuses[status] = (this.userStatuses[status] ?? 0) + 1;
  }
  refused(who: 'game' | 'user', status: number, body: unknown) {
    const reason = `${who} ${status} ${(body as { error?: string } | null)?.error ?? ''}`.trim();
    this.refusals[reason] = (this.refusals[reason] ?? 0) + 1;
  }
}

interface Managed {
  name: string;
  kind: 'server' | 'worker';
  env: Record<string, string>;
  instance: Instance;
  /** Set while the drill itself kills it, so its exit is not a crash. */
  killing: boolean;
}

interface Account {
  token: string;
  id: string;
  apiKey: string;
}

interface DrillGame {
  sim: SimulatedGame;
  user: number;
  home: number;
}

export async function runDrills(options: DrillOptions): Promise<DrillRow[]> {
  const log = options.log;
  const processes: Managed[] = [];
  let tally = new Tally();
  let stopping = false;
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  let database: { name: string; url: string } | undefined;
  const loops: Promise<void>[] = [];
  const stopGames = new AbortController();

  const watch = (managed: Managed) => {
    const instance = managed.instance;
    void instance.exited.then((code) => {
      if (managed.killing || stopping || managed.instance !== instance) return;
      const tail = instance.output().trim().split('\n').slice(-5).join('\n');
      tally.crashNotes.push(`${managed.name} exited (${code}):\n${tail}`);
      log(`CRASH: ${managed.name} exited with ${code}\n${tail}`);
    });
  };
  const start = async (name: string, kind: 'server' | 'worker', env: Record<string, string>) => {
    const managed: Managed = { name, kind, env, instance: await startInstance(kind, env), killing: false };
    watch(managed);
    processes.push(managed);
    return managed;
  };
  const kill = async (managed: Managed) => {
    managed.killing = true;
    await managed.instance.crash();
  };
  const restart = async (managed: Managed) => {
    managed.instance = await startInstance(managed.kind, managed.env);
    managed.killing = false;
    watch(managed);
  };
  const alive = (managed: Managed) =>
    managed.instance.child.exitCode === null && managed.instance.child.signalCode === null;

  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      stopping = true;
      stopGames.abort();
      await Promise.allSettled(loops);
      await Promise.allSettled(processes.map((managed) => managed.instance.crash()));
      await redis?.stop().catch(() => undefined);
      if (database) await dropDatabase(options.adminUrl, database.name).catch(() => undefined);
    })());
  options.onCleanUp?.(cleanUp);

  try {
    database = await createDatabase(options.adminUrl);
    redis = await startRedis();
    const ports = [await freePort(), await freePort()];
    const common = {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      APP_SECRET: crypto.randomBytes(32).toString('hex'),
      DATA_DIR: os.tmpdir(),
      ADMIN_EMAILS: 'drill-admin@drill.example',
      RATE_LIMIT_PER_MINUTE: HUGE,
      REGISTRATIONS_PER_IP_PER_HOUR: HUGE,
      RATE_LIMIT_EXECUTION_PER_MINUTE: HUGE,
      RATE_LIMIT_GAME_PING_PER_MINUTE: HUGE,
      LOG_LEVEL: 'info',
    };
    log(`database ${database.name}, redis ${redis.url}, instances on ports ${ports.join(' and ')}`);
    // One instance first, so the migrations run once before the others start.
    const servers = [await start('instance A', 'server', { ...common, PORT: String(ports[0]) })];
    const [b, worker] = await Promise.all([
      start('instance B', 'server', { ...common, PORT: String(ports[1]) }),
      start('worker', 'worker', common),
    ]);
    servers.push(b!);
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);

    const register = async (email: string, username: string): Promise<Account> => {
      const response = await fetch(`${bases[0]}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, username, name: username, password: PASSWORD }),
      });
      const body = (await response.json()) as AuthResponse;
      if (!response.ok) throw new Error(`registering ${username}: ${response.status} ${JSON.stringify(body)}`);
      return { token: body.token, id: body.user.id, apiKey: body.user.apiKey ?? '' };
    };
    const admin = await register('drill-admin@drill.example', 'drill_admin');
    const users: Account[] = [];
    for (let i = 0; i < options.users; i += 1) users.push(await register(`drill${i}@drill.example`, `drill_user_${i}`));
    const prober = await register('drill-probe@drill.example', 'drill_probe');

    // Game i belongs to user i % users; its home instance alternates along each user's servers.
    const games: DrillGame[] = Array.from({ length: options.games }, (_, i) => {
      const user = i % options.users;
      const home = Math.floor(i / options.users) % 2;
      const sim = new SimulatedGame({
        url: bases[home]!,
        key: users[user]!.apiKey,
        serverId: `drill-${i}`,
        playerName: `Drill${i}`,
        wait: 2,
      });
      return { sim, user, home };
    });
    // The probe user's two servers, one per instance: recovery is a command through each instance to the other's.
    const probes: DrillGame[] = [0, 1].map((home) => ({
      sim: new SimulatedGame({ url: bases[home]!, key: prober.apiKey, serverId: `probe-${home}`, wait: 2 }),
      user: -1,
      home,
    }));

    const pingLoop = async (game: DrillGame) => {
      while (!stopGames.signal.aborted) {
        const started = Date.now();
        try {
          const outcome = await game.sim.ping({ signal: stopGames.signal });
          tally.game(outcome.status);
          if (outcome.status !== 200) tally.refused('game', outcome.status, outcome.body);
          if (outcome.status === 503 || outcome.status === 429) await sleep(jitter(1_000));
          else if (outcome.status !== 200) await sleep(2_000);
          else if (!outcome.commands.length) await sleep(Math.max(0, 250 - (Date.now() - started)));
        } catch {
          if (stopGames.signal.aborted) break;
          // No answer: its instance is gone. Ping the other one, as a load balancer would send it there.
          tally.connectionErrors += 1;
          game.sim.options.url = bases[(bases.indexOf(game.sim.options.url) + 1) % bases.length]!;
          await sleep(jitter(250));
        }
      }
    };
    for (const game of [...games, ...probes]) {
      // Connected before the first drill: every server is known to presence.
      await game.sim.ping({ wait: 0 });
      loops.push(pingLoop(game));
    }

    /** A careful client's call: retried with the same Idempotency-Key until it has an answer it can act on. */
    const careful = async <T>(
      account: Account,
      method: string,
      path: string,
      body: unknown,
      first: number,
      { failover = true, giveUpMs = GIVE_UP_MS } = {},
    ): Promise<{ status: number; body: T } | undefined> => {
      const key = crypto.randomUUID();
      const deadline = Date.now() + giveUpMs;
      let at = first;
      let backoff = 250;
      while (Date.now() < deadline) {
        try {
          const response = await fetch(bases[at]! + path, {
            method,
            headers: {
              authorization: `Bearer ${account.token}`,
              'idempotency-key': key,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(giveUpMs),
          });
          tally.user(response.status);
          const answer = (await response.json()) as T;
          if (response.status !== 200) tally.refused('user', response.status, answer);
          const retryAfter = Number(response.headers.get('retry-after'));
          const again = response.status === 503 || response.status === 429 || (response.status === 409 && retryAfter);
          if (!again) return { status: response.status, body: answer };
          await sleep(jitter((retryAfter || 1) * 1_000));
        } catch {
          tally.connectionErrors += 1;
          // Behind a load balancer the retry would land on the other instance.
          if (failover) at = (at + 1) % bases.length;
          await sleep(jitter(backoff));
          backoff = Math.min(backoff * 2, 2_000);
        }
      }
      return undefined;
    };

    let sequence = 0;
    const streamOf = (drillNo: number, stop: AbortSignal) =>
      users.map(async (account, user) => {
        const mine = games.filter((game) => game.user === user);
        const interval = (options.users / options.commandsPerSecond) * 1_000;
        for (let n = 0; !stop.aborted; n += 1) {
          const started = Date.now();
          const target = mine[n % mine.length]!;
          sequence += 1;
          const answer = await careful<GameCommandResponse>(
            account,
            'POST',
            '/api/game/command',
            { type: 'teleport', data: { x: sequence, y: drillNo, z: 0 }, serverId: target.sim.options.serverId },
            (n + user) % bases.length,
          );
          if (!answer) tally.unresolved += 1;
          else if (answer.status === 200)
            tally.acknowledged.push({ id: answer.body.id, serverId: target.sim.options.serverId });
          await sleep(Math.max(0, interval - (Date.now() - started)));
        }
      });

    /** Seconds from `since` until a command sent through each instance reached a game. */
    const recovery = async (since: number): Promise<number | null> => {
      const deadline = since + options.recoveryBoundSeconds * 1_000;
      const times = await Promise.all(
        bases.map(async (_, through) => {
          const target = probes[(through + 1) % probes.length]!;
          while (Date.now() < deadline) {
            const answer = await careful<GameCommandResponse>(
              prober,
              'POST',
              '/api/game/command',
              { type: 'heal', serverId: target.sim.options.serverId },
              through,
              // Through this instance only: its own recovery is measured.
              { failover: false, giveUpMs: 3_000 },
            ).catch(() => undefined);
            if (answer?.status === 200) {
              const id = answer.body.id;
              const until = Date.now() + 3_000;
              while (Date.now() < until && !target.sim.received.some((command) => command.id === id)) await sleep(20);
              if (target.sim.received.some((command) => command.id === id)) return (Date.now() - since) / 1_000;
            } else {
              await sleep(200);
            }
          }
          return null;
        }),
      );
      return times.some((time) => time === null) ? null : Math.max(...(times as number[]));
    };

    const massProgress = async (batchId: string) =>
      careful<MassExecutionResponse>(admin, 'GET', `/api/admin/mass-executions/${batchId}`, undefined, 0);

    const rows: DrillRow[] = [];
    for (const [index, drill] of options.drills.entries()) {
      const drillNo = index + 1;
      tally = new Tally();
      // Every process alive (one that crashed in an earlier drill was counted there) and every game home.
      for (const managed of processes) if (!alive(managed)) await restart(managed);
      for (const game of [...games, ...probes]) game.sim.options.url = bases[game.home]!;
      log(`drill ${drillNo}: ${drill}`);
      const receivedBefore = new Map(games.map((game) => [game, game.sim.received.length]));
      const stopStream = new AbortController();
      const stream = streamOf(drillNo, stopStream.signal);
      await sleep(options.beforeSeconds * 1_000);

      const massCode = `print("drill ${drillNo} mass execution")`;
      const mass = await careful<MassExecutionResponse>(
        admin,
        'POST',
        '/api/admin/mass-execution',
        { userIds: users.map((user) => user.id), code: massCode },
        drillNo % 2,
      );
      if (mass?.status !== 200) throw new Error(`the mass execution was refused: ${JSON.stringify(mass)}`);
      const batchId = mass.body.batchId;

      const faultAt = Date.now();
      let faultSeconds = 0;
      const recovered = recovery(faultAt);
      if (drill === 'instance-kill') {
        const victim = servers[1]!;
        await kill(victim);
        await sleep(options.restartDelaySeconds * 1_000);
        await restart(victim);
        faultSeconds = (Date.now() - faultAt) / 1_000;
      } else if (drill === 'redis-restart') {
        await redis.stop();
        await sleep(options.redisDownSeconds * 1_000);
        redis = await startRedis(redis.port);
        faultSeconds = (Date.now() - faultAt) / 1_000;
      } else if (drill === 'postgres-terminate') {
        // Three rounds, a moment apart, so some land on connections in the middle of a transaction.
        let terminated = 0;
        for (let round = 0; round < 3; round += 1) {
          terminated += await terminateSessions(options.adminUrl, database.name);
          await sleep(300);
        }
        log(`  terminated ${terminated} PostgreSQL session(s)`);
      } else {
        // While the batch is in the worker's hands: as soon as any part has left `queued`.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const progress = await massProgress(batchId);
          if (progress?.body.items.some((item) => item.status !== 'queued')) break;
          await sleep(20);
        }
        await kill(worker!);
        await sleep(options.restartDelaySeconds * 1_000);
        await restart(worker!);
        faultSeconds = (Date.now() - faultAt) / 1_000;
      }
      const recoverySeconds = await recovered;
      log(`  recovered in ${recoverySeconds ?? 'more than the bound of'} s`);
      await sleep(options.afterSeconds * 1_000);
      stopStream.abort();
      await Promise.all(stream);

      // Every acknowledged command at its game, within the bound.
      const byServer = new Map(games.map((game) => [game.sim.options.serverId, game]));
      const deliveredIds = () => new Set(games.flatMap((game) => game.sim.received.map((command) => command.id)));
      const deliveryDeadline = Date.now() + options.deliveryBoundSeconds * 1_000;
      let received = deliveredIds();
      while (Date.now() < deliveryDeadline && tally.acknowledged.some((command) => !received.has(command.id))) {
        await sleep(100);
        received = deliveredIds();
      }
      const delivered = tally.acknowledged.filter((command) =>
        byServer.get(command.serverId)!.sim.received.some((got) => got.id === command.id),
      ).length;

      // Every mass part final, within the bound.
      const massDeadline = Date.now() + options.massBoundSeconds * 1_000;
      let items = mass.body.items;
      for (;;) {
        const progress = await massProgress(batchId);
        if (progress?.status === 200) items = progress.body.items;
        if (items.every((item) => FINAL.includes(item.status)) || Date.now() > massDeadline) break;
        await sleep(250);
      }

      // Ran twice: one stream command (its coordinates) or one user's mass part under more than one id.
      const ids = new Map<string, Set<string>>();
      let redelivered = 0;
      for (const game of games) {
        const seen = new Set<string>();
        for (const command of game.sim.received.slice(receivedBefore.get(game))) {
          if (seen.has(command.id)) redelivered += 1;
          seen.add(command.id);
          const mark = markOf(command, drillNo, massCode, game.user);
          if (mark) ids.set(mark, (ids.get(mark) ?? new Set()).add(command.id));
        }
      }
      const duplicated = [...ids.values()].filter((set) => set.size > 1).length;
      const massLost = items.filter(
        (item) => item.status === 'succeeded' && !ids.has(`mass ${users.findIndex((user) => user.id === item.userId)}`),
      ).length;

      const all = (statuses: Record<string, number>[], status: number) =>
        statuses.reduce((sum, counts) => sum + (counts[status] ?? 0), 0);
      const statuses = [tally.gameStatuses, tally.userStatuses];
      const crashes = tally.crashNotes.length;
      const row: DrillRow = {
        drill,
        acknowledged: tally.acknowledged.length,
        delivered,
        lost: tally.acknowledged.length - delivered + massLost,
        duplicated,
        redelivered,
        unresolved: tally.unresolved,
        gameStatuses: tally.gameStatuses,
        userStatuses: tally.userStatuses,
        connectionErrors: tally.connectionErrors,
        refusals: tally.refusals,
        status500: all(statuses, 500),
        status503: all(statuses, 503),
        crashes,
        crashNotes: tally.crashNotes,
        massParts: items.length,
        massNotFinal: items.filter((item) => !FINAL.includes(item.status)).length,
        massStatuses: items.reduce<Record<string, number>>(
          (counts, item) => ({ ...counts, [item.status]: (counts[item.status] ?? 0) + 1 }),
          {},
        ),
        recoverySeconds: recoverySeconds === null ? null : Math.round(recoverySeconds * 10) / 10,
        faultSeconds: Math.round(faultSeconds * 10) / 10,
      };
      rows.push(row);
      log(`RESULT ${JSON.stringify({ bench: 'drill', ...row })}`);
    }
    return rows;
  } finally {
    await cleanUp();
  }
}

/** The mark a received command carries for the duplicate count, if it is one the drill sent. */
function markOf(command: DeliveredCommand, drillNo: number, massCode: string, user: number): string | undefined {
  if (command.type === 'teleport' && command.data.y === drillNo && command.data.z === 0)
    return `stream ${String(command.data.x)}`;
  if (command.data.code === massCode) return `mass ${user}`;
  return undefined;
}

async function createDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `moonrelay_drill_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** What a failover or a PostgreSQL restart does to the instances: every session of the database cut. */
async function terminateSessions(adminUrl: string, name: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const result = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/** The table an operator reads: one row per drill. */
export function formatTable(rows: DrillRow[]): string {
  const header = [
    'drill',
    'acked',
    'delivered',
    'lost',
    'dup',
    'redeliv',
    'unresolved',
    '500',
    '503',
    'other 5xx',
    'conn err',
    'crashes',
    'mass not final',
    'fault s',
    'recovery s',
  ];
  const lines = rows.map((row) => {
    const other = Object.entries({ ...sum(row.gameStatuses, row.userStatuses) })
      .filter(([status]) => Number(status) >= 500 && status !== '500' && status !== '503')
      .reduce((total, [, count]) => total + count, 0);
    return [
      row.drill,
      row.acknowledged,
      row.delivered,
      row.lost,
      row.duplicated,
      row.redelivered,
      row.unresolved,
      row.status500,
      row.status503,
      other,
      row.connectionErrors,
      row.crashes,
      `${row.massNotFinal}/${row.massParts}`,
      row.faultSeconds,
      row.recoverySeconds ?? 'none',
    ].map(String);
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const render = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...lines.map(render)].join('\n');
}

function sum(...counts: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const one of counts) for (const [key, value] of Object.entries(one)) total[key] = (total[key] ?? 0) + value;
  return total;
}
