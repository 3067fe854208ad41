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
