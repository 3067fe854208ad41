/**
 * Lowers a Luau syntax tree (ast.ts) to Lua 5.4 source for Moonrelay's sandbox, keeping Luau's
 * meaning (docs/luau-in-the-sandbox.md lists what still differs):
 *
 * - Every construct is written on the line its source starts on: newlines are only ever added to
 *   catch up with the next node's source line, so "script:LINE:" in a Lua error is the user's line.
 * - Numbers are doubles, as in Luau: every numeric literal is written as a Lua float, `%` and an
 *   integer-capable `//` go through runtime helpers with Luau's formulas, and `..` formats numbers
 *   as Luau does.
 * - `continue` becomes a `goto` to a label closing the loop body; compound assignment evaluates its
 *   target once; if-expressions evaluate only the chosen branch, without a closure; string
 *   interpolation passes each part through Luau's tostring; types, casts, attributes are erased.
 *
 * The runtime helpers live in the sandbox prelude (lua/sandbox/prelude.lua), which publishes them
 * under the global RUNTIME_GLOBAL; the lowered chunk's first line takes them as locals, and that
 * call removes the global, so the script never sees it.
 */
import type {
  AssignTarget,
  Block,
  Chunk,
  CompoundAssignStatement,
  Expression,
  FunctionBody,
  FunctionStatement,
  IfExpression,
  Position,
  RepeatStatement,
  Statement,
} from './ast.ts';

/** The global the prelude sets to the function answering the helpers named (HELPERS' values), in order. */
export const RUNTIME_GLOBAL = '__luau_runtime';

/** Prefix of every name the lowering introduces; user names with it are renamed (see userName). */
const PREFIX = '__luau_';

/** The prelude's helpers: the lowering's name for each, and the prelude's one-letter name. */
const HELPERS = {
  /** concat operand: a number as Luau prints it, anything else unchanged */
  str: 'S',
  /** Luau's tostring (interpolation parts) */
  tostring: 'T',
  /** `a % b` with Luau's a - floor(a/b)*b */
  mod: 'M',
  /** `a // b` as floor(a/b) on doubles */
  idiv: 'D',
  /** if-expression: wraps a then-value that may be nil/false, so `c and v or e` keeps it */
  box: 'N',
  /** if-expression: unwraps what box wrapped */
  unbox: 'U',
  /** `obj:name(...)` for a method name Lua reserves (`goto`) */
  invoke: 'I',
  /** generic `for`: Luau's generalized iteration (a table, or its __iter) besides iterator functions */
  iterate: 'E',
} as const;
type Helper = keyof typeof HELPERS;
const HELPER_ORDER = Object.keys(HELPERS) as Helper[];

/** Names Lua 5.4 reserves that Luau does not: written as `["goto"]` fields, renamed as variables. */
const LUA_ONLY_KEYWORDS = new Set(['goto']);

/** A construct the lowering cannot express; `line`/`column` are the user's. */
export class LowerError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

// Lua 5.4 binary operator precedence (left, right) as in lparser.c.
const PRIORITY: Record<string, [number, number]> = {
  or: [1, 1],
  and: [2, 2],
  '==': [3, 3],
  '~=': [3, 3],
  '<': [3, 3],
  '<=': [3, 3],
  '>': [3, 3],
  '>=': [3, 3],
  '..': [9, 8],
  '+': [10, 10],
  '-': [10, 10],
  '*': [11, 11],
  '/': [11, 11],
  '//': [11, 11],
  '%': [11, 11],
  '^': [14, 13],
};
const UNARY_PRIORITY = 12;
/** Priority of something that never needs parentheses (a name, a call, a literal). */
const ATOM = 100;

interface LoopContext {
  /** The label `continue` jumps to, or null when the loop has no `continue`. */
  label: string | null;
}

/** Lowers a parsed chunk (one whose ParseResult had no diagnostics) to Lua 5.4 source text. */
export function lowerLuau(chunk: Chunk): string {
  const lowering = new Lowering();
  lowering.block(chunk.body);
  return lowering.finish();
}

class Lowering {
  private readonly parts: string[] = [];
  private line = 1;
  private readonly used = new Set<Helper>();
  private loops: LoopContext[] = [];
  private labels = 0;
  /** If-expressions computed before their statement (hoistableIfExpressions), by their temporary. */
  private readonly hoisted = new Map<IfExpression, string>();

  finish(): string {
    const body = this.parts.join('');
    // One line-1 prefix, no newline: the user's line numbers stay as written. Only the helpers used
    // become locals (a chunk has 200). The call is made even when none is used, because it removes
    // the global; `;` keeps a script starting with `(` from being read as more arguments.
    const used = HELPER_ORDER.filter((helper) => this.used.has(helper)).map((helper) => HELPERS[helper]);
    if (used.length === 0) return `${RUNTIME_GLOBAL}();${body}`;
    const locals = used.map((name) => PREFIX + name).join(', ');
    const keys = used.map((name) => `"${name}"`).join(', ');
    return `local ${locals} = ${RUNTIME_GLOBAL}(${keys});${body}`;
  }

  // -------------------------------------------------------------------------------------------
  // Output

  /** Moves the output down to the source line of `position` (never up). */
  private at(position: Position): void {
    while (this.line < position.line) {
      this.parts.push('\n');
      this.line += 1;
    }
  }

  /** Writes one token or token run (no newlines), separated by a space from what came before. */
  private write(text: string): void {
    this.parts.push(' ', text);
  }

  private helper(name: Helper): string {
    this.used.add(name);
    return PREFIX + HELPERS[name];
  }

  // -------------------------------------------------------------------------------------------
  // Statements

  block(block: Block): void {
    for (const statement of block.body) {
      this.statement(statement);
    }
  }

  private statement(statement: Statement): void {
    this.at(statement.span.start);
    switch (statement.kind) {
      case 'Local':
        return this.localStatement(statement);
      case 'Assign':
        return this.assignStatement(statement);
      case 'CompoundAssign':
        return this.compoundAssign(statement);
      case 'CallStatement':
        this.withHoisted(hoistableIfExpressions([statement.call], statement.span.start.line), () => {
          this.expression(statement.call);
          this.write(';');
        });
        return;
      case 'Do':
        this.write('do');
        this.block(statement.body);
        this.write('end');
        return;
      case 'While':
        this.write('while');
        this.expression(statement.condition);
        this.write('do');
        this.loopBody(statement.body);
        this.write('end');
        return;
      case 'Repeat':
        return this.repeatStatement(statement);
      case 'If':
        statement.clauses.forEach((clause, index) => {
          this.at(clause.span.start);
          this.write(index === 0 ? 'if' : 'elseif');
          this.expression(clause.condition);
          this.write('then');
          this.block(clause.body);
        });
        if (statement.elseBody !== null) {
          this.write('else');
          this.block(statement.elseBody);
        }
        this.write('end');
        return;
      case 'NumericFor':
        this.write('for');
        this.write(userName(statement.variable.name));
        this.write('=');
        this.expression(statement.start);
        this.write(',');
        this.expression(statement.limit);
        if (statement.step !== null) {
          this.write(',');
          this.expression(statement.step);
        }
        this.write('do');
        this.loopBody(statement.body);
        this.write('end');
        return;
      case 'GenericFor':
        this.write('for');
        this.write(statement.variables.map((variable) => userName(variable.name)).join(', '));
        this.write('in');
        // Luau iterates a table itself (`for k, v in t do`) or through its __iter; Lua 5.4 would
        // call it. The helper answers an iterator function either way, once per loop.
        this.write(`${this.helper('iterate')}(`);
        this.expressionList(statement.iterators);
        this.write(')');
        this.write('do');
        this.loopBody(statement.body);
        this.write('end');
        return;
      case 'Function':
        return this.functionStatement(statement);
      case 'LocalFunction':
        this.write('local function');
        this.write(userName(statement.name.name));
        this.functionBody(statement.func, false);
        return;
      case 'Return':
        return this.returnStatement(statement.values);
      case 'Break':
        this.write('break');
        return;
      case 'Continue': {
        const loop = this.loops.at(-1);
        if (loop?.label == null) {
          throw new LowerError('continue outside a loop', statement.span.start.line, statement.span.start.column);
        }
        this.write(`goto ${loop.label}`);
        return;
      }
      case 'TypeAlias':
        // Erased; a `type function` runs only in the type checker.
        return;
    }
  }

  private localStatement(statement: Extract<Statement, { kind: 'Local' }>): void {
    const names = statement.names.map((binding) => userName(binding.name));
    const last = statement.values.at(-1);
    // `local x = if c then a else b`: declared, then set in an ordinary if statement (no helper,
    // `...` keeps working) unless a branch reads a name this statement declares, which inside the
    // if statement would already be the new local.
    if (
      last?.kind === 'IfExpression' &&
      statement.values.length === names.length &&
      !statement.names.some((binding) => mentionsName(last, binding.name))
    ) {
      const target = names[names.length - 1]!;
      this.write(`local ${names.join(', ')}`);
      if (statement.values.length > 1) {
        this.write('=');
        this.expressionList(statement.values.slice(0, -1));
      }
      this.write(';');
      this.ifStatementFor(last, (value) => {
        this.write(`${target} =`);
        this.expression(value);
      });
      return;
    }
    const hoist = statement.names.some((binding) => mentionsName(statement.values, binding.name))
      ? []
      : hoistableIfExpressions(statement.values, statement.span.start.line);
    this.write(`local ${names.join(', ')}`);
    if (hoist.length > 0) {
      // Declared first, then set inside the block that computes the if-expressions.
      this.write(';');
      this.withHoisted(hoist, () => {
        this.write(`${names.join(', ')} =`);
        this.expressionList(statement.values);
        this.write(';');
      });
      return;
    }
    if (statement.values.length > 0) {
      this.write('=');
      this.expressionList(statement.values);
    }
    this.write(';');
  }

  private assignStatement(statement: Extract<Statement, { kind: 'Assign' }>): void {
    const [target] = statement.targets;
    const [value] = statement.values;
    if (
      statement.targets.length === 1 &&
      statement.values.length === 1 &&
      target?.kind === 'NameExpression' &&
      value?.kind === 'IfExpression'
    ) {
      const name = userName(target.name);
      this.ifStatementFor(value, (branch) => {
        this.write(`${name} =`);
        this.expression(branch);
      });
      return;
    }
    // Lua evaluates the targets' objects and keys, then the values.
    const evaluated = statement.targets.flatMap((assignTarget): Expression[] =>
      assignTarget.kind === 'Member'
        ? [assignTarget.object]
        : assignTarget.kind === 'Index'
          ? [assignTarget.object, assignTarget.key]
          : [],
    );
    const hoist = hoistableIfExpressions([...evaluated, ...statement.values], statement.span.start.line);
    this.withHoisted(hoist, () => {
      statement.targets.forEach((assignTarget, index) => {
        if (index > 0) this.write(',');
        this.expression(assignTarget);
      });
      this.write('=');
      this.expressionList(statement.values);
      this.write(';');
    });
  }

  private returnStatement(values: Expression[]): void {
    const [value] = values;
    if (values.length === 1 && value?.kind === 'IfExpression') {
      this.ifStatementFor(value, (branch) => {
        this.write('return (');
        this.expression(branch);
        this.write(')');
      });
      return;
    }
    this.withHoisted(hoistableIfExpressions(values, values[0]?.span.start.line ?? 0), () => {
      this.write('return');
      // An operator lowered to a helper call would be a tail call: in parentheses it is not, so an
      // error the helper raises still finds the user's function, and line, on the stack.
      const multiple = value === undefined || ['Call', 'MethodCall', 'Vararg'].includes(value.kind);
      if (values.length === 1 && !multiple) {
        this.write('(');
        this.expression(value);
        this.write(')');
      } else {
        this.expressionList(values);
      }
      this.write(';');
    });
  }

  /**
   * Writes a statement (`emit`) after computing its hoistable if-expressions into locals, by
   * ordinary if statements, all in one `do` block: no helper, no closure.
   */
  private withHoisted(candidates: IfExpression[], emit: () => void): void {
    if (candidates.length === 0) {
      emit();
      return;
    }
    this.write('do');
    candidates.forEach((candidate, index) => {
      const temporary = `${PREFIX}v${index + 1}`;
      this.write(`local ${temporary};`);
      this.ifStatementFor(candidate, (branch) => {
        this.write(`${temporary} =`);
        this.expression(branch);
      });
      this.hoisted.set(candidate, temporary);
    });
    emit();
    this.write('end');
    for (const candidate of candidates) this.hoisted.delete(candidate);
  }

  /** An if-expression in statement position: `if c then <emit a> elseif ... else <emit e> end`. */
  private ifStatementFor(value: IfExpression, emit: (branch: Expression) => void): void {
    value.clauses.forEach((clause, index) => {
      this.at(clause.span.start);
      this.write(index === 0 ? 'if' : 'elseif');
      this.expression(clause.condition);
      this.write('then');
      emit(clause.value);
    });
    this.write('else');
    emit(value.elseValue);
    this.write('end');
  }

  /**
   * `target op= value`: the target's object and key are evaluated once, into locals of a `do`
   * block; then the old value is read, the value evaluated, and the result stored (Luau's order).
   */
  private compoundAssign(statement: CompoundAssignStatement): void {
    const { target, operator, value } = statement;
    if (target.kind === 'NameExpression' || isStableTarget(target)) {
      this.expression(target);
      this.write('=');
      this.compoundValue(operator, () => this.expression(target), value);
      this.write(';');
      return;
    }
    const object = temporaryName(target, value);
    const key = `${PREFIX}k`;
    this.write(`do local ${object}`);
    if (target.kind === 'Member') {
      this.write('=');
      this.prefixExpression(target.object);
      const field = fieldAccess(target.name.name);
      this.write(`; ${object}${field} =`);
      this.compoundValue(operator, () => this.write(`${object}${field}`), value);
    } else {
      this.write(`, ${key} =`);
      this.expression(target.object);
      this.write(',');
      this.expression(target.key);
      this.write(`; ${object}[${key}] =`);
      this.compoundValue(operator, () => this.write(`${object}[${key}]`), value);
    }
    this.write('end');
  }

  private compoundValue(operator: CompoundAssignStatement['operator'], old: () => void, value: Expression): void {
    this.binaryWith(operator, old, false, value);
  }

  private repeatStatement(statement: RepeatStatement): void {
    const label = containsContinue(statement.body) ? this.newLabel() : null;
    this.write('repeat');
    this.loops.push({ label });
    const body = statement.body.body;
    if (label === null) {
      this.block(statement.body);
    } else {
      // Lua's goto may not jump into a local's scope, and a label before `until` is not at the end
      // of the block. Luau forbids the condition from reading a local declared after a `continue`,
      // so the statements from the first such local on are closed in a `do` block: every `continue`
      // then jumps over no local, and the condition still sees the locals declared before.
      const firstContinue = body.findIndex((item) => containsContinue(item));
      const wrapFrom = body.findIndex(
        (item, index) => index > firstContinue && (item.kind === 'Local' || item.kind === 'LocalFunction'),
      );
      if (wrapFrom !== -1) {
        const hidden = new Set(body.slice(wrapFrom).flatMap(declaredNames));
        const read = [...hidden].find((name) => mentionsName(statement.condition, name));
        if (read !== undefined) {
          const start = statement.condition.span.start;
          throw new LowerError(
            `Local ${read} used in the repeat..until condition is undefined because continue statement jumps over it`,
            start.line,
            start.column,
          );
        }
      }
      body.forEach((item, index) => {
        if (index === wrapFrom) {
          this.at(item.span.start);
          this.write('do');
        }
        this.statementBeforeLabel(item, index === body.length - 1 && wrapFrom === -1);
      });
      if (wrapFrom !== -1) this.write('end');
      this.write(`::${label}::`);
    }
    this.loops.pop();
    this.at(statement.condition.span.start);
    this.write('until');
    this.expression(statement.condition);
  }

  /** A while/for body; a `continue` jumps to a label at its end (outside every local's scope). */
  private loopBody(block: Block): void {
    const label = containsContinue(block) ? this.newLabel() : null;
    this.loops.push({ label });
    if (label === null) {
      this.block(block);
    } else {
      block.body.forEach((item, index) => this.statementBeforeLabel(item, index === block.body.length - 1));
      this.write(`::${label}::`);
    }
    this.loops.pop();
  }

  /** A loop body's statement; `return` must end its block in Lua, so before the label it goes in a `do` block. */
  private statementBeforeLabel(item: Statement, last: boolean): void {
    if (last && item.kind === 'Return') {
      this.at(item.span.start);
      this.write('do');
      this.statement(item);
      this.write('end');
    } else {
      this.statement(item);
    }
  }

  private newLabel(): string {
    this.labels += 1;
    return `${PREFIX}continue${this.labels}`;
  }

  private functionStatement(statement: FunctionStatement): void {
    const names = [...statement.path, ...(statement.method ? [statement.method] : [])];
    this.write('function');
    if (names.some((name) => LUA_ONLY_KEYWORDS.has(name.name))) {
      // `function t.goto()` cannot be written in Lua: assign a function expression instead.
      this.parts.pop();
      this.parts.pop();
      let target = userName(statement.base.name);
      for (const name of names) target += fieldAccess(name.name);
      this.write(`${target} = function`);
      this.functionBody(statement.func, statement.method !== null);
      return;
    }
    let target = userName(statement.base.name);
    for (const name of statement.path) target += `.${name.name}`;
    if (statement.method) target += `:${statement.method.name}`;
    this.write(target);
    this.functionBody(statement.func, false);
  }

  /** `(params) body end`; `withSelf` adds the `self` a method declaration implies. */
  private functionBody(func: FunctionBody, withSelf: boolean): void {
    const params = func.params.map((param) => userName(param.name));
    if (withSelf) params.unshift('self');
    if (func.vararg) params.push('...');
    this.write(`(${params.join(', ')})`);
    const outerLoops = this.loops;
    this.loops = [];
    this.block(func.body);
    this.loops = outerLoops;
    this.write('end');
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private expressionList(values: Expression[]): void {
    values.forEach((value, index) => {
      if (index > 0) this.write(',');
      this.expression(value);
    });
  }

  /** Writes `expression`; `single` truncates a call or `...` to one value. */
  private expression(expression: Expression, single = false): void {
    this.expressionAt(expression, 0, single);
  }

  /** Writes `expression`, in parentheses when its priority is below `minimum`. */
  private expressionAt(expression: Expression, minimum: number, single = false): void {
    const priority = expressionPriority(expression);
    const wrap =
      priority < minimum ||
      (single && (expression.kind === 'Call' || expression.kind === 'MethodCall' || expression.kind === 'Vararg'));
    if (wrap) this.write('(');
    this.bareExpression(expression);
    if (wrap) this.write(')');
  }

  /** An expression used as the object of `.`, `:`, `[]` or a call: Lua wants a name or parentheses. */
  private prefixExpression(expression: Expression): void {
    const prefix =
      expression.kind === 'NameExpression' ||
      expression.kind === 'Member' ||
      expression.kind === 'Index' ||
      expression.kind === 'Call' ||
      expression.kind === 'MethodCall' ||
      expression.kind === 'Paren';
    if (!prefix) this.write('(');
    this.bareExpression(expression);
    if (!prefix) this.write(')');
  }

  private bareExpression(expression: Expression): void {
    this.at(expression.span.start);
    switch (expression.kind) {
      case 'Nil':
        return this.write('nil');
      case 'Boolean':
        return this.write(expression.value ? 'true' : 'false');
      case 'Number':
        return this.write(luaNumber(expression.value));
      case 'String':
        return this.write(luaString(expression.value));
      case 'Vararg':
        return this.write('...');
      case 'InterpolatedString':
        return this.interpolation(expression);
      case 'FunctionExpression':
        this.write('function');
        return this.functionBody(expression.func, false);
      case 'Table':
        this.write('{');
        expression.fields.forEach((field, index) => {
          if (index > 0) this.write(',');
          this.at(field.span.start);
          if (field.kind === 'NamedField') {
            this.write(
              LUA_ONLY_KEYWORDS.has(field.key.name) ? `[${luaString(field.key.name)}] =` : `${field.key.name} =`,
            );
          } else if (field.kind === 'KeyedField') {
            this.write('[');
            this.expression(field.key);
            this.write('] =');
          }
          this.expression(field.value);
        });
        return this.write('}');
      case 'Binary':
        return this.binary(expression);
      case 'Unary':
        this.write(expression.operator === 'not' ? 'not' : expression.operator);
        return this.expressionAt(expression.operand, UNARY_PRIORITY);
      case 'Paren':
        this.write('(');
        this.expression(expression.expression);
        return this.write(')');
      case 'NameExpression':
        return this.write(userName(expression.name));
      case 'Member':
        this.prefixExpression(expression.object);
        return this.write(fieldAccess(expression.name.name));
      case 'Index':
        this.prefixExpression(expression.object);
        this.write('[');
        this.expression(expression.key);
        return this.write(']');
      case 'Call':
        this.prefixExpression(expression.callee);
        this.write('(');
        this.expressionList(expression.args);
        return this.write(')');
      case 'MethodCall':
        if (LUA_ONLY_KEYWORDS.has(expression.method.name)) {
          this.write(`${this.helper('invoke')}(`);
          this.expression(expression.object);
          this.write(`, ${luaString(expression.method.name)}`);
          if (expression.args.length > 0) this.write(',');
          this.expressionList(expression.args);
          return this.write(')');
        }
        this.prefixExpression(expression.object);
        this.write(`:${expression.method.name}(`);
        this.expressionList(expression.args);
        return this.write(')');
      case 'IfExpression': {
        const temporary = this.hoisted.get(expression);
        return temporary === undefined ? this.ifExpression(expression) : this.write(temporary);
      }
      case 'Cast':
        // The value is the expression's first: parentheses truncate a call or `...`.
        this.write('(');
        this.expression(expression.expression);
        return this.write(')');
    }
  }

  private binary(expression: Extract<Expression, { kind: 'Binary' }>): void {
    const { operator } = expression;
    if (operator === '..') {
      // A chain a .. b .. c stays one Lua concatenation; only operands that may be numbers are
      // formatted (a string needs nothing, and anything else must reach __concat unchanged).
      const operands = flattenConcat(expression);
      operands.forEach((operand, index) => {
        if (index > 0) this.write('..');
        this.concatOperand(operand, index < operands.length - 1 ? PRIORITY['..']![0] + 1 : PRIORITY['..']![1]);
      });
      return;
    }
    this.binaryWith(operator, () => this.expressionAt(expression.left, PRIORITY[operator]![0]), true, expression.right);
  }

  /** `left op right` where `left` is written by a callback (compound assignment reuses this). */
  private binaryWith(
    operator: Extract<Expression, { kind: 'Binary' }>['operator'],
    left: () => void,
    leftIsPlaced: boolean,
    right: Expression,
  ): void {
    const [, rightPriority] = PRIORITY[operator]!;
    if ((operator === '%' || operator === '//') && !isNumberLiteral(right)) {
      // Two Lua integers (from # or the libraries) would raise on a zero divisor where Luau answers
      // inf or nan, and Luau's a % b is a - floor(a / b) * b. A literal divisor is a float, so Lua's
      // own operator runs on doubles: floor division is Luau's exactly, and Lua's fmod-based modulo
      // differs only in the last bits of huge quotients (docs/luau-in-the-sandbox.md). It runs at
      // full speed, where the helper costs a call (bench/luau-sandbox.ts).
      this.write(`${this.helper(operator === '%' ? 'mod' : 'idiv')}(`);
      left();
      this.write(',');
      this.expression(right);
      this.write(')');
      return;
    }
    if (operator === '..') {
      // Only compound assignment gets here (`s ..= v`): the old value may be a number too.
      this.write(`${this.helper('str')}(`);
      left();
      this.write(')');
      this.write('..');
      this.concatOperand(right, rightPriority);
      return;
    }
    if (leftIsPlaced) {
      // A right-associative operator (`^`) needs its left operand in parentheses when it is one too.
      if (operator === '^') this.write('(');
      left();
      if (operator === '^') this.write(')');
    } else {
      this.write('(');
      left();
      this.write(')');
    }
    this.write(operator);
    this.expressionAt(right, rightPriority + (operator === '^' ? 0 : 1));
  }

  private concatOperand(operand: Expression, minimum: number): void {
    if (isStringValued(operand)) {
      this.expressionAt(operand, minimum);
      return;
    }
    this.write(`${this.helper('str')}(`);
    this.expression(operand);
    this.write(')');
  }

  private interpolation(expression: Extract<Expression, { kind: 'InterpolatedString' }>): void {
    const pieces: Array<() => void> = [];
    expression.strings.forEach((text, index) => {
      if (text !== '') pieces.push(() => this.write(luaString(text)));
      const part = expression.expressions[index];
      if (part !== undefined) {
        pieces.push(() => {
          this.write(`${this.helper('tostring')}(`);
          this.expression(part);
          this.write(')');
        });
      }
    });
    if (pieces.length === 0) {
      this.write('""');
      return;
    }
    this.write('(');
    pieces.forEach((piece, index) => {
      if (index > 0) this.write('..');
      piece();
    });
    this.write(')');
  }

  /**
   * An if-expression inside an expression: `(c1 and v1 or c2 and v2 or e)`, which evaluates only
   * the chosen branch. A value that may be nil or false is boxed (and the whole unboxed), so the
   * `or` does not skip it; values that are never falsy (literals, tables, functions, strings) cost
   * nothing extra.
   */
  private ifExpression(expression: IfExpression): void {
    const [only] = expression.clauses;
    if (
      expression.clauses.length === 1 &&
      only !== undefined &&
      !isTruthy(only.value) &&
      isTruthy(expression.elseValue) &&
      expression.span.start.line === expression.span.end.line
    ) {
      // `if c then v else <never falsy>`: `(not c and e or v)` needs no box. (One line only: e is
      // written before v.)
      this.write('( not');
      this.expressionAt(only.condition, UNARY_PRIORITY);
      this.write('and');
      this.expressionAt(expression.elseValue, PRIORITY.and![1] + 1, true);
      this.write('or');
      this.expressionAt(only.value, PRIORITY.or![1] + 1, true);
      this.write(')');
      return;
    }
    const boxed = expression.clauses.some((clause) => !isTruthy(clause.value));
    this.write(boxed ? `${this.helper('unbox')}(` : '(');
    expression.clauses.forEach((clause, index) => {
      this.at(clause.span.start);
      if (index > 0) this.write('or');
      this.expressionAt(clause.condition, PRIORITY.and![1] + 1);
      this.write('and');
      if (isTruthy(clause.value)) {
        this.expressionAt(clause.value, PRIORITY.and![1] + 1, true);
      } else {
        this.write(`${this.helper('box')}(`);
        this.expression(clause.value);
        this.write(')');
      }
    });
    this.write('or');
    this.expressionAt(expression.elseValue, PRIORITY.or![1] + 1, true);
    this.write(')');
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers on the tree

function expressionPriority(expression: Expression): number {
  if (expression.kind === 'Binary') {
    // `%` and `//` on non-literals become helper calls, `..` stays an operator.
    if ((expression.operator === '%' || expression.operator === '//') && !isNumberLiteral(expression.right))
      return ATOM;
    return PRIORITY[expression.operator]![0];
  }
  if (expression.kind === 'Unary') return UNARY_PRIORITY;
  return ATOM;
}

/**
 * The if-expressions of a statement that can be computed before it, into locals, without changing
 * what the statement does: each is evaluated whenever the statement runs (not behind `and`/`or` or
 * another if-expression), calls nothing itself, and nothing that may call (a call, an operator
 * with a possible metamethod, an interpolation) is evaluated before it; moving reads before reads
 * changes nothing. Each is written on the statement's first line, so its if statement keeps the
 * statement on its line. `roots` are the statement's expressions in Lua's evaluation order.
 */
function hoistableIfExpressions(roots: Expression[], line: number): IfExpression[] {
  const found: IfExpression[] = [];
  let calledBefore = false;
  let stopped = false;
  const visit = (expression: Expression): void => {
    if (stopped) return;
    switch (expression.kind) {
      case 'Paren':
      case 'Cast':
        return visit(expression.expression);
      case 'Table':
        for (const field of expression.fields) {
          if (field.kind === 'KeyedField') visit(field.key);
          visit(field.value);
        }
        return;
      case 'Member':
        return visit(expression.object);
      case 'Index':
        visit(expression.object);
        return visit(expression.key);
      case 'Call':
        visit(expression.callee);
        expression.args.forEach(visit);
        calledBefore = true;
        return;
      case 'MethodCall':
        visit(expression.object);
        expression.args.forEach(visit);
        calledBefore = true;
        return;
      case 'InterpolatedString':
        expression.expressions.forEach(visit);
        calledBefore = true;
        return;
      case 'Unary':
        visit(expression.operand);
        if (expression.operator !== 'not') calledBefore = true;
        return;
      case 'Binary':
        visit(expression.left);
        if (expression.operator === 'and' || expression.operator === 'or') {
          // The right side runs only sometimes: nothing after it moves.
          stopped = true;
          return;
        }
        visit(expression.right);
        calledBefore = true;
        return;
      case 'IfExpression':
        if (
          !calledBefore &&
          expression.span.start.line === line &&
          expression.span.end.line === line &&
          !containsCall(expression)
        ) {
          found.push(expression);
          return;
        }
        visit(expression.clauses[0]!.condition);
        stopped = true;
        return;
      default:
        return;
    }
  };
  roots.forEach(visit);
  return found;
}

/** Whether evaluating `expression` may call a function (a function body's calls do not count). */
function containsCall(expression: Expression): boolean {
  const stack: unknown[] = [expression];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...current);
      continue;
    }
    const record = current as Record<string, unknown>;
    if (record.kind === 'Call' || record.kind === 'MethodCall' || record.kind === 'InterpolatedString') return true;
    if (record.kind === 'FunctionExpression') continue;
    for (const key in record) {
      if (key !== 'span') stack.push(record[key]);
    }
  }
  return false;
}

function flattenConcat(expression: Expression): Expression[] {
  // `..` is right associative: a .. (b .. c). A left operand that is itself a concatenation was
  // parenthesised in the source and stays one operand.
  const operands: Expression[] = [];
  let current = expression;
  while (current.kind === 'Binary' && current.operator === '..') {
    operands.push(current.left);
    current = current.right;
  }
  operands.push(current);
  return operands;
}

/** Expressions that are always strings: they need no number formatting in a concatenation. */
function isStringValued(expression: Expression): boolean {
  switch (expression.kind) {
    case 'String':
    case 'InterpolatedString':
      return true;
    case 'Paren':
    case 'Cast':
      return isStringValued(expression.expression);
    default:
      return false;
  }
}

/** Expressions never nil or false: `c and v or e` is exact for them. */
function isTruthy(expression: Expression): boolean {
  switch (expression.kind) {
    case 'Number':
    case 'String':
    case 'InterpolatedString':
    case 'Table':
    case 'FunctionExpression':
      return true;
    case 'Boolean':
      return expression.value;
    case 'Paren':
    case 'Cast':
      return isTruthy(expression.expression);
    default:
      return false;
  }
}

function isNumberLiteral(expression: Expression): boolean {
  if (expression.kind === 'Number') return true;
  if (expression.kind === 'Unary' && expression.operator === '-') return isNumberLiteral(expression.operand);
  if (expression.kind === 'Paren' || expression.kind === 'Cast') return isNumberLiteral(expression.expression);
  return false;
}

/** `t.x`, `t[k]`, `t[1]` whose object and key are names or literals: reading them twice is safe. */
function isStableTarget(target: AssignTarget): boolean {
  const stable = (expression: Expression): boolean =>
    expression.kind === 'NameExpression' || expression.kind === 'Number' || expression.kind === 'String';
  if (target.kind === 'Member') return target.object.kind === 'NameExpression';
  if (target.kind === 'Index') return stable(target.object) && stable(target.key);
  return true;
}

/**
 * The local holding a compound target's object: named after the field it was read from when
 * nothing in the statement reads that name, so Lua's "attempt to index a nil value (local 'parent')"
 * names the user's field rather than a made-up variable.
 */
function temporaryName(target: AssignTarget, value: Expression): string {
  const object = target.kind === 'NameExpression' ? null : target.object;
  const field =
    object?.kind === 'Member'
      ? object.name.name
      : object?.kind === 'Index' && object.key.kind === 'String'
        ? object.key.value
        : null;
  const usable =
    field !== null &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) &&
    userName(field) === field &&
    !mentionsName(value, field) &&
    !(target.kind === 'Index' && mentionsName(target.key, field));
  return usable ? field : `${PREFIX}o`;
}

function declaredNames(statement: Statement): string[] {
  if (statement.kind === 'Local') return statement.names.map((binding) => binding.name);
  if (statement.kind === 'LocalFunction') return [statement.name.name];
  return [];
}

/** Whether `node` contains a `continue` of the loop it belongs to (not of a nested loop or function). */
function containsContinue(node: Statement | Block): boolean {
  if (node.kind === 'Block') return node.body.some(containsContinue);
  switch (node.kind) {
    case 'Continue':
      return true;
    case 'Do':
      return containsContinue(node.body);
    case 'If':
      return (
        node.clauses.some((clause) => containsContinue(clause.body)) ||
        (node.elseBody !== null && containsContinue(node.elseBody))
      );
    default:
      return false;
  }
}

/** Whether a name is read anywhere inside `node` (conservatively: nested functions included). */
function mentionsName(node: unknown, name: string): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...current);
      continue;
    }
    const record = current as Record<string, unknown>;
    if (record.kind === 'NameExpression' && record.name === name) return true;
    for (const key in record) {
      if (key !== 'span') stack.push(record[key]);
    }
  }
  return false;
}

/** A user's variable name as written in Lua: Lua-only keywords and the lowering's prefix are renamed. */
function userName(name: string): string {
  return LUA_ONLY_KEYWORDS.has(name) || name.startsWith(PREFIX) ? `${PREFIX}u_${name}` : name;
}

function fieldAccess(name: string): string {
  return LUA_ONLY_KEYWORDS.has(name) ? `[${luaString(name)}]` : `.${name}`;
}

/** A double as a Lua 5.4 float literal (never an integer one): `2` -> `2.0`, inf -> `1e999`. */
export function luaNumber(value: number): string {
  if (value === Infinity) return '1e999';
  if (Number.isNaN(value)) return '(0.0/0.0)';
  const text = String(value);
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/**
 * A Lua string literal of `bytes` (one char per byte, as the parser gives them): printable ASCII as
 * is, the rest as `\ddd`, so the literal is one line and ASCII whatever it holds. A char above 255
 * (a name, never a parsed string) is written as its UTF-8 bytes.
 */
export function luaString(bytes: string): string {
  let out = '"';
  for (const char of bytes) {
    const code = char.codePointAt(0)!;
    if (code === 0x22) out += '\\"';
    else if (code === 0x5c) out += '\\\\';
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code <= 0xff) out += decimalEscape(code);
    else for (const byte of new TextEncoder().encode(char)) out += decimalEscape(byte);
  }
  return `${out}"`;
}

function decimalEscape(byte: number): string {
  return `\\${String(byte).padStart(3, '0')}`;
}
