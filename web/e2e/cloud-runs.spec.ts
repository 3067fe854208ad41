import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import { fakeOpenCloud } from '../../server/test/fake-open-cloud.ts';
import { createUser, signInAs } from './support/app.ts';
import { seriousAxeProblems } from './support/axe.ts';
import { screenshot } from './support/browser.ts';
import { expectPath, expectVisible } from './support/expect.ts';
import { SCREENSHOTS_DIR } from './support/paths.ts';
import { codeEditorLines, expectSignedIn, expectToast, mainArea, sidebarLink, typeInCodeEditor } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

const roblox = fakeOpenCloud();
const UNIVERSE = '4200000001';
const PLACE = '4200000002';
const KEY = 'rbxoc_cloudRunKey_1234567890abcdefWXYZ';
roblox.addKey(KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
roblox.luau.addPlace(UNIVERSE, PLACE);
// Roblox's 5 creates a minute would make the second run wait; the pacing is the server's to test.
roblox.luau.setLimits({ createsPerMinute: 100 });
roblox.luau.setTiming({ queuedMs: 100, processingMs: 300 });
const suite = browserSuite(async () => ({ ROBLOX_OPEN_CLOUD_URL: await roblox.start(), CLOUD_RUN_POLL_MS: '100' }));
afterAll(() => roblox.stop());

/** Held by the fake until release(): it runs, its lines show, and it does not end. */
const HELD_CODE = [
  '--@fake:hold',
  'print("first line from Roblox")',
  'warn("coins are low")',
  'return 7, { coins = 3 }',
].join('\n');
const FAILING_CODE = ['local coins = 3', 'print("about to fail")', 'error("boom")'].join('\n');

/** The editor's output pane while it shows a cloud run. */
const cloudPane = (page: Page) => {
  const pane = mainArea(page).getByTestId('cloud-run-output');
  return {
    pane,
    state: pane.getByTestId('cloud-state'),
    log: pane.getByRole('log', { name: 'Roblox log' }),
    returnValues: pane.getByTestId('cloud-return-values'),
    error: pane.getByTestId('cloud-error'),
  };
};

describe('cloud runs: code run by Roblox itself', () => {
  it('sets the place in Settings, runs the editor’s code in Roblox live, and shows its result and its error', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const user = await createUser(suite.app, { name: 'Cloudy Cleo' });
    await signInAs(page, suite.app, user, '/editor');
    await expectSignedIn(page, user.name);

    // With no key saved, Run in Roblox says so, as the server would refuse a run, and leads to where it is set.
    const blocked = mainArea(page).getByTestId('run-in-roblox');
    await expectVisible(mainArea(page).getByTestId('cloud-run-note').getByText(CLOUD_RUN_ERRORS.noKey));
    expect(await blocked.isDisabled()).toBe(true);
    await screenshot(page, 'cloud-run-editor-no-key');
    await mainArea(page).getByRole('link', { name: 'Open Settings' }).click();
    await expectPath(page, '/settings');
    const card = mainArea(page).locator('#open-cloud');
    // The card comes into view: it is far down the page.
    await expect
      .poll(async () => {
        const box = await card.boundingBox();
        return box !== null && box.y >= 0 && box.y < 800;
      })
      .toBe(true);

    // Settings: the key, then the place it runs on.
    const keyForm = card.getByRole('form', { name: 'Open Cloud key' });
    await keyForm.getByRole('textbox', { name: 'Universe ID' }).fill(UNIVERSE);
    await keyForm.getByLabel('Open Cloud API key').fill(KEY);
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await expectToast(page, 'Open Cloud key saved');
    const cloudSettings = card.getByTestId('cloud-runs-settings');
    await expectVisible(cloudSettings.getByText(`This key may run code in Roblox (${LUAU_EXECUTION_WRITE}).`));
    // It has no user-restriction scope: no bans are promised.
    await expectVisible(card.getByTestId('open-cloud-bans').getByText(/This key is for cloud runs only/));
    await expectVisible(cloudSettings.getByText('No place set yet: cloud runs need one.'));
    const placeForm = cloudSettings.getByRole('form', { name: 'Cloud run place' });
    await placeForm.getByRole('textbox', { name: 'Place ID' }).fill(PLACE);
    await placeForm.getByRole('button', { name: 'Save place' }).click();
    await expectToast(page, 'Place saved');
    await expectVisible(cloudSettings.getByTestId('cloud-place-current').getByText(PLACE));
    expect(await seriousAxeProblems(page)).toEqual([]);
    // The card alone: the whole Settings page is too long to read the part in.
    await card.screenshot({ path: path.join(SCREENSHOTS_DIR, 'cloud-runs-settings.png'), animations: 'disabled' });

    // The editor names the place; the code holds in Roblox until released.
    await sidebarLink(page, 'Script Editor').click();
    const run = mainArea(page).getByRole('button', { name: `Run in Roblox · place ${PLACE}`, exact: true });
    await expectVisible(run);
    await typeInCodeEditor(page, HELD_CODE);
    await expect.poll(() => codeEditorLines(page)).toEqual(HELD_CODE.split('\n'));
    // By keyboard: the button is a tab stop like the other actions.
    await run.focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Sent to Roblox');

    const { pane, state, log, returnValues, error } = cloudPane(page);
    await expectVisible(log.getByText('first line from Roblox'));
    // Live, before the end: the line shows while Roblox still runs it.
    await expect.poll(() => state.innerText()).toBe('Running in Roblox');
    await expectVisible(log.getByText('coins are low'));
    expect(await log.locator('[data-type=warning]').innerText()).toBe('Warning: coins are low');
    expect(await returnValues.count()).toBe(0);
    await screenshot(page, 'cloud-run-editor-running');

    expect(roblox.luau.release()).toBe(1);
    await expect.poll(() => state.innerText()).toBe('Succeeded');
    await expectVisible(returnValues);
    expect(JSON.parse(await returnValues.innerText())).toEqual([7, { coins: 3 }]);
    await expectVisible(
      pane.getByTestId('cloud-place').getByText(`Place ${PLACE} · newest version · time limit 5 min`),
    );
    await pane.scrollIntoViewIfNeeded();
    await screenshot(page, 'cloud-run-editor-1280');
    expect(await seriousAxeProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await pane.scrollIntoViewIfNeeded();
    await expectVisible(returnValues);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'cloud-run-editor-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    // A script that fails: Roblox's error code, and its message naming the line.
    await typeInCodeEditor(page, FAILING_CODE);
    await expect.poll(() => codeEditorLines(page)).toEqual(FAILING_CODE.split('\n'));
    await run.click();
    await expect.poll(() => state.innerText()).toBe('Failed');
    await expectVisible(error.getByText('SCRIPT_ERROR', { exact: true }));
    await expectVisible(error.getByText('TaskScript:3: boom'));
    await expectVisible(log.getByText('about to fail'));
    expect(await log.locator('[data-type=error]').innerText()).toBe('Error: TaskScript:3: boom');

    // Its run on the Runs page: the cloud part as the detail shows it.
    await pane.getByRole('link', { name: 'View run' }).click();
    await expectPath(page, '/runs');
    const detail = page.getByTestId('run-detail');
    const part = detail.getByTestId('cloud-run');
    await expectVisible(detail.getByTestId('run-status').getByText('Failed', { exact: true }));
    await expectVisible(part.getByTestId('cloud-place').getByText(PLACE));
    await expectVisible(part.getByTestId('cloud-error').getByText('TaskScript:3: boom'));
    await expectVisible(part.getByRole('log', { name: 'Roblox log' }).getByText('about to fail'));
    await screenshot(page, 'cloud-run-detail-1280');
    expect(await seriousAxeProblems(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectVisible(part.getByTestId('cloud-error'));
    await screenshot(page, 'cloud-run-detail-390');
    await page.keyboard.press('Escape');

    // Both runs are listed under the target Roblox.
    await page.setViewportSize({ width: 1280, height: 800 });
    await mainArea(page).getByLabel('Filter runs by target').selectOption('cloud');
    const rows = mainArea(page).getByTestId('run-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => rows.getByTestId('run-status').allInnerTexts()).toEqual(['Failed', 'Succeeded']);
  }, 90_000);
});
