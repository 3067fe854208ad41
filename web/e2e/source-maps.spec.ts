import { describe, expect, it } from 'vitest';
import { expectSignInScreen } from './support/ui.ts';
import { browserSuite } from './support/suite.ts';

/**
 * The built scripts carry source maps, served beside them, so an error in the field can be read
 * against the source; a page never downloads them itself (only developer tools do).
 */
const suite = browserSuite();

describe('source maps', () => {
  it('each script the sign-in page loads names its map, the server sends it, and the page fetches none', async () => {
    const page = await suite.browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(suite.app.url + '/');
    await expectSignInScreen(page);

    // Rolldown's runtime helpers are generated code with no source file to map back to.
    const scripts = requested.filter(
      (file) => file.startsWith('/assets/') && file.endsWith('.js') && !file.startsWith('/assets/rolldown-runtime-'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(requested.filter((file) => file.endsWith('.map'))).toEqual([]);

    for (const script of scripts) {
      const code = await (await fetch(suite.app.url + script)).text();
      const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code);
      expect(named, `${script} names its source map`).not.toBeNull();
      const mapPath = new URL(named![1]!, suite.app.url + script).pathname;
      const answer = await fetch(suite.app.url + mapPath);
      expect(answer.status, mapPath).toBe(200);
      const map = (await answer.json()) as { version: number; sources: string[]; mappings: string };
      expect(map.version).toBe(3);
      expect(map.mappings.length).toBeGreaterThan(0);
      expect(map.sources.length).toBeGreaterThan(0);
    }
    // The entry's map leads back to the app's own source.
    const entryMaps = await Promise.all(
      scripts.map(
        async (script) => (await (await fetch(`${suite.app.url}${script}.map`)).json()) as { sources: string[] },
      ),
    );
    expect(entryMaps.some((map) => map.sources.some((source) => source.endsWith('src/main.tsx')))).toBe(true);
  });
});
