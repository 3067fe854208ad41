import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { queryClient } from '../../../lib/query-client.ts';
import { closeLiveSocket } from '../../../lib/socket.ts';
import { FakeSocket } from '../../../test/fake-socket.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { ALAN, GRACE, connection, connectionList, progress } from '../test-admin.tsx';
import { laterProgress, useAdminLiveStore } from './admin-live-store.ts';
import { patchConnections, useAdminLiveEvents } from './useAdminLiveEvents.ts';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

const ADMIN_EVENTS = ['game:servers', 'command:update', 'execution:result', 'audit:entry', 'mass:progress'];

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
});
afterEach(() => {
  closeLiveSocket();
  useAdminLiveStore.getState().clear();
});

describe('useAdminLiveEvents', () => {
  it("does not listen for a user who is not an admin (their socket gets no admins' events)", () => {
    signInAs(testUser({ isAdmin: false }));
    renderHook(() => useAdminLiveEvents());
    expect(io).not.toHaveBeenCalled();
  });

  it("listens to the admins' events while mounted, and forgets the live state when unmounted", () => {
    signInAs(testUser({ isAdmin: true }));
    const { unmount } = renderHook(() => useAdminLiveEvents());
    for (const event of ADMIN_EVENTS) expect(socket.listenerCount(event), event).toBe(1);
    socket.serverSends('mass:progress', { progress: progress({ userId: GRACE.id, status: 'sent' }) });
    expect(useAdminLiveStore.getState().progress['batch-1']?.[GRACE.id]?.status).toBe('sent');
    unmount();
    for (const event of ADMIN_EVENTS) expect(socket.listenerCount(event), event).toBe(0);
    expect(useAdminLiveStore.getState().progress).toEqual({});
  });

  it('fetches every admin list again when the socket (re)connects, as events may have been missed', () => {
    signInAs(testUser({ isAdmin: true }));
    renderHook(() => useAdminLiveEvents());
    const keys = [['/api/admin/users', 1], ['/api/admin/audit', 3], ['/api/game/status']];
    for (const key of keys) queryClient.setQueryData(key, {});
    socket.serverSends('connect');
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, false]);
  });
});

describe('patchConnections', () => {
  const graceGame = connection();
  const graceStudio = connection({ serverId: 'studio', isConnected: false });
  const alanGame = connection({ userId: ALAN.id, userName: ALAN.name, serverId: 'job-alan' });
  const list = connectionList([graceGame, graceStudio, alanGame]);
  const now = new Date().toISOString();
  const server = (serverId: string) => ({ serverId, connected: true, lastPing: now, connectedAt: now, gameData: null });

  it("applies one user's change to their game servers only, and keeps the connected count", () => {
    const patched = patchConnections(list, {
      userId: GRACE.id,
      servers: [server('studio')],
      gone: [{ serverId: graceGame.serverId, lastPing: graceGame.lastPing }],
    });
    expect(patched.items.map((item) => [item.serverId, item.isConnected])).toEqual([
      [graceGame.serverId, false],
      ['studio', true],
      ['job-alan', true],
    ]);
    // Player data is kept when the change has none.
    expect(patched.items[0]!.gameData).toEqual(graceGame.gameData);
    expect(patched.items[1]!.lastPing).toBe(now);
    expect(patched.connected).toBe(2);
    expect(patched.total).toBe(3);
  });

  it('ignores a change older than what the list shows (it was on its way while the list was fetched)', () => {
    const older = new Date(Date.parse(graceGame.lastPing) - 5_000).toISOString();
    const patched = patchConnections(list, {
      userId: GRACE.id,
      servers: [],
      gone: [{ serverId: graceGame.serverId, lastPing: older }],
    });
    expect(patched.items[0]!.isConnected).toBe(true);
    expect(patched.connected).toBe(list.connected);
  });
});

describe('laterProgress', () => {
  it('never lets an earlier step replace a later one', () => {
    const sent = progress({ userId: GRACE.id, status: 'sent' });
    const delivered = progress({ userId: GRACE.id, status: 'delivered' });
    const done = progress({ userId: GRACE.id, status: 'succeeded', output: 'ok' });
    expect(laterProgress(undefined, sent)).toBe(sent);
    expect(laterProgress(sent, delivered)).toBe(delivered);
    expect(laterProgress(done, delivered)).toBe(done);
    expect(laterProgress(done, progress({ userId: GRACE.id, status: 'queued' }))).toBe(done);
  });
});
