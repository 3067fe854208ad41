import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Middleware } from 'koa';
import { chooseEncoding } from './content-encoding.ts';

/**
 * Answers smaller than this go plain: compressing a few hundred bytes saves less than it costs.
 * Past it, JSON shrinks five to a hundred times (a big game's status with 5,000 servers: 690 KB,
 * 6 KB as brotli; its 1,000 scripts: 598 KB, 42 KB), which a phone on a slow network waits for.
 */
export const COMPRESS_FROM_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Quality 4 of 11: made for every answer, so fast before small (1–2 ms for 600 KB of JSON, where
 * 11 takes 800 ms for 20 % less).
 */
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  },
};

/**
 * The answer's text as the client would have it: brotli or gzip when it accepts one (chosen by
 * content-encoding.ts, as for the web app's files) and the text is long enough, else null (plain).
 */
export async function compressedText(
  text: string,
  acceptEncoding: string | undefined,
): Promise<{ bytes: Buffer; encoding: 'br' | 'gzip' } | null> {
  if (Buffer.byteLength(text) < COMPRESS_FROM_BYTES) return null;
  const encoding = chooseEncoding(acceptEncoding);
  if (encoding === 'identity') return null;
  return { bytes: encoding === 'br' ? await brotli(text, BROTLI_OPTIONS) : await gzip(text), encoding };
}

const isStream = (body: unknown) => typeof (body as { pipe?: unknown } | null)?.pipe === 'function';

/**
 * Compresses the API's answers (JSON, and the text ones) when the client accepts it; the fast
 * routes (fast-routes.ts) do the same. Streams and bytes are left as they are: they are files
 * or already packed. The web app's files are stored compressed already.
 */
export function compressAnswers(): Middleware {
  return async (ctx, next) => {
    await next();
    if (!ctx.path.startsWith('/api/')) return;
    const body: unknown = ctx.body;
    if (body === null || body === undefined || Buffer.isBuffer(body) || isStream(body)) return;
    if (ctx.response.get('Content-Encoding')) return;
    // Caches keep one copy per encoding asked for.
    ctx.vary('Accept-Encoding');
    const compressed = await compressedText(
      typeof body === 'string' ? body : JSON.stringify(body),
      ctx.get('Accept-Encoding'),
    );
    if (!compressed) return;
    // The type was set with the body (json for an object); a buffer would otherwise keep it.
    const type = ctx.response.get('Content-Type');
    ctx.body = compressed.bytes;
    if (type) ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', compressed.encoding);
  };
}
