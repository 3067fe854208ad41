import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import {
  codeEditorLines,
  executionPane,
  expectSignedIn,
  mainArea,
  scriptRow,
  sidebarLink,
  statValue,
} from './support/ui.ts';

const suite = browserSuite();

const GREETER = 'print("hello from Greeter")';

/** A stat card of the Analytics screen, by its label. */
const analyticsStat = (page: Page, label: string) =>
  mainArea(page)
    .locator('dl')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');
const region = (page: Page, name: string) => mainArea(page).getByRole('region', { name });
const runRows = (page: Page) => page.locator('main [data-testid="run-row"]');

/**
 * docs/decisions/046-one-count-of-runs.md, as a new user reads it: runs of a saved script from the
 * editor (sandbox and dry run), from the API on a game that is not connected, custom code and an
 * admin's run; the dashboard's Total Executions, My Scripts' Executions column, Analytics and Runs
 * then tell the same story, and a run made while the dashboard is open moves its count at once.
 */
describe('one count of runs, on every screen', () => {
  it('the dashboard card, My Scripts, Analytics and Runs agree after runs of every kind', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await createUser(suite.app);
    const created = await suite.app.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Greeter', code: GREETER },
    });
    expect(created.status, created.text).toBe(200);
    const scriptId = created.body.id as string;

    // The editor's sandbox run and dry run of the saved, unchanged script count as the script's.
    await signInAs(page, suite.app, user, `/editor?id=${scriptId}`);
    await expectSignedIn(page, user.name);
    await expect.poll(() => codeEditorLines(page)).toEqual([GREETER]);
    const pane = executionPane(page);
    await mainArea(page).getByRole('button', { name: 'Run in Sandbox', exact: true }).click();
    await expectVisible(pane.status.getByText('Success', { exact: true }));
    await mainArea(page).getByRole('button', { name: 'Dry run', exact: true }).click();
    await expectVisible(pane.target.getByText('Dry run', { exact: true }));
    await expectVisible(pane.status.getByText('Success', { exact: true }));

    // The script on the game with none connected, custom code, and an admin's run on the game.
    const api = (path: string, body: object, token = user.token) => suite.app.call('POST', path, { token, body });
    expect((await api(`/api/scripts/${scriptId}/execute`, {})).body.gameConnected).toBe(false);
    expect((await api('/api/scripts/execute', { code: 'print("custom")', target: 'sandbox' })).body.success).toBe(true);
    const byAdmin = await api(
      `/api/admin/users/${user.user.id}/execute-script`,
      { script: 'print("from the admin")' },
      suite.firstAccount.token,
    );
    expect(byAdmin.body.gameConnected).toBe(false);

    // The dashboard: the saved script's three runs, and what the number counts.
    await sidebarLink(page, 'Dashboard').click();
    await expect.poll(() => statValue(page, 'Total Executions').textContent()).toBe('3');
    const hint = mainArea(page).getByTestId('stat-hint');
    expect(await hint.innerText()).toBe(
      'Runs of your saved scripts, all time. Every run, custom code included, is on the Runs page.',
    );
    // A run made elsewhere (another tab, a schedule) reaches the open dashboard on its own.
    expect((await api(`/api/scripts/${scriptId}/execute`, { target: 'sandbox' })).body.success).toBe(true);
    await expect.poll(() => statValue(page, 'Total Executions').textContent()).toBe('4');
    await statValue(page, 'Total Executions').scrollIntoViewIfNeeded();
    await screenshot(page, 'run-counts-dashboard');

    // My Scripts: the same count in the script's row.
    await sidebarLink(page, 'My Scripts').click();
    const executions = scriptRow(page, 'Greeter').getByRole('cell').nth(3);
    await expect.poll(() => executions.innerText()).toBe('4');
    expect(
      await mainArea(page).getByRole('columnheader', { name: 'Executions', exact: true }).getAttribute('title'),
    ).toBe('Runs of this script, all time, on any target');
    await screenshot(page, 'run-counts-my-scripts');

    // Analytics: six runs, four of them Greeter's; the ring's middle and its legend add up.
    await sidebarLink(page, 'Analytics').click();
    await expect.poll(() => analyticsStat(page, 'Total Executions').innerText()).toBe('6');
    expect(await analyticsStat(page, 'Success Rate').innerText()).toBe('66.7%');
    const outcomes = region(page, 'Success rate').getByRole('list', { name: 'Outcomes' });
    await expect
      .poll(() => outcomes.getByRole('listitem').allInnerTexts())
      .toEqual(['Succeeded 4 (66.7%)', 'No game connected 2 (33.3%)']);
    expect(await region(page, 'Success rate').getByTestId('success-rate-middle').textContent()).toBe('66.7%succeeded');
    const busiest = region(page, 'Busiest scripts').getByTestId('busiest-scripts');
    // The bars' names, then their values, busiest first.
    await expect.poll(() => busiest.innerText()).toBe('Greeter\nCustom code\n4\n2');
    await screenshot(page, 'run-counts-analytics');

    // Runs: the same six, four of them Greeter's.
    await sidebarLink(page, 'Runs').click();
    await expect.poll(() => runRows(page).count()).toBe(6);
    expect(await runRows(page).filter({ hasText: 'Greeter' }).count()).toBe(4);
    expect(await runRows(page).filter({ hasText: 'Not connected' }).count()).toBe(2);
    await screenshot(page, 'run-counts-runs');
  });
});
