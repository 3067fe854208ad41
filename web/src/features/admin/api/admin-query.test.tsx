import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_POLL_MS } from '@moonrelay/contract/constants';
import { queryClient } from '../../../lib/query-client.ts';
import { useLiveSocketState } from '../../../lib/socket.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch } from '../../../test/render.tsx';
import { connectionList, pageOf } from '../test-admin.tsx';
import { useAuditLog } from './audit.ts';
import { useAdminConnections } from './connections.ts';
import { useRecentExecutions } from './recent-executions.ts';
import { useAdminUsers } from './users.ts';

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);

const LISTS = [
  { name: 'users', path: '/api/admin/users', hook: useAdminUsers, pollMs: ADMIN_POLL_MS.users },
  { name: 'connections', path: '/api/admin/connections', hook: useAdminConnections, pollMs: ADMIN_POLL_MS.connections },
  { name: 'audit', path: '/api/admin/audit', hook: useAuditLog, pollMs: ADMIN_POLL_MS.audit },
  {
    name: 'recent executions',
    path: '/api/admin/recent-executions',
    hook: useRecentExecutions,
    pollMs: ADMIN_POLL_MS.executions,
  },
] as const;

function watch(path: string, hook: (page: number) => unknown) {
  const fetch = vi.fn(
    jsonFetch({ [`GET ${path}`]: () => ({ body: path.endsWith('connections') ? connectionList([]) : pageOf([]) }) }),
  );
  vi.stubGlobal('fetch', fetch);
  renderHook(() => hook(1), { wrapper });
  const calls = () => fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(path));
  return calls;
}

beforeEach(() => {
  signInAs(testUser({ isAdmin: true }));
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useLiveSocketState.setState({ connected: false });
});

describe('the admin lists', () => {
  it('are polled at the spec intervals: users 10 s, connections 5 s, audit 30 s, executions 15 s', () => {
    expect(LISTS.map((list) => [list.name, list.pollMs])).toEqual([
      ['users', 10_000],
      ['connections', 5_000],
      ['audit', 30_000],
      ['recent executions', 15_000],
    ]);
  });

  for (const { name, path, hook, pollMs } of LISTS) {
    it(`${name}: fetched as page 1 of 50, polled every ${pollMs / 1000} s while the live socket is down`, async () => {
      const calls = watch(path, hook);
      await waitFor(() => expect(calls()).toEqual([`${path}?page=1&pageSize=50`]));
      await vi.advanceTimersByTimeAsync(pollMs - 100);
      expect(calls()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(100);
      await waitFor(() => expect(calls()).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(pollMs);
      await waitFor(() => expect(calls()).toHaveLength(3));
    });

    it(`${name}: not polled while the live socket is up; polled again when it drops`, async () => {
      useLiveSocketState.setState({ connected: true });
      const calls = watch(path, hook);
      await waitFor(() => expect(calls()).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(pollMs * 3);
      expect(calls()).toHaveLength(1);

      useLiveSocketState.setState({ connected: false });
      await vi.advanceTimersByTimeAsync(pollMs);
      await waitFor(() => expect(calls()).toHaveLength(2));
    });
  }
});
