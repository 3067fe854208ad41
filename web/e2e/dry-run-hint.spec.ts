import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { executionPane, expectSignedIn, mainArea } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

const suite = browserSuite();

/** Roblox code: the plain sandbox has no Instance, a dry run emulates it. */
const CODE = 'local part = Instance.new("Part")\npart.Parent = workspace\nprint("made", part.Name)';
const HINT = 'Instance is part of Roblox, not plain Lua: Roblox APIs are available in a dry run.';

describe('a sandbox run of Roblox code', () => {
  it("says Roblox APIs are in a dry run, and the output's button dry-runs the same code", async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    const saved = await suite.app.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Make a part', code: CODE },
    });
    expect(saved.status).toBe(200);
    const runs: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/scripts/execute') {
        runs.push(request);
      }
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, suite.app, user, `/editor?id=${saved.body.id}`);
    await expectSignedIn(page, user.name);

    const pane = executionPane(page);
    await mainArea(page).getByRole('button', { name: 'Run in Sandbox', exact: true }).click();
    await expectVisible(pane.status.getByText('Error', { exact: true }));
    await expectVisible(pane.output.getByText("script:1: attempt to index a nil value (global 'Instance')"));
    const hint = mainArea(page).getByTestId('execution-hint');
    await expectVisible(hint.getByText(HINT, { exact: true }));
    const button = hint.getByRole('button', { name: 'Dry run this code', exact: true });
    await button.scrollIntoViewIfNeeded();
    await screenshot(page, 'dry-run-hint-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await button.scrollIntoViewIfNeeded();
    await expectVisible(button);
    await screenshot(page, 'dry-run-hint-390');

    await button.click();
    await expectVisible(pane.target.getByText('Dry run', { exact: true }));
    await expectVisible(pane.status.getByText('Success', { exact: true }));
    await expectVisible(pane.output.getByText('made Part'));
    await expectVisible(mainArea(page).getByTestId('dry-run-summary').getByText('Created: 1 Part', { exact: true }));
    await expect.poll(() => hint.count()).toBe(0);
    const sent = runs.map((request) => request.postDataJSON() as { code: string; target: string });
    expect(sent.map(({ code, target }) => ({ code, target }))).toEqual([
      { code: CODE, target: 'sandbox' },
      { code: CODE, target: 'dry-run' },
    ]);
  });
});
