import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Script } from '@moonrelay/contract/scripts';
import { ERRORS } from '@moonrelay/contract/messages';
import { CATALOGUE_SCRIPTS, catalogueScript, fakeCatalogue, placeholderPng } from '../../server/test/fake-catalogue.ts';
import { SimulatedGame } from '../../server/test/simulated-game.ts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { SCREENSHOTS_DIR } from './support/paths.ts';
import { expectHidden, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { dialogNamed, expectSignedIn, expectToast, mainArea, sidebarLink } from './support/ui.ts';

// The catalogue is a local stand-in for ScriptBlox; its images are served by the routes below.
const SITE = 'https://scriptblox.test';
const catalogue = fakeCatalogue({ slowMs: 3_000 });
const suite = browserSuite(async () => {
  const base = await catalogue.start();
  return {
    SCRIPTBLOX_API_URL: `${base}/api`,
    SCRIPTBLOX_SITE_URL: SITE,
    SCRIPTBLOX_MIN_INTERVAL_MS: '100',
    SCRIPTBLOX_TIMEOUT_MS: '1000',
  };
});
afterAll(() => catalogue.stop());

/** A signed-in page on the catalogue, with card images answered locally (the CSP allows https images). */
async function openCatalogue(user?: TestUser): Promise<{ page: Page; user: TestUser }> {
  const page = await suite.browser.newPage();
  await page.route(/^https:\/\/(scriptblox\.test|tr\.rbxcdn\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: placeholderPng(route.request().url(), 320, 180) }),
  );
  const who = user ?? (await createUser(suite.app));
  await signInAs(page, suite.app, who);
  await expectSignedIn(page, who.name);
  await sidebarLink(page, 'ScriptBlox').click();
  await expectVisible(mainArea(page).getByRole('heading', { name: 'ScriptBlox', exact: true }));
  return { page, user: who };
}

const card = (page: Page, title: string) => mainArea(page).getByRole('article', { name: title, exact: true });
const cards = (page: Page) => mainArea(page).getByRole('article');
const button = (page: Page, name: string) => mainArea(page).getByRole('button', { name, exact: true });
const pageNumber = (page: Page) => mainArea(page).getByTestId('page-number');
const cardTitles = (page: Page) => cards(page).evaluateAll((all) => all.map((el) => el.getAttribute('aria-label')));

async function search(page: Page, term: string): Promise<void> {
  const box = mainArea(page).getByRole('textbox', { name: 'Search scripts' });
  await box.fill(term);
  await button(page, 'Search').click();
}

async function scriptsOf(user: TestUser): Promise<Script[]> {
  const result = await suite.app.call('GET', '/api/scripts', { token: user.token });
  expect(result.status).toBe(200);
  return result.body as Script[];
}

describe('script catalogue', () => {
  it('browses Home, pages, Trending and Search Results, each card with its details', async () => {
    const { page } = await openCatalogue();
    const hello = card(page, 'Hello Moonrelay');
    await expectVisible(hello);
    expect(await cards(page).count()).toBe(20);
    expect(await hello.getByRole('img', { name: 'Verified' }).count()).toBe(1);
    expect(await hello.getByTestId('views').innerText()).toBe('1.2K');
    expect(await hello.getByText('Blox Fruits', { exact: true }).count()).toBe(1);
    const hub = card(page, 'Mega Hub Long Script');
    for (const badge of ['Patched', 'Key System']) await expectVisible(hub.getByText(badge, { exact: true }));
    const admin = card(page, 'Infinite Yield Admin');
    await expectVisible(admin.getByText('Universal Script', { exact: true }));
    await expectVisible(admin.getByText('Universal', { exact: true }));
    await expectVisible(admin.getByText('Executor only', { exact: true }));
    expect(await admin.getByTestId('views').innerText()).toBe('2.5M');
    // Images: /images/ paths on the catalogue's host, absolute ones as they are; all of them load.
    expect(await hello.getByRole('img', { name: 'Blox Fruits' }).getAttribute('src')).toBe(
      `${SITE}${catalogueScript('Hello Moonrelay').imageUrl}`,
    );
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.querySelectorAll('main article img')]
            .slice(0, 8)
            .every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
        ),
      )
      .toBe(true);
    const credit = mainArea(page).getByRole('link', { name: /ScriptBlox/ });
    expect(await credit.getAttribute('href')).toBe('https://scriptblox.com');
    await expectVisible(mainArea(page).getByText('Powered by', { exact: false }));
    expect(await pageNumber(page).innerText()).toBe('Page 1');
    expect(await button(page, 'Previous').isDisabled()).toBe(true);
    await screenshot(page, 'catalogue-home');

    await button(page, 'Next').click();
    await expect.poll(() => pageNumber(page).innerText()).toBe('Page 2');
    await expectVisible(card(page, CATALOGUE_SCRIPTS[20]!.title));
    await button(page, 'Next').click();
    await expect.poll(() => pageNumber(page).innerText()).toBe('Page 3');
    await expect.poll(() => cards(page).count()).toBe(5);
    expect(await button(page, 'Next').isDisabled()).toBe(true);
    expect(await button(page, 'Previous').isDisabled()).toBe(false);

    // A tab starts at page 1.
    await mainArea(page).getByRole('tab', { name: 'Trending' }).click();
    await expectVisible(card(page, 'Infinite Yield Admin'));
    expect(await pageNumber(page).innerText()).toBe('Page 1');
    expect((await cardTitles(page))[0]).toBe('Infinite Yield Admin');
    expect(await cards(page).count()).toBe(6);
    expect(await button(page, 'Next').isDisabled()).toBe(true);
    await screenshot(page, 'catalogue-trending');

    // A search goes to Search Results, page 1.
    await mainArea(page).getByRole('tab', { name: 'Home' }).click();
    await button(page, 'Next').click();
    await expect.poll(() => pageNumber(page).innerText()).toBe('Page 2');
    await search(page, 'Arsenal');
    await expect
      .poll(() => mainArea(page).getByRole('tab', { name: 'Search Results' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await pageNumber(page).innerText()).toBe('Page 1');
    const arsenal = CATALOGUE_SCRIPTS.filter((script) => script.title.includes('Arsenal')).length;
    await expect.poll(async () => (await cardTitles(page)).length).toBe(arsenal);
    expect((await cardTitles(page)).every((title) => title?.startsWith('Arsenal'))).toBe(true);
    expect(await button(page, 'Next').isDisabled()).toBe(true);
    await screenshot(page, 'catalogue-search');

    await search(page, 'nothing matches this');
    await expectVisible(mainArea(page).getByText('No scripts found.', { exact: true }));
  });

  it('previews a script read-only, with the executor note, and saves it to auto-execute', async () => {
    const { page, user } = await openCatalogue();
    await card(page, 'Infinite Yield Admin').getByRole('button', { name: 'Preview' }).click();
    const dialog = dialogNamed(page, 'Infinite Yield Admin');
    await expectVisible(dialog);
    const note = dialog.getByTestId('executor-note');
    await expectVisible(note);
    expect(await note.innerText()).toContain('game:HttpGet, getgenv, LocalPlayer');
    const code = dialog.getByTestId('catalogue-code');
    await expectVisible(code.locator('.ace_line').first());
    expect((await code.locator('.ace_line').allInnerTexts()).join('\n')).toContain('loadstring(game:HttpGet(');
    await screenshot(page, 'catalogue-preview');
    // The dialog alone, at full size (the page behind it is long).
    await dialog.screenshot({ path: path.join(SCREENSHOTS_DIR, 'catalogue-preview-dialog.png') });
    // Read-only: typing changes nothing.
    await code.locator('.ace_content').click();
    await page.keyboard.type('oops');
    expect((await code.locator('.ace_line').allInnerTexts()).join('\n')).not.toContain('oops');

    await dialog.getByRole('button', { name: 'Save to Auto-Execute' }).click();
    await expectToast(page, 'Script Saved');
    const [saved] = await scriptsOf(user);
    expect(saved).toMatchObject({
      name: 'ScriptBlox: Infinite Yield Admin',
      isAutoExecute: true,
      autoExecuteGames: { all: { enabled: true } },
      code: catalogueScript('Infinite Yield Admin').code,
    });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expectHidden(dialog);
  });

  it('saves a short script as it is and a long one as a loader whose URL answers the code', async () => {
    const { page, user } = await openCatalogue();
    // The preview says how a long script travels.
    await card(page, 'Mega Hub Long Script').getByRole('button', { name: 'Preview' }).click();
    const preview = dialogNamed(page, 'Mega Hub Long Script');
    await expectVisible(preview.getByTestId('loader-note'));
    expect(await preview.getByTestId('executor-note').count()).toBe(0);
    await preview.getByRole('button', { name: 'Close' }).click();
    await expectHidden(preview);
    await card(page, 'Hello Moonrelay').getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Script Saved', '"ScriptBlox: Hello Moonrelay" is in My Scripts.');
    await card(page, 'Mega Hub Long Script').getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Script Saved', '"ScriptBlox: Mega Hub Long Script" is in My Scripts.');

    const scripts = await scriptsOf(user);
    const short = scripts.find((script) => script.name === 'ScriptBlox: Hello Moonrelay')!;
    expect(short).toMatchObject({
      code: 'print("Hello from the catalogue")',
      isAutoExecute: false,
      gameName: 'Blox Fruits',
    });
    const long = scripts.find((script) => script.name === 'ScriptBlox: Mega Hub Long Script')!;
    const loader = /^loadstring\(game:GetService\("HttpService"\):GetAsync\("([^"]+)"\)\)\(\)$/.exec(long.code);
    expect(loader, long.code).not.toBeNull();
    const url = loader![1]!;
    expect(url.startsWith(`${suite.app.url}/api/scripts/load/`)).toBe(true);
    expect(url).not.toContain(user.token);
    // Fetched as a game does, with nothing but the URL.
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(catalogueScript('Mega Hub Long Script').code);

    // Both are in My Scripts.
    await sidebarLink(page, 'My Scripts').click();
    await expectVisible(mainArea(page).getByText('ScriptBlox: Mega Hub Long Script', { exact: true }));
    await expectVisible(mainArea(page).getByText('ScriptBlox: Hello Moonrelay', { exact: true }));
  });

  it('executes: Game Not Connected without a game, Script Executed with the output on a connected one', async () => {
    const { page, user } = await openCatalogue();
    const execute = card(page, 'Hello Moonrelay').getByRole('button', { name: 'Execute' });
    await execute.click();
    await expectToast(page, 'Game Not Connected', ERRORS.gameNotConnectedInstructions);
    await screenshot(page, 'catalogue-not-connected');

    const game = new SimulatedGame({ url: suite.app.url, key: user.user.apiKey!, serverId: 'catalogue-e2e' });
    game.start(500);
    try {
      await expect
        .poll(async () => (await suite.app.call('GET', '/api/game/status', { token: user.token })).body.connected)
        .toBe(true);
      await execute.click();
      await expectToast(page, 'Script Executed', 'Hello from the catalogue');
      expect([...game.ran.values()].some((result) => result.output === 'Hello from the catalogue\n')).toBe(true);
      await screenshot(page, 'catalogue-executed');

      // A long script goes to the game as the one-line loader of a kept copy. (This simulated game
      // runs plain Lua without Roblox's HttpService, so the loader itself fails there; the API suite
      // runs it in an emulated Roblox game.)
      await card(page, 'Mega Hub Long Script').getByRole('button', { name: 'Execute' }).click();
      await expectToast(page, 'Execution Failed');
      const sent = game.received.map((command) => String(command.data.code ?? ''));
      const loader = sent.find((code) => code.startsWith('loadstring(game:GetService("HttpService"):GetAsync("'));
      expect(loader, sent.join('\n')).toBeDefined();
      const url = /GetAsync\("([^"]+)"\)/.exec(loader!)![1]!;
      expect(await (await fetch(url)).text()).toBe(catalogueScript('Mega Hub Long Script').code);
    } finally {
      await game.stop();
    }
  });

  it('says when the catalogue is unavailable, and recovers', async () => {
    const { page } = await openCatalogue();
    await expectVisible(card(page, 'Hello Moonrelay'));
    // The browser logs the failed calls.
    suite.browser.allowConsoleErrors(/status of 502/);
    catalogue.setDown(true);
    try {
      await search(page, 'while it is down');
      const error = mainArea(page).getByTestId('catalogue-error');
      await expectVisible(error);
      expect(await error.innerText()).toContain('Script catalogue unavailable');
      // What was fetched before still shows.
      await mainArea(page).getByRole('tab', { name: 'Home' }).click();
      await expectVisible(card(page, 'Hello Moonrelay'));
      await mainArea(page).getByRole('tab', { name: 'Search Results' }).click();
      await expectVisible(error);
      await screenshot(page, 'catalogue-unavailable');
    } finally {
      catalogue.setDown(false);
    }
    await mainArea(page).getByRole('button', { name: 'Try again' }).click();
    await expectVisible(mainArea(page).getByText('No scripts found.', { exact: true }));
  });
});
