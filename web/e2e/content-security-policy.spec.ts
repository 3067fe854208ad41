import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { expectVisible } from './support/expect.ts';
import { codeEditor, expectSignInScreen, loginPanel } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

/**
 * The web app runs under the server's Content-Security-Policy without breaking it: no eval or
 * new Function (script-src has no 'unsafe-eval'), nothing from another origin. Chromium reports each
 * violation to the page as a `securitypolicyviolation` event and logs it on the console; both are
 * collected from before the app's first script runs.
 */
const suite = browserSuite();

declare global {
  interface Window {
    reportCspViolation?: (violation: string) => Promise<void>;
  }
}

/** Collects every violation the page reports, across navigations, and every one Chromium logs. */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|unsafe-eval/i.test(message.text())) seen.push(`console: ${message.text()}`);
  });
  await page.exposeBinding('reportCspViolation', (_source, violation: string) => void seen.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      void window.reportCspViolation?.(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return seen;
}

describe('Content-Security-Policy', () => {
  it('reports no violation while the sign-in page and the editor load', async () => {
    const page = await suite.browser.newPage();
    const violations = await watchViolations(page);
    await page.goto(suite.app.url + '/');
    await expectSignInScreen(page);
    // The form checks its fields with the contract's schemas: a schema's first parse is where a
    // JIT compiler would probe for eval.
    await loginPanel(page).getByRole('button', { name: 'Login', exact: true }).click();

    const user = await createUser(suite.app, { name: 'Policy Reader' });
    await signInAs(page, suite.app, user, '/editor');
    await expectVisible(codeEditor(page));
    await expectVisible(codeEditor(page).locator('.ace_content'));

    // A violation is reported as an event after the blocked call; one more round trip lets it arrive.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(violations).toEqual([]);
  });
});
