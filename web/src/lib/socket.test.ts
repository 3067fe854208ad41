import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { FakeSocket } from '../test/fake-socket.ts';
import { signInAs } from '../test/fixtures.ts';
import { queryClient } from './query-client.ts';
import { SESSION_ENDED_NOTICE } from './notices.ts';
import { useSession } from './session.ts';
import { closeLiveSocket, liveSocketFor, useLiveSocketState } from './socket.ts';

let sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket;
  }),
}));

beforeEach(() => {
  sockets = [];
  vi.mocked(io).mockClear();
  signInAs();
});
afterEach(() => closeLiveSocket());

describe('the live socket', () => {
  it('opens one socket per session, on /socket.io, authenticated with the session token', () => {
    const token = useSession.getState().token!;
    const socket = liveSocketFor(token);
    expect(liveSocketFor(token)).toBe(socket);
    expect(io).toHaveBeenCalledTimes(1);
    expect(io).toHaveBeenCalledWith({ path: '/socket.io', auth: { token } });
  });

  it('tells whether it is connected', () => {
    liveSocketFor(useSession.getState().token!);
    const [socket] = sockets as [FakeSocket];
    expect(useLiveSocketState.getState().connected).toBe(false);
    socket.serverSends('connect');
    expect(useLiveSocketState.getState().connected).toBe(true);
    socket.serverSends('disconnect', 'transport close');
    expect(useLiveSocketState.getState().connected).toBe(false);
  });

  it('disconnects when the user signs out', () => {
    liveSocketFor(useSession.getState().token!);
    const [socket] = sockets as [FakeSocket];
    socket.serverSends('connect');
    useSession.getState().signOut();
    expect(socket.disconnect).toHaveBeenCalledTimes(1);
    expect(useLiveSocketState.getState().connected).toBe(false);
  });

  it('opens a new socket for a new session', () => {
    const first = liveSocketFor(useSession.getState().token!);
    useSession.getState().signIn('mrs_other', useSession.getState().user!);
    const second = liveSocketFor('mrs_other');
    expect(second).not.toBe(first);
    expect(sockets[0]!.disconnect).toHaveBeenCalled();
    expect(io).toHaveBeenLastCalledWith({ path: '/socket.io', auth: { token: 'mrs_other' } });
  });

  it('signs out at once, saying so, when the server closes the socket (its session ended elsewhere)', () => {
    liveSocketFor(useSession.getState().token!);
    const [socket] = sockets as [FakeSocket];
    socket.serverSends('connect');
    queryClient.setQueryData(['/api/user'], useSession.getState().user);
    socket.serverSends('disconnect', 'io server disconnect');
    expect(useSession.getState().token).toBeNull();
    expect(useSession.getState().endedNotice).toBe(SESSION_ENDED_NOTICE);
    expect(queryClient.getQueryData(['/api/user'])).toBeUndefined();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('keeps the session through a dropped connection (socket.io-client reconnects by itself)', () => {
    liveSocketFor(useSession.getState().token!);
    const [socket] = sockets as [FakeSocket];
    socket.serverSends('connect');
    socket.serverSends('disconnect', 'transport close');
    expect(useSession.getState().token).not.toBeNull();
    expect(useSession.getState().endedNotice).toBeNull();
  });
});
