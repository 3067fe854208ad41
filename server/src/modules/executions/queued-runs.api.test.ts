import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { BusEvent } from '../../platform/event-bus.ts';

/**
 * A run on a connected game whose result is not back within the wait is queued, not failed: the
 * spec's queued shape (success and queued true) with `pending` and the execution id. The games here
 * ping once (so they are connected) and not again until the answer is in, so their result cannot be
 * back in time, whatever the wait; the wait is short only so the suite does not take 8 s a run.
 */
describeEachEngine('game runs answered queued', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  let serverCounter = 0;

  beforeAll(async () => {
    server = await startTestServer(engine, { GAME_EXECUTION_WAIT_MS: '100' });
    admin = await registerUser(server); // the first account is an admin
  });
  afterAll(() => server.close());

  /** A user with a connected game that has pinged once. */
  async function connectedUser() {
    const user = await registerUser(server);
    const game = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: `queued-${++serverCounter}` });
    expect((await game.ping()).status).toBe(200);
    return { user, game };
  }

  const queuedShape = (serverId: string) => ({
    success: true,
    queued: true,
    pending: true,
    gameConnected: true,
    output: '',
    error: null,
    target: 'game',
    executionId: expect.any(String),
    serverId,
    durationMs: 0,
  });

  const executionRow = (id: string) =>
    server.app.database.db.selectFrom('executions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** The late result of an execution, as pushed on the bus; listen before the game answers. */
  function lateResult(executionId: string) {
    let unsubscribe = () => {};
    const result = new Promise<Extract<BusEvent, { type: 'execution:result' }>>((resolve) => {
      unsubscribe = server.app.services.bus.subscribe((event) => {
        if (event.type === 'execution:result' && event.execution.executionId === executionId) resolve(event);
      });
    }).finally(() => unsubscribe());
    return result;
  }

  it('POST /api/scripts/execute: queued with pending and the execution id; the result arrives later', async () => {
    const { user, game } = await connectedUser();
    for (const body of [{ code: 'print("late")' }, { code: 'print("late")', target: 'game' }]) {
      const res = await server.call('POST', '/api/scripts/execute', { token: user.token, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(queuedShape(game.options.serverId));
      expect(await executionRow(res.body.executionId)).toMatchObject({ status: 'queued', target: 'game' });

      const late = lateResult(res.body.executionId);
      await game.ping(); // takes the command and runs it
      await game.ping(); // reports its result
      expect(await late).toMatchObject({
        userId: user.user.id,
        execution: { executionId: res.body.executionId, success: true, output: 'late\n' },
      });
      expect(await executionRow(res.body.executionId)).toMatchObject({ status: 'succeeded', output: 'late\n' });
    }
  });

  it('POST /api/scripts/{id}/execute: queued the same way, and the run counts for the script', async () => {
    const { user, game } = await connectedUser();
    const script = await server.call('POST', '/api/scripts', {
      token: user.user.apiKey,
      body: { name: 'Later', code: 'print("saved")' },
    });
    const res = await server.call('POST', `/api/scripts/${script.body.id}/execute`, {
      token: user.user.apiKey,
      body: {},
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(queuedShape(game.options.serverId));
    const after = await server.call('GET', `/api/scripts/${script.body.id}`, { token: user.token });
    expect(after.body.executionCount).toBe(1);
  });

  it("POST /api/admin/users/{id}/execute-script: queued the same way on the user's game", async () => {
    const { user, game } = await connectedUser();
    const res = await server.call('POST', `/api/admin/users/${user.user.id}/execute-script`, {
      token: admin.token,
      body: { script: 'print("from the admin, later")' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(queuedShape(game.options.serverId));
    expect(await executionRow(res.body.executionId)).toMatchObject({
      status: 'queued',
      userId: user.user.id,
      initiatedBy: admin.user.id,
    });
  });
});
