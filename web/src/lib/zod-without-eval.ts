import { z } from 'zod';

/**
 * The server's Content-Security-Policy allows no eval, and zod would otherwise probe for it
 * (new Function) at the first parse of an object schema, to compile fast parsers: the browser
 * refuses it and reports a violation on every load. Interpreted parsing is fast enough for forms.
 * Imported first by main.tsx, before any schema is used.
 */
z.config({ jitless: true });
