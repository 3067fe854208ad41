import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DeliveredCommand } from '@moonrelay/contract/game';
import { BAN_DISPLAY_REASON_MAX_CHARS } from '@moonrelay/contract/moderation';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { mainArea } from './support/ui.ts';

const suite = browserSuite();

/** The game server's ping: its roster, and the results of what it ran; answers the commands it takes. */
async function gamePing(user: TestUser, results: unknown[] = []): Promise<DeliveredCommand[]> {
  const answer = await suite.app.call('POST', '/api/game/ping', {
    body: {
      key: user.user.apiKey,
      serverId: 'srv-mod',
      results,
      roster: { count: 1, players: [{ userId: 156, name: 'builderman', displayName: 'Builder' }] },
    },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.commands as DeliveredCommand[];
}

/** The game runs what it was sent and reports: bans applied for every player, the rest done. */
async function gameRuns(user: TestUser) {
  let commands: DeliveredCommand[] = [];
  await expect.poll(async () => (commands = await gamePing(user)).length, { timeout: 10_000 }).toBeGreaterThan(0);
  await gamePing(
    user,
    commands.map((command) => ({
      id: command.id,
      success: true,
      output:
        command.type === 'ban' || command.type === 'unban'
          ? JSON.stringify({ applied: command.data.userIds, failed: {} })
          : '',
    })),
  );
  return commands;
}

const dialog = (page: Page) => page.getByTestId('moderation-dialog');
const entries = (page: Page) => page.getByTestId('player-record').getByTestId('moderation-entry');

describe('moderation', () => {
  it('notes, warns, bans (limits shown), edits and lifts the ban of a player from their record, with the history and states', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await createUser(suite.app);
    await gamePing(user);
    await signInAs(page, suite.app, user, '/players');
    await mainArea(page).getByRole('button', { name: 'Open builderman' }).click();
    const record = page.getByTestId('player-record');
    await expectVisible(record.getByText('No moderation yet.'));

    await record.getByRole('button', { name: 'Note' }).click();
    await dialog(page).getByRole('textbox', { name: /Note/ }).fill('Spams the chat');
    await dialog(page).getByRole('button', { name: 'Save note' }).click();
    await expectVisible(entries(page).first().getByText('Spams the chat'));
    await expectVisible(
      entries(page)
        .first()
        .getByText(new RegExp(`^${user.user.username} · `)),
    );

    await record.getByRole('button', { name: 'Warn' }).click();
    await dialog(page)
      .getByRole('textbox', { name: /Message shown/ })
      .fill('Please stop');
    await dialog(page).getByRole('button', { name: 'Send warning' }).click();
    await expectVisible(entries(page).first().getByText('pending'));
    expect((await gameRuns(user)).map((command) => command.type)).toEqual(['warn']);
    await expect
      .poll(() => entries(page).first().getByTestId('moderation-state').innerText(), { timeout: 10_000 })
      .toBe('applied');

    // The ban's reason has Roblox's limit: past it the dialog says so and will not send.
    await record.getByRole('button', { name: 'Ban', exact: true }).click();
    const reason = dialog(page).getByRole('textbox', { name: /Reason shown to the player/ });
    await reason.fill('x'.repeat(BAN_DISPLAY_REASON_MAX_CHARS + 1));
    await expectVisible(dialog(page).getByText(`At most ${BAN_DISPLAY_REASON_MAX_CHARS} characters.`));
    expect(await dialog(page).getByRole('button', { name: 'Ban', exact: true }).isDisabled()).toBe(true);
    await reason.fill('Exploiting');
    await dialog(page).getByRole('textbox', { name: 'Duration in seconds' }).fill('0');
    await expectVisible(dialog(page).getByText('A whole number of seconds above 0, or Permanent.'));
    await dialog(page).getByRole('textbox', { name: 'Duration in seconds' }).fill('86400');
    await screenshot(page, 'moderation-ban-dialog');
    await dialog(page).getByRole('button', { name: 'Ban', exact: true }).click();
    await expectVisible(entries(page).first().getByText('1 day'));
    expect((await gameRuns(user)).map((command) => command.type)).toEqual(['ban']);
    await expect
      .poll(() => entries(page).first().getByTestId('moderation-state').innerText(), { timeout: 10_000 })
      .toBe('applied');
    await expectVisible(
      entries(page)
        .first()
        .getByText(/by game server$/),
    );

    await record.getByRole('button', { name: 'Edit ban' }).click();
    expect(
      await dialog(page)
        .getByRole('textbox', { name: /Reason shown to the player/ })
        .inputValue(),
    ).toBe('Exploiting');
    await dialog(page).getByText('Permanent').click();
    await dialog(page).getByRole('button', { name: 'Save ban' }).click();
    await expectVisible(entries(page).first().getByText('Ban (edited)'));
    await expectVisible(entries(page).first().getByText('permanent'));
    await gameRuns(user);

    await record.getByRole('button', { name: 'Unban' }).click();
    await dialog(page).getByRole('button', { name: 'Unban' }).click();
    await expectVisible(entries(page).first().getByText('Unban'));
    await gameRuns(user);
    await expect
      .poll(() => entries(page).first().getByTestId('moderation-state').innerText(), { timeout: 10_000 })
      .toBe('applied');
    await expectVisible(record.getByRole('button', { name: 'Ban', exact: true }));
    expect(await entries(page).count()).toBe(5);
    await screenshot(page, 'moderation-history');
    await page.close();
  }, 90_000);
});
