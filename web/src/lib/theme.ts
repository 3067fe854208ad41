import { create } from 'zustand';

/**
 * Dark is the default (spec: dark theme on the app shell). The choice is kept in localStorage
 * under `theme` as `dark` or `light`, and applied as the `dark`/`light` class Chakra's color mode
 * conditions read.
 */
export type Theme = 'dark' | 'light';
export const THEME_KEY = 'theme';

export function storedTheme(): Theme {
  return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.remove('dark', 'light');
  root.classList.add(theme);
  root.style.colorScheme = theme;
}

interface ThemeState {
  theme: Theme;
  setTheme(theme: Theme): void;
}

export const useTheme = create<ThemeState>((set) => ({
  theme: storedTheme(),
  setTheme(theme) {
    localStorage.setItem(THEME_KEY, theme);
    applyTheme(theme);
    set({ theme });
  },
}));
