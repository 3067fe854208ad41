import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { closeLiveSocket, useLiveSocketState } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { EXECUTIONS_REFRESH_MS } from '../../live/useAdminLiveEvents.ts';
import { GRACE, auditEntry, commandView, pageOf, recentExecution, renderAdmin } from '../../test-admin.tsx';
import { detailsText } from '../audit/AuditLogTab.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
  useLiveSocketState.setState({ connected: true });
});
afterEach(() => {
  closeLiveSocket();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const at = (iso: string) => new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' });

describe('the Recent Executions tab', () => {
  it("says 'No recent executions found' when there are none", async () => {
    renderAdmin({}, 'executions');
    expect(await screen.findByText('No recent executions found')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Recent Executions (0)' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Recent Executions' })).toHaveStyle({ height: '600px' });
  });

  it("lists each run: date, admin, user, the first 8 characters of the user's id, and what came of it", async () => {
    renderAdmin(
      {
        'GET /api/admin/recent-executions': () => ({
          body: pageOf(
            [
              recentExecution(),
              recentExecution({
                id: 'exec-2',
                adminName: null,
                targetId: 'u3333333-4444',
                userId: 'u3333333-4444',
                scriptName: 'Fly Hack',
                details: { script: 'Fly Hack', code: 'fly()', serverId: 'job-42' },
                target: 'sandbox',
                status: 'failed',
                output: '',
                error: 'attempt to call a nil value',
              }),
            ],
            57,
          ),
        }),
      },
      'executions',
    );
    expect(await screen.findByRole('tab', { name: 'Recent Executions (57)' })).toBeInTheDocument();
    const [first, second] = await screen.findAllByTestId('recent-execution');
    expect(within(first!).getByText(at('2026-03-01T12:00:00.000Z'))).toBeInTheDocument();
    expect(within(first!).getByTestId('recent-execution-admin')).toHaveTextContent('Ada');
    expect(within(first!).getByText('on Grace Hopper')).toBeInTheDocument();
    // The admin's account is gone.
    expect(within(second!).getByTestId('recent-execution-admin')).toHaveTextContent('Unknown Admin');
    // The spec's fields: the first 8 characters of the target user's id, and the details.
    expect(within(first!).getByText('u2222222')).toBeInTheDocument();
    expect(within(second!).getByText('u3333333')).toHaveAttribute('title', 'u3333333-4444');
    expect(within(first!).getByTestId('recent-execution-details')).toHaveTextContent(/^code: print\("hello"\)$/);
    expect(within(second!).getByTestId('recent-execution-details')).toHaveTextContent(
      detailsText({ script: 'Fly Hack', code: 'fly()', serverId: 'job-42' }),
    );
    expect(within(second!).getByText('script: Fly Hack · code: fly() · serverId: job-42')).toBeInTheDocument();
    expect(within(first!).getByTestId('recent-execution-result')).toHaveTextContent('hello');
    expect(within(second!).getByText('Sandbox')).toBeInTheDocument();
    expect(within(second!).getByText('failed')).toBeInTheDocument();
    expect(within(second!).getByText('attempt to call a nil value')).toBeInTheDocument();
    // 57 runs: two pages of 50.
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('is fetched again (once) after a burst of command updates of executions', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { callsTo } = renderAdmin({}, 'executions');
    await screen.findByText('No recent executions found');
    expect(callsTo('GET', '/api/admin/recent-executions')).toHaveLength(1);
    act(() => {
      socket.serverSends('command:update', { command: commandView({ executionId: 'e1', status: 'delivered' }) });
      socket.serverSends('command:update', { command: commandView({ executionId: 'e1', status: 'succeeded' }) });
      socket.serverSends('execution:result', {
        userId: GRACE.id,
        execution: { success: true, output: '', error: null, target: 'game', executionId: 'e1', durationMs: 1 },
      });
    });
    await vi.advanceTimersByTimeAsync(EXECUTIONS_REFRESH_MS);
    await waitFor(() => expect(callsTo('GET', '/api/admin/recent-executions')).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(EXECUTIONS_REFRESH_MS * 3);
    expect(callsTo('GET', '/api/admin/recent-executions')).toHaveLength(2);
  });
});

describe('the Audit Logs tab', () => {
  it("says 'No audit logs available' when there are none", async () => {
    renderAdmin({}, 'audit');
    expect(await screen.findByText('No audit logs available')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Audit Logs' })).toHaveStyle({ height: '600px' });
  });

  it('lists each entry: action, time, target type, the first 8 characters of the target id, details', async () => {
    renderAdmin(
      {
        'GET /api/admin/audit': () => ({
          body: pageOf([
            auditEntry({
              action: 'admin.command_sent',
              details: { type: 'heal', data: {}, serverId: null },
            }),
          ]),
        }),
      },
      'audit',
    );
    const [entry] = await screen.findAllByTestId('audit-entry');
    expect(within(entry!).getByText('admin.command_sent')).toBeInTheDocument();
    expect(within(entry!).getByText(at('2026-03-01T12:00:00.000Z'))).toBeInTheDocument();
    expect(within(entry!).getByText('user')).toBeInTheDocument();
    expect(within(entry!).getByText('u2222222')).toBeInTheDocument();
    expect(within(entry!).getByText('by ada')).toBeInTheDocument();
    expect(within(entry!).getByText('type: heal · data: {} · serverId: null')).toBeInTheDocument();
  });

  it("puts a new 'audit:entry' at the top without fetching the log again", async () => {
    const { callsTo } = renderAdmin({ 'GET /api/admin/audit': () => ({ body: pageOf([auditEntry()]) }) }, 'audit');
    await screen.findAllByTestId('audit-entry');
    act(() =>
      socket.serverSends('audit:entry', {
        entry: auditEntry({ id: 'audit-2', action: 'admin.role_changed', details: { isAdmin: true } }),
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('audit-entry')).toHaveLength(2));
    expect(within(screen.getAllByTestId('audit-entry')[0]!).getByText('admin.role_changed')).toBeInTheDocument();
    // The same entry twice (a reconnect replay) is shown once.
    act(() =>
      socket.serverSends('audit:entry', { entry: auditEntry({ id: 'audit-2', action: 'admin.role_changed' }) }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getAllByTestId('audit-entry')).toHaveLength(2);
    expect(callsTo('GET', '/api/admin/audit')).toHaveLength(1);
  });

  it('an audited change to a user fetches the Users tab again', async () => {
    const { callsTo } = renderAdmin({}, 'audit');
    await screen.findByText('No audit logs available');
    expect(callsTo('GET', '/api/admin/users')).toHaveLength(1);
    act(() => socket.serverSends('audit:entry', { entry: auditEntry({ id: 'audit-9' }) }));
    await waitFor(() => expect(callsTo('GET', '/api/admin/users')).toHaveLength(2));
  });
});

describe('detailsText', () => {
  it('writes each detail as key: value, strings bare and the rest as JSON', () => {
    expect(detailsText({ code: 'print(1)', userIds: ['a', 'b'], isAdmin: false })).toBe(
      'code: print(1) · userIds: ["a","b"] · isAdmin: false',
    );
    expect(detailsText({})).toBe('');
  });
});
