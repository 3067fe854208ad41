/**
 * The Luau lexer: source text to tokens, with positions as ast.ts defines them (1-based lines and
 * UTF-16 columns, only `\n` starts a line).
 *
 * Tokens are made as the parser asks for them (it looks one token ahead): kept in an array, a
 * megabyte's quarter of a million tokens would outlive the young generation and make garbage
 * collection the parser's biggest cost. The lexer depends on nothing the parser decides (the
 * interpolated-string brace stack is lexical), so lookahead needs no re-lexing.
 *
 * Errors are tokens (`brokenString`, `brokenComment`, `brokenUnicode`, `brokenInterpDoubleBrace`,
 * or an unknown character as a one-character token): the parser reports them in Luau's words where
 * a token of that kind is met, exactly as Luau does.
 */

import type { Position } from './ast.ts';

export type TokenType =
  | 'name'
  | 'number'
  | 'string'
  | 'longString'
  | 'interpBegin'
  | 'interpMid'
  | 'interpEnd'
  | 'interpSimple'
  | 'attribute'
  | 'eof'
  | 'brokenString'
  | 'brokenComment'
  | 'brokenUnicode'
  | 'brokenInterpDoubleBrace'
  // keywords and symbols are their own text ('end', '==', '..=', '@[', ...); so is an unknown character
  | (string & {});

export interface Token {
  type: TokenType;
  /** Offsets into the source: [start, end). */
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /**
   * name, keyword, number: its text; string: the text between the delimiters (escapes not
   * decoded); interpolated parts: the text between `` ` ``/`}` and `{`/`` ` ``; attribute: the name
   * after `@`; brokenUnicode: the code point (0 for an unpaired surrogate).
   */
  text: string;
  codePoint?: number;
  /** True when, after this token, the lexer is inside an interpolation's braces (a `}` would resume the string). */
  interpolationOpen?: boolean;
  /** The token's start and end as tree positions, made when a span first needs them (parser.ts). */
  startPosition?: Position;
  endPosition?: Position;
}

export const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'break',
  'do',
  'else',
  'elseif',
  'end',
  'false',
  'for',
  'function',
  'if',
  'in',
  'local',
  'nil',
  'not',
  'or',
  'repeat',
  'return',
  'then',
  'true',
  'until',
  'while',
]);

// Character codes the lexer branches on.
const LF = 10;
const CR = 13;
const SPACE = 32;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isNameChar(c: number): boolean {
  return isAlpha(c) || isDigit(c) || c === 95;
}

/** Luau's isSpace: space, \t, \n, \v, \f, \r. */
function isSpace(c: number): boolean {
  return c === SPACE || (c >= 9 && c <= 13);
}

const enum Brace {
  Normal,
  Interpolated,
}

/** Every token of a source, up to and including `eof` (for tests and tools; the parser streams). */
export function tokenize(source: string): Token[] {
  const lexer = new Lexer(source);
  const tokens = [lexer.nextToken()];
  while (tokens[tokens.length - 1]!.type !== 'eof') tokens.push(lexer.nextToken());
  return tokens;
}

export class Lexer {
  private offset = 0;
  private line = 1;
  private lineStart = 0;
  private readonly braces: Brace[] = [];
  private eof: Token | null = null;

  constructor(private readonly src: string) {
    // A byte-order mark is not code (Luau skips it too); it still counts as the first column.
    if (src.charCodeAt(0) === 0xfeff) this.offset = 1;
  }

  /** The next token; at the end, the same `eof` token again and again. */
  nextToken(): Token {
    if (this.eof) return this.eof;
    for (;;) {
      this.skipBlanks();
      const token = this.next();
      if (token === null) continue; // a comment
      if (this.braces.length > 0 && this.braces[this.braces.length - 1] === Brace.Interpolated)
        token.interpolationOpen = true;
      if (token.type === 'eof') this.eof = token;
      return token;
    }
  }

  private peek(ahead = 0): number {
    return this.src.charCodeAt(this.offset + ahead); // NaN past the end
  }

  private skipBlanks(): void {
    const src = this.src;
    for (;;) {
      const c = src.charCodeAt(this.offset);
      if (c === LF) {
        this.offset++;
        this.line++;
        this.lineStart = this.offset;
      } else if (isSpace(c)) {
        this.offset++;
      } else {
        return;
      }
    }
  }

  /** Moves past one character that may be a newline. */
  private consumeAny(): void {
    if (this.src.charCodeAt(this.offset) === LF) {
      this.line++;
      this.lineStart = this.offset + 1;
    }
    this.offset++;
  }

  private make(type: TokenType, start: number, line: number, column: number, text: string): Token {
    return {
      type,
      start,
      end: this.offset,
      line,
      column,
      endLine: this.line,
      endColumn: this.offset - this.lineStart + 1,
      text,
    };
  }

  private next(): Token | null {
    const start = this.offset;
    const line = this.line;
    const column = start - this.lineStart + 1;
    const c = this.peek();
    if (Number.isNaN(c)) return this.make('eof', start, line, column, '');

    const c1 = this.peek(1);

    switch (c) {
      case 45: // -
        if (c1 === 62) return this.symbol(2, '->', start, line, column);
        if (c1 === 61) return this.symbol(2, '-=', start, line, column);
        if (c1 === 45) return this.comment(start, line, column);
        return this.symbol(1, '-', start, line, column);
      case 91: {
        // [
        const sep = this.longSeparator(this.offset);
        if (sep.level >= 0) return this.longString(start, line, column, sep.level, 'longString', 'brokenString');
        if (sep.level === -1) return this.symbol(1, '[', start, line, column);
        this.offset = sep.end;
        return this.make('brokenString', start, line, column, '');
      }
      case 123: // {
        if (this.braces.length > 0) this.braces.push(Brace.Normal);
        return this.symbol(1, '{', start, line, column);
      case 125: {
        // }
        this.offset++;
        const top = this.braces.pop();
        if (top === Brace.Interpolated) return this.interpolatedSection(start, line, column, 'interpMid', 'interpEnd');
        return this.make('}', start, line, column, '}');
      }
      case 61: // =
        return c1 === 61 ? this.symbol(2, '==', start, line, column) : this.symbol(1, '=', start, line, column);
      case 60: // <
        return c1 === 61 ? this.symbol(2, '<=', start, line, column) : this.symbol(1, '<', start, line, column);
      case 62: // >
        return c1 === 61 ? this.symbol(2, '>=', start, line, column) : this.symbol(1, '>', start, line, column);
      case 126: // ~
        return c1 === 61 ? this.symbol(2, '~=', start, line, column) : this.symbol(1, '~', start, line, column);
      case 34: // "
      case 39: // '
        return this.quotedString(start, line, column, c);
      case 96: // `
        this.offset++;
        return this.interpolatedSection(start, line, column, 'interpBegin', 'interpSimple');
      case 46: // .
        if (c1 === 46) {
          const c2 = this.peek(2);
          if (c2 === 46) return this.symbol(3, '...', start, line, column);
          if (c2 === 61) return this.symbol(3, '..=', start, line, column);
          return this.symbol(2, '..', start, line, column);
        }
        if (isDigit(c1)) return this.number(start, line, column);
        return this.symbol(1, '.', start, line, column);
      case 43: // +
        return c1 === 61 ? this.symbol(2, '+=', start, line, column) : this.symbol(1, '+', start, line, column);
      case 47: // /
        if (c1 === 61) return this.symbol(2, '/=', start, line, column);
        if (c1 === 47)
          return this.peek(2) === 61
            ? this.symbol(3, '//=', start, line, column)
            : this.symbol(2, '//', start, line, column);
        return this.symbol(1, '/', start, line, column);
      case 42: // *
        return c1 === 61 ? this.symbol(2, '*=', start, line, column) : this.symbol(1, '*', start, line, column);
      case 37: // %
        return c1 === 61 ? this.symbol(2, '%=', start, line, column) : this.symbol(1, '%', start, line, column);
      case 94: // ^
        return c1 === 61 ? this.symbol(2, '^=', start, line, column) : this.symbol(1, '^', start, line, column);
      case 58: // :
        return c1 === 58 ? this.symbol(2, '::', start, line, column) : this.symbol(1, ':', start, line, column);
      case 40: // (
      case 41: // )
      case 93: // ]
      case 59: // ;
      case 44: // ,
      case 35: // #
      case 63: // ?
      case 38: // &
      case 124: // |
        return this.symbol(1, String.fromCharCode(c), start, line, column);
      case 64: // @
        if (c1 === 91) return this.symbol(2, '@[', start, line, column);
        this.offset++;
        if (isAlpha(this.peek()) || this.peek() === 95) {
          const nameStart = this.offset;
          while (isNameChar(this.peek())) this.offset++;
          return this.make('attribute', start, line, column, this.src.slice(nameStart, this.offset));
        }
        return this.make('attribute', start, line, column, '');
      default:
        if (isDigit(c)) return this.number(start, line, column);
        if (isAlpha(c) || c === 95) {
          while (isNameChar(this.peek())) this.offset++;
          const text = this.src.slice(start, this.offset);
          return this.make(KEYWORDS.has(text) ? text : 'name', start, line, column, text);
        }
        if (c >= 0x80) return this.unicode(start, line, column);
        return this.symbol(1, String.fromCharCode(c), start, line, column);
    }
  }

  private symbol(length: number, type: string, start: number, line: number, column: number): Token {
    this.offset += length;
    return this.make(type, start, line, column, type);
  }

  private comment(start: number, line: number, column: number): Token | null {
    this.offset += 2;
    if (this.peek() === 91) {
      const sep = this.longSeparator(this.offset);
      if (sep.level >= 0) {
        const token = this.longString(start, line, column, sep.level, 'comment', 'brokenComment');
        return token.type === 'brokenComment' ? token : null;
      }
    }
    const src = this.src;
    let i = this.offset;
    for (;;) {
      const c = src.charCodeAt(i);
      if (Number.isNaN(c) || c === LF || c === CR) break;
      i++;
    }
    this.offset = i;
    return null;
  }

  /**
   * At a `[` or `]`: the level of a long bracket (`[==[` is 2), -1 when it is not one, or below -1
   * when it is a malformed one (`[==x`). Does not move; `end` is past the `=`s.
   */
  private longSeparator(at: number): { level: number; end: number } {
    const open = this.src.charCodeAt(at);
    let i = at + 1;
    let count = 0;
    while (this.src.charCodeAt(i) === 61) {
      i++;
      count++;
    }
    return this.src.charCodeAt(i) === open ? { level: count, end: i } : { level: -count - 1, end: i };
  }

  private longString(start: number, line: number, column: number, level: number, ok: string, broken: string): Token {
    const src = this.src;
    this.offset += level + 2; // [==[
    const contentStart = this.offset;
    const close = `]${'='.repeat(level)}]`;
    const closeAt = src.indexOf(close, contentStart);
    const contentEnd = closeAt === -1 ? src.length : closeAt;
    // Count the newlines inside, for positions.
    for (let i = src.indexOf('\n', contentStart); i !== -1 && i < contentEnd; i = src.indexOf('\n', i + 1)) {
      this.line++;
      this.lineStart = i + 1;
    }
    if (closeAt === -1) {
      this.offset = src.length;
      return this.make(broken, start, line, column, '');
    }
    this.offset = closeAt + close.length;
    return this.make(ok, start, line, column, src.slice(contentStart, contentEnd));
  }

  private quotedString(start: number, line: number, column: number, delimiter: number): Token {
    this.offset++;
    const contentStart = this.offset;
    for (;;) {
      const c = this.peek();
      if (c === delimiter) break;
      if (Number.isNaN(c) || c === LF || c === CR) return this.make('brokenString', start, line, column, '');
      if (c === 92) this.backslash();
      else this.offset++;
    }
    const text = this.src.slice(contentStart, this.offset);
    this.offset++;
    return this.make('string', start, line, column, text);
  }

  /** Skips an escape as Luau's lexer does (its meaning is checked when the parser decodes it). */
  private backslash(): void {
    this.offset++;
    const c = this.peek();
    if (c === CR) {
      this.offset++;
      if (this.peek() === LF) this.consumeAny();
    } else if (Number.isNaN(c)) {
      // the string is unfinished; the caller sees the end
    } else if (c === 122) {
      // \z skips the blanks that follow, newlines included
      this.offset++;
      while (isSpace(this.peek())) this.consumeAny();
    } else {
      this.consumeAny();
    }
  }

  private interpolatedSection(start: number, line: number, column: number, format: string, end: string): Token {
    const contentStart = this.offset;
    for (;;) {
      const c = this.peek();
      if (c === 96) break;
      if (Number.isNaN(c) || c === LF || c === CR) return this.make('brokenString', start, line, column, '');
      if (c === 92) {
        // `\u{` must not open an interpolation
        if (this.peek(1) === 117 && this.peek(2) === 123) this.offset += 3;
        else this.backslash();
      } else if (c === 123) {
        this.braces.push(Brace.Interpolated);
        if (this.peek(1) === 123) {
          const text = this.src.slice(contentStart, this.offset);
          this.offset += 2;
          return this.make('brokenInterpDoubleBrace', start, line, column, text);
        }
        const text = this.src.slice(contentStart, this.offset);
        this.offset++;
        return this.make(format, start, line, column, text);
      } else {
        this.offset++;
      }
    }
    const text = this.src.slice(contentStart, this.offset);
    this.offset++;
    return this.make(end, start, line, column, text);
  }

  /** Skips a number-like run as Luau does; the parser checks its shape ("Malformed number"). */
  private number(start: number, line: number, column: number): Token {
    do this.offset++;
    while (isDigit(this.peek()) || this.peek() === 46 || this.peek() === 95);
    const e = this.peek();
    if (e === 101 || e === 69) {
      this.offset++;
      if (this.peek() === 43 || this.peek() === 45) this.offset++;
    }
    while (isNameChar(this.peek())) this.offset++;
    return this.make('number', start, line, column, this.src.slice(start, this.offset));
  }

  private unicode(start: number, line: number, column: number): Token {
    const codePoint = this.src.codePointAt(this.offset)!;
    const isLoneSurrogate = codePoint >= 0xd800 && codePoint <= 0xdfff;
    this.offset += codePoint > 0xffff ? 2 : 1;
    const token = this.make('brokenUnicode', start, line, column, '');
    token.codePoint = isLoneSurrogate ? 0 : codePoint;
    return token;
  }
}

/** How Luau names a token in "got ..." (`'end'`, `<eof>`, `'x'`, `"text"`, `number`...). */
export function describeToken(token: Token): string {
  switch (token.type) {
    case 'eof':
      return '<eof>';
    case 'name':
    case 'number':
      return `'${token.text}'`;
    case 'string':
    case 'longString':
      return `"${token.text}"`;
    case 'interpBegin':
      return `\`${token.text}{`;
    case 'interpMid':
      return `}${token.text}{`;
    case 'interpEnd':
      return `}${token.text}\``;
    case 'interpSimple':
      return `\`${token.text}\``;
    case 'attribute':
      return `'${token.text}'`;
    case 'brokenString':
      return 'malformed string';
    case 'brokenComment':
      return 'unfinished comment';
    case 'brokenInterpDoubleBrace':
      return "'{{', which is invalid (did you mean '\\{'?)";
    case 'brokenUnicode':
      return token.codePoint ? `Unicode character U+${token.codePoint.toString(16)}` : 'invalid UTF-8 sequence';
    default:
      return describeExpected(token.type);
  }
}

/** How Luau names an expected kind of token ("Expected identifier", "Expected 'end'"). */
export function describeExpected(type: TokenType): string {
  switch (type) {
    case 'eof':
      return '<eof>';
    case 'name':
      return 'identifier';
    case 'number':
      return 'number';
    case 'string':
    case 'longString':
      return 'string';
    default: {
      // Luau prints a control character raw; show it readably instead.
      const code = type.charCodeAt(0);
      if (type.length === 1 && (code < SPACE || code === 127))
        return `'\\${code === 0 ? '0' : `x${code.toString(16).padStart(2, '0')}`}'`;
      return `'${type}'`;
    }
  }
}
