/**
 * What a game logs is kept and shown as plain text, never as markup, so the only danger in it is
 * characters that text cannot hold or that would garble a line: control characters other than
 * newline and tab (a CR/LF pair or lone CR becomes a newline; the rest U+FFFD, the replacement
 * character) and lone surrogates (halves of a character a cut or a broken encoder left alone; also
 * U+FFFD). Lengths were capped by the contract already (contract/src/console.ts).
 */

// Matching control characters is the point here.
/* eslint-disable no-control-regex */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NEEDS_WORK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ud800-\udfff]/;
/* eslint-enable no-control-regex */

export function consoleText(text: string): string {
  // Most lines are plain: one test, no copies.
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(/\r\n?/g, '\n').replace(CONTROL, '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}
