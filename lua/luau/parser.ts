/**
 * Moonrelay's Luau parser: the whole Luau grammar (https://luau.org/grammar) to the tree in ast.ts,
 * with Luau's own error messages and error recovery, so that the editor shows what Roblox Studio
 * would say.
 *
 * The structure follows Luau's reference parser (Ast/src/Parser.cpp) where that decides which error
 * is reported and where: a recursive descent over one token of lookahead, the same recovery points
 * (skip to the expected token on the same line, skip one unexpected token), the same wording, and
 * the same rule that two errors at one location are reported once.
 *
 * Limits, both fatal as in Luau: 1000 nested levels (blocks, expressions, types; deeper code would
 * overflow the JavaScript stack, the message asks to simplify it) and 100 errors (garbage input
 * would otherwise produce one error per token).
 */
import type {
  AssignTarget,
  Attribute,
  Binding,
  Block,
  CallExpression,
  Chunk,
  CompoundOperator,
  Expression,
  FunctionBody,
  GenericList,
  IfClause,
  MethodCallExpression,
  Name,
  ParseResult,
  Position,
  Span,
  Statement,
  StringLiteral,
  SyntaxDiagnostic,
  TableField,
  TypeNode,
  BinaryOperator,
  UnaryOperator,
} from './ast.ts';
import { describeExpected, describeToken, KEYWORDS, Lexer, type Token, type TokenType } from './lexer.ts';
import { decodeString, longStringValue } from './strings.ts';

export type { ParseResult, SyntaxDiagnostic } from './ast.ts';

/** Luau's FInt::LuauRecursionLimit. */
export const MAX_NESTING = 1000;
/** Luau's FInt::LuauParseErrorLimit. */
export const MAX_DIAGNOSTICS = 100;
/** Luau's FInt::LuauTypeLengthLimit: parts of one union or intersection. */
const MAX_TYPE_LENGTH = 1000;

export function parseLuau(source: string): ParseResult {
  return new Parser(source).parse();
}

/** Thrown to stop parsing (nesting or error limit); its diagnostic is already recorded. */
class ParseAbort extends Error {}

type Location = { line: number; column: number; endLine: number; endColumn: number };

const BINARY_PRIORITY: Record<string, [number, number]> = {
  '+': [6, 6],
  '-': [6, 6],
  '*': [7, 7],
  '/': [7, 7],
  '//': [7, 7],
  '%': [7, 7],
  '^': [10, 9], // right associative
  '..': [5, 4], // right associative
  '~=': [3, 3],
  '==': [3, 3],
  '<': [3, 3],
  '<=': [3, 3],
  '>': [3, 3],
  '>=': [3, 3],
  and: [2, 2],
  or: [1, 1],
};
const UNARY_PRIORITY = 8;

const COMPOUND_OPERATORS: Record<string, CompoundOperator> = {
  '+=': '+',
  '-=': '-',
  '*=': '*',
  '/=': '/',
  '//=': '//',
  '%=': '%',
  '^=': '^',
  '..=': '..',
};

const ATTRIBUTE_NAMES: ReadonlySet<string> = new Set(['checked', 'native', 'deprecated']);

interface FunctionState {
  vararg: boolean;
  loopDepth: number;
}

/** A local in scope: enough to refuse assigning a `const` and a type function reading an outer local. */
interface LocalInfo {
  isConst: boolean;
  functionDepth: number;
}

class Parser {
  private readonly lexer: Lexer;
  private token: Token;
  /** The token after `token`, once lookahead() has read it. */
  private ahead: Token | null = null;
  private previous: Token;
  private readonly diagnostics: SyntaxDiagnostic[] = [];
  private depth = 0;
  private readonly functions: FunctionState[] = [{ vararg: true, loopDepth: 0 }];
  /** Tokens that stop "skip to the expected token on this line" recovery (counts, as in Luau). */
  private readonly stopOn = new Map<TokenType, number>([['eof', 1]]);
  /** A block closed by an `end` at another line and column: a likely culprit for a later missing `end`. */
  private endSuspect: { type: TokenType; line: number; column: number } | null = null;
  /** The locals in scope by name, and the stack that restores shadowed ones when a scope ends. */
  private readonly locals = new Map<string, LocalInfo>();
  private readonly localStack: { name: string; shadowed: LocalInfo | undefined }[] = [];
  /** Inside a `type function`: the function depth below which locals may not be read. */
  private typeFunctionDepth = 0;

  constructor(source: string) {
    this.lexer = new Lexer(source);
    this.token = this.lexer.nextToken();
    this.previous = this.token;
  }

  parse(): ParseResult {
    const first = this.token;
    let body: Block;
    try {
      body = this.parseBlock();
      if (this.token.type !== 'eof') this.expectFail('eof', null);
    } catch (error) {
      if (!(error instanceof ParseAbort)) throw error;
      body = { kind: 'Block', body: [], span: this.spanFrom(first) };
    }
    const chunk: Chunk = { kind: 'Chunk', body, span: { start: startOf(first), end: startOf(this.lastToken()) } };
    return { chunk, diagnostics: this.diagnostics };
  }

  // -------------------------------------------------------------------------------------------
  // Tokens, positions, errors

  /** The `eof` token (lexing the rest when parsing stopped early). */
  private lastToken(): Token {
    let token = this.ahead ?? this.token;
    while (token.type !== 'eof') token = this.lexer.nextToken();
    return token;
  }

  private next(): void {
    this.previous = this.token;
    if (this.ahead) {
      this.token = this.ahead;
      this.ahead = null;
    } else {
      this.token = this.lexer.nextToken();
    }
  }

  private lookahead(): Token {
    return (this.ahead ??= this.lexer.nextToken());
  }

  /** The span from a token's start to the end of the last consumed token. */
  private spanFrom(first: Token | Position): Span {
    const start = 'offset' in first ? first : startOf(first);
    const end = this.previous.end >= start.offset ? endOf(this.previous) : start;
    return { start, end };
  }

  private report(location: Location, message: string): void {
    // Several errors at one location (`local a = (((b + `) would say the same thing: keep the first.
    const last = this.diagnostics[this.diagnostics.length - 1];
    if (
      last &&
      last.line === location.line &&
      last.column === location.column &&
      last.endLine === location.endLine &&
      last.endColumn === location.endColumn
    )
      return;
    this.diagnostics.push({ ...location, message });
    if (this.diagnostics.length >= MAX_DIAGNOSTICS) throw new ParseAbort();
  }

  private reportAt(token: Token, message: string): void {
    this.report(tokenLocation(token), message);
  }

  private fatal(token: Token, message: string): never {
    this.diagnostics.push({ ...tokenLocation(token), message });
    throw new ParseAbort();
  }

  private enter(context: string): void {
    this.depth++;
    if (this.depth > MAX_NESTING) {
      this.fatal(this.token, `Exceeded allowed recursion depth; simplify your ${context} to make the code compile`);
    }
  }

  private expectFail(type: TokenType, context: string | null): void {
    const got = describeToken(this.token);
    const expected = describeExpected(type);
    this.reportAt(
      this.token,
      context ? `Expected ${expected} when parsing ${context}, got ${got}` : `Expected ${expected}, got ${got}`,
    );
  }

  /** Consumes a token of `type`, or reports it missing (and skips one stray token before it). */
  private expect(type: TokenType, context: string | null): boolean {
    if (this.token.type === type) {
      this.next();
      return true;
    }
    this.expectFail(type, context);
    if (this.lookahead().type === type) {
      this.next();
      this.next();
      return true;
    }
    return false;
  }

  private matchFail(type: TokenType, begin: Token, extra = ''): void {
    const opener = describeExpected(begin.type);
    const where = this.token.line === begin.line ? `column ${begin.column}` : `line ${begin.line}`;
    this.reportAt(
      this.token,
      `Expected ${describeExpected(type)} (to close ${opener} at ${where}), got ${describeToken(this.token)}${extra}`,
    );
  }

  /** Consumes the token closing `begin` (`)`, `]`, `}`, `>`), or reports it and tries to recover. */
  private expectMatch(type: TokenType, begin: Token, searchForMissing = false): boolean {
    if (this.token.type === type) {
      this.next();
      return true;
    }
    this.matchFail(type, begin);
    if (searchForMissing) {
      // Look for the closing token on the rest of this line, stopping at tokens an enclosing rule handles.
      const line = this.previous.endLine;
      while (this.token.line === line && this.token.type !== type && !this.stopOn.get(this.token.type)) this.next();
      if (this.token.type === type) {
        this.next();
        return true;
      }
    } else if (this.lookahead().type === type) {
      this.next();
      this.next();
      return true;
    }
    return false;
  }

  /** Consumes `end` (or `until`) closing `begin`, pointing at a mis-indented block when it is missing. */
  private expectMatchEnd(type: TokenType, begin: Token): boolean {
    if (this.token.type === type) {
      // Closed at another line and column: suspicious indentation, remembered for a later missing `end`.
      if (
        this.token.line !== begin.line &&
        this.token.column !== begin.column &&
        (this.endSuspect === null || this.endSuspect.line < begin.line)
      ) {
        this.endSuspect = { type: begin.type, line: begin.line, column: begin.column };
      }
      this.next();
      return true;
    }
    const suspect = this.endSuspect;
    if (suspect && suspect.line > begin.line) {
      this.matchFail(
        type,
        begin,
        `; did you forget to close ${describeExpected(suspect.type)} at line ${suspect.line}?`,
      );
    } else {
      this.matchFail(type, begin);
    }
    if (this.lookahead().type === type) {
      this.next();
      this.next();
      return true;
    }
    return false;
  }

  private withStop<T>(type: TokenType, parse: () => T): T {
    this.stopOn.set(type, (this.stopOn.get(type) ?? 0) + 1);
    try {
      return parse();
    } finally {
      this.stopOn.set(type, this.stopOn.get(type)! - 1);
    }
  }

  private get fn(): FunctionState {
    return this.functions[this.functions.length - 1]!;
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  private blockFollows(): boolean {
    const type = this.token.type;
    return type === 'eof' || type === 'else' || type === 'elseif' || type === 'end' || type === 'until';
  }

  private parseBlock(): Block {
    const scope = this.localStack.length;
    const block = this.parseBlockNoScope();
    this.restoreLocals(scope);
    return block;
  }

  private pushLocal(name: string, isConst: boolean): void {
    this.localStack.push({ name, shadowed: this.locals.get(name) });
    this.locals.set(name, { isConst, functionDepth: this.functions.length - 1 });
  }

  private restoreLocals(size: number): void {
    while (this.localStack.length > size) {
      const { name, shadowed } = this.localStack.pop()!;
      if (shadowed) this.locals.set(name, shadowed);
      else this.locals.delete(name);
    }
  }

  private parseBlockNoScope(): Block {
    const start = this.previous === this.token ? startOf(this.token) : endOf(this.previous);
    const body: Statement[] = [];
    while (!this.blockFollows()) {
      const depth = this.depth;
      this.enter('block');
      const statement = this.parseStatement();
      this.depth = depth;
      if (this.token.type === ';') {
        this.next();
        statement.span.end = endOf(this.previous);
      }
      body.push(statement);
      if (statement.kind === 'Return' || statement.kind === 'Break' || statement.kind === 'Continue') break;
    }
    return { kind: 'Block', body, span: { start, end: startOf(this.token) } };
  }

  private parseStatement(): Statement {
    switch (this.token.type) {
      case 'if':
        return this.parseIf();
      case 'while':
        return this.parseWhile();
      case 'do':
        return this.parseDo();
      case 'for':
        return this.parseFor();
      case 'repeat':
        return this.parseRepeat();
      case 'function':
        return this.parseFunctionStatement([], this.token);
      case 'local': {
        const start = this.token;
        this.next();
        return this.parseLocal(start, [], false);
      }
      case 'return':
        return this.parseReturn();
      case 'break':
        return this.parseBreak();
      case 'attribute':
      case '@[':
        return this.parseAttributeStatement();
      default:
        return this.parseExpressionStatement();
    }
  }

  /** Assignments, calls, and statements led by a contextual keyword (`type`, `export`, `continue`, `const`). */
  private parseExpressionStatement(): Statement {
    const start = this.token;
    const expr = this.parsePrimaryExpression(true);

    if (expr.kind === 'Call' || expr.kind === 'MethodCall') {
      return { kind: 'CallStatement', call: expr, span: expr.span };
    }
    if (this.token.type === ',' || this.token.type === '=') return this.parseAssignment(expr);
    const compound = COMPOUND_OPERATORS[this.token.type];
    if (compound !== undefined) return this.parseCompoundAssignment(expr, compound);

    const keyword = expr.kind === 'NameExpression' ? expr.name : null;
    if (keyword === 'type') return this.parseTypeAlias(start, false);
    if (keyword === 'export' && this.token.type === 'name' && this.token.text === 'type') {
      this.next();
      return this.parseTypeAlias(start, true);
    }
    if (keyword === 'continue') return this.parseContinue(start);
    if (keyword === 'const') return this.parseLocal(start, [], true);

    // Skip the unexpected token if nothing was consumed (statements are parsed in a loop).
    if (this.token === start) this.next();
    this.report(spanLocation(expr.span), 'Incomplete statement: expected assignment or a function call');
    return { kind: 'CallStatement', call: errorCall(expr), span: expr.span };
  }

  private parseIf(): Statement {
    const start = this.token;
    const clauses: IfClause[] = [];
    let elseBody: Block | null = null;
    // `elseif` chains are a loop here (Luau recurses), but count as nesting as in Luau.
    const depth = this.depth;
    let matchThen: Token;
    for (;;) {
      const clauseStart = this.token;
      this.next(); // if / elseif
      const condition = this.parseExpression();
      matchThen = this.token;
      this.expect('then', 'if statement');
      const body = this.parseBlock();
      clauses.push({ kind: 'IfClause', condition, body, span: this.spanFrom(clauseStart) });
      if (this.token.type !== 'elseif') break;
      this.enter('elseif');
    }
    this.depth = depth;
    let matchEnd = matchThen;
    if (this.token.type === 'else') {
      matchEnd = this.token;
      this.next();
      elseBody = this.parseBlock();
    }
    this.expectMatchEnd('end', matchEnd);
    return { kind: 'If', clauses, elseBody, span: this.spanFrom(start) };
  }

  private parseWhile(): Statement {
    const start = this.token;
    this.next();
    const condition = this.parseExpression();
    const matchDo = this.token;
    this.expect('do', 'while loop');
    const body = this.parseLoopBody();
    this.expectMatchEnd('end', matchDo);
    return { kind: 'While', condition, body, span: this.spanFrom(start) };
  }

  /** A `for` loop's body, its variables in scope. */
  private parseLoopBodyWith(variables: Binding[]): Block {
    const scope = this.localStack.length;
    for (const variable of variables) this.pushLocal(variable.name, false);
    const body = this.parseLoopBody();
    this.restoreLocals(scope);
    return body;
  }

  private parseLoopBody(): Block {
    this.fn.loopDepth++;
    const body = this.parseBlock();
    this.fn.loopDepth--;
    return body;
  }

  private parseRepeat(): Statement {
    const start = this.token;
    this.next();
    // The condition sees the body's locals.
    const scope = this.localStack.length;
    this.fn.loopDepth++;
    const body = this.parseBlockNoScope();
    this.fn.loopDepth--;
    this.expectMatchEnd('until', start);
    const condition = this.parseExpression();
    this.restoreLocals(scope);
    return { kind: 'Repeat', body, condition, span: this.spanFrom(start) };
  }

  private parseDo(): Statement {
    const start = this.token;
    this.next();
    const body = this.parseBlock();
    this.expectMatchEnd('end', start);
    return { kind: 'Do', body, span: this.spanFrom(start) };
  }

  private parseBreak(): Statement {
    const start = this.token;
    this.next();
    if (this.fn.loopDepth === 0) this.reportAt(start, 'break statement must be inside a loop');
    return { kind: 'Break', span: this.spanFrom(start) };
  }

  private parseContinue(start: Token): Statement {
    if (this.fn.loopDepth === 0) this.reportAt(start, 'continue statement must be inside a loop');
    return { kind: 'Continue', span: this.spanFrom(start) };
  }

  private parseFor(): Statement {
    const start = this.token;
    this.next();
    const first = this.parseBinding();
    if (this.token.type === '=') {
      this.next();
      const from = this.parseExpression();
      this.expect(',', 'index range');
      const limit = this.parseExpression();
      let step: Expression | null = null;
      if (this.token.type === ',') {
        this.next();
        step = this.parseExpression();
      }
      const matchDo = this.token;
      this.expect('do', 'for loop');
      const body = this.parseLoopBodyWith([first]);
      this.expectMatchEnd('end', matchDo);
      return { kind: 'NumericFor', variable: first, start: from, limit, step, body, span: this.spanFrom(start) };
    }
    const variables = [first];
    if (this.token.type === ',') {
      this.next();
      this.parseBindingList(variables, false);
    }
    this.expect('in', 'for loop');
    const iterators = this.parseExpressionList();
    const matchDo = this.token;
    this.expect('do', 'for loop');
    const body = this.parseLoopBodyWith(variables);
    this.expectMatchEnd('end', matchDo);
    return { kind: 'GenericFor', variables, iterators, body, span: this.spanFrom(start) };
  }

  private parseFunctionStatement(attributes: Attribute[], start: Token): Statement {
    const matchFunction = this.token;
    this.next();
    const base = this.parseName('function name');
    const target = this.locals.get(base.name);
    if (target?.isConst && this.token.type !== '.' && this.token.type !== ':') {
      this.report(spanLocation(base.span), `Variable '${base.name}' is constant and may not be reassigned`);
    }
    const path: Name[] = [];
    const depth = this.depth;
    while (this.token.type === '.') {
      this.next();
      path.push(this.parseName('field name'));
      this.enter('function name');
    }
    this.depth = depth;
    let method: Name | null = null;
    if (this.token.type === ':') {
      this.next();
      method = this.parseName('method name');
    }
    const func = this.withStop('end', () => this.parseFunctionBody(matchFunction, attributes, method !== null));
    return { kind: 'Function', attributes, base, path, method, func, span: this.spanFrom(start) };
  }

  private parseAttributes(): Attribute[] {
    const attributes: Attribute[] = [];
    while (this.token.type === 'attribute' || this.token.type === '@[') {
      if (this.token.type === 'attribute') {
        const token = this.token;
        this.validateAttribute(token, token.text, attributes);
        this.next();
        attributes.push({ kind: 'Attribute', name: token.text, span: this.spanFrom(token) });
      } else {
        this.parseAttributeList(attributes);
      }
    }
    return attributes;
  }

  private parseAttributeList(attributes: Attribute[]): void {
    const open = this.token;
    this.next();
    if (this.token.type === ']') {
      this.report(
        { line: open.line, column: open.column, endLine: this.token.endLine, endColumn: this.token.endColumn },
        'Attribute list cannot be empty',
      );
    } else {
      for (;;) {
        const nameToken = this.token;
        const name = this.parseName('attribute name');
        if (this.token.type === '(' || this.token.type === '{' || this.isStringToken()) {
          const argsStart = this.token;
          const args = this.parseCallArguments();
          if (!args.every(isLiteral)) {
            this.report(
              {
                line: argsStart.line,
                column: argsStart.column,
                endLine: this.previous.endLine,
                endColumn: this.previous.endColumn,
              },
              'Only literals can be passed as arguments for attributes',
            );
          }
        }
        this.validateAttribute(nameToken, name.name, attributes);
        attributes.push({ kind: 'Attribute', name: name.name, span: this.spanFrom(nameToken) });
        if (this.token.type !== ',') break;
        this.next();
      }
    }
    this.expectMatch(']', open);
  }

  private validateAttribute(token: Token, name: string, attributes: Attribute[]): void {
    if (name === '') this.reportAt(token, 'Attribute name is missing');
    else if (!ATTRIBUTE_NAMES.has(name)) this.reportAt(token, `Invalid attribute '@${name}'`);
    else if (attributes.some((attribute) => attribute.name === name))
      this.reportAt(token, `Cannot duplicate attribute '@${name}'`);
  }

  private parseAttributeStatement(): Statement {
    const start = this.token;
    const attributes = this.parseAttributes();
    if (this.token.type === 'function') return this.parseFunctionStatement(attributes, start);
    if (this.token.type === 'local') {
      this.next();
      return this.parseLocal(start, attributes, false);
    }
    if (this.token.type === 'name' && this.token.text === 'const') {
      this.next();
      return this.parseLocal(start, attributes, true);
    }
    this.reportAt(
      this.token,
      `Expected 'function', 'local function', 'const function', 'declare function' or a function type declaration after attribute, but got ${describeToken(this.token)} instead`,
    );
    return { kind: 'Local', names: [], values: [], isConst: false, span: this.spanFrom(start) };
  }

  /** After `local` or `const` (consumed). */
  private parseLocal(start: Token, attributes: Attribute[], isConst: boolean): Statement {
    if (this.token.type === 'function') {
      const functionToken = this.token;
      // A copy only for messages: the tree's positions come from the real token.
      const matchFunction: Token = { ...functionToken, startPosition: undefined, endPosition: undefined };
      this.next();
      // For the indentation hint, the function starts where `local` does when on its line.
      if (matchFunction.line === start.line) matchFunction.column = start.column;
      const nameToken = this.token;
      const name = this.parseName('variable name');
      const binding: Binding = { kind: 'Binding', name: name.name, type: null, span: this.spanFrom(nameToken) };
      this.pushLocal(name.name, isConst);
      const func = this.withStop('end', () =>
        this.parseFunctionBody(matchFunction, attributes, false, startOf(functionToken)),
      );
      return { kind: 'LocalFunction', attributes, name: binding, func, span: this.spanFrom(start) };
    }
    if (attributes.length > 0) {
      this.reportAt(
        this.token,
        `Expected 'function' after local declaration with attribute, but got ${describeToken(this.token)} instead`,
      );
    }
    const names: Binding[] = [];
    this.withStop('=', () => this.parseBindingList(names, false));
    let values: Expression[] = [];
    if (this.token.type === '=') {
      this.next();
      values = this.parseExpressionList();
    }
    for (const binding of names) this.pushLocal(binding.name, isConst);
    const span = this.spanFrom(start);
    if (isConst && !hasEnoughValues(values, names.length)) {
      this.report(spanLocation(span), 'Missing initializer in const declaration');
    }
    return { kind: 'Local', names, values, isConst, span };
  }

  private parseReturn(): Statement {
    const start = this.token;
    this.next();
    const values = !this.blockFollows() && this.token.type !== ';' ? this.parseExpressionList() : [];
    return { kind: 'Return', values, span: this.spanFrom(start) };
  }

  /** After `type` or `export type` (consumed). */
  private parseTypeAlias(start: Token, exported: boolean): Statement {
    if (this.token.type === 'function') {
      const matchFunction = this.token;
      this.next();
      const name = this.parseName('type function name');
      // A type function runs at type-check time: it cannot see the script's locals.
      const outerDepth = this.typeFunctionDepth;
      this.typeFunctionDepth = this.functions.length;
      const func = this.withStop('end', () => this.parseFunctionBody(matchFunction, []));
      this.typeFunctionDepth = outerDepth;
      return { kind: 'TypeAlias', exported, name, generics: null, type: null, func, span: this.spanFrom(start) };
    }
    const name = this.parseName('type name');
    const generics = this.parseGenericList(true);
    this.expect('=', 'type alias');
    const type = this.parseType();
    return { kind: 'TypeAlias', exported, name, generics, type, func: null, span: this.spanFrom(start) };
  }

  private parseAssignment(first: Expression): Statement {
    const targets = [this.checkAssignable(first)];
    while (this.token.type === ',') {
      this.next();
      targets.push(this.checkAssignable(this.parsePrimaryExpression(false)));
    }
    this.expect('=', 'assignment');
    const values = this.parseExpressionList();
    return { kind: 'Assign', targets, values, span: { start: first.span.start, end: endOf(this.previous) } };
  }

  private parseCompoundAssignment(first: Expression, operator: CompoundOperator): Statement {
    const target = this.checkAssignable(first);
    this.next();
    const value = this.parseExpression();
    return {
      kind: 'CompoundAssign',
      operator,
      target,
      value,
      span: { start: first.span.start, end: endOf(this.previous) },
    };
  }

  private checkAssignable(expr: Expression): AssignTarget {
    if (expr.kind === 'NameExpression' && this.locals.get(expr.name)?.isConst) {
      this.report(spanLocation(expr.span), `Variable '${expr.name}' is constant and may not be reassigned`);
      return expr;
    }
    if (expr.kind === 'NameExpression' || expr.kind === 'Member' || expr.kind === 'Index') return expr;
    this.report(spanLocation(expr.span), 'Assigned expression must be a variable or a field');
    return { kind: 'NameExpression', name: '', span: expr.span };
  }

  // -------------------------------------------------------------------------------------------
  // Functions and bindings

  /** `[<generics>] (params) [: ReturnType] block end`, after `function` (`matchFunction`, consumed). */
  private parseFunctionBody(
    matchFunction: Token,
    attributes: Attribute[],
    isMethod = false,
    functionStart: Position = startOf(matchFunction),
  ): FunctionBody {
    const start = attributes.length > 0 ? attributes[0]!.span.start : functionStart;
    const generics = this.parseGenericList(false);
    const matchParen = this.token;
    this.expect('(', 'function');
    const params: Binding[] = [];
    let vararg = false;
    this.withStop(')', () => {
      if (this.token.type !== ')') vararg = this.parseBindingList(params, true);
      this.expectMatch(')', matchParen, true);
    });
    const returnType = this.parseOptionalReturnType();
    this.functions.push({ vararg, loopDepth: 0 });
    const scope = this.localStack.length;
    if (isMethod) this.pushLocal('self', false);
    for (const param of params) this.pushLocal(param.name, false);
    const body = this.parseBlock();
    this.restoreLocals(scope);
    this.functions.pop();
    this.expectMatchEnd('end', matchFunction);
    return { kind: 'FunctionBody', generics, params, vararg, returnType, body, span: this.spanFrom(start) };
  }

  private parseBinding(): Binding {
    const start = this.token;
    let name = '';
    if (this.token.type === 'name') {
      name = this.token.text;
      this.next();
    } else {
      this.reportNameError('variable name');
    }
    const type = this.parseOptionalType();
    return { kind: 'Binding', name, type, span: this.spanFrom(start) };
  }

  /** Appends bindings to `result`; returns whether a `...` ended the list (only when `allowVararg`). */
  private parseBindingList(result: Binding[], allowVararg: boolean): boolean {
    for (;;) {
      if (this.token.type === '...' && allowVararg) {
        this.next();
        if (this.token.type === ':') {
          this.next();
          if (this.token.type === 'name' && this.lookahead().type === '...') {
            this.next();
            this.next();
          } else {
            this.parseType();
          }
        }
        return true;
      }
      result.push(this.parseBinding());
      if (this.token.type !== ',') return false;
      this.next();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private parseExpressionList(): Expression[] {
    const list = [this.parseExpression()];
    while (this.token.type === ',') {
      this.next();
      if (this.token.type === ')') {
        this.reportAt(this.token, "Expected expression after ',' but got ')' instead");
        break;
      }
      list.push(this.parseExpression());
    }
    return list;
  }

  private parseExpression(limit = 0): Expression {
    const depth = this.depth;
    this.enter('expression');
    const start = this.token;
    let expr: Expression;
    const type = this.token.type;
    if (type === 'not' || type === '-' || type === '#' || type === '!') {
      if (type === '!') this.reportAt(this.token, "Unexpected '!'; did you mean 'not'?");
      this.next();
      const operand = this.parseExpression(UNARY_PRIORITY);
      expr = {
        kind: 'Unary',
        operator: type === '!' ? 'not' : (type as UnaryOperator),
        operand,
        span: this.spanFrom(start),
      };
    } else {
      expr = this.parseAssertionExpression();
    }

    for (;;) {
      const operator = this.binaryOperator();
      if (operator === null) break;
      const priority = BINARY_PRIORITY[operator]!;
      if (priority[0] <= limit) break;
      this.next();
      const right = this.parseExpression(priority[1]);
      expr = {
        kind: 'Binary',
        operator,
        left: expr,
        right,
        span: { start: startOf(start), end: endOf(this.previous) },
      };
      // Not recursive here, but it builds a tree of unbounded depth: count it, as Luau does.
      this.enter('expression');
    }
    this.depth = depth;
    return expr;
  }

  /** The binary operator at the current token, reporting C-style confusables (`&&`, `||`, `!=`) as Luau does. */
  private binaryOperator(): BinaryOperator | null {
    const type = this.token.type;
    if (BINARY_PRIORITY[type] !== undefined && type !== 'eof') return type as BinaryOperator;
    const next = this.lookahead();
    const adjacent = next.start === this.token.end;
    const location = {
      line: this.token.line,
      column: this.token.column,
      endLine: next.endLine,
      endColumn: next.endColumn,
    };
    if (type === '&' && next.type === '&' && adjacent) {
      this.report(location, "Unexpected '&&'; did you mean 'and'?");
      this.next();
      return 'and';
    }
    if (type === '|' && next.type === '|' && adjacent) {
      this.report(location, "Unexpected '||'; did you mean 'or'?");
      this.next();
      return 'or';
    }
    if (type === '!' && next.type === '=' && adjacent) {
      this.report(location, "Unexpected '!='; did you mean '~='?");
      this.next();
      return '~=';
    }
    return null;
  }

  private parseAssertionExpression(): Expression {
    const start = this.token;
    const expr = this.parseSimpleExpression();
    if (this.token.type === '::') {
      this.next();
      const type = this.parseType();
      return { kind: 'Cast', expression: expr, type, span: this.spanFrom(start) };
    }
    return expr;
  }

  private parseSimpleExpression(): Expression {
    const start = this.token;
    switch (start.type) {
      case 'attribute':
      case '@[': {
        const attributes = this.parseAttributes();
        if (this.token.type !== 'function') {
          this.report(
            tokenLocation(start),
            `Expected 'function' declaration after attribute, but got ${describeToken(this.token)} instead`,
          );
          return errorExpression(this.spanFrom(start));
        }
        const matchFunction = this.token;
        this.next();
        const func = this.parseFunctionBody(matchFunction, attributes);
        return { kind: 'FunctionExpression', attributes, func, span: this.spanFrom(start) };
      }
      case 'nil':
        this.next();
        return { kind: 'Nil', span: this.spanFrom(start) };
      case 'true':
      case 'false':
        this.next();
        return { kind: 'Boolean', value: start.type === 'true', span: this.spanFrom(start) };
      case 'function': {
        this.next();
        const func = this.parseFunctionBody(start, []);
        return { kind: 'FunctionExpression', attributes: [], func, span: this.spanFrom(start) };
      }
      case 'number':
        return this.parseNumber();
      case 'string':
      case 'longString':
      case 'interpSimple':
        return this.parseString();
      case 'interpBegin':
        return this.parseInterpolatedString();
      case 'brokenString':
        this.next();
        this.reportAt(start, 'Malformed string; did you forget to finish it?');
        return errorExpression(this.spanFrom(start));
      case 'brokenInterpDoubleBrace':
        this.next();
        this.reportAt(start, "Double braces are not permitted within interpolated strings; did you mean '\\{'?");
        return errorExpression(this.spanFrom(start));
      case '...':
        this.next();
        if (!this.fn.vararg) this.reportAt(start, "Cannot use '...' outside of a vararg function");
        return { kind: 'Vararg', span: this.spanFrom(start) };
      case '{':
        return this.parseTable();
      case 'if':
        return this.parseIfExpression();
      default:
        return this.parsePrimaryExpression(false);
    }
  }

  private parseNumber(): Expression {
    const token = this.token;
    this.next();
    const value = parseNumberText(token.text);
    if (value === null) {
      this.reportAt(token, 'Malformed number');
      return errorExpression(this.spanFrom(token));
    }
    return { kind: 'Number', raw: token.text, value, span: this.spanFrom(token) };
  }

  private parseString(): Expression {
    const token = this.token;
    this.next();
    const value = token.type === 'longString' ? longStringValue(token.text) : decodeString(token.text);
    if (value === null) {
      this.reportAt(token, 'String literal contains malformed escape sequence');
      return errorExpression(this.spanFrom(token));
    }
    if (token.type === 'interpSimple') {
      return { kind: 'InterpolatedString', strings: [value], expressions: [], span: this.spanFrom(token) };
    }
    const literal: StringLiteral = { kind: 'String', value, span: this.spanFrom(token) };
    return literal;
  }

  private parseInterpolatedString(): Expression {
    const start = this.token;
    const strings: string[] = [];
    const expressions: Expression[] = [];
    let last = start;
    for (;;) {
      const part = this.token;
      last = part;
      const value = decodeString(part.text);
      this.next();
      if (value === null) {
        this.report(
          { line: start.line, column: start.column, endLine: part.endLine, endColumn: part.endColumn },
          'Interpolated string literal contains malformed escape sequence',
        );
        return errorExpression(this.spanFrom(start));
      }
      strings.push(value);
      if (part.type === 'interpEnd' || part.type === 'interpSimple') break;

      const type = this.token.type;
      if (type === 'interpMid' || type === 'interpEnd') {
        this.next();
        this.reportAt(part, "Malformed interpolated string, expected expression inside '{}'");
        return errorExpression(this.spanFrom(start));
      }
      if (type === 'brokenString') {
        this.next();
        this.reportAt(part, "Malformed interpolated string; did you forget to add a '`'?");
        return errorExpression(this.spanFrom(start));
      }
      expressions.push(this.parseExpression());

      switch (this.token.type) {
        case 'interpBegin':
        case 'interpMid':
        case 'interpEnd':
          break;
        case 'brokenInterpDoubleBrace':
          this.next();
          this.reportAt(part, "Double braces are not permitted within interpolated strings; did you mean '\\{'?");
          return errorExpression(this.spanFrom(start));
        case 'brokenString':
        case 'eof': {
          if (this.token.type === 'brokenString') this.next();
          // Inside the braces still (the lexer's brace stack says so): the `}` is missing, else the `` ` ``.
          const message = this.previous.interpolationOpen
            ? "Malformed interpolated string; did you forget to add a '}'?"
            : "Malformed interpolated string; did you forget to add a '`'?";
          this.reportAt(this.previous, message);
          return errorExpression(this.spanFrom(start));
        }
        default:
          this.reportAt(part, `Malformed interpolated string, got ${describeToken(this.token)}`);
          return errorExpression(this.spanFrom(start));
      }
    }
    void last;
    return { kind: 'InterpolatedString', strings, expressions, span: this.spanFrom(start) };
  }

  private parseTable(): Expression {
    const start = this.token;
    this.next(); // {
    const fields: TableField[] = [];
    while (this.token.type !== '}') {
      const fieldStart = this.token;
      if (this.token.type === '[') {
        const matchBracket = this.token;
        this.next();
        const key = this.parseExpression();
        this.expectMatch(']', matchBracket);
        this.expect('=', 'table field');
        const value = this.parseExpression();
        fields.push({ kind: 'KeyedField', key, value, span: this.spanFrom(fieldStart) });
      } else if (this.token.type === 'name' && this.lookahead().type === '=') {
        const key = this.parseName('table field');
        this.next(); // =
        const value = this.parseExpression();
        fields.push({ kind: 'NamedField', key, value, span: this.spanFrom(fieldStart) });
      } else {
        const value = this.parseExpression();
        fields.push({ kind: 'ItemField', value, span: this.spanFrom(fieldStart) });
      }
      if (this.token.type === ',' || this.token.type === ';') {
        this.next();
      } else if (this.token.type === '[' || this.token.type === 'name') {
        this.reportAt(this.token, "Expected ',' after table constructor element");
      } else if (this.token.type !== '}') {
        break;
      }
    }
    this.expectMatch('}', start);
    return { kind: 'Table', fields, span: this.spanFrom(start) };
  }

  private parseIfExpression(): Expression {
    const start = this.token;
    const clauses: { condition: Expression; value: Expression; span: Span }[] = [];
    const depth = this.depth;
    let elseValue: Expression;
    for (;;) {
      const clauseStart = this.token;
      this.next(); // if / elseif
      const condition = this.parseExpression();
      this.expect('then', 'if then else expression');
      const value = this.parseExpression();
      clauses.push({ condition, value, span: this.spanFrom(clauseStart) });
      if (this.token.type === 'elseif') {
        this.enter('expression');
        continue;
      }
      this.expect('else', 'if then else expression');
      elseValue = this.parseExpression();
      break;
    }
    this.depth = depth;
    return { kind: 'IfExpression', clauses, elseValue, span: this.spanFrom(start) };
  }

  private parsePrefixExpression(): Expression {
    const start = this.token;
    if (start.type === '(') {
      this.next();
      const expression = this.parseExpression();
      if (this.token.type !== ')') {
        this.matchFail(')', start, this.token.type === '=' ? "; did you mean to use '{' when defining a table?" : '');
      } else {
        this.next();
      }
      return { kind: 'Paren', expression, span: this.spanFrom(start) };
    }
    if (start.type === 'name') {
      this.next();
      if (this.typeFunctionDepth > 0) {
        const local = this.locals.get(start.text);
        if (local && local.functionDepth < this.typeFunctionDepth) {
          this.reportAt(this.token, `Type function cannot reference outer local '${start.text}'`);
        }
      }
      return { kind: 'NameExpression', name: start.text, span: this.spanFrom(start) };
    }
    // Nothing is consumed; the error node covers the offending token, so that a statement error
    // at the same place is not reported twice.
    this.reportNameError('expression');
    return errorExpression({ start: startOf(start), end: endOf(start) });
  }

  private parsePrimaryExpression(asStatement: boolean): Expression {
    const start = startOf(this.token);
    let expr = this.parsePrefixExpression();
    const depth = this.depth;
    for (;;) {
      const type = this.token.type;
      if (type === '.') {
        const dot = this.token;
        this.next();
        const name = this.parseIndexName(dot);
        expr = { kind: 'Member', object: expr, name, span: this.spanFrom(start) };
      } else if (type === '[') {
        const matchBracket = this.token;
        this.next();
        const key = this.parseExpression();
        this.expectMatch(']', matchBracket);
        expr = { kind: 'Index', object: expr, key, span: this.spanFrom(start) };
      } else if (type === ':') {
        this.next();
        const method = this.parseName('method name');
        // The ambiguity check measures from the method name, as `a\n:m()` is fine.
        const calleeSpan = this.spanFrom(start);
        if (this.token.type === '<' && this.lookahead().type === '<') this.parseTypeInstantiation();
        const args = this.parseFunctionArguments({ ...expr, span: calleeSpan }, true);
        const call: MethodCallExpression = {
          kind: 'MethodCall',
          object: expr,
          method,
          args,
          span: this.spanFrom(start),
        };
        expr = call;
      } else if (type === '(') {
        // A `(` on a new line could start a new statement: Luau refuses to guess.
        if (!asStatement && expr.span.end.line !== this.token.line) {
          this.reportAmbiguousCall();
          break;
        }
        const args = this.parseFunctionArguments(expr, false);
        expr = { kind: 'Call', callee: expr, args, span: this.spanFrom(start) };
      } else if (type === '{' || type === 'string' || type === 'longString') {
        const args = this.parseFunctionArguments(expr, false);
        expr = { kind: 'Call', callee: expr, args, span: this.spanFrom(start) };
      } else if (type === '<' && this.lookahead().type === '<') {
        // f<<T>>(...): explicit type instantiation
        this.parseTypeInstantiation();
      } else {
        break;
      }
      this.enter('expression');
    }
    this.depth = depth;
    return expr;
  }

  private reportAmbiguousCall(): void {
    this.reportAt(
      this.token,
      "Ambiguous syntax: this looks like an argument list for a function call, but could also be a start of new statement; use ';' to separate statements",
    );
  }

  private isStringToken(): boolean {
    return this.token.type === 'string' || this.token.type === 'longString';
  }

  private parseFunctionArguments(callee: Expression, isMethod: boolean): Expression[] {
    const type = this.token.type;
    if (type === '(') {
      if (callee.span.end.line !== this.token.line) this.reportAmbiguousCall();
      return this.parseCallArguments();
    }
    if (type === '{') return [this.parseTable()];
    if (type === 'string' || type === 'longString') return [this.parseString()];
    if (isMethod && this.token.line !== callee.span.end.line) {
      this.report(spanLocation(callee.span), "Expected function call arguments after '('");
    } else {
      this.report(
        {
          line: callee.span.start.line,
          column: callee.span.start.column,
          endLine: this.token.line,
          endColumn: this.token.column,
        },
        `Expected '(', '{' or <string> when parsing function call, got ${describeToken(this.token)}`,
      );
    }
    return [];
  }

  /** `( [explist] )`, `{...}` or a string: the arguments of a call (or attribute). */
  private parseCallArguments(): Expression[] {
    if (this.token.type === '{') return [this.parseTable()];
    if (this.isStringToken()) return [this.parseString()];
    const matchParen = this.token;
    this.next();
    const args = this.token.type !== ')' ? this.parseExpressionList() : [];
    this.expectMatch(')', matchParen);
    return args;
  }

  private parseName(context: string | null): Name {
    const token = this.token;
    if (token.type === 'name') {
      this.next();
      return { kind: 'Name', name: token.text, span: this.spanFrom(token) };
    }
    // After `.`, Luau accepts a keyword as a field name only with an error (`a.end`).
    this.reportNameError(context);
    return { kind: 'Name', name: '', span: { start: startOf(token), end: endOf(token) } };
  }

  /** A field name after `.`: a keyword on the same line (`a.end`) is reported, then taken as the name. */
  private parseIndexName(dot: Token): Name {
    const token = this.token;
    const name = this.parseName(null);
    if (name.name === '' && KEYWORDS.has(token.type) && token.line === dot.line) {
      this.next();
      return { kind: 'Name', name: token.text, span: this.spanFrom(token) };
    }
    return name;
  }

  private reportNameError(context: string | null): void {
    const got = describeToken(this.token);
    this.reportAt(
      this.token,
      context ? `Expected identifier when parsing ${context}, got ${got}` : `Expected identifier, got ${got}`,
    );
  }

  // -------------------------------------------------------------------------------------------
  // Types (checked for syntax, kept as spans)

  private typeNode(start: Token | Position): TypeNode {
    return { kind: 'Type', span: this.spanFrom(start) };
  }

  private parseOptionalType(): TypeNode | null {
    if (this.token.type !== ':') return null;
    this.next();
    return this.parseType();
  }

  private parseType(): TypeNode {
    const depth = this.depth;
    const start = this.token;
    const type = this.token.type;
    if (type !== '|' && type !== '&') {
      this.parseSimpleType(false);
      this.depth = depth;
    }
    this.parseTypeSuffix(type !== '|' && type !== '&', start);
    this.depth = depth;
    return this.typeNode(start);
  }

  /** Unions, intersections and `?` after a type (or leading `|`/`&` when `hasFirst` is false). */
  private parseTypeSuffix(hasFirst: boolean, start: Token): void {
    this.enter('type annotation');
    let parts = hasFirst ? 1 : 0;
    let optionals = 0;
    let isUnion = false;
    let isIntersection = false;
    for (;;) {
      const type = this.token.type;
      if (type === '|' || type === '&') {
        this.next();
        const depth = this.depth;
        this.parseSimpleType(false);
        this.depth = depth;
        parts++;
        if (type === '|') isUnion = true;
        else isIntersection = true;
      } else if (type === '?') {
        this.next();
        parts++;
        optionals++;
        isUnion = true;
      } else if (type === '...') {
        this.reportAt(this.token, "Unexpected '...' after type annotation");
        this.next();
      } else {
        break;
      }
      if (parts > MAX_TYPE_LENGTH + optionals) {
        this.fatal(
          this.previous,
          'Exceeded allowed type length; simplify your type annotation to make the code compile',
        );
      }
    }
    if (isUnion && isIntersection) {
      this.report(
        { line: start.line, column: start.column, endLine: this.previous.endLine, endColumn: this.previous.endColumn },
        'Mixing union and intersection types is not allowed; consider wrapping in parentheses.',
      );
    }
  }

  /** Returns 'pack' when it parsed a type pack (only when `allowPack`), else 'type'. */
  private parseSimpleType(allowPack: boolean): 'type' | 'pack' {
    this.enter('type annotation');
    const start = this.token;
    switch (start.type) {
      case 'attribute':
      case '@[':
        this.next();
        this.reportAt(start, 'attributes are not allowed in declaration context');
        return 'type';
      case 'nil':
      case 'true':
      case 'false':
        this.next();
        return 'type';
      case 'string':
      case 'longString': {
        this.next();
        const value = start.type === 'longString' ? '' : decodeString(start.text);
        if (value === null) this.reportAt(start, 'String literal contains malformed escape sequence');
        return 'type';
      }
      case 'interpBegin':
      case 'interpSimple':
        this.parseInterpolatedOrSimple();
        this.report(
          { line: start.line, column: start.column, endLine: start.endLine, endColumn: start.endColumn },
          'Interpolated string literals cannot be used as types',
        );
        return 'type';
      case 'brokenString':
        this.next();
        this.reportAt(start, 'Malformed string; did you forget to finish it?');
        return 'type';
      case 'name': {
        this.next();
        if (this.token.type === '.') {
          this.next();
          this.parseName('field name');
        } else if (this.token.type === '...') {
          this.reportAt(this.token, "Unexpected '...' after type name; type pack is not allowed in this context");
          this.next();
        } else if (start.text === 'typeof') {
          const open = this.token;
          this.expect('(', 'typeof type');
          this.parseExpression();
          this.expectMatch(')', open);
          return 'type';
        }
        if (this.token.type === '<') this.parseTypeParameters();
        return 'type';
      }
      case '{':
        this.parseTableType();
        return 'type';
      case '(':
      case '<':
        return this.parseFunctionType(allowPack);
      case 'function':
        this.next();
        this.reportAt(
          start,
          "Using 'function' as a type annotation is not supported, consider replacing with a function type annotation e.g. '(...any) -> ...any'",
        );
        return 'type';
      default: {
        // The error spans from the end of the previous token to the end of this one, as in Luau.
        this.report(
          {
            line: this.previous.endLine,
            column: this.previous.endColumn,
            endLine: start.endLine,
            endColumn: start.endColumn,
          },
          `Expected type, got ${describeToken(start)}`,
        );
        return 'type';
      }
    }
  }

  private parseInterpolatedOrSimple(): void {
    if (this.token.type === 'interpSimple') this.next();
    else this.parseInterpolatedString();
  }

  private shouldParseTypePack(): boolean {
    return this.token.type === '...' || (this.token.type === 'name' && this.lookahead().type === '...');
  }

  /** `...T` or `T...` */
  private parseTypePack(): void {
    if (this.token.type === '...') {
      this.next();
      this.parseType();
    } else {
      this.next(); // name
      this.next(); // ...
    }
  }

  /** `{ read x: T, [K]: V, ... }` or `{T}` */
  private parseTableType(): void {
    this.enter('type annotation');
    const open = this.token;
    this.next();
    let hasProps = false;
    let hasIndexer = false;
    while (this.token.type !== '}') {
      if (this.token.type === 'name' && this.lookahead().type !== ':') {
        const text = this.token.text;
        if (text === 'read' || text === 'write') this.next();
      }
      if (this.token.type === '[') {
        const begin = this.token;
        this.next();
        if (this.isStringToken() && this.lookahead().type === ']') {
          // ["name"]: T is a property
          const key = this.token;
          this.next();
          this.expectMatch(']', begin);
          this.expect(':', 'table field');
          this.parseType();
          const value = key.type === 'longString' ? key.text : decodeString(key.text);
          if (value === null || value.includes('\0'))
            this.reportAt(begin, 'String literal contains malformed escape sequence or \\0');
          hasProps = true;
        } else {
          this.parseType();
          this.expectMatch(']', begin);
          this.expect(':', 'table field');
          this.parseType();
          if (hasIndexer) {
            this.report(
              {
                line: begin.line,
                column: begin.column,
                endLine: this.previous.endLine,
                endColumn: this.previous.endColumn,
              },
              'Cannot have more than one table indexer',
            );
          }
          hasIndexer = true;
        }
      } else if (!hasProps && !hasIndexer && !(this.token.type === 'name' && this.lookahead().type === ':')) {
        // {T}: an array type
        this.parseType();
        break;
      } else {
        if (this.token.type !== 'name') {
          this.reportNameError('table field');
          break;
        }
        this.next();
        this.expect(':', 'table field');
        this.parseType();
        hasProps = true;
      }
      if (this.token.type === ',' || this.token.type === ';') this.next();
      else if (this.token.type !== '}') break;
    }
    this.expectMatch('}', open, true);
  }

  /** `<T>(A, B) -> R`, `(A) -> R`, a parenthesised type, or (when `allowPack`) a type pack `(A, B)`. */
  private parseFunctionType(allowPack: boolean): 'type' | 'pack' {
    this.enter('type annotation');
    const begin = this.token;
    let forceFunction = this.token.type === '<';
    const hasGenerics = this.parseGenericList(false) !== null;
    const parameterStart = this.token;
    this.expect('(', 'function parameters');
    let params = 0;
    let named = false;
    let variadic = false;
    this.withStop('->', () => {
      if (this.token.type !== ')') {
        const list = this.parseTypeList();
        params = list.count;
        named = list.named;
        variadic = list.variadic;
      }
      this.expectMatch(')', parameterStart, true);
    });
    if (named) forceFunction = true;
    const arrow = this.token.type === '->' || this.token.type === ':';
    if (params === 1 && !variadic && !forceFunction && !arrow) return allowPack ? 'pack' : 'type';
    if (!forceFunction && !arrow && allowPack) return 'pack';
    this.parseFunctionTypeTail(begin, hasGenerics || params > 0 || variadic);
    return 'type';
  }

  private parseFunctionTypeTail(begin: Token, hasParameters: boolean): void {
    this.enter('type annotation');
    if (this.token.type === ':') {
      this.reportAt(this.token, "Return types in function type annotations are written after '->' instead of ':'");
      this.next();
    } else if (this.token.type !== '->' && !hasParameters) {
      this.report(
        { line: begin.line, column: begin.column, endLine: this.previous.endLine, endColumn: this.previous.endColumn },
        "Expected '->' after '()' when parsing function type; did you mean 'nil'?",
      );
      return;
    } else {
      this.expect('->', 'function type');
    }
    this.parseReturnType();
  }

  /** Types separated by commas, optionally named (`x: T`), ending in an optional pack. */
  private parseTypeList(): { count: number; named: boolean; variadic: boolean } {
    let count = 0;
    let named = false;
    for (;;) {
      if (this.shouldParseTypePack()) {
        this.parseTypePack();
        return { count, named, variadic: true };
      }
      if (this.token.type === 'name' && this.lookahead().type === ':') {
        named = true;
        this.next();
        this.next();
      }
      this.parseType();
      count++;
      if (this.token.type !== ',') break;
      this.next();
      if (this.token.type === ')') {
        this.reportAt(this.token, "Expected type after ',' but got ')' instead");
        break;
      }
    }
    return { count, named, variadic: false };
  }

  private parseOptionalReturnType(): TypeNode | null {
    if (this.token.type !== ':' && this.token.type !== '->') return null;
    if (this.token.type === '->') {
      this.reportAt(this.token, "Function return type annotations are written after ':' instead of '->'");
    }
    this.next();
    const start = this.token;
    const depth = this.depth;
    this.parseReturnType();
    if (this.token.type === ',') {
      this.reportAt(
        this.token,
        "Expected a statement, got ','; did you forget to wrap the list of return types in parentheses?",
      );
      this.next();
    }
    this.depth = depth;
    return this.typeNode(start);
  }

  /** `T`, `T...`, `...T`, `(A, B)` or `(A) -> R`. */
  private parseReturnType(): void {
    this.enter('type annotation');
    const begin = this.token;
    if (begin.type !== '(') {
      if (this.shouldParseTypePack()) this.parseTypePack();
      else this.parseType();
      return;
    }
    this.next();
    let list = { count: 0, named: false, variadic: false };
    this.withStop('->', () => {
      if (this.token.type !== ')') list = this.parseTypeList();
      this.expectMatch(')', begin, true);
    });
    if (this.token.type !== '->' && !list.named) {
      if (list.count === 1) this.parseTypeSuffix(true, begin);
      return;
    }
    this.parseFunctionTypeTail(begin, true);
  }

  /** `<T, U = X, V...>` on a function or alias (defaults only on aliases); null when absent. */
  private parseGenericList(withDefaults: boolean): GenericList | null {
    if (this.token.type !== '<') return null;
    const begin = this.token;
    this.next();
    let seenPack = false;
    let seenDefault = false;
    for (;;) {
      this.parseName(null);
      if (this.token.type === '...' || seenPack) {
        seenPack = true;
        if (this.token.type !== '...') this.reportAt(this.token, 'Generic types come before generic type packs');
        else this.next();
        if (withDefaults && this.token.type === '=') {
          seenDefault = true;
          this.next();
          if (this.shouldParseTypePack()) {
            this.parseTypePack();
          } else {
            const typeStart = this.token;
            const before = this.previous;
            const kind = this.parseSimpleTypeOrPack();
            if (kind === 'type') {
              // A type that consumed nothing (an error) sits between the tokens around it, as in Luau.
              const empty = this.previous === before;
              this.report(
                empty
                  ? {
                      line: before.endLine,
                      column: before.endColumn,
                      endLine: typeStart.line,
                      endColumn: typeStart.column,
                    }
                  : {
                      line: typeStart.line,
                      column: typeStart.column,
                      endLine: this.previous.endLine,
                      endColumn: this.previous.endColumn,
                    },
                "Expected type pack after '=', got type",
              );
            }
          }
        } else if (seenDefault) {
          this.reportAt(this.token, 'Expected default type pack after type pack name');
        }
      } else if (withDefaults && this.token.type === '=') {
        seenDefault = true;
        this.next();
        this.parseType();
      } else if (seenDefault) {
        this.reportAt(this.token, 'Expected default type after type name');
      }
      if (this.token.type !== ',') break;
      this.next();
      if (this.token.type === '>') {
        this.reportAt(this.token, "Expected type after ',' but got '>' instead");
        break;
      }
    }
    this.expectMatch('>', begin);
    return { kind: 'Generics', span: this.spanFrom(begin) };
  }

  private parseSimpleTypeOrPack(): 'type' | 'pack' {
    const depth = this.depth;
    const start = this.token;
    const kind = this.parseSimpleType(true);
    this.depth = depth;
    if (kind === 'pack') return 'pack';
    this.parseTypeSuffix(true, start);
    this.depth = depth;
    return 'type';
  }

  /** `<A, B..., (C, D)>` after a type name. */
  private parseTypeParameters(): void {
    const begin = this.token;
    this.next();
    let count = 0;
    for (;;) {
      if (this.shouldParseTypePack()) {
        this.parseTypePack();
      } else if (this.token.type === '(') {
        const start = this.token;
        const depth = this.depth;
        const kind = this.parseSimpleType(true);
        this.depth = depth;
        const follows = this.token.type === '|' || this.token.type === '&' || this.token.type === '?';
        if (kind === 'type' || follows) this.parseTypeSuffix(true, start);
        this.depth = depth;
      } else if (this.token.type === '>' && count === 0) {
        break;
      } else {
        this.parseType();
      }
      count++;
      if (this.token.type !== ',') break;
      this.next();
    }
    this.expectMatch('>', begin);
  }

  /** `<<A, B>>` after a function or method name: explicit type arguments (erased). */
  private parseTypeInstantiation(): void {
    const begin = this.token;
    this.next(); // the outer <
    this.parseTypeParameters();
    this.expectMatch('>', begin);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

// A token's positions are made once and shared by every span that starts or ends there: spans
// are many, and their allocations were most of the parser's garbage-collection cost. Positions are
// never mutated (a span's end is replaced, not edited).
function startOf(token: Token): Position {
  return (token.startPosition ??= { line: token.line, column: token.column, offset: token.start });
}

function endOf(token: Token): Position {
  return (token.endPosition ??= { line: token.endLine, column: token.endColumn, offset: token.end });
}

function tokenLocation(token: Token): Location {
  return { line: token.line, column: token.column, endLine: token.endLine, endColumn: token.endColumn };
}

function spanLocation(span: Span): Location {
  return { line: span.start.line, column: span.start.column, endLine: span.end.line, endColumn: span.end.column };
}

/** What stands in for an expression that failed to parse (the tree is only used when there are no errors). */
function errorExpression(span: Span): Expression {
  return { kind: 'Nil', span };
}

function errorCall(expr: Expression): CallExpression {
  return { kind: 'Call', callee: expr, args: [], span: expr.span };
}

function hasEnoughValues(values: Expression[], expected: number): boolean {
  const last = values[values.length - 1];
  if (last && (last.kind === 'Call' || last.kind === 'MethodCall' || last.kind === 'Vararg')) return true;
  return values.length === expected;
}

function isLiteral(expr: Expression): boolean {
  switch (expr.kind) {
    case 'Nil':
    case 'Boolean':
    case 'Number':
    case 'String':
      return true;
    case 'Table':
      return expr.fields.every((field) => field.kind !== 'KeyedField' && isLiteral(field.value));
    default:
      return false;
  }
}

/** A number's value as Luau reads it, or null when malformed (`1..2`, `0x`, `1e`, `3abc`). */
export function parseNumberText(raw: string): number | null {
  const text = raw.includes('_') ? raw.replaceAll('_', '') : raw;
  const prefix = text.slice(0, 2).toLowerCase();
  if ((prefix === '0b' || prefix === '0x') && text.length > 2) {
    const digits = text.slice(2);
    const valid = prefix === '0b' ? /^[01]+$/ : /^[0-9a-fA-F]+$/;
    if (!valid.test(digits)) return null;
    return Number(prefix === '0b' ? `0b${digits}` : `0x${digits}`);
  }
  if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  return Number(text);
}
