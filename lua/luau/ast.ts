/**
 * The Luau syntax tree Moonrelay's front end produces (parser.ts) and its consumers read: the
 * syntax check (diagnostics), the lowering to the sandbox's Lua 5.4 (lower.ts) and the dry run.
 *
 * Rules:
 * - Every node has a `span`: 1-based lines and columns, columns counted in UTF-16 code units (as
 *   JavaScript strings and the editor count them), `offset` a 0-based index into the source text.
 *   `end` is the position just after the node's last character.
 * - Only `\n` starts a line (a `\r\n` file counts its `\r` as the last column of a line).
 * - Types are parsed and checked for syntax but kept only as spans: nothing downstream reads them
 *   (lowering erases them), so their inner structure is not modelled.
 */

export interface Position {
  line: number;
  column: number;
  offset: number;
}

export interface Span {
  start: Position;
  end: Position;
}

interface NodeBase {
  span: Span;
}

/** A type annotation, a cast's type or an alias's right-hand side: only where it is. */
export interface TypeNode extends NodeBase {
  kind: 'Type';
}

/** `<T, U...>` on a function or type alias: only where it is. */
export interface GenericList extends NodeBase {
  kind: 'Generics';
}

export interface Name extends NodeBase {
  kind: 'Name';
  name: string;
}

/** A declared local or parameter, with its optional annotation (`x: number`). */
export interface Binding extends NodeBase {
  kind: 'Binding';
  name: string;
  type: TypeNode | null;
}

/** `@native`, `@checked`, `@deprecated` or `@[attr(args)]` before a function. */
export interface Attribute extends NodeBase {
  kind: 'Attribute';
  name: string;
}

// ---------------------------------------------------------------------------------------------
// Statements

export interface Chunk extends NodeBase {
  kind: 'Chunk';
  body: Block;
}

export interface Block extends NodeBase {
  kind: 'Block';
  body: Statement[];
}

/** `local a: T, b = x, y` (and `const a = x`: `isConst`). */
export interface LocalStatement extends NodeBase {
  kind: 'Local';
  names: Binding[];
  values: Expression[];
  isConst: boolean;
}

/** `a, b.c, d[e] = x, y, z` */
export interface AssignStatement extends NodeBase {
  kind: 'Assign';
  targets: AssignTarget[];
  values: Expression[];
}

export type CompoundOperator = '+' | '-' | '*' | '/' | '//' | '%' | '^' | '..';

/** `target op= value`: the target is evaluated once. */
export interface CompoundAssignStatement extends NodeBase {
  kind: 'CompoundAssign';
  operator: CompoundOperator;
  target: AssignTarget;
  value: Expression;
}

/** A call used as a statement. */
export interface CallStatement extends NodeBase {
  kind: 'CallStatement';
  call: CallExpression | MethodCallExpression;
}

export interface DoStatement extends NodeBase {
  kind: 'Do';
  body: Block;
}

export interface WhileStatement extends NodeBase {
  kind: 'While';
  condition: Expression;
  body: Block;
}

/** `repeat body until condition`: the condition sees the body's locals. */
export interface RepeatStatement extends NodeBase {
  kind: 'Repeat';
  body: Block;
  condition: Expression;
}

export interface IfClause extends NodeBase {
  kind: 'IfClause';
  condition: Expression;
  body: Block;
}

/** `if c then ... elseif c then ... else ... end`: `clauses[0]` is the `if`, the rest `elseif`s. */
export interface IfStatement extends NodeBase {
  kind: 'If';
  clauses: IfClause[];
  elseBody: Block | null;
}

export interface NumericForStatement extends NodeBase {
  kind: 'NumericFor';
  variable: Binding;
  start: Expression;
  limit: Expression;
  step: Expression | null;
  body: Block;
}

export interface GenericForStatement extends NodeBase {
  kind: 'GenericFor';
  variables: Binding[];
  iterators: Expression[];
  body: Block;
}

/** `function a.b.c:m() end`: `base` is `a`, `path` is `b, c`, `method` is `m` (or null). */
export interface FunctionStatement extends NodeBase {
  kind: 'Function';
  attributes: Attribute[];
  base: Name;
  path: Name[];
  method: Name | null;
  func: FunctionBody;
}

export interface LocalFunctionStatement extends NodeBase {
  kind: 'LocalFunction';
  attributes: Attribute[];
  name: Binding;
  func: FunctionBody;
}

export interface ReturnStatement extends NodeBase {
  kind: 'Return';
  values: Expression[];
}

export interface BreakStatement extends NodeBase {
  kind: 'Break';
}

export interface ContinueStatement extends NodeBase {
  kind: 'Continue';
}

/** `[export] type Name<T> = ...` and `[export] type function Name(...) ... end`: erased when run. */
export interface TypeAliasStatement extends NodeBase {
  kind: 'TypeAlias';
  exported: boolean;
  name: Name;
  generics: GenericList | null;
  /** The aliased type, or null for a `type function` (whose body is `func`). */
  type: TypeNode | null;
  func: FunctionBody | null;
}

export type Statement =
  | LocalStatement
  | AssignStatement
  | CompoundAssignStatement
  | CallStatement
  | DoStatement
  | WhileStatement
  | RepeatStatement
  | IfStatement
  | NumericForStatement
  | GenericForStatement
  | FunctionStatement
  | LocalFunctionStatement
  | ReturnStatement
  | BreakStatement
  | ContinueStatement
  | TypeAliasStatement;

// ---------------------------------------------------------------------------------------------
// Expressions

export interface NilLiteral extends NodeBase {
  kind: 'Nil';
}

export interface BooleanLiteral extends NodeBase {
  kind: 'Boolean';
  value: boolean;
}

/** `raw` is the text as written (`0x_FF`, `1e3`, `0b1010`); `value` its double. */
export interface NumberLiteral extends NodeBase {
  kind: 'Number';
  raw: string;
  value: number;
}

/**
 * `value` is the string's bytes after escapes, one JS char per byte (0-255, Latin-1 style), so that
 * `\xFF` and `\u{...}` (UTF-8 encoded) survive exactly as Lua would hold them.
 */
export interface StringLiteral extends NodeBase {
  kind: 'String';
  value: string;
}

export interface VarargExpression extends NodeBase {
  kind: 'Vararg';
}

/** `` `a{x}b{y}c` ``: `strings` are the literal parts (bytes as in StringLiteral), one more than `expressions`. */
export interface InterpolatedString extends NodeBase {
  kind: 'InterpolatedString';
  strings: string[];
  expressions: Expression[];
}

export interface FunctionExpression extends NodeBase {
  kind: 'FunctionExpression';
  attributes: Attribute[];
  func: FunctionBody;
}

export interface FunctionBody extends NodeBase {
  kind: 'FunctionBody';
  generics: GenericList | null;
  params: Binding[];
  /** `...` (with its optional type) ends the parameter list. */
  vararg: boolean;
  returnType: TypeNode | null;
  body: Block;
}

export type TableField =
  | { kind: 'ItemField'; span: Span; value: Expression }
  | { kind: 'NamedField'; span: Span; key: Name; value: Expression }
  | { kind: 'KeyedField'; span: Span; key: Expression; value: Expression };

export interface TableConstructor extends NodeBase {
  kind: 'Table';
  fields: TableField[];
}

export type BinaryOperator =
  '+' | '-' | '*' | '/' | '//' | '%' | '^' | '..' | '==' | '~=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export interface BinaryExpression extends NodeBase {
  kind: 'Binary';
  operator: BinaryOperator;
  left: Expression;
  right: Expression;
}

export type UnaryOperator = 'not' | '-' | '#';

export interface UnaryExpression extends NodeBase {
  kind: 'Unary';
  operator: UnaryOperator;
  operand: Expression;
}

/** `(expr)`: kept because it truncates a call's or vararg's results to one value. */
export interface ParenExpression extends NodeBase {
  kind: 'Paren';
  expression: Expression;
}

export interface NameExpression extends NodeBase {
  kind: 'NameExpression';
  name: string;
}

/** `object.name` */
export interface MemberExpression extends NodeBase {
  kind: 'Member';
  object: Expression;
  name: Name;
}

/** `object[key]` */
export interface IndexExpression extends NodeBase {
  kind: 'Index';
  object: Expression;
  key: Expression;
}

/** `callee(args)`, `callee "s"`, `callee {t}` */
export interface CallExpression extends NodeBase {
  kind: 'Call';
  callee: Expression;
  args: Expression[];
}

/** `object:method(args)` */
export interface MethodCallExpression extends NodeBase {
  kind: 'MethodCall';
  object: Expression;
  method: Name;
  args: Expression[];
}

/** `if c then a elseif d then b else e`: only the chosen branch is evaluated. */
export interface IfExpression extends NodeBase {
  kind: 'IfExpression';
  clauses: { condition: Expression; value: Expression; span: Span }[];
  elseValue: Expression;
}

/** `expr :: Type`: erased when run (the value is the expression's first). */
export interface CastExpression extends NodeBase {
  kind: 'Cast';
  expression: Expression;
  type: TypeNode;
}

export type AssignTarget = NameExpression | MemberExpression | IndexExpression;

export type Expression =
  | NilLiteral
  | BooleanLiteral
  | NumberLiteral
  | StringLiteral
  | VarargExpression
  | InterpolatedString
  | FunctionExpression
  | TableConstructor
  | BinaryExpression
  | UnaryExpression
  | ParenExpression
  | NameExpression
  | MemberExpression
  | IndexExpression
  | CallExpression
  | MethodCallExpression
  | IfExpression
  | CastExpression;

// ---------------------------------------------------------------------------------------------
// Diagnostics

/** A syntax error, worded as Luau words it (`Expected 'end' (to close 'function' at line 3), got <eof>`). */
export interface SyntaxDiagnostic {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
}

/** The parser's answer: a tree (complete when `diagnostics` is empty) and every error it recovered from. */
export interface ParseResult {
  chunk: Chunk;
  diagnostics: SyntaxDiagnostic[];
}
