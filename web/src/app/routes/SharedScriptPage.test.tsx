import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SharedScript } from '@moonrelay/contract/shares';
import { SHARE_ERRORS } from '@moonrelay/contract/shares';
import { ROLE_PERMISSIONS } from '@moonrelay/contract/teams';
import { queryClient } from '../../lib/query-client.ts';
import { useSession } from '../../lib/session.ts';
import { SHARE_TEXT } from '../../features/scripts/sharing/share-text.ts';
import { signInAs, testScript } from '../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../test/teams.ts';
import { App } from '../App.tsx';
import SharedScriptPage from './SharedScriptPage.tsx';

const FLY: SharedScript = {
  name: 'Fly',
  description: 'Lets you fly',
  code: 'local speed = 50\nprint("fly at", speed)',
  version: 3,
  updatedAt: '2026-03-02T10:00:00.000Z',
  sharedAt: '2026-03-01T12:00:00.000Z',
};

type Routes = Parameters<typeof jsonFetch>[0];

/** The server; every request is recorded with whether it carried a session. */
function server(routes: Routes) {
  const requests: { key: string; signedIn: boolean }[] = [];
  const respond = jsonFetch({
    'GET /api/auth/providers': () => ({ body: { google: { enabled: false, name: 'Google' } } }),
    ...routes,
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    requests.push({
      key: `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
      signedIn: 'Authorization' in headers,
    });
    return respond(input, init);
  });
  return requests;
}

/** The whole app at `path`, as a browser opening a link. */
function openApp(path: string) {
  window.history.pushState({}, '', path);
  return render(<App />);
}

/** The signed-in route, beside the editor's (which says where it was opened). */
function EditorStandIn() {
  const location = useLocation();
  return <p data-testid="editor">{`${location.pathname}${location.search}`}</p>;
}
const renderSignedIn = () =>
  renderWithProviders(
    <Routes>
      <Route path="/shared/:token" element={<SharedScriptPage />} />
      <Route path="/editor" element={<EditorStandIn />} />
    </Routes>,
    { route: '/shared/tok-fly' },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
  window.history.pushState({}, '', '/');
});

describe('a shared script’s link, signed out', () => {
  it('shows the script read-only (name, description, version, code) and "Sign in to copy", asking no session', async () => {
    const requests = server({ 'GET /api/shared/tok-fly': () => ({ body: FLY }) });
    openApp('/shared/tok-fly');

    expect(await screen.findByRole('heading', { level: 1, name: 'Fly' })).toBeInTheDocument();
    expect(screen.getByText('Lets you fly')).toBeInTheDocument();
    expect(screen.getByText(SHARE_TEXT.version(3))).toBeInTheDocument();
    const code = screen.getByRole('region', { name: SHARE_TEXT.code('Fly') });
    expect(code.textContent).toBe(FLY.code);
    expect(screen.queryByRole('button', { name: SHARE_TEXT.copyToMyTeam })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Email or username')).not.toBeInTheDocument();
    expect(requests).toContainEqual({ key: 'GET /api/shared/tok-fly', signedIn: false });

    // Sign in at the same address: once signed in, the sign-in screen comes back here.
    await userEvent.click(screen.getByRole('link', { name: SHARE_TEXT.signInToCopy }));
    expect(await screen.findByLabelText('Email or username')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/shared/tok-fly');
    expect(window.location.search).toBe('');
    // Back is the script again.
    window.history.back();
    expect(await screen.findByRole('heading', { level: 1, name: 'Fly' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Email or username')).not.toBeInTheDocument();
  });

  it("says in the server's words that a stopped link no longer works", async () => {
    server({ 'GET /api/shared/tok-gone': () => ({ status: 404, body: { error: SHARE_ERRORS.notFound } }) });
    openApp('/shared/tok-gone');

    expect(await screen.findByTestId('shared-script-error')).toHaveTextContent(SHARE_ERRORS.notFound);
    expect(screen.queryByRole('region', { name: /^Code of/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: SHARE_TEXT.signInToCopy })).not.toBeInTheDocument();
  });

  it('leaves every other address to the sign-in screen', async () => {
    const requests = server({});
    openApp('/shared');
    expect(await screen.findByLabelText('Email or username')).toBeInTheDocument();
    expect(requests.map((request) => request.key)).not.toContainEqual(expect.stringMatching(/^GET \/api\/shared/));
  });
});

describe('a shared script’s link, signed in', () => {
  it('copies the script into the account on screen and opens the copy in the editor', async () => {
    signInAs();
    const copy = testScript({ id: 's9', name: 'Fly' });
    const requests = server({
      'GET /api/shared/tok-fly': () => ({ body: FLY }),
      'GET /api/teams': () => ({ body: [personalTeam()] }),
      'POST /api/shared/tok-fly/copy': () => ({ body: copy }),
    });
    // The scripts already read: the editor finds the copy among them without waiting.
    queryClient.setQueryData(['/api/scripts'], [testScript()]);
    renderSignedIn();

    expect(await screen.findByText(SHARE_TEXT.copiesInto(SHARE_TEXT.yourAccount))).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: SHARE_TEXT.signInToCopy })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: SHARE_TEXT.copyToMyTeam }));

    expect(await screen.findByTestId('editor')).toHaveTextContent('/editor?id=s9');
    expect(screen.getByText(SHARE_TEXT.copiedToMyTeamDetail('Fly'))).toBeInTheDocument();
    expect(queryClient.getQueryData<{ id: string }[]>(['/api/scripts'])?.map((script) => script.id)).toContain('s9');
    expect(requests.filter((request) => request.key === 'POST /api/shared/tok-fly/copy')).toEqual([
      { key: 'POST /api/shared/tok-fly/copy', signedIn: true },
    ]);
  });

  it('names the team the copy goes to, and is disabled saying why where the role may not add scripts', async () => {
    signInAs();
    const requests = server({
      'GET /api/shared/tok-fly': () => ({ body: FLY }),
      'GET /api/teams': () => ({
        body: [
          personalTeam(),
          testTeam({ id: 't1', name: 'Studio' }),
          testTeam({ id: 't2', name: 'Watchers', role: 'viewer', permissions: [...ROLE_PERMISSIONS.viewer] }),
        ],
      }),
    });
    chooseTeam('t1');
    const { unmount } = renderSignedIn();
    expect(await screen.findByText(SHARE_TEXT.copiesInto('Studio'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: SHARE_TEXT.copyToMyTeam })).toBeEnabled();
    unmount();

    chooseTeam('t2');
    renderSignedIn();
    const copy = await screen.findByRole('button', { name: SHARE_TEXT.copyToMyTeam });
    await waitFor(() => expect(copy).toHaveAccessibleDescription('Needs the permission scripts.write'));
    expect(copy).toBeDisabled();
    expect(within(screen.getByRole('region', { name: SHARE_TEXT.code('Fly') })).getByText(/fly at/)).toBeVisible();
    expect(requests.map((request) => request.key)).not.toContain('POST /api/shared/tok-fly/copy');
  });
});
