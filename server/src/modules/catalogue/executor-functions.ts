/**
 * Honest labels: most catalogue scripts are written for client-side script executors and call
 * functions those provide (`game:HttpGet`, `getgenv`, `hookfunction`, `syn.*`, ...) or client-only
 * objects (`LocalPlayer`). A server Script in a Roblox game has none of them, so such a script will
 * fail there with a Lua error. This finds them, so the catalogue can say so before anyone runs it.
 *
 * Comments and string literals are blanked out first, so `print("getgenv")` or a commented-out
 * call does not count. Linear in the code's length.
 */

/** Global functions that only executors define, found as a bare name (not a field of something else). */
const EXECUTOR_GLOBALS = [
  'getgenv',
  'getrenv',
  'getsenv',
  'getgc',
  'getreg',
  'getrawmetatable',
  'setrawmetatable',
  'hookfunction',
  'hookmetamethod',
  'replaceclosure',
  'newcclosure',
  'checkcaller',
  'iscclosure',
  'islclosure',
  'setreadonly',
  'make_writeable',
  'isreadonly',
  'getnamecallmethod',
  'setnamecallmethod',
  'getcallingscript',
  'getconnections',
  'firesignal',
  'fireclickdetector',
  'firetouchinterest',
  'fireproximityprompt',
  'getupvalues',
  'getupvalue',
  'setupvalue',
  'getconstants',
  'getscriptclosure',
  'decompile',
  'getinstances',
  'getnilinstances',
  'getloadedmodules',
  'gethiddenproperty',
  'sethiddenproperty',
  'setsimulationradius',
  'gethui',
  'cloneref',
  'identifyexecutor',
  'getexecutorname',
  'queue_on_teleport',
  'queueonteleport',
  'setclipboard',
  'toclipboard',
  'setfpscap',
  'writefile',
  'readfile',
  'appendfile',
  'isfile',
  'isfolder',
  'makefolder',
  'delfile',
  'listfiles',
  'getcustomasset',
  'getsynasset',
  'http_request',
  'mousemoverel',
  'mouse1click',
  'keypress',
  'rconsoleprint',
] as const;

/** Executor APIs reached through an object. */
const EXECUTOR_MEMBERS: { name: string; pattern: RegExp }[] = [
  { name: 'game:HttpGet', pattern: /\bgame\s*:\s*HttpGet(?:Async)?\b/ },
  { name: 'game:HttpPost', pattern: /\bgame\s*:\s*HttpPost(?:Async)?\b/ },
  { name: 'syn.*', pattern: /(?<![\w.:])syn\s*\.\s*[A-Za-z_]/ },
  { name: 'fluxus.*', pattern: /(?<![\w.:])fluxus\s*\.\s*[A-Za-z_]/ },
  { name: 'Drawing.new', pattern: /(?<![\w.:])Drawing\s*\.\s*new\b/ },
  {
    name: 'debug.getupvalue',
    pattern: /(?<![\w.:])debug\s*\.\s*(?:getupvalues?|setupvalue|getconstants?|getregistry|getprotos?|setstack)\b/,
  },
];

/** Players.LocalPlayer exists only on a client (a LocalScript or an executor), never in a server Script. */
const CLIENT_ONLY = { name: 'LocalPlayer', pattern: /\bLocalPlayer\b/ };

/** A bare name, not a field (`t.getgenv`), a method or a table key or assignment target (`getgenv = ...`). */
const GLOBAL_PATTERN = new RegExp(`(?<![\\w.:])(${EXECUTOR_GLOBALS.join('|')})\\b(?!\\s*=(?!=))`, 'g');

/** `[[`, `[==[` ...: the length of the opening bracket at `at`, or 0. */
function longBracketLevel(code: string, at: number): number {
  if (code[at] !== '[') return -1;
  let level = 0;
  let index = at + 1;
  while (code[index] === '=') {
    level += 1;
    index += 1;
  }
  return code[index] === '[' ? level : -1;
}

/** The code with every comment and string literal replaced by a space. */
export function stripCommentsAndStrings(code: string): string {
  const parts: string[] = [];
  let start = 0;
  let index = 0;
  const skipTo = (end: number) => {
    parts.push(code.slice(start, index), ' ');
    index = end;
    start = end;
  };
  const closeLong = (from: number, level: number) => {
    const close = `]${'='.repeat(level)}]`;
    const end = code.indexOf(close, from);
    return end === -1 ? code.length : end + close.length;
  };
  while (index < code.length) {
    const char = code[index];
    if (char === '-' && code[index + 1] === '-') {
      const level = longBracketLevel(code, index + 2);
      if (level >= 0) {
        skipTo(closeLong(index + 4 + level, level));
      } else {
        const end = code.indexOf('\n', index);
        skipTo(end === -1 ? code.length : end);
      }
    } else if (char === '[') {
      const level = longBracketLevel(code, index);
      if (level >= 0) skipTo(closeLong(index + 2 + level, level));
      else index += 1;
    } else if (char === '"' || char === "'" || char === '`') {
      let end = index + 1;
      while (end < code.length && code[end] !== char && code[end] !== '\n') end += code[end] === '\\' ? 2 : 1;
      skipTo(Math.min(end + 1, code.length));
    } else {
      index += 1;
    }
  }
  parts.push(code.slice(start));
  return parts.join('');
}

/** The executor-only functions the code calls (and LocalPlayer), each once, in the order of the lists above. */
export function findExecutorFunctions(code: string): string[] {
  const text = stripCommentsAndStrings(code);
  const found: string[] = EXECUTOR_MEMBERS.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name);
  const globals = new Set([...text.matchAll(GLOBAL_PATTERN)].map((match) => match[1]));
  found.push(...EXECUTOR_GLOBALS.filter((name) => globals.has(name)));
  if (CLIENT_ONLY.pattern.test(text)) found.push(CLIENT_ONLY.name);
  return found;
}
