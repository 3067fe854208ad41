import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeySummary, CreateApiKeyRequest } from '@moonrelay/contract/api-keys';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ApiKeysCard } from './ApiKeysCard.tsx';

const NEW_KEY = 'mr_Q7pZkR2bT9wLmN3xV8yC1d4fXw00';

const summary = (overrides: Partial<ApiKeySummary> = {}): ApiKeySummary => ({
  id: 'k1',
  name: 'CI deploy',
  scopes: ['scripts:read'],
  maskedKey: 'mr_Q7pZk…fXw0',
  integration: false,
  allowedIps: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: null,
  lastUsedAt: '2026-11-02T10:00:00.000Z',
  lastUsedIp: '203.0.113.7',
  ...overrides,
});

beforeEach(() => signInAs(testUser()));
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('ApiKeysCard', () => {
  it('lists each key with its scopes, expiry and last use', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/api-keys': () => ({
          body: {
            items: [
              summary(),
              summary({ id: 'k2', name: 'Old', expiresAt: '2020-01-01T00:00:00.000Z', lastUsedAt: null }),
            ],
            limit: 25,
          },
        }),
      }),
    );
    renderWithProviders(<ApiKeysCard />);
    const ci = await screen.findByRole('listitem', { name: 'CI deploy' });
    expect(within(ci).getByText('scripts:read')).toBeInTheDocument();
    expect(within(ci).getByText('mr_Q7pZk…fXw0')).toBeInTheDocument();
    expect(within(ci).getByText(/Never expires/)).toBeInTheDocument();
    expect(within(ci).getByText(/from 203\.0\.113\.7/)).toBeInTheDocument();
    const old = screen.getByRole('listitem', { name: 'Old' });
    expect(within(old).getAllByText('Expired').length).toBeGreaterThan(0);
    expect(within(old).getByText('Never used')).toBeInTheDocument();
  });

  it('creates a key with the chosen scopes and addresses, and shows it once', async () => {
    let sent: CreateApiKeyRequest | undefined;
    let items: ApiKeySummary[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/api-keys': () => ({ body: { items, limit: 25 } }),
        'POST /api/user/api-keys': (body) => {
          sent = body as CreateApiKeyRequest;
          const created = summary({ name: sent.name, scopes: sent.scopes, allowedIps: sent.allowedIps ?? null });
          items = [created];
          return { body: { ...created, key: NEW_KEY } };
        },
      }),
    );
    renderWithProviders(<ApiKeysCard />);
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Deploy');
    // `game` is ticked to start with; this key reads and writes scripts instead.
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /^game/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /^scripts:read/ }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /^scripts:write/ }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Only from/ }), '203.0.113.0/24');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByRole('textbox', { name: 'New API key' })).toHaveValue(NEW_KEY);
    expect(sent).toEqual({
      name: 'Deploy',
      scopes: ['scripts:read', 'scripts:write'],
      expiresAt: null,
      allowedIps: ['203.0.113.0/24'],
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('listitem', { name: 'Deploy' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue(NEW_KEY)).not.toBeInTheDocument();
  });

  it("shows the server's refusal and keeps the form", async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/api-keys': () => ({ body: { items: [], limit: 25 } }),
        'POST /api/user/api-keys': () => ({
          status: 409,
          body: { error: 'You already have 25 API keys, the most allowed: revoke one first' },
        }),
      }),
    );
    renderWithProviders(<ApiKeysCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create API key' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'One too many');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText(/the most allowed: revoke one first/)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toHaveValue('One too many');
  });

  it('revokes a key after confirming', async () => {
    let items = [summary()];
    const fetch = vi.fn(
      jsonFetch({
        'GET /api/user/api-keys': () => ({ body: { items, limit: 25 } }),
        'DELETE /api/user/api-keys/k1': () => {
          items = [];
          return { body: { success: true, message: 'API key revoked' } };
        },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<ApiKeysCard />);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke CI deploy' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/stops working at once/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url, init]) => url === '/api/user/api-keys/k1' && init?.method === 'DELETE')).toBe(
        true,
      ),
    );
  });
});
