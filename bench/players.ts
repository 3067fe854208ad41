/**
 * Players benchmark: `npm run bench -- players [--servers 5000] [--players 20] [--reads 20]`.
 *
 * One user's fleet of `--servers` game servers, each with `--players` players, connects over HTTP
 * and reports its whole roster (as after a restart); then the servers keep pinging as the shipped
 * script does (`roster.count` alone, 1 % of the players joining or leaving over the run), so they
 * stay live, each about every 2 s; once (nearly) all players are online, it measures, `--reads` times
 * each, medians:
 * - the Players screen's first page of everyone online (GET /api/players/online, 50 rows, with the
 *   total), a search by name and by user id, and a player's record;
 * - as the baseline in the same run, GET /api/user (a signed-in call that reads one row);
 * - ping latency without a roster, with `count` alone and with a change (p50 / p99);
 * and the server's RSS before and after, per online player. Targets: the first page
 * <= 300 ms and search <= 50 ms server side with 100,000 online.
 */
import { parseArgs } from 'node:util';
import type { AuthResponse } from '@moonrelay/contract/auth';
import type { RosterPlayer } from '@moonrelay/contract/players';
import { cpuSecondsOf, memoryOf } from './support/proc-stats.ts';
import { RawHttpConnection } from './support/raw-http.ts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const HUGE = '100000000';
/** Connects in flight at once (a restart storm). */
const LANES = 32;
/** Keep-alive pings in flight at once: enough that a round over 5,000 servers fits in PING_EVERY_MS. */
const KEEP_ALIVE_LANES = 128;
/** Each live server pings about this often, as the shipped script does (a server silent 10 s is gone). */
const PING_EVERY_MS = 2_000;
/** After the connects, rounds go on until this share of the players is online, for at most SETTLE_MAX_MS. */
const SETTLED_SHARE = 0.99;
const SETTLE_MAX_MS = 60_000;
/** The steady phase (pings, reads, CPU) lasts at least this long. */
const STEADY_MIN_MS = 10 * PING_EVERY_MS;

const playerOf = (server: number, slot: number): RosterPlayer => {
  const userId = 1_000_000 + server * 1_000 + slot;
  return { userId, name: `Player${userId}`, displayName: `Shown ${userId}`, accountAgeDays: slot * 10 };
};

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { servers: { type: 'string' }, players: { type: 'string' }, reads: { type: 'string' } },
  });
  const serverCount = values.servers ? positiveInteger('--servers', values.servers) : 5_000;
  const perServer = values.players ? Math.min(700, positiveInteger('--players', values.players)) : 20;
  const reads = values.reads ? positiveInteger('--reads', values.reads) : 20;
  const servers = benchServers();
  try {
    const port = await freePort();
    const moonrelay = servers.start('moonrelay', process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: await servers.tempFolder(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: HUGE,
      RATE_LIMIT_GAME_PING_PER_MINUTE: HUGE,
      GAME_NEW_SERVERS_PER_KEY_PER_MINUTE: '1000000',
      GAME_MAX_SERVERS_PER_KEY: String(Math.max(serverCount, 10_000)),
    });
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(moonrelay, `${base}/api/openapi.json`);
    const pid = moonrelay.child.pid!;
    const { token, user } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
      email: 'players@example.com',
      username: 'players',
      name: 'Players',
      password: 'bench-password-123',
    });
    const key = user.apiKey!;
    const rssIdle = memoryOf(pid).rssMb;
    console.log(
      `Players: ${serverCount} servers x ${perServer} players = ${serverCount * perServer} online, one key; ` +
        `${reads} reads each, medians`,
    );

    // Each server's roster as the server holds it now; a ping sends what changed since the last.
    const rosters = Array.from({ length: serverCount }, (_, server) =>
      Array.from({ length: perServer }, (_, slot) => playerOf(server, slot)),
    );
    const pending = new Map<number, { joined: RosterPlayer[]; left: number[] }>();
    const latencies = { none: [] as number[], count: [] as number[], change: [] as number[] };
    let shed = 0;
    let resent = 0;
    let answered = 0;
    /** Servers Moonrelay asked for their whole roster (rosterWanted), as the shipped script honours it. */
    const wanted = new Set<number>();
    // Each lane is one game server's keep-alive connection at a time, written straight on a socket
    // (bench/support/raw-http.ts): fetch's own CPU per request would make this process, not the
    // server, the limit on a machine the two share.
    const lanes: RawHttpConnection[] = [];
    const laneOf = (index: number) => (lanes[index] ??= new RawHttpConnection(HOST, port));
    const ping = async (server: number, asked: 'whole' | 'steady' | 'none', lane: RawHttpConnection) => {
      const kind = asked === 'steady' && wanted.delete(server) ? 'whole' : asked;
      const change = kind === 'whole' ? undefined : pending.get(server);
      if (kind !== 'none') pending.delete(server);
      const roster =
        kind === 'none'
          ? undefined
          : kind === 'whole'
            ? { count: rosters[server]!.length, players: rosters[server] }
            : { count: rosters[server]!.length, ...(change ?? {}) };
      const body = JSON.stringify({ key, serverId: `server-${server}`, ...(roster ? { roster } : {}) });
      let took = 0;
      for (;;) {
        const started = performance.now();
        const answer = await lane.request('POST', '/api/game/ping', body, 30_000);
        took = performance.now() - started;
        if (answer.status === 200) {
          answered += 1;
          if ((JSON.parse(answer.body) as { rosterWanted?: boolean }).rosterWanted) wanted.add(server);
          break;
        }
        // Shed while the server catches up (a connect storm): come back when it says, as games do.
        const retryAfter = answer.retryAfterSeconds;
        if (answer.status !== 503 || !Number.isFinite(retryAfter)) throw new Error(`ping answered ${answer.status}`);
        shed += 1;
        await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 * (1 + Math.random())));
      }
      if (kind === 'none') latencies.none.push(took);
      else if (kind === 'steady') (change ? latencies.change : latencies.count).push(took);
      else if (asked === 'steady') resent += 1;
    };
    const inLanes = async (count: number, work: (index: number, lane: RawHttpConnection) => Promise<void>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: LANES }, async (_, lane) => {
          while (next < count) await work(next++, laneOf(lane));
        }),
      );
    };
    /** The keep-alive rounds' lanes come after the connects' (those run at the same time). */
    const KEEP_ALIVE_FIRST_LANE = LANES;
    const PROBE_LANE = LANES + KEEP_ALIVE_LANES;

    /**
     * Rounds of keep-alive pings over the servers connected so far, each server about every
     * PING_EVERY_MS, spread evenly (a round that takes longer starts the next at once), until
     * `going()` is false.
     */
    const pingRounds = async (upTo: () => number, going: () => boolean, beforeRound = () => {}) => {
      while (going()) {
        const started = performance.now();
        const count = upTo();
        beforeRound();
        // Spread over the interval as a fleet's pings are, not sent in one burst: server i of the
        // round goes at i / count of the way through it (or at once when the round runs late).
        const spacing = count > 0 ? PING_EVERY_MS / count : 0;
        let next = 0;
        await Promise.all(
          Array.from({ length: KEEP_ALIVE_LANES }, async (_, lane) => {
            while (going() && next < count) {
              const server = next++;
              const wait = started + server * spacing - performance.now();
              if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
              await ping(server, 'steady', laneOf(KEEP_ALIVE_FIRST_LANE + lane));
            }
          }),
        );
        const rest = PING_EVERY_MS - (performance.now() - started);
        if (going() && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    };

    // Servers already connected keep pinging while the rest connect, as live games do: a server
    // silent for 10 s counts as gone and its players' sessions end.
    let connected = 0;
    let connecting = true;
    const keepAlive = pingRounds(
      () => connected,
      () => connecting,
    );
    const connectMs = await timed(() =>
      inLanes(serverCount, async (server, lane) => {
        await ping(server, 'whole', lane);
        connected = Math.max(connected, server + 1);
      }),
    );
    connecting = false;
    await keepAlive;
    latencies.count.length = 0;
    latencies.change.length = 0;
    console.log(
      `Connect: ${serverCount} whole rosters in ${fmt(connectMs / 1000, 1)} s ` +
        `(${fmt((serverCount * perServer) / (connectMs / 1000), 0)} players/s; ${shed} connects shed with 503 and retried)`,
    );

    // Keep every server live (a ping about every 2 s), 1 % of the players churning over the run.
    let stop = false;
    let churned = 0;
    let nextId = 10_000_000;
    let round = 0;
    const churnEvery = Math.max(1, Math.round(100 / perServer));
    const churn = () => {
      round += 1;
      for (let server = round % churnEvery; server < serverCount; server += churnEvery * 10) {
        const roster = rosters[server]!;
        const gone = roster.shift()!;
        const joined = { ...playerOf(0, 0), userId: nextId, name: `Player${nextId}` };
        nextId += 1;
        roster.push(joined);
        pending.set(server, { joined: [joined], left: [gone.userId] });
        churned += 2;
      }
    };
    const pinger = pingRounds(
      () => serverCount,
      () => !stop,
      churn,
    );

    // The servers that went quiet during the storm send their whole rosters again when asked; the
    // reads start once (nearly) everyone is online again, or after SETTLE_MAX_MS whatever the count.
    const expected = serverCount * perServer;
    const settleStarted = performance.now();
    let online = await call<{ total: number }>(base, 'GET', '/api/players/online?limit=1', undefined, token);
    while (online.total < expected * SETTLED_SHARE && performance.now() - settleStarted < SETTLE_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS));
      online = await call<{ total: number }>(base, 'GET', '/api/players/online?limit=1', undefined, token);
    }
    const settleMs = performance.now() - settleStarted;
    console.log(`Settled: ${online.total} of ${expected} online after ${fmt(settleMs / 1000, 1)} s more of pings`);
    latencies.count.length = 0;
    latencies.change.length = 0;
    // Where the steady phase's CPU goes: the server's per ping answered, and this process's (the fleet).
    const steady = { at: performance.now(), pings: answered, server: cpuSecondsOf(pid), fleet: process.cpuUsage() };
    const probe = rosters[Math.floor(serverCount / 2)]![perServer - 1]!;
    const measure = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < reads; i += 1) times.push(await timed(() => call(base, 'GET', path, undefined, token)));
      return median(times);
    };
    const baseline = await measure('/api/user');
    const rows = [
      ['GET /api/user (baseline)', baseline],
      ['Online, first page of 50 with total', await measure('/api/players/online?limit=50')],
      ['Online, search by name', await measure(`/api/players/online?q=${probe.name}`)],
      ['Online, search by user id', await measure(`/api/players/online?q=${probe.userId}`)],
      ['Everyone seen, search by name', await measure(`/api/players?q=${probe.name}`)],
      ['A player record', await measure(`/api/players/${probe.userId}`)],
    ] as const;
    for (let i = 0; i < reads; i += 1) await ping(0, 'none', laneOf(PROBE_LANE));
    // The fleet's own figures want more than the reads' few seconds: ten rounds at least.
    const steadyRest = STEADY_MIN_MS - (performance.now() - steady.at);
    if (steadyRest > 0) await new Promise((resolve) => setTimeout(resolve, steadyRest));
    const steadySeconds = (performance.now() - steady.at) / 1000;
    const steadyPings = answered - steady.pings;
    const serverCpu = cpuSecondsOf(pid) - steady.server;
    const fleetCpu = process.cpuUsage(steady.fleet);
    stop = true;
    await pinger;
    for (const lane of lanes) lane?.close();

    console.log(`Online at the start of the reads: ${online.total}; whole rosters sent again when asked: ${resent}`);
    console.log('| Call | Median | Against the baseline |');
    console.log('| --- | --- | --- |');
    for (const [label, ms] of rows) console.log(`| ${label} | ${fmt(ms, 1)} ms | ${fmt(ms / baseline, 1)}x |`);
    const line = (label: string, values: number[]) =>
      console.log(
        `Ping ${label}: p50 ${fmt(percentile(values, 0.5), 1)} ms, p99 ${fmt(percentile(values, 0.99), 1)} ms (${values.length} pings)`,
      );
    line('without a roster', latencies.none);
    line('with the count alone', latencies.count);
    line('with a join and a leave', latencies.change);
    console.log(
      `Steady phase: ${fmt(steadyPings / steadySeconds, 0)} pings/s answered over ${fmt(steadySeconds, 1)} s; ` +
        `server CPU ${fmt((serverCpu / steadySeconds) * 100, 0)} % of a core, ${fmt((serverCpu * 1e6) / Math.max(1, steadyPings), 0)} µs a ping; ` +
        `this fleet's CPU ${fmt(((fleetCpu.user + fleetCpu.system) / 1e6 / steadySeconds) * 100, 0)} % of a core`,
    );
    const rssEnd = memoryOf(pid).rssMb;
    console.log(
      `RSS ${fmt(rssIdle, 0)} MB idle, ${fmt(rssEnd, 0)} MB with ${online.total} online: ` +
        `${fmt(((rssEnd - rssIdle) * 1024 * 1024) / Math.max(1, online.total), 0)} bytes per online player ` +
        `(${churned} joins and leaves during the reads)`,
    );
    console.log(
      `RESULT ${JSON.stringify({ servers: serverCount, perServer, online: online.total, connectMs, baseline, rows, rssIdle, rssEnd })}`,
    );
  } catch (error) {
    servers.printOutputs();
    throw error;
  } finally {
    await servers.close();
  }
}
