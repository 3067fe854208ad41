import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GAME_OPEN_COMMANDS_MAX } from '@moonrelay/contract/constants';
import type { CommandView } from '@moonrelay/contract/game';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { isoPlus, nowIso } from '../../db/time.ts';
import { TOO_MANY_OPEN_BROADCASTS, TOO_MANY_OPEN_COMMANDS } from './game-link.service.ts';

/** A command without serverId to a user with live servers: one broadcast (decision 043). */
describeEachEngine('broadcasts', (engine) => {
  let server: TestServer;
  let serverCounter = 0;

  beforeAll(async () => {
    server = await startTestServer(engine, {
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
      RATE_LIMIT_PER_MINUTE: '100000',
    });
  });
  afterAll(() => server.close());

  const game = (key: string, options: { wait?: number } = {}) =>
    new SimulatedGame({ url: server.url, key, serverId: `b-${++serverCounter}`, wait: options.wait });
  const send = (token: string, body: unknown) => server.call('POST', '/api/game/command', { token, body });
  const db = () => server.app.database.db;
  const broadcastRow = (id: string) =>
    db().selectFrom('gameBroadcasts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const copiesOf = (id: string) => db().selectFrom('gameCommands').selectAll().where('broadcastId', '=', id).execute();
  /** Resolves with the first `command:update` of this broadcast that `match` accepts. */
  const updateOf = (id: string, match: (command: CommandView) => boolean) =>
    new Promise<CommandView>((resolve) => {
      const unsubscribe = server.app.services.bus.subscribe((event) => {
        if (event.type === 'command:update' && event.command.id === id && match(event.command)) {
          unsubscribe();
          resolve(event.command);
        }
      });
    });

  it('sends to 5,000 live servers as one row: each takes its own copy once, and the totals reach succeeded', async () => {
    const user = await registerUser(server);
    const { presence, commands } = server.app.services;
    const servers = Array.from({ length: 5_000 }, (_, index) => `fleet-${index}`);
    const connectedAtMs = Date.now();
    for (const serverId of servers) await presence.touch(user.user.id, serverId, null, connectedAtMs);
    const real = game(user.user.apiKey);
    await real.ping();

    const sent = await send(user.token, { type: 'heal' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({ queued: true, ids: [sent.body.id], servers: 5_001 });
    expect(await copiesOf(sent.body.id)).toHaveLength(0);

    // Every server's ping at once (written together), and one of them over HTTP.
    const taken = await Promise.all(
      servers.map((serverId) => commands.takeForServer(user.user.id, serverId, connectedAtMs)),
    );
    expect(taken.every((copies) => copies.length === 1 && copies[0]!.type === 'heal')).toBe(true);
    real.health = 5;
    await real.ping();
    expect(real.health).toBe(100);
    // Taken once: the next pings find nothing.
    expect((await commands.takeForServer(user.user.id, 'fleet-0', connectedAtMs)).length).toBe(0);
    expect(await copiesOf(sent.body.id)).toHaveLength(5_001);
    expect(await broadcastRow(sent.body.id)).toMatchObject({ servers: 5_001, taken: 5_001, succeeded: 0 });

    const over = updateOf(sent.body.id, (command) => command.status === 'succeeded');
    await Promise.all(
      taken.map(([copy]) => commands.recordResults(user.user.id, [{ id: copy!.id, success: true, output: 'ok' }])),
    );
    await real.ping();
    await commands.flushBroadcastProgress();
    expect(await over).toMatchObject({
      status: 'succeeded',
      broadcast: { servers: 5_001, taken: 5_001, succeeded: 5_001, failed: 0 },
    });
    expect((await broadcastRow(sent.body.id)).endedAt).not.toBeNull();
  });

  it('is not taken by a server that connected after it; two pings of one server at once take it once', async () => {
    const user = await registerUser(server);
    const early = game(user.user.apiKey);
    await early.ping();
    const sent = await send(user.token, { type: 'heal' });
    expect(sent.body.servers).toBe(1);
    const late = game(user.user.apiKey);
    expect((await late.ping()).commands).toEqual([]);

    const pings = await Promise.all([
      early.ping({ run: false }),
      early.ping({ run: false }),
      early.ping({ run: false }),
    ]);
    const delivered = pings.flatMap((ping) => ping.commands);
    expect(delivered).toHaveLength(1);
    expect((await early.ping({ run: false })).commands).toEqual([]);
    expect(await copiesOf(sent.body.id)).toEqual([
      expect.objectContaining({ id: delivered[0]!.id, serverId: early.options.serverId, status: 'delivered' }),
    ]);
  });

  it('delivers a copy again once its lease passes, and counts its result once', async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    const sent = await send(user.token, { type: 'heal' });
    const [copy] = (await g.ping({ run: false })).commands;
    expect(copy).toBeDefined();
    expect((await g.ping({ run: false })).commands).toEqual([]);
    await db()
      .updateTable('gameCommands')
      .set({ leaseUntil: new Date(Date.now() - 1).toISOString() })
      .where('id', '=', copy!.id)
      .execute();
    await server.app.services.commands.refreshHint();
    expect((await g.ping()).commands.map((command) => command.id)).toEqual([copy!.id]);
    // Another user's key cannot answer it.
    const other = await registerUser(server);
    const foreign = await server.call('POST', '/api/game/ping', {
      body: {
        key: other.user.apiKey,
        serverId: g.options.serverId,
        results: [{ id: copy!.id, success: false, error: 'x' }],
      },
    });
    expect(foreign.status).toBe(200);
    expect(await broadcastRow(sent.body.id)).toMatchObject({ succeeded: 0, failed: 0 });
    // The result, then the same result again (an answer lost on the way back).
    const result = { id: copy!.id, success: true, output: '' };
    for (let i = 0; i < 2; i++) {
      const res = await server.call('POST', '/api/game/ping', {
        body: { key: user.user.apiKey, serverId: g.options.serverId, results: [result] },
      });
      expect(res.status).toBe(200);
    }
    expect(await broadcastRow(sent.body.id)).toMatchObject({ taken: 1, succeeded: 1, failed: 0 });
    expect((await copiesOf(sent.body.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it("tells a failure in the game's own words: alone for one server, with the count for a fleet", async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    const answer = async (id: string, serverId: string, error: string) =>
      server.call('POST', '/api/game/ping', {
        body: { key: user.user.apiKey, serverId, results: [{ id, success: false, error }] },
      });
    const alone = await send(user.token, { type: 'heal' });
    const [copy] = (await g.ping({ run: false })).commands;
    const failed = updateOf(alone.body.id, (command) => command.status === 'failed');
    await answer(copy!.id, g.options.serverId, 'Character not found');
    await server.app.services.commands.flushBroadcastProgress();
    expect(await failed).toMatchObject({ error: 'Character not found', broadcast: { servers: 1, failed: 1 } });

    const other = game(user.user.apiKey);
    await other.ping();
    const both = await send(user.token, { type: 'heal' });
    const [first] = (await g.ping({ run: false })).commands;
    const [second] = (await other.ping({ run: false })).commands;
    const over = updateOf(both.body.id, (command) => command.status === 'failed');
    await answer(first!.id, g.options.serverId, 'Humanoid missing');
    await answer(second!.id, other.options.serverId, 'Character not found');
    await server.app.services.commands.flushBroadcastProgress();
    expect((await over).error).toBe('Failed on 2 of 2 game servers. First error: Humanoid missing');
  });

  it('wakes a held long-poll once with every broadcast sent meanwhile', async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    const { waits } = server.app.services;
    const before = waits.pending;
    const held = g.ping({ wait: 15, run: false });
    await vi.waitFor(() => expect(waits.pending).toBe(before + 1));
    const first = await send(user.token, { type: 'heal' });
    const answer = await held;
    const copies = await copiesOf(first.body.id);
    expect(answer.commands.map((command) => command.id)).toEqual(copies.map((copy) => copy.id));
  });

  it('reaches the pings of an instance that missed the news, after the refresh', async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    // Written by another instance whose bus message never came.
    const createdAt = nowIso();
    await db()
      .insertInto('gameBroadcasts')
      .values({
        id: crypto.randomUUID(),
        userId: user.user.id,
        type: 'reset',
        data: '{}',
        source: 'dashboard',
        servers: 1,
        createdAt,
        expiresAt: isoPlus(createdAt, 60_000),
        endedAt: null,
      })
      .execute();
    expect((await g.ping()).commands).toEqual([]);
    await server.app.services.commands.refreshHint();
    expect((await g.ping()).commands.map((command) => command.type)).toEqual(['reset']);
  });

  it('removes a broadcast ended over an hour ago with its copies, and keeps a recent one', async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    const old = await send(user.token, { type: 'heal' });
    const recent = await send(user.token, { type: 'reset' });
    await g.ping();
    await g.ping();
    expect(await copiesOf(old.body.id)).toHaveLength(1);
    const ended = (ms: number) => new Date(Date.now() - ms).toISOString();
    await db()
      .updateTable('gameBroadcasts')
      .set({ endedAt: ended(2 * 60 * 60 * 1000) })
      .where('id', '=', old.body.id)
      .execute();
    await db()
      .updateTable('gameBroadcasts')
      .set({ endedAt: ended(60 * 1000) })
      .where('id', '=', recent.body.id)
      .execute();
    await server.app.services.commands.sweep();
    expect(await db().selectFrom('gameBroadcasts').select('id').where('id', '=', old.body.id).execute()).toEqual([]);
    expect(await copiesOf(old.body.id)).toEqual([]);
    expect(await broadcastRow(recent.body.id)).toMatchObject({ succeeded: 1 });
    expect(await copiesOf(recent.body.id)).toHaveLength(1);
  });

  it(`refuses a command past ${GAME_OPEN_COMMANDS_MAX} waiting for one server, or past as many open broadcasts, with 429`, async () => {
    const user = await registerUser(server);
    const g = game(user.user.apiKey);
    await g.ping();
    const createdAt = nowIso();
    const expiresAt = isoPlus(createdAt, 60_000);
    const waiting = Array.from({ length: GAME_OPEN_COMMANDS_MAX }, () => ({
      id: crypto.randomUUID(),
      userId: user.user.id,
      serverId: g.options.serverId,
      type: 'heal',
      data: '{}',
      status: 'queued',
      source: 'dashboard',
      executionId: null,
      attempts: 0,
      leaseUntil: null,
      output: null,
      error: null,
      durationMs: null,
      createdAt,
      expiresAt,
      deliveredAt: null,
      completedAt: null,
      broadcastId: null,
    }));
    for (let start = 0; start < waiting.length; start += 500)
      await db()
        .insertInto('gameCommands')
        .values(waiting.slice(start, start + 500))
        .execute();
    const one = await send(user.token, { type: 'heal', serverId: g.options.serverId });
    expect(one.status).toBe(429);
    expect(one.body).toEqual({ error: TOO_MANY_OPEN_COMMANDS });

    const open = Array.from({ length: GAME_OPEN_COMMANDS_MAX }, () => ({
      id: crypto.randomUUID(),
      userId: user.user.id,
      type: 'heal',
      data: '{}',
      source: 'dashboard',
      servers: 1,
      createdAt,
      expiresAt,
      endedAt: null,
    }));
    for (let start = 0; start < open.length; start += 500)
      await db()
        .insertInto('gameBroadcasts')
        .values(open.slice(start, start + 500))
        .execute();
    const all = await send(user.token, { type: 'heal' });
    expect(all.status).toBe(429);
    expect(all.body).toEqual({ error: TOO_MANY_OPEN_BROADCASTS });
    const unknown = await send(user.token, { type: 'heal', serverId: 'nobody-here' });
    expect(unknown.status).toBe(409);
  });
});
