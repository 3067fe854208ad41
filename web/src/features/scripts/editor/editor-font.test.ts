import { afterEach, describe, expect, it, vi } from 'vitest';

/** A FontFace as the browser's, recording what it was given (jsdom has none). */
class RecordedFontFace {
  constructor(
    readonly family: string,
    readonly source: string,
    readonly descriptors: FontFaceDescriptors,
  ) {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the editor font', () => {
  it('declares each subset of the bundled font once, as its own file with its characters, loaded on use', async () => {
    const added: RecordedFontFace[] = [];
    vi.stubGlobal('FontFace', RecordedFontFace);
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { add: (face: RecordedFontFace) => added.push(face) },
    });
    const { registerEditorFont, EDITOR_FONT_NAME } = await import('./editor-font.ts');
    registerEditorFont();
    registerEditorFont();
    Reflect.deleteProperty(document, 'fonts');

    expect(EDITOR_FONT_NAME).toBe('JetBrains Mono');
    expect(added).toHaveLength(6);
    for (const face of added) {
      expect(face.family).toBe('JetBrains Mono');
      // A file served by the app, never a data: URL nor another origin.
      expect(face.source).toMatch(/^url\(\/[^)]*jetbrains-mono-[a-z-]+-400-normal\.woff2[^)]*\) format\('woff2'\)$/);
      expect(face.descriptors).toMatchObject({ style: 'normal', weight: '400', display: 'swap' });
      expect(face.descriptors.unicodeRange).toMatch(/^U\+[0-9A-F]/);
    }
    // Basic Latin (the underscore among it) is in the first subset.
    expect(added[0]?.descriptors.unicodeRange).toMatch(/^U\+0000-00FF,/);
  });

  it('does nothing without the FontFace API', async () => {
    const { registerEditorFont } = await import('./editor-font.ts');
    expect(() => registerEditorFont()).not.toThrow();
  });
});
