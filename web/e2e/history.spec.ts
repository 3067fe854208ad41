import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Script } from '@moonrelay/contract/scripts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { alertDialogNamed, codeEditorLines, expectSignedIn, expectToast, mainArea } from './support/ui.ts';

const suite = browserSuite();

const FIRST = 'local speed = 16\nprint(speed)';
const SECOND = 'local speed = 50\nprint(speed)';
const THIRD = 'local speed = 50\nprint(speed)\nprint("done")';

async function scriptWithThreeVersions(user: TestUser): Promise<Script> {
  const created = await suite.app.call('POST', '/api/scripts', {
    token: user.token,
    body: { name: 'Speed', code: FIRST },
  });
  for (const code of [SECOND, THIRD]) {
    const saved = await suite.app.call('PUT', `/api/scripts/${created.body.id}`, { token: user.token, body: { code } });
    expect(saved.status).toBe(200);
  }
  return created.body as Script;
}

const historyButton = (page: Page) => mainArea(page).getByRole('button', { name: /^History/ });
// The versions drawn: a long history draws only those in view, with spacer rows for the others.
const versionRows = (page: Page) =>
  mainArea(page).getByRole('table', { name: 'Versions' }).locator('tbody tr:not([aria-hidden])');
const diff = (page: Page) => mainArea(page).getByTestId('version-diff');

describe('script history', () => {
  it('opens the History by keyboard, shows the last change side by side, compares and restores a version', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const user = await createUser(suite.app);
    const script = await scriptWithThreeVersions(user);
    await signInAs(page, suite.app, user, `/editor?id=${script.id}`);
    await expectSignedIn(page, user.name);
    await expect.poll(() => codeEditorLines(page)).toEqual(THIRD.split('\n'));

    // By keyboard: focus the History header and press Enter.
    await historyButton(page).focus();
    await page.keyboard.press('Enter');
    expect(await historyButton(page).getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => versionRows(page).count()).toBe(3);
    expect(await versionRows(page).first().innerText()).toMatch(/Version 3\s+Current/);
    await expectVisible(diff(page));
    expect(await diff(page).getAttribute('aria-label')).toBe('Changes from Version 2 to Version 3');
    await expectVisible(diff(page).getByLabel('added: print("done")', { exact: true }));
    await diff(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'editor-history-desktop');

    // Version 1 against the current one.
    await versionRows(page).nth(2).getByRole('button', { name: 'Compare version 1 with the current version' }).click();
    await expect.poll(() => diff(page).getAttribute('aria-label')).toBe('Changes from Version 1 to Version 3');
    await expectVisible(diff(page).getByLabel('removed: local speed = 16', { exact: true }));

    // Restore version 1: confirmed first, then the editor shows it and the history grows by one.
    await versionRows(page).nth(2).getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = alertDialogNamed(page, 'Restore version 1?');
    await expectVisible(dialog);
    await screenshot(page, 'editor-history-restore-dialog');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await expectToast(page, 'Version restored', 'Version 1 is now Version 4.');
    await expectHidden(dialog);
    await expect.poll(() => codeEditorLines(page)).toEqual(FIRST.split('\n'));
    await expect.poll(() => versionRows(page).count()).toBe(4);
    expect(await versionRows(page).first().innerText()).toContain('restoring version 1');
    const stored = await suite.app.call('GET', `/api/scripts/${script.id}`, { token: user.token });
    expect(stored.body).toMatchObject({ code: FIRST, version: 4 });

    // A run of it names the version it ran.
    const ran = await suite.app.call('POST', `/api/scripts/${script.id}/execute`, {
      token: user.token,
      body: { target: 'sandbox' },
    });
    expect(ran.body.success).toBe(true);
    await page.goto(`${suite.app.url}/runs`);
    await mainArea(page).locator('tbody tr').first().click();
    const detail = page.getByTestId('run-detail');
    await expectVisible(detail.getByRole('link', { name: 'Version 4', exact: true }));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${suite.app.url}/editor?id=${script.id}`);
    await historyButton(page).click();
    await expect.poll(() => versionRows(page).count()).toBe(4);
    // One column on a phone: the old line, then the new one, each marked.
    await expectVisible(diff(page).getByText('Version 3 → Version 4', { exact: true }));
    await expectVisible(diff(page).getByLabel('removed: print("done")', { exact: true }));
    await diff(page).scrollIntoViewIfNeeded();
    await screenshot(page, 'editor-history-phone');
  });
});
