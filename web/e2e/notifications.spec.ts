import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeDiscord } from '../../server/test/fake-discord.ts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { expectSignedIn, expectToast, mainArea } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

const discord = fakeDiscord();
let discordBase = '';
const suite = browserSuite(async () => {
  discordBase = await discord.start();
  // The stand-in Discord listens on 127.0.0.1, which only the operator's allow-list lets through.
  return { NOTIFY_ALLOWED_HOSTS: '127.0.0.1', NOTIFY_DISCORD_ORIGINS: discordBase };
});
afterAll(() => discord.stop());

const card = (page: Page) => mainArea(page).locator('#notifications');
const destination = (page: Page, name: string) =>
  card(page).getByTestId('notification-destination').filter({ hasText: name });

async function openSettings(page: Page, user: TestUser) {
  await signInAs(page, suite.app, user, '/settings');
  await expectSignedIn(page, user.name);
  await expectVisible(card(page).getByText('Notifications', { exact: true }));
}

describe('Settings → Notifications', () => {
  it('adds a Discord destination, sends a test, shows the delivery log, and shows a deleted webhook paused', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Notified Nora' });
    await openSettings(page, user);
    await expectVisible(card(page).getByText('No destinations yet.'));

    await card(page).getByRole('button', { name: 'Add destination' }).click();
    const form = card(page).getByRole('form', { name: 'Add destination' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Ops channel');
    const token = 'Xq3vT9bK2mR7wLpZ8nYc4dF1gH6jS0aE5uI-oQ_tN2xB3vC7kM9lP4rW1sD8fG6h';
    await form.getByRole('textbox', { name: 'URL' }).fill(`${discordBase}/api/webhooks/1180000000000000001/${token}`);
    await form.getByText('Game server connected', { exact: true }).click();
    expect(await form.getByRole('checkbox', { name: 'Game server connected' }).isChecked()).toBe(true);
    await screenshot(page, 'settings-notifications-add');
    await form.getByRole('button', { name: 'Add destination' }).click();

    const ops = destination(page, 'Ops channel');
    await expectVisible(ops);
    await expectVisible(ops.getByText(`${discordBase}/api/webhooks/1180000000000000001/…`));
    expect(await page.getByText(token).count()).toBe(0);

    await ops.getByRole('button', { name: 'Send test' }).click();
    await expectToast(page, 'Test event sent');
    await discord.until(() => discord.hits.some((hit) => hit.webhookId === '1180000000000000001'));
    await ops.getByRole('button', { name: 'Delivery log' }).click();
    const log = ops.getByRole('table', { name: 'Delivery log' });
    await expectVisible(log.getByText('Test event'));
    await expectVisible(log.getByText('204', { exact: true }));
    await screenshot(page, 'settings-notifications-log');

    // The webhook is deleted in Discord: the next delivery answers 404 and the destination pauses.
    discord.remove('1180000000000000001');
    // On a busy machine the answer to the click can come after the delivery failed and the list,
    // read again meanwhile, showed the pause. The answer is held until then: the warning the
    // click caused must stay on screen, not be replaced by "Test event sent".
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const testPath = /\/api\/notifications\/destinations\/[^/]+\/test$/;
    await page.route(testPath, async (route) => {
      const response = await route.fetch();
      await answered;
      await route.fulfill({ response });
    });
    const sendTest = ops.getByRole('button', { name: 'Send test' });
    // The first click's "Test event sent" is gone first, so any one found below is this click's.
    await expectHidden(page.getByTestId('toast').getByText('Test event sent'), 20_000);
    await sendTest.click();
    // The screen reads the list again every few seconds; the toast comes with the read that sees it paused.
    const pausedToast = page.getByTestId('toast').getByText('Ops channel paused', { exact: true });
    await expectVisible(pausedToast, 20_000);
    answer();
    await expect.poll(() => sendTest.getAttribute('data-loading')).toBeNull();
    await expectVisible(pausedToast);
    expect(await page.getByTestId('toast').getByText('Test event sent').count()).toBe(0);
    await page.unroute(testPath);
    await expectVisible(ops.getByText('Paused: The webhook answered 404: it was deleted'));
    await expectVisible(ops.getByText('Paused', { exact: true }));
    await expectVisible(ops.getByRole('button', { name: 'Resume' }));
    await screenshot(page, 'settings-notifications-paused');
    await page.setViewportSize({ width: 390, height: 844 });
    await ops.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-notifications-phone');

    await ops.getByRole('button', { name: 'Delete' }).click();
    await expectHidden(ops);
    await page.close();
  });

  it('shows a generic webhook’s signing secret once, and refuses a URL it may not reach', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app, { name: 'Webhook Will' });
    await openSettings(page, user);
    await card(page).getByRole('button', { name: 'Add destination' }).click();
    const form = card(page).getByRole('form', { name: 'Add destination' });
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('webhook');
    await form.getByRole('textbox', { name: 'Name' }).fill('Internal');
    await form.getByRole('textbox', { name: 'URL' }).fill('https://169.254.169.254/latest');
    suite.browser.allowConsoleErrors(/status of 400/);
    await form.getByRole('button', { name: 'Add destination' }).click();
    await expectVisible(form.getByText(/this address is not allowed/));

    await form.getByRole('textbox', { name: 'URL' }).fill('https://hooks.example.com/moonrelay');
    await form.getByRole('button', { name: 'Add destination' }).click();
    const secret = card(page).getByRole('textbox', { name: 'Signing secret' });
    await expectVisible(secret);
    const value = await secret.inputValue();
    expect(value).toMatch(/^whsec_/);
    await card(page).getByRole('button', { name: 'Done' }).click();
    await expectVisible(destination(page, 'Internal').getByText('https://hooks.example.com/…'));
    expect(await page.getByText(value).count()).toBe(0);
    await page.close();
  });
});
