import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectVisible } from './support/expect.ts';
import { SCREENSHOTS_DIR } from './support/paths.ts';
import { browserSuite } from './support/suite.ts';
import {
  codeEditor,
  codeEditorLines,
  expectSignInScreen,
  mainArea,
  syntaxSummary,
  typeInCodeEditor,
} from './support/ui.ts';

/**
 * The code editor draws every character it is given. A monospace font's underscore sits below the
 * baseline, at the bottom of its line: with lines too short for the font (16 px lines for a 14 px
 * DejaVu Sans Mono, the usual Linux monospace) `my_value` read as `my value`. These tests read the
 * pixels of the line Chromium draws.
 */

const suite = browserSuite();

/** Where a character of a line sits, in CSS pixels of the page: its cell, and the line's baseline. */
interface Cell {
  left: number;
  right: number;
  /** The line box, as Ace lays it out (what is outside it is not drawn). */
  top: number;
  bottom: number;
  baseline: number;
}

/**
 * The cell of the character at `index` of the line's text, and the line's baseline: the line box's
 * top plus half the leading plus the font's ascent, from the font Chromium measures for the line.
 */
function cellOf(line: Locator, index: number): Promise<Cell> {
  return line.evaluate((element, at) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let offset = at;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0;
      if (offset >= length) {
        offset -= length;
        continue;
      }
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      const cell = range.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(node.parentElement ?? element);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${style.fontFamily}`;
      const metrics = context.measureText(node.textContent ?? '');
      const content = metrics.fontBoundingBoxAscent + metrics.fontBoundingBoxDescent;
      const halfLeading = (box.height - content) / 2;
      return {
        left: cell.left,
        right: cell.right,
        top: box.top,
        bottom: box.bottom,
        baseline: box.top + halfLeading + metrics.fontBoundingBoxAscent,
      };
    }
    throw new Error(`the line has no character ${at}`);
  }, index);
}

/**
 * How many pixels of the page in this rectangle (CSS pixels) stand out from the line's background,
 * taken from a screenshot. The background is read from the line's box past its last character.
 */
async function inkIn(
  page: Page,
  area: { left: number; right: number; top: number; bottom: number },
  background: { x: number; y: number },
): Promise<number> {
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  return page.evaluate(
    async ({ bytes, area, background }) => {
      // Decoded here rather than in Node: the browser reads PNG as it is, with no package for it.
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const scale = bitmap.width / window.innerWidth;
      const pixel = (x: number, y: number) => context.getImageData(x, y, 1, 1).data;
      const base = pixel(Math.round(background.x * scale), Math.round(background.y * scale));
      const x0 = Math.ceil(area.left * scale);
      const x1 = Math.floor(area.right * scale);
      const y0 = Math.ceil(area.top * scale);
      const y1 = Math.floor(area.bottom * scale);
      if (x1 <= x0 || y1 <= y0) return 0;
      const data = context.getImageData(x0, y0, x1 - x0, y1 - y0).data;
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        const difference =
          Math.abs(data[i]! - base[0]!) + Math.abs(data[i + 1]! - base[1]!) + Math.abs(data[i + 2]! - base[2]!);
        if (difference > 90) ink += 1;
      }
      return ink;
    },
    { bytes: [...png], area, background },
  );
}

/** A point of the line's background: a few characters past its end, inside the editor. */
async function backgroundOf(line: Locator, code: string) {
  const last = await cellOf(line, code.length - 1);
  return { x: last.right + 3 * (last.right - last.left), y: (last.top + last.bottom) / 2 };
}

/** Opens a new script's editor at this size, types `code` as one line and waits for Ace to show it. */
async function editorWithLine(page: Page, code: string): Promise<Locator> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, suite.app, await createUser(suite.app), '/editor');
  await expectVisible(mainArea(page).getByRole('heading', { name: 'Script Editor', exact: true }));
  await expect.poll(() => codeEditorLines(page)).toHaveLength(2);
  await typeInCodeEditor(page, code);
  await expect.poll(() => codeEditorLines(page)).toEqual([code]);
  // Valid code: no wavy underline under the line to be taken for its glyphs.
  await expectVisible(syntaxSummary(page).getByText('No syntax errors', { exact: true }));
  // The editor's font has loaded (or failed, and the fallback stands) and Ace has measured it.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // The cursor would stand out from the background too.
  await page.keyboard.press('Escape');
  await mainArea(page).getByRole('heading', { name: 'Script Editor', exact: true }).click();
  return codeEditor(page).locator('.ace_text-layer .ace_line').first();
}

/** The font faces of this family the page has loaded. */
const loadedFaces = (page: Page, family: string) =>
  page.evaluate(
    (name) => [...document.fonts].filter((face) => face.family.includes(name) && face.status === 'loaded').length,
    family,
  );

/** Ink in the band between the baseline and the bottom of the line, in the cell of the underscore. */
async function underscoreInk(page: Page, line: Locator, code: string, shot: string) {
  const underscore = await cellOf(line, code.indexOf('_'));
  const box = (await line.boundingBox())!;
  const ink = await inkIn(
    page,
    { left: underscore.left, right: underscore.right, top: underscore.baseline, bottom: underscore.bottom },
    await backgroundOf(line, code),
  );
  // The line alone, for a close look at its glyphs.
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOTS_DIR, `${shot}.png`),
    clip: { x: box.x - 4, y: box.y - 4, width: 140, height: box.height + 8 },
    animations: 'disabled',
    caret: 'hide',
  });
  return { ink, lineHeight: box.height };
}

const UNDERSCORE_CODE = 'local a_b = 1';

/** The editor font's files the page asks for, by name (without the build's hash). */
function recordFontRequests(page: Page): string[] {
  const files: string[] = [];
  page.on('request', (request) => {
    const name = /\/(jetbrains-mono-[a-z-]+-400-normal)-[^/]*\.woff2$/.exec(new URL(request.url()).pathname);
    if (name) files.push(name[1]!);
  });
  return files;
}

describe('the code editor shows what is typed', () => {
  it('the underscore of a_b is drawn below the baseline between a and b, in the bundled font', async () => {
    const page = await suite.browser.newPage();
    const fonts = recordFontRequests(page);
    const line = await editorWithLine(page, UNDERSCORE_CODE);
    expect(await loadedFaces(page, 'JetBrains Mono')).toBeGreaterThan(0);
    // From the app itself, and only the subset the code's characters are in.
    expect(fonts).toEqual(['jetbrains-mono-latin-400-normal']);
    const { ink, lineHeight } = await underscoreInk(page, line, UNDERSCORE_CODE, 'editor-font-underscore');
    expect(ink, `ink pixels of the underscore in a ${lineHeight} px line`).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'editor-font');
  });

  it('the sign-in screen asks for no font file', async () => {
    const page = await suite.browser.newPage();
    const fonts = recordFontRequests(page);
    await page.goto(suite.app.url + '/');
    await expectSignInScreen(page);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(fonts).toEqual([]);
  });

  it("with the bundled font unavailable the system's monospace shows the underscore too", async () => {
    // The font files fail to load, as on a network that drops them: the fallback draws the code.
    suite.browser.allowConsoleErrors(/jetbrains-mono/);
    const page = await suite.browser.newPage();
    await page.route(/jetbrains-mono.*\.woff2?$/, (route) => route.abort());
    const line = await editorWithLine(page, UNDERSCORE_CODE);
    expect(await loadedFaces(page, 'JetBrains Mono')).toBe(0);
    const { ink, lineHeight } = await underscoreInk(page, line, UNDERSCORE_CODE, 'editor-font-fallback-underscore');
    expect(ink, `ink pixels of the underscore in a ${lineHeight} px line`).toBeGreaterThanOrEqual(3);
  });

  it('brackets and operators are drawn whole, their feet below the baseline included', async () => {
    const page = await suite.browser.newPage();
    const code = 'local z = f(x)[i] ~= {y}';
    const line = await editorWithLine(page, code);
    const background = await backgroundOf(line, code);
    for (const character of ['(', ')', '[', ']', '{', '}']) {
      const cell = await cellOf(line, code.indexOf(character));
      const below = await inkIn(page, { ...cell, top: cell.baseline + 1 }, background);
      expect(below, `ink of ${character} below the baseline`).toBeGreaterThan(0);
    }
    for (const character of ['~', '=']) {
      const cell = await cellOf(line, code.indexOf(character));
      expect(await inkIn(page, cell, background), `ink of ${character}`).toBeGreaterThan(0);
    }
  });
});
