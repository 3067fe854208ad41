import { describe, expect, it } from 'vitest';
import { startPreloads, type BundleChunk } from './preload-start.ts';

const chunk = (fileName: string, imports: string[] = [], dynamicImports: string[] = []): BundleChunk => ({
  type: 'chunk',
  fileName,
  imports,
  dynamicImports,
});

describe('start-up preloads', () => {
  const entry = chunk('index.js', ['runtime.js'], ['client.js', 'ui-system.js', 'App.js']);
  const bundle = Object.fromEntries(
    [
      entry,
      chunk('runtime.js'),
      chunk('client.js', ['react-dom.js', 'runtime.js']),
      chunk('react-dom.js'),
      chunk('ui-system.js', ['anatomy.js']),
      chunk('anatomy.js'),
      chunk('App.js', ['anatomy.js', 'api-client.js'], ['SignedInApp.js']),
      chunk('api-client.js'),
      chunk('SignedInApp.js', ['socket.js']),
      chunk('socket.js'),
      { type: 'asset' as const, fileName: 'index.css' },
    ].map((item) => [item.fileName, item]),
  );

  it("links every stage's chunks and what they import, once each", () => {
    expect(startPreloads(bundle, entry).sort()).toEqual(
      ['App.js', 'anatomy.js', 'api-client.js', 'client.js', 'react-dom.js', 'ui-system.js'].sort(),
    );
  });

  it("leaves out the entry's static imports, which Vite links itself", () => {
    expect(startPreloads(bundle, entry)).not.toContain('runtime.js');
  });

  it("leaves out the app's own lazy screens", () => {
    const preloads = startPreloads(bundle, entry);
    expect(preloads).not.toContain('SignedInApp.js');
    expect(preloads).not.toContain('socket.js');
  });
});
