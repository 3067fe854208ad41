import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSIONS, VALIDATION } from '@moonrelay/contract/messages';
import { useSession } from '../../../lib/session.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { PASSWORD_TEXT, SUDO_TEXT } from '../security-text.ts';
import { PasswordCard } from './PasswordCard.tsx';
import { SudoDialog } from './SudoDialog.tsx';

const methods = (password: boolean) => ({
  body: { password, google: { enabled: true, name: 'Google', googleId: password ? null : '1170001' } },
});

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

const field = (label: string) => screen.getByLabelText(label);

describe('PasswordCard', () => {
  it('changes the password with the current one and shows how many sessions were signed out', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/sign-in-methods': () => methods(true),
        'POST /api/user/password': (body) => {
          sent.push(body);
          const { currentPassword } = body as { currentPassword: string };
          return currentPassword === 'old password'
            ? { body: { success: true, ended: 2, message: SESSIONS.passwordChanged(2) } }
            : { status: 403, body: { error: SESSIONS.wrongCurrentPassword } };
        },
      }),
    );
    renderWithProviders(<PasswordCard />);
    expect(await screen.findByRole('heading', { name: PASSWORD_TEXT.title })).toBeInTheDocument();

    // Checked before anything is sent: the length, then the confirmation.
    await userEvent.type(await screen.findByLabelText(PASSWORD_TEXT.current), 'wrong one');
    await userEvent.type(field(PASSWORD_TEXT.new), 'short');
    await userEvent.click(screen.getByRole('button', { name: PASSWORD_TEXT.change }));
    expect(await screen.findByText(VALIDATION.passwordTooShort)).toBeInTheDocument();
    await userEvent.type(field(PASSWORD_TEXT.new), ' but longer');
    await userEvent.type(field(PASSWORD_TEXT.confirm), 'something else');
    await userEvent.click(screen.getByRole('button', { name: PASSWORD_TEXT.change }));
    expect(await screen.findByText(VALIDATION.passwordsDontMatch)).toBeInTheDocument();
    expect(field(PASSWORD_TEXT.confirm)).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([]);

    // A wrong current password is said under its field.
    await userEvent.clear(field(PASSWORD_TEXT.confirm));
    await userEvent.type(field(PASSWORD_TEXT.confirm), 'short but longer{Enter}');
    expect(await screen.findByText(SESSIONS.wrongCurrentPassword)).toBeInTheDocument();
    expect(field(PASSWORD_TEXT.current)).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(field(PASSWORD_TEXT.current));
    await userEvent.type(field(PASSWORD_TEXT.current), 'old password{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(SESSIONS.passwordChanged(2));
    expect(sent.at(-1)).toEqual({ currentPassword: 'old password', newPassword: 'short but longer' });
    expect(field(PASSWORD_TEXT.new)).toHaveValue('');
    expect(field(PASSWORD_TEXT.confirm)).toHaveValue('');
  });

  it('sets a first password on an account without one, confirming it is you in the sudo dialog', async () => {
    let proved = false;
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/user/sign-in-methods': () => methods(!proved ? false : sent.length > 0),
        'POST /api/auth/sudo': (body) => {
          proved = (body as { code?: string }).code === '123456';
          return proved ? { body: { until: null, methods: ['code'] } } : { status: 403, body: { error: 'Wrong code' } };
        },
        'POST /api/user/password': (body) => {
          if (!proved) {
            return { status: 403, body: { error: SESSIONS.sudoRequired, code: 'sudo_required', methods: ['code'] } };
          }
          sent.push(body);
          return { body: { success: true, ended: 0, message: SESSIONS.passwordChanged(0) } };
        },
      }),
    );
    renderWithProviders(
      <>
        <PasswordCard />
        <SudoDialog onSignInAgain={vi.fn()} />
      </>,
    );
    expect(await screen.findByRole('heading', { name: PASSWORD_TEXT.setTitle })).toBeInTheDocument();
    expect(screen.queryByLabelText(PASSWORD_TEXT.current)).not.toBeInTheDocument();
    await userEvent.type(field(PASSWORD_TEXT.new), 'a brand new one');
    await userEvent.type(field(PASSWORD_TEXT.confirm), 'a brand new one');
    await userEvent.click(screen.getByRole('button', { name: PASSWORD_TEXT.set }));

    const dialog = await screen.findByRole('dialog', { name: SUDO_TEXT.title });
    expect(within(dialog).queryByLabelText(SUDO_TEXT.password)).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(SUDO_TEXT.code), '123456{Enter}');

    expect(await screen.findByRole('status')).toHaveTextContent(SESSIONS.passwordChanged(0));
    expect(sent).toEqual([{ newPassword: 'a brand new one' }]);
    // The account has a password now: the card asks for it next time.
    await waitFor(() => expect(screen.getByRole('heading', { name: PASSWORD_TEXT.title })).toBeInTheDocument());
    expect(screen.getByLabelText(PASSWORD_TEXT.current)).toBeInTheDocument();
  });
});
