import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { seriousAxeProblems } from './support/axe.ts';
import { browserSuite } from './support/suite.ts';
import { mainArea } from './support/ui.ts';

const region = (page: Page, name: string) => mainArea(page).getByRole('region', { name, exact: true });
const integration = (page: Page) => region(page, 'Game Integration');
const steps = (page: Page) => region(page, 'Game Connection').getByTestId('connect-steps');
const guideLink = (page: Page) => integration(page).getByRole('link', { name: /How to connect a real game/ });

/** How far the page reaches past the window's right edge, in CSS pixels (0 when it fits). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Whether any text of the notice is cut off: a box narrower than what it holds, with its overflow hidden. */
const clippedInside = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((notice) =>
    [notice, ...notice.querySelectorAll('*')]
      .filter((element) => {
        const style = getComputedStyle(element);
        return style.overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1;
      })
      .map((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').slice(0, 40)}"`),
  );

/** Chromium logs the integration-scripts call's 400 (a host not served) as a console error. */
const HOST_NOT_SERVED_400 = /status of 400 \(Bad Request\) \[[^\]]*\/api\/game\/integration-scripts/;

describe('connecting a real game: the dashboard opened at this machine', () => {
  // 127.0.0.1, with no PUBLIC_URL: exactly what a new install serves its scripts at.
  const suite = browserSuite();

  it.each([
    { width: 1280, height: 900, shot: 'connect-game-unreachable-desktop' },
    { width: 390, height: 844, shot: 'connect-game-unreachable-phone' },
  ])(
    'tells the admin beside the scripts that Roblox cannot reach them, with the guide a Tab away ($width px)',
    async ({ width, height, shot }) => {
      const page = await suite.browser.newPage();
      await page.setViewportSize({ width, height });
      await signInAs(page, suite.app, suite.firstAccount);
      const notice = integration(page).getByTestId('reachability-notice');
      await expectVisible(notice.getByText('Games on Roblox cannot reach these scripts', { exact: true }));
      const host = new URL(suite.app.url).host;
      expect(await notice.innerText()).toContain(`which cannot reach ${host}: 127.0.0.1 is a loopback address`);
      expect(await notice.innerText()).toContain('Set PUBLIC_URL to the public https address');
      // The scripts stay beside it.
      await expectVisible(region(page, 'Quick Loader'));

      // The steps name both Roblox settings, and send people to a public address first.
      const listed = await steps(page).getByRole('listitem').allInnerTexts();
      expect(listed).toHaveLength(4);
      expect(listed[0]).toContain('turn on Allow HTTP Requests');
      expect(listed[1]).toContain('tick LoadStringEnabled');
      expect(listed[2]).toMatch(/^Give Moonrelay a public address/);

      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      expect(await clippedInside(page, 'reachability-notice')).toEqual([]);
      expect(await seriousAxeProblems(page, '[data-testid="reachability-notice"]')).toEqual([]);
      await screenshot(page, shot);

      // By keyboard: from the notice's text, Tab lands on the guide's link, and Enter opens the guide.
      await notice.getByText('Games on Roblox cannot reach these scripts', { exact: true }).click();
      await page.keyboard.press('Tab');
      await expect.poll(() => guideLink(page).evaluate((link) => link === document.activeElement)).toBe(true);
      const [guide] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Enter')]);
      await guide.waitForLoadState();
      expect(await guide.locator('body').innerText()).toContain('# Connect a real game');
      expect(await guide.locator('body').innerText()).toContain('LoadStringEnabled');
      await guide.close();
    },
  );

  it('tells a member whom to ask, with no setting they cannot change', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const member = await createUser(suite.app);
    await signInAs(page, suite.app, member);
    const notice = integration(page).getByTestId('reachability-notice');
    await expectVisible(notice.getByText('Ask the operator of this Moonrelay to set its public address.'));
    expect(await notice.innerText()).not.toContain('PUBLIC_URL');
    expect(await guideLink(page).count()).toBe(0);
    expect(await seriousAxeProblems(page, '[data-testid="reachability-notice"]')).toEqual([]);
    await screenshot(page, 'connect-game-unreachable-member-phone');
  });
});

describe('connecting a real game: the dashboard opened at a host it does not serve', () => {
  // Opened at 127.0.0.1, which PUBLIC_HOSTS does not list here: as at a LAN address or a new domain.
  const suite = browserSuite(async () => ({ PUBLIC_HOSTS: 'localhost' }));

  it('explains PUBLIC_URL and PUBLIC_HOSTS to the admin, and shows no scripts', async () => {
    suite.browser.allowConsoleErrors(HOST_NOT_SERVED_400);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, suite.app, suite.firstAccount);
    const notice = integration(page).getByTestId('host-not-served');
    await expectVisible(notice.getByText('Scripts are not shown at this address', { exact: true }));
    const text = await notice.innerText();
    expect(text).toContain(`This dashboard was opened at ${new URL(suite.app.url).host}.`);
    expect(text).toContain('PUBLIC_HOSTS');
    expect(text).toContain('Set PUBLIC_URL');
    await expectVisible(guideLink(page));
    expect(await region(page, 'Quick Loader').count()).toBe(0);
    const paste = (await steps(page).getByRole('listitem').allInnerTexts())[2]!;
    expect(paste).toMatch(/^Set Moonrelay’s public address \(see Game Integration below\)/);
    expect(await clippedInside(page, 'host-not-served')).toEqual([]);
    expect(await seriousAxeProblems(page, '[data-testid="host-not-served"]')).toEqual([]);
    await screenshot(page, 'connect-game-host-not-served-admin');
  });

  it('shows a member only whom to ask: no configuration error, no step to paste what is not shown', async () => {
    suite.browser.allowConsoleErrors(HOST_NOT_SERVED_400);
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const member = await createUser(suite.app);
    await signInAs(page, suite.app, member);
    const notice = integration(page).getByTestId('host-not-served');
    await expectVisible(notice.getByText('Ask the operator of this Moonrelay to set its public address.'));
    const onScreen = await mainArea(page).innerText();
    expect(onScreen).not.toMatch(/PUBLIC_URL|PUBLIC_HOSTS/);
    expect(onScreen).not.toContain('(below)');
    expect((await steps(page).getByRole('listitem').allInnerTexts())[2]).toMatch(
      /^Ask the operator of this Moonrelay to set its public address/,
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeProblems(page, '[data-testid="host-not-served"]')).toEqual([]);
    await screenshot(page, 'connect-game-host-not-served-member-phone');
  });
});
