import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SudoMethod } from '@moonrelay/contract/sessions';
import { apiRequest, messageOf, SudoCancelledError } from '../../../lib/api-client.ts';
import { SUDO_CANCELLED_MESSAGE } from '../../../lib/notices.ts';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { SUDO_TEXT } from '../security-text.ts';
import { ApiKeyCard } from './ApiKeyCard.tsx';
import { SudoDialog } from './SudoDialog.tsx';

const sudoRequired = (methods: SudoMethod[]) => ({
  status: 403,
  body: { error: 'Confirm it is you first', code: 'sudo_required', methods },
});

/**
 * A server whose protected calls answer `sudo_required` until POST /api/auth/sudo gets the right
 * password ('hunter22') or code ('123456'). Records every call as "METHOD path".
 */
function sudoServer(methods: SudoMethod[] = ['password', 'code']) {
  let proved = false;
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const protectedCall =
    (answer: unknown) =>
    (body: unknown): { status?: number; body: unknown } => {
      bodies.push(body);
      return proved ? { body: answer } : sudoRequired(methods);
    };
  const routes = jsonFetch({
    'POST /api/user/regenerate-key': protectedCall({ apiKey: 'mr_new', user: testUser({ apiKey: 'mr_new' }) }),
    'PUT /api/user/email': protectedCall(testUser({ email: 'new@example.com' })),
    'POST /api/auth/sudo': (body) => {
      const { password, code } = body as { password?: string; code?: string };
      if (password === 'hunter22' || code === '123456') {
        proved = true;
        return { body: { until: '2026-01-01T00:10:00.000Z', methods } };
      }
      return { status: 403, body: { error: 'That password is not right' } };
    },
  });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return routes(input, init);
  });
  return { fetch, calls, bodies };
}

const dialog = () => screen.findByRole('dialog', { name: SUDO_TEXT.title });

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the sudo dialog', () => {
  it('asks once for calls that meet sudo_required together, then sends each again and resolves it', async () => {
    const server = sudoServer();
    vi.stubGlobal('fetch', server.fetch);
    renderWithProviders(<SudoDialog onSignInAgain={vi.fn()} />);

    const regenerated = apiRequest<{ apiKey: string }>('POST', '/api/user/regenerate-key');
    const changed = apiRequest<{ email: string }>('PUT', '/api/user/email', { email: 'new@example.com' });
    const shown = await dialog();
    await waitFor(() => expect(server.calls).toHaveLength(2));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(within(shown).getByText(SUDO_TEXT.intro)).toBeInTheDocument();

    // A wrong password is said under its field; the dialog stays and nothing is sent again.
    const password = within(shown).getByLabelText(SUDO_TEXT.password);
    await userEvent.type(password, 'wrong{Enter}');
    expect(await within(shown).findByText('That password is not right')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.filter((call) => call !== 'POST /api/auth/sudo')).toHaveLength(2);

    await userEvent.clear(password);
    await userEvent.type(password, 'hunter22');
    await userEvent.click(within(shown).getByRole('button', { name: SUDO_TEXT.confirm }));

    await expect(regenerated).resolves.toEqual(expect.objectContaining({ apiKey: 'mr_new' }));
    await expect(changed).resolves.toEqual(expect.objectContaining({ email: 'new@example.com' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls).toEqual([
      'POST /api/user/regenerate-key',
      'PUT /api/user/email',
      'POST /api/auth/sudo',
      'POST /api/auth/sudo',
      'POST /api/user/regenerate-key',
      'PUT /api/user/email',
    ]);
    // The retried change carries the same body.
    expect(server.bodies.at(-1)).toEqual({ email: 'new@example.com' });
  });

  it('Cancel fails every waiting call with a clear message and sends none again', async () => {
    const server = sudoServer();
    vi.stubGlobal('fetch', server.fetch);
    renderWithProviders(<SudoDialog onSignInAgain={vi.fn()} />);

    const first = apiRequest('POST', '/api/user/regenerate-key').catch((error: unknown) => error);
    const second = apiRequest('PUT', '/api/user/email', { email: 'new@example.com' }).catch((e: unknown) => e);
    const shown = await dialog();
    await userEvent.click(within(shown).getByRole('button', { name: SUDO_TEXT.cancel }));

    for (const failure of [await first, await second]) {
      expect(failure).toBeInstanceOf(SudoCancelledError);
      expect(messageOf(failure, 'fallback')).toBe(SUDO_CANCELLED_MESSAGE);
    }
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls).toEqual(['POST /api/user/regenerate-key', 'PUT /api/user/email']);
  });

  // Where focus starts and the Tab order are the browser test's to check: jsdom lays nothing out, so
  // the dialog's focus trap finds nothing it counts as focusable. The keys are checked here.
  it('by keyboard: Escape cancels; Enter in the code field confirms', async () => {
    const server = sudoServer();
    vi.stubGlobal('fetch', server.fetch);
    renderWithProviders(<SudoDialog onSignInAgain={vi.fn()} />);

    const escaped = apiRequest('POST', '/api/user/regenerate-key').catch((error: unknown) => error);
    let shown = await dialog();
    await userEvent.click(within(shown).getByLabelText(SUDO_TEXT.password));
    await userEvent.keyboard('{Escape}');
    expect(await escaped).toBeInstanceOf(SudoCancelledError);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const confirmed = apiRequest<{ apiKey: string }>('POST', '/api/user/regenerate-key');
    shown = await dialog();
    await userEvent.click(within(shown).getByLabelText(SUDO_TEXT.code));
    await userEvent.keyboard('123456{Enter}');
    await expect(confirmed).resolves.toEqual(expect.objectContaining({ apiKey: 'mr_new' }));
    expect(server.calls.filter((call) => call === 'POST /api/auth/sudo')).toHaveLength(1);
  });

  it('offers only what the account has: a passkey alone, or signing in again', async () => {
    vi.stubGlobal('fetch', sudoServer(['passkey']).fetch);
    const onSignInAgain = vi.fn();
    renderWithProviders(<SudoDialog onSignInAgain={onSignInAgain} />);
    const byPasskey = apiRequest('POST', '/api/user/regenerate-key').catch((error: unknown) => error);
    let shown = await dialog();
    expect(within(shown).getByRole('button', { name: SUDO_TEXT.usePasskey })).toBeInTheDocument();
    expect(within(shown).queryByLabelText(SUDO_TEXT.password)).not.toBeInTheDocument();
    expect(within(shown).queryByRole('button', { name: SUDO_TEXT.confirm })).not.toBeInTheDocument();
    await userEvent.click(within(shown).getByRole('button', { name: SUDO_TEXT.cancel }));
    expect(await byPasskey).toBeInstanceOf(SudoCancelledError);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    vi.stubGlobal('fetch', sudoServer(['sign-in']).fetch);
    const bySignIn = apiRequest('POST', '/api/user/regenerate-key').catch((error: unknown) => error);
    shown = await dialog();
    expect(within(shown).getByText(SUDO_TEXT.signInIntro)).toBeInTheDocument();
    await userEvent.click(within(shown).getByRole('button', { name: SUDO_TEXT.signInAgain }));
    expect(onSignInAgain).toHaveBeenCalledTimes(1);
    expect(await bySignIn).toBeInstanceOf(SudoCancelledError);
  });

  it('a protected action of a screen goes through after the proof, as if it had not been asked', async () => {
    vi.stubGlobal('fetch', sudoServer().fetch);
    renderWithProviders(
      <>
        <ApiKeyCard apiKey="mr_8wEbh0sj58IVWRtDgjJoLW1aVCDv" />
        <SudoDialog onSignInAgain={vi.fn()} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate API Key' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Regenerate' }));
    const shown = await dialog();
    await userEvent.type(within(shown).getByLabelText(SUDO_TEXT.password), 'hunter22{Enter}');
    expect(await screen.findByText('API Key Regenerated')).toBeInTheDocument();
    expect(useSession.getState().user?.apiKey).toBe('mr_new');
  });

  it("cancelling a screen's action tells the user nothing was changed", async () => {
    vi.stubGlobal('fetch', sudoServer().fetch);
    renderWithProviders(
      <>
        <ApiKeyCard apiKey="mr_8wEbh0sj58IVWRtDgjJoLW1aVCDv" />
        <SudoDialog onSignInAgain={vi.fn()} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate API Key' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Regenerate' }));
    const shown = await dialog();
    await userEvent.click(within(shown).getByRole('button', { name: SUDO_TEXT.cancel }));
    expect(await screen.findByText(SUDO_CANCELLED_MESSAGE)).toBeInTheDocument();
    expect(useSession.getState().user?.apiKey).toBe(testUser().apiKey);
  });
});
