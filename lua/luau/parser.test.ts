import { describe, expect, it } from 'vitest';
import type { Chunk, Expression, Statement, SyntaxDiagnostic } from './ast.ts';
import { MAX_DIAGNOSTICS, parseLuau } from './parser.ts';

/** Parses code that must be valid; returns its tree. */
function ok(code: string): Chunk {
  const result = parseLuau(code);
  expect(result.diagnostics, code).toEqual([]);
  return result.chunk;
}

function messages(code: string): string[] {
  return parseLuau(code).diagnostics.map((diagnostic) => diagnostic.message);
}

function firstError(code: string): SyntaxDiagnostic {
  const [first] = parseLuau(code).diagnostics;
  expect(first, `expected an error in ${JSON.stringify(code)}`).toBeDefined();
  return first!;
}

function statement(code: string, index = 0): Statement {
  return ok(code).body.body[index]!;
}

/** The value of `local x = <expr>`. */
function expression(code: string): Expression {
  const local = statement(`local x = ${code}`);
  if (local.kind !== 'Local') throw new Error('not a local');
  return local.values[0]!;
}

describe('Luau parser: statements', () => {
  it('parses locals, with annotations and several values', () => {
    const local = statement('local a: number, b = 1, "two"');
    expect(local).toMatchObject({
      kind: 'Local',
      isConst: false,
      names: [
        { kind: 'Binding', name: 'a', type: { kind: 'Type' } },
        { name: 'b', type: null },
      ],
      values: [
        { kind: 'Number', value: 1 },
        { kind: 'String', value: 'two' },
      ],
    });
    expect(messages('local = 1')).toEqual(["Expected identifier when parsing variable name, got '='"]);
  });

  it('parses assignments to names, fields and indexes', () => {
    expect(statement('a, b.c, d[e] = 1, 2, 3')).toMatchObject({
      kind: 'Assign',
      targets: [{ kind: 'NameExpression' }, { kind: 'Member', name: { name: 'c' } }, { kind: 'Index' }],
    });
    expect(messages('a, f() = 1')).toEqual(['Assigned expression must be a variable or a field']);
    expect(messages('(a) = 1')).toEqual(['Assigned expression must be a variable or a field']);
  });

  it('parses every compound assignment', () => {
    for (const operator of ['+', '-', '*', '/', '//', '%', '^', '..'] as const) {
      expect(statement(`a.b ${operator}= 2`)).toMatchObject({
        kind: 'CompoundAssign',
        operator,
        target: { kind: 'Member' },
      });
    }
    expect(messages('(a) += 1')).toEqual(['Assigned expression must be a variable or a field']);
    // A call is a complete statement: the `+=` then starts the next one.
    expect(messages('f() += 1')[0]).toBe("Expected identifier when parsing expression, got '+='");
    expect(messages('a += ')).toEqual(['Expected identifier when parsing expression, got <eof>']);
  });

  it('parses calls as statements, and refuses other expressions', () => {
    expect(statement('print "hi"')).toMatchObject({ kind: 'CallStatement', call: { kind: 'Call' } });
    expect(statement('obj:method{1}')).toMatchObject({ kind: 'CallStatement', call: { kind: 'MethodCall' } });
    expect(messages('fiddlesticks')).toEqual(['Incomplete statement: expected assignment or a function call']);
    expect(messages('a.b')).toEqual(['Incomplete statement: expected assignment or a function call']);
  });

  it('parses control flow', () => {
    const code = `
      while a do break end
      repeat local z = 1 until z
      for i = 1, 10, 2 do end
      for k, v in pairs(t) do end
      if a then elseif b then else end
      do end
    `;
    expect(ok(code).body.body.map((s) => s.kind)).toEqual(['While', 'Repeat', 'NumericFor', 'GenericFor', 'If', 'Do']);
    expect(statement('if a then x() elseif b then y() else z() end')).toMatchObject({
      kind: 'If',
      clauses: [{ kind: 'IfClause' }, { kind: 'IfClause' }],
      elseBody: { kind: 'Block' },
    });
    expect(messages('while a end')).toEqual(["Expected 'do' when parsing while loop, got 'end'"]);
    expect(messages('for i = 1 do end')).toEqual(["Expected ',' when parsing index range, got 'do'"]);
    expect(messages('for a b in c do end')[0]).toBe("Expected 'in' when parsing for loop, got 'b'");
    expect(messages('if a b() end')).toEqual(["Expected 'then' when parsing if statement, got 'b'"]);
    expect(messages('repeat x() y()')).toEqual(["Expected 'until' (to close 'repeat' at column 1), got <eof>"]);
  });

  it('sees a repeat body’s locals in its condition (a scope, not a syntax rule): parses', () => {
    ok('repeat local done = true until done');
  });

  it('parses function statements with paths and methods', () => {
    expect(statement('function a.b.c:m(x, ...) end')).toMatchObject({
      kind: 'Function',
      base: { name: 'a' },
      path: [{ name: 'b' }, { name: 'c' }],
      method: { name: 'm' },
      func: { params: [{ name: 'x' }], vararg: true },
    });
    expect(statement('local function f() end')).toMatchObject({ kind: 'LocalFunction', name: { name: 'f' } });
    expect(messages('function a.() end')).toEqual(["Expected identifier when parsing field name, got '('"]);
    expect(messages('function f(a,) end')).toEqual(["Expected identifier when parsing variable name, got ')'"]);
  });

  it('parses return, break and continue as a block’s last statement', () => {
    expect(statement('return 1, 2')).toMatchObject({ kind: 'Return', values: [{}, {}] });
    expect(statement('return')).toMatchObject({ kind: 'Return', values: [] });
    expect(messages('return 0 print(5)')).toEqual(["Expected <eof>, got 'print'"]);
    expect(messages('while true do break print(5) end')[0]).toBe(
      "Expected 'end' (to close 'do' at column 12), got 'print'",
    );
    expect(messages('while true do continue print(5) end')[0]).toBe(
      "Expected 'end' (to close 'do' at column 12), got 'print'",
    );
  });

  it('requires break and continue inside a loop of the same function', () => {
    expect(messages('break')).toEqual(['break statement must be inside a loop']);
    expect(messages('continue')).toEqual(['continue statement must be inside a loop']);
    expect(messages('repeat local function a() break end until false')).toEqual([
      'break statement must be inside a loop',
    ]);
  });

  it('treats continue as a keyword only where it makes a statement', () => {
    expect(statement('while x do continue end')).toMatchObject({
      kind: 'While',
      body: { body: [{ kind: 'Continue' }] },
    });
    const uses = ok('local continue = 1\ncontinue = 2\ncontinue()\ncontinue.x = 3\nlocal t = { continue = continue }');
    expect(uses.body.body.map((s) => s.kind)).toEqual(['Local', 'Assign', 'CallStatement', 'Assign', 'Local']);
    expect(statement('for i = 1, 2 do if i then continue end end')).toMatchObject({ kind: 'NumericFor' });
  });

  it('parses const declarations and refuses to reassign them', () => {
    expect(statement('const x = 1')).toMatchObject({ kind: 'Local', isConst: true, names: [{ name: 'x' }] });
    ok('const a, b = f()');
    ok('local const = 5; const = 6');
    ok('const f = 1; do local f = 2; f = 3 end');
    expect(messages('const y')).toEqual(['Missing initializer in const declaration']);
    expect(messages('const a = 42; a = 43')).toEqual(["Variable 'a' is constant and may not be reassigned"]);
    expect(messages('const a = 42; a += 1')).toEqual(["Variable 'a' is constant and may not be reassigned"]);
    expect(messages('const a = 42; function a() end')).toEqual(["Variable 'a' is constant and may not be reassigned"]);
  });

  it('parses type aliases, exported ones and type functions', () => {
    expect(statement('type Point = { x: number, y: number }')).toMatchObject({
      kind: 'TypeAlias',
      exported: false,
      name: { name: 'Point' },
      generics: null,
      type: { kind: 'Type' },
      func: null,
    });
    expect(statement('export type List<T = any, U... = ...number> = { T }')).toMatchObject({
      exported: true,
      generics: { kind: 'Generics' },
    });
    expect(statement('export type function Keys(t) return t end')).toMatchObject({
      kind: 'TypeAlias',
      exported: true,
      type: null,
      func: { kind: 'FunctionBody' },
    });
    ok('local type = 1; type = 2; type.x = 3; export = 1');
    expect(messages('type 5 = number')).toEqual(["Expected identifier when parsing type name, got '5'"]);
    expect(messages('type A')).toEqual(["Expected '=' when parsing type alias, got <eof>"]);
    expect(messages('type A<B')).toEqual(["Expected '>' (to close '<' at column 7), got <eof>"]);
    expect(messages('local foo = 1; type function bar() print(foo) end')).toEqual([
      "Type function cannot reference outer local 'foo'",
    ]);
  });

  it('parses attributes on functions', () => {
    expect(statement('@native function f() end')).toMatchObject({ kind: 'Function', attributes: [{ name: 'native' }] });
    expect(statement('@checked @native local function f() end')).toMatchObject({
      kind: 'LocalFunction',
      attributes: [{ name: 'checked' }, { name: 'native' }],
    });
    expect(statement('@[deprecated { reason = "old" }, native] function f() end')).toMatchObject({
      attributes: [{ name: 'deprecated' }, { name: 'native' }],
    });
    expect(expression('@native function() end')).toMatchObject({
      kind: 'FunctionExpression',
      attributes: [{ name: 'native' }],
    });
    expect(messages('@fancy function f() end')).toEqual(["Invalid attribute '@fancy'"]);
    expect(messages('@native @native function f() end')).toEqual(["Cannot duplicate attribute '@native'"]);
    expect(messages('@[] function f() end')).toEqual(['Attribute list cannot be empty']);
    expect(messages('@native local x = 1')).toEqual([
      "Expected 'function' after local declaration with attribute, but got 'x' instead",
    ]);
    expect(messages('@native x = 1')[0]).toBe(
      "Expected 'function', 'local function', 'const function', 'declare function' or a function type declaration after attribute, but got 'x' instead",
    );
  });
});

describe('Luau parser: expressions', () => {
  it('parses literals', () => {
    expect(expression('nil')).toMatchObject({ kind: 'Nil' });
    expect(expression('true')).toMatchObject({ kind: 'Boolean', value: true });
    expect(expression('...')).toMatchObject({ kind: 'Vararg' });
    expect(expression('{}')).toMatchObject({ kind: 'Table', fields: [] });
  });

  it('reads every number form, and refuses malformed ones', () => {
    const cases: [string, number][] = [
      ['42', 42],
      ['3.5', 3.5],
      ['.5', 0.5],
      ['5.', 5],
      ['1e3', 1000],
      ['1E-2', 0.01],
      ['2.5e+1', 25],
      ['0xFF', 255],
      ['0XaB', 171],
      ['0b1010', 10],
      ['0B11', 3],
      ['1_000_000', 1_000_000],
      ['0x_FF_FF', 0xffff],
      ['0b_1111_0000', 240],
    ];
    for (const [raw, value] of cases)
      expect(expression(raw)).toEqual(expect.objectContaining({ kind: 'Number', raw, value }));
    for (const bad of ['0b123', '0b0b1', '123x', '0xg', '0x0x123', '1..2', '1e', '0x', '1.2.3']) {
      expect(messages(`return ${bad}`), bad).toEqual(['Malformed number']);
    }
  });

  it('decodes strings and their escapes into bytes', () => {
    const cases: [string, string][] = [
      [`"plain"`, 'plain'],
      [`'single'`, 'single'],
      [`"a\\nb\\tc\\\\d\\"e\\'f"`, 'a\nb\tc\\d"e\'f'],
      [`"\\a\\b\\f\\v\\r"`, '\x07\b\f\v\r'],
      [`"\\x41\\x7a"`, 'Az'],
      [`"\\65\\066\\0067"`, 'AB\x067'],
      [`"\\u{48}\\u{e9}\\u{20AC}\\u{1F600}"`, 'H\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'],
      [`"a\\z   \n   b"`, 'ab'],
      [`"line\\\nnext"`, 'line\nnext'],
      [`"é"`, '\xc3\xa9'],
      [`"\\q"`, 'q'],
      ['[[long]]', 'long'],
      ['[==[a]]b]==]', 'a]]b'],
      ['[[\nfirst newline dropped]]', 'first newline dropped'],
    ];
    for (const [source, value] of cases) expect(expression(source), source).toMatchObject({ kind: 'String', value });
    for (const bad of ['"\\u{"', '"\\u{FO}"', '"\\u{123456789}"', '"\\359"', '"\\xFO"', '"\\xF"', '"\\x"']) {
      expect(messages(`return ${bad}`), bad).toEqual(['String literal contains malformed escape sequence']);
    }
    expect(messages('return "')).toEqual(['Malformed string; did you forget to finish it?']);
    expect(messages('return "abc\nx()')[0]).toBe('Malformed string; did you forget to finish it?');
    expect(messages('return [[abc')).toEqual(['Malformed string; did you forget to finish it?']);
  });

  it('parses interpolated strings, nested, with escapes', () => {
    expect(expression('`hello`')).toMatchObject({ kind: 'InterpolatedString', strings: ['hello'], expressions: [] });
    expect(expression('`a{b}c{d + 1}e`')).toMatchObject({
      kind: 'InterpolatedString',
      strings: ['a', 'c', 'e'],
      expressions: [{ kind: 'NameExpression', name: 'b' }, { kind: 'Binary' }],
    });
    expect(expression('`outer {`inner {x}`} done`')).toMatchObject({
      strings: ['outer ', ' done'],
      expressions: [{ kind: 'InterpolatedString', strings: ['inner ', ''] }],
    });
    expect(expression('`{ {1, 2} }`')).toMatchObject({ expressions: [{ kind: 'Table' }] });
    expect(expression('`\\{not} \\` \\u{41}`')).toMatchObject({ strings: ['{not} ` A'] });
    expect(messages('local x = `a{b`')).toEqual(["Malformed interpolated string; did you forget to add a '}'?"]);
    expect(messages('local x = `a{b}c')).toEqual(["Malformed interpolated string; did you forget to add a '`'?"]);
    expect(messages('local x = `a{}`')).toEqual(["Malformed interpolated string, expected expression inside '{}'"]);
    expect(messages('local x = `a{{b}}`')[0]).toBe(
      "Double braces are not permitted within interpolated strings; did you mean '\\{'?",
    );
  });

  it('applies Luau’s operator precedence and associativity', () => {
    expect(expression('1 + 2 * 3')).toMatchObject({ operator: '+', right: { operator: '*' } });
    expect(expression('2 ^ 3 ^ 2')).toMatchObject({
      operator: '^',
      left: { kind: 'Number' },
      right: { operator: '^' },
    });
    expect(expression('"a" .. "b" .. "c"')).toMatchObject({ operator: '..', right: { operator: '..' } });
    expect(expression('-x ^ 2')).toMatchObject({ kind: 'Unary', operator: '-', operand: { operator: '^' } });
    expect(expression('not a == b')).toMatchObject({ kind: 'Binary', operator: '==', left: { kind: 'Unary' } });
    expect(expression('a or b and c')).toMatchObject({ operator: 'or', right: { operator: 'and' } });
    expect(expression('a // b % c')).toMatchObject({ operator: '%', left: { operator: '//' } });
    expect(expression('#t >= 1')).toMatchObject({ operator: '>=', left: { kind: 'Unary', operator: '#' } });
    expect(messages('local x = a && b')).toEqual(["Unexpected '&&'; did you mean 'and'?"]);
    expect(messages('local x = a || b')).toEqual(["Unexpected '||'; did you mean 'or'?"]);
    expect(messages('local x = a != b')).toEqual(["Unexpected '!='; did you mean '~='?"]);
    expect(messages('local x = !a')).toEqual(["Unexpected '!'; did you mean 'not'?"]);
  });

  it('parses if-then-else expressions', () => {
    expect(expression('if a then 1 elseif b then 2 else 3')).toMatchObject({
      kind: 'IfExpression',
      clauses: [{ condition: { name: 'a' } }, { condition: { name: 'b' } }],
      elseValue: { value: 3 },
    });
    expect(messages('local x = if a then 1')).toEqual([
      "Expected 'else' when parsing if then else expression, got <eof>",
    ]);
    expect(messages('local x = if a 1 else 2')).toEqual([
      "Expected 'then' when parsing if then else expression, got '1'",
    ]);
  });

  it('parses casts', () => {
    expect(expression('(x :: any) :: number')).toMatchObject({
      kind: 'Cast',
      expression: { kind: 'Paren', expression: { kind: 'Cast' } },
      type: { kind: 'Type' },
    });
    expect(messages('local x = y ::')).toEqual(['Expected type, got <eof>']);
  });

  it('parses table constructors', () => {
    expect(expression('{1, x = 2, ["k"] = 3; 4,}')).toMatchObject({
      fields: [
        { kind: 'ItemField' },
        { kind: 'NamedField', key: { name: 'x' } },
        { kind: 'KeyedField' },
        { kind: 'ItemField' },
      ],
    });
    expect(messages('local t = {1, 2')).toEqual(["Expected '}' (to close '{' at column 11), got <eof>"]);
    expect(messages('local t = {a = 1 b = 2}')).toEqual(["Expected ',' after table constructor element"]);
  });

  it('parses functions with types, generics and varargs', () => {
    expect(
      expression('function<T, U...>(a: T, b: { [string]: number }?, ...: U...): (T, U...) return a end'),
    ).toMatchObject({
      kind: 'FunctionExpression',
      func: {
        generics: { kind: 'Generics' },
        params: [{ name: 'a', type: { kind: 'Type' } }, { name: 'b' }],
        vararg: true,
        returnType: { kind: 'Type' },
      },
    });
    expect(messages('local f = function() return ... end')).toEqual(["Cannot use '...' outside of a vararg function"]);
    expect(messages('local function f(): number, string end')[0]).toBe(
      "Expected a statement, got ','; did you forget to wrap the list of return types in parentheses?",
    );
    expect(messages('local function f() -> number end')).toEqual([
      "Function return type annotations are written after ':' instead of '->'",
    ]);
  });

  it('parses calls, methods, indexes and explicit type arguments', () => {
    expect(expression('a.b["c"]:d(1)("s"){}')).toMatchObject({
      kind: 'Call',
      callee: { kind: 'Call', callee: { kind: 'MethodCall', object: { kind: 'Index', object: { kind: 'Member' } } } },
    });
    ok('local a, b = typePacks<<(string, number)>>(1, "a")');
    ok('obj:method<<number>>(1)');
    expect(messages('local x = a:b')).toEqual(["Expected '(', '{' or <string> when parsing function call, got <eof>"]);
    expect(messages('local x = a.')).toEqual(['Expected identifier, got <eof>']);
  });

  it('refuses a call whose arguments start on the next line', () => {
    expect(messages('local x = a\n(b)()')).toEqual([
      "Ambiguous syntax: this looks like an argument list for a function call, but could also be a start of new statement; use ';' to separate statements",
    ]);
    ok('local x = a;\n(b)()');
    ok('promise\n  :andThen(f)\n  :catch(g)');
  });
});

describe('Luau parser: types', () => {
  const validTypes = [
    'number',
    'string?',
    'nil',
    '"literal"',
    'true | false',
    'A & B',
    'Module.Type<T>',
    'Map<string, { number }>',
    '{ x: number, y: number? }',
    '{ read x: number, write y: string }',
    '{ read: number, write: number }',
    '{ [string]: any }',
    '{ ["quoted key"]: number }',
    '(number, string) -> boolean',
    '(x: number, y: string) -> ()',
    '<T>(T) -> T',
    '<T...>(T...) -> T...',
    '(...number) -> ...string',
    '() -> (number, string)',
    '((number) -> string)?',
    'typeof(workspace.Part)',
    '| "a" | "b"',
    'F<(number, string), ...any>',
    'F<T...>',
    'F<>',
    '(number) -> (string) -> boolean',
  ];
  it.each(validTypes)('parses %s', (type) => {
    ok(`local x: ${type}`);
  });

  it('parses generic defaults and packs on aliases', () => {
    ok('type A<T, U = string, V... = ...number, W... = (string, number)> = any');
  });

  it('reports type errors in Luau’s words', () => {
    expect(messages('local x: = 5')).toEqual(["Expected type, got '='"]);
    expect(messages('type A = number & string | boolean')).toEqual([
      'Mixing union and intersection types is not allowed; consider wrapping in parentheses.',
    ]);
    expect(messages('type F = ((string, number))')).toEqual(["Expected '->' when parsing function type, got ')'"]);
    expect(messages('local n: {x: string, nil}')).toEqual(["Expected identifier when parsing table field, got 'nil'"]);
    expect(messages('local n: {[number]: string, number}')).toEqual(["Expected ':' when parsing table field, got '}'"]);
    expect(messages('local n: {[number]: string, [string]: number}')).toEqual([
      'Cannot have more than one table indexer',
    ]);
    expect(messages('local f: () ')).toEqual([
      "Expected '->' after '()' when parsing function type; did you mean 'nil'?",
    ]);
    expect(messages('local f: (number): string')).toEqual([
      "Return types in function type annotations are written after '->' instead of ':'",
    ]);
    expect(messages('local f: function')).toEqual([
      "Using 'function' as a type annotation is not supported, consider replacing with a function type annotation e.g. '(...any) -> ...any'",
    ]);
    expect(messages('type A<T... , U> = any')).toEqual(['Generic types come before generic type packs']);
    expect(messages('type A<T = number, U> = any')).toEqual(['Expected default type after type name']);
    expect(messages('local x: `a`')).toEqual(['Interpolated string literals cannot be used as types']);
  });
});

describe('Luau parser: positions', () => {
  it('gives every node a span with 1-based lines, UTF-16 columns and offsets', () => {
    const chunk = ok('local a = 1\nprint("é😀", a)');
    const [local, call] = chunk.body.body;
    expect(local!.span).toEqual({ start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 12, offset: 11 } });
    expect(call!.span).toEqual({ start: { line: 2, column: 1, offset: 12 }, end: { line: 2, column: 16, offset: 27 } });
    if (call!.kind !== 'CallStatement') throw new Error('not a call');
    // "é😀" is 5 UTF-16 code units with its quotes: é is 1, 😀 is 2.
    expect(call.call.args[0]!.span).toEqual({
      start: { line: 2, column: 7, offset: 18 },
      end: { line: 2, column: 12, offset: 23 },
    });
    expect(call.call.args[1]!.span.start).toEqual({ line: 2, column: 14, offset: 25 });
  });

  it('counts only \\n as a line break (a \\r is the last column of its line)', () => {
    const chunk = ok('local a = 1\r\nlocal b = [[x\r\ny]] local c = 2');
    const [, b, c] = chunk.body.body;
    expect(b!.span.start).toEqual({ line: 2, column: 1, offset: 13 });
    expect(c!.span.start).toEqual({ line: 3, column: 5, offset: 32 });
  });

  it('places errors on the offending token (end exclusive)', () => {
    expect(firstError('local x = = 1')).toEqual({
      line: 1,
      column: 11,
      endLine: 1,
      endColumn: 12,
      message: "Expected identifier when parsing expression, got '='",
    });
    expect(firstError('local function f()\n  return 1\n')).toEqual({
      line: 3,
      column: 1,
      endLine: 3,
      endColumn: 1,
      message: "Expected 'end' (to close 'function' at line 1), got <eof>",
    });
    expect(firstError('if (a == b then end')).toMatchObject({
      column: 12,
      message: "Expected ')' (to close '(' at column 4), got 'then'",
    });
  });

  it('skips a byte-order mark, still counting it as a column', () => {
    expect(firstError('\uFEFFx')).toMatchObject({ line: 1, column: 2 });
  });

  it('names a mis-indented block when an end is missing', () => {
    const code = 'function a()\n  if x then\n    y()\n  end\nend\nfunction b()\n  if x then\n  y()\n';
    expect(messages(code)).toEqual(["Expected 'end' (to close 'then' at line 7), got <eof>"]);
    const suspicious = 'local function f()\n  if x then\n    y()\n    end\n\nlocal function g()\nend';
    expect(messages(suspicious)[0]).toBe(
      "Expected 'end' (to close 'function' at line 1), got <eof>; did you forget to close 'then' at line 2?",
    );
  });
});

describe('Luau parser: recovery', () => {
  it('reports several independent errors in one pass', () => {
    const code = ['local a = = 1', 'print("ok")', 'local b: = 2', 'x', 'local s = "open'].join('\n');
    const diagnostics = parseLuau(code).diagnostics;
    expect(diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, "Expected identifier when parsing expression, got '='"],
      [3, "Expected type, got '='"],
      [4, 'Incomplete statement: expected assignment or a function call'],
      [5, 'Malformed string; did you forget to finish it?'],
    ]);
  });

  it('takes a keyword written as a field name for the name, after saying so', () => {
    expect(messages('local x = a.end\nprint(x)')).toEqual(["Expected identifier, got 'end'"]);
    expect(messages('a.then = 1')).toEqual(["Expected identifier, got 'then'"]);
    expect(messages('local x = a.\nlocal y = 1')).toEqual(["Expected identifier, got 'local'"]);
  });

  it('skips a stray token before the expected one', () => {
    expect(messages('local function f() ] end')).toEqual(["Expected identifier when parsing expression, got ']'"]);
    expect(messages('for i = 1, 2 x do end')).toEqual(["Expected 'do' when parsing for loop, got 'x'"]);
  });

  it('reports one error where several rules fail at the same place', () => {
    expect(messages('local a = (((b + ')).toEqual(['Expected identifier when parsing expression, got <eof>']);
  });

  it('names unknown characters and broken comments', () => {
    expect(messages('local x = 1 $ 2')[0]).toBe("Expected identifier when parsing expression, got '$'");
    expect(messages('x = é')).toEqual(['Expected identifier when parsing expression, got Unicode character U+e9']);
    expect(messages('local x = 1 --[[unfinished work')).toEqual([
      'Expected identifier when parsing expression, got unfinished comment',
    ]);
  });

  it(`stops at ${MAX_DIAGNOSTICS} errors`, () => {
    const diagnostics = parseLuau('= '.repeat(1000)).diagnostics;
    expect(diagnostics).toHaveLength(MAX_DIAGNOSTICS);
  });

  it('never throws on garbage', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = [
      '(',
      ')',
      '{',
      '}',
      '[',
      ']',
      '`',
      '"',
      'end',
      'if',
      'then',
      'function',
      'local',
      'x',
      '1',
      '=',
      ',',
      ':',
      '<',
      '>',
      '::',
      '.',
      '\n',
      ' ',
      '@',
      'type',
      '...',
      '|',
      '?',
      '->',
    ];
    for (let round = 0; round < 300; round++) {
      let code = '';
      for (let i = 0; i < 60; i++) code += alphabet[Math.floor(random() * alphabet.length)]! + ' ';
      const result = parseLuau(code);
      expect(result.chunk.kind).toBe('Chunk');
      for (const diagnostic of result.diagnostics) {
        expect(diagnostic.line).toBeGreaterThanOrEqual(1);
        expect(diagnostic.column).toBeGreaterThanOrEqual(1);
        expect(diagnostic.message).not.toBe('');
      }
    }
  });
});

describe('Luau parser: deep nesting', () => {
  const N = 100_000;
  const deep: [string, string, string][] = [
    ['parentheses', `local x = ${'('.repeat(N)}1${')'.repeat(N)}`, 'expression'],
    ['blocks', `${'do '.repeat(N)}${'end '.repeat(N)}`, 'block'],
    ['tables', `local t = ${'{'.repeat(N)}${'}'.repeat(N)}`, 'expression'],
    ['functions', `local f = ${'function() return '.repeat(N)}1${' end'.repeat(N)}`, 'block'],
    ['binary operators', `local x = 1${' + 1'.repeat(N)}`, 'expression'],
    ['right-associative operators', `local x = 1${' .. 1'.repeat(N)}`, 'expression'],
    ['field chains', `local x = a${'.b'.repeat(N)}`, 'expression'],
    ['calls', `f${'()'.repeat(N)}`, 'expression'],
    ['elseif chains', `if x then ${'elseif x then '.repeat(N)}end`, 'expression'],
    ['interpolations', `local x = ${'`{'.repeat(N)}1${'}`'.repeat(N)}`, 'expression'],
    ['unary operators', `local x = ${'not '.repeat(N)}1`, 'expression'],
    ['table types', `local x: ${'{'.repeat(N)}${'}'.repeat(N)}`, 'type annotation'],
    ['function types', `local x: ${'() -> '.repeat(N)}()`, 'type annotation'],
  ];
  it.each(deep)('stops %s at the nesting limit with Luau’s message', (_name, code, context) => {
    const { diagnostics } = parseLuau(code);
    expect(diagnostics.at(-1)!.message).toBe(
      `Exceeded allowed recursion depth; simplify your ${context} to make the code compile`,
    );
  });

  it('accepts nesting below the limit', () => {
    ok(`local x = ${'('.repeat(200)}1${')'.repeat(200)}`);
    ok(`${'do '.repeat(200)}${'end '.repeat(200)}`);
  });

  it('limits the length of a union', () => {
    expect(messages(`local x: a${' | a'.repeat(N)}`)).toEqual([
      'Exceeded allowed type length; simplify your type annotation to make the code compile',
    ]);
  });
});

/** Cases from Luau's own tests/Parser.test.cpp: the same errors, in order, at the same places. */
describe('Luau parser: as Luau’s own parser tests expect', () => {
  const located = (code: string) =>
    parseLuau(code).diagnostics.map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.message}`);

  it.each([
    ['print(`{e.x} {e.a', "1:17-1:18 Malformed interpolated string; did you forget to add a '}'?"],
    ['print(`{e.x} {e.a}', "1:18-1:19 Malformed interpolated string; did you forget to add a '`'?"],
    ['print(`{e.x} {e.a`', "1:18-1:19 Malformed interpolated string; did you forget to add a '}'?"],
    ['print(`{e.x} {e.a\n', "1:17-1:18 Malformed interpolated string; did you forget to add a '}'?"],
  ])('%j: two errors, the first one in the string', (code, first) => {
    const errors = located(code);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe(first);
  });

  it('recovers from return types written with the wrong separator', () => {
    const code = [
      '',
      'type Custom<A, B, C> = { x: A, y: B, z: C }',
      'type Packed<A...> = { x: (A...) -> () }',
      'type F = (number): Custom<boolean, number, string>',
      'type G = Packed<(number): (string, number, boolean)>',
      'local function f(x: number) -> Custom<string, boolean, number>',
      'end',
    ].join('\n');
    expect(messages(code)).toEqual([
      "Return types in function type annotations are written after '->' instead of ':'",
      "Return types in function type annotations are written after '->' instead of ':'",
      "Function return type annotations are written after ':' instead of '->'",
    ]);
  });

  it('places a missing default type pack as Luau does', () => {
    expect(located('\n        type Foo<T... = > = nil\n    ')).toEqual([
      "2:24-2:26 Expected type, got '>'",
      "2:24-2:25 Expected type pack after '=', got type",
    ]);
  });
});
