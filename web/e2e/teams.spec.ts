import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CommandResult, DeliveredCommand } from '@moonrelay/contract/game';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { dialogNamed, expectToast, mainArea, sidebarLink } from './support/ui.ts';

const suite = browserSuite();

const TEAM_NAME = 'Obby Studio';
const PLAYER = { userId: 156, name: 'builderman', displayName: 'Builder', accountAgeDays: 365 };

/**
 * The team's game server, as the integration script runs it: a ping a second with its roster (so
 * its player stays online however long the test takes; a server silent for 10 s is gone), running
 * what it is sent and reporting the results on its next ping: bans applied for every player, the
 * rest done. Answers the commands it ran and a function that stops it.
 */
async function runTeamGame(key: string) {
  const ran: DeliveredCommand[] = [];
  const failures: string[] = [];
  let results: CommandResult[] = [];
  const ping = async (roster: { count: number; players?: (typeof PLAYER)[] }) => {
    const sending = results;
    results = [];
    const answer = await suite.app.call('POST', '/api/game/ping', {
      body: { key, serverId: 'team-server', results: sending, roster },
    });
    if (answer.status !== 200) {
      results.unshift(...sending);
      failures.push(`${answer.status} ${answer.text}`);
      return;
    }
    for (const command of answer.body.commands as DeliveredCommand[]) {
      ran.push(command);
      const output =
        command.type === 'ban' || command.type === 'unban'
          ? JSON.stringify({ applied: command.data.userIds, failed: {} })
          : '';
      results.push({ id: command.id, success: true, output });
    }
  };
  // The first ping carries the whole roster; the next ones its count, as a running game sends them.
  await ping({ count: 1, players: [PLAYER] });
  expect(failures).toEqual([]);
  let inFlight = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = inFlight.then(() => ping({ count: 1 })).catch((error: Error) => void failures.push(error.message));
  }, 1_000);
  return {
    ran,
    failures,
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}

const switcher = (page: Page) => page.getByTestId('team-switcher');
const record = (page: Page) => page.getByTestId('player-record');
const entries = (page: Page) => record(page).getByTestId('moderation-entry');
const moderationDialog = (page: Page) => page.getByTestId('moderation-dialog');

describe('teams', () => {
  it("lets a team's owner invite a moderator by a link, who joins, kicks and bans a player, cannot save or run code, and is named in the history", async () => {
    const origin = suite.app.url;
    await suite.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const owner = await createUser(suite.app, { name: 'Olivia Owner' });
    const moderator = await createUser(suite.app, { name: 'Max Moderator' });

    // The owner creates the team from the switcher; the dashboard opens its Team screen.
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signInAs(page, suite.app, owner);
    await expect.poll(() => switcher(page).getAttribute('aria-label')).toBe(`Switch team: ${owner.name}, Personal`);
    await switcher(page).click();
    await page.getByRole('menuitem', { name: 'Create team' }).click();
    await dialogNamed(page, 'Create a team').getByRole('textbox', { name: 'Team name' }).fill(TEAM_NAME);
    await dialogNamed(page, 'Create a team').getByRole('button', { name: 'Create', exact: true }).click();
    await expectToast(page, 'Team created', TEAM_NAME);
    await expectPath(page, '/team');
    const teamId = new URL(page.url()).searchParams.get('team')!;
    expect(teamId).not.toBe(owner.user.id);
    await expectVisible(mainArea(page).getByRole('heading', { name: TEAM_NAME, level: 1 }));
    await expect.poll(() => switcher(page).getAttribute('aria-label')).toBe(`Switch team: ${TEAM_NAME}, Owner`);

    // The team's game key (made in the team, as the Moonrelay-Team header says) connects its server.
    const key = await suite.app.call('POST', '/api/user/api-keys', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { name: 'Obby game', scopes: ['game'] },
    });
    expect(key.status, key.text).toBe(200);
    const game = await runTeamGame(key.body.key as string);
    onTestFinished(() => game.stop());

    // The owner invites a Moderator from the Team screen and copies the link, shown this once.
    await sidebarLink(page, 'Team').click();
    await mainArea(page).getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = dialogNamed(page, 'Invite to the team');
    await invite.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Moderator' });
    await invite.getByRole('button', { name: 'Make invitation link' }).click();
    const shown = dialogNamed(page, 'Invitation link');
    const link = await shown.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${origin}/join\\?token=[\\w-]+$`));
    await expectVisible(shown.getByText(/^Whoever opens it signed in joins as Moderator\. It works once, until /));
    await screenshot(page, 'team-invitation-link');
    await shown.getByRole('button', { name: 'Copy invitation link' }).click();
    await expectToast(page, 'Invitation Link Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shown.getByRole('button', { name: 'Done' }).click();
    const invitations = mainArea(page).getByRole('list', { name: 'Open invitations' });
    await expectVisible(invitations.getByText('Moderator', { exact: true }));

    // The moderator, signed in at another computer, opens the link and joins.
    const moderatorPage = await suite.browser.newPersonPage();
    await moderatorPage.setViewportSize({ width: 1440, height: 900 });
    await signInAs(moderatorPage, suite.app, moderator);
    await moderatorPage.goto(link);
    await mainArea(moderatorPage).getByRole('button', { name: 'Join team' }).click();
    await expectToast(moderatorPage, `You joined ${TEAM_NAME}`);
    await expectPath(moderatorPage, '/team', `?team=${teamId}`);
    await expect
      .poll(() => switcher(moderatorPage).getAttribute('aria-label'))
      .toBe(`Switch team: ${TEAM_NAME}, Moderator`);
    await switcher(moderatorPage).click();
    const chosen = moderatorPage.getByRole('menuitemradio', { name: new RegExp(`^${TEAM_NAME}`) });
    expect(await chosen.getAttribute('aria-checked')).toBe('true');
    await moderatorPage.keyboard.press('Escape');
    // The team's members now include them; what they may not do there says why.
    const members = mainArea(moderatorPage).getByRole('list', { name: 'Team members' });
    await expectVisible(
      members.getByRole('listitem', { name: moderator.name }).getByText('Moderator', { exact: true }),
    );
    expect(await mainArea(moderatorPage).getByRole('button', { name: 'Invite', exact: true }).isDisabled()).toBe(true);
    await expectVisible(mainArea(moderatorPage).getByText(/^Needs the permission members\.manage/));

    // The moderator kicks the player from Players, then bans them; the game applies both.
    await sidebarLink(moderatorPage, 'Players').click();
    await mainArea(moderatorPage)
      .getByRole('button', { name: `Open ${PLAYER.name}` })
      .click();
    await expectVisible(record(moderatorPage).getByText('Online'));
    await record(moderatorPage).getByRole('button', { name: 'Kick', exact: true }).click();
    await moderationDialog(moderatorPage)
      .getByRole('textbox', { name: /Message shown to the player/ })
      .fill('Exploiting the obby');
    await moderationDialog(moderatorPage).getByRole('button', { name: 'Kick', exact: true }).click();
    await expectVisible(entries(moderatorPage).first().getByText('Kick', { exact: true }));
    await expect
      .poll(() => entries(moderatorPage).first().getByTestId('moderation-state').innerText(), { timeout: 15_000 })
      .toBe('applied');

    await record(moderatorPage).getByRole('button', { name: 'Ban', exact: true }).click();
    await moderationDialog(moderatorPage)
      .getByRole('textbox', { name: /Reason shown to the player/ })
      .fill('Exploiting');
    await moderationDialog(moderatorPage).getByRole('button', { name: 'Ban', exact: true }).click();
    await expectVisible(entries(moderatorPage).first().getByText('Ban', { exact: true }));
    await expect
      .poll(() => entries(moderatorPage).first().getByTestId('moderation-state').innerText(), { timeout: 15_000 })
      .toBe('applied');
    expect(game.ran.map((command) => command.type)).toEqual(['kick', 'ban']);
    expect(game.ran[0]!.data.userId).toBe(PLAYER.userId);
    expect(game.ran[1]!.data.userIds).toEqual([PLAYER.userId]);
    await expectVisible(record(moderatorPage).getByRole('button', { name: 'Unban' }));
    await moderatorPage.keyboard.press('Escape');

    // In the editor their role allows neither saving nor running: the buttons are disabled, and
    // the permission each needs is written under them. Nothing the role may not read is asked for
    // (the team's scripts): a refusal would show in the browser's console, which fails the test.
    await sidebarLink(moderatorPage, 'Script Editor').click();
    const editor = mainArea(moderatorPage);
    for (const button of ['Save', 'Run in Sandbox', 'Dry run', 'Execute', 'Save & Execute']) {
      await expectVisible(editor.getByRole('button', { name: button, exact: true }));
      expect(await editor.getByRole('button', { name: button, exact: true }).isDisabled(), button).toBe(true);
    }
    expect(await editor.getByRole('button', { name: 'Save', exact: true }).getAttribute('title')).toBe(
      'Needs the permission scripts.write',
    );
    expect(await editor.getByTestId('permission-notes').locator('p').allInnerTexts()).toEqual([
      'Save: Needs the permission scripts.write',
      'Run in Sandbox and Dry run: Needs the permission runs.sandbox',
      'Execute in the game: Needs the permission runs.sandbox',
    ]);
    await screenshot(moderatorPage, 'team-moderator-editor');
    // The dashboard's New Script is disabled for them too, saying why.
    await sidebarLink(moderatorPage, 'Dashboard').click();
    const newScript = mainArea(moderatorPage).getByRole('button', { name: 'New Script' });
    await expectVisible(newScript);
    expect(await newScript.isDisabled()).toBe(true);
    expect(await newScript.getAttribute('title')).toBe('Needs the permission scripts.write');
    await screenshot(moderatorPage, 'team-moderator-dashboard');

    // The owner opens the player's record: the history names the moderator, not the team.
    await sidebarLink(page, 'Players').click();
    await mainArea(page)
      .getByRole('button', { name: `Open ${PLAYER.name}` })
      .click();
    await expect.poll(() => entries(page).count()).toBe(2);
    const byWhom = (index: number) =>
      entries(page)
        .nth(index)
        .getByText(new RegExp(`^${moderator.user.username} · `));
    await expectVisible(entries(page).nth(0).getByText('Ban', { exact: true }));
    await expectVisible(byWhom(0));
    await expectVisible(entries(page).nth(1).getByText('Kick', { exact: true }));
    await expectVisible(byWhom(1));
    await screenshot(page, 'team-owner-moderation-history');

    // The team's activity log says the same, by name.
    await page.keyboard.press('Escape');
    await sidebarLink(page, 'Team').click();
    const activity = mainArea(page).getByRole('region', { name: 'Team activity' });
    await expectVisible(activity.getByText(`${moderator.user.username} banned player ${PLAYER.userId}`));
    await expectVisible(activity.getByText(`${moderator.user.username} kicked player ${PLAYER.userId}`));
    await screenshot(page, 'team-owner-activity');

    await game.stop();
    expect(game.failures).toEqual([]);
    await moderatorPage.close();
    await page.close();
  }, 120_000);
});
