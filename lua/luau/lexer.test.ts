import { describe, expect, it } from 'vitest';
import { describeToken, tokenize } from './lexer.ts';

const types = (code: string) => tokenize(code).map((token) => token.type);

describe('Luau lexer', () => {
  it('reads every operator, longest first', () => {
    expect(types('+= -= *= /= //= %= ^= ..= .. ... :: -> == ~= <= >= // @[')).toEqual([
      '+=',
      '-=',
      '*=',
      '/=',
      '//=',
      '%=',
      '^=',
      '..=',
      '..',
      '...',
      '::',
      '->',
      '==',
      '~=',
      '<=',
      '>=',
      '//',
      '@[',
      'eof',
    ]);
  });

  it('tells keywords from names, and reads attributes', () => {
    expect(types('local continue type end @native')).toEqual(['local', 'name', 'name', 'end', 'attribute', 'eof']);
    expect(tokenize('@native')[0]!.text).toBe('native');
  });

  it('skips comments, short and long, and reports an unfinished long one', () => {
    expect(types('a -- note\n--[==[ long\n]] still ]==] b')).toEqual(['name', 'name', 'eof']);
    expect(types('a --[[ open')).toEqual(['name', 'brokenComment', 'eof']);
  });

  it('splits interpolated strings around their expressions, with nesting and escaped braces', () => {
    const tokens = tokenize('`a{b}c{`d{e}`}f` `\\{x}`');
    expect(tokens.map((t) => [t.type, t.text])).toEqual([
      ['interpBegin', 'a'],
      ['name', 'b'],
      ['interpMid', 'c'],
      ['interpBegin', 'd'],
      ['name', 'e'],
      ['interpEnd', ''],
      ['interpEnd', 'f'],
      ['interpSimple', '\\{x}'],
      ['eof', ''],
    ]);
  });

  it('keeps a table inside an interpolation apart from its closing brace', () => {
    expect(types('`{ {1} }`')).toEqual(['interpBegin', '{', 'number', '}', 'interpEnd', 'eof']);
  });

  it('reads number-like runs whole (the parser decides if they are malformed)', () => {
    expect(tokenize('0x_FF 1e-3 .5 1..2 3abc').map((t) => t.text)).toEqual(['0x_FF', '1e-3', '.5', '1..2', '3abc', '']);
  });

  it('counts lines at \\n only and columns in UTF-16 units', () => {
    const [a, emoji, b, c] = tokenize('a\r\n  😀b\nc');
    expect(a).toMatchObject({ line: 1, column: 1, endLine: 1, endColumn: 2 });
    expect(emoji).toMatchObject({ type: 'brokenUnicode', line: 2, column: 3, endColumn: 5, codePoint: 0x1f600 });
    expect(b).toMatchObject({ type: 'name', line: 2, column: 5 });
    expect(c).toMatchObject({ line: 3, column: 1 });
  });

  it('names tokens as Luau does in messages', () => {
    const names = tokenize('x 12 "s" [[l]] `i` end ( é').map(describeToken);
    expect(names).toEqual(["'x'", "'12'", '"s"', '"l"', '`i`', "'end'", "'('", 'Unicode character U+e9', '<eof>']);
    expect(tokenize('"open').map(describeToken)).toEqual(['malformed string', '<eof>']);
  });
});
