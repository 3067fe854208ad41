import latin from '@fontsource/jetbrains-mono/files/jetbrains-mono-latin-400-normal.woff2?url&no-inline';
import latinExt from '@fontsource/jetbrains-mono/files/jetbrains-mono-latin-ext-400-normal.woff2?url&no-inline';
import cyrillic from '@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-400-normal.woff2?url&no-inline';
import cyrillicExt from '@fontsource/jetbrains-mono/files/jetbrains-mono-cyrillic-ext-400-normal.woff2?url&no-inline';
import greek from '@fontsource/jetbrains-mono/files/jetbrains-mono-greek-400-normal.woff2?url&no-inline';
import vietnamese from '@fontsource/jetbrains-mono/files/jetbrains-mono-vietnamese-400-normal.woff2?url&no-inline';

/** The code editor's font, bundled with the app (@fontsource/jetbrains-mono), never from a CDN. */
export const EDITOR_FONT_NAME = 'JetBrains Mono';

/**
 * The bundled font first, so code looks the same everywhere; then each system's own monospace,
 * should it not load. Here rather than beside Ace, so code shown without the editor (a shared
 * script's page) has the editor's look without bringing Ace.
 */
export const EDITOR_FONT_FAMILY = `"${EDITOR_FONT_NAME}", ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace`;

/**
 * The package's subsets with their character ranges, as its 400.css declares them. Declared here
 * rather than by importing that stylesheet: the build inlines files under 4 KB into the stylesheet,
 * and every editor would then download the smallest subsets whether its code uses them or not.
 * `?no-inline` keeps each a file of its own, fetched only when the code has its characters.
 */
const SUBSETS: { url: string; unicodeRange: string }[] = [
  {
    url: latin,
    unicodeRange:
      'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  },
  {
    url: latinExt,
    unicodeRange:
      'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
  },
  { url: cyrillic, unicodeRange: 'U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116' },
  { url: cyrillicExt, unicodeRange: 'U+0460-052F,U+1C80-1C8A,U+20B4,U+2DE0-2DFF,U+A640-A69F,U+FE2E-FE2F' },
  { url: greek, unicodeRange: 'U+0370-0377,U+037A-037F,U+0384-038A,U+038C,U+038E-03A1,U+03A3-03FF' },
  {
    url: vietnamese,
    unicodeRange:
      'U+0102-0103,U+0110-0111,U+0128-0129,U+0168-0169,U+01A0-01A1,U+01AF-01B0,U+0300-0301,U+0303-0304,U+0308-0309,U+0323,U+0329,U+1EA0-1EF9,U+20AB',
  },
];

let registered = false;

/**
 * Makes the editor's font known to the page, once (the editor's chunk calls it as it loads). Nothing
 * is downloaded until text in the font is drawn; meanwhile, and should it fail, the fallback fonts
 * of the editor's font stack draw the code. Without the FontFace API (jsdom) it does nothing.
 */
export function registerEditorFont(): void {
  if (registered || typeof FontFace === 'undefined' || typeof document === 'undefined' || !document.fonts) return;
  registered = true;
  for (const { url, unicodeRange } of SUBSETS) {
    document.fonts.add(
      new FontFace(EDITOR_FONT_NAME, `url(${url}) format('woff2')`, {
        style: 'normal',
        weight: '400',
        display: 'swap',
        unicodeRange,
      }),
    );
  }
}
