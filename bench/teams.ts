/**
 * Teams benchmark: `npm run bench -- teams [--teams 50] [--checks 20000] [--requests 400] [--postgres URL]`.
 *
 * 1. The authorization check (docs/decisions/049) for a member of `--teams` teams, each with
 *    permissions set one by one, among 1,000 other teams of 20 members: what a request naming a
 *    team pays (the membership read and the decision), in process, on SQLite and (with
 *    `--postgres` or TEST_POSTGRES_URL) PostgreSQL. Baseline in the same run: resolving a session
 *    token, which every signed-in request already pays. p50 and p99.
 * 2. Over HTTP against a real server: GET /api/scripts on one's own account against the same call
 *    on a team (the header read and checked), and a game ping with one's own key against a ping
 *    with a key a member made for a team. Alternating, medians and ratios.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { TEAM_HEADER, TEAM_PERMISSIONS } from '@moonrelay/contract/teams';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { migrateToLatest, openDatabase, type Db } from '../server/src/db/database.ts';
import { createMemoryEventBus } from '../server/src/platform/event-bus.ts';
import { createSessionsService } from '../server/src/modules/auth/sessions.service.ts';
import { createTeamsService } from '../server/src/modules/teams/teams.service.ts';
import { createAuditService } from '../server/src/modules/audit/audit.service.ts';
import { encodePermissions, holds } from '../server/src/security/team-permissions.ts';
import { benchServers, call, freePort, HOST, waitUntilReady } from './support/processes.ts';
import { fmt, median, percentile, positiveInteger } from './support/stats.ts';

const quiet = { warn: () => undefined, info: () => undefined };
const at = new Date().toISOString();

async function person(db: Db, id: string) {
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@example.com`,
      username: id,
      usernameKey: id,
      name: id,
      passwordHash: null,
      googleId: null,
      isAdmin: 0,
      kind: 'person',
      createdAt: at,
      updatedAt: at,
    })
    .execute();
}

/** Fills the database through the teams service (never raw SQL for what the service writes). */
async function seed(db: Db, memberOf: number) {
  const bus = createMemoryEventBus(() => undefined);
  const teams = createTeamsService({ db, bus, audit: createAuditService({ db, bus }) });
  await person(db, 'member');
  // 60 owners (the service allows 20 teams each), each team with 19 more members besides its owner.
  const others = Array.from({ length: 60 }, (_, index) => `other-${index}`);
  for (const id of others) await person(db, id);
  const mine: string[] = [];
  for (let index = 0; index < 1000 + memberOf; index += 1) {
    const owner = others[index % others.length]!;
    const team = await teams.create(owner, `Team ${index}`);
    const rows = Array.from({ length: 19 }, (_, offset) => others[(index + 1 + offset) % others.length]!).map(
      (userId) => ({ teamId: team.id, userId, permissions: encodePermissions(['scripts.read']), joinedAt: at }),
    );
    await db.insertInto('teamMembers').values(rows).execute();
    if (index < memberOf) {
      // Custom permissions, a different set for each team.
      const permissions = TEAM_PERMISSIONS.filter((_, bit) => (index >> bit) % 2 === 1 || bit === 0);
      await db
        .insertInto('teamMembers')
        .values({ teamId: team.id, userId: 'member', permissions: encodePermissions(permissions), joinedAt: at })
        .execute();
      mine.push(team.id);
    }
  }
  return { teams, mine };
}

async function timeEach(count: number, work: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    await work(index);
    times.push(performance.now() - started);
  }
  return times;
}

async function inProcess(label: string, db: Db, memberOf: number, checks: number) {
  await migrateToLatest(db);
  const { teams, mine } = await seed(db, memberOf);
  const sessions = createSessionsService({ db, bus: createMemoryEventBus(() => undefined) });
  const token = await sessions.create('member', {
    signedInWith: 'password',
    secondFactor: null,
    device: { address: null, userAgent: null },
  });
  // Warm both paths (statement caches, the pool) before measuring.
  for (let index = 0; index < 200; index += 1) {
    await teams.accessOf('member', mine[index % mine.length]!);
    await sessions.resolve(token);
  }
  const check = await timeEach(checks, async (index) => {
    const held = await teams.accessOf('member', mine[index % mine.length]!);
    return held && holds(held, 'scripts.read');
  });
  const session = await timeEach(checks, () => sessions.resolve(token));
  const p = (values: number[], q: number) => fmt(percentile(values, q), 3);
  console.log(
    `${label.padEnd(10)} check p50 ${p(check, 0.5)} ms  p99 ${p(check, 0.99)} ms | session resolve p50 ${p(session, 0.5)} ms  p99 ${p(session, 0.99)} ms | ratio of p50s ${fmt(median(check) / median(session), 2)}`,
  );
}

async function overHttp(requests: number) {
  const servers = benchServers();
  try {
    const port = await freePort();
    const moonrelay = servers.start('moonrelay', 'npx', ['tsx', 'server/src/main.ts'], {
      PORT: String(port),
      HOST,
      DATA_DIR: await servers.tempFolder(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000000',
    });
    const base = `http://${HOST}:${port}`;
    await waitUntilReady(moonrelay, `${base}/api/openapi.json`);
    const register = (name: string) =>
      call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `${name}@example.com`,
        username: name,
        name,
        password: 'bench-password-123',
      });
    const owner = await register('owner');
    const member = await register('member');
    const team = await call<{ id: string }>(base, 'POST', '/api/teams', { name: 'Bench' }, owner.token);
    const link = await call<{ token: string }>(
      base,
      'POST',
      `/api/teams/${team.id}/invitations`,
      { role: 'developer' },
      owner.token,
    );
    await call(base, 'POST', '/api/teams/join', { token: link.token }, member.token);
    const teamKey = await fetch(`${base}/api/user/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${member.token}`, [TEAM_HEADER]: team.id },
      body: JSON.stringify({ name: 'Game', scopes: ['game'] }),
    }).then((res) => res.json() as Promise<{ key: string }>);

    // The same kind of key on one's own account: the two pings differ only in whose key it is.
    const ownKey = await call<{ key: string }>(
      base,
      'POST',
      '/api/user/api-keys',
      { name: 'Game', scopes: ['game'] },
      member.token,
    );
    const get = (teamId?: string) =>
      fetch(`${base}/api/scripts`, {
        headers: { authorization: `Bearer ${member.token}`, ...(teamId ? { [TEAM_HEADER]: teamId } : {}) },
      }).then((res) => res.arrayBuffer());
    const ping = (key: string) =>
      fetch(`${base}/api/game/ping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, serverId: 'bench' }),
      }).then((res) => res.arrayBuffer());
    const own: number[] = [];
    const onTeam: number[] = [];
    const ownPing: number[] = [];
    const teamPing: number[] = [];
    for (let round = 0; round < 50; round += 1) await Promise.all([get(), get(team.id), ping(ownKey.key)]);
    for (let round = 0; round < requests; round += 1) {
      // Alternating, each first on every other round, so both see the same machine.
      const pairs: [() => Promise<void>, () => Promise<void>][] = [
        [
          async () => void own.push(...(await timeEach(1, () => get()))),
          async () => void onTeam.push(...(await timeEach(1, () => get(team.id)))),
        ],
        [
          async () => void ownPing.push(...(await timeEach(1, () => ping(ownKey.key)))),
          async () => void teamPing.push(...(await timeEach(1, () => ping(teamKey.key)))),
        ],
      ];
      for (const [first, second] of pairs) {
        if (round % 2 === 0) {
          await first();
          await second();
        } else {
          await second();
          await first();
        }
      }
    }
    const ms = (values: number[]) => fmt(median(values), 3);
    console.log(
      `HTTP       GET /api/scripts own ${ms(own)} ms, on a team ${ms(onTeam)} ms (ratio ${fmt(median(onTeam) / median(own), 2)}) | ping with own key ${ms(ownPing)} ms, with a team's key ${ms(teamPing)} ms (ratio ${fmt(median(teamPing) / median(ownPing), 2)})`,
    );
  } finally {
    await servers.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      teams: { type: 'string' },
      checks: { type: 'string' },
      requests: { type: 'string' },
      postgres: { type: 'string' },
    },
  });
  const memberOf = values.teams ? positiveInteger('--teams', values.teams) : 50;
  const checks = values.checks ? positiveInteger('--checks', values.checks) : 20_000;
  const requests = values.requests ? positiveInteger('--requests', values.requests) : 400;
  console.log(`Teams: a member of ${memberOf} teams with custom permissions, among 1,000 teams of 20 members`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-bench-teams-'));
  const sqlite = openDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.db') }, quiet);
  try {
    await inProcess('SQLite', sqlite.db, memberOf, checks);
  } finally {
    await sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const postgresUrl = values.postgres ?? process.env.TEST_POSTGRES_URL;
  if (postgresUrl) {
    const name = `moonrelay_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const postgres = openDatabase({ kind: 'postgres', url: url.toString() }, quiet);
    try {
      await inProcess('PostgreSQL', postgres.db, memberOf, checks);
    } finally {
      await postgres.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } else {
    console.log('PostgreSQL: skipped (pass --postgres postgres://... or set TEST_POSTGRES_URL)');
  }

  await overHttp(requests);
}
