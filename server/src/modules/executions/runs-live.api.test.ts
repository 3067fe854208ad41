import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_PATH, type ExecutionUpdatedEvent } from '@moonrelay/contract/events';
import type { RunSummary } from '@moonrelay/contract/runs';
import { engines } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describe('run history live (Socket.IO execution:updated)', () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

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
  /** The next `execution:updated` on this socket whose run matches. */
  const nextRun = (socket: Socket, match: (run: RunSummary) => boolean) =>
    new Promise<RunSummary>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching execution:updated within 10 s')), 10_000);
      const handler = ({ run }: ExecutionUpdatedEvent) => {
        if (!match(run)) return;
        clearTimeout(timer);
        socket.off('execution:updated', handler);
        resolve(run);
      };
      socket.on('execution:updated', handler);
    });

  it("tells the user's screens of a game run when it is recorded and again when its result comes back", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const aliceSocket = await open(alice.token);
    const bobSocket = await open(bob.token);
    const bobEvents: string[] = [];
    bobSocket.onAny((name: string) => bobEvents.push(name));

    const game = new SimulatedGame({ url: server.url, key: alice.user.apiKey, serverId: 'live-runs' });
    await game.ping();
    const recorded = nextRun(aliceSocket, (run) => run.serverId === 'live-runs');
    const call = server.call('POST', '/api/scripts/execute', {
      token: alice.token,
      body: { code: 'print("late result")', serverId: 'live-runs' },
    });
    const pending = await recorded;
    expect(pending).toMatchObject({ target: 'game', status: 'pending', serverId: 'live-runs', startedBy: 'user' });

    const finished = nextRun(aliceSocket, (run) => run.id === pending.id && run.status !== 'pending');
    await game.ping();
    await game.ping();
    expect(await finished).toEqual({ ...pending, status: 'succeeded', durationMs: expect.any(Number) });
    const answer = await call;
    expect(answer.body.executionId).toBe(pending.id);
    // The Runs page reads the same run in full.
    const detail = await server.call('GET', `/api/executions/${pending.id}`, { token: alice.token });
    expect(detail.body).toMatchObject({ status: 'succeeded', output: 'late result\n' });

    // A sandbox run is told once, finished.
    const sandbox = nextRun(aliceSocket, (run) => run.target === 'sandbox');
    await server.call('POST', '/api/scripts/execute', {
      token: alice.token,
      body: { code: 'print(1)', target: 'sandbox' },
    });
    expect(await sandbox).toMatchObject({ status: 'succeeded', scriptName: null });
    expect(bobEvents.filter((name) => name === 'execution:updated')).toEqual([]);
  }, 30_000);
});
