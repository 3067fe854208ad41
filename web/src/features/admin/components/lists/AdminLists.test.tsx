import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { io } from 'socket.io-client';
import { closeLiveSocket, useLiveSocketState } from '../../../../lib/socket.ts';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { EXECUTIONS_REFRESH_MS } from '../../live/useAdminLiveEvents.ts';
import {
  GRACE,
  adminTeam,
  adminUser,
  auditEntry,
  commandView,
  connection,
  connectionList,
  pageOf,
  recentExecution,
  renderAdmin,
} from '../../test-admin.tsx';
import { ADMIN_TEXT } from '../../admin-text.ts';
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

/** A full page: the server sends the admin lists 50 rows at a time. */
const PAGE = 50;
const numbered = <T,>(make: (index: number) => T) => Array.from({ length: PAGE }, (_, index) => make(index));

/** Every one of `elements` looks the same: Chakra gave them one class list, whatever they hold. */
const oneLook = (elements: Element[]) => {
  expect(elements.length).toBeGreaterThan(1);
  expect(new Set(elements.map((element) => element.className)).size).toBe(1);
};

describe('the admin lists, drawn only where their 600px area shows them', () => {
  /** jsdom lays nothing out: the list areas are given their 600px, and content of this height. */
  let layout: MockInstance[] = [];
  const isArea = (element: Element) => element.getAttribute('data-testid') === 'admin-list';
  function layOut(contentHeight: number) {
    layout = [
      vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
        return isArea(this) ? 600 : 0;
      }),
      vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
        return isArea(this) ? contentHeight : 0;
      }),
    ];
  }
  afterEach(() => {
    for (const spy of layout) spy.mockRestore();
    layout = [];
  });
  function scrollTo(area: HTMLElement, top: number) {
    area.scrollTop = top;
    fireEvent.scroll(area);
  }

  const USERS = numbered((index) =>
    adminUser({
      id: `u-${index}`,
      name: `User ${index}`,
      username: `user${index}`,
      email: `user${index}@example.com`,
      isAdmin: index === 1,
    }),
  );
  const usersTable = () => screen.getByRole('table', { name: 'Users' });
  const userRows = () => screen.getAllByTestId('admin-user-row');
  const userRow = (name: string) => userRows().find((row) => within(row).queryByText(name, { exact: true }))!;

  it('Users: a page of 50 draws a screenful of rows, in a table that still counts all of them', async () => {
    renderAdmin({ 'GET /api/admin/users': () => ({ body: pageOf(USERS, 57) }) });
    await screen.findByText('User 0', { exact: true });
    expect(userRows().length).toBeGreaterThanOrEqual(10);
    expect(userRows().length).toBeLessThan(PAGE);
    expect(usersTable()).toHaveAttribute('aria-rowcount', String(PAGE + 1));
    expect(within(usersTable()).getAllByRole('row')[0]).toHaveAttribute('aria-rowindex', '1');
    expect(userRows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(userRows()[3]).toHaveAttribute('aria-rowindex', '5');
    // Space, hidden from screen readers, stands in for the rows not drawn.
    const spacers = usersTable().querySelectorAll('tbody > tr[aria-hidden]');
    expect(spacers).toHaveLength(1);
    expect(parseInt((spacers[0] as HTMLElement).style.height, 10)).toBeGreaterThan(0);
    // The whole page is still selected at once, drawn or not; the pager is still there.
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all users on this page' }));
    const { useSelection } = await import('../../selection.ts');
    expect(Object.keys(useSelection.getState().selected)).toHaveLength(PAGE);
    useSelection.getState().clear();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('Users: scrolled down, the rows there are drawn in place of the first ones', async () => {
    layOut(PAGE * 57);
    renderAdmin({ 'GET /api/admin/users': () => ({ body: pageOf(USERS) }) });
    await screen.findByText('User 0', { exact: true });
    const area = screen.getByRole('region', { name: 'Users' });
    // It scrolls, so the keyboard can reach it.
    await waitFor(() => expect(area).toHaveAttribute('tabindex', '0'));

    scrollTo(area, 30 * 57);
    await screen.findByText('User 30', { exact: true });
    expect(screen.queryByText('User 0', { exact: true })).not.toBeInTheDocument();
    expect(userRow('User 30')).toHaveAttribute('aria-rowindex', '32');
    expect(userRows().length).toBeLessThan(PAGE);
    const spacers = [...usersTable().querySelectorAll<HTMLElement>('tbody > tr[aria-hidden]')];
    expect(spacers).toHaveLength(2);
    expect(spacers.every((spacer) => parseInt(spacer.style.height, 10) > 0)).toBe(true);
  });

  it('Users: Tab goes from row to row past the first screenful, the next row drawn before it is reached', async () => {
    layOut(PAGE * 57);
    renderAdmin({ 'GET /api/admin/users': () => ({ body: pageOf(USERS) }) });
    await screen.findByText('User 0', { exact: true });
    const area = screen.getByRole('region', { name: 'Users' });
    const last = () => userRows().at(-1)!;
    const lastIndex = Number(last().getAttribute('aria-rowindex')) - 2;
    // The last row drawn lies below the area's edge: rows are drawn past it for Tab to reach.
    expect(lastIndex * 57).toBeGreaterThan(600);
    expect(lastIndex).toBeLessThan(PAGE - 1);

    // Tab from a row's last button to the next row's first control...
    within(userRow(`User ${lastIndex - 1}`))
      .getByRole('button', { name: `Make Admin: User ${lastIndex - 1}` })
      .focus();
    await userEvent.tab();
    expect(screen.getByRole('checkbox', { name: `Select User ${lastIndex}` })).toHaveFocus();
    // ...which the browser scrolls into view: the rows after it are drawn, and Tab reaches them.
    scrollTo(area, (lastIndex + 1) * 57 - 600);
    await screen.findByText(`User ${lastIndex + 1}`, { exact: true });
    expect(screen.getByRole('checkbox', { name: `Select User ${lastIndex}` })).toHaveFocus();
    within(userRow(`User ${lastIndex}`))
      .getByRole('button', { name: `Make Admin: User ${lastIndex}` })
      .focus();
    await userEvent.tab();
    expect(screen.getByRole('checkbox', { name: `Select User ${lastIndex + 1}` })).toHaveFocus();
  });

  it('Users: rows look alike by class whatever they hold (an admin, the signed-in one, a selected user)', async () => {
    renderAdmin({ 'GET /api/admin/users': () => ({ body: pageOf([USERS[0]!, USERS[1]!, USERS[2]!]) }) });
    await screen.findByText('User 0', { exact: true });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select User 2' }));
    expect(userRow('User 2')).toHaveAttribute('data-selected');
    oneLook(userRows());
    oneLook(userRows().map((row) => within(row).getAllByRole('cell')[1]!));
    oneLook(userRows().map((row) => within(row).getAllByRole('cell')[2]!));
    const { useSelection } = await import('../../selection.ts');
    useSelection.getState().clear();
  });

  it('Teams: a page of 50 draws a screenful, and a team shown whole stays whole scrolled away and back', async () => {
    layOut(PAGE * 90);
    const members = Array.from({ length: 9 }, (_, index) => ({
      userId: `m-${index}`,
      username: `member${index}`,
      role: index === 0 ? ('owner' as const) : ('viewer' as const),
      permissions: [],
    }));
    const teams = numbered((index) => adminTeam({ id: `t-${index}`, name: `Team ${index}`, members }));
    renderAdmin({ 'GET /api/admin/teams': () => ({ body: pageOf(teams) }) }, 'teams');
    await screen.findByText('Team 0', { exact: true });
    const rows = () => screen.getAllByTestId('admin-team-row');
    expect(rows().length).toBeLessThan(PAGE);
    expect(screen.getByRole('table', { name: 'Teams' })).toHaveAttribute('aria-rowcount', String(PAGE + 1));
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    oneLook(rows());
    oneLook(within(rows()[0]!).getAllByRole('listitem'));

    await userEvent.click(screen.getByRole('button', { name: ADMIN_TEXT.moreMembersLabel(3, 'Team 0') }));
    const area = screen.getByRole('region', { name: 'Teams' });
    scrollTo(area, 40 * 90);
    await waitFor(() => expect(screen.queryByText('Team 0', { exact: true })).not.toBeInTheDocument());
    scrollTo(area, 0);
    await screen.findByText('Team 0', { exact: true });
    expect(screen.getByRole('button', { name: ADMIN_TEXT.fewerMembersLabel('Team 0') })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('Connections: a page of 50 draws the cards in view, one look for connected and disconnected', async () => {
    const items = numbered((index) =>
      connection({ userId: `u-${index}`, userName: `Player ${index}`, isConnected: index % 2 === 0 }),
    );
    renderAdmin({ 'GET /api/admin/connections': () => ({ body: connectionList(items) }) }, 'connections');
    await screen.findByRole('article', { name: 'Connection of Player 0' });
    const cards = screen.getAllByRole('article');
    expect(cards.length).toBeGreaterThanOrEqual(2);
    expect(cards.length).toBeLessThan(PAGE);
    const list = screen.getByRole('list', { name: 'Connections' });
    const places = within(list).getAllByRole('listitem', { name: '' });
    expect(places[0]).toHaveAttribute('aria-posinset', '1');
    expect(places[0]).toHaveAttribute('aria-setsize', String(PAGE));
    expect(list.querySelector('[aria-hidden][data-spacer]')).not.toBeNull();
    oneLook(cards);
    oneLook(cards.map((card) => within(card).getByText(/^(Connected|Disconnected)$/)));
    oneLook(cards.map((card) => within(card).getByTestId('connection-dot').parentElement!));
  });

  it('Recent Executions: a page of 50 draws a screenful, a failure looking like a success but for its data', async () => {
    const items = numbered((index) =>
      recentExecution({
        id: `exec-${index}`,
        userName: `Player ${index}`,
        ...(index % 2
          ? { status: 'failed' as const, output: '', error: `error ${index}` }
          : { output: `out ${index}` }),
      }),
    );
    renderAdmin({ 'GET /api/admin/recent-executions': () => ({ body: pageOf(items, 120) }) }, 'executions');
    await screen.findByText('on Player 0');
    const rows = screen.getAllByTestId('recent-execution');
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThan(PAGE);
    expect(rows[0]).toHaveAttribute('aria-posinset', '1');
    expect(rows[0]).toHaveAttribute('aria-setsize', String(PAGE));
    const list = screen.getByRole('list', { name: 'Recent Executions' });
    expect(list.querySelector(':scope > li[aria-hidden]')).not.toBeNull();
    oneLook(rows);
    const results = screen.getAllByTestId('recent-execution-result');
    expect(results[1]).toHaveAttribute('data-error');
    expect(results[0]).not.toHaveAttribute('data-error');
    oneLook(results);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('Audit Logs: a page of 50 draws a screenful, and a live entry arrives at the top of it', async () => {
    layOut(PAGE * 70);
    const items = numbered((index) => auditEntry({ id: `audit-${index}`, action: `action.${index}` }));
    renderAdmin({ 'GET /api/admin/audit': () => ({ body: pageOf(items) }) }, 'audit');
    await screen.findByText('action.0');
    const entries = () => screen.getAllByTestId('audit-entry');
    expect(entries().length).toBeLessThan(PAGE);
    oneLook(entries());
    act(() => socket.serverSends('audit:entry', { entry: auditEntry({ id: 'audit-new', action: 'admin.newest' }) }));
    await waitFor(() => expect(within(entries()[0]!).getByText('admin.newest')).toBeInTheDocument());
    // The page keeps its 50: the oldest moved on to the next page.
    expect(entries()[0]).toHaveAttribute('aria-posinset', '1');
    expect(entries()[0]).toHaveAttribute('aria-setsize', String(PAGE));
    expect(entries().length).toBeLessThan(PAGE);

    scrollTo(screen.getByRole('region', { name: 'Audit Logs' }), PAGE * 70 - 600);
    await screen.findByText('action.48');
    expect(screen.queryByText('admin.newest')).not.toBeInTheDocument();
    expect(screen.queryByText('action.49')).not.toBeInTheDocument();
    expect(entries().at(-1)).toHaveAttribute('aria-posinset', String(PAGE));
  });
});
