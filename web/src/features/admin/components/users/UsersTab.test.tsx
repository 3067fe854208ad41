import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { io } from 'socket.io-client';
import { ADMIN_KEY_REVEAL_TOAST_MS, TOAST_DURATION_MS } from '@moonrelay/contract/constants';
import { TWO_FACTOR } from '@moonrelay/contract/messages';
import { closeLiveSocket } from '../../../../lib/socket.ts';
import { toaster } from '../../../../lib/toaster.tsx';
import { FakeSocket } from '../../../../test/fake-socket.ts';
import { useAdminLiveStore } from '../../live/admin-live-store.ts';
import { useSelection } from '../../selection.ts';
import { ADA, ALAN, GRACE, pageOf, renderAdmin } from '../../test-admin.tsx';

let socket: FakeSocket;
vi.mock('socket.io-client', () => ({ io: vi.fn(() => socket) }));

beforeEach(() => {
  socket = new FakeSocket();
  vi.mocked(io).mockClear();
});
afterEach(() => {
  closeLiveSocket();
  useSelection.getState().clear();
  useAdminLiveStore.getState().clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const rowOf = (name: string) => {
  const row = screen.getByText(name, { exact: true }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const findRowOf = async (name: string) => {
  await screen.findByText(name, { exact: true });
  return rowOf(name);
};

describe('the Users tab', () => {
  it('lists every user: name with @username, email, masked key, script count, created date, admin badge', async () => {
    renderAdmin();
    expect(await screen.findByRole('tab', { name: 'Users (3)' })).toBeInTheDocument();
    const ada = await findRowOf('Ada Lovelace');
    expect(within(ada).getByText('@ada')).toBeInTheDocument();
    expect(within(ada).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(ada).getByTestId('api-key')).toHaveTextContent('mr_ADAxy…QRST');
    expect(within(ada).getByText('12')).toBeInTheDocument();
    expect(within(ada).getByText('Admin')).toBeInTheDocument();
    expect(within(ada).getByText('(you)')).toBeInTheDocument();
    expect(within(ada).getByText(new Date(ADA.createdAt).toLocaleDateString('en', { dateStyle: 'medium' })));

    const grace = rowOf('Grace Hopper');
    expect(within(grace).queryByText('Admin')).not.toBeInTheDocument();
    expect(within(grace).getByTestId('api-key')).toHaveTextContent('mr_GRACE…WXYZ');
    expect(within(rowOf('Alan Turing')).getByText('No API key')).toBeInTheDocument();
    // The list sits in a 600px scroll area.
    expect(screen.getByRole('region', { name: 'Users' })).toHaveStyle({ height: '600px', overflowY: 'auto' });
  });

  it("reveals one row's key at a time, and masks it again", async () => {
    renderAdmin();
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('button', { name: 'Show API key of Grace Hopper' }));
    expect(within(grace).getByTestId('api-key')).toHaveTextContent(GRACE.apiKey!, { normalizeWhitespace: false });
    // Other rows stay masked.
    expect(within(rowOf('Ada Lovelace')).getByTestId('api-key')).toHaveTextContent('mr_ADAxy…QRST');
    await userEvent.click(within(grace).getByRole('button', { name: 'Hide API key of Grace Hopper' }));
    expect(within(grace).getByTestId('api-key')).toHaveTextContent('mr_GRACE…WXYZ');
  });

  it('Regenerate Key shows the new key in a toast that stays 10 s', async () => {
    const create = vi.spyOn(toaster, 'create');
    const { callsTo } = renderAdmin({
      'POST /api/admin/users/u2222222-0000-4000-8000-000000000002/regenerate-key': () => ({
        body: { newApiKey: 'mr_NEWKEY1234567890abcdefgh' },
      }),
    });
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('button', { name: 'Regenerate Key of Grace Hopper' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/stop working immediately/)).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${GRACE.id}/regenerate-key`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate' }));

    expect(await screen.findByText('API Key Regenerated')).toBeInTheDocument();
    expect(screen.getByText('New API key for Grace Hopper: mr_NEWKEY1234567890abcdefgh')).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${GRACE.id}/regenerate-key`)).toHaveLength(1);
    expect(create).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: 'API Key Regenerated', duration: ADMIN_KEY_REVEAL_TOAST_MS }),
    );
    expect(ADMIN_KEY_REVEAL_TOAST_MS).toBe(10_000);
    expect(ADMIN_KEY_REVEAL_TOAST_MS).not.toBe(TOAST_DURATION_MS);
    // The list is fetched again for the new key.
    await waitFor(() => expect(callsTo('GET', '/api/admin/users').length).toBeGreaterThanOrEqual(2));
  });

  it("shows a user's scoped keys and revokes one after confirming", async () => {
    let items = [
      {
        id: 'k1',
        name: 'Game (integration scripts)',
        scopes: ['game'],
        maskedKey: 'mr_GameK…ey00',
        integration: true,
        allowedIps: null,
        createdAt: '2026-11-01T10:00:00.000Z',
        expiresAt: null,
        lastUsedAt: '2026-11-02T10:00:00.000Z',
        lastUsedIp: '198.51.100.4',
      },
    ];
    const { callsTo } = renderAdmin({
      [`GET /api/admin/users/${GRACE.id}/api-keys`]: () => ({ body: { items, limit: 25 } }),
      [`DELETE /api/admin/users/${GRACE.id}/api-keys/k1`]: () => {
        items = [];
        return { body: { success: true, message: 'API key revoked' } };
      },
    });
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('button', { name: 'API keys of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: /API keys of Grace Hopper/ });
    const key = await within(dialog).findByRole('listitem', { name: 'Game (integration scripts)' });
    expect(within(key).getByText('game')).toBeInTheDocument();
    expect(within(key).getByText(/from 198\.51\.100\.4/)).toBeInTheDocument();
    await userEvent.click(within(key).getByRole('button', { name: 'Revoke Game (integration scripts)' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText(/including games running the integration scripts/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await within(dialog).findByText('No API keys yet.')).toBeInTheDocument();
    expect(callsTo('DELETE', `/api/admin/users/${GRACE.id}/api-keys/k1`)).toHaveLength(1);
  });

  it("toasts 'Failed' / 'Could not regenerate API key.' when the server refuses", async () => {
    renderAdmin({
      [`POST /api/admin/users/${GRACE.id}/regenerate-key`]: () => ({ status: 500, body: { error: 'Internal' } }),
    });
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('button', { name: 'Regenerate Key of Grace Hopper' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByText('Could not regenerate API key.')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
  });

  it("resets a user's two-factor sign-in after a confirmation, and says when there was nothing to reset", async () => {
    let resets = 0;
    const { callsTo } = renderAdmin({
      [`POST /api/admin/users/${GRACE.id}/two-factor/reset`]: () =>
        ++resets === 1
          ? { body: { success: true, message: TWO_FACTOR.adminResetDone } }
          : { status: 409, body: { error: TWO_FACTOR.adminResetNothing } },
    });
    const grace = await findRowOf('Grace Hopper');
    const open = () =>
      userEvent.click(within(grace).getByRole('button', { name: 'Reset two-factor sign-in of Grace Hopper' }));
    await open();
    const dialog = await screen.findByRole('alertdialog', { name: TWO_FACTOR.adminResetTitle });
    expect(within(dialog).getByText(/authenticator app, recovery codes and passkeys/)).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${GRACE.id}/two-factor/reset`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(TWO_FACTOR.adminResetDone)).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${GRACE.id}/two-factor/reset`)).toHaveLength(1);

    await open();
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(TWO_FACTOR.adminResetNothing)).toBeInTheDocument();
  });

  it('promotes a user to admin', async () => {
    let graceIsAdmin = false;
    const { callsTo } = renderAdmin({
      'GET /api/admin/users': () => ({ body: pageOf([ADA, { ...GRACE, isAdmin: graceIsAdmin }, ALAN]) }),
      [`POST /api/admin/users/${GRACE.id}/role`]: (body) => {
        graceIsAdmin = (body as { isAdmin: boolean }).isAdmin;
        return { body: { success: true } };
      },
    });
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('button', { name: 'Make Admin: Grace Hopper' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Grant Admin Access' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make Admin' }));

    expect(await screen.findByText('Grace Hopper is now an admin.')).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${GRACE.id}/role`).map((call) => call.body)).toEqual([{ isAdmin: true }]);
    // The refreshed list shows the new admin.
    await waitFor(() => expect(within(rowOf('Grace Hopper')).getByText('Admin')).toBeInTheDocument());
    expect(within(rowOf('Grace Hopper')).getByRole('button', { name: 'Remove Admin: Grace Hopper' })).toBeVisible();
  });

  it("shows the server's refusal to demote the last admin", async () => {
    const { callsTo } = renderAdmin({
      [`POST /api/admin/users/${ADA.id}/role`]: () => ({
        status: 409,
        body: { error: 'The last admin cannot be demoted' },
      }),
    });
    const ada = await findRowOf('Ada Lovelace');
    await userEvent.click(within(ada).getByRole('button', { name: 'Remove Admin: Ada Lovelace' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Admin Access' });
    expect(within(dialog).getByText('You will lose access to the Admin Panel.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Admin' }));

    expect(await screen.findByText('The last admin cannot be demoted')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(callsTo('POST', `/api/admin/users/${ADA.id}/role`).map((call) => call.body)).toEqual([{ isAdmin: false }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(within(rowOf('Ada Lovelace')).getByText('Admin')).toBeInTheDocument();
  });

  it('selects users one by one or a whole page, for Mass Execution', async () => {
    renderAdmin();
    const grace = await findRowOf('Grace Hopper');
    await userEvent.click(within(grace).getByRole('checkbox', { name: 'Select Grace Hopper' }));
    expect(Object.keys(useSelection.getState().selected)).toEqual([GRACE.id]);

    const all = screen.getByRole('checkbox', { name: 'Select all users on this page' });
    await userEvent.click(all);
    expect(Object.keys(useSelection.getState().selected).sort()).toEqual([ADA.id, ALAN.id, GRACE.id].sort());
    for (const name of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
      expect(within(rowOf(name)).getByRole('checkbox', { name: `Select ${name}` })).toBeChecked();
    }
    await userEvent.click(all);
    expect(useSelection.getState().selected).toEqual({});
  });
});
