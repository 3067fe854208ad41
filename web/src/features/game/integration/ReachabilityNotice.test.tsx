import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ERRORS } from '@moonrelay/contract/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs, testUser } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { ConnectSteps } from './ConnectSteps.tsx';
import { CONNECT_GUIDE_URL } from './connect-guide.ts';
import { IntegrationPanel } from './IntegrationPanel.tsx';

const SCRIPT_TEXTS = {
  quickLoader:
    'loadstring(game:GetService("HttpService"):GetAsync("http://localhost:3000/api/game/loader?key=mr_x"))()',
  gameIntegration: '-- Moonrelay game integration\n',
  teleportExample: '-- Dashboard teleport example\n',
};
const PROBLEM =
  'A game published on Roblox runs on Roblox’s servers, which cannot reach localhost:3000: localhost is this machine’s own name.';
const ADMIN_FIX =
  'Set PUBLIC_URL to the public https address games reach this Moonrelay at (a domain with HTTPS in front, or a tunnel while you try it from home), then restart Moonrelay.';
const MEMBER_FIX = 'Ask the operator of this Moonrelay to set its public address.';

const unreachable = (fix: string) => ({
  ...SCRIPT_TEXTS,
  reachability: { reachable: false, address: 'http://localhost:3000', https: false, problem: PROBLEM, fix },
});

function answer(route: () => { status?: number; body: unknown }) {
  vi.stubGlobal('fetch', jsonFetch({ 'GET /api/game/integration-scripts': route }));
}
const hostNotServed = () => answer(() => ({ status: 400, body: { error: ERRORS.hostNotServed } }));

const notice = () => screen.findByTestId('reachability-notice');
const guideLink = () => screen.queryByRole('link', { name: /How to connect a real game/ });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Game Integration: whether games on Roblox can reach the scripts', () => {
  it('says nothing more when the address is public https', async () => {
    signInAs(testUser({ isAdmin: true }));
    answer(() => ({
      body: { ...SCRIPT_TEXTS, reachability: { reachable: true, address: 'https://moonrelay.games', https: true } },
    }));
    renderWithProviders(<IntegrationPanel />);
    await screen.findByRole('region', { name: 'Quick Loader' });
    expect(screen.queryByTestId('reachability-notice')).not.toBeInTheDocument();
    expect(guideLink()).not.toBeInTheDocument();
  });

  it('tells an admin, beside the scripts, why games cannot reach them and links the guide, reachable by Tab', async () => {
    signInAs(testUser({ isAdmin: true }));
    answer(() => ({ body: unreachable(ADMIN_FIX) }));
    renderWithProviders(<IntegrationPanel />);
    const shown = await notice();
    expect(within(shown).getByText('Games on Roblox cannot reach these scripts')).toBeInTheDocument();
    expect(within(shown).getByText(PROBLEM)).toBeInTheDocument();
    expect(within(shown).getByText(ADMIN_FIX)).toBeInTheDocument();
    // The scripts are still shown: a Studio test on this machine, or a later PUBLIC_URL, needs them.
    expect(screen.getByRole('region', { name: 'Quick Loader' })).toBeInTheDocument();

    const link = within(shown).getByRole('link', { name: /How to connect a real game/ });
    expect(link).toHaveAttribute('href', CONNECT_GUIDE_URL);
    expect(CONNECT_GUIDE_URL).toMatch(/connect-a-real-game.*\.md/);
    // The notice comes before the scripts: its link is the first stop for the keyboard.
    await userEvent.tab();
    expect(link).toHaveFocus();
  });

  it('tells a member whom to ask, without settings they cannot change', async () => {
    signInAs(testUser({ isAdmin: false }));
    answer(() => ({ body: unreachable(MEMBER_FIX) }));
    renderWithProviders(<IntegrationPanel />);
    const shown = await notice();
    expect(within(shown).getByText(PROBLEM)).toBeInTheDocument();
    expect(within(shown).getByText(MEMBER_FIX)).toBeInTheDocument();
    expect(shown).not.toHaveTextContent('PUBLIC_URL');
    expect(guideLink()).not.toBeInTheDocument();
  });

  it('notes plain http to an admin', async () => {
    signInAs(testUser({ isAdmin: true }));
    const note = 'This address is plain http: Put HTTPS in front of Moonrelay.';
    answer(() => ({
      body: {
        ...SCRIPT_TEXTS,
        reachability: { reachable: true, address: 'http://moonrelay.games', https: false, note },
      },
    }));
    renderWithProviders(<IntegrationPanel />);
    const shown = await notice();
    expect(within(shown).getByText('Served over plain http')).toBeInTheDocument();
    expect(within(shown).getByText(note)).toBeInTheDocument();
    expect(within(shown).getByRole('link', { name: /How to connect a real game/ })).toBeInTheDocument();
  });

  it('explains PUBLIC_URL and PUBLIC_HOSTS to an admin when this host is not served', async () => {
    signInAs(testUser({ isAdmin: true }));
    hostNotServed();
    renderWithProviders(<IntegrationPanel />);
    const shown = await screen.findByTestId('host-not-served');
    expect(within(shown).getByText('Scripts are not shown at this address')).toBeInTheDocument();
    expect(shown).toHaveTextContent(`This dashboard was opened at ${window.location.host}.`);
    expect(shown).toHaveTextContent('PUBLIC_HOSTS lists');
    expect(shown).toHaveTextContent('Set PUBLIC_URL to the public https address');
    expect(within(shown).getByRole('link', { name: /How to connect a real game/ })).toHaveAttribute(
      'href',
      CONNECT_GUIDE_URL,
    );
    expect(screen.queryByRole('region', { name: 'Quick Loader' })).not.toBeInTheDocument();
  });

  it('shows a member no configuration error when this host is not served: only whom to ask', async () => {
    signInAs(testUser({ isAdmin: false }));
    hostNotServed();
    const { container } = renderWithProviders(<IntegrationPanel />);
    const shown = await screen.findByTestId('host-not-served');
    expect(within(shown).getByText(MEMBER_FIX)).toBeInTheDocument();
    expect(container).not.toHaveTextContent(/PUBLIC_URL|PUBLIC_HOSTS|Host header/);
    expect(screen.queryByText(ERRORS.hostNotServed)).not.toBeInTheDocument();
    expect(guideLink()).not.toBeInTheDocument();
  });
});

describe('the steps to connect a game', () => {
  const steps = async () => {
    const list = await screen.findByTestId('connect-steps');
    return within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
  };

  it('name Allow HTTP Requests and LoadStringEnabled, and the Quick Loader below once it is shown', async () => {
    signInAs();
    answer(() => ({
      body: { ...SCRIPT_TEXTS, reachability: { reachable: true, address: 'https://moonrelay.games', https: true } },
    }));
    renderWithProviders(<ConnectSteps />);
    await vi.waitFor(async () => expect((await steps())[2]).toMatch(/paste the Quick Loader \(below\)/));
    const [allowHttp, loadString, , start] = await steps();
    expect(allowHttp).toBe('In Roblox Studio, open Game Settings > Security and turn on Allow HTTP Requests.');
    expect(loadString).toMatch(/select ServerScriptService and tick LoadStringEnabled in its Properties/);
    expect(start).toBe('Start the game: it connects to Moonrelay automatically.');
  });

  it('send people to a public address first when games cannot reach the scripts', async () => {
    signInAs();
    answer(() => ({ body: unreachable(MEMBER_FIX) }));
    renderWithProviders(<ConnectSteps />);
    await vi.waitFor(async () => expect((await steps())[2]).toMatch(/^Give Moonrelay a public address/));
  });

  it.each([
    [true, /^Set Moonrelay’s public address \(see Game Integration below\)/],
    [false, /^Ask the operator of this Moonrelay to set its public address/],
  ])('never say to paste scripts that are not shown (admin: %s)', async (isAdmin, step) => {
    signInAs(testUser({ isAdmin }));
    hostNotServed();
    renderWithProviders(<ConnectSteps />);
    await vi.waitFor(async () => expect((await steps())[2]).toMatch(step));
    expect((await steps()).join(' ')).not.toMatch(/\(below\)/);
  });
});
