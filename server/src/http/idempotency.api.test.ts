import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';
import { IDEMPOTENCY_ABANDONED_MS } from './idempotency.ts';

describeEachEngine('Idempotency-Key', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    server = await startTestServer(engine);
    admin = await registerUser(server); // the first account is an admin
  });
  afterAll(() => server.close());

  const post = (token: string, path: string, body: unknown, key?: string) =>
    server.call('POST', path, { token, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
  const commandsOf = (userId: string) =>
    server.app.database.db.selectFrom('gameCommands').select('id').where('userId', '=', userId).execute();

  it('answers a repeated key with the first answer and queues nothing new', async () => {
    const user = await registerUser(server);
    const first = await post(user.token, '/api/game/command', { type: 'heal' }, 'retry-1');
    expect(first.status).toBe(200);
    const again = await post(user.token, '/api/game/command', { type: 'heal' }, 'retry-1');
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await commandsOf(user.user.id)).map((row) => row.id)).toEqual([first.body.id]);
    // Without a key, or with a new one, each call is its own.
    expect((await post(user.token, '/api/game/command', { type: 'heal' })).status).toBe(200);
    expect((await post(user.token, '/api/game/command', { type: 'heal' }, 'retry-2')).status).toBe(200);
    expect(await commandsOf(user.user.id)).toHaveLength(3);
  });

  it('runs ten truly parallel requests with one key once', async () => {
    const user = await registerUser(server);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(user.token, '/api/game/command', { type: 'reset' }, 'parallel')),
    );
    const commands = await commandsOf(user.user.id);
    expect(commands).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 200) expect(answer.body.id).toBe(commands[0]!.id);
      else expect(answer).toMatchObject({ status: 409, body: { error: ERRORS.idempotencyKeyInProgress } });
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    // Once the first has answered, a retry gets its answer.
    const later = await post(user.token, '/api/game/command', { type: 'reset' }, 'parallel');
    expect(later).toMatchObject({ status: 200, body: { id: commands[0]!.id } });
  });

  it('tells a retry of a request that never finished so, once, instead of "in progress" until the key expires', async () => {
    const user = await registerUser(server);
    const body = { type: 'heal' };
    // The row a request leaves when its instance dies mid-request: reserved, never answered.
    expect((await post(user.token, '/api/game/command', body, 'orphan')).status).toBe(200);
    const { db } = server.app.database;
    const reserved = { status: 'pending', responseStatus: null, responseBody: null };
    await db.updateTable('idempotencyKeys').set(reserved).where('key', '=', 'orphan').execute();
    const fresh = await post(user.token, '/api/game/command', body, 'orphan');
    expect(fresh).toMatchObject({ status: 409, body: { error: ERRORS.idempotencyKeyInProgress } });
    expect(fresh.headers.get('retry-after')).toBe('1');
    const longAgo = new Date(Date.now() - IDEMPOTENCY_ABANDONED_MS - 1_000).toISOString();
    await db.updateTable('idempotencyKeys').set({ createdAt: longAgo }).where('key', '=', 'orphan').execute();
    const abandoned = await post(user.token, '/api/game/command', body, 'orphan');
    expect(abandoned).toMatchObject({ status: 409, body: { error: ERRORS.idempotencyKeyAbandoned } });
    expect(abandoned.headers.get('retry-after')).toBeNull();
    // Nothing ran again.
    expect(await commandsOf(user.user.id)).toHaveLength(1);
  });

  it('refuses a key used with a different request (422), and keeps keys per user', async () => {
    const [one, two] = [await registerUser(server), await registerUser(server)];
    expect((await post(one.token, '/api/game/command', { type: 'heal' }, 'shared')).status).toBe(200);
    const other = await post(one.token, '/api/game/command', { type: 'reset' }, 'shared');
    expect(other).toMatchObject({ status: 422, body: { error: ERRORS.idempotencyKeyReused } });
    const sameKeyOtherUser = await post(two.token, '/api/game/command', { type: 'reset' }, 'shared');
    expect(sameKeyOtherUser.status).toBe(200);
    expect(await commandsOf(one.user.id)).toHaveLength(1);
    expect(await commandsOf(two.user.id)).toHaveLength(1);
    for (const bad of ['x'.repeat(201), 'tab\tkey']) {
      const refused = await post(one.token, '/api/game/command', { type: 'heal' }, bad);
      expect(refused, bad).toMatchObject({ status: 400, body: { error: ERRORS.idempotencyKeyInvalid } });
    }
  });

  it('keeps no key for a refused request: a retry after a fix runs', async () => {
    const user = await registerUser(server);
    const refused = await post(user.token, '/api/game/command', { type: 'heal', serverId: 'gone' }, 'after-409');
    expect(refused.status).toBe(409);
    const retried = await post(user.token, '/api/game/command', { type: 'heal' }, 'after-409');
    expect(retried.status).toBe(200);
  });

  it('covers the execute calls and mass execution', async () => {
    const user = await registerUser(server);
    const run = { code: 'print("once")', target: 'sandbox' };
    const first = await post(user.token, '/api/scripts/execute', run, 'run-1');
    expect(first).toMatchObject({ status: 200, body: { success: true, output: 'once\n' } });
    expect((await post(user.token, '/api/scripts/execute', run, 'run-1')).body).toEqual(first.body);
    const saved = await post(user.token, '/api/scripts', { name: 'idem', code: 'print(2)' });
    const savedRun = await post(user.token, `/api/scripts/${saved.body.id}/execute`, { target: 'sandbox' }, 'run-2');
    expect(
      (await post(user.token, `/api/scripts/${saved.body.id}/execute`, { target: 'sandbox' }, 'run-2')).body,
    ).toEqual(savedRun.body);
    const runs = await server.app.database.db
      .selectFrom('executions')
      .select('id')
      .where('userId', '=', user.user.id)
      .execute();
    expect(runs).toHaveLength(2);
    const batch = { userIds: [user.user.id], command: { type: 'heal' } };
    const mass = await post(admin.token, '/api/admin/mass-execution', batch, 'mass-1');
    expect(mass.status).toBe(200);
    expect((await post(admin.token, '/api/admin/mass-execution', batch, 'mass-1')).body.batchId).toBe(
      mass.body.batchId,
    );
    const batches = await server.app.database.db
      .selectFrom('massExecutionItems')
      .select('batchId')
      .where('userId', '=', user.user.id)
      .execute();
    expect(batches).toEqual([{ batchId: mass.body.batchId }]);
  });
});
