import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERRORS, SCHEDULE_ERRORS } from '@moonrelay/contract/messages';
import type { Schedule } from '@moonrelay/contract/schedules';
import type { BusEvent } from '../../platform/event-bus.ts';
import { derivedId } from '../admin/mass-progress.ts';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/** A cron expression that is not due during a test (midnight on 1 January). */
const YEARLY = { kind: 'cron', cron: '0 0 1 1 *', timeZone: 'UTC' } as const;

describeEachEngine('schedules API', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // Intervals down to one second, so a schedule runs for real within the test; game runs answer queued at once.
    server = await startTestServer(engine, { SCHEDULE_MIN_INTERVAL_SECONDS: '1', GAME_EXECUTION_WAIT_MS: '0' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const newScript = async (token: string, code = 'print("scheduled hello")') => {
    const res = await server.call('POST', '/api/scripts', { token, body: { name: `S${Math.random()}`, code } });
    expect(res.status, res.text).toBe(200);
    return res.body.id as string;
  };
  const create = (token: string, scriptId: string, body: unknown) =>
    server.call('POST', `/api/scripts/${scriptId}/schedules`, { token, body });
  /** The next schedule:updated event of this schedule on the bus, once `ready` holds for its state. */
  const nextChange = (scheduleId: string, token: string, ready: (schedule: Schedule) => boolean) =>
    new Promise<Schedule>((resolve, reject) => {
      const stop = server.app.services.bus.subscribe((event: BusEvent) => {
        if (event.type !== 'schedule:updated' || event.scheduleId !== scheduleId) return;
        void server.call('GET', `/api/scripts/${event.scriptId}/schedules`, { token }).then((res) => {
          const schedule = (res.body.schedules as Schedule[]).find((s) => s.id === scheduleId);
          if (schedule && ready(schedule)) {
            stop();
            resolve(schedule);
          }
        }, reject);
      });
    });
  const runDue = (scheduleId: string, due: string) =>
    server.app.services.scheduleRuns.runDue({ scheduleId, dueMs: Date.parse(due) });
  const runsOf = async (token: string, scriptId: string) =>
    (await server.call('GET', `/api/executions?scriptId=${scriptId}`, { token })).body.runs as {
      id: string;
      status: string;
      startedBy: string;
      target: string;
      serverId: string | null;
    }[];

  it('creates, lists, pauses, resumes and deletes a schedule, showing its next five run times', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, {
      kind: 'cron',
      cron: '30 2 * * *',
      timeZone: 'America/New_York',
      target: 'dry-run',
    });
    expect(res.status, res.text).toBe(200);
    const schedule = res.body as Schedule;
    expect(schedule).toMatchObject({
      scriptId,
      kind: 'cron',
      cron: '30 2 * * *',
      timeZone: 'America/New_York',
      intervalSeconds: null,
      target: 'dry-run',
      serverId: null,
      enabled: true,
      lastRun: null,
      lastError: null,
      skippedCount: 0,
    });
    expect(schedule.nextRuns).toHaveLength(5);
    expect(new Date(schedule.nextRuns[0]!).getTime()).toBeGreaterThan(Date.now());

    const list = await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token });
    expect(list.body.schedules.map((s: Schedule) => s.id)).toEqual([schedule.id]);

    const paused = await server.call('PUT', `/api/schedules/${schedule.id}`, { token, body: { enabled: false } });
    expect(paused.status, paused.text).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, nextRuns: [], cron: '30 2 * * *' });
    const interval = await server.call('PUT', `/api/schedules/${schedule.id}`, {
      token,
      body: { enabled: true, kind: 'interval', intervalSeconds: 3600 },
    });
    expect(interval.body).toMatchObject({ kind: 'interval', intervalSeconds: 3600, cron: null, timeZone: null });
    expect(interval.body.nextRuns).toHaveLength(5);

    expect((await server.call('DELETE', `/api/schedules/${schedule.id}`, { token })).status).toBe(200);
    expect((await server.call('DELETE', `/api/schedules/${schedule.id}`, { token })).status).toBe(404);
    expect((await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules).toEqual([]);
  });

  it('previews the next five times as the server computes them, daylight saving included', async () => {
    const { token } = await registerUser(server);
    const res = await server.call('POST', '/api/schedules/preview', {
      token,
      body: { kind: 'cron', cron: '0 12 * * *', timeZone: 'Europe/Berlin' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.nextRuns).toHaveLength(5);
    for (const time of res.body.nextRuns as string[]) {
      const hour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit' }).format(
        new Date(time),
      );
      expect(hour).toBe('12');
    }
  });

  it('answers bad input with a 400 that says what is wrong, never a 5xx', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const cases: [unknown, number, string | RegExp][] = [
      [{ kind: 'cron', cron: 'every day', target: 'sandbox' }, 400, SCHEDULE_ERRORS.cronInvalid],
      [{ kind: 'cron', cron: '* * * * * *', target: 'sandbox' }, 400, SCHEDULE_ERRORS.cronInvalid],
      [{ kind: 'cron', cron: '0 0 30 2 *', target: 'sandbox' }, 400, SCHEDULE_ERRORS.cronNeverRuns],
      [{ kind: 'cron', target: 'sandbox' }, 400, SCHEDULE_ERRORS.cronRequired],
      [
        { kind: 'cron', cron: '0 * * * *', timeZone: 'Mars/Base', target: 'sandbox' },
        400,
        SCHEDULE_ERRORS.timeZoneUnknown,
      ],
      [{ kind: 'interval', target: 'sandbox' }, 400, SCHEDULE_ERRORS.intervalRequired],
      [{ kind: 'interval', intervalSeconds: 0, target: 'sandbox' }, 400, /intervalSeconds/],
      [{ kind: 'interval', intervalSeconds: 1.5, target: 'sandbox' }, 400, /intervalSeconds/],
      [{ ...YEARLY, target: 'server' }, 400, SCHEDULE_ERRORS.serverIdRequired],
      [{ ...YEARLY, target: 'sandbox', serverId: 'abc' }, 400, SCHEDULE_ERRORS.serverIdNotAllowed],
      [{ ...YEARLY, target: 'server', serverId: 'no spaces allowed' }, 400, /serverId/],
      [{ ...YEARLY, target: 'the moon' }, 400, /target/],
      [{ ...YEARLY, kind: 'weekly', target: 'sandbox' }, 400, /kind/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(token, scriptId, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error + JSON.stringify(res.body.issues ?? ''), JSON.stringify(body)).toMatch(message);
    }
    const preview = await server.call('POST', '/api/schedules/preview', { token, body: { kind: 'cron', cron: 'x' } });
    expect(preview.body).toEqual({ error: SCHEDULE_ERRORS.cronInvalid });
    const empty = await server.call('PUT', '/api/schedules/whatever', { token, body: {} });
    expect(empty.status).toBe(400);
  });

  it('allows the shortest interval the server is configured for, and says the limit when below it', async () => {
    const strict = await startTestServer(engine);
    try {
      const { token } = await registerUser(strict);
      const script = await strict.call('POST', '/api/scripts', { token, body: { name: 'S', code: 'print(1)' } });
      const res = await strict.call('POST', `/api/scripts/${script.body.id}/schedules`, {
        token,
        body: { kind: 'interval', intervalSeconds: 59, target: 'sandbox' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(SCHEDULE_ERRORS.intervalTooShort.replace('{min}', '60'));
    } finally {
      await strict.close();
    }
  });

  it('spends the execution budget: a due run past it is skipped, with the reason as the last error', async () => {
    const tight = await startTestServer(engine, { RATE_LIMIT_EXECUTION_PER_MINUTE: '1' });
    try {
      const { token } = await registerUser(tight);
      const script = await tight.call('POST', '/api/scripts', { token, body: { name: 'S', code: 'print(1)' } });
      const res = await tight.call('POST', `/api/scripts/${script.body.id}/schedules`, {
        token,
        body: { ...YEARLY, target: 'sandbox' },
      });
      const due = (at: string) =>
        tight.app.services.scheduleRuns.runDue({ scheduleId: res.body.id, dueMs: Date.parse(at) });
      await due('2030-01-01T00:00:00Z');
      await due('2030-01-01T00:01:00Z');
      const [schedule] = (await tight.call('GET', `/api/scripts/${script.body.id}/schedules`, { token })).body
        .schedules;
      expect(schedule).toMatchObject({ lastError: SCHEDULE_ERRORS.budgetUsedUp, skippedCount: 1 });
      const runs = await tight.call('GET', `/api/executions?scriptId=${script.body.id}`, { token });
      expect(runs.body.runs).toHaveLength(1);
    } finally {
      await tight.close();
    }
  });

  it("answers 404 for another user's script or schedule, and keeps at most 20 schedules per user", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const scriptId = await newScript(alice.token);
    const mine = await create(alice.token, scriptId, { ...YEARLY, target: 'sandbox' });
    expect((await create(bob.token, scriptId, { ...YEARLY, target: 'sandbox' })).status).toBe(404);
    expect((await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token: bob.token })).status).toBe(404);
    const bobPut = await server.call('PUT', `/api/schedules/${mine.body.id}`, {
      token: bob.token,
      body: { enabled: false },
    });
    expect(bobPut.status).toBe(404);
    expect(bobPut.body).toEqual({ error: SCHEDULE_ERRORS.notFound });
    expect((await server.call('DELETE', `/api/schedules/${mine.body.id}`, { token: bob.token })).status).toBe(404);

    const other = await newScript(alice.token);
    for (let i = 1; i < 20; i++) {
      expect((await create(alice.token, i % 2 ? other : scriptId, { ...YEARLY, target: 'sandbox' })).status).toBe(200);
    }
    const tooMany = await create(alice.token, other, { ...YEARLY, target: 'sandbox' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body).toEqual({ error: SCHEDULE_ERRORS.tooMany });

    // Deleting a script deletes its schedules (and frees their places).
    expect((await server.call('DELETE', `/api/scripts/${other}`, { token: alice.token })).status).toBe(200);
    expect((await create(alice.token, scriptId, { ...YEARLY, target: 'sandbox' })).status).toBe(200);

    // Deleting the account deletes its schedules.
    const deleted = await server.call('DELETE', '/api/user/account', {
      token: alice.token,
      body: { password: alice.password },
    });
    expect(deleted.status, deleted.text).toBe(200);
    const left = await server.app.database.db
      .selectFrom('schedules')
      .select('id')
      .where('userId', '=', alice.user.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('runs a one-second schedule for real: the run is recorded as started by the schedule and shown as its last run', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, { kind: 'interval', intervalSeconds: 1, target: 'sandbox' });
    const ran = nextChange(res.body.id, token, (s) => s.lastRun?.status === 'succeeded');
    const schedule = await ran;
    await server.call('PUT', `/api/schedules/${schedule.id}`, { token, body: { enabled: false } });
    const runs = await runsOf(token, scriptId);
    const run = runs.find((r) => r.id === schedule.lastRun!.id)!;
    expect(run).toMatchObject({ status: 'succeeded', startedBy: 'schedule', target: 'sandbox' });
    const full = await server.call('GET', `/api/executions/${run.id}`, { token });
    expect(full.body.output).toContain('scheduled hello');
  });

  it("runs a team's schedule while the member who set it may run code there, and skips it saying why once not", async () => {
    const owner = await registerUser(server);
    const developer = await registerUser(server);
    const team = await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Scheduled' } });
    const teamId = team.body.id as string;
    const link = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: owner.token,
      body: { role: 'developer' },
    });
    await server.call('POST', '/api/teams/join', { token: developer.token, body: { token: link.body.token } });
    const asDeveloper = { token: developer.token, headers: { [TEAM_HEADER]: teamId } };
    const script = await server.call('POST', '/api/scripts', {
      ...asDeveloper,
      body: { name: 'Nightly', code: 'print("as the team")' },
    });
    const made = await server.call('POST', `/api/scripts/${script.body.id}/schedules`, {
      ...asDeveloper,
      body: { ...YEARLY, target: 'sandbox' },
    });
    expect(made.status, made.text).toBe(200);
    const lastOf = async () =>
      (await server.call('GET', `/api/scripts/${script.body.id}/schedules`, asDeveloper)).body.schedules[0] as Schedule;

    await runDue(made.body.id, '2030-01-01T00:00:00Z');
    expect(await lastOf()).toMatchObject({ lastError: null, lastRun: { status: 'succeeded' } });
    // The run names the member whose schedule it is.
    const firstRun = await server.call('GET', `/api/executions/${(await lastOf()).lastRun!.id}`, asDeveloper);
    expect(firstRun.body).toMatchObject({ startedBy: 'schedule', actorId: developer.user.id, keyName: null });

    // Their role no longer runs code: the schedule stops running as them.
    await server.call('PUT', `/api/teams/${teamId}/members/${developer.user.id}`, {
      token: owner.token,
      body: { role: 'viewer' },
    });
    await runDue(made.body.id, '2031-01-01T00:00:00Z');
    expect(await lastOf()).toMatchObject({ lastError: SCHEDULE_ERRORS.makerMayNotRun });
    // A viewer cannot set one either; a member who may run code there saves it as themself.
    const viewerSets = await server.call('POST', `/api/scripts/${script.body.id}/schedules`, {
      ...asDeveloper,
      body: { ...YEARLY, target: 'sandbox' },
    });
    expect(viewerSets.status).toBe(403);
    const resaved = await server.call('PUT', `/api/schedules/${made.body.id}`, {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { enabled: true },
    });
    expect(resaved.status, resaved.text).toBe(200);
    await runDue(made.body.id, '2032-01-01T00:00:00Z');
    expect(await lastOf()).toMatchObject({ lastError: null, lastRun: { status: 'succeeded' } });
    const resavedRun = await server.call('GET', `/api/executions/${(await lastOf()).lastRun!.id}`, asDeveloper);
    expect(resavedRun.body).toMatchObject({ actorId: owner.user.id, actorName: owner.user.username });

    // The team's activity log says who set, changed and deleted it, and what it ran.
    const removed = await server.call('DELETE', `/api/schedules/${made.body.id}`, {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
    });
    expect(removed.status, removed.text).toBe(200);
    const activity = await server.call('GET', `/api/teams/${teamId}/activity?action=schedule.`, {
      token: owner.token,
    });
    expect(activity.status, activity.text).toBe(200);
    const entries = (activity.body.items as { action: string; actorId: string; actorName: string; details: object }[])
      .reverse()
      .map(({ action, actorName, details }) => ({ action, actorName, details }));
    const what = { scriptId: script.body.id, scriptName: 'Nightly', target: 'sandbox', kind: YEARLY.kind };
    expect(entries).toEqual([
      { action: 'schedule.created', actorName: developer.user.username, details: expect.objectContaining(what) },
      {
        action: 'schedule.changed',
        actorName: owner.user.username,
        details: expect.objectContaining({ ...what, changed: ['enabled'], enabled: true }),
      },
      { action: 'schedule.deleted', actorName: owner.user.username, details: expect.objectContaining(what) },
    ]);
  });

  it('records a run due with no game connected as not connected, and shows it as the last error', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, { ...YEARLY, target: 'all-servers' });
    await runDue(res.body.id, '2030-01-01T00:00:00Z');
    const [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
    expect(schedule).toMatchObject({ lastError: ERRORS.gameNotConnected, lastRun: { status: 'not_connected' } });
    expect(await runsOf(token, scriptId)).toMatchObject([{ status: 'not_connected', startedBy: 'schedule' }]);
  });

  it('runs on every live game server, and skips (and counts) a due run while the previous one still runs', async () => {
    const { token, user } = await registerUser(server);
    const scriptId = await newScript(token);
    const one = new SimulatedGame({ url: server.url, key: user.apiKey, serverId: 'srv-one' });
    const two = new SimulatedGame({ url: server.url, key: user.apiKey, serverId: 'srv-two' });
    await one.ping();
    await two.ping();
    const res = await create(token, scriptId, { ...YEARLY, target: 'all-servers' });
    await runDue(res.body.id, '2030-01-01T00:00:00Z');
    const runs = await runsOf(token, scriptId);
    expect(runs.map((r) => r.serverId).sort()).toEqual(['srv-one', 'srv-two']);
    expect(runs.every((r) => r.status === 'pending' && r.startedBy === 'schedule')).toBe(true);

    // The games have not answered: the next due time is skipped, and counted once however often it comes.
    await Promise.all([runDue(res.body.id, '2030-01-01T00:01:00Z'), runDue(res.body.id, '2030-01-01T00:01:00Z')]);
    let [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
    expect(schedule).toMatchObject({ skippedCount: 1, lastRun: { status: 'pending' } });
    expect(await runsOf(token, scriptId)).toHaveLength(2);

    // Once the games answer, the next due time runs again.
    await one.ping();
    await two.ping();
    await one.ping();
    await two.ping();
    await runDue(res.body.id, '2030-01-01T00:02:00Z');
    [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
    expect(await runsOf(token, scriptId)).toHaveLength(4);
    expect(schedule.skippedCount).toBe(1);
  });

  it('records a due time once however many times it is handed out, even at the same moment', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, { ...YEARLY, target: 'sandbox' });
    const due = '2030-01-01T00:00:00Z';
    await Promise.all([runDue(res.body.id, due), runDue(res.body.id, due), runDue(res.body.id, due)]);
    await runDue(res.body.id, due);
    // An earlier due time than the one run is never run afterwards either.
    await runDue(res.body.id, '2029-12-31T23:59:00Z');
    expect(await runsOf(token, scriptId)).toHaveLength(1);
  });

  it('skips a due time that comes while the last run still runs, then runs the next one', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, { ...YEARLY, target: 'sandbox' });
    // The first due time's run is held open until the second due time has been handled, so the
    // second one certainly arrives while the first holds the schedule (whatever the machine's pace).
    const executions = server.app.services.executions;
    const runScheduled = executions.runScheduled;
    let started!: () => void;
    const firstStarted = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const secondHandled = new Promise<void>((resolve) => (release = resolve));
    executions.runScheduled = async (...args) => {
      started();
      await secondHandled;
      return runScheduled(...args);
    };
    try {
      const first = runDue(res.body.id, '2030-01-01T00:00:00Z');
      await firstStarted;
      executions.runScheduled = runScheduled;
      await runDue(res.body.id, '2030-01-01T00:01:00Z');
      release();
      await first;
    } finally {
      executions.runScheduled = runScheduled;
      release();
    }
    await runDue(res.body.id, '2030-01-01T00:02:00Z');
    const [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
    expect(schedule.skippedCount).toBe(1);
    expect(await runsOf(token, scriptId)).toHaveLength(2);
    // The third due time ran: the first run's end let the schedule go though a skip came in between.
    expect(schedule.lastRun).toMatchObject({
      id: derivedId('schedule-run', res.body.id, '2030-01-01T00:02:00.000Z'),
      status: 'succeeded',
    });
  });

  it('after downtime runs one missed due time at start-up, not every one it missed', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const res = await create(token, scriptId, { kind: 'interval', intervalSeconds: 3600, target: 'sandbox' });
    // The server was last told of the schedule five hours ago: five hourly runs were missed.
    const fiveHoursAgo = new Date(Date.now() - 5 * 3600_000).toISOString();
    await server.app.database.db
      .updateTable('schedules')
      .set({ createdAt: fiveHoursAgo, updatedAt: fiveHoursAgo })
      .where('id', '=', res.body.id)
      .execute();
    await server.stop();
    await server.start();
    const deadline = Date.now() + 20_000;
    let schedule: Schedule | undefined;
    while (Date.now() < deadline) {
      [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
      if (schedule?.lastRun?.status === 'succeeded') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(schedule?.lastRun?.status).toBe('succeeded');
    expect(await runsOf(token, scriptId)).toHaveLength(1);
  });

  it('runs nothing for a paused schedule or one whose script is gone', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token);
    const paused = await create(token, scriptId, { ...YEARLY, target: 'sandbox', enabled: false });
    expect(paused.body).toMatchObject({ enabled: false, nextRuns: [] });
    await runDue(paused.body.id, '2030-01-01T00:00:00Z');
    const live = await create(token, scriptId, { ...YEARLY, target: 'sandbox' });
    expect((await server.call('DELETE', `/api/scripts/${scriptId}`, { token })).status).toBe(200);
    await runDue(live.body.id, '2030-01-01T00:00:00Z');
    expect(await runsOf(token, scriptId)).toHaveLength(0);
  });

  it("records the script's version with every scheduled run, as a manual run does: cron, interval and game schedules alike", async () => {
    const { token, user } = await registerUser(server);
    const scriptId = await newScript(token);
    const edited = await server.call('PUT', `/api/scripts/${scriptId}`, {
      token,
      body: { code: 'print("scheduled hello, edited")' },
    });
    expect(edited.status, edited.text).toBe(200);
    const manual = await server.call('POST', `/api/scripts/${scriptId}/execute`, {
      token,
      body: { target: 'sandbox' },
    });
    expect(manual.status, manual.text).toBe(200);
    const cron = await create(token, scriptId, { ...YEARLY, target: 'sandbox' });
    const interval = await create(token, scriptId, { kind: 'interval', intervalSeconds: 3600, target: 'dry-run' });
    const offline = await create(token, scriptId, { ...YEARLY, target: 'all-servers' });
    await runDue(cron.body.id, '2030-01-01T00:00:00Z');
    await runDue(interval.body.id, '2030-01-01T00:00:00Z');
    await runDue(offline.body.id, '2030-01-01T00:00:00Z');
    const game = new SimulatedGame({ url: server.url, key: user.apiKey, serverId: 'srv-versions' });
    await game.ping();
    const online = await create(token, scriptId, { ...YEARLY, target: 'server', serverId: 'srv-versions' });
    await runDue(online.body.id, '2030-01-01T00:00:00Z');

    const runs = (await server.call('GET', `/api/executions?scriptId=${scriptId}`, { token })).body.runs as {
      id: string;
      scriptVersion: number | null;
      startedBy: string;
      target: string;
      status: string;
    }[];
    expect(runs).toHaveLength(5);
    expect(runs.find((run) => run.id === manual.body.executionId)).toMatchObject({
      startedBy: 'user',
      scriptVersion: 2,
    });
    const scheduled = runs.filter((run) => run.startedBy === 'schedule');
    expect(
      scheduled
        .map(({ target, status, scriptVersion }) => ({ target, status, scriptVersion }))
        .sort((a, b) => `${a.target}${a.status}`.localeCompare(`${b.target}${b.status}`)),
    ).toEqual([
      { target: 'dry-run', status: 'succeeded', scriptVersion: 2 },
      { target: 'game', status: 'not_connected', scriptVersion: 2 },
      { target: 'game', status: 'pending', scriptVersion: 2 },
      { target: 'sandbox', status: 'succeeded', scriptVersion: 2 },
    ]);
    // The run in full says the same.
    for (const run of scheduled) {
      const full = await server.call('GET', `/api/executions/${run.id}`, { token });
      expect(full.body.scriptVersion).toBe(2);
    }
  });

  it('shows a failing schedule its last error', async () => {
    const { token } = await registerUser(server);
    const scriptId = await newScript(token, 'error("it broke")');
    const res = await create(token, scriptId, { ...YEARLY, target: 'sandbox' });
    await runDue(res.body.id, '2030-01-01T00:00:00Z');
    const [schedule] = (await server.call('GET', `/api/scripts/${scriptId}/schedules`, { token })).body.schedules;
    expect(schedule.lastError).toContain('it broke');
    expect(schedule.lastRun.status).toBe('failed');
  });
});
