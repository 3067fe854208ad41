import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleLine, ConsoleLineIn, ConsoleLinesEvent } from '@moonrelay/contract/console';
import {
  CONSOLE_BATCH_MAX_LINES,
  CONSOLE_EVENT_MAX_LINES,
  CONSOLE_LINE_MAX_CHARS,
  CONSOLE_STACK_MAX_CHARS,
} from '@moonrelay/contract/constants';
import { SOCKET_PATH } from '@moonrelay/contract/events';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { CONSOLE_CURSOR_INVALID } from './console.service.ts';

/**
 * The game console over real HTTP and Socket.IO: lines ride on pings, are kept per game server,
 * searched and paged, pushed live to their owner only, and what is lost is counted, never silent.
 */

const KEEP = 100;
const BUDGET = 1_000;

describeEachEngine('game console API', (engine) => {
  let server: TestServer;
  let admin: { token: string };
  const sockets: Socket[] = [];
  let serverCounter = 0;
  const baseTime = Date.parse('2026-11-22T10:00:00.000Z');

  beforeAll(async () => {
    server = await startTestServer(engine, {
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
      CONSOLE_LINES_PER_SERVER: String(KEEP),
      CONSOLE_LINES_PER_USER_PER_MINUTE: String(BUDGET),
    });
    // The first account of a fresh server is an admin.
    admin = await registerUser(server);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  const user = async () => {
    const { token, user: profile } = await registerUser(server);
    return { token, key: profile.apiKey as string, id: profile.id as string };
  };
  const nextServer = () => `console-${++serverCounter}`;
  const line = (text: string, fields: Partial<ConsoleLineIn> = {}, offsetMs = 0): ConsoleLineIn => ({
    time: baseTime + offsetMs,
    level: 'output',
    text,
    ...fields,
  });
  const ping = (key: string, serverId: string, consoleBatch: unknown, extra: Record<string, unknown> = {}) =>
    server.call('POST', '/api/game/ping', { body: { key, serverId, console: consoleBatch, ...extra } });
  const consolePage = (token: string, query = '') => server.call('GET', `/api/game/console${query}`, { token });
  const texts = (lines: ConsoleLine[]) => lines.map((entry) => entry.text);

  const open = async (token: string) => {
    const socket = connect(server.url, {
      path: SOCKET_PATH,
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };
  /** Every `console:lines` event of the socket until one passes `until`, which answers them all. */
  const eventsUntil = (socket: Socket, until: (event: ConsoleLinesEvent) => boolean) =>
    new Promise<ConsoleLinesEvent[]>((resolve, reject) => {
      const seen: ConsoleLinesEvent[] = [];
      const timer = setTimeout(
        () => reject(new Error(`no matching console:lines event; saw ${JSON.stringify(seen)}`)),
        5_000,
      );
      const handler = (event: ConsoleLinesEvent) => {
        seen.push(event);
        if (!until(event)) return;
        clearTimeout(timer);
        socket.off('console:lines', handler);
        resolve(seen);
      };
      socket.on('console:lines', handler);
    });

  describe('storing and reading', () => {
    it('keeps the lines a ping carries and answers them newest first, with every field', async () => {
      const alice = await user();
      const serverId = nextServer();
      const res = await ping(alice.key, serverId, {
        lines: [
          line('hello'),
          line('careful', { level: 'warning' }, 1),
          line(
            'ServerScriptService.Script:3: boom',
            {
              level: 'error',
              stack: 'ServerScriptService.Script:3 function boom\nServerScriptService.Script:5',
              script: 'ServerScriptService.Script',
            },
            2,
          ),
          line('[Moonrelay] Connected', { level: 'info', own: true }, 3),
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, command: null, commands: [] });

      const page = await consolePage(alice.token);
      expect(page.status).toBe(200);
      expect(page.body.nextCursor).toBeNull();
      expect(texts(page.body.lines)).toEqual([
        '[Moonrelay] Connected',
        'ServerScriptService.Script:3: boom',
        'careful',
        'hello',
      ]);
      const [own, error] = page.body.lines;
      expect(error).toEqual({
        id: expect.stringMatching(/^\d+$/),
        serverId,
        time: new Date(baseTime + 2).toISOString(),
        level: 'error',
        text: 'ServerScriptService.Script:3: boom',
        stack: 'ServerScriptService.Script:3 function boom\nServerScriptService.Script:5',
        script: 'ServerScriptService.Script',
        own: false,
        executionId: null,
      });
      expect(own).toMatchObject({ level: 'info', own: true, stack: null, script: null });
      const ids = page.body.lines.map((entry: ConsoleLine) => Number(entry.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('filters by server, level, time and text, and counts errors of the last hour per server', async () => {
      const alice = await user();
      const [one, two] = [nextServer(), nextServer()];
      await ping(alice.key, one, {
        lines: [line('old output'), line('an error', { level: 'error' }, 10), line('late info', { level: 'info' }, 20)],
      });
      await ping(alice.key, two, {
        lines: [line('other server', { level: 'warning' }, 5), line('other error', { level: 'error' }, 6)],
      });
      expect(texts((await consolePage(alice.token, `?serverId=${one}`)).body.lines)).toEqual([
        'late info',
        'an error',
        'old output',
      ]);
      expect(texts((await consolePage(alice.token, '?level=error,warning')).body.lines)).toEqual([
        'other error',
        'other server',
        'an error',
      ]);
      const since = new Date(baseTime + 10).toISOString();
      expect(texts((await consolePage(alice.token, `?serverId=${one}&since=${since}`)).body.lines)).toEqual([
        'late info',
        'an error',
      ]);
      expect(texts((await consolePage(alice.token, '?q=ERROR')).body.lines)).toEqual(['other error', 'an error']);

      const counts = await server.call('GET', '/api/game/console/errors', { token: alice.token });
      expect(counts.status).toBe(200);
      expect(counts.body).toEqual({
        servers: [
          { serverId: one, errorsLastHour: 1 },
          { serverId: two, errorsLastHour: 1 },
        ].sort((a, b) => a.serverId.localeCompare(b.serverId)),
      });
    });

    it('searches % and _ literally, case-insensitively, in the text and the stack', async () => {
      const alice = await user();
      const serverId = nextServer();
      await ping(alice.key, serverId, {
        lines: [
          line('progress 100% done'),
          line('progress 100 done'),
          line('value of my_var'),
          line('value of myXvar'),
          line('a backslash \\ here'),
          line('crashed', { level: 'error', stack: 'ReplicatedStorage.Lib:7 function Spawn_Wave' }),
        ],
      });
      const search = async (q: string) =>
        texts((await consolePage(alice.token, `?q=${encodeURIComponent(q)}`)).body.lines);
      expect(await search('100%')).toEqual(['progress 100% done']);
      expect(await search('my_var')).toEqual(['value of my_var']);
      expect(await search('\\')).toEqual(['a backslash \\ here']);
      expect(await search('SPAWN_wave')).toEqual(['crashed']);
      expect(await search('%')).toEqual(['progress 100% done']);
    });

    it('pages newest first with a stable cursor, however many lines arrive meanwhile', async () => {
      const alice = await user();
      const serverId = nextServer();
      await ping(alice.key, serverId, { lines: ['a', 'b', 'c', 'd', 'e'].map((text, i) => line(text, {}, i)) });
      const first = await consolePage(alice.token, '?limit=2');
      expect(texts(first.body.lines)).toEqual(['e', 'd']);
      expect(first.body.nextCursor).toBe(first.body.lines[1].id);
      await ping(alice.key, serverId, { lines: [line('f', {}, 10), line('g', {}, 11)] });
      const second = await consolePage(alice.token, `?limit=2&cursor=${first.body.nextCursor}`);
      expect(texts(second.body.lines)).toEqual(['c', 'b']);
      const last = await consolePage(alice.token, `?limit=2&cursor=${second.body.nextCursor}`);
      expect(texts(last.body.lines)).toEqual(['a']);
      expect(last.body.nextCursor).toBeNull();
      expect(texts((await consolePage(alice.token, '?limit=2')).body.lines)).toEqual(['g', 'f']);
    });

    it('refuses a bad query with 400: an unknown level, a cursor it never gave, a limit out of range', async () => {
      const alice = await user();
      const badLevel = await consolePage(alice.token, '?level=error,verbose');
      expect(badLevel.status).toBe(400);
      expect(badLevel.body.error).toBe('level must be a comma-separated list of output, info, warning, error');
      for (const cursor of ['abc', '-1', '0', '1e5']) {
        const res = await consolePage(alice.token, `?cursor=${cursor}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: CONSOLE_CURSOR_INVALID });
      }
      expect((await consolePage(alice.token, '?limit=501')).status).toBe(400);
      expect((await consolePage(alice.token, '?since=yesterday')).status).toBe(400);
      expect((await server.call('GET', '/api/game/console')).status).toBe(401);
    });
  });

  describe('what a game sends', () => {
    it('refuses a bad batch with 400 and a clear error, and stores nothing of that ping', async () => {
      const alice = await user();
      const serverId = nextServer();
      const cases: [unknown, RegExp][] = [
        [{ lines: [line('fine'), { ...line('bad'), level: 'verbose' }] }, /^console\.lines\.1\.level: /],
        [{ lines: [line('fine'), { ...line('no time'), time: undefined }] }, /^console\.lines\.1\.time: /],
        [{ lines: [line('fine'), { ...line('bad time'), time: -5 }] }, /^console\.lines\.1\.time: /],
        [{ lines: Array.from({ length: CONSOLE_BATCH_MAX_LINES + 1 }, (_, i) => line(`l${i}`)) }, /^console\.lines: /],
        [{ lines: [line('fine')], dropped: -1 }, /^console\.dropped: /],
        [{ lines: 'not a list' }, /^console\.lines: /],
        [{ lines: [line('fine', { commandId: 'a\u0000b' })] }, /^console\.lines\.0\.commandId: /],
      ];
      for (const [batch, message] of cases) {
        const res = await ping(alice.key, serverId, batch);
        expect(res.status, JSON.stringify(batch).slice(0, 200)).toBe(400);
        expect(res.body.error).toMatch(message);
      }
      expect((await consolePage(alice.token)).body.lines).toEqual([]);
      // The ping as a whole was refused: the game server never showed as connected either.
      expect((await server.call('GET', '/api/game/status', { token: alice.token })).body.servers).toEqual([]);
    });

    it('cuts over-long text and stacks instead of refusing them, and makes control characters and lone surrogates safe', async () => {
      const alice = await user();
      const serverId = nextServer();
      const raw = JSON.stringify({
        key: alice.key,
        serverId,
        console: {
          lines: [
            line('x'.repeat(CONSOLE_LINE_MAX_CHARS + 500), {
              level: 'error',
              stack: 's'.repeat(CONSOLE_STACK_MAX_CHARS + 1),
            }),
            line('bell\u0007 esc\u001b[31m nul\u0000 crlf\r\nlf\ttab', {}, 1),
            line('SURROGATE', {}, 2),
          ],
        },
      }).replace('SURROGATE', 'lone \\ud800 half and pair \\ud83d\\ude00');
      const res = await server.call('POST', '/api/game/ping', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, res.text).toBe(200);
      const lines = (await consolePage(alice.token)).body.lines as ConsoleLine[];
      expect(lines[2]!.text).toHaveLength(CONSOLE_LINE_MAX_CHARS);
      expect(lines[2]!.stack).toHaveLength(CONSOLE_STACK_MAX_CHARS);
      expect(lines[1]!.text).toBe('bell\uFFFD esc\uFFFD[31m nul\uFFFD crlf\nlf\ttab');
      expect(lines[0]!.text).toBe('lone \uFFFD half and pair 😀');
    });

    it("records the game's dropped lines as a marker line where they were lost, and in the live event", async () => {
      const alice = await user();
      const serverId = nextServer();
      const socket = await open(alice.token);
      const events = eventsUntil(socket, (event) => event.drops.length > 0);
      await ping(alice.key, serverId, { lines: [line('after the flood', {}, 50)], dropped: 37 });
      const lines = (await consolePage(alice.token)).body.lines as ConsoleLine[];
      expect(lines).toHaveLength(2);
      expect(lines[0]!.text).toBe('after the flood');
      expect(lines[1]).toMatchObject({
        level: 'warning',
        own: true,
        dropped: 37,
        text: '37 lines dropped by the game server: it logged faster than its pings could carry',
        time: new Date(baseTime + 50).toISOString(),
      });
      const [event] = (await events).slice(-1);
      expect(event!.drops).toEqual([
        { serverId, count: 37, time: new Date(baseTime + 50).toISOString(), reason: 'game' },
      ]);
      expect(texts(event!.lines)).toEqual(['after the flood']);
    });

    it(`drops lines over the account's budget (${BUDGET} a minute), the oldest first, counts them, and still answers the ping`, async () => {
      const bob = await user();
      const serverId = nextServer();
      const batch = (from: number) => ({
        lines: Array.from({ length: CONSOLE_BATCH_MAX_LINES }, (_, i) => line(`n${from + i}`, {}, from + i)),
      });
      for (let from = 0; from < BUDGET; from += CONSOLE_BATCH_MAX_LINES) {
        expect((await ping(bob.key, serverId, batch(from))).status).toBe(200);
      }
      const over = await ping(bob.key, serverId, batch(BUDGET));
      expect(over.status).toBe(200);
      expect(over.body.success).toBe(true);
      const newest = (await consolePage(bob.token, '?limit=2')).body.lines as ConsoleLine[];
      expect(newest[0]).toMatchObject({
        level: 'warning',
        own: true,
        dropped: CONSOLE_BATCH_MAX_LINES,
        text: `${CONSOLE_BATCH_MAX_LINES} lines dropped: over this account's console budget of ${BUDGET} lines a minute`,
      });
      expect(newest[1]!.text).toBe(`n${BUDGET - 1}`);
      // Another account's budget is its own.
      const carol = await user();
      expect((await ping(carol.key, nextServer(), batch(0))).status).toBe(200);
      expect((await consolePage(carol.token, '?limit=1')).body.lines[0].text).toBe(`n${CONSOLE_BATCH_MAX_LINES - 1}`);
    });

    it('links a line logged while a run was on the game to that run, and never to another user’s', async () => {
      const alice = await user();
      const mallory = await user();
      const serverId = nextServer();
      await ping(alice.key, serverId, { lines: [] });
      // A run on the game: its command carries the execution's id.
      const run = server.call('POST', '/api/scripts/execute', {
        token: alice.token,
        body: { code: 'task.spawn(error, "late")', serverId },
      });
      // Held until the run's command is queued, then handed over.
      const delivered = await ping(alice.key, serverId, { lines: [] }, { wait: 5 });
      const command = delivered.body.commands[0];
      expect(command.type).toBe('execute');
      const dashboardCommand = await server.call('POST', '/api/game/command', {
        token: alice.token,
        body: { type: 'heal', serverId },
      });
      await ping(
        alice.key,
        serverId,
        {
          lines: [
            line('ServerScriptService.Moonrelay:1: late', { level: 'error', commandId: command.id }),
            line('from a heal', { commandId: dashboardCommand.body.id }, 1),
            line('made up', { commandId: 'no-such-command' }, 2),
          ],
          // The run's result, so the execute call answers.
        },
        { results: [{ id: command.id, success: true, output: '' }] },
      );
      const answer = await run;
      expect(answer.status).toBe(200);
      const lines = (await consolePage(alice.token)).body.lines as ConsoleLine[];
      expect(lines.map((entry) => [entry.text, entry.executionId])).toEqual([
        ['made up', null],
        ['from a heal', null],
        ['ServerScriptService.Moonrelay:1: late', answer.body.executionId],
      ]);
      // Mallory naming Alice's command links nothing.
      await ping(mallory.key, nextServer(), { lines: [line('sneaky', { commandId: command.id })] });
      expect((await consolePage(mallory.token)).body.lines[0]).toMatchObject({ text: 'sneaky', executionId: null });
    });
  });

  describe('keeping the newest lines', () => {
    it(`prunes each game server to its newest ${KEEP} lines in the background sweep, leaving other servers alone`, async () => {
      const alice = await user();
      const [busy, quiet] = [nextServer(), nextServer()];
      for (let from = 0; from < 250; from += 50) {
        await ping(alice.key, busy, {
          lines: Array.from({ length: 50 }, (_, i) => line(`busy ${from + i}`, {}, from + i)),
        });
      }
      await ping(alice.key, quiet, { lines: Array.from({ length: 30 }, (_, i) => line(`quiet ${i}`, {}, i)) });
      const count = async (serverId: string) =>
        Number(
          (
            await server.app.database.db
              .selectFrom('consoleLines')
              .select((eb) => eb.fn.countAll<string | number>().as('n'))
              .where('userId', '=', alice.id)
              .where('serverId', '=', serverId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await count(busy)).toBe(250);
      // The app's own sweep runs every few seconds too; this one runs now.
      await server.app.services.consoleLines.prune();
      expect(await count(busy)).toBe(KEEP);
      expect(await count(quiet)).toBe(30);
      const kept = (await consolePage(alice.token, `?serverId=${busy}&limit=500`)).body.lines as ConsoleLine[];
      expect(kept[0]!.text).toBe('busy 249');
      expect(kept[KEEP - 1]!.text).toBe(`busy ${250 - KEEP}`);
    });
  });

  describe('who sees what', () => {
    it("pushes lines to their owner's screens in order, never to another user's, and never shows them in another user's API", async () => {
      const alice = await user();
      const bob = await user();
      const [aliceSocket, bobSocket] = await Promise.all([open(alice.token), open(bob.token)]);
      const aliceServer = nextServer();
      const aliceEvents = eventsUntil(aliceSocket, (event) => event.lines.some((entry) => entry.text === 'third'));
      await ping(alice.key, aliceServer, { lines: [line('first'), line('second', { level: 'warning' }, 1)] });
      await ping(alice.key, aliceServer, { lines: [line('third', { level: 'error', stack: 'trace' }, 2)] });
      const received = (await aliceEvents).flatMap((event) => {
        expect(event.userId).toBe(alice.id);
        return event.lines;
      });
      expect(received.map((entry) => [entry.text, entry.level, entry.stack])).toEqual([
        ['first', 'output', null],
        ['second', 'warning', null],
        ['third', 'error', 'trace'],
      ]);
      // The same lines, the same ids, as the API answers them.
      const stored = (await consolePage(alice.token)).body.lines as ConsoleLine[];
      expect([...stored].reverse()).toEqual(received);

      // Bob's screens got nothing of Alice's: his first event is his own line.
      const bobEvents = eventsUntil(bobSocket, (event) => event.lines.some((entry) => entry.text === 'bob here'));
      await ping(bob.key, nextServer(), { lines: [line('bob here')] });
      for (const event of await bobEvents) {
        expect(event.userId).toBe(bob.id);
        expect(texts(event.lines)).toEqual(['bob here']);
      }
      expect(texts((await consolePage(bob.token)).body.lines)).toEqual(['bob here']);
      expect((await consolePage(bob.token, `?serverId=${aliceServer}`)).body.lines).toEqual([]);
      expect((await server.call('GET', '/api/game/console/errors', { token: bob.token })).body).toEqual({
        servers: [],
      });
    });

    it(`sends the newest ${CONSOLE_EVENT_MAX_LINES} lines of a burst live and counts the rest as kept in the API`, async () => {
      const alice = await user();
      const serverId = nextServer();
      const socket = await open(alice.token);
      // The first ping's event goes out at once; the next two arrive within the same interval.
      const first = eventsUntil(socket, () => true);
      await ping(alice.key, serverId, { lines: [line('opening')] });
      await first;
      const burst = eventsUntil(socket, (event) => event.lines.some((entry) => entry.text === 'b199'));
      for (const name of ['a', 'b']) {
        await ping(alice.key, serverId, {
          lines: Array.from({ length: CONSOLE_BATCH_MAX_LINES }, (_, i) => line(`${name}${i}`, {}, i)),
        });
      }
      const events = await burst;
      const lines = events.flatMap((event) => event.lines);
      const skipped = events.flatMap((event) => event.drops).filter((drop) => drop.reason === 'live');
      // Every line is either pushed or counted, and nothing is pushed twice.
      expect(new Set(lines.map((entry) => entry.id)).size).toBe(lines.length);
      expect(lines.length + skipped.reduce((sum, drop) => sum + drop.count, 0)).toBe(2 * CONSOLE_BATCH_MAX_LINES);
      for (const event of events) expect(event.lines.length).toBeLessThanOrEqual(CONSOLE_EVENT_MAX_LINES);
      expect(lines.at(-1)!.text).toBe('b199');
    });

    it("lets an admin read any user's console, 404 for an unknown user, 403 for everyone else", async () => {
      const alice = await user();
      const serverId = nextServer();
      await ping(alice.key, serverId, { lines: [line('for the admin', { level: 'error' })] });
      const seen = await server.call('GET', `/api/admin/users/${alice.id}/console?level=error`, { token: admin.token });
      expect(seen.status).toBe(200);
      expect(texts(seen.body.lines)).toEqual(['for the admin']);
      expect(seen.body.lines[0].serverId).toBe(serverId);
      const unknown = await server.call('GET', '/api/admin/users/00000000-0000-4000-8000-000000000000/console', {
        token: admin.token,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: ERRORS.userNotFound });
      const notAdmin = await server.call('GET', `/api/admin/users/${alice.id}/console`, { token: alice.token });
      expect(notAdmin.status).toBe(403);
    });
  });
});
