import { describe, expect, it, vi } from 'vitest';
import { LuauMode } from './luau-mode.ts';

const tokenizer = new LuauMode().getTokenizer();

interface Token {
  type: string;
  value: string;
}

/** Tokens of consecutive lines (each line starts in the state the previous one ended in). */
function tokenize(...lines: string[]): Token[][] {
  let state: string | string[] = 'start';
  return lines.map((line) => {
    const result = tokenizer.getLineTokens(line, state);
    state = result.state;
    return result.tokens.filter((token) => token.value.trim() !== '');
  });
}

const typeOf = (tokens: Token[], value: string) => tokens.find((token) => token.value === value)?.type;

describe('Luau mode tokenizer', () => {
  it('keeps the Lua basics: keywords, comments, strings, numbers and builtins', () => {
    const [tokens = []] = tokenize('local greeting = "hi" -- say hello');
    expect(tokens).toEqual([
      { type: 'keyword', value: 'local' },
      { type: 'identifier', value: 'greeting' },
      { type: 'keyword.operator', value: '=' },
      { type: 'string', value: '"hi"' },
      { type: 'comment', value: '-- say hello' },
    ]);
    const [call = []] = tokenize('print(math.floor(1.5), 0x1F, 1_000)');
    expect(typeOf(call, 'print')).toBe('support.function');
    expect(typeOf(call, 'math')).toBe('constant.library');
    expect(typeOf(call, '1.5')).toBe('constant.numeric');
    expect(typeOf(call, '0x1F')).toBe('constant.numeric');
    expect(typeOf(call, '1_000')).toBe('constant.numeric');
  });

  it("highlights 'continue' as a keyword and 'typeof' as a builtin", () => {
    const [tokens = []] = tokenize('for i = 1, 10 do if typeof(i) == "number" then continue end end');
    expect(typeOf(tokens, 'continue')).toBe('keyword');
    expect(typeOf(tokens, 'typeof')).toBe('support.function');
    expect(typeOf(tokens, 'for')).toBe('keyword');
    expect(typeOf(tokens, 'do')).toBe('keyword');
    expect(typeOf(tokens, 'end')).toBe('keyword');
  });

  it('reads every compound assignment as one operator token', () => {
    for (const operator of ['+=', '-=', '*=', '/=', '//=', '%=', '^=', '..=']) {
      const [tokens = []] = tokenize(`total ${operator} 2`);
      expect(tokens).toEqual([
        { type: 'identifier', value: 'total' },
        { type: 'keyword.operator', value: operator },
        { type: 'constant.numeric', value: '2' },
      ]);
    }
  });

  it('highlights a backtick string as a string, with its {...} parts as code', () => {
    const [plain = []] = tokenize('local s = `hello world`');
    expect(plain.at(-1)).toEqual({ type: 'string', value: '`hello world`' });

    const [tokens = []] = tokenize('print(`hello {name}, you are {age + 1}!`)');
    expect(tokens).toEqual([
      { type: 'support.function', value: 'print' },
      { type: 'paren.lparen', value: '(' },
      { type: 'string', value: '`hello ' },
      { type: 'paren.lparen', value: '{' },
      { type: 'identifier', value: 'name' },
      { type: 'paren.rparen', value: '}' },
      { type: 'string', value: ', you are ' },
      { type: 'paren.lparen', value: '{' },
      { type: 'identifier', value: 'age' },
      { type: 'keyword.operator', value: '+' },
      { type: 'constant.numeric', value: '1' },
      { type: 'paren.rparen', value: '}' },
      { type: 'string', value: '!`' },
      { type: 'paren.rparen', value: ')' },
    ]);
  });

  it('handles tables, nested strings and escapes inside interpolation', () => {
    const [tokens = []] = tokenize('local s = `a{ {1}[1] }b\\{c{`in {x}`}d`');
    expect(typeOf(tokens, '\\{')).toBe('constant.language.escape');
    expect(tokens.filter((token) => token.type === 'string').map((token) => token.value)).toEqual([
      '`a',
      'b',
      'c',
      '`in ',
      '`',
      'd`',
    ]);
    expect(tokens.filter((token) => token.type === 'paren.rparen').map((token) => token.value)).toEqual([
      '}',
      ']',
      '}',
      '}',
      '}',
    ]);
  });

  it('gives every mode instance rules of its own', () => {
    const line = 'local s: string = `{ {a} }`';
    const expected = tokenizer.getLineTokens(line, 'start');
    const other = new LuauMode().getTokenizer();
    expect(other.getLineTokens(line, 'start')).toEqual(expected);
    expect(tokenizer.getLineTokens(line, 'start')).toEqual(expected);
  });

  it('ends an unterminated backtick string with its line', () => {
    const returnOne = [
      { type: 'keyword', value: 'return' },
      { type: 'constant.numeric', value: '1' },
    ];
    for (const line of ['print(`oops {x}', 'print(`oops', 'print(`', 'print(`{ {y} }']) {
      const [, next] = tokenize(line, 'return 1');
      expect(next).toEqual(returnOne);
    }
    // A backslash at the end of the line continues the string.
    const [, continued = []] = tokenize('print(`one\\', 'two`)');
    expect(continued[0]).toEqual({ type: 'string', value: 'two`' });
  });

  it('highlights local type annotations without touching method calls', () => {
    const [tokens = []] = tokenize('local count: number, name: string? = 0, nil');
    expect(typeOf(tokens, 'count')).toBe('identifier');
    expect(typeOf(tokens, 'number')).toBe('support.type');
    expect(typeOf(tokens, 'string')).toBe('support.type');
    expect(typeOf(tokens, '?')).toBe('keyword.operator');
    expect(typeOf(tokens, 'nil')).toBe('constant.language');

    const [call = []] = tokenize('player:Kick("bye")');
    expect(call.map((token) => token.type)).toEqual([
      'identifier',
      'keyword.operator',
      'identifier',
      'paren.lparen',
      'string',
      'paren.rparen',
    ]);
  });

  it('highlights typed parameters and return types', () => {
    const [tokens = []] = tokenize('local function greet(name: string, ...: any): boolean return true end');
    expect(typeOf(tokens, 'greet')).toBe('entity.name.function');
    expect(typeOf(tokens, 'name')).toBe('variable.parameter');
    expect(typeOf(tokens, 'string')).toBe('support.type');
    expect(typeOf(tokens, 'any')).toBe('support.type');
    expect(typeOf(tokens, 'boolean')).toBe('support.type');
    expect(typeOf(tokens, 'return')).toBe('keyword');
    expect(typeOf(tokens, 'true')).toBe('constant.language');

    const [method = []] = tokenize('function Module.Thing:update(self, dt: number): (number, string)');
    expect(typeOf(method, 'update')).toBe('entity.name.function');
    expect(typeOf(method, 'self')).toBe('variable.language');
    expect(method.filter((token) => token.type === 'support.type').map((token) => token.value)).toEqual([
      'number',
      'number',
      'string',
    ]);
  });

  it('highlights type and export type declarations, also across lines', () => {
    const [alias = []] = tokenize('type Callback = (number) -> ()');
    expect(alias.slice(0, 2)).toEqual([
      { type: 'keyword', value: 'type' },
      { type: 'support.type', value: 'Callback' },
    ]);
    expect(typeOf(alias, '->')).toBe('keyword.operator');

    const [head = [], field = [], close = [], after = []] = tokenize(
      'export type Point<T> = {',
      '  x: T, label: string | nil,',
      '}',
      'local p = type(x)',
    );
    expect(head.slice(0, 3)).toEqual([
      { type: 'keyword', value: 'export' },
      { type: 'keyword', value: 'type' },
      { type: 'support.type', value: 'Point' },
    ]);
    expect(typeOf(field, 'x')).toBe('identifier');
    expect(typeOf(field, 'T')).toBe('support.type');
    expect(typeOf(field, 'string')).toBe('support.type');
    expect(close).toEqual([{ type: 'paren.rparen', value: '}' }]);
    // The builtin type() is still a function once the declaration is over.
    expect(typeOf(after, 'type')).toBe('support.function');
    expect(typeOf(after, 'local')).toBe('keyword');
  });

  it('highlights the type after a :: cast', () => {
    const [tokens = []] = tokenize('local n = (value :: any) :: number');
    expect(tokens.filter((token) => token.type === 'support.type').map((token) => token.value)).toEqual([
      'any',
      'number',
    ]);
  });

  it('tokenizes a whole script without tokenizer errors and ends back in code', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const script = [
      '--!strict',
      '--[[ long',
      'comment ]]',
      'local Players = game:GetService("Players")',
      'export type Stats = { health: number, name: string?, tags: {[string]: boolean} }',
      'type Handler<T...> = (T...) -> ()',
      'local function onJoin(player: Player, stats: Stats?): ()',
      '  local total: number = 0',
      '  for i: number = 1, 10 do',
      '    if i % 2 == 0 then continue end',
      '    total += i',
      '  end',
      '  local msg = `{player.Name} joined with {total} points`',
      '  print(msg, [[raw',
      'string]], (total :: any) :: number)',
      'end',
      'Players.PlayerAdded:Connect(function(player) onJoin(player, nil) end)',
    ];
    let state: string | string[] = 'start';
    for (const line of script) {
      const result = tokenizer.getLineTokens(line, state);
      expect(result.tokens.map((token) => token.value).join('')).toBe(line);
      expect(result.tokens.some((token) => token.type === 'overflow')).toBe(false);
      state = result.state;
    }
    expect(state).toBe('start');
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
