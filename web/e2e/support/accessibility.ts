import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCatalogue } from '../../../server/test/fake-catalogue.ts';
import { signInAs } from './app.ts';
import { axeViolations } from './axe.ts';
import { screenshot } from './browser.ts';
import { expectVisible } from './expect.ts';
import { browserSuite } from './suite.ts';
import { expectSignInScreen, mainArea } from './ui.ts';

/**
 * axe-core over every screen of Moonrelay, at desktop and phone size: no critical and no serious
 * violation of the WCAG 2.1 A/AA rules and axe's best practices, and no heading level skipped. Each screen is checked once its
 * heading (and, where it loads data, its content) is on screen, so the check reads what a user sees.
 */
export const SIZES = {
  desktop: { name: 'desktop', width: 1440, height: 900 },
  phone: { name: 'phone', width: 390, height: 844 },
};

type Size = (typeof SIZES)[keyof typeof SIZES];

const ADMIN_TABS = ['Users', 'Connections', 'Mass Execution', 'Recent Executions', 'Audit Logs'];

/** The violations axe reports as critical or serious, one line each with the elements they touch. */
async function seriousViolations(page: Page): Promise<string[]> {
  return (
    (await axeViolations(page))
      // Serious and critical, and a skipped heading level (moderate for axe, but it breaks the outline
      // screen-reader users move by, and Lighthouse's accessibility score counts it).
      .filter(
        (violation) =>
          violation.impact === 'critical' || violation.impact === 'serious' || violation.id === 'heading-order',
      )
      .map(
        (violation) =>
          `${violation.impact} ${violation.id}: ${violation.help}\n    ${violation.nodes
            .slice(0, 5)
            .map((node) => `${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`)
            .join('\n    ')}`,
      )
  );
}

/**
 * Collects what axe finds on each screen checked, and fails once at the end naming every screen's
 * violations (one run shows them all, not only the first screen's).
 */
function violationLog() {
  const found: string[] = [];
  return {
    async check(page: Page, screen: string) {
      for (const violation of await seriousViolations(page)) found.push(`${screen}: ${violation}`);
    },
    expectNone() {
      expect(found, found.join('\n')).toEqual([]);
    },
  };
}

const heading = (page: Page, name: string | RegExp) =>
  mainArea(page).getByRole('heading', { level: 1, name, exact: typeof name === 'string' });

/**
 * The checks at one size, in a spec file of their own: each size's screens take a minute or more,
 * and two files let both of the browser project's workers take one.
 */
export function checkAccessibilityAt(size: Size): void {
  // The catalogue is a local stand-in for ScriptBlox, so its screen is checked with its cards on it.
  const catalogue = fakeCatalogue({ localImages: true });
  const suite = browserSuite(async () => {
    const base = await catalogue.start();
    return { SCRIPTBLOX_API_URL: `${base}/api`, SCRIPTBLOX_SITE_URL: base };
  });
  afterAll(() => catalogue.stop());

  describe(`accessibility at ${size.name} size (${size.width} x ${size.height})`, () => {
    it('the sign-in screen, both tabs', async () => {
      const log = violationLog();
      const page = await suite.browser.newPage();
      await page.setViewportSize(size);
      await page.goto(suite.app.url + '/');
      await expectSignInScreen(page);
      expect(await page.getByRole('main').count(), 'one main landmark').toBe(1);
      await log.check(page, 'sign-in, Login tab');

      await page.getByRole('tab', { name: 'Register', exact: true }).click();
      await expectVisible(page.getByRole('tabpanel', { name: 'Register' }).getByLabel('Username'));
      await log.check(page, 'sign-in, Register tab');
      await screenshot(page, `a11y-${size.name}-register`);
      log.expectNone();
    });

    it('every signed-in screen', async () => {
      const user = suite.firstAccount;
      // A saved script that has run once, so the lists show rows rather than their empty state.
      const created = await suite.app.call('POST', '/api/scripts', {
        token: user.token,
        body: { name: `Checked ${size.name}`, code: 'print("checked")' },
      });
      expect(created.status).toBe(200);
      // Two more, so the dashboard's recent list is full.
      for (const extra of ['Second', 'Third']) {
        const more = await suite.app.call('POST', '/api/scripts', {
          token: user.token,
          body: { name: `${extra} ${size.name}`, code: 'print(2)' },
        });
        expect(more.status).toBe(200);
      }
      const ran = await suite.app.call('POST', `/api/scripts/${created.body.id as string}/execute`, {
        token: user.token,
        body: { target: 'sandbox' },
      });
      expect(ran.status).toBe(200);

      const log = violationLog();
      const page = await suite.browser.newPage();
      await page.setViewportSize(size);
      await signInAs(page, suite.app, user, '/dashboard');

      const screens: { path: string; heading: string | RegExp; ready?: (page: Page) => Promise<void> }[] = [
        {
          path: '/dashboard',
          heading: 'Dashboard',
          ready: (p) => expectVisible(mainArea(p).getByText(`Checked ${size.name}`, { exact: true })),
        },
        {
          path: `/editor?id=${created.body.id as string}`,
          heading: 'Script Editor',
          ready: (p) => expectVisible(p.getByTestId('code-editor').locator('.ace_line').first()),
        },
        {
          path: '/scripts',
          heading: /^My Scripts/,
          ready: (p) => expectVisible(mainArea(p).getByText(`Checked ${size.name}`, { exact: true })),
        },
        { path: '/runs', heading: 'Runs', ready: (p) => expectVisible(mainArea(p).locator('tbody tr').first()) },
        { path: '/console', heading: 'Console' },
        { path: '/players', heading: 'Players' },
        {
          path: '/scriptblox',
          heading: 'ScriptBlox',
          ready: (p) => expectVisible(mainArea(p).getByRole('article').first().getByRole('img')),
        },
        { path: '/analytics', heading: 'Analytics' },
        { path: '/settings', heading: 'Settings' },
      ];
      for (const screen of screens) {
        await page.goto(suite.app.url + screen.path);
        await expectVisible(heading(page, screen.heading));
        await screen.ready?.(page);
        await log.check(page, screen.path);
        await screenshot(page, `a11y-${size.name}-${screen.path.slice(1).split('?')[0]}`);
      }

      // The API docs, tab by tab (each tab's cards mount when it is shown).
      await page.goto(suite.app.url + '/api-docs');
      await expectVisible(heading(page, 'API Documentation'));
      const docTabs = mainArea(page).getByRole('tablist').first().getByRole('tab');
      await expectVisible(docTabs.first());
      const docTabCount = await docTabs.count();
      expect(docTabCount).toBeGreaterThan(1);
      for (let index = 0; index < docTabCount; index += 1) {
        const tab = docTabs.nth(index);
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        await expectVisible(mainArea(page).getByRole('tabpanel').first().locator('pre').first());
        await log.check(page, `/api-docs, ${await tab.innerText()}`);
      }
      await screenshot(page, `a11y-${size.name}-api-docs`);

      // The admin panel, tab by tab.
      await page.goto(suite.app.url + '/admin');
      await expectVisible(heading(page, 'Admin Panel'));
      for (const name of ADMIN_TABS) {
        const tab = mainArea(page).getByRole('tab', { name: new RegExp(`^${name}`) });
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        await expectVisible(mainArea(page).getByRole('tabpanel'));
        await log.check(page, `/admin, ${name}`);
      }
      await screenshot(page, `a11y-${size.name}-admin`);
      log.expectNone();
      // Over twenty screens and tabs, each scanned by axe: about a minute on a quiet machine, longer
      // than the browser tests' 120 s when both cores are busy.
    }, 300_000);
  });
}
