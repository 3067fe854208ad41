import { createElement, startTransition, StrictMode } from 'react';

/** Ends the current task: the browser may paint and answer input before the next stage runs. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Starts the app in stages, each evaluated in a task of its own: React's DOM renderer, then
 * Chakra's design system (it builds every token and recipe when evaluated), then the app. Loaded
 * as one graph, all of it was evaluated in a single task of several hundred milliseconds on a
 * phone, during which a tap or a keypress went unanswered (decision 042). index.html preloads
 * every stage's chunks, so they download together, in parallel with the entry: staging costs no
 * round trip.
 */
export async function startApp(container: HTMLElement): Promise<void> {
  const { createRoot } = await import('react-dom/client');
  await nextTask();
  await import('./app/ui-system.ts');
  await nextTask();
  const { App } = await import('./app/App.tsx');
  await nextTask();
  const root = createRoot(container);
  // As a transition, the first render is concurrent: React yields to the browser every few
  // milliseconds instead of holding the main thread for the whole first screen (Chakra resolves
  // every component's styles while rendering).
  startTransition(() => {
    root.render(createElement(StrictMode, null, createElement(App)));
  });
}
