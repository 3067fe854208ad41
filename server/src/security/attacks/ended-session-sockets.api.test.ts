import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SOCKET_PATH } from '@moonrelay/contract/events';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * A signed-out or deleted account's open screens stop receiving events when it happens, not at
 * the next recheck: the recheck is set to five minutes here, so only the event itself can close them.
 */
describeOnSQLite('attack: a socket outliving its session', (engine) => {
  let server: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer(engine, { SOCKET_RECHECK_MS: '300000' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  const openSocket = (token: string) =>
    new Promise<Socket>((resolve, reject) => {
      // No reconnection: a closed socket stays closed, so the test sees the server's decision.
      const socket = connect(server.url, {
        path: SOCKET_PATH,
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(socket);
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  const closed = (socket: Socket) => new Promise<string>((resolve) => socket.once('disconnect', resolve));

  it('closes the sockets of a session that logs out, and only those', async () => {
    const owner = await registerUser(server);
    const second = await server.call('POST', '/api/auth/login', {
      body: { emailOrUsername: owner.input.username, password: owner.password },
    });
    const [leaving, staying] = await Promise.all([openSocket(owner.token), openSocket(second.body.token)]);
    let stayingClosed = false;
    staying.once('disconnect', () => (stayingClosed = true));
    const leavingClosed = closed(leaving);
    expect((await server.call('POST', '/api/auth/logout', { token: owner.token })).status).toBe(200);
    expect(await leavingClosed).toBe('io server disconnect');
    // The other session is still served: a round trip through the server after the close.
    expect((await server.call('GET', '/api/user', { token: second.body.token })).status).toBe(200);
    expect(stayingClosed).toBe(false);
    expect(staying.connected).toBe(true);
  });

  it('closes every socket of an account that is deleted', async () => {
    const owner = await registerUser(server);
    const socket = await openSocket(owner.token);
    const socketClosed = closed(socket);
    expect((await server.call('DELETE', '/api/user/account', { token: owner.token })).status).toBe(200);
    expect(await socketClosed).toBe('io server disconnect');
  });
});
