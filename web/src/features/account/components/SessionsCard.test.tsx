import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '@moonrelay/contract/sessions';
import { SESSIONS } from '@moonrelay/contract/messages';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { SESSIONS_TEXT } from '../security-text.ts';
import { SessionsCard } from './SessionsCard.tsx';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function session(overrides: Partial<SessionInfo>): SessionInfo {
  return {
    id: 's1',
    createdAt: '2026-03-01T12:00:00.000Z',
    lastUsedAt: minutesAgo(1),
    signInAddress: '198.51.100.7',
    lastAddress: '198.51.100.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
    browser: 'Firefox on Linux',
    signedInWith: 'password',
    secondFactor: null,
    current: false,
    ...overrides,
  };
}

const here = session({
  id: 'here',
  browser: 'Chrome on Windows',
  signedInWith: 'password',
  secondFactor: 'code',
  current: true,
  lastUsedAt: minutesAgo(0),
});
const phone = session({
  id: 'phone',
  browser: 'Safari on iPhone',
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1',
  signedInWith: 'google',
  lastUsedAt: minutesAgo(180),
  signInAddress: '203.0.113.9',
  lastAddress: '203.0.113.50',
});
const laptop = session({ id: 'laptop', signedInWith: 'passkey', lastUsedAt: minutesAgo(30) });

/** A server holding these sessions: ending one removes it, end-others keeps only the current one. */
function sessionServer(initial: SessionInfo[]) {
  let sessions = initial;
  const fetch = vi.fn(
    jsonFetch({
      'GET /api/user/sessions': () => ({ body: { sessions } }),
      'GET /api/user/sign-in-methods': () => ({
        body: { password: true, google: { enabled: true, name: 'Google', googleId: null } },
      }),
      'DELETE /api/user/sessions/phone': () => {
        sessions = sessions.filter((s) => s.id !== 'phone');
        return { body: { success: true, ended: 1, message: SESSIONS.endedOne } };
      },
      'POST /api/user/sessions/end-others': () => {
        const ended = sessions.filter((s) => !s.current).length;
        sessions = sessions.filter((s) => s.current);
        return { body: { success: true, ended, message: SESSIONS.endedOthers(ended) } };
      },
    }),
  );
  return fetch;
}

const rows = () => within(screen.getByRole('list', { name: SESSIONS_TEXT.listLabel })).getAllByRole('listitem');

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('SessionsCard', () => {
  it('lists this device first and marked, then the others by last use, with how and where each signed in', async () => {
    vi.stubGlobal('fetch', sessionServer([phone, here, laptop]));
    renderWithProviders(<SessionsCard />);
    await screen.findByRole('list', { name: SESSIONS_TEXT.listLabel });
    expect(rows().map((row) => row.getAttribute('aria-label'))).toEqual([
      'Chrome on Windows',
      'Firefox on Linux',
      'Safari on iPhone',
    ]);

    const [current, second, third] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(current).getByText(SESSIONS_TEXT.thisDevice)).toBeInTheDocument();
    expect(current).toHaveAttribute('data-current');
    expect(within(current).queryByRole('button')).not.toBeInTheDocument();
    expect(
      within(current).getByText(
        `With a password and an authenticator code · Signed in ${formatDateTime(here.createdAt)}`,
      ),
    ).toBeInTheDocument();
    expect(within(current).getByText('Last used just now from 198.51.100.7')).toBeInTheDocument();

    expect(second).not.toHaveAttribute('data-current');
    expect(within(second).getByText(/^With a passkey ·/)).toBeInTheDocument();
    expect(within(second).getByText('Last used 30 minutes ago from 198.51.100.7')).toBeInTheDocument();
    expect(within(third).getByText(/^With Google ·/)).toBeInTheDocument();
    expect(
      within(third).getByText('Last used 3 hours ago from 203.0.113.50 · signed in from 203.0.113.9'),
    ).toBeInTheDocument();
    // The button names the device; its details describe it, for two rows of the same browser.
    const end = within(third).getByRole('button', { name: 'End session on Safari on iPhone' });
    expect(end).toHaveAccessibleDescription(/With Google/);
    expect(screen.getByRole('button', { name: SESSIONS_TEXT.endOthers })).toBeInTheDocument();
  });

  it('ends one session by keyboard, lists the rest again and toasts what the server said', async () => {
    const fetch = sessionServer([here, phone, laptop]);
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<SessionsCard />);
    const end = await screen.findByRole('button', { name: 'End session on Safari on iPhone' });
    end.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText(SESSIONS.endedOne)).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'End session on Safari on iPhone' })).not.toBeInTheDocument();
    expect(fetch).toHaveBeenCalledWith('/api/user/sessions/phone', expect.objectContaining({ method: 'DELETE' }));
  });

  it('signs out all the others, then says only this device is left', async () => {
    vi.stubGlobal('fetch', sessionServer([here, phone, laptop]));
    renderWithProviders(<SessionsCard />);
    await userEvent.click(await screen.findByRole('button', { name: SESSIONS_TEXT.endOthers }));
    expect(await screen.findByText(SESSIONS.endedOthers(2))).toBeInTheDocument();
    expect(await screen.findByText(SESSIONS_TEXT.onlyThis)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: SESSIONS_TEXT.endOthers })).not.toBeInTheDocument();
  });

  it('says so when the sessions cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/user/sessions': () => ({ status: 500, body: { error: 'Database unavailable' } }) }),
    );
    renderWithProviders(<SessionsCard />);
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
  });
});
