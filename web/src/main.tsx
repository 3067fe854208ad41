// First: no schema may parse before zod is told not to probe for eval.
import './lib/zod-without-eval.ts';
import './app/reduced-motion.css';
import { applyTheme, storedTheme } from './lib/theme.ts';
import { startApp } from './start-app.ts';

// Before the first paint, so a light-theme user never sees a dark flash (and the reverse).
applyTheme(storedTheme());

const root = document.getElementById('root');
if (root) void startApp(root);
