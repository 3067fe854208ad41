import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SimulatedGame } from '../../server/test/simulated-game.ts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { codeEditorLines, executionPane, expectSignedIn, mainArea, sidebarLink } from './support/ui.ts';

const suite = browserSuite();

// By element, not role: while a run is open the modal drawer hides the page from the accessibility tree.
const runRows = (page: Page) => page.locator('main [data-testid="run-row"]');
const runRow = (page: Page, id: string) => page.locator(`main [data-testid="run-row"][data-run-id="${id}"]`);
const detail = (page: Page) => page.getByTestId('run-detail');

async function execute(user: TestUser, body: Record<string, unknown>, scriptId?: string) {
  const path = scriptId ? `/api/scripts/${scriptId}/execute` : '/api/scripts/execute';
  const result = await suite.app.call('POST', path, { token: user.token, body });
  expect(result.status, result.text).toBe(200);
  return result.body as { executionId: string; success: boolean };
}

describe('runs', () => {
  it('lists runs, shows a game run go from pending to its result live, and opens a run in full', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await createUser(suite.app);
    await signInAs(page, suite.app, user, '/runs');
    await expectSignedIn(page, user.name);
    await expectVisible(
      mainArea(page).getByText(
        'No runs yet. Run a script from the editor, My Scripts or the dashboard and it shows up here.',
      ),
    );
    expect(await sidebarLink(page, 'Runs').getAttribute('aria-current')).toBe('page');

    const script = await suite.app.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Greeter', code: 'print("hello from Greeter")' },
    });
    await execute(user, { target: 'sandbox' }, script.body.id);
    await execute(user, { target: 'dry-run' }, script.body.id);
    await execute(user, { code: 'print("partial")\nerror("it broke", 0)', target: 'sandbox' });
    await execute(user, { code: 'for i = 1, 200 do print(string.rep("x", 1000)) end', target: 'sandbox' });
    // Recorded while the page is open: they arrive over the socket, newest first.
    await expect.poll(() => runRows(page).count(), { timeout: 10_000 }).toBe(4);
    expect(await runRows(page).first().getByTestId('run-status').innerText()).toBe('Stopped: output limit');

    // A game run: pending while the game has not answered, then its result, in the same row.
    const game = new SimulatedGame({ url: suite.app.url, key: user.user.apiKey!, serverId: 'e2e-runs-server' });
    await game.ping();
    const call = execute(user, { code: 'print("hello from the game")', serverId: 'e2e-runs-server' });
    await expect.poll(() => runRows(page).count(), { timeout: 10_000 }).toBe(5);
    const gameRow = runRows(page).first();
    const gameRunId = (await gameRow.getAttribute('data-run-id'))!;
    await expect.poll(() => gameRow.getByTestId('run-status').innerText(), { timeout: 5_000 }).toBe('Pending');
    expect(await gameRow.innerText()).toContain('e2e-runs…');
    await screenshot(page, 'runs-pending-desktop');
    await game.ping();
    await game.ping();
    await expect
      .poll(() => runRow(page, gameRunId).getByTestId('run-status').innerText(), { timeout: 10_000 })
      .toBe('Succeeded');
    expect((await call).executionId).toBe(gameRunId);
    expect(await runRows(page).count()).toBe(5);
    await screenshot(page, 'runs-desktop');

    // The game run in full: where it ran, its output and its code.
    await runRow(page, gameRunId).click();
    await expectPath(page, '/runs', `?id=${gameRunId}`);
    await expectVisible(detail(page).getByText('Custom code', { exact: true }));
    await expectVisible(detail(page).getByText('e2e-runs-server', { exact: true }));
    await expect
      .poll(() => detail(page).getByTestId('execution-output').innerText(), { timeout: 5_000 })
      .toBe('hello from the game\n');
    await expectVisible(detail(page).getByTestId('run-code').getByText('print("hello from the game")'));
    await screenshot(page, 'runs-detail-desktop');

    await page.keyboard.press('Escape');
    await expectPath(page, '/runs', '');
    await expectHidden(detail(page));

    // The same page on a phone: the menu is behind a button, the run opens over the whole screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(page.getByRole('button', { name: 'Open menu' }));
    await screenshot(page, 'runs-mobile');
    await runRow(page, gameRunId).click();
    await expectVisible(detail(page).getByTestId('run-code').getByText('print("hello from the game")'));
    await screenshot(page, 'runs-detail-mobile');
    await page.keyboard.press('Escape');
    await expectHidden(detail(page));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expectVisible(sidebarLink(page, 'Runs'));
    await screenshot(page, 'runs-menu-mobile');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Filters: the failed runs only (a run a limit ended is failed too), then the script's.
    await mainArea(page).getByLabel('Filter runs by status').selectOption('failed');
    await expect.poll(() => runRows(page).count(), { timeout: 5_000 }).toBe(2);
    await mainArea(page).getByLabel('Filter runs by status').selectOption('');
    await mainArea(page).getByLabel('Filter runs by script').selectOption({ label: 'Greeter' });
    await expect.poll(() => runRows(page).count(), { timeout: 5_000 }).toBe(2);
    expect(new URL(page.url()).searchParams.get('script')).toBe(script.body.id);
  }, 90_000);

  it('runs a run again, opens custom code in the editor, and links from the editor’s output to the run', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const user = await createUser(suite.app);
    const first = await execute(user, { code: 'print("again and again")', target: 'sandbox' });
    // Opened by its address, the run shows in front of the page (the drawer is modal).
    await signInAs(page, suite.app, user, `/runs?id=${first.executionId}`);
    await expect
      .poll(() => detail(page).getByTestId('execution-output').innerText(), { timeout: 10_000 })
      .toBe('again and again\n');

    // The new run opens in place of the first.
    await detail(page).getByRole('button', { name: 'Run again' }).click();
    await expect.poll(() => runRows(page).count(), { timeout: 10_000 }).toBe(2);
    const second = (await runRows(page).first().getAttribute('data-run-id'))!;
    expect(second).not.toBe(first.executionId);
    await expectPath(page, '/runs', `?id=${second}`);
    await expectVisible(detail(page).getByText(second, { exact: true }));
    expect(await detail(page).getByTestId('execution-output').innerText()).toBe('again and again\n');

    await detail(page).getByRole('button', { name: 'Open in editor' }).click();
    await expectPath(page, '/editor', '');
    await expect.poll(() => codeEditorLines(page), { timeout: 10_000 }).toEqual(['print("again and again")']);

    // The editor's output links to the run it reports.
    await mainArea(page).getByRole('button', { name: 'Run in Sandbox' }).click();
    await expect.poll(() => executionPane(page).output.innerText(), { timeout: 10_000 }).toBe('again and again\n');
    await mainArea(page).getByRole('link', { name: 'View run' }).click();
    await expectPath(page, '/runs');
    const viewed = new URL(page.url()).searchParams.get('id')!;
    await expect.poll(() => runRows(page).count(), { timeout: 10_000 }).toBe(3);
    expect(await runRows(page).first().getAttribute('data-run-id')).toBe(viewed);
    await expectVisible(detail(page).getByText(viewed, { exact: true }));
  }, 90_000);
});
