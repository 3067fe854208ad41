import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { GAME_LINK_BUSY } from './connect-admission.ts';

/** Keeps the event loop busy for a moment, as a storm of connects does over and over. */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

describe('connects refused while the server is behind (restart storms)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { GAME_SHED_LAG_MS: '50' });
  });
  afterAll(() => server.close());

  // Looks again every few milliseconds: spinning on the event loop would itself keep it busy.
  const until = async (check: () => boolean) => {
    while (!check()) await pause(20);
  };

  it('answers connected games, refuses new ones with 503 and Retry-After, then takes them again', async () => {
    const owner = await registerUser(server);
    const game = (serverId: string) => new SimulatedGame({ url: server.url, key: owner.user.apiKey, serverId });
    const admission = server.app.services.admission;
    const connected = game('already-connected');
    // Connected first. On a machine busy with other suites the server may be behind already and
    // refuse it as new: it connects as a game does, once the server has caught up.
    while ((await connected.ping()).status === 503) await until(() => !admission.busy);
    expect((await connected.ping()).status).toBe(200);

    const refusedSoFar = async () =>
      Number(
        /^moonrelay_game_connects_refused_total (\d+)$/m.exec(
          await server.app.services.platform.metrics.render(),
        )?.[1] ?? 0,
      );
    const refusedBefore = await refusedSoFar();
    // Overloaded: the loop is late again and again, not once.
    while (!admission.busy) {
      blockEventLoop(100);
      await nextTurn();
    }
    const newcomer = await fetch(`${server.url}/api/game/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: owner.user.apiKey, serverId: 'newcomer' }),
    });
    expect(newcomer.status).toBe(503);
    expect(await newcomer.json()).toEqual({ error: GAME_LINK_BUSY });
    const retryAfter = Number(newcomer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(2);
    expect(retryAfter).toBeLessThanOrEqual(6);
    // A connected game is never refused: the live fleet does not flap.
    expect((await connected.ping()).status).toBe(200);

    await until(() => !admission.busy);
    expect((await game('newcomer').ping()).status).toBe(200);
    expect(await refusedSoFar()).toBe(refusedBefore + 1);
  });
});
