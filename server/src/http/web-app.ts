import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { chooseEncoding } from './content-encoding.ts';

/**
 * Serves the built web app. Any GET outside /api that is not a file gets index.html, so the
 * client-side router owns paths like /editor or /settings. Hashed assets are cached for a year;
 * index.html is revalidated on every load so a deploy is picked up at once.
 *
 * The build stores a brotli (.br) and a gzip (.gz) copy beside each text file (web/build/precompress.ts);
 * the copy the browser asks for is sent with its Content-Encoding, the plain file otherwise. Every
 * answer varies by Accept-Encoding so a shared cache never hands brotli to a client that cannot read it.
 */
export function webApp(distDir: string): Middleware {
  const indexFile = path.join(distDir, 'index.html');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path === '/api' || ctx.path.startsWith('/api/')) {
      return next();
    }
    if (!fs.existsSync(indexFile)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The Moonrelay web app has not been built yet. Run `npm run build`, or start with `npm start`.';
      return;
    }
    const isAsset = ctx.path.startsWith('/assets/');
    const encoding = chooseEncoding(ctx.get('Accept-Encoding'));
    // koa-send looks for the .br or .gz copy only when told to; it falls back to the plain file.
    const precompressed = { brotli: encoding === 'br', gzip: encoding === 'gzip' };
    ctx.vary('Accept-Encoding');
    try {
      const served = await send(ctx, ctx.path, {
        root: distDir,
        index: 'index.html',
        maxage: isAsset ? 365 * 24 * 3600 * 1000 : 0,
        immutable: isAsset,
        ...precompressed,
      });
      if (served) {
        if (!isAsset) ctx.set('Cache-Control', 'no-cache');
        return;
      }
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 404 && status !== 400 && status !== 403) throw error;
      // A missing asset is a real 404; only page paths fall back to the app.
      if (isAsset || path.extname(ctx.path)) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'Not found';
        return;
      }
    }
    await send(ctx, 'index.html', { root: distDir, ...precompressed });
    ctx.set('Cache-Control', 'no-cache');
  };
}
