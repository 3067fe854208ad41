import * as ace from 'ace-builds';
import type { Ace } from 'ace-builds';
// Defines ace/mode/lua and its highlight rules in Ace's module registry (nothing is fetched).
import 'ace-builds/src-noconflict/mode-lua';

/**
 * Ace syntax mode for Luau, Roblox's Lua dialect: Ace's Lua rules plus backtick strings with `{...}`
 * interpolation, type annotations (`local x: T`, typed parameters and returns, `type`/`export type`
 * declarations, `::` casts), compound assignment operators, `continue` and `typeof`.
 *
 * Contexts are kept on Ace's tokenizer stack as pairs [state, stateToReturnTo], the same layout as
 * Ace's own push/pop rules and the Lua long-bracket rules, so all of them nest inside one another.
 */

type Stack = string[];
type Next = string | ((currentState: string, stack: Stack) => string);

interface Rule {
  token?: string | string[] | ((value: string) => string);
  regex?: string;
  next?: Next;
  defaultToken?: string;
  include?: string;
}

interface HighlightRulesBase {
  $rules: Record<string, Rule[]>;
  normalizeRules(): void;
  getRules(): Record<string, Rule[]>;
  createKeywordMapper(map: Record<string, string>, defaultToken?: string): (value: string) => string;
}

const { LuaHighlightRules } = ace.require('ace/mode/lua_highlight_rules') as {
  LuaHighlightRules: new () => HighlightRulesBase;
};
const { Mode: LuaMode } = ace.require('ace/mode/lua') as { Mode: new () => Ace.SyntaxMode };

/** Enters `state`; popping it returns to `returnTo` (by default the state we came from). */
const push =
  (state: string, returnTo?: string): Next =>
  (currentState, stack) => {
    stack.unshift(state, returnTo ?? currentState);
    return state;
  };

function pop(_currentState: string, stack: Stack): string {
  stack.shift();
  return stack.shift() ?? 'start';
}

const IDENTIFIER = '[A-Za-z_][A-Za-z0-9_]*';

const LOCAL_NAMES = 'luauLocalNames';
const FUNCTION_HEAD = 'luauFunctionHead';
const PARAMETERS = 'luauParameters';
const RETURN_TYPE = 'luauReturnType';
const TYPE_DECLARATION = 'luauTypeDeclaration';
const TYPE = 'luauType';
const AFTER_TYPE = 'luauAfterType';
const NESTED_TYPE = 'luauNestedType';
const INTERPOLATED_STRING = 'luauInterpolatedString';
const INTERPOLATION = 'luauInterpolation';

/** A string that would resume at the end of its line ends there. */
const endOfLine = (state: string, stack: Stack) => (state === INTERPOLATED_STRING ? pop(state, stack) : state);

const KEYWORDS = 'break|do|else|elseif|end|for|function|if|in|local|repeat|return|then|until|while|or|and|not|continue';
const BUILTIN_CONSTANTS = 'true|false|nil|_G|_VERSION';
const BUILTIN_FUNCTIONS =
  'assert|collectgarbage|error|getfenv|getmetatable|ipairs|load|loadstring|newproxy|next|pairs|pcall|print|' +
  'rawequal|rawget|rawlen|rawset|require|select|setfenv|setmetatable|tonumber|tostring|type|typeof|unpack|' +
  'xpcall|gcinfo|delay|spawn|tick|time|wait|warn|elapsedTime|settings|UserSettings';
const LIBRARIES = 'string|table|math|coroutine|os|debug|utf8|bit32|buffer|task|vector';
const ROBLOX_GLOBALS =
  'game|workspace|script|plugin|shared|Enum|Instance|Vector2|Vector3|CFrame|Color3|BrickColor|UDim|UDim2|' +
  'Ray|Region3|TweenInfo|NumberRange|NumberSequence|ColorSequence|Rect|Random|DateTime|RaycastParams|OverlapParams';

const LINE_COMMENT: Rule = { token: 'comment', regex: '--.*$' };
const STRING_LITERALS: Rule[] = [
  { token: 'string', regex: '"(?:[^\\\\"]|\\\\.)*"' },
  { token: 'string', regex: "'(?:[^\\\\']|\\\\.)*'" },
];
const WHITESPACE: Rule = { token: 'text', regex: '\\s+' };

/** The type expression after a colon, `->`, `=` of a type declaration or `::` (one nesting level). */
const typeRules: Record<string, Rule[]> = {
  [TYPE]: [
    WHITESPACE,
    LINE_COMMENT,
    { token: 'keyword.operator', regex: '\\.\\.\\.|[|&]' },
    { token: 'support.function', regex: 'typeof\\b' },
    { token: 'constant.language', regex: '(?:nil|true|false)\\b', next: AFTER_TYPE },
    ...STRING_LITERALS.map((rule) => ({ ...rule, next: AFTER_TYPE })),
    { token: 'support.type', regex: IDENTIFIER, next: AFTER_TYPE },
    { token: 'paren.lparen', regex: '[{(\\[]', next: push(NESTED_TYPE, AFTER_TYPE) },
    // Anything else ends the annotation without being consumed (also at the end of the line).
    { token: 'text', regex: '', next: pop },
  ],
  [AFTER_TYPE]: [
    { token: 'text', regex: '[ \\t]+(?=[|&?.<-])' },
    { token: 'keyword.operator', regex: '\\?' },
    { token: 'keyword.operator', regex: '->|[|&]', next: TYPE },
    { token: 'keyword.operator', regex: '\\.(?!\\.)', next: TYPE },
    { token: 'paren.lparen', regex: '<', next: push(NESTED_TYPE, AFTER_TYPE) },
    { token: 'text', regex: '', next: pop },
  ],
  // Inside {...}, (...), [...] or <...> of a type: ends only at the matching closer, may span lines.
  [NESTED_TYPE]: [
    WHITESPACE,
    LINE_COMMENT,
    ...STRING_LITERALS,
    { token: 'keyword.operator', regex: '->|\\.\\.\\.|[|&?]' },
    { token: 'support.function', regex: 'typeof\\b' },
    { token: 'constant.language', regex: '(?:nil|true|false)\\b' },
    { token: 'identifier', regex: `${IDENTIFIER}(?=\\s*:(?!:))` },
    { token: 'support.type', regex: IDENTIFIER },
    { token: 'constant.numeric', regex: '\\d+' },
    { token: 'paren.lparen', regex: '[{(\\[<]', next: push(NESTED_TYPE) },
    { token: 'paren.rparen', regex: '[})\\]>]', next: pop },
    { token: 'keyword.operator', regex: '[:,;=.]' },
    { defaultToken: 'text' },
  ],
};

/** `function name<T>(a: T, ...: U): R`, also for anonymous functions. */
const functionRules: Record<string, Rule[]> = {
  [FUNCTION_HEAD]: [
    { token: 'text', regex: '[ \\t]+' },
    { token: 'entity.name.function', regex: IDENTIFIER },
    { token: 'keyword.operator', regex: '[.:]' },
    { token: 'paren.lparen', regex: '<', next: push(NESTED_TYPE) },
    { token: 'paren.lparen', regex: '\\(', next: PARAMETERS },
    { token: 'text', regex: '', next: pop },
  ],
  // May span lines; ends at ')' (or at anything a parameter list cannot contain).
  [PARAMETERS]: [
    WHITESPACE,
    LINE_COMMENT,
    { token: 'keyword.operator', regex: '\\.\\.\\.' },
    { token: 'variable.language', regex: 'self\\b' },
    { token: 'variable.parameter', regex: IDENTIFIER },
    { token: 'keyword.operator', regex: ',' },
    { token: 'keyword.operator', regex: ':', next: push(TYPE) },
    { token: 'paren.rparen', regex: '\\)', next: RETURN_TYPE },
    { token: 'text', regex: '(?=.)', next: pop },
  ],
  [RETURN_TYPE]: [
    { token: 'text', regex: '[ \\t]+(?=:)' },
    { token: 'keyword.operator', regex: ':(?!:)', next: TYPE },
    { token: 'text', regex: '', next: pop },
  ],
};

/** `local a: T, b`, `for i: number = ...` and `type Name<T> = ...` (after the name). */
const declarationRules: Record<string, Rule[]> = {
  [LOCAL_NAMES]: [
    { token: 'text', regex: '[ \\t]+' },
    { token: 'identifier', regex: `(?!(?:in|do|function)\\b)${IDENTIFIER}` },
    { token: 'keyword.operator', regex: ',' },
    { token: 'keyword.operator', regex: ':(?!:)', next: push(TYPE) },
    { token: 'text', regex: '', next: pop },
  ],
  [TYPE_DECLARATION]: [
    { token: 'text', regex: '[ \\t]+' },
    { token: 'paren.lparen', regex: '<', next: push(NESTED_TYPE) },
    { token: 'keyword.operator', regex: '=', next: TYPE },
    { token: 'text', regex: '', next: pop },
  ],
};

/** Backtick strings: `{...}` parts are code; like other short strings they end with the line. */
const interpolationRules: Record<string, Rule[]> = {
  [INTERPOLATED_STRING]: [
    { token: 'constant.language.escape', regex: '\\\\$', next: INTERPOLATED_STRING },
    { token: 'constant.language.escape', regex: '\\\\.' },
    { token: 'paren.lparen', regex: '\\{', next: push(INTERPOLATION) },
    { token: 'string', regex: '`', next: pop },
    { token: 'string', regex: '$', next: pop },
    { defaultToken: 'string' },
  ],
  [INTERPOLATION]: [
    { token: 'paren.lparen', regex: '\\{', next: push(INTERPOLATION) },
    // Ace stops at the end of the line right after a state change, before the string's '$' rule.
    { token: 'paren.rparen', regex: '\\}$', next: (state, stack) => endOfLine(pop(state, stack), stack) },
    { token: 'paren.rparen', regex: '\\}', next: pop },
    { include: 'start' },
  ],
};

/** Code rules placed before Ace's Lua rules, so they win where both match. */
const codeRules: Rule[] = [
  { token: 'string', regex: '`$' },
  { token: 'string', regex: '`', next: push(INTERPOLATED_STRING) },
  {
    token: ['keyword', 'text', 'keyword', 'text', 'support.type'],
    regex: `\\b(export)(\\s+)(type)(\\s+)(${IDENTIFIER})`,
    next: push(TYPE_DECLARATION),
  },
  {
    token: ['keyword', 'text', 'support.type'],
    regex: `\\b(type)(\\s+)(${IDENTIFIER})(?=\\s*[<=])`,
    next: push(TYPE_DECLARATION),
  },
  { token: 'keyword', regex: '\\b(?:local|for)\\b(?!\\s+function\\b)', next: push(LOCAL_NAMES) },
  { token: 'keyword', regex: '\\bfunction\\b', next: push(FUNCTION_HEAD) },
  { token: 'keyword.operator', regex: '::', next: push(TYPE) },
  {
    token: 'constant.numeric',
    regex: '\\b(?:0[bB][01_]+|0[xX][\\dA-Fa-f_]+|\\d[\\d_]*(?:\\.[\\d_]*)?(?:[eE][+-]?\\d+)?)',
  },
];

const OPERATORS = '\\.\\.\\.|\\.\\.=|\\.\\.|\\/\\/=|\\/\\/|[-+*\\/%^]=|==|~=|<=|>=|->|[-+*\\/%^#<>=:~]';
const LUA_IDENTIFIER_REGEX = '[a-zA-Z_$][a-zA-Z0-9_$]*\\b';

export class LuauHighlightRules extends LuaHighlightRules {
  constructor() {
    super();
    const keywordMapper = this.createKeywordMapper(
      {
        keyword: KEYWORDS,
        'support.function': BUILTIN_FUNCTIONS,
        'constant.library': LIBRARIES,
        'constant.language': BUILTIN_CONSTANTS,
        'support.class': ROBLOX_GLOBALS,
        'variable.language': 'self',
      },
      'identifier',
    );
    const start = this.$rules.start ?? [];
    for (const rule of start) {
      if (rule.regex === LUA_IDENTIFIER_REGEX) rule.token = keywordMapper;
      else if (rule.token === 'keyword.operator') rule.regex = OPERATORS;
    }
    // Ace's normaliser and tokenizer write into rules and states: each instance gets its own copies.
    const copy = (rule: Rule): Rule => ({ ...rule });
    start.unshift(...codeRules.map(copy));
    for (const states of [typeRules, functionRules, declarationRules, interpolationRules]) {
      for (const [name, rules] of Object.entries(states)) this.$rules[name] = rules.map(copy);
    }
    // Ace's rules are already normalised; this pass resolves the new states' pops and includes.
    this.normalizeRules();
  }
}

export class LuauMode extends LuaMode {
  $id = 'ace/mode/luau';

  constructor() {
    super();
    this.HighlightRules = LuauHighlightRules as unknown as Ace.SyntaxMode['HighlightRules'];
  }

  /** Ace's Lua worker would reject Luau syntax (and would be fetched from a URL): no worker. */
  override createWorker(): null {
    return null;
  }
}
