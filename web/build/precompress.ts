import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Text files worth compressing; images and fonts are compressed already. Source maps are left
 * plain: only developer tools fetch them, and brotli at its best quality over megabytes of maps
 * would make every build much slower for no page load's gain.
 */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** Below this, the bytes saved do not pay for a Content-Encoding header and the lookup. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each built text file,
 * so the server sends compressed bytes without compressing on every request (server/src/http/web-app.ts
 * picks the copy by Accept-Encoding). A copy that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'moonrelay-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file) && !file.startsWith('.vite/'));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const plain = await fs.readFile(full);
          if (plain.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(plain, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              },
            }),
            gzip(plain, { level: 9 }),
          ]);
          if (br.length < plain.length) await fs.writeFile(`${full}.br`, br);
          if (gz.length < plain.length) await fs.writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
}
