import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs, testUser } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { connectionList, pageOf } from '../../features/admin/test-admin.tsx';
import AdminPage from './AdminPage.tsx';

type Routes = Parameters<typeof jsonFetch>[0];

function renderPage(user: ReturnType<typeof testUser>, routes: Routes = {}) {
  signInAs(user);
  const fetch = vi.fn(
    jsonFetch({
      'GET /api/user': () => ({ body: user }),
      'GET /api/admin/users': () => ({ body: pageOf([]) }),
      'GET /api/admin/teams': () => ({ body: pageOf([]) }),
      'GET /api/admin/connections': () => ({ body: connectionList([]) }),
      'GET /api/admin/recent-executions': () => ({ body: pageOf([]) }),
      'GET /api/admin/audit': () => ({ body: pageOf([]) }),
      ...routes,
    }),
  );
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<AdminPage />, { route: '/admin' });
  const adminCalls = () => fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/admin/'));
  const userCalls = () => fetch.mock.calls.filter(([url]) => String(url) === '/api/user');
  return { adminCalls, userCalls };
}

afterEach(() => vi.unstubAllGlobals());

describe('/admin', () => {
  it("shows a non-admin the 'Admins only' page and asks the server for nothing of the admins'", async () => {
    const { adminCalls } = renderPage(testUser({ isAdmin: false }));
    expect(await screen.findByRole('heading', { name: 'Admins only' })).toBeInTheDocument();
    expect(
      screen.getByText('The Admin Panel is for administrators. Your account does not have admin access.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByText('Admin Access')).not.toBeInTheDocument();
    expect(adminCalls()).toHaveLength(0);
  });

  it('shows an admin the Admin Access badge and the six tabs', async () => {
    renderPage(testUser({ isAdmin: true }));
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument();
    expect(screen.getByTestId('admin-access')).toHaveTextContent('Admin Access');
    const tabs = within(screen.getByRole('tablist'));
    await waitFor(() =>
      expect(tabs.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
        'Users (0)',
        'Teams (0)',
        'Connections (0)',
        'Mass Execution',
        'Recent Executions (0)',
        'Audit Logs',
      ]),
    );
    expect(tabs.getByRole('tab', { name: 'Users (0)' })).toHaveAttribute('aria-selected', 'true');
  });

  it("follows the server: an admin whom the server no longer counts as one gets 'Admins only'", async () => {
    const stored = testUser({ isAdmin: true });
    let userFetches = 0;
    const { userCalls } = renderPage(stored, {
      // Still an admin when the page opened; demoted by the time the lists are asked for.
      'GET /api/user': () => ({ body: { ...stored, isAdmin: ++userFetches === 1 } }),
      'GET /api/admin/users': () => ({ status: 403, body: { error: 'Admins only' } }),
    });
    // The 403 made the page ask again who the user is; the answer keeps the refusal on screen.
    await waitFor(() => expect(userCalls()).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Admins only' })).toBeInTheDocument());
    expect(screen.queryByText('Admin Access')).not.toBeInTheDocument();
  });
});
