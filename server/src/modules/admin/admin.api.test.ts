import { TEAM_HEADER } from '@moonrelay/contract/teams';
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GAME_COMMAND_EXPIRY_MS } from '@moonrelay/contract/constants';
import { ERRORS, VALIDATION } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { BusEvent } from '../../platform/event-bus.ts';
import { MASS_EXECUTION_JOB } from './mass-execution.ts';
import { derivedId } from './mass-progress.ts';

describeEachEngine('admin API', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let member: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = await registerUser(server); // the first account is an admin
    member = await registerUser(server);
    expect(admin.user.isAdmin).toBe(true);
    expect(member.user.isAdmin).toBe(false);
  });
  afterAll(() => server.close());

  const as = (token: string) => ({
    get: (path: string) => server.call('GET', path, { token }),
    post: (path: string, body?: unknown) => server.call('POST', path, { token, body: body ?? {} }),
  });
  const auditActions = async () =>
    (await as(admin.token).get('/api/admin/audit?pageSize=200')).body.items.map((e: { action: string }) => e.action);
  const lastAudit = async () => (await as(admin.token).get('/api/admin/audit?pageSize=1')).body.items[0];

  it('refuses every admin route to a non-admin (403), an API key (403) and a stranger (401)', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/connections'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/recent-executions'],
      ['POST', `/api/admin/users/${admin.user.id}/regenerate-key`],
      ['POST', `/api/admin/users/${admin.user.id}/command`, { type: 'heal' }],
      ['POST', `/api/admin/users/${admin.user.id}/execute-script`, { code: 'print(1)' }],
      ['POST', `/api/admin/users/${member.user.id}/role`, { isAdmin: true }],
      ['POST', '/api/admin/mass-execution', { userIds: [admin.user.id], code: 'print(1)' }],
    ];
    const before = await auditActions();
    for (const [method, path, body] of routes) {
      const asMember = await server.call(method, path, { token: member.token, body });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      expect(asMember.body).toEqual({ error: ERRORS.adminsOnly });
      const withKey = await server.call(method, path, { token: admin.user.apiKey, body });
      expect(withKey.status, `${method} ${path} with a key`).toBe(403);
      expect((await server.call(method, path, { body })).status).toBe(401);
    }
    expect(await auditActions()).toEqual(before);
    expect((await server.call('GET', '/api/user', { token: member.token })).body.isAdmin).toBe(false);
  });

  it('lists users with their key and script count, paged', async () => {
    await server.call('POST', '/api/scripts', { token: member.token, body: { name: 'a', code: 'print(1)' } });
    await server.call('POST', '/api/scripts', { token: member.token, body: { name: 'b', code: 'print(2)' } });
    const res = await as(admin.token).get('/api/admin/users');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, pageSize: 50 });
    const row = res.body.items.find((u: { id: string }) => u.id === member.user.id);
    expect(row).toMatchObject({ apiKey: member.user.apiKey, scriptCount: 2, isAdmin: false, email: member.user.email });
    expect(row).not.toHaveProperty('passwordHash');
    const paged = await as(admin.token).get('/api/admin/users?page=2&pageSize=1');
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.total).toBe(res.body.total);
    for (const bad of ['page=0', 'pageSize=1000', 'page=abc']) {
      expect((await as(admin.token).get(`/api/admin/users?${bad}`)).status, bad).toBe(400);
    }
  });

  it('regenerates a user’s key: the old key stops at once, and it is audited', async () => {
    const user = await registerUser(server);
    const res = await as(admin.token).post(`/api/admin/users/${user.user.id}/regenerate-key`);
    expect(res.status).toBe(200);
    expect(res.body.newApiKey).toMatch(/^mr_/);
    expect((await server.call('GET', '/api/scripts', { token: user.user.apiKey })).status).toBe(401);
    expect((await server.call('GET', '/api/scripts', { token: res.body.newApiKey })).status).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'admin.key_regenerated',
      actorId: admin.user.id,
      actorName: admin.user.username,
      targetType: 'user',
      targetId: user.user.id,
    });
    expect(await lastAudit()).not.toHaveProperty('details.newApiKey');
    expect((await as(admin.token).post('/api/admin/users/nobody/regenerate-key')).status).toBe(404);
  });

  it("sends a command to the user's simulated game, and its result comes back", async () => {
    const user = await registerUser(server);
    const game = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'adm-1' });
    await game.ping();
    game.health = 5;
    const res = await as(admin.token).post(`/api/admin/users/${user.user.id}/command`, { type: 'heal' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ queued: true, message: 'Command queued' });
    await game.ping();
    expect(game.health).toBe(100);
    await game.ping();
    // Without a serverId it went to every live server: one broadcast, and the server's copy of it.
    const row = await server.app.database.db
      .selectFrom('gameCommands')
      .selectAll()
      .where('broadcastId', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'succeeded', source: 'admin', userId: user.user.id, serverId: 'adm-1' });
    expect(await lastAudit()).toMatchObject({
      action: 'admin.command_sent',
      targetId: user.user.id,
      details: { type: 'heal', commandIds: [res.body.id] },
    });
    const bad = await as(admin.token).post(`/api/admin/users/${user.user.id}/command`, { type: 'speed', data: {} });
    expect(bad.status).toBe(400);
  });

  it('answers a dry run among the recent executions (the answer is checked against the contract)', async () => {
    const user = await registerUser(server);
    const id = crypto.randomUUID();
    await server.app.database.db
      .insertInto('executions')
      .values({
        id,
        userId: user.user.id,
        scriptId: null,
        target: 'dry-run',
        status: 'succeeded',
        codeExcerpt: 'print(workspace.Name)',
        output: 'Workspace\n',
        error: null,
        limitHit: null,
        durationMs: 4,
        createdAt: new Date().toISOString(),
        initiatedBy: admin.user.id,
      })
      .execute();
    const recent = await as(admin.token).get('/api/admin/recent-executions');
    expect(recent.status).toBe(200);
    expect(recent.body.items[0]).toMatchObject({ id, target: 'dry-run', status: 'succeeded', adminId: admin.user.id });
    // The spec's recent execution (id, createdAt, adminName, targetId, details) beside the fields kept.
    expect(recent.body.items[0]).toMatchObject({
      adminName: admin.user.name,
      targetId: user.user.id,
      userId: user.user.id,
      details: { code: 'print(workspace.Name)' },
    });
    // Neither a saved script nor a game server: the details name neither.
    expect(Object.keys(recent.body.items[0].details)).toEqual(['code']);
  });

  it('names the saved script and the game server in the details, and cuts the code to an excerpt', async () => {
    const user = await registerUser(server);
    const saved = await server.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Saved tour', code: 'print("tour")' },
    });
    const id = crypto.randomUUID();
    const longCode = `-- ${'x'.repeat(400)}`;
    await server.app.database.db
      .insertInto('executions')
      .values({
        id,
        userId: user.user.id,
        scriptId: saved.body.id,
        target: 'game',
        status: 'queued',
        codeExcerpt: longCode,
        output: '',
        error: null,
        limitHit: null,
        durationMs: 0,
        createdAt: new Date().toISOString(),
        initiatedBy: admin.user.id,
        serverId: 'job-7',
      })
      .execute();
    const [item] = (await as(admin.token).get('/api/admin/recent-executions')).body.items;
    expect(item).toMatchObject({ id, targetId: user.user.id, scriptName: 'Saved tour' });
    expect(item.details).toEqual({ script: 'Saved tour', code: longCode.slice(0, 200), serverId: 'job-7' });
  });

  it("documents the spec's recent execution fields in the OpenAPI document", async () => {
    const doc = (await server.call('GET', '/api/openapi.json')).body;
    const schemas = doc.components.schemas;
    const page = doc.paths['/api/admin/recent-executions'].get.responses['200'].content['application/json'].schema;
    expect(page).toEqual({ $ref: '#/components/schemas/RecentExecutionPage' });
    expect(schemas.RecentExecutionPage.properties.items.items).toEqual({
      $ref: '#/components/schemas/RecentExecution',
    });
    expect(schemas.RecentExecution.required).toEqual(
      expect.arrayContaining(['id', 'createdAt', 'adminName', 'targetId', 'details', 'userId']),
    );
    expect(schemas.RecentExecution.properties.details).toEqual({ $ref: '#/components/schemas/RecentExecutionDetails' });
    expect(schemas.RecentExecutionDetails).toMatchObject({
      type: 'object',
      required: ['code'],
      properties: { script: { type: 'string' }, code: { type: 'string' }, serverId: { type: 'string' } },
    });
  });

  it("runs a script on the user's game and answers its output; audited with an excerpt", async () => {
    const user = await registerUser(server);
    const game = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'adm-2', wait: 5 });
    await game.ping({ wait: 0 });
    game.start();
    try {
      const res = await as(admin.token).post(`/api/admin/users/${user.user.id}/execute-script`, {
        script: 'print("from the admin")',
      });
      expect(res.body).toMatchObject({ success: true, output: 'from the admin\n', gameConnected: true });
      expect(await lastAudit()).toMatchObject({
        action: 'admin.script_executed',
        targetId: user.user.id,
        details: { code: 'print("from the admin")', executionId: res.body.executionId },
      });
      const recent = await as(admin.token).get('/api/admin/recent-executions');
      expect(recent.body.items[0]).toMatchObject({
        id: res.body.executionId,
        userId: user.user.id,
        userName: user.user.name,
        status: 'succeeded',
        output: 'from the admin\n',
        adminName: admin.user.name,
        targetId: user.user.id,
        details: { code: 'print("from the admin")', serverId: 'adm-2' },
      });
    } finally {
      await game.stop();
    }
  });

  it("takes the code as script (the spec's field) or code; script wins; bad bodies answer 400", async () => {
    const user = await registerUser(server);
    const path = `/api/admin/users/${user.user.id}/execute-script`;
    const codeOf = async (executionId: string) =>
      (
        await server.app.database.db
          .selectFrom('executions')
          .select('codeExcerpt')
          .where('id', '=', executionId)
          .executeTakeFirstOrThrow()
      ).codeExcerpt;
    // No game is connected: the run is answered (and recorded) in the not-connected shape.
    for (const [body, ran] of [
      [{ script: 'print("as script")' }, 'print("as script")'],
      [{ code: 'print("as code")' }, 'print("as code")'],
      [{ script: 'print("script")', code: 'print("code")' }, 'print("script")'],
    ] as const) {
      const res = await as(admin.token).post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({ gameConnected: false, error: ERRORS.gameNotConnected });
      expect(await codeOf(res.body.executionId)).toBe(ran);
    }
    for (const body of [
      {},
      { script: '' },
      { script: '   ' },
      { script: 42 },
      { code: ['print(1)'] },
      { serverId: 'x' },
    ]) {
      const res = await as(admin.token).post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toBe(VALIDATION.scriptCodeRequired);
    }
    const syntax = await as(admin.token).post(path, { script: 'print(' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.error).toMatch(/^Lua syntax error: /);
    const tooLarge = await as(admin.token).post(path, { script: `-- ${'x'.repeat(2 * 1024 * 1024)}` });
    expect(tooLarge.status).toBe(413);
    const unknownUser = await as(admin.token).post(`/api/admin/users/${crypto.randomUUID()}/execute-script`, {
      script: 'print(1)',
    });
    expect(unknownUser.status).toBe(404);
  });

  it('promotes and demotes, audited; the last admin cannot be demoted', async () => {
    const user = await registerUser(server);
    const promote = await as(admin.token).post(`/api/admin/users/${user.user.id}/role`, { isAdmin: true });
    expect(promote.status).toBe(200);
    expect((await server.call('GET', '/api/admin/users', { token: user.token })).status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'admin.role_changed', details: { isAdmin: true } });
    // The new admin demotes the first one; then the last one remaining cannot demote themself.
    expect((await as(user.token).post(`/api/admin/users/${admin.user.id}/role`, { isAdmin: false })).status).toBe(200);
    const last = await as(user.token).post(`/api/admin/users/${user.user.id}/role`, { isAdmin: false });
    expect(last.status).toBe(409);
    expect(last.body).toEqual({ error: ERRORS.lastAdmin });
    // Put things back for the other tests.
    expect((await as(user.token).post(`/api/admin/users/${admin.user.id}/role`, { isAdmin: true })).status).toBe(200);
    expect((await as(admin.token).post(`/api/admin/users/${user.user.id}/role`, { isAdmin: false })).status).toBe(200);
    expect((await server.call('GET', '/api/admin/users', { token: user.token })).status).toBe(403);
    expect((await as(admin.token).post(`/api/admin/users/${user.user.id}/role`, { isAdmin: 'yes' })).status).toBe(400);
  });

  it('fans a mass execution out as a job per user, with progress for each', async () => {
    const users = await Promise.all([registerUser(server), registerUser(server), registerUser(server)]);
    const games = users
      .slice(0, 2)
      .map((u, i) => new SimulatedGame({ url: server.url, key: u.user.apiKey, serverId: `mass-${i}`, wait: 5 }));
    for (const game of games) {
      await game.ping({ wait: 0 });
      game.start();
    }
    const events: BusEvent[] = [];
    const finishedBatches = new Set<string>();
    const waiters: { batchId: string; resolve: () => void }[] = [];
    const finished = (batchId: string) =>
      finishedBatches.has(batchId)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ batchId, resolve }));
    const unsubscribe = server.app.services.bus.subscribe((event) => {
      events.push(event);
      if (event.type !== 'mass:finished') return;
      finishedBatches.add(event.batch.batchId);
      for (const waiter of waiters) if (waiter.batchId === event.batch.batchId) waiter.resolve();
    });
    try {
      const res = await as(admin.token).post('/api/admin/mass-execution', {
        userIds: [...users.map((u) => u.user.id), 'no-such-user'],
        code: 'print("mass")',
      });
      expect(res.status).toBe(200);
      expect(res.body.items.map((i: { status: string }) => i.status)).toEqual(['queued', 'queued', 'queued', 'failed']);
      const finalOf = (userId: string) =>
        events
          .filter((e) => e.type === 'mass:progress' && e.progress.userId === userId)
          .map((e) => (e.type === 'mass:progress' ? e.progress : null))
          .at(-1);
      // The batch's own "finished" event says every part has ended.
      await finished(res.body.batchId as string);
      expect(finalOf(users[0]!.user.id)).toMatchObject({
        status: 'succeeded',
        output: 'mass\n',
        batchId: res.body.batchId,
      });
      expect(finalOf(users[1]!.user.id)).toMatchObject({ status: 'succeeded', output: 'mass\n' });
      expect(finalOf(users[2]!.user.id)).toMatchObject({ status: 'not_connected' });
      expect(await auditActions()).toContain('admin.mass_execution');
      const syntax = await as(admin.token).post('/api/admin/mass-execution', {
        userIds: [users[0]!.user.id],
        code: 'x(',
      });
      expect(syntax.status).toBe(400);
      expect((await as(admin.token).post('/api/admin/mass-execution', { userIds: [], code: 'print(1)' })).status).toBe(
        400,
      );
      expect((await as(admin.token).post('/api/admin/mass-execution', { userIds: [users[0]!.user.id] })).status).toBe(
        400,
      );
    } finally {
      unsubscribe();
      for (const game of games) await game.stop();
    }
  });

  it('keeps each part of a mass execution in the database: a job run again sends nothing twice, and GET answers the parts', async () => {
    const [commandUser, codeUser] = [await registerUser(server), await registerUser(server)];
    const commandGame = new SimulatedGame({ url: server.url, key: commandUser.user.apiKey, serverId: 'once-command' });
    const codeGame = new SimulatedGame({ url: server.url, key: codeUser.user.apiKey, serverId: 'once-code', wait: 5 });
    await commandGame.ping();
    await codeGame.ping({ wait: 0 });
    codeGame.start();
    const { db } = server.app.database;
    const partOf = async (batchId: string, userId: string) =>
      (await as(admin.token).get(`/api/admin/mass-executions/${batchId}`)).body.items?.find(
        (item: { userId: string }) => item.userId === userId,
      );
    const until = async (batchId: string, userId: string, statuses: string[]) => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !statuses.includes((await partOf(batchId, userId))?.status)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return partOf(batchId, userId);
    };
    try {
      const heal = await as(admin.token).post('/api/admin/mass-execution', {
        userIds: [commandUser.user.id],
        command: { type: 'heal' },
      });
      expect(heal.status).toBe(200);
      expect(await until(heal.body.batchId, commandUser.user.id, ['sent'])).toMatchObject({ status: 'sent' });
      const run = await as(admin.token).post('/api/admin/mass-execution', {
        userIds: [codeUser.user.id],
        code: 'print("once")',
      });
      expect(await until(run.body.batchId, codeUser.user.id, ['succeeded'])).toMatchObject({
        status: 'succeeded',
        output: 'once\n',
      });
      // The queue runs both jobs again, as it does when the worker that ran them died.
      const { jobs } = server.app.services;
      for (const job of [
        {
          batchId: heal.body.batchId,
          userId: commandUser.user.id,
          initiatedBy: admin.user.id,
          command: { type: 'heal' },
        },
        { batchId: run.body.batchId, userId: codeUser.user.id, initiatedBy: admin.user.id, code: 'print("once")' },
      ]) {
        await jobs.request(MASS_EXECUTION_JOB, job, 10_000);
      }
      const commandsOf = (userId: string) =>
        db.selectFrom('gameCommands').select(['id', 'status']).where('userId', '=', userId).execute();
      // The command user's part is one broadcast to their live servers; the code user's run one command.
      const broadcastsOf = (userId: string) =>
        db.selectFrom('gameBroadcasts').select('id').where('userId', '=', userId).execute();
      expect(await broadcastsOf(commandUser.user.id)).toHaveLength(1);
      expect(await commandsOf(codeUser.user.id)).toHaveLength(1);
      const runs = await db.selectFrom('executions').select('id').where('userId', '=', codeUser.user.id).execute();
      expect(runs).toHaveLength(1);
      // The game takes the command and answers on its next ping: the part follows, from the database.
      commandGame.health = 5;
      await commandGame.ping();
      await commandGame.ping();
      expect(commandGame.health).toBe(100);
      expect(await partOf(heal.body.batchId, commandUser.user.id)).toMatchObject({
        status: 'succeeded',
        commandId: (await broadcastsOf(commandUser.user.id))[0]!.id,
      });
      const missing = await as(admin.token).get('/api/admin/mass-executions/no-such-batch');
      expect(missing).toMatchObject({ status: 404, body: { error: ERRORS.massExecutionNotFound } });
      expect((await as(member.token).get(`/api/admin/mass-executions/${heal.body.batchId}`)).status).toBe(403);
    } finally {
      await codeGame.stop();
    }
  });

  it('ends a part failed when its run was recorded but its command never queued, when its worker died before sending it, or when no job ever took it', async () => {
    const user = await registerUser(server);
    const { db } = server.app.database;
    const { massProgress } = server.app.services;
    const partOf = (batchId: string) =>
      db.selectFrom('massExecutionItems').selectAll().where('batchId', '=', batchId).executeTakeFirstOrThrow();
    const batch = (batchId: string) =>
      massProgress.createBatch([
        { batchId, userId: user.user.id, status: 'queued', commandId: null, output: null, error: null },
      ]);

    // What a Redis outage between recording the run and queueing its command leaves: the job failed.
    const cut = crypto.randomUUID();
    await batch(cut);
    const executionId = derivedId('mass-run', cut, user.user.id);
    expect(await massProgress.claim(cut, user.user.id, { executionId })).toBeDefined();
    const now = new Date().toISOString();
    const queuedRun = {
      id: executionId,
      userId: user.user.id,
      scriptId: null,
      target: 'game' as const,
      status: 'queued',
      codeExcerpt: 'print(1)',
      output: '',
      error: null,
      limitHit: null,
      durationMs: 0,
      createdAt: now,
      initiatedBy: admin.user.id,
      serverId: 'gone',
      scriptName: null,
      initiator: 'admin',
      codeHash: 'x',
    };
    await db.insertInto('executions').values(queuedRun).execute();
    await massProgress.jobFailed(cut, user.user.id, ERRORS.serviceUnavailable);
    expect(await partOf(cut)).toMatchObject({ status: 'failed', error: ERRORS.serviceUnavailable });

    // A run's command answered while the database was cut before the run and the part followed: the part catches up.
    const answered = crypto.randomUUID();
    await batch(answered);
    const answeredRun = derivedId('mass-run', answered, user.user.id);
    await massProgress.claim(answered, user.user.id, { executionId: answeredRun });
    await massProgress.advance({ batchId: answered, userId: user.user.id }, { status: 'delivered' });
    await db
      .insertInto('executions')
      .values({ ...queuedRun, id: answeredRun })
      .execute();
    await db
      .insertInto('gameCommands')
      .values({
        id: crypto.randomUUID(),
        userId: user.user.id,
        serverId: 'gone',
        type: 'execute',
        data: JSON.stringify({ code: 'print(1)' }),
        status: 'succeeded',
        source: 'execution',
        executionId: answeredRun,
        attempts: 1,
        leaseUntil: null,
        output: '1\n',
        error: null,
        durationMs: 3,
        createdAt: now,
        expiresAt: now,
        deliveredAt: now,
        completedAt: now,
      })
      .execute();
    expect((await as(admin.token).get(`/api/admin/mass-executions/${answered}`)).body.items).toMatchObject([
      { status: 'succeeded', output: '1\n' },
    ]);

    // A part claimed by a worker that died before sending it: the queue runs its job again, which sends nothing and ends it.
    const died = crypto.randomUUID();
    await batch(died);
    const commandId = derivedId('mass-command', died, user.user.id);
    expect(await massProgress.claim(died, user.user.id, { commandId })).toBeDefined();
    const job = { batchId: died, userId: user.user.id, initiatedBy: admin.user.id, command: { type: 'heal' } };
    await server.app.services.jobs.request(MASS_EXECUTION_JOB, job, 10_000);
    expect(await partOf(died)).toMatchObject({ status: 'failed', error: ERRORS.massPartNeverSent });
    const sent = await db.selectFrom('gameCommands').select('id').where('id', '=', commandId).execute();
    expect(sent).toEqual([]);

    // A part whose job the queue lost (Redis restarted empty) ends failed once a command's lifetime has passed.
    const lost = crypto.randomUUID();
    await batch(lost);
    await massProgress.sweep();
    expect(await partOf(lost)).toMatchObject({ status: 'queued' });
    const longAgo = new Date(Date.now() - GAME_COMMAND_EXPIRY_MS - 1_000).toISOString();
    await db.updateTable('massExecutionItems').set({ updatedAt: longAgo }).where('batchId', '=', lost).execute();
    await massProgress.sweep();
    expect(await partOf(lost)).toMatchObject({ status: 'failed', error: ERRORS.massPartNeverTaken });
  });

  it('ends a part failed when the database is cut under its job, even when the first tries to record that fail too', async () => {
    const user = await registerUser(server);
    const { db } = server.app.database;
    const { massProgress, gameLink } = server.app.services;
    const batchId = crypto.randomUUID();
    await massProgress.createBatch([
      { batchId, userId: user.user.id, status: 'queued', commandId: null, output: null, error: null },
    ]);
    // What pg_terminate_backend gives a query in flight, and the next ones while the pool reconnects.
    const cut = () =>
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const lookup = vi.spyOn(gameLink, 'executionServer').mockRejectedValueOnce(cut());
    const record = vi.spyOn(massProgress, 'jobFailed').mockRejectedValueOnce(cut()).mockRejectedValueOnce(cut());
    let tries: number;
    try {
      const job = { batchId, userId: user.user.id, initiatedBy: admin.user.id, command: { type: 'heal' } };
      await server.app.services.jobs.request(MASS_EXECUTION_JOB, job, 30_000);
      tries = record.mock.calls.length;
    } finally {
      lookup.mockRestore();
      record.mockRestore();
    }
    expect(tries).toBe(3);
    const part = await db
      .selectFrom('massExecutionItems')
      .selectAll()
      .where('batchId', '=', batchId)
      .executeTakeFirstOrThrow();
    // Not left 'sending' for a command's lifetime, and not the driver's words: the operator's message.
    expect(part).toMatchObject({ status: 'failed', error: ERRORS.databaseUnavailable });
  });

  it('tells a batch finished once, when its last part ends, however many end at the same moment', async () => {
    const { massProgress } = server.app.services;
    const { db } = server.app.database;
    const users = await Promise.all([registerUser(server), registerUser(server), registerUser(server)]);
    const batchId = crypto.randomUUID();
    const finished: BusEvent[] = [];
    const unsubscribe = server.app.services.bus.subscribe((event) => {
      if (event.type === 'mass:finished' && event.batch.batchId === batchId) finished.push(event);
    });
    try {
      await massProgress.createBatch(
        users.map((u) => ({
          batchId,
          userId: u.user.id,
          status: 'queued',
          commandId: null,
          output: null,
          error: null,
        })),
        { initiatedBy: admin.user.id, kind: 'code' },
      );
      await massProgress.advance({ batchId, userId: users[0]!.user.id }, { status: 'succeeded', output: 'ok' });
      expect(finished).toEqual([]);
      // The last two parts end together (on PostgreSQL, in two sessions at once).
      await Promise.all([
        massProgress.advance({ batchId, userId: users[1]!.user.id }, { status: 'failed', error: 'boom' }),
        massProgress.advance({ batchId, userId: users[2]!.user.id }, { status: 'not_connected' }),
      ]);
      // A sweep afterwards finds nothing more to tell.
      await massProgress.sweep();
      expect(finished).toHaveLength(1);
      expect(finished[0]).toMatchObject({
        batch: {
          batchId,
          initiatedBy: admin.user.id,
          kind: 'code',
          counts: { succeeded: 1, failed: 1, not_connected: 1 },
        },
      });
      const row = await db
        .selectFrom('massExecutionBatches')
        .selectAll()
        .where('batchId', '=', batchId)
        .executeTakeFirstOrThrow();
      expect(row.finishedAt).not.toBeNull();
    } finally {
      unsubscribe();
    }
  });

  it('the sweep tells a batch whose last part ended in a process that stopped before looking', async () => {
    const { massProgress } = server.app.services;
    const { db } = server.app.database;
    const user = await registerUser(server);
    const batchId = crypto.randomUUID();
    await massProgress.createBatch(
      [{ batchId, userId: user.user.id, status: 'queued', commandId: null, output: null, error: null }],
      { initiatedBy: admin.user.id, kind: 'command' },
    );
    // The part ended behind the store's back (its process died before the batch was looked at).
    const longAgo = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable('massExecutionItems').set({ status: 'succeeded' }).where('batchId', '=', batchId).execute();
    await db.updateTable('massExecutionBatches').set({ createdAt: longAgo }).where('batchId', '=', batchId).execute();
    const finished: BusEvent[] = [];
    const unsubscribe = server.app.services.bus.subscribe((event) => {
      if (event.type === 'mass:finished' && event.batch.batchId === batchId) finished.push(event);
    });
    try {
      await massProgress.sweep();
      await massProgress.sweep();
    } finally {
      unsubscribe();
    }
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ batch: { kind: 'command', counts: { succeeded: 1 } } });
  });

  it('shows connections: live from presence, with the user and the game data', async () => {
    const user = await registerUser(server);
    await new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'conn-1' }).ping();
    const res = await as(admin.token).get('/api/admin/connections');
    expect(res.status).toBe(200);
    const row = res.body.items.find((c: { userId: string }) => c.userId === user.user.id);
    expect(row).toMatchObject({
      userName: user.user.name,
      userEmail: user.user.email,
      isTeam: false,
      serverId: 'conn-1',
      isConnected: true,
      gameData: { playerName: 'SimPlayer', health: 100 },
    });
    expect(res.body.connected).toBeGreaterThanOrEqual(1);

    // A team's server is named by the team, with no address (a team has none of its own).
    const team = await server.call('POST', '/api/teams', { token: user.token, body: { name: 'Conn team' } });
    const key = await server.call('POST', '/api/user/api-keys', {
      token: user.token,
      headers: { [TEAM_HEADER]: team.body.id },
      body: { name: 'Game', scopes: ['game'] },
    });
    await new SimulatedGame({ url: server.url, key: key.body.key, serverId: 'conn-team' }).ping();
    const listed = await as(admin.token).get('/api/admin/connections');
    const teamRow = listed.body.items.find((c: { userId: string }) => c.userId === team.body.id);
    expect(teamRow).toMatchObject({ userName: 'Conn team', userEmail: null, isTeam: true, serverId: 'conn-team' });
  });

  it('audits security events: a locked login, a key regenerated and an account deleted by its owner', async () => {
    const user = await registerUser(server);
    for (let i = 0; i < 5; i += 1) {
      await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: user.input.email, password: 'wrong password' },
      });
    }
    expect(await lastAudit()).toMatchObject({ action: 'security.login_locked', targetId: user.user.id, actorId: null });
    await server.call('POST', '/api/user/regenerate-key', { token: user.token });
    expect(await lastAudit()).toMatchObject({ action: 'account.key_regenerated', actorId: user.user.id });
    await server.call('DELETE', '/api/user/account', { token: user.token });
    expect(await lastAudit()).toMatchObject({
      action: 'account.deleted',
      targetId: user.user.id,
      details: { email: user.user.email, username: user.user.username },
    });
  });

  it('keeps the audit log append-only: no route changes it, and the database refuses', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST']) {
      const res = await server.call(method, '/api/admin/audit', { token: admin.token, body: {} });
      expect(res.status, method).toBe(405);
    }
    const entry = await lastAudit();
    const db = server.app.database.db;
    await expect(
      db.updateTable('auditLog').set({ action: 'forged' }).where('id', '=', entry.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('auditLog').where('id', '=', entry.id).execute()).rejects.toThrow(/append-only/);
    expect(await lastAudit()).toEqual(entry);
  });
});
