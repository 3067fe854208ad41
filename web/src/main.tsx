// First: no schema may parse before zod is told not to probe for eval.
import './lib/zod-without-eval.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/reduced-motion.css';
import { applyTheme, storedTheme } from './lib/theme.ts';

// Before the first paint, so a light-theme user never sees a dark flash (and the reverse).
applyTheme(storedTheme());

const root = document.getElementById('root');
if (root) {
  const reactRoot = createRoot(root);
  // As a transition, the first render is concurrent: React yields to the browser every few
  // milliseconds instead of holding the main thread for the whole first screen (Chakra resolves
  // every component's styles while rendering), so a tap or a keypress during start-up is answered.
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
