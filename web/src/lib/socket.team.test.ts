import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { FakeSocket } from '../test/fake-socket.ts';
import { signInAs } from '../test/fixtures.ts';
import { chooseTeam, personalTeam, testTeam } from '../test/teams.ts';
import { queryClient } from './query-client.ts';
import { useSession } from './session.ts';
import { closeLiveSocket, liveSocketFor } from './socket.ts';

/** The fake, with the reconnect a socket closed by the server needs. */
class ReconnectingSocket extends FakeSocket {
  readonly connect = vi.fn();
}

let sockets: ReconnectingSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => {
    const socket = new ReconnectingSocket();
    sockets.push(socket);
    return socket;
  }),
}));

beforeEach(() => {
  sockets = [];
  vi.mocked(io).mockClear();
  signInAs();
});
afterEach(() => {
  closeLiveSocket();
  useSession.getState().signOut();
});

describe('the live socket of a team', () => {
  it('names the chosen team in its handshake, and opens a socket of its own for each team', () => {
    const token = useSession.getState().token!;
    chooseTeam('t1');
    const team = liveSocketFor(token);
    expect(io).toHaveBeenLastCalledWith({ path: '/socket.io', auth: { token, team: 't1' } });

    chooseTeam(null);
    expect(sockets[0]!.disconnect).toHaveBeenCalled();
    expect(liveSocketFor(token)).not.toBe(team);
    expect(io).toHaveBeenLastCalledWith({ path: '/socket.io', auth: { token } });
  });

  it('connects again and reads the teams again when the server closes it (the member’s place changed)', () => {
    queryClient.setQueryData(['/api/teams'], [personalTeam(), testTeam({ id: 't1' })]);
    chooseTeam('t1');
    liveSocketFor(useSession.getState().token!);
    const [socket] = sockets as [ReconnectingSocket];
    socket.serverSends('connect');
    socket.serverSends('disconnect', 'io server disconnect');

    expect(useSession.getState().token).not.toBeNull();
    expect(socket.connect).toHaveBeenCalledTimes(1);
    // Read again by the screens that show it (none here): what the member may do now.
    expect(queryClient.getQueryState(['/api/teams'])?.isInvalidated).toBe(true);
  });
});
