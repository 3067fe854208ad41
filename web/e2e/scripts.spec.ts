import type { Dialog, Page, Request } from 'playwright-core';
import { browserSuite } from './support/suite.ts';
import { describe, expect, it } from 'vitest';
import type { CreateScriptRequest, Script } from '@moonrelay/contract/scripts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';

import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import {
  alertDialogNamed,
  expectSignedIn,
  expectToast,
  mainArea,
  scriptRow,
  scriptRows,
  statValue,
  toast,
} from './support/ui.ts';

const NO_SCRIPTS = 'No scripts yet. Create your first script to get started.';
const NO_MATCH = 'No scripts match your search criteria.';
const DELETE_CONFIRMATION = '“Speed Boost” will be deleted. This cannot be undone.';

/** Three scripts, created oldest first; the list (newest first) shows them in the reverse order. */
const SCRIPTS: CreateScriptRequest[] = [
  { name: 'Teleport Home', description: null, code: 'print("home")', isAutoExecute: false },
  { name: 'Speed Boost', description: 'Run twice as fast', code: 'print("fast")', isAutoExecute: false },
  { name: 'Fly Hack', description: 'Lets you fly', code: 'print("fly")', isAutoExecute: true },
];
const NEWEST_FIRST = SCRIPTS.map((script) => script.name).reverse();

const suite = browserSuite();

async function createScript(user: TestUser, script: CreateScriptRequest): Promise<Script> {
  const result = await suite.app.call('POST', '/api/scripts', { token: user.token, body: script });
  if (result.status !== 201 && result.status !== 200) {
    throw new Error(`create script failed: ${result.status} ${result.text}`);
  }
  return result.body as Script;
}

/** A fresh user with the three scripts above. */
async function userWithScripts(): Promise<TestUser> {
  const user = await createUser(suite.app);
  // One at a time and a few milliseconds apart, so that their update times (and so the list
  // order, newest first) are distinct and known.
  for (const script of SCRIPTS) {
    await createScript(user, script);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return user;
}

async function scriptsOf(user: TestUser): Promise<Script[]> {
  const result = await suite.app.call('GET', '/api/scripts', { token: user.token });
  expect(result.status).toBe(200);
  return result.body as Script[];
}

/** The names in the table's rows, top to bottom (the empty-state row, one wide cell, has none). */
const rowNames = (page: Page) =>
  scriptRows(page).evaluateAll((rows) =>
    rows.filter((row) => row.querySelectorAll('td').length > 1).map((row) => row.querySelector('p')?.textContent ?? ''),
  );

const title = (page: Page, count: number) =>
  mainArea(page).getByRole('heading', { name: `My Scripts (${count})`, exact: true });

const searchBox = (page: Page) => mainArea(page).getByPlaceholder('Search scripts...', { exact: true });
const typeFilter = (page: Page) => mainArea(page).getByLabel('Filter scripts by type', { exact: true });
const rowAction = (page: Page, name: string, action: string) =>
  scriptRow(page, name).getByRole('button', { name: action, exact: true });

/** Opens My Scripts and waits for the list. */
async function openMyScripts(page: Page, user: TestUser, count: number) {
  await signInAs(page, suite.app, user, '/scripts');
  await expectSignedIn(page, user.name);
  await expectVisible(title(page, count));
}

function recordCalls(page: Page, method: string, path: RegExp): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && path.test(new URL(request.url()).pathname)) calls.push(request);
  });
  return calls;
}

describe('my scripts', () => {
  it('lists the scripts with their count; the search narrows the rows by name or description', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const user = await userWithScripts();
    await openMyScripts(page, user, 3);
    await expect.poll(() => rowNames(page)).toEqual(NEWEST_FIRST);
    // A desktop window shows the table whole: it does not scroll sideways, so it is no tab stop.
    const area = mainArea(page).getByRole('region', { name: 'Scripts', exact: true });
    expect(await area.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await area.getAttribute('tabindex')).toBeNull();
    for (const column of ['Name', 'Type', 'Last Modified', 'Executions', 'Actions']) {
      await expectVisible(mainArea(page).getByRole('columnheader', { name: column, exact: true }));
    }
    // Each row: description (or 'No description'), type badge and the four actions.
    const fly = scriptRow(page, 'Fly Hack');
    await expectVisible(fly.getByText('Lets you fly', { exact: true }));
    await expectVisible(fly.getByText('Auto-Execute', { exact: true }));
    await expectVisible(scriptRow(page, 'Teleport Home').getByText('No description', { exact: true }));
    await expectVisible(scriptRow(page, 'Teleport Home').getByText('Manual', { exact: true }));
    const speedId = (await scriptsOf(user)).find((script) => script.name === 'Speed Boost')?.id as string;
    const edit = scriptRow(page, 'Speed Boost').getByRole('link', { name: 'Edit', exact: true });
    expect(await edit.getAttribute('href')).toBe(`/editor?id=${speedId}`);
    for (const action of ['Execute', 'Duplicate', 'Delete'])
      await expectVisible(rowAction(page, 'Speed Boost', action));
    await screenshot(page, 'my-scripts');

    // By name, in any case.
    await searchBox(page).pressSequentially('BOOST');
    await expect.poll(() => rowNames(page)).toEqual(['Speed Boost']);
    // By description.
    await searchBox(page).fill('');
    await searchBox(page).pressSequentially('twice');
    await expect.poll(() => rowNames(page)).toEqual(['Speed Boost']);
    await searchBox(page).fill('');
    await searchBox(page).pressSequentially('fly');
    await expect.poll(() => rowNames(page)).toEqual(['Fly Hack']);

    // Nothing matches.
    await searchBox(page).fill('');
    await searchBox(page).pressSequentially('zzz-nothing-here');
    await expectVisible(mainArea(page).getByText(NO_MATCH, { exact: true }));
    expect(await rowNames(page)).toEqual([]);
    // The title still counts every script.
    await expectVisible(title(page, 3));

    await searchBox(page).fill('');
    await expect.poll(() => rowNames(page)).toEqual(NEWEST_FIRST);
    await expectHidden(mainArea(page).getByText(NO_MATCH, { exact: true }));
  });

  it('the type filter shows only Auto-Execute or only Manual scripts', async () => {
    const page = await suite.browser.newPage();
    const user = await userWithScripts();
    await openMyScripts(page, user, 3);
    await expect.poll(() => rowNames(page)).toEqual(NEWEST_FIRST);
    expect(
      await typeFilter(page)
        .locator('option')
        .evaluateAll((options) => options.map((option) => option.textContent)),
    ).toEqual(['All Scripts', 'Auto-Execute', 'Manual']);

    await typeFilter(page).selectOption({ label: 'Auto-Execute' });
    await expect.poll(() => rowNames(page)).toEqual(['Fly Hack']);
    await typeFilter(page).selectOption({ label: 'Manual' });
    await expect.poll(() => rowNames(page)).toEqual(['Speed Boost', 'Teleport Home']);

    // Filter and search together.
    await searchBox(page).pressSequentially('fly');
    await expectVisible(mainArea(page).getByText(NO_MATCH, { exact: true }));
    await typeFilter(page).selectOption({ label: 'Auto-Execute' });
    await expect.poll(() => rowNames(page)).toEqual(['Fly Hack']);

    await searchBox(page).fill('');
    await typeFilter(page).selectOption({ label: 'All Scripts' });
    await expect.poll(() => rowNames(page)).toEqual(NEWEST_FIRST);
  });

  it("Duplicate adds a manual '{name} (Copy)' of the script", async () => {
    const page = await suite.browser.newPage();
    const user = await userWithScripts();
    await openMyScripts(page, user, 3);
    await rowAction(page, 'Fly Hack', 'Duplicate').click();

    await expectToast(page, 'Script Duplicated', 'Created "Fly Hack (Copy)".');
    await expectVisible(title(page, 4));
    const copyRow = scriptRow(page, 'Fly Hack (Copy)');
    await expectVisible(copyRow);
    // The copy of an auto-execute script is manual (spec section 9).
    await expectVisible(copyRow.getByText('Manual', { exact: true }));
    await expectVisible(copyRow.getByText('Lets you fly', { exact: true }));
    // The original is untouched.
    await expectVisible(scriptRow(page, 'Fly Hack').getByText('Auto-Execute', { exact: true }));

    const scripts = await scriptsOf(user);
    expect(scripts).toHaveLength(4);
    const copy = scripts.find((script) => script.name === 'Fly Hack (Copy)');
    const original = scripts.find((script) => script.name === 'Fly Hack');
    expect(copy).toMatchObject({ description: 'Lets you fly', code: 'print("fly")', isAutoExecute: false });
    expect(copy?.id).not.toBe(original?.id);
    expect(original).toMatchObject({ isAutoExecute: true });
  });

  it('Delete asks in a dialog: cancelling keeps the script, confirming deletes it', async () => {
    const page = await suite.browser.newPage();
    const deletions = recordCalls(page, 'DELETE', /^\/api\/scripts\//);
    const user = await userWithScripts();
    const speed = (await scriptsOf(user)).find((script) => script.name === 'Speed Boost') as Script;
    await openMyScripts(page, user, 3);
    // The browser's own confirm() is never used.
    const browserDialogs: string[] = [];
    page.on('dialog', (dialog: Dialog) => {
      browserDialogs.push(dialog.message());
      void dialog.dismiss();
    });

    // Cancelled: nothing is sent, the row stays.
    await rowAction(page, 'Speed Boost', 'Delete').click();
    let dialog = alertDialogNamed(page, 'Delete script?');
    await expectVisible(dialog.getByText(DELETE_CONFIRMATION, { exact: true }));
    await screenshot(page, 'scripts-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expectHidden(dialog);
    await expectVisible(scriptRow(page, 'Speed Boost'));
    await expectVisible(title(page, 3));
    expect(deletions).toHaveLength(0);
    await expectHidden(toast(page));
    expect((await scriptsOf(user)).map((script) => script.name)).toContain('Speed Boost');

    // Confirmed: the row goes and the API no longer has the script.
    await rowAction(page, 'Speed Boost', 'Delete').click();
    dialog = alertDialogNamed(page, 'Delete script?');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Script Deleted', '"Speed Boost" was deleted.');
    await expectHidden(dialog);
    await expectHidden(scriptRow(page, 'Speed Boost'));
    await expectVisible(title(page, 2));
    await expect.poll(() => rowNames(page)).toEqual(['Fly Hack', 'Teleport Home']);
    expect(deletions.map((request) => new URL(request.url()).pathname)).toEqual([`/api/scripts/${speed.id}`]);
    expect((await scriptsOf(user)).map((script) => script.name).sort()).toEqual(['Fly Hack', 'Teleport Home']);
    expect(browserDialogs).toEqual([]);
  });

  it('a user without scripts sees the empty texts on My Scripts and the dashboard', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await openMyScripts(page, user, 0);
    await expectVisible(mainArea(page).getByText(NO_SCRIPTS, { exact: true }));
    expect(await rowNames(page)).toEqual([]);
    // A search over no scripts still says there are none.
    await searchBox(page).pressSequentially('anything');
    await expectVisible(mainArea(page).getByText(NO_SCRIPTS, { exact: true }));

    // New Script opens the editor.
    await mainArea(page).getByRole('link', { name: 'New Script', exact: true }).click();
    await expectPath(page, '/editor');

    await page.goto(suite.app.url + '/dashboard');
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
    await expectVisible(mainArea(page).getByText(NO_SCRIPTS, { exact: true }));
    for (const label of ['Total Scripts', 'Total Executions', 'Auto-Execute']) {
      await expect.poll(() => statValue(page, label).textContent(), { message: label }).toBe('0');
    }
  });

  it('the dashboard shows the script stats and at most 3 recent scripts, newest first', async () => {
    const page = await suite.browser.newPage();
    const user = await userWithScripts();
    await signInAs(page, suite.app, user, '/dashboard');
    await expectSignedIn(page, user.name);
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Dashboard', exact: true }));
    await expectVisible(mainArea(page).getByText('Manage your Lua scripts and API access', { exact: true }));

    await expect.poll(() => statValue(page, 'Total Scripts').textContent()).toBe('3');
    expect(await statValue(page, 'Total Executions').textContent()).toBe('0');
    expect(await statValue(page, 'Auto-Execute').textContent()).toBe('1');

    // The Recent Scripts card's own list (the executor panel below lists the scripts too).
    const recent = mainArea(page).getByRole('region', { name: 'Recent Scripts' }).getByRole('listitem');
    const recentNames = () => recent.evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent));
    await expect.poll(recentNames).toEqual(NEWEST_FIRST);
    const fly = recent.filter({ hasText: 'Fly Hack' });
    await expectVisible(fly.getByText('Auto-Execute', { exact: true }));
    await expectVisible(fly.getByText('Lets you fly', { exact: true }));
    await expectVisible(recent.filter({ hasText: 'Teleport Home' }).getByText('No description', { exact: true }));
    const flyId = (await scriptsOf(user)).find((script) => script.name === 'Fly Hack')?.id as string;
    expect(await fly.getByRole('link', { name: 'Edit', exact: true }).getAttribute('href')).toBe(`/editor?id=${flyId}`);
    await screenshot(page, 'dashboard-with-scripts');

    // The executor's 200px list shows its three rows whole, none cut at the area's edge.
    const executorList = mainArea(page).getByTestId('executor-scripts');
    await expect.poll(() => executorList.getByRole('listitem').count()).toBe(3);
    const area = (await executorList.boundingBox())!;
    for (const row of await executorList.getByRole('listitem').all()) {
      const box = (await row.boundingBox())!;
      expect(box.y + box.height, `${await row.innerText()} ends inside the list`).toBeLessThanOrEqual(
        area.y + area.height + 0.5,
      );
    }

    // A fourth script: the stats count it, the card still shows only the 3 newest.
    await createScript(user, {
      name: 'Noclip',
      description: 'Walk through walls',
      code: 'print(1)',
      isAutoExecute: true,
    });
    await page.reload();
    await expect.poll(() => statValue(page, 'Total Scripts').textContent()).toBe('4');
    expect(await statValue(page, 'Auto-Execute').textContent()).toBe('2');
    await expect.poll(recentNames).toEqual(['Noclip', 'Fly Hack', 'Speed Boost']);

    await mainArea(page).getByRole('link', { name: 'View all' }).click();
    await expectPath(page, '/scripts');
    await expectVisible(title(page, 4));
  });
});
