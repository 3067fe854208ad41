/**
 * The server's Content-Security-Policy allows no eval, and zod would otherwise probe for it
 * (new Function) at the first parse of an object schema, to compile fast parsers: the browser
 * refuses it and reports a violation on every load. Interpreted parsing is fast enough for forms.
 *
 * Set through the global that zod reads its settings from (the one `z.config` writes), so this
 * first module does not import zod: the first screen does not need zod, and loads it later.
 * Imported first by main.tsx, before any schema is used; zod-without-eval.test.ts checks zod
 * still reads it.
 */
const settings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
settings.__zod_globalConfig = { ...settings.__zod_globalConfig, jitless: true };
