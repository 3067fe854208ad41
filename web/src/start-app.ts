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
  try {
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
  } catch (error) {
    console.error(error);
    showStartFailure(container);
  }
}

/**
 * A part of the app that did not download (the connection dropped, or a new version replaced the
 * files mid-load) would otherwise leave a blank page. Drawn without React, which may be the part
 * that is missing.
 */
function showStartFailure(container: HTMLElement): void {
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'max-width:28rem;margin:20vh auto;padding:0 1.5rem;font:16px/1.5 system-ui,sans-serif';
  const message = document.createElement('p');
  message.textContent = 'Moonrelay could not load. Check your connection and reload the page.';
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.textContent = 'Reload';
  reload.style.cssText = 'margin-top:0.75rem;padding:0.5rem 1rem;font:inherit;cursor:pointer';
  reload.addEventListener('click', () => location.reload());
  box.append(message, reload);
  container.replaceChildren(box);
}
