import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ConsoleLinesEvent } from '@moonrelay/contract/console';
import { GAME_LONG_POLL_MAX_SECONDS } from '@moonrelay/contract/constants';
import { SOCKET_PATH } from '@moonrelay/contract/events';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

type Person = Awaited<ReturnType<typeof registerUser>>;

/**
 * A member's live view of a team (docs/decisions/049): the socket names the team in its handshake,
 * hears the team's events its member may see and no others, and closes the moment the member's
 * place in the team changes; a removed member's next handshake is refused.
 */
describeOnSQLite('live push for a team', (engine) => {
  let server: TestServer;
  let owner: Person;
  let teamId: string;
  let gameKey: string;
  const sockets: Socket[] = [];

  const open = (token: string, team?: string) => {
    const socket = connect(server.url, {
      path: SOCKET_PATH,
      auth: team ? { token, team } : { token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    return socket;
  };
  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  /** Every event name the socket hears, in order. */
  const heard = (socket: Socket) => {
    const names: string[] = [];
    socket.onAny((name: string) => names.push(name));
    return names;
  };
  const nextConsole = (socket: Socket, text: string) =>
    new Promise<ConsoleLinesEvent>((resolve) => {
      const handler = (event: ConsoleLinesEvent) => {
        if (!event.lines.some((line) => line.text === text)) return;
        socket.off('console:lines', handler);
        resolve(event);
      };
      socket.on('console:lines', handler);
    });
  const log = (text: string) =>
    server.call('POST', '/api/game/ping', {
      body: {
        key: gameKey,
        serverId: 'team-server',
        console: { lines: [{ time: Date.now(), level: 'output', text }] },
      },
    });

  async function join(role: string): Promise<Person> {
    const person = await registerUser(server);
    const link = await server.call('POST', `/api/teams/${teamId}/invitations`, { token: owner.token, body: { role } });
    const joined = await server.call('POST', '/api/teams/join', {
      token: person.token,
      body: { token: link.body.token },
    });
    expect(joined.status, joined.text).toBe(200);
    return person;
  }

  beforeAll(async () => {
    server = await startTestServer(engine);
    owner = await registerUser(server);
    teamId = (await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Live' } })).body.id;
    const key = await server.call('POST', '/api/user/api-keys', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { name: 'Game', scopes: ['game'] },
    });
    gameKey = key.body.key;
    expect((await log('hello')).status).toBe(200);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.close();
  });

  it('refuses a view of a team to someone who is not its member', async () => {
    const stranger = await registerUser(server);
    await expect(connected(open(stranger.token, teamId))).rejects.toThrow('Authentication failed');
  });

  it("gives a moderator the team's console but not its runs, and the owner's own view nothing of the team", async () => {
    const moderator = await join('moderator');
    const moderatorView = open(moderator.token, teamId);
    const ownerView = open(owner.token, teamId);
    const ownerOwn = open(owner.token);
    await Promise.all([connected(moderatorView), connected(ownerView), connected(ownerOwn)]);
    const moderatorHeard = heard(moderatorView);
    const ownHeard = heard(ownerOwn);

    // A run of the team's: its event reaches the owner's view of the team first...
    const runEvent = new Promise((resolve) => ownerView.once('execution:updated', resolve));
    const run = await server.call('POST', '/api/scripts/execute', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { code: 'print(1)', target: 'sandbox' },
    });
    expect(run.status, run.text).toBe(200);
    await runEvent;
    // ...then a console line, which the moderator may see: by then the run's event would have come.
    const line = nextConsole(moderatorView, 'after the run');
    await log('after the run');
    await line;
    expect(moderatorHeard).not.toContain('execution:updated');
    expect(ownHeard).not.toContain('console:lines');
    expect(ownHeard).not.toContain('execution:updated');
  });

  it("closes a member's view the moment they are removed, and refuses their next handshake", async () => {
    const viewer = await join('viewer');
    const view = open(viewer.token, teamId);
    await connected(view);
    const closed = new Promise<string>((resolve) => view.once('disconnect', resolve));
    const removed = await server.call('DELETE', `/api/teams/${teamId}/members/${viewer.user.id}`, {
      token: owner.token,
    });
    expect(removed.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    await expect(connected(open(viewer.token, teamId))).rejects.toThrow('Authentication failed');
  });

  it("ends a ping held with a removed member's key without handing it the team's next command", async () => {
    const developer = await join('developer');
    const made = await server.call('POST', '/api/user/api-keys', {
      token: developer.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { name: 'Their game', scopes: ['game'] },
    });
    expect(made.status, made.text).toBe(200);
    const ping = (wait?: number) =>
      server.call('POST', '/api/game/ping', { body: { key: made.body.key, serverId: 'their-server', wait } });
    expect((await ping()).status).toBe(200);
    const { waits } = server.app.services;
    const before = waits.pending;
    const held = ping(GAME_LONG_POLL_MAX_SECONDS);
    await vi.waitFor(() => expect(waits.pending).toBe(before + 1), { timeout: 10_000 });

    await server.call('DELETE', `/api/teams/${teamId}/members/${developer.user.id}`, { token: owner.token });
    const sent = await server.call('POST', '/api/game/command', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { type: 'teleport', data: { x: 0, y: 50, z: 0 }, serverId: 'their-server' },
    });
    expect(sent.status, sent.text).toBe(200);
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.body.commands).toEqual([]);
    expect((await ping()).status).toBe(401);
  });
});
