// First: no schema may parse before zod is told not to probe for eval.
import './lib/zod-without-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/reduced-motion.css';
import { applyTheme, storedTheme } from './lib/theme.ts';

// Before the first paint, so a light-theme user never sees a dark flash (and the reverse).
applyTheme(storedTheme());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
