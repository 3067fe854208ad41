import type { Page } from 'playwright-core';
import { expectVisible } from './expect.ts';

/** Locators for the parts of the app every screen shares. */

/** The sidebar of the signed-in screens (a nav landmark labelled Main). */
export const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

export const sidebarLink = (page: Page, label: string) => sidebar(page).getByRole('link', { name: label, exact: true });

export const mainArea = (page: Page) => page.getByRole('main');

export const loginPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Login' });
export const registerPanel = (page: Page) => page.getByRole('tabpanel', { name: 'Register' });

/** The signed-out screen: both tabs, the login form shown, no sidebar. */
export async function expectSignInScreen(page: Page): Promise<void> {
  await expectVisible(page.getByRole('tab', { name: 'Login', exact: true }));
  await expectVisible(page.getByRole('tab', { name: 'Register', exact: true }));
  if ((await sidebar(page).count()) !== 0) throw new Error('the sign-in screen shows the sidebar');
}

/** A signed-in screen: the sidebar with the user's name. */
export async function expectSignedIn(page: Page, name: string): Promise<void> {
  await expectVisible(sidebar(page).getByText(name, { exact: true }));
}

/** The toast on screen (one at a time). */
export const toast = (page: Page) => page.getByTestId('toast');

/** Waits for the toast with this title (and, when given, this exact description). */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const notice = toast(page);
  await expectVisible(notice.getByText(title, { exact: true }));
  if (description !== undefined) await expectVisible(notice.getByText(description, { exact: true }));
}

/** A modal by its title: role dialog (or alertdialog, for confirmations). */
export const dialogNamed = (page: Page, title: string) => page.getByRole('dialog', { name: title, exact: true });
export const alertDialogNamed = (page: Page, title: string) =>
  page.getByRole('alertdialog', { name: title, exact: true });

/** The Script Editor's Ace editor (its container). */
export const codeEditor = (page: Page) => page.getByTestId('code-editor');

/** The text lines Ace shows, as rendered (the code the user sees). */
export const codeEditorLines = (page: Page) => codeEditor(page).locator('.ace_line').allInnerTexts();

/** Types into the Ace editor as a person does: click in, select all, type (replacing everything). */
export async function typeInCodeEditor(page: Page, code: string): Promise<void> {
  await codeEditor(page).locator('.ace_content').click();
  // Cleared and checked before typing: under load a select-all could land while the editor was
  // still taking the previous change, and the text was then typed after the old code.
  for (let attempt = 1; ; attempt += 1) {
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    // Ace draws on the next animation frame; give it one before reading the lines.
    await page.waitForTimeout(50);
    const lines = await codeEditorLines(page);
    if (lines.length === 1 && lines[0] === '') break;
    if (attempt === 5) throw new Error(`The code editor did not clear: ${JSON.stringify(lines)}`);
  }
  await page.keyboard.type(code);
}

/** The body rows of the My Scripts table (the empty-state row included when there are none). */
export const scriptRows = (page: Page) => mainArea(page).locator('tbody').getByRole('row');

/** The My Scripts row of the script with this exact name. */
export const scriptRow = (page: Page, name: string) =>
  scriptRows(page).filter({ has: page.getByText(name, { exact: true }) });

/** The value of one of the dashboard's stat cards ('Total Scripts', 'Total Executions', 'Auto-Execute'). */
export const statValue = (page: Page, label: string) =>
  mainArea(page)
    .locator('dl')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');

/** The line under the Script Editor's code: "No syntax errors", "2 syntax errors — line 1: …", or a note. */
export const syntaxSummary = (page: Page) => mainArea(page).getByTestId('syntax-summary');

/** The gutter cells Ace marks with an error annotation. */
export const codeEditorErrorCells = (page: Page) => codeEditor(page).locator('.ace_gutter-cell.ace_error');

/** The wavy underlines over the ranges of syntax errors. */
export const codeEditorErrorUnderlines = (page: Page) => codeEditor(page).locator('.ace_marker-layer .luau-diagnostic');

/** The Script Editor's output pane, by its parts. */
export const executionPane = (page: Page) => ({
  status: mainArea(page).getByTestId('execution-status'),
  target: mainArea(page).getByTestId('execution-target'),
  output: mainArea(page).getByTestId('execution-output'),
  limit: mainArea(page).getByTestId('execution-limit'),
  duration: mainArea(page).getByTestId('execution-duration'),
});
