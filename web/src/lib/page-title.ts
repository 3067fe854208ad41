import { useEffect } from 'react';
import { APP_NAME } from '@moonrelay/contract/constants';

/** The browser tab's text for a screen: "Script Editor · Moonrelay", or the app name alone. */
export const pageTitle = (screen?: string) => (screen ? `${screen} · ${APP_NAME}` : APP_NAME);

/**
 * Names the browser tab after the screen on show, so tabs, history and screen readers tell
 * screens apart. The app name comes back when the screen goes.
 */
export function usePageTitle(screen?: string): void {
  useEffect(() => {
    document.title = pageTitle(screen);
    return () => {
      document.title = pageTitle();
    };
  }, [screen]);
}
