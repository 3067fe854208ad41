import type { Middleware } from 'koa';

/**
 * Security headers for every answer. The CSP allows only this origin for scripts, styles, fonts
 * and connections (the editor is bundled, no CDN). Inline styles are allowed because the UI
 * library injects its styles at run time; images may come from https hosts (catalogue and avatar
 * images are served by third parties).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
});

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    await next();
  };
}
