import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { SCREENSHOTS_DIR } from './support/paths.ts';
import { browserSuite } from './support/suite.ts';
import { codeEditor, expectToast, mainArea, sidebar } from './support/ui.ts';

/** Every signed-in screen with the heading it shows (the admin sees them all; My Scripts counts them). */
const SCREENS = [
  { path: '/dashboard', heading: 'Dashboard', shot: 'dashboard' },
  { path: '/editor', heading: 'Script Editor', shot: 'editor' },
  { path: '/scripts', heading: /^My Scripts/, shot: 'scripts' },
  { path: '/runs', heading: 'Runs', shot: 'runs' },
  { path: '/console', heading: 'Console', shot: 'console' },
  { path: '/players', heading: 'Players', shot: 'players' },
  { path: '/scriptblox', heading: 'ScriptBlox', shot: 'scriptblox' },
  { path: '/api-docs', heading: 'API Documentation', shot: 'api-docs' },
  { path: '/analytics', heading: 'Analytics', shot: 'analytics' },
  { path: '/settings', heading: 'Settings', shot: 'settings' },
  { path: '/admin', heading: 'Admin Panel', shot: 'admin' },
];

/** This suite has no stand-in for the script catalogue: its calls answer 502 (catalogue.spec.ts has one). */
const CATALOGUE_UNAVAILABLE = /status of 502 \(Bad Gateway\) \[[^\]]*\/api\/scriptblox\//;

const suite = browserSuite();

/** How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The innermost elements reaching past the window's right edge, to say what overflows. */
const overflowing = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter(
        (element) =>
          ![...element.children].some((child) => child.getBoundingClientRect().right > window.innerWidth + 1),
      )
      .slice(0, 5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').slice(0, 40)}"`,
      ),
  );

const menuButton = (page: Page) => page.getByRole('button', { name: 'Open menu', exact: true });

describe('Moonrelay on a phone (360 px wide)', () => {
  it('no signed-in screen scrolls sideways', async () => {
    suite.browser.allowConsoleErrors(CATALOGUE_UNAVAILABLE);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await signInAs(page, suite.app, suite.firstAccount, '/dashboard');
    for (const screen of SCREENS) {
      await page.goto(suite.app.url + screen.path);
      await expectVisible(
        mainArea(page).getByRole('heading', {
          level: 1,
          name: screen.heading,
          exact: typeof screen.heading === 'string',
        }),
      );
      // The sidebar is folded away behind the menu button.
      await expectVisible(menuButton(page));
      await expectHidden(sidebar(page));
      await expect
        .poll(() => sidewaysOverflow(page), { message: `${screen.path} scrolls sideways` })
        .toBe(0)
        .catch(async (error: Error) => {
          throw new Error(`${error.message}\n${(await overflowing(page)).join('\n')}`);
        });
      await screenshot(page, `phone-${screen.shot}`);
    }
  });

  it('the menu opens and navigates by keyboard, then closes', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await signInAs(page, suite.app, suite.firstAccount, '/dashboard');
    await expectVisible(mainArea(page).getByRole('heading', { level: 1, name: 'Dashboard', exact: true }));

    await menuButton(page).focus();
    await page.keyboard.press('Enter');
    await expectVisible(sidebar(page));
    await screenshot(page, 'phone-menu');
    // Focus moves into the menu; Tab walks its entries.
    const settings = sidebar(page).getByRole('link', { name: 'Settings', exact: true });
    for (let presses = 0; presses < 15; presses += 1) {
      if (await settings.evaluate((link) => link === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expectPath(page, '/settings');
    await expectHidden(sidebar(page));
    await expectVisible(mainArea(page).getByRole('heading', { level: 1, name: 'Settings', exact: true }));

    // Escape closes the menu without navigating.
    await menuButton(page).click();
    await expectVisible(sidebar(page));
    await page.keyboard.press('Escape');
    await expectHidden(sidebar(page));
    await expectPath(page, '/settings');
  });
});

describe('the admin users table on a phone', () => {
  it('scrolls sideways inside its list area, keeping the selection box and the name in view', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 360, height: 780 });
    await signInAs(page, suite.app, suite.firstAccount, '/admin');
    const list = mainArea(page).getByRole('region', { name: 'Users', exact: true });
    const row = list.getByTestId('admin-user-row').filter({ hasText: suite.firstAccount.email });
    await expectVisible(row);
    // The email is on one line, not broken a letter at a time.
    const email = row.getByRole('cell').filter({ hasText: suite.firstAccount.email });
    const lines = await email.evaluate((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    // The table is wider than the area, which scrolls (and so takes focus), not the page.
    expect(await list.evaluate((area) => area.scrollWidth > area.clientWidth)).toBe(true);
    expect(await list.getAttribute('tabindex')).toBe('0');
    expect(await sidewaysOverflow(page)).toBe(0);

    await list.evaluate((area) => area.scrollTo({ left: area.scrollWidth }));
    await expect.poll(() => list.evaluate((area) => area.scrollLeft)).toBeGreaterThan(0);
    const area = (await list.boundingBox())!;
    const name = (await row.getByText(suite.firstAccount.name, { exact: true }).boundingBox())!;
    expect(name.x).toBeGreaterThanOrEqual(area.x);
    expect(name.x).toBeLessThan(area.x + area.width / 2);
    const select = (await row.getByRole('cell').first().boundingBox())!;
    expect(select.x).toBeGreaterThanOrEqual(area.x);
    await screenshot(page, 'phone-admin-users-scrolled');
  });
});

describe('Moonrelay on a desktop (1280 px wide)', () => {
  it('shows the sidebar and no menu button', async () => {
    suite.browser.allowConsoleErrors(CATALOGUE_UNAVAILABLE);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, suite.app, suite.firstAccount, '/dashboard');
    for (const screen of SCREENS.filter((s) =>
      ['dashboard', 'editor', 'scripts', 'settings', 'admin'].includes(s.shot),
    )) {
      await page.goto(suite.app.url + screen.path);
      await expectVisible(
        mainArea(page).getByRole('heading', {
          level: 1,
          name: screen.heading,
          exact: typeof screen.heading === 'string',
        }),
      );
      await expectVisible(sidebar(page));
      await expectHidden(menuButton(page));
      await screenshot(page, `desktop-${screen.shot}`);
    }
  });
});

describe('My Scripts and the editor on a phone (390 px wide)', () => {
  it('shows the scripts as cards, whole, their actions reached by Tab in order', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const user = await createUser(suite.app);
    for (const script of [
      { name: 'Teleport Home', code: 'print("home")' },
      {
        name: 'Speed Boost with a name long enough to need more than one line on a phone',
        description: 'Run twice as fast, jump twice as high, and never fall off the map again, whatever the map',
        code: 'print("fast")',
      },
    ]) {
      expect((await suite.app.call('POST', '/api/scripts', { token: user.token, body: script })).status).toBe(200);
    }
    await signInAs(page, suite.app, user, '/scripts');
    await expectVisible(mainArea(page).getByRole('heading', { level: 1, name: 'My Scripts (2)', exact: true }));

    const cards = mainArea(page).getByRole('list', { name: 'Scripts', exact: true }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(2);
    // No table scrolling sideways inside itself: cards, and the page does not scroll sideways either.
    expect(await mainArea(page).getByRole('table').count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBe(0);
    const width = page.viewportSize()!.width;
    for (const card of await cards.all()) {
      const box = (await card.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // Each action whole inside its card, and big enough to touch.
      for (const action of await card.getByRole('button').or(card.getByRole('link')).all()) {
        const inner = (await action.boundingBox())!;
        expect(inner.x).toBeGreaterThanOrEqual(box.x);
        expect(inner.x + inner.width).toBeLessThanOrEqual(box.x + box.width);
        expect(inner.height).toBeGreaterThanOrEqual(24);
      }
    }
    await screenshot(page, 'phone-my-scripts-cards');

    // Tab walks the first card's actions in their order, then the second card's.
    await cards.first().getByRole('link', { name: 'Edit', exact: true }).focus();
    const reached: string[] = [];
    for (let presses = 0; presses < 5; presses += 1) {
      reached.push(
        await page.evaluate(() => {
          const active = document.activeElement as HTMLElement;
          const card = active.closest('li')?.querySelector('h2')?.textContent ?? '';
          return `${card.split(' ')[0]}: ${active.innerText.trim()}`;
        }),
      );
      await page.keyboard.press('Tab');
    }
    expect(reached).toEqual(['Speed: Edit', 'Speed: Execute', 'Speed: Duplicate', 'Speed: Delete', 'Teleport: Edit']);
    await screenshot(page, 'phone-my-scripts-cards-tab');

    // An action by keyboard: Execute from the card says no game is connected.
    await cards.first().getByRole('button', { name: 'Execute', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Game Not Connected');
  });

  it("the editor's keyboard shortcut hints are hidden on a touch screen", async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, suite.app, await createUser(suite.app), '/editor');
    await expectVisible(mainArea(page).getByRole('heading', { level: 1, name: 'Script Editor', exact: true }));
    await expectVisible(codeEditor(page).locator('.ace_line').first());
    // As narrow with a mouse (a narrow desktop window): the hints are there.
    const hints = mainArea(page).getByTestId('editor-shortcuts');
    await expectVisible(hints);
    const codeTopWithHints = (await codeEditor(page).boundingBox())!.y;
    await screenshot(page, 'phone-editor-mouse');

    // A touch screen, (hover: none) and (pointer: coarse) as on a phone: no hints, and the code
    // moves up into the room they took.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
    // Loaded again under it: a page already drawn on a busy machine once kept its mouse-time media
    // queries for over 10 s; one loaded with touch on reads (hover: none) from the start.
    await page.reload();
    await expectVisible(codeEditor(page).locator('.ace_line').first());
    await hints.waitFor({ state: 'hidden' });
    expect(await hints.evaluate((element) => getComputedStyle(element).display)).toBe('none');
    expect((await codeEditor(page).boundingBox())!.y).toBeLessThan(codeTopWithHints);
    expect(await sidewaysOverflow(page)).toBe(0);
    // Taken through the same session: Playwright's own screenshot re-applies its (mouse) emulation.
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' });
    fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOTS_DIR, 'phone-editor-touch.png'), Buffer.from(data, 'base64'));
  });
});
