import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * playwright-core has no web-first assertions; these wait the way @playwright/test's do and fail
 * with a message naming what was expected.
 */
export async function expectVisible(locator: Locator, timeout?: number): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (error) {
    throw new Error(`expected ${locator} to be visible\n${(error as Error).message}`);
  }
}

export async function expectHidden(locator: Locator, timeout?: number): Promise<void> {
  try {
    await expect.poll(() => locator.count(), { timeout: timeout ?? 10_000 }).toBe(0);
  } catch {
    const count = await locator.count();
    throw new Error(`expected ${locator} to be absent, found ${count}`);
  }
}

/** Waits until the page's location has this path (and, when given, this search string). */
export async function expectPath(page: Page, pathname: string, search?: string): Promise<void> {
  await expect
    .poll(() => {
      const url = new URL(page.url());
      return search === undefined ? url.pathname : url.pathname + url.search;
    })
    .toBe(search === undefined ? pathname : pathname + search);
}

/** The localStorage entry of the page's origin (null when absent). */
export const storageItem = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

/**
 * Waits until `input` is marked invalid with `message`, shown in the element its aria-errormessage
 * names, and that element sits under the input.
 */
export async function expectFieldError(input: Locator, message: string): Promise<void> {
  const page = input.page();
  const errorText = async () => {
    if ((await input.getAttribute('aria-invalid')) !== 'true') return '(field not marked invalid)';
    const id = await input.getAttribute('aria-errormessage');
    if (!id) return '(no aria-errormessage)';
    const error = page.locator(`[id="${id}"]`);
    return (await error.count()) === 1 ? ((await error.textContent()) ?? '') : '(error element missing)';
  };
  await expect.poll(errorText, { message: `error under ${input}` }).toBe(message);
  const id = (await input.getAttribute('aria-errormessage')) as string;
  const field = await input.boundingBox();
  const error = await page.locator(`[id="${id}"]`).boundingBox();
  expect(field, `${input} is on screen`).not.toBeNull();
  expect(error, `the error of ${input} is on screen`).not.toBeNull();
  if (field && error) {
    expect(error.y, 'the error sits under its field').toBeGreaterThanOrEqual(field.y + field.height - 1);
    expect(error.x, 'the error lines up with its field').toBeLessThan(field.x + field.width);
  }
}

/** Waits until `input` is no longer marked invalid. */
export async function expectNoFieldError(input: Locator): Promise<void> {
  await expect.poll(() => input.getAttribute('aria-invalid'), { message: `${input} is valid` }).not.toBe('true');
}
