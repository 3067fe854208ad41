/**
 * String literal values as Lua holds them: bytes, one JS char per byte (0-255), UTF-8 for any
 * non-ASCII source text and for `\u{...}`. Escapes follow Luau (Lexer::fixupQuotedString): an
 * unknown escape (`\q`) is the character itself; `\x` takes exactly two hex digits; a decimal
 * escape at most three digits and 255; `\u{...}` a code point up to U+10FFFF.
 */

/** The value of a quoted (or interpolated) string's text between its delimiters; null when an escape is malformed. */
export function decodeString(text: string): string | null {
  if (!text.includes('\\')) return toBytes(text);
  let out = '';
  let i = 0;
  const size = text.length;
  while (i < size) {
    const backslash = text.indexOf('\\', i);
    if (backslash === -1) {
      out += toBytes(text.slice(i));
      break;
    }
    out += toBytes(text.slice(i, backslash));
    i = backslash + 1;
    if (i >= size) return null;
    const escape = text[i]!;
    i++;
    switch (escape) {
      case '\n':
        out += '\n';
        break;
      case '\r':
        out += '\n';
        if (text[i] === '\n') i++;
        break;
      case '\0':
        return null;
      case 'x': {
        const hex = text.slice(i, i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
        out += String.fromCharCode(parseInt(hex, 16));
        i += 2;
        break;
      }
      case 'z':
        while (i < size && isSpace(text.charCodeAt(i))) i++;
        break;
      case 'u': {
        if (text[i] !== '{') return null;
        const close = text.indexOf('}', i + 1);
        const hex = close === -1 ? '' : text.slice(i + 1, close);
        if (!/^[0-9a-fA-F]{1,16}$/.test(hex)) return null;
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) return null;
        out += utf8(code);
        i = close + 1;
        break;
      }
      default: {
        const code = escape.charCodeAt(0);
        if (code >= 48 && code <= 57) {
          let value = code - 48;
          for (let j = 0; j < 2 && i < size; j++) {
            const digit = text.charCodeAt(i);
            if (digit < 48 || digit > 57) break;
            value = value * 10 + (digit - 48);
            i++;
          }
          if (value > 255) return null;
          out += String.fromCharCode(value);
        } else {
          out += unescape(escape);
        }
      }
    }
  }
  return out;
}

/** A long string's value (`[[...]]`): the first newline is dropped and newlines become `\n`, as in Lua. */
export function longStringValue(text: string): string {
  let body = text.replace(/\r\n|\n\r|\r/g, '\n');
  if (body.startsWith('\n')) body = body.slice(1);
  return toBytes(body);
}

/** Source text (UTF-16) as bytes (UTF-8, one char per byte). */
export function toBytes(text: string): string {
  // Plain ASCII needs no work (the common case).
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  return Buffer.from(text, 'utf8').toString('latin1');
}

function utf8(code: number): string {
  if (code < 0x80) return String.fromCharCode(code);
  if (code < 0x800) return String.fromCharCode(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
  if (code < 0x10000)
    return String.fromCharCode(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  return String.fromCharCode(
    0xf0 | (code >> 18),
    0x80 | ((code >> 12) & 0x3f),
    0x80 | ((code >> 6) & 0x3f),
    0x80 | (code & 0x3f),
  );
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function unescape(escape: string): string {
  switch (escape) {
    case 'a':
      return '\x07';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    default:
      return escape;
  }
}
