import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEAM_ERRORS } from '@moonrelay/contract/teams';
import { useSession } from '../../../lib/session.ts';
import { useTeam } from '../../../lib/team.ts';
import { signInAs } from '../../../test/fixtures.ts';
import { jsonFetch, renderWithProviders } from '../../../test/render.tsx';
import { chooseTeam, personalTeam, testTeam } from '../../../test/teams.ts';
import { TEAM_TEXT } from '../team-text.ts';
import { TeamGate } from './TeamGate.tsx';
import { TeamSwitcher } from './TeamSwitcher.tsx';
import { standInResizeObserver } from '../../../test/resize-observer.ts';

// The menu places itself with floating-ui, which watches sizes with ResizeObserver; jsdom has none.
standInResizeObserver();

const studio = testTeam({ id: 't1', name: 'Studio', role: 'developer' });
const arcade = testTeam({ id: 't2', name: 'Arcade', role: 'moderator' });

function Where() {
  const { pathname, search } = useLocation();
  const teamId = useTeam((state) => state.teamId);
  return <p data-testid="where">{`${teamId ?? 'own'} ${pathname}${search}`}</p>;
}

function renderSwitcher(route: string) {
  renderWithProviders(
    <TeamGate>
      <TeamSwitcher />
      <Where />
    </TeamGate>,
    { route },
  );
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the team switcher', () => {
  it('shows the chosen team and the role in it, and switches team by keyboard', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/teams': () => ({ body: [personalTeam(), studio, arcade] }) }));
    chooseTeam('t1');
    renderSwitcher('/runs?id=r1');

    const trigger = await screen.findByRole('button', { name: `${TEAM_TEXT.switcherLabel}: Studio, Developer` });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => item.textContent)).toEqual(['AdaPersonal', 'StudioDeveloper', 'ArcadeModerator']);
    expect(within(menu).getByRole('menuitemradio', { name: /Studio/ })).toHaveAttribute('aria-checked', 'true');

    // Down to Arcade (the last item), then Enter chooses it. Each press waits for the highlight it
    // moves: the menu takes the keyboard a frame after it opens, and a press before that is lost.
    const target = within(menu).getByRole('menuitemradio', { name: /Arcade/ });
    const highlighted = () => items.find((item) => item.hasAttribute('data-highlighted'));
    await waitFor(() => expect(highlighted()).toBeDefined());
    for (let press = 0; press < items.length && highlighted() !== target; press += 1) {
      const before = highlighted();
      await userEvent.keyboard('{ArrowDown}');
      await waitFor(() => expect(highlighted()).not.toBe(before));
    }
    expect(target).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');

    // The page stays, without the previous team's open run.
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('t2 /runs?team=t2'));
    expect(await screen.findByRole('button', { name: `${TEAM_TEXT.switcherLabel}: Arcade, Moderator` })).toBeVisible();
  });

  it('goes back to the own account, named Personal', async () => {
    vi.stubGlobal('fetch', jsonFetch({ 'GET /api/teams': () => ({ body: [personalTeam(), studio] }) }));
    chooseTeam('t1');
    renderSwitcher('/scripts');
    await userEvent.click(await screen.findByRole('button', { name: /^Switch team: Studio/ }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: /Ada/ }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^own \/scripts$/));
    expect(await screen.findByRole('button', { name: `${TEAM_TEXT.switcherLabel}: Ada, Personal` })).toBeVisible();
  });

  it('creates a team and opens its Team screen', async () => {
    const created = testTeam({ id: 't9', name: 'New studio', role: 'owner', members: 1 });
    let teams = [personalTeam()];
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/teams': () => ({ body: teams }),
        'POST /api/teams': (body) => {
          if ((body as { name: string }).name !== 'New studio') return { status: 400, body: { error: 'bad' } };
          teams = [personalTeam(), created];
          return { body: created };
        },
      }),
    );
    renderSwitcher('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: /^Switch team: Ada/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: TEAM_TEXT.createTeam }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_TEXT.createTitle });

    // An empty name is refused before any request, in the server's words.
    await userEvent.click(within(dialog).getByRole('button', { name: TEAM_TEXT.create }));
    expect(await within(dialog).findByText(TEAM_ERRORS.nameRequired)).toBeInTheDocument();

    await userEvent.type(within(dialog).getByRole('textbox', { name: TEAM_TEXT.nameLabel }), '  New studio ');
    await userEvent.click(within(dialog).getByRole('button', { name: TEAM_TEXT.create }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('t9 /team?team=t9'));
  });
});
