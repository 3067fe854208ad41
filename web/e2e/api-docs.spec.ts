import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { COPY_FEEDBACK_MS } from '@moonrelay/contract/constants';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { expectSignedIn, expectToast, mainArea, sidebarLink } from './support/ui.ts';

const run = promisify(execFile);
const suite = browserSuite();

const endpointCard = (page: Page, title: string) => mainArea(page).getByRole('article', { name: title, exact: true });
const docsTab = (page: Page, label: string) =>
  mainArea(page).getByRole('tab', { name: new RegExp(`^${label}\\s*\\d+$`) });
const chartRegion = (page: Page, name: string) => mainArea(page).getByRole('region', { name, exact: true });

/** Known traffic, so the analytics have something to draw: script runs that succeed and fail, and API calls. */
async function makeTraffic(user: TestUser): Promise<void> {
  const key = user.user.apiKey!;
  const call = (method: string, path: string, body?: unknown) =>
    suite.app.call(method, path, { token: key, ...(body ? { body } : {}) });
  const hello = (await call('POST', '/api/scripts', { name: 'Hello World', code: 'print("hello")' })).body.id;
  const broken = (await call('POST', '/api/scripts', { name: 'Broken Tool', code: 'error("boom")' })).body.id;
  for (let i = 0; i < 4; i++) await call('POST', `/api/scripts/${hello}/execute`, { target: 'sandbox' });
  await call('POST', `/api/scripts/${broken}/execute`, { target: 'sandbox' });
  await call('POST', '/api/scripts/execute', { code: 'print(1)', target: 'sandbox' });
  for (let i = 0; i < 3; i++) await call('GET', '/api/scripts');
  for (let i = 0; i < 5; i++) await suite.app.call('POST', '/api/game/ping', { body: { key, serverId: 'studio' } });
}

describe('API docs and analytics', () => {
  it('shows the API docs from the live description, switches tabs, and copies an example that works', async () => {
    const page = await suite.browser.newPage();
    await suite.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.app.url });
    const user = await createUser(suite.app);
    const key = user.user.apiKey!;
    await suite.app.call('POST', '/api/scripts', { token: key, body: { name: 'Docs Script', code: 'print(1)' } });
    await signInAs(page, suite.app, user, '/api-docs');
    await expectSignedIn(page, user.name);

    await expectVisible(mainArea(page).getByRole('heading', { name: 'API Documentation', exact: true }));
    await expectVisible(mainArea(page).getByText('v1.0.0', { exact: true }));
    await expectVisible(mainArea(page).getByRole('region', { name: 'Your API Key' }).getByText(key, { exact: true }));
    await expectVisible(
      mainArea(page).getByRole('region', { name: 'Base URL' }).getByText(`${suite.app.url}/api`, { exact: true }),
    );
    // Scripts is the default tab.
    expect(await docsTab(page, 'Scripts').getAttribute('aria-selected')).toBe('true');
    const listScripts = endpointCard(page, 'GET /api/scripts');
    await expectVisible(listScripts);
    await expectVisible(listScripts.getByText('Auth Required'));
    await expectVisible(endpointCard(page, 'POST /api/scripts/{id}/execute'));
    await expectVisible(mainArea(page).getByRole('region', { name: 'About the API' }).getByText('Rate limiting'));
    await screenshot(page, 'api-docs-scripts');

    // Copy the cURL example: a toast, the indicator until it lapses, and a command that runs as it
    // is. (How long the indicator stays is a clock's matter, held by the copy button's component
    // test with a fake clock: a busy machine here would only measure itself.)
    const copy = listScripts.getByRole('button', { name: 'Copy cURL example for GET /api/scripts' });
    await copy.click();
    await expectToast(page, 'Copied to clipboard');
    expect(await copy.getAttribute('data-copied')).toBe('true');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(`curl '${suite.app.url}/api/scripts' \\\n  -H 'Authorization: Bearer ${key}'`);
    await expect.poll(() => copy.getAttribute('data-copied'), { timeout: COPY_FEEDBACK_MS + 2_000 }).toBe('false');
    const { stdout } = await run('sh', ['-c', copied]);
    expect((JSON.parse(stdout) as { name: string }[]).map((script) => script.name)).toEqual(['Docs Script']);

    // The execute call's game-client way: its cURL sends the key in the body, no header, and runs as it is.
    await suite.app.call('POST', '/api/scripts', { token: key, body: { name: 'Hello', code: 'print("hi")' } });
    const execute = endpointCard(page, 'POST /api/scripts/execute');
    const gameClient = 'Game client: a script by name';
    await execute.getByRole('tab', { name: gameClient, exact: true }).click();
    await execute
      .getByRole('button', { name: `Copy cURL example for POST /api/scripts/execute (${gameClient})` })
      .click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('"script": "Hello"');
    const fetchByName = await page.evaluate(() => navigator.clipboard.readText());
    expect(fetchByName).not.toContain('Authorization');
    const fetched = JSON.parse((await run('sh', ['-c', fetchByName])).stdout) as Record<string, unknown>;
    expect(fetched).toMatchObject({ success: true, name: 'Hello', code: 'print("hi")', output: '' });
    await screenshot(page, 'api-docs-execute-game-client');

    // The other tabs.
    await docsTab(page, 'Game').click();
    await expectPath(page, '/api-docs', '?tab=game');
    const ping = endpointCard(page, 'POST /api/game/ping');
    await expectVisible(ping);
    await ping.getByRole('tab', { name: 'JavaScript', exact: true }).click();
    await expectVisible(ping.getByText(`key: '${key}',`, { exact: false }));
    await ping.getByRole('tab', { name: 'Error', exact: true }).click();
    await expectVisible(ping.getByText('"error": "Invalid API key"', { exact: false }));
    await screenshot(page, 'api-docs-game');

    await docsTab(page, 'Auth').click();
    await expectVisible(endpointCard(page, 'POST /api/auth/login'));
    const login = endpointCard(page, 'POST /api/auth/login');
    expect(await login.getByText('Auth Required').count()).toBe(0);
    await login.getByRole('tab', { name: 'Lua', exact: true }).click();
    await expectVisible(login.getByText('HttpService:RequestAsync', { exact: false }));

    await docsTab(page, 'Analytics').click();
    await expectVisible(endpointCard(page, 'GET /api/analytics/usage'));
    await expectVisible(endpointCard(page, 'GET /api/analytics/scripts'));
    await screenshot(page, 'api-docs-analytics');
  });

  it('opens the analytics charts with the user’s own runs and requests', async () => {
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await makeTraffic(user);
    await signInAs(page, suite.app, user, '/dashboard');
    await expectSignedIn(page, user.name);

    await sidebarLink(page, 'Analytics').click();
    await expectPath(page, '/analytics');
    await expectVisible(mainArea(page).getByRole('heading', { name: 'Analytics', exact: true }));
    const stat = (label: string) =>
      mainArea(page)
        .locator('dl')
        .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
        .locator('dd');
    await expect.poll(() => stat('Total Executions').innerText()).toBe('6');
    expect(await stat('Success Rate').innerText()).toBe('83.3%');
    // 2 creates + 5 runs + 1 custom run + 3 lists + 5 pings (the dashboard's own calls may add more).
    expect(Number((await stat('Total Requests').innerText()).replace(/,/g, ''))).toBeGreaterThanOrEqual(16);

    for (const name of ['Executions over time', 'Success rate', 'Request volume']) {
      await expectVisible(chartRegion(page, name).locator('svg.recharts-surface'));
    }
    await expectVisible(chartRegion(page, 'Executions over time').locator('.recharts-bar-rectangle path'));
    await expectVisible(chartRegion(page, 'Success rate').locator('.recharts-pie-sector'));
    await expectVisible(chartRegion(page, 'Busiest scripts').getByText('Hello World', { exact: true }));
    await expectVisible(chartRegion(page, 'Busiest scripts').getByText('Broken Tool', { exact: true }));
    await expectVisible(chartRegion(page, 'Requests by endpoint').getByText('POST /api/game/ping', { exact: true }));
    await expectVisible(
      chartRegion(page, 'Requests by endpoint').getByText('POST /api/scripts/:id/execute', { exact: true }),
    );
    await screenshot(page, 'analytics');

    await mainArea(page).getByText('Last 7 days', { exact: true }).click();
    await expectPath(page, '/analytics', '?period=7d');
    await expect.poll(() => stat('Total Executions').innerText()).toBe('6');
    await expectVisible(chartRegion(page, 'Executions over time').locator('.recharts-bar-rectangle path'));
    await screenshot(page, 'analytics-7d');
  });
});
