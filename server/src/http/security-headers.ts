import type { Middleware } from 'koa';
import { CATALOGUE_SITE_URL } from '@moonrelay/contract/constants';
import { imageSourcesOf, type ImageSources } from './image-sources.ts';

/**
 * Security headers for every answer. The CSP allows only this origin for scripts, styles, fonts
 * and connections (the editor is bundled, no CDN). Inline styles are allowed because the UI
 * library injects its styles at run time. Images come from this origin, data:/blob: URLs (the QR
 * code of two-factor setup) and the two third parties whose images the pages show: Roblox's CDN
 * (avatars, game icons) and the script catalogue's site (image-sources.ts); no other host.
 */
const contentSecurityPolicy = (sources: ImageSources) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${imageSourcesOf(sources).join(' ')}`,
    "font-src 'self' data:",
    // 'self' covers this origin's ws:/wss: too (CSP 3); the live socket is the only connection.
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

export function securityHeadersFor(sources: ImageSources): Readonly<Record<string, string>> {
  return Object.freeze({
    'Content-Security-Policy': contentSecurityPolicy(sources),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  });
}

/**
 * The headers with the default catalogue site, as the fast routes send them: they answer only the
 * game link's JSON, where no image is ever shown.
 */
export const SECURITY_HEADERS = securityHeadersFor({ catalogueSiteUrl: CATALOGUE_SITE_URL });

/** A year, with subdomains: sent only on answers that came over HTTPS (directly, or via a trusted proxy). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

export function securityHeaders(sources: ImageSources): Middleware {
  const headers = securityHeadersFor(sources);
  return async (ctx, next) => {
    ctx.set(headers);
    if (ctx.secure) ctx.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    // The API's answers are someone's data (their account, scripts, keys, the admins' user lists):
    // no shared or browser cache keeps them. A route that may be cached says so itself.
    if (ctx.path.startsWith('/api/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
