import fs from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { browserSuite } from './support/suite.ts';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Script } from '@moonrelay/contract/scripts';
import { createUser, signInAs, type TestUser } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { SCREENSHOTS_DIR } from './support/paths.ts';
import { SimulatedGame } from '../../server/test/simulated-game.ts';

import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import {
  codeEditor,
  codeEditorErrorCells,
  codeEditorErrorUnderlines,
  codeEditorLines,
  dialogNamed,
  executionPane,
  expectSignedIn,
  expectToast,
  mainArea,
  syntaxSummary,
  toast,
  typeInCodeEditor,
} from './support/ui.ts';

/** The editor's texts (spec sections 2, 4, 5 and 8). */
const SUBTITLE_CREATE = 'Create a new Lua script';
const SUBTITLE_EDIT = 'Edit your script';
const DEFAULT_CODE = '-- Write your Lua code here...';
const SAVE_DIALOG = 'Save Script Configuration';

/** Chromium logs the 400 of a format call for code that does not parse. */
const FORMAT_BAD_REQUEST = /status of 400 \(Bad Request\) \[[^\]]*\/api\/lua\/format\]$/;

/** Plain statements only: Ace auto-indents after block openers, which would change typed code. */
const FIRST_CODE = 'local greeting = "Hello from Moonrelay"\nprint(greeting)';
const SECOND_CODE = 'local speed: number = 32\nprint(`speed is {speed}`)';

const suite = browserSuite();

/** The user's scripts as the API has them. */
async function scriptsOf(user: TestUser): Promise<Script[]> {
  const result = await suite.app.call('GET', '/api/scripts', { token: user.token });
  expect(result.status).toBe(200);
  return result.body as Script[];
}

/** Every request the page sends to an origin other than the app's (data: URLs are not requests). */
function recordForeignRequests(page: Page): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.origin !== suite.app.url) foreign.push(request.url());
  });
  return foreign;
}

/** Collects the page's calls with this method to paths matching `path`. */
function recordCalls(page: Page, method: string, path: RegExp): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && path.test(new URL(request.url()).pathname)) calls.push(request);
  });
  return calls;
}

const nameField = (page: Page) => mainArea(page).getByLabel('Script Name', { exact: true });
const descriptionField = (page: Page) => mainArea(page).getByLabel('Description', { exact: true });
const executionTypeField = (page: Page) => mainArea(page).getByLabel('Execution Type', { exact: true });
const editorButton = (page: Page, name: string) => mainArea(page).getByRole('button', { name, exact: true });
/** The editor's main action: the one solid, coloured button of its row. */
const mainActions = (page: Page) => mainArea(page).locator('[data-main-action]').allInnerTexts();

/** What the window shows now, not the whole page: whether something is in view is the point. */
async function viewportScreenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

/** Whether the element is inside the window from top to bottom. */
async function wholeInView(page: Page, element: ReturnType<Page['locator']>) {
  const box = await element.boundingBox();
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

/** Opens a new, empty editor for a signed-in user. */
async function openNewEditor(page: Page, user: TestUser) {
  await signInAs(page, suite.app, user, '/editor');
  await expectSignedIn(page, user.name);
  await expectVisible(mainArea(page).getByRole('heading', { name: 'Script Editor', exact: true }));
  await expectVisible(mainArea(page).getByText(SUBTITLE_CREATE, { exact: true }));
  // Ace has mounted and shows the default comment, with an empty line below it for the code.
  await expect.poll(() => codeEditorLines(page)).toEqual([DEFAULT_CODE, '']);
}

/** Ctrl+S inside Ace: the save dialog opens, as the Save button does. */
async function openSaveDialogWithShortcut(page: Page) {
  await codeEditor(page).locator('.ace_content').click();
  await page.keyboard.press('Control+S');
  const modal = dialogNamed(page, SAVE_DIALOG);
  await expectVisible(modal);
  return modal;
}

/** Closes the toast on screen, so that the next one is known to be new. */
async function closeToast(page: Page) {
  await toast(page).getByRole('button').click();
  await expectHidden(toast(page));
}

/** The id in /editor?id=..., once the address has one. */
async function editorIdInUrl(page: Page): Promise<string> {
  await expect.poll(() => new URL(page.url()).searchParams.get('id'), { message: 'the URL has ?id=' }).toBeTruthy();
  await expectPath(page, '/editor', `?id=${new URL(page.url()).searchParams.get('id')}`);
  return new URL(page.url()).searchParams.get('id') as string;
}

describe('script editor', () => {
  it('typing into a new script goes below the comment, and Esc then Tab leaves the code', async () => {
    const page = await suite.browser.newPage();
    await openNewEditor(page, await createUser(suite.app));
    // Tab reaches the code area; Enter starts typing there, on the empty line.
    await codeEditor(page).locator('.ace_scroller').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('print(1)');
    await expect.poll(() => codeEditorLines(page)).toEqual([DEFAULT_CODE, 'print(1)']);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    // Focus has left the code area for the rest of the page.
    await expect
      .poll(() => page.evaluate(() => !document.activeElement?.closest('[data-testid="code-editor"]')))
      .toBe(true);
    await expect.poll(() => codeEditorLines(page)).toEqual([DEFAULT_CODE, 'print(1)']);
  });

  it('creates a script with Ctrl+S and Save Script, saves it with auto-execute in a specific game, then keeps its games', async () => {
    const page = await suite.browser.newPage();
    const foreign = recordForeignRequests(page);
    const creations = recordCalls(page, 'POST', /^\/api\/scripts$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    expect(await nameField(page).inputValue()).toBe('');
    expect(await executionTypeField(page).inputValue()).toBe('manual');
    await screenshot(page, 'editor-new');

    await nameField(page).pressSequentially('Hello World');
    await descriptionField(page).pressSequentially('Greets the server');
    await typeInCodeEditor(page, FIRST_CODE);
    await expect.poll(() => codeEditorLines(page)).toEqual(FIRST_CODE.split('\n'));
    await screenshot(page, 'editor-with-code');

    // Ctrl+S opens the configuration dialog. The script is manual (the form's Execution Type): the
    // dialog says what that means and asks nothing more.
    let modal = await openSaveDialogWithShortcut(page);
    await expectVisible(modal.getByTestId('save-execution-type').getByText('Manual Execution', { exact: true }));
    await expectVisible(modal.getByText(/^It runs only when you start it/));
    expect(await modal.getByRole('checkbox').count()).toBe(0);
    expect(await modal.getByRole('radio').count()).toBe(0);
    expect(
      await modal.getByRole('button').evaluateAll((buttons) => buttons.map((button) => button.textContent?.trim())),
    ).toEqual(['Cancel', 'Save Script', '']);
    await screenshot(page, 'editor-save-dialog');
    await modal.getByRole('button', { name: 'Save Script', exact: true }).click();

    await expectToast(page, 'Script Saved');
    await expectHidden(modal);
    const id = await editorIdInUrl(page);
    await expectVisible(mainArea(page).getByText(SUBTITLE_EDIT, { exact: true }));
    // The same editor carries on with what was typed.
    expect(await nameField(page).inputValue()).toBe('Hello World');
    expect(await codeEditorLines(page)).toEqual(FIRST_CODE.split('\n'));
    expect(creations).toHaveLength(1);

    let scripts = await scriptsOf(user);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({
      id,
      name: 'Hello World',
      description: 'Greets the server',
      code: FIRST_CODE,
      isAutoExecute: false,
      gameId: null,
      gameName: null,
    });

    // New code and Auto-Execute on Join, then Ctrl+S: the dialog asks where, in one typed game.
    await closeToast(page);
    await typeInCodeEditor(page, SECOND_CODE);
    await expect.poll(() => codeEditorLines(page)).toEqual(SECOND_CODE.split('\n'));
    await executionTypeField(page).selectOption('auto');
    modal = await openSaveDialogWithShortcut(page);
    await expectVisible(modal.getByTestId('save-execution-type').getByText('Auto-Execute on Join', { exact: true }));
    expect(await modal.getByRole('radio', { name: 'All games', exact: true }).isChecked()).toBe(true);
    const saveWithAutoExecute = modal.getByRole('button', { name: 'Save with Auto-Execute', exact: true });
    await expectVisible(saveWithAutoExecute);
    // It did not auto-execute before: there are no games to keep.
    expect(await modal.getByRole('button', { name: 'Keep Current Games', exact: true }).count()).toBe(0);
    await modal.getByText('A specific game', { exact: true }).click();
    expect(await modal.getByRole('radio', { name: 'A specific game', exact: true }).isChecked()).toBe(true);
    // No game chosen yet: nothing to save.
    expect(await saveWithAutoExecute.isDisabled()).toBe(true);
    await modal.getByLabel('Game or universe ID', { exact: true }).pressSequentially('123');
    await expectVisible(modal.getByTestId('chosen-game').getByText('Game 123'));
    await screenshot(page, 'editor-save-dialog-specific-game');
    await saveWithAutoExecute.click();

    await expectToast(page, 'Script Saved');
    await expectHidden(modal);
    await expectPath(page, '/editor', `?id=${id}`);
    await expectVisible(mainArea(page).getByText(SUBTITLE_EDIT, { exact: true }));
    // The form now matches what is stored: an auto-execute script.
    await expect.poll(() => executionTypeField(page).inputValue()).toBe('auto');

    scripts = await scriptsOf(user);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({
      id,
      name: 'Hello World',
      description: 'Greets the server',
      code: SECOND_CODE,
      isAutoExecute: true,
      gameId: '123',
      gameName: 'Game 123',
      autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
    });
    expect(creations).toHaveLength(1);

    // An edit saved with Keep Current Games leaves its game as it is, and says which that is.
    await closeToast(page);
    await typeInCodeEditor(page, FIRST_CODE);
    await expect.poll(() => codeEditorLines(page)).toEqual(FIRST_CODE.split('\n'));
    modal = await openSaveDialogWithShortcut(page);
    const keep = modal.getByRole('button', { name: 'Keep Current Games', exact: true });
    await expectVisible(keep);
    await expectVisible(
      modal.getByText(
        'Save with Auto-Execute saves it for the games chosen above; Keep Current Games saves your changes and leaves the games as they are now: Game 123.',
        { exact: true },
      ),
    );
    await screenshot(page, 'editor-save-dialog-keep-games');
    await keep.click();
    await expectToast(page, 'Script Saved');
    await expectHidden(modal);
    expect((await scriptsOf(user))[0]).toMatchObject({
      code: FIRST_CODE,
      isAutoExecute: true,
      gameId: '123',
      autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
    });

    // Everything the editor needs (Ace, its mode, theme and extensions) comes from the app itself.
    expect(foreign).toEqual([]);
  });

  it("a blank name shows the 'Name Required' toast and saves nothing", async () => {
    const page = await suite.browser.newPage();
    const writes = recordCalls(page, 'POST', /^\/api\/scripts$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    await typeInCodeEditor(page, 'print("no name")');

    // Ctrl+S with no name at all.
    await codeEditor(page).locator('.ace_content').click();
    await page.keyboard.press('Control+S');
    await expectToast(page, 'Name Required', 'Please enter a name for your script.');
    await expectHidden(dialogNamed(page, SAVE_DIALOG));
    await closeToast(page);

    // The Save button with a name of spaces only.
    await nameField(page).pressSequentially('   ');
    await editorButton(page, 'Save').click();
    await expectToast(page, 'Name Required', 'Please enter a name for your script.');
    await expectHidden(dialogNamed(page, SAVE_DIALOG));
    await closeToast(page);

    // Save & Execute checks the name too.
    await editorButton(page, 'Save & Execute').click();
    await expectToast(page, 'Name Required', 'Please enter a name for your script.');

    await expectPath(page, '/editor');
    await expectVisible(mainArea(page).getByText(SUBTITLE_CREATE, { exact: true }));
    expect(writes).toHaveLength(0);
    expect(await scriptsOf(user)).toEqual([]);
  });

  it("Execute asks to save a new script first; on a saved one it reports 'Game Not Connected'", async () => {
    const page = await suite.browser.newPage();
    const executions = recordCalls(page, 'POST', /\/execute$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);

    // A brand-new script: the button asks to save first.
    await editorButton(page, 'Execute').click();
    await expectToast(page, 'Save First', 'Please save your script before executing it.');
    expect(executions).toHaveLength(0);
    await expectVisible(mainArea(page).getByTestId('execution-status').getByText('Idle', { exact: true }));
    await closeToast(page);

    // Saved, Execute calls the server.
    await nameField(page).pressSequentially('Runner');
    await typeInCodeEditor(page, 'print("run me")');
    await editorButton(page, 'Save').click();
    await dialogNamed(page, SAVE_DIALOG).getByRole('button', { name: 'Save Script', exact: true }).click();
    await expectToast(page, 'Script Saved');
    const id = await editorIdInUrl(page);
    // The editor has taken the saved script: an Execute clicked before that is a new script's ('Save First').
    await expectVisible(mainArea(page).getByText(SUBTITLE_EDIT, { exact: true }));

    // No game can connect yet: the server answers so (200), with what to do about it.
    await editorButton(page, 'Execute').click();
    await expectToast(page, 'Game Not Connected', ERRORS.gameNotConnectedInstructions);
    const pane = executionPane(page);
    await expectVisible(pane.status.getByText('Error', { exact: true }));
    await expectVisible(pane.target.getByText('Game', { exact: true }));
    await expectVisible(pane.output.getByText(ERRORS.gameNotConnected));
    await expectVisible(pane.output.getByText(ERRORS.gameNotConnectedInstructions));
    expect(executions.map((request) => new URL(request.url()).pathname)).toEqual([`/api/scripts/${id}/execute`]);
    expect(executions[0]?.postDataJSON()).toEqual({});
    // The editor is usable again afterwards.
    await expect.poll(() => editorButton(page, 'Execute').isEnabled()).toBe(true);
  });

  it('highlights Luau: `continue` is a keyword and a type annotation is a type', async () => {
    const page = await suite.browser.newPage();
    const foreign = recordForeignRequests(page);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    await typeInCodeEditor(page, 'local x: number = 1 continue');
    await expect.poll(() => codeEditorLines(page)).toEqual(['local x: number = 1 continue']);

    const keywords = codeEditor(page).locator('.ace_keyword');
    await expectVisible(keywords.getByText('continue', { exact: true }));
    await expect
      .poll(() => keywords.evaluateAll((spans) => spans.map((span) => span.textContent)))
      .toEqual(expect.arrayContaining(['local', 'continue']));
    await expectVisible(codeEditor(page).locator('.ace_type').getByText('number', { exact: true }));
    // Ace's dark theme (spec section 9).
    expect(await codeEditor(page).locator('.ace_editor').getAttribute('class')).toContain('ace-tomorrow-night');
    expect(foreign).toEqual([]);
  });

  it('shows syntax errors as they are typed: gutter annotations, underlines and a summary', async () => {
    const page = await suite.browser.newPage();
    const checks = recordCalls(page, 'POST', /^\/api\/lua\/check$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);

    await typeInCodeEditor(page, 'local x = = 1 y');
    await expectVisible(
      syntaxSummary(page).getByText("2 syntax errors — line 1: Expected identifier when parsing expression, got '='", {
        exact: true,
      }),
    );
    await expectVisible(codeEditorErrorCells(page));
    expect(await codeEditorErrorCells(page).allInnerTexts()).toEqual(['1']);
    await expect.poll(() => codeEditorErrorUnderlines(page).count()).toBe(2);
    // The last check is of the code as typed. (That a check waits for the typing to pause is
    // ScriptEditor.test.tsx's, on a fake clock: here a busy machine types slowly enough to pause.)
    expect(checks.at(-1)?.postDataJSON()).toEqual({ code: 'local x = = 1 y' });

    // The first underline sits under the second `=` of the line.
    const [underline, text] = await Promise.all([
      codeEditorErrorUnderlines(page).first().boundingBox(),
      codeEditor(page).locator('.ace_line').first().boundingBox(),
    ]);
    expect(underline && text).toBeTruthy();
    if (underline && text) {
      expect(underline.width).toBeGreaterThan(0);
      expect(underline.x).toBeGreaterThan(text.x);
      expect(Math.abs(underline.y - text.y)).toBeLessThan(text.height);
    }

    // Hovering the annotation shows the message.
    await codeEditorErrorCells(page).first().hover();
    await expectVisible(page.locator('.ace_tooltip').getByText("Expected identifier when parsing expression, got '='"));
    await screenshot(page, 'editor-syntax-error');
    await page.mouse.move(0, 0);

    // Saving is allowed, with a warning.
    await nameField(page).pressSequentially('Broken');
    await editorButton(page, 'Save').click();
    await dialogNamed(page, SAVE_DIALOG).getByRole('button', { name: 'Save Script', exact: true }).click();
    await expectToast(
      page,
      'Script Saved With Errors',
      'The script has 2 syntax errors; it will not run until they are fixed.',
    );
    await editorIdInUrl(page);
    expect((await scriptsOf(user))[0]).toMatchObject({ name: 'Broken', code: 'local x = = 1 y' });

    // Fixed: the marks go away.
    await typeInCodeEditor(page, 'local x = 1');
    await expectVisible(syntaxSummary(page).getByText('No syntax errors', { exact: true }));
    await expectHidden(codeEditorErrorCells(page));
    await expectHidden(codeEditorErrorUnderlines(page));
  });

  it('Format (button and Shift+Alt+F) formats the code, undoably; code that does not parse is reported', async () => {
    suite.browser.allowConsoleErrors(FORMAT_BAD_REQUEST);
    const page = await suite.browser.newPage();
    const user = await createUser(suite.app);
    await openNewEditor(page, user);

    await typeInCodeEditor(page, 'local   x=1');
    await expect.poll(() => codeEditorLines(page)).toEqual(['local   x=1']);
    await editorButton(page, 'Format').click();
    await expectToast(page, 'Code Formatted');
    await expect.poll(() => codeEditorLines(page)).toEqual(['local x = 1', '']);
    await closeToast(page);

    // Ctrl+Z in Ace brings the code before formatting back.
    await codeEditor(page).locator('.ace_content').click();
    await page.keyboard.press('Control+Z');
    await expect.poll(() => codeEditorLines(page)).toEqual(['local   x=1']);

    // The shortcut inside Ace.
    await typeInCodeEditor(page, 'print( 1 )');
    await expect.poll(() => codeEditorLines(page)).toEqual(['print( 1 )']);
    await page.keyboard.press('Shift+Alt+F');
    await expectToast(page, 'Code Formatted');
    await expect.poll(() => codeEditorLines(page)).toEqual(['print(1)', '']);
    await closeToast(page);

    // And outside it (the focus in the name field).
    await typeInCodeEditor(page, 'local   y=2');
    await nameField(page).click();
    await page.keyboard.press('Shift+Alt+F');
    await expectToast(page, 'Code Formatted');
    await expect.poll(() => codeEditorLines(page)).toEqual(['local y = 2', '']);
    expect(await nameField(page).inputValue()).toBe('');
    await closeToast(page);

    await typeInCodeEditor(page, 'local x = = 1');
    await editorButton(page, 'Format').click();
    await expectToast(
      page,
      'Format Failed',
      "Lua syntax error: 1:11: Expected identifier when parsing expression, got '='",
    );
    expect(await toast(page).getAttribute('data-type')).toBe('error');
    expect(await codeEditorLines(page)).toEqual(['local x = = 1']);
  });

  it('Run in Sandbox runs the unsaved code in the sandbox; nothing is saved', async () => {
    const page = await suite.browser.newPage();
    const creations = recordCalls(page, 'POST', /^\/api\/scripts$/);
    const runs = recordCalls(page, 'POST', /\/execute$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    const pane = executionPane(page);

    await typeInCodeEditor(page, 'print("hi from the sandbox")');
    await expect.poll(() => codeEditorLines(page)).toEqual(['print("hi from the sandbox")']);
    await editorButton(page, 'Run in Sandbox').click();
    await expectToast(page, 'Script Executed', 'hi from the sandbox');
    await expectVisible(pane.output.getByText('hi from the sandbox'));
    await expectVisible(pane.target.getByText('Sandbox', { exact: true }));
    await expectVisible(pane.status.getByText('Success', { exact: true }));
    await expectVisible(pane.duration);
    await screenshot(page, 'editor-sandbox-output');
    expect(runs.map((request) => [new URL(request.url()).pathname, request.postDataJSON()])).toEqual([
      ['/api/scripts/execute', { code: 'print("hi from the sandbox")', target: 'sandbox' }],
    ]);
    // Nothing was saved: the script is still new. (How a run that meets a limit looks is the
    // component's test, ScriptEditor.test.tsx; the Runs screen's browser test shows one end to end.)
    expect(creations).toHaveLength(0);
    await expectPath(page, '/editor');
    expect(await scriptsOf(user)).toEqual([]);
  });

  it('without a game the main action is a sandbox run, by button and Ctrl+Enter, and its output comes into view at 1440x900', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    const runs = recordCalls(page, 'POST', /\/execute$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    const pane = executionPane(page);

    // No game connected: Run in Sandbox is the main button; Save & Execute would need a game.
    await expect.poll(() => mainActions(page)).toEqual(['Run in Sandbox']);
    await expectVisible(
      mainArea(page)
        .getByTestId('editor-shortcuts')
        .getByText(/runs in the sandbox/),
    );
    // The output starts below the fold.
    expect(await wholeInView(page, pane.output)).toBe(false);
    await viewportScreenshot(page, 'editor-1440-before-run');

    await typeInCodeEditor(page, 'print("in view")');
    await expect.poll(() => codeEditorLines(page)).toEqual(['print("in view")']);
    await editorButton(page, 'Run in Sandbox').click();
    await expectVisible(pane.output.getByText('in view'));
    await expect.poll(() => wholeInView(page, pane.output), { message: 'the output is in view' }).toBe(true);
    await expectVisible(pane.status.getByText('Success', { exact: true }));
    await viewportScreenshot(page, 'editor-1440-output-in-view');

    // Ctrl+Enter in the code does the same, from the top of the page.
    await closeToast(page);
    await mainArea(page).getByRole('heading', { name: 'Script Editor', exact: true }).scrollIntoViewIfNeeded();
    await expect.poll(() => wholeInView(page, pane.output)).toBe(false);
    await typeInCodeEditor(page, 'print("by keyboard")');
    await expect.poll(() => codeEditorLines(page)).toEqual(['print("by keyboard")']);
    await page.keyboard.press('Control+Enter');
    await expectVisible(pane.output.getByText('by keyboard'));
    await expect.poll(() => wholeInView(page, pane.output), { message: 'the output is in view' }).toBe(true);
    expect(runs.map((request) => [new URL(request.url()).pathname, request.postDataJSON()])).toEqual([
      ['/api/scripts/execute', { code: 'print("in view")', target: 'sandbox' }],
      ['/api/scripts/execute', { code: 'print("by keyboard")', target: 'sandbox' }],
    ]);

    // A game connects: Save & Execute becomes the main action, and Ctrl+Enter executes.
    const game = new SimulatedGame({ url: suite.app.url, key: user.user.apiKey!, serverId: 'e2e-editor', userId: 156 });
    game.start(1_000);
    try {
      await expect.poll(() => mainActions(page)).toEqual(['Save & Execute']);
      await expectVisible(
        mainArea(page)
          .getByTestId('editor-shortcuts')
          .getByText(/executes/),
      );
      await mainArea(page).getByRole('heading', { name: 'Script Editor', exact: true }).scrollIntoViewIfNeeded();
      await screenshot(page, 'editor-main-action-game');
    } finally {
      await game.stop();
    }
  });

  it('Dry run runs the unsaved code against an emulated game and shows what it changed', async () => {
    const page = await suite.browser.newPage();
    const runs = recordCalls(page, 'POST', /\/execute$/);
    const user = await createUser(suite.app);
    await openNewEditor(page, user);
    const pane = executionPane(page);
    // Short enough to stay one line as it is typed.
    const code = 'local p = Instance.new("Part", workspace) task.wait(2) warn("done at", os.clock())';

    await typeInCodeEditor(page, code);
    await expect.poll(() => codeEditorLines(page)).toEqual([code]);
    await editorButton(page, 'Dry run').click();
    await expectToast(page, 'Script Executed', 'warning: done at 2');
    await expectVisible(pane.output.getByText('warning: done at 2'));
    await expectVisible(pane.target.getByText('Dry run', { exact: true }));
    await expectVisible(pane.status.getByText('Success', { exact: true }));
    const summary = mainArea(page).getByTestId('dry-run-summary');
    await expectVisible(summary.getByText('Created: 1 Part', { exact: true }));
    await expectVisible(summary.getByText('2 s of game time, nothing left to run', { exact: true }));
    await screenshot(page, 'editor-dry-run-output');
    expect(runs.map((request) => [new URL(request.url()).pathname, request.postDataJSON()])).toEqual([
      ['/api/scripts/execute', { code, target: 'dry-run' }],
    ]);
    expect(await scriptsOf(user)).toEqual([]);
  });
});
