import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPY_FEEDBACK_MS } from '@moonrelay/contract/constants';
import { useSession } from '../../../lib/session.ts';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { TEST_OPENAPI } from '../test-openapi.ts';
import { ApiDocsScreen } from './ApiDocsScreen.tsx';

const KEY = 'mr_cNhVSVDoTsbl8HadMirhCD0YrPTc';
const card = (title: string) => screen.getByRole('article', { name: title });
/** The endpoint cards on screen, by title (role queries are slow on a page this size). */
const cardTitles = () => screen.queryAllByTestId('endpoint-card').map((card) => card.getAttribute('aria-label'));

let writeText: ReturnType<typeof vi.fn>;
beforeEach(() => {
  useSession.getState().signOut();
  vi.stubGlobal('fetch', jsonFetch({ 'GET /api/openapi.json': () => ({ body: TEST_OPENAPI }) }));
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
});

describe('ApiDocsScreen', () => {
  it('shows the title, version, the user’s key, the base URL and the Scripts tab first', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    expect(screen.getByRole('heading', { name: 'API Documentation' })).toBeInTheDocument();
    expect(screen.getByText('v1.0.0')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Your API Key' })).getByText(KEY)).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Base URL' })).getByText(`${window.location.origin}/api`),
    ).toBeInTheDocument();
    await screen.findByRole('article', { name: 'GET /api/scripts' });
    expect(screen.getByRole('tab', { name: /Scripts/, selected: true })).toBeInTheDocument();
    expect(screen.getAllByTestId('endpoint-card')).toHaveLength(3);
    expect(screen.getByRole('region', { name: 'About the API' })).toHaveTextContent('Error handling');
  });

  it('shows a placeholder for the key when no user is stored, and examples keep YOUR_API_KEY', async () => {
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    expect(
      within(screen.getByRole('region', { name: 'Your API Key' })).getByText('Sign in to see your API key'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy API key' })).not.toBeInTheDocument();
    await screen.findByRole('article', { name: 'GET /api/scripts' });
    const curl = within(card('GET /api/scripts'))
      .getAllByTestId('code-block')
      .find((block) => block.textContent?.startsWith('curl'));
    expect(curl).toHaveTextContent("-H 'Authorization: Bearer YOUR_API_KEY'");
  });

  it('shows an endpoint’s method, path, auth, rate limit, headers, params, body, responses and examples', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    const execute = await screen.findByRole('article', { name: 'POST /api/scripts/{id}/execute' });
    const inCard = within(execute);
    expect(inCard.getByText('POST')).toBeInTheDocument();
    expect(inCard.getByText('Auth Required')).toBeInTheDocument();
    expect(inCard.getByTestId('rate-limit')).toHaveTextContent('50 requests / minute');
    expect(inCard.getByRole('table', { name: /^Headers of/ })).toHaveTextContent('Bearer <your API key>');
    expect(inCard.getByRole('table', { name: /^URL parameters of/ })).toHaveTextContent('id');
    expect(inCard.getByRole('table', { name: /^Body of/ })).toHaveTextContent('"game" | "sandbox"');
    expect(inCard.getByRole('tab', { name: 'Success' })).toHaveAttribute('aria-selected', 'true');
    expect(inCard.getByText(/"output": "Hello from Moonrelay\\n"/)).toBeInTheDocument();
    await userEvent.click(inCard.getByRole('tab', { name: 'Error' }));
    expect(inCard.getByText(/"error": "Script not found"/)).toBeInTheDocument();
    expect(inCard.getByText('Rate limit exceeded; see Retry-After')).toBeInTheDocument();

    const curl = inCard.getAllByTestId('code-block').find((block) => block.textContent?.startsWith('curl'));
    expect(curl).toHaveTextContent(`curl -X POST '${window.location.origin}/api/scripts/SCRIPT_ID/execute'`);
    expect(curl).toHaveTextContent(`Bearer ${KEY}`);
    await userEvent.click(inCard.getByRole('tab', { name: 'Lua' }));
    expect(inCard.getByText(/HttpService:RequestAsync/)).toBeInTheDocument();
  });

  it('shows each way of calling an endpoint that has several: the game client’s sends its key in the body', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    const execute = await screen.findByRole('article', { name: 'POST /api/scripts/execute' });
    const inCard = within(execute);
    const ways = within(inCard.getByRole('tablist', { name: 'Ways to call POST /api/scripts/execute' }));
    expect(ways.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Code in the sandbox',
      'Code in your game',
      'Game client: a script by name',
    ]);
    expect(inCard.getByRole('table', { name: /^Headers of/ })).toHaveTextContent('Bearer <your API key>');
    expect(inCard.getByText(/as key in the body \(no Authorization header\)/)).toBeInTheDocument();
    // The first code block is the example body.
    expect(inCard.getAllByTestId('code-block')[0]).toHaveTextContent('"target": "sandbox"');

    await userEvent.click(ways.getByRole('tab', { name: 'Code in your game' }));
    expect(await inCard.findByText(/"pending": true/)).toBeInTheDocument();

    await userEvent.click(ways.getByRole('tab', { name: 'Game client: a script by name' }));
    const headers = await inCard.findByRole('table', { name: /^Headers of/ });
    expect(headers).not.toHaveTextContent('Authorization');
    expect(
      inCard.getByText('Your API key as key, in the request itself (no Authorization header).'),
    ).toBeInTheDocument();
    expect(inCard.getAllByTestId('code-block')[0]).toHaveTextContent(`"key": "${KEY}"`);
    expect(inCard.getByText(/"name": "Hello"/)).toBeInTheDocument();
    const curl = inCard.getAllByTestId('code-block').find((block) => block.textContent?.startsWith('curl'));
    expect(curl).not.toHaveTextContent('Authorization');
    expect(curl).toHaveTextContent(`"key": "${KEY}"`);
    // Only the way shown is on the page: one set of response tabs.
    expect(inCard.getAllByRole('tab', { name: 'Success' })).toHaveLength(1);
  });

  it('shows the parts of a description marked with backticks as code', async () => {
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    await screen.findByRole('article', { name: 'GET /api/scripts' });
    const summary = within(card('GET /api/scripts')).getByText(/Lists the scripts/);
    expect(summary).toHaveTextContent('Lists the scripts; each has an id.');
    expect(summary.querySelector('code')).toHaveTextContent(/^id$/);
  });

  it('switches tabs; Admin endpoints and the identity-provider flow are not on the page', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    await waitFor(() =>
      expect(cardTitles()).toEqual(['GET /api/scripts', 'POST /api/scripts/{id}/execute', 'POST /api/scripts/execute']),
    );
    for (const [tab, titles] of [
      ['Game', ['POST /api/game/command', 'GET /api/game/loader']],
      ['Auth', ['POST /api/auth/login', 'GET /api/user']],
      ['Analytics', ['GET /api/analytics/usage']],
      [
        'Teams',
        [
          'GET /api/shares',
          'GET /api/shared/{token}',
          'GET /api/teams',
          'POST /api/teams/{teamId}/invitations',
          'DELETE /api/teams/{teamId}/members/{userId}',
        ],
      ],
    ] as const) {
      await userEvent.click(screen.getByRole('tab', { name: new RegExp(`^${tab}\\s*\\d+$`) }));
      await waitFor(() => expect(cardTitles()).toEqual(titles));
    }
  });

  it('lists the team operations on the Teams tab with their examples and the team header', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs?tab=teams' });
    await waitFor(() => expect(cardTitles()).toHaveLength(5));
    expect(screen.getByRole('tab', { name: /^Teams\s*5$/, selected: true })).toBeInTheDocument();

    const invite = within(card('POST /api/teams/{teamId}/invitations'));
    expect(invite.getByRole('table', { name: /^Headers of/ })).toHaveTextContent('Bearer <session token from login>');
    expect(invite.getByRole('table', { name: /^URL parameters of/ })).toHaveTextContent('teamId');
    expect(invite.getAllByTestId('code-block')[0]).toHaveTextContent('"role": "moderator"');
    expect(invite.getByText(/"token": "Xk4pQ9vL2mT7wRz1bN6cY3hJ8sD0fG5a"/)).toBeInTheDocument();
    const curl = invite.getAllByTestId('code-block').find((block) => block.textContent?.startsWith('curl'));
    expect(curl).toHaveTextContent(`curl -X POST '${window.location.origin}/api/teams/TEAM_ID/invitations'`);
    expect(curl).toHaveTextContent('Bearer YOUR_SESSION_TOKEN');
    expect(invite.getByText(/\/join\?token=<token>/)).toBeInTheDocument();
    await userEvent.click(invite.getByRole('tab', { name: 'Error' }));
    expect(invite.getByText(/"error": "You can only give permissions you hold yourself"/)).toBeInTheDocument();

    // A call on the team's data names the team by header; the example acts on the caller's own account.
    const shares = within(card('GET /api/shares'));
    expect(shares.getByRole('table', { name: /^Headers of/ })).toHaveTextContent(
      'Moonrelay-TeamTEAM_ID (optional: without it, your own account)',
    );
    expect(shares.getByText(/add the header Moonrelay-Team: TEAM_ID/)).toBeInTheDocument();
    expect(within(card('GET /api/teams')).getByText(/"name": "Obby Studios"/)).toBeInTheDocument();

    const remove = within(card('DELETE /api/teams/{teamId}/members/{userId}'));
    const ways = within(remove.getByRole('tablist', { name: /^Ways to call/ }));
    expect(ways.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Remove a member', 'Leave a team']);
    await userEvent.click(ways.getByRole('tab', { name: 'Leave a team' }));
    const leave = await waitFor(() => {
      const block = remove.getAllByTestId('code-block').find((each) => each.textContent?.startsWith('curl'));
      expect(block).toHaveTextContent('/api/teams/TEAM_ID/members/YOUR_USER_ID');
      return block;
    });
    expect(leave).toHaveTextContent('curl -X DELETE');
  });

  it("copies an example, toasts 'Copied to clipboard' and clears the indicator after 2 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    const list = await screen.findByRole('article', { name: 'GET /api/scripts' });
    const copy = within(list).getByRole('button', { name: 'Copy cURL example for GET /api/scripts' });
    await userEvent.click(copy);
    expect(writeText).toHaveBeenCalledWith(
      `curl '${window.location.origin}/api/scripts' \\\n  -H 'Authorization: Bearer ${KEY}'`,
    );
    expect(within(await screen.findByTestId('toast')).getByText('Copied to clipboard')).toBeInTheDocument();
    expect(copy).toHaveAttribute('data-copied', 'true');
    expect(copy).toHaveTextContent('Copied');
    await act(() => vi.advanceTimersByTimeAsync(COPY_FEEDBACK_MS - 100));
    expect(copy).toHaveAttribute('data-copied', 'true');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(copy).toHaveAttribute('data-copied', 'false');
    expect(copy).toHaveTextContent('Copy');
  });

  it('copies the API key and the base URL', async () => {
    signInAs(testUser({ apiKey: KEY }));
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    await userEvent.click(screen.getByRole('button', { name: 'Copy API key' }));
    expect(writeText).toHaveBeenLastCalledWith(KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Copy base URL' }));
    expect(writeText).toHaveBeenLastCalledWith(`${window.location.origin}/api`);
  });

  it('says so when the API description cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/openapi.json': () => ({ status: 503, body: { error: 'Service unavailable' } }) }),
    );
    renderWithProviders(<ApiDocsScreen />, { route: '/api-docs' });
    expect(await screen.findByText('The API description could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Service unavailable')).toBeInTheDocument();
  });
});
