import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { GAME_LINK_BUSY, type ConnectAdmission } from './connect-admission.ts';

/**
 * What the event loop's monitor reads now on a server whose loop was stalled for `seconds`, given to
 * the admission as the monitor gives it: no need to keep the machine busy for that long.
 */
function stalledFor(admission: ConnectAdmission, seconds: number): void {
  admission.observe({ atMs: Date.now(), lagMs: seconds * 1000 });
}

describe('connects refused while the server is overloaded, not during a storm', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { GAME_SHED_LAG_MS: '50' });
  });
  afterAll(() => server.close());

  // Looks again every few milliseconds: spinning on the event loop would itself keep it busy.
  const until = async (check: () => boolean) => {
    while (!check()) await pause(20);
  };
  const refusedSoFar = async () =>
    Number(
      /^moonrelay_game_connects_refused_total (\d+)$/m.exec(await server.app.services.platform.metrics.render())?.[1] ??
        0,
    );
  const newcomerPing = (key: string, serverId: string) =>
    fetch(`${server.url}/api/game/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key, serverId }),
    });

  it('answers connected games, refuses new ones with 503 and Retry-After, then takes them again', async () => {
    const owner = await registerUser(server);
    const game = (serverId: string) => new SimulatedGame({ url: server.url, key: owner.user.apiKey, serverId });
    const admission = server.app.services.admission;
    const connected = game('already-connected');
    // Connected first. On a machine busy with other suites the server may be overloaded already and
    // refuse it as new: it connects as a game does, once the server has caught up.
    while ((await connected.ping()).status === 503) await until(() => !admission.busy);
    expect((await connected.ping()).status).toBe(200);

    const refusedBefore = await refusedSoFar();
    // Overloaded: behind for longer than a storm keeps it.
    stalledFor(admission, 6);
    expect(admission.busy).toBe(true);
    const newcomer = await newcomerPing(owner.user.apiKey, 'newcomer');
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

  it('takes every new game while a restart storm keeps the server behind for a few seconds', async () => {
    const owner = await registerUser(server);
    const admission = server.app.services.admission;
    await until(() => !admission.busy);
    const refusedBefore = await refusedSoFar();
    // Behind for 4 s (a storm being worked through): still taking new games.
    stalledFor(admission, 4);
    expect(admission.busy).toBe(false);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => newcomerPing(owner.user.apiKey, `storm-${i}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(await refusedSoFar()).toBe(refusedBefore);
  });
});
