import { randomUUID } from 'node:crypto';
import { compileLuau } from '@moonrelay/lua/luau/compile.ts';
import { createSandboxPool, SANDBOX_DEADLINE_MS, type SandboxPool } from '@moonrelay/sandbox/pool/sandbox-pool';
import type { SandboxResult } from '@moonrelay/sandbox/sandbox/run-lua';

/**
 * A local stand-in for Roblox Open Cloud's Luau Execution API (cloud runs), answering in its
 * documented shapes: a task created on a place's head or pinned version, read back with view
 * BASIC or FULL, and its logs FLAT or STRUCTURED, paged with maxPageSize and nextPageToken; errors
 * as `{ code, message }`. Scripts really run, in Moonrelay's own Lua sandbox, so a task's results,
 * printed lines and errors are the script's own. It keeps the rules a client of Roblox must live
 * with: scopes per key, a key for its own universe only, the 4 MB script and results limits, the
 * 300 s timeout, rate limits per key owner and endpoint (with Roblox's x-ratelimit-* headers on
 * every answer and Retry-After on a 429), and at most so many unfinished tasks per place. The
 * limits' window is Roblox's minute unless a test shortens it (`windowMs`), and a test may hold
 * create answers back (`holdCreates`): Roblox took the task, and Moonrelay has not heard yet.
 *
 * Time is the fake's `now()`: a task is QUEUED for `queuedMs`, then PROCESSING; once its script has
 * run, its lines appear one by one over `processingMs` and it then ends COMPLETE or FAILED. The
 * state is worked out from `now()` whenever it is read, so a test on a clock of its own decides
 * when a task moves on, and nothing here runs on timers.
 */

export const LUAU_EXECUTION_SCOPE = 'universe.place.luau-execution-session';
export const USER_RESTRICTION_SCOPE = 'universe.user-restriction';

/** Roblox's limit on a task's script and on its results' JSON: 4 MB of UTF-8. */
export const LUAU_SCRIPT_MAX_BYTES = 4 * 1024 * 1024;
export const LUAU_RESULTS_MAX_BYTES = 4 * 1024 * 1024;
export const LUAU_TIMEOUT_MAX_SECONDS = 300;
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 10_000;

export type LuauTaskState = 'QUEUED' | 'PROCESSING' | 'CANCELLED' | 'COMPLETE' | 'FAILED';
export type LuauErrorCode = 'SCRIPT_ERROR' | 'DEADLINE_EXCEEDED' | 'OUTPUT_SIZE_LIMIT_EXCEEDED' | 'INTERNAL_ERROR';
export type LuauMessageType = 'OUTPUT' | 'INFO' | 'WARNING' | 'ERROR';
/** A script's comment that makes the fake act as Roblox sometimes does (see LuauTaskInfo.marker). */
export type LuauMarker = 'never-ends' | 'lose' | 'hold';

export interface FakeLuauLimits {
  /**
   * Requests each key owner may make to each endpoint within one window (`windowMs`, Roblox's minute
   * unless a test shortens it: "5 creates per window" with a 1 s window keeps a test short).
   */
  createsPerMinute: number;
  readsPerMinute: number;
  logReadsPerMinute: number;
  /** The rate limits' sliding window, 60 000 ms (Roblox's minute) unless set. */
  windowMs: number;
  /** QUEUED or PROCESSING tasks one place may have; a create past it gets 429. */
  unfinishedPerPlace: number;
  /** Whether a 429 says when to try again (Retry-After); Roblox does not always. */
  retryAfter: boolean;
}

export interface FakeLuauTiming {
  queuedMs: number;
  processingMs: number;
}

export interface FakeLuauStats {
  /** Requests to each endpoint, whatever they were answered. */
  creates: number;
  reads: number;
  logReads: number;
  /** Every 429 answered, failNext's included. */
  refused429: number;
  /** 429s for a client that went over a limit (a rate limit, or the unfinished tasks of a place). */
  overLimit: number;
  /** The most unfinished tasks one place ever had at once. */
  maxUnfinishedPerPlace: number;
  /** The most creates one key owner had counted against the create limit within any 60 s. */
  maxCreatesInAnyMinute: number;
  /** The same within any window of the limits (`windowMs`; the minute unless set). */
  maxCreatesInAnyWindow: number;
  /** Creates accepted whose answer is held back (`holdCreates`), not yet released or dropped. */
  heldCreates: number;
}

/** A task as the fake's controls show it (tasks(), nextTask()). */
export interface LuauTaskInfo {
  path: string;
  universeId: string;
  placeId: string;
  version: number;
  state: LuauTaskState;
  script: string;
  timeout: string;
  createTime: string;
  /** The key that created it. */
  apiKey: string;
  /**
   * `never-ends`: stays PROCESSING forever; `lose`: gone right after it was created (GETs answer
   * 404, it never runs and does not count as unfinished); `hold`: stays PROCESSING, its lines
   * shown, until release().
   */
  marker: LuauMarker | null;
  results?: unknown[];
  error?: { code: LuauErrorCode; message: string };
}

/** What the fake knows of an API key (kept by fake-open-cloud.ts, where keys are added). */
export interface FakeKeyInfo {
  universeId: string;
  /** The Roblox user the key belongs to: rate limits count per owner. */
  ownerId: string;
  /** "scope:operation", e.g. "universe.place.luau-execution-session:write". */
  scopes: ReadonlySet<string>;
}

export interface LuauRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  apiKey: string | undefined;
  body: unknown;
}

export interface LuauAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * Set for an answer held back (`holdCreates`): the HTTP side waits for it, then sends the answer
   * (true) or closes the connection without a word (false), as an answer lost on the way.
   */
  held?: Promise<boolean>;
}

/** Whether `key` may do `operation` on `scope`: write implies read. */
export function keyHasScope(key: FakeKeyInfo, scope: string, operation: 'read' | 'write'): boolean {
  return key.scopes.has(`${scope}:${operation}`) || (operation === 'read' && key.scopes.has(`${scope}:write`));
}

interface LogLine {
  message: string;
  messageType: LuauMessageType;
}

interface Outcome {
  lines: LogLine[];
  results?: unknown[];
  error?: { code: LuauErrorCode; message: string };
}

interface Task {
  path: string;
  universeId: string;
  placeId: string;
  version: number;
  script: string;
  timeoutSeconds: number;
  createdAt: number;
  apiKey: string;
  ownerId: string;
  marker: LuauMarker | null;
  /** The timing when it was created: changing it later does not reshape tasks already made. */
  timing: FakeLuauTiming;
  /** Set once the sandbox run is over, with the fake's time it was over. */
  outcome?: Outcome;
  ranAt?: number;
  releasedAt?: number;
  ran: Promise<void>;
}

interface Phase {
  state: LuauTaskState;
  updateAt: number;
  messages: (LogLine & { at: number })[];
  /** When the task ends (or ended); Infinity while that is not known or never comes. */
  endAt: number;
}

type EndpointClass = 'create' | 'read' | 'logs';

const CREATE_PATH =
  /^\/cloud\/v2\/universes\/([^/]+)\/places\/([^/]+)(?:\/versions\/([^/]+))?\/luau-execution-session-tasks$/;
const TASK_PATH =
  /^\/cloud\/v2\/(universes\/([^/]+)\/places\/([^/]+)\/versions\/([^/]+)\/luau-execution-sessions\/([^/]+)\/tasks\/([^/]+))(\/logs)?$/;
const TIMEOUT = /^(\d+(?:\.\d+)?)s$/;
const MARKER = /--@fake:(never-ends|lose|hold)\b/;

/**
 * The script as the fake runs it. The sandbox answers a chunk's return values as Luau's tostring
 * shows them, and its output as one text, so the script is wrapped:
 * - before it, on its first line (so every line keeps its number in errors), print and warn are
 *   replaced by functions that write one line per call, marked with its kind and with newlines
 *   escaped, so a multi-line print stays one log message and a print is never taken for a warn;
 * - it runs as the body of a vararg function, whose return values are packed;
 * - after it, they are encoded as JSON (what is not JSON-able, such as a function, becomes null,
 *   as Roblox answers an Instance), stopping once the text passes the results limit, and the chunk
 *   returns "ok" and the JSON, or "too-large".
 * The helpers take the libraries as locals before the script runs, so a script that changes its
 * globals does not change them. Names start with __fake, which no real script uses.
 */
const SCRIPT_PREFIX = [
  'local __fakeTostring, __fakeType, __fakeNext, __fakeRawget, __fakePack, __fakeConcat, __fakeGsub, __fakeFormat, __fakeByte, __fakeFloor, __fakeHuge, __fakePrint = tostring, type, next, rawget, table.pack, table.concat, string.gsub, string.format, string.byte, math.floor, math.huge, print;',
  String.raw`local function __fakeLine(kind, ...) local parts = __fakePack(...); for i = 1, parts.n do parts[i] = __fakeTostring(parts[i]) end; __fakePrint("\1" .. kind .. __fakeGsub(__fakeConcat(parts, " ", 1, parts.n), "[\\\n]", { ["\\"] = "\\\\", ["\n"] = "\\n" })) end;`,
  'print = function(...) __fakeLine("P", ...) end; warn = function(...) __fakeLine("W", ...) end;',
  'local __fakeResults = __fakePack((function(...) ',
].join(' ');

const SCRIPT_SUFFIX = String.raw`
end)(...))
local function __fakeEncodeResults(packed, limit)
  local out, size, over, onPath = {}, 0, false, {}
  local function put(text)
    if over then return end
    size = size + #text
    if size > limit then over = true else out[#out + 1] = text end
  end
  local escapes = { ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n", ["\r"] = "\\r", ["\t"] = "\\t" }
  local function escape(c) return escapes[c] or __fakeFormat("\\u%04x", __fakeByte(c)) end
  local function encode(value)
    if over then return end
    local kind = __fakeType(value)
    if kind == "boolean" then
      put(value and "true" or "false")
    elseif kind == "number" then
      if value ~= value or value == __fakeHuge or value == -__fakeHuge then put("null") else put(__fakeTostring(value)) end
    elseif kind == "string" then
      put('"' .. __fakeGsub(value, '[%c"\\]', escape) .. '"')
    elseif kind == "table" and not onPath[value] then
      onPath[value] = true
      local count, highest, isArray = 0, 0, true
      for key in __fakeNext, value do
        count = count + 1
        if __fakeType(key) ~= "number" or key < 1 or key ~= __fakeFloor(key) then
          isArray = false
        elseif key > highest then
          highest = key
        end
      end
      if isArray and highest == count then
        put("[")
        for i = 1, count do
          if i > 1 then put(",") end
          encode(__fakeRawget(value, i))
        end
        put("]")
      else
        put("{")
        local first = true
        for key, item in __fakeNext, value do
          local keyKind = __fakeType(key)
          if keyKind == "string" or keyKind == "number" then
            if not first then put(",") end
            first = false
            encode(keyKind == "string" and key or __fakeTostring(key))
            put(":")
            encode(item)
          end
        end
        put("}")
      end
      onPath[value] = nil
    else
      put("null")
    end
  end
  put("[")
  for i = 1, packed.n do
    if i > 1 then put(",") end
    encode(packed[i])
  end
  put("]")
  if over then return "too-large" end
  return "ok", __fakeConcat(out)
end
return __fakeEncodeResults(__fakeResults, ${LUAU_RESULTS_MAX_BYTES})
`;

/** Room for the results' JSON in the sandbox's returns, whose budget is the output limit. */
const SANDBOX_OUTPUT_BYTES = LUAU_RESULTS_MAX_BYTES + 1024;

/** Roblox names a task's script TaskScript in its errors ("TaskScript:3: boom"); the sandbox says script. */
const asTaskScript = (message: string) => message.replace(/(^|[^\w.])script:(\d+):/g, '$1TaskScript:$2:');

/** The sandbox's output, one line per print/warn call of the wrapped script (see SCRIPT_PREFIX). */
function linesOf(output: string): LogLine[] {
  const lines = output.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const unescape = (text: string) => text.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
  return lines.map((line): LogLine => {
    if (line.startsWith('\u0001P')) return { message: unescape(line.slice(2)), messageType: 'OUTPUT' };
    if (line.startsWith('\u0001W')) return { message: unescape(line.slice(2)), messageType: 'WARNING' };
    // The error of a thread started with task.spawn, which the sandbox writes itself.
    if (line.startsWith('error: ')) return { message: asTaskScript(line.slice(7)), messageType: 'ERROR' };
    return { message: line, messageType: 'OUTPUT' };
  });
}

function outcomeOf(result: SandboxResult, timeoutMs: number): Outcome {
  const lines = linesOf(result.output);
  const failed = (code: LuauErrorCode, message: string): Outcome => ({ lines, error: { code, message } });
  if (result.success) {
    const [status, json] = result.returns;
    if (status === 'too-large')
      return failed('OUTPUT_SIZE_LIMIT_EXCEEDED', `The task's results are larger than ${LUAU_RESULTS_MAX_BYTES} bytes`);
    try {
      if (status === 'ok' && json !== undefined) return { lines, results: JSON.parse(json) as unknown[] };
    } catch {
      // Falls through: the wrapper's JSON did not parse, which is the fake's fault, not the script's.
    }
    return failed('INTERNAL_ERROR', "The fake could not read the script's results");
  }
  switch (result.limit) {
    case 'deadline':
    case 'instructions':
      // The sandbox's instruction limit stands for time too: an endless loop reaches it first.
      return failed(
        'DEADLINE_EXCEEDED',
        result.limit === 'deadline' && timeoutMs < SANDBOX_DEADLINE_MS
          ? `The task exceeded its timeout of ${timeoutMs / 1000}s`
          : `The script ran longer than the fake's sandbox allows (${result.error})`,
      );
    case 'output':
      return failed('OUTPUT_SIZE_LIMIT_EXCEEDED', `The task's output is larger than ${SANDBOX_OUTPUT_BYTES} bytes`);
    case 'memory':
      return failed('SCRIPT_ERROR', `TaskScript: ${result.error}`);
    default:
      if (result.error?.startsWith('The sandbox failed')) return failed('INTERNAL_ERROR', result.error);
      return failed('SCRIPT_ERROR', asTaskScript(result.error ?? 'The script failed'));
  }
}

const errorBody = (status: number, code: string, message: string): LuauAnswer => ({
  status,
  body: { code, message },
});

const codeOfStatus = (status: number) =>
  status === 429 ? 'RESOURCE_EXHAUSTED' : status === 503 ? 'UNAVAILABLE' : status === 404 ? 'NOT_FOUND' : 'INTERNAL';

const pageToken = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function offsetOf(token: string): number | undefined {
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString());
  return match ? Number(match[1]) : undefined;
}

export function fakeLuauExecution(options: {
  now: () => number;
  /** The key behind an `x-api-key`, as fake-open-cloud.ts keeps them. */
  keyOf: (apiKey: string | undefined) => FakeKeyInfo | undefined;
  limits?: Partial<FakeLuauLimits>;
  timing?: Partial<FakeLuauTiming>;
  /** Threads of the sandbox pool (it starts with the first task). */
  sandboxThreads?: number;
}) {
  const { now, keyOf } = options;
  const limits: FakeLuauLimits = {
    createsPerMinute: 5,
    readsPerMinute: 200,
    logReadsPerMinute: 45,
    unfinishedPerPlace: 10,
    retryAfter: true,
    windowMs: 60_000,
    ...options.limits,
  };
  const timing: FakeLuauTiming = { queuedMs: 50, processingMs: 50, ...options.timing };
  /** "universe/place" → its versions, the head last. */
  const places = new Map<string, number[]>();
  const tasks: Task[] = [];
  /** "class/owner" → times (ms) of the requests counted in the last minute. */
  const windows = new Map<string, number[]>();
  /** "owner" → times of the creates counted, for maxCreatesInAnyMinute and maxCreatesInAnyWindow. */
  const createTimes = new Map<string, number[]>();
  /** While set, accepted creates are recorded and their answers kept back (holdCreates). */
  let holdingCreates = false;
  const heldCreates: { task: LuauTaskInfo; settle: (answered: boolean) => void }[] = [];
  const holdWaiters: ((task: LuauTaskInfo) => void)[] = [];
  /** Statuses the next requests get instead of an answer (failNext). */
  const failures: number[] = [];
  const taskWaiters: { test: (task: LuauTaskInfo) => boolean; resolve: (task: LuauTaskInfo) => void }[] = [];
  const counts: FakeLuauStats = {
    creates: 0,
    reads: 0,
    logReads: 0,
    refused429: 0,
    overLimit: 0,
    maxUnfinishedPerPlace: 0,
    maxCreatesInAnyMinute: 0,
    maxCreatesInAnyWindow: 0,
    heldCreates: 0,
  };
  let pool: SandboxPool | undefined;
  let closed = false;

  const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();
  const sandbox = () => (pool ??= createSandboxPool({ size: options.sandboxThreads ?? 2 }));

  function phaseOf(task: Task, at: number): Phase {
    const processingAt = task.createdAt + task.timing.queuedMs;
    if (at < processingAt) return { state: 'QUEUED', updateAt: task.createdAt, messages: [], endAt: Infinity };
    const { outcome, ranAt } = task;
    if (!outcome || ranAt === undefined || task.marker === 'lose')
      return { state: 'PROCESSING', updateAt: processingAt, messages: [], endAt: Infinity };
    // The script has run; its lines are shown one by one over processingMs, as a running script
    // would write them, from the moment the task was both running and done.
    const revealAt = Math.max(ranAt, processingAt);
    const spread = task.timing.processingMs;
    const lines = outcome.lines.map((line, index) => ({
      ...line,
      at: revealAt + (spread * index) / outcome.lines.length,
    }));
    const endAt =
      task.marker === 'never-ends'
        ? Infinity
        : task.marker === 'hold'
          ? task.releasedAt === undefined
            ? Infinity
            : Math.max(task.releasedAt, revealAt + spread)
          : revealAt + spread;
    if (at < endAt)
      return { state: 'PROCESSING', updateAt: processingAt, messages: lines.filter((line) => line.at <= at), endAt };
    if (!outcome.error) return { state: 'COMPLETE', updateAt: endAt, messages: lines, endAt };
    const errorLine = { message: outcome.error.message, messageType: 'ERROR' as const, at: endAt };
    return { state: 'FAILED', updateAt: endAt, messages: [...lines, errorLine], endAt };
  }

  function infoOf(task: Task, at = now()): LuauTaskInfo {
    const phase = phaseOf(task, at);
    const { outcome } = task;
    return {
      path: task.path,
      universeId: task.universeId,
      placeId: task.placeId,
      version: task.version,
      state: phase.state,
      script: task.script,
      timeout: `${task.timeoutSeconds}s`,
      createTime: iso(task.createdAt),
      apiKey: task.apiKey,
      marker: task.marker,
      ...(phase.state === 'COMPLETE' && outcome?.results ? { results: outcome.results } : {}),
      ...(phase.state === 'FAILED' && outcome?.error ? { error: outcome.error } : {}),
    };
  }

  /** The task as Roblox answers it; `full` adds the script (view FULL, and the create answer). */
  function resourceOf(task: Task, full: boolean) {
    const phase = phaseOf(task, now());
    return {
      path: task.path,
      createTime: iso(task.createdAt),
      updateTime: iso(phase.updateAt),
      user: task.ownerId,
      state: phase.state,
      ...(full ? { script: task.script } : {}),
      timeout: `${task.timeoutSeconds}s`,
      ...(phase.state === 'FAILED' ? { error: task.outcome!.error } : {}),
      ...(phase.state === 'COMPLETE' ? { output: { results: task.outcome!.results } } : {}),
    };
  }

  const unfinishedOf = (universeId: string, placeId: string, at: number) =>
    tasks.filter(
      (task) =>
        task.universeId === universeId &&
        task.placeId === placeId &&
        task.marker !== 'lose' &&
        ['QUEUED', 'PROCESSING'].includes(phaseOf(task, at).state),
    );

  const limitOf = (endpoint: EndpointClass) =>
    endpoint === 'create'
      ? limits.createsPerMinute
      : endpoint === 'read'
        ? limits.readsPerMinute
        : limits.logReadsPerMinute;

  /** Seconds from `at` to `until`, whole as Roblox's headers give them, and at least 1. */
  const wholeSeconds = (until: number, at: number) => String(Math.max(1, Math.ceil((until - at) / 1000)));

  /**
   * Counts a request against its owner's sliding window for the endpoint (the minute unless
   * `windowMs` says otherwise), if under the limit, and says so in Roblox's headers: the limit and
   * its window, what is left, and the seconds until the quota is full again (the newest counted
   * request leaves the window), whole and at least 1. A refused request is not counted;
   * Retry-After is when the first counted request leaves, so a retry then is accepted.
   */
  function rateLimit(endpoint: EndpointClass, ownerId: string, at: number) {
    const limit = limitOf(endpoint);
    const { windowMs } = limits;
    const key = `${endpoint}/${ownerId}`;
    const times = windows.get(key) ?? [];
    // Oldest first: the requests that left the window are at the front.
    const left = times.findIndex((time) => time > at - windowMs);
    times.splice(0, left === -1 ? times.length : left);
    const allowed = times.length < limit;
    if (allowed) times.push(at);
    windows.set(key, times);
    const newest = times.at(-1);
    const headers: Record<string, string> = {
      'x-ratelimit-limit': `${limit}, ${limit};w=${Math.max(1, Math.round(windowMs / 1000))}`,
      'x-ratelimit-remaining': String(Math.max(0, limit - times.length)),
      'x-ratelimit-reset': wholeSeconds(newest === undefined ? at : newest + windowMs, at),
    };
    if (!allowed && limits.retryAfter) {
      // With a limit of 0 nothing is ever counted: try again when the window has passed.
      const freesAt = (times[Math.max(0, times.length - limit)] ?? at) + windowMs;
      headers['retry-after'] = wholeSeconds(freesAt, at);
    }
    return { allowed, headers };
  }

  function refuse(message: string, headers: Record<string, string>, overLimit: boolean): LuauAnswer {
    counts.refused429 += 1;
    if (overLimit) counts.overLimit += 1;
    return { ...errorBody(429, 'RESOURCE_EXHAUSTED', message), headers };
  }

  /** The checks every endpoint makes: an injected failure, the key, its universe, its scope, the rate limit. */
  function admit(
    request: LuauRequest,
    universeId: string,
    operation: 'read' | 'write',
    endpoint: EndpointClass,
  ): { key: FakeKeyInfo; headers: Record<string, string> } | { answer: LuauAnswer } {
    const failure = failures.shift();
    if (failure !== undefined) {
      const answer = errorBody(failure, codeOfStatus(failure), 'Internal server error');
      if (failure !== 429) return { answer };
      return { answer: refuse('Too many requests', limits.retryAfter ? { 'retry-after': '1' } : {}, false) };
    }
    const key = keyOf(request.apiKey);
    if (!key) return { answer: errorBody(401, 'UNAUTHENTICATED', 'Invalid API Key') };
    if (key.universeId !== universeId)
      return { answer: errorBody(403, 'PERMISSION_DENIED', 'The API key is not authorized for this universe.') };
    if (!keyHasScope(key, LUAU_EXECUTION_SCOPE, operation))
      return {
        answer: errorBody(
          403,
          'PERMISSION_DENIED',
          `The API key does not have the required scope ${LUAU_EXECUTION_SCOPE}:${operation}`,
        ),
      };
    const { allowed, headers } = rateLimit(endpoint, key.ownerId, now());
    if (!allowed) return { answer: refuse('Too many requests. Try again later.', headers, true) };
    return { key, headers };
  }

  /** The place and version a request names, or its 404. */
  function findVersion(universeId: string, placeId: string, version: string | undefined): number | LuauAnswer {
    const versions = places.get(`${universeId}/${placeId}`);
    if (!versions) return errorBody(404, 'NOT_FOUND', 'Place not found');
    if (version === undefined) return versions.at(-1)!;
    const pinned = Number(version);
    if (!versions.includes(pinned)) return errorBody(404, 'NOT_FOUND', 'Version not found');
    return pinned;
  }

  function create(request: LuauRequest, match: RegExpExecArray): LuauAnswer {
    counts.creates += 1;
    const [, universeId, placeId, pinned] = match as unknown as [string, string, string, string | undefined];
    const admitted = admit(request, universeId, 'write', 'create');
    if ('answer' in admitted) return admitted.answer;
    const { key, headers } = admitted;
    const at = now();
    const counted = [...(createTimes.get(key.ownerId) ?? []), at].filter(
      (time) => time > at - Math.max(60_000, limits.windowMs),
    );
    createTimes.set(key.ownerId, counted);
    counts.maxCreatesInAnyMinute = Math.max(
      counts.maxCreatesInAnyMinute,
      counted.filter((time) => time > at - 60_000).length,
    );
    counts.maxCreatesInAnyWindow = Math.max(
      counts.maxCreatesInAnyWindow,
      counted.filter((time) => time > at - limits.windowMs).length,
    );
    const withHeaders = (answer: LuauAnswer): LuauAnswer => ({ ...answer, headers: { ...headers, ...answer.headers } });

    const version = findVersion(universeId, placeId, pinned);
    if (typeof version !== 'number') return withHeaders(version);
    const body = request.body as { script?: unknown; timeout?: unknown } | null;
    if (typeof body?.script !== 'string')
      return withHeaders(errorBody(400, 'INVALID_ARGUMENT', 'script is required and must be a string'));
    if (Buffer.byteLength(body.script, 'utf8') > LUAU_SCRIPT_MAX_BYTES)
      return withHeaders(
        errorBody(400, 'INVALID_ARGUMENT', `The script is larger than the limit of ${LUAU_SCRIPT_MAX_BYTES} bytes`),
      );
    let timeoutSeconds = LUAU_TIMEOUT_MAX_SECONDS;
    if (body.timeout !== undefined) {
      const timeout = typeof body.timeout === 'string' ? TIMEOUT.exec(body.timeout) : null;
      const seconds = timeout ? Number(timeout[1]) : NaN;
      if (!(seconds > 0 && seconds <= LUAU_TIMEOUT_MAX_SECONDS))
        return withHeaders(
          errorBody(
            400,
            'INVALID_ARGUMENT',
            `Invalid timeout: a duration in seconds such as "60s", at most ${LUAU_TIMEOUT_MAX_SECONDS}s`,
          ),
        );
      timeoutSeconds = seconds;
    }
    const unfinished = unfinishedOf(universeId, placeId, at);
    if (unfinished.length >= limits.unfinishedPerPlace) {
      // When one of them is due to end, if the fake knows; otherwise a second.
      const nextEnd = Math.min(...unfinished.map((task) => phaseOf(task, at).endAt));
      const wait = Number.isFinite(nextEnd) ? Math.max(1, Math.ceil((nextEnd - at) / 1000)) : 1;
      return refuse(
        'Too many unfinished tasks for this place',
        { ...headers, ...(limits.retryAfter ? { 'retry-after': String(wait) } : {}) },
        true,
      );
    }

    const marker = (MARKER.exec(body.script)?.[1] as LuauMarker | undefined) ?? null;
    const task: Task = {
      path: `universes/${universeId}/places/${placeId}/versions/${version}/luau-execution-sessions/${randomUUID()}/tasks/${randomUUID()}`,
      universeId,
      placeId,
      version,
      script: body.script,
      timeoutSeconds,
      createdAt: at,
      apiKey: request.apiKey!,
      ownerId: key.ownerId,
      marker,
      timing: { ...timing },
      ran: Promise.resolve(),
    };
    tasks.push(task);
    if (marker !== 'lose') {
      counts.maxUnfinishedPerPlace = Math.max(counts.maxUnfinishedPerPlace, unfinished.length + 1);
      task.ran = run(task);
    }
    const info = infoOf(task, at);
    for (const waiter of [...taskWaiters])
      if (waiter.test(info)) {
        taskWaiters.splice(taskWaiters.indexOf(waiter), 1);
        waiter.resolve(info);
      }
    const answer = withHeaders({ status: 200, body: resourceOf(task, true) });
    if (!holdingCreates) return answer;
    // Roblox took the task; its answer is kept back until the test releases or drops it.
    counts.heldCreates += 1;
    const held = new Promise<boolean>((settle) => heldCreates.push({ task: info, settle }));
    for (const waiter of holdWaiters.splice(0)) waiter(info);
    return { ...answer, held };
  }

  /** Ends the held create answers: sent (release) or lost (drop); creates are answered at once again. */
  function settleHeld(answered: boolean): number {
    holdingCreates = false;
    const settled = heldCreates.splice(0);
    counts.heldCreates -= settled.length;
    for (const held of settled) held.settle(answered);
    return settled.length;
  }

  /**
   * Runs the script in the sandbox as soon as the task exists: what it does is shown only from
   * PROCESSING on (phaseOf), so running it earlier changes nothing a client sees, and no timer
   * has to agree with a test's clock. The task's own timeout, when shorter than the sandbox's
   * time limit, is the run's limit.
   */
  async function run(task: Task): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await outcomeOfScript(task);
    } catch (cause) {
      // The fake's own failure (the pool, the compiler) is Roblox's INTERNAL_ERROR, never a hang.
      if (closed) return;
      const detail = cause instanceof Error ? cause.message : String(cause);
      outcome = { lines: [], error: { code: 'INTERNAL_ERROR', message: `The fake's sandbox failed: ${detail}` } };
    }
    if (closed) return;
    task.outcome = outcome;
    task.ranAt = now();
  }

  async function outcomeOfScript(task: Task): Promise<Outcome> {
    // A syntax error is told about the script as written, not about the wrapper around it.
    const compiled = compileLuau(task.script);
    if (!compiled.ok) return { lines: [], error: { code: 'SCRIPT_ERROR', message: asTaskScript(compiled.error) } };
    const timeoutMs = task.timeoutSeconds * 1000;
    const result = await sandbox().run(task.ownerId, {
      code: SCRIPT_PREFIX + task.script + SCRIPT_SUFFIX,
      environment: 'plain',
      limits: { outputBytes: SANDBOX_OUTPUT_BYTES, deadlineMs: Math.min(timeoutMs, SANDBOX_DEADLINE_MS) },
    });
    return outcomeOf(result, timeoutMs);
  }

  function read(request: LuauRequest, match: RegExpExecArray): LuauAnswer {
    const logs = match[7] !== undefined;
    if (logs) counts.logReads += 1;
    else counts.reads += 1;
    const [, path, universeId, placeId, version] = match as unknown as [string, string, string, string, string];
    const admitted = admit(request, universeId, 'read', logs ? 'logs' : 'read');
    if ('answer' in admitted) return admitted.answer;
    const withHeaders = (answer: LuauAnswer): LuauAnswer => ({ ...answer, headers: admitted.headers });
    const found = findVersion(universeId, placeId, version);
    if (typeof found !== 'number') return withHeaders(found);
    const task = tasks.find((candidate) => candidate.path === path && candidate.marker !== 'lose');
    if (!task) return withHeaders(errorBody(404, 'NOT_FOUND', 'Task not found'));
    const view = request.query.get('view');
    if (!logs) {
      if (view !== null && view !== 'BASIC' && view !== 'FULL')
        return withHeaders(errorBody(400, 'INVALID_ARGUMENT', 'view must be BASIC or FULL'));
      return withHeaders({ status: 200, body: resourceOf(task, view === 'FULL') });
    }
    if (view !== null && view !== 'FLAT' && view !== 'STRUCTURED')
      return withHeaders(errorBody(400, 'INVALID_ARGUMENT', 'view must be FLAT or STRUCTURED'));
    const sizeParameter = request.query.get('maxPageSize');
    const size = sizeParameter === null || sizeParameter === '0' ? DEFAULT_PAGE_SIZE : Number(sizeParameter);
    if (!Number.isInteger(size) || size < 1)
      return withHeaders(errorBody(400, 'INVALID_ARGUMENT', 'maxPageSize must be a positive integer'));
    const token = request.query.get('pageToken');
    const start = token ? offsetOf(token) : 0;
    if (start === undefined) return withHeaders(errorBody(400, 'INVALID_ARGUMENT', 'Invalid page token'));
    const at = now();
    const visible = phaseOf(task, at).messages;
    const page = visible.slice(start, start + Math.min(size, MAX_PAGE_SIZE));
    const end = start + page.length;
    // An empty page has no log entry at all; a client reads `luauExecutionSessionTaskLogs` as a list.
    const entries = page.length
      ? [
          view === 'STRUCTURED'
            ? {
                path: `${task.path}/logs/1`,
                structuredMessages: page.map((line) => ({
                  message: line.message,
                  createTime: iso(line.at),
                  messageType: line.messageType,
                })),
              }
            : { path: `${task.path}/logs/1`, messages: page.map((line) => line.message) },
        ]
      : [];
    return withHeaders({
      status: 200,
      body: {
        luauExecutionSessionTaskLogs: entries,
        ...(end < visible.length ? { nextPageToken: pageToken(end) } : {}),
      },
    });
  }

  return {
    /** Whether `path` is one of the Luau Execution API's. */
    handles: (path: string) => CREATE_PATH.test(path) || TASK_PATH.test(path),

    answer(request: LuauRequest): LuauAnswer {
      const created = CREATE_PATH.exec(request.path);
      if (created) {
        if (request.method !== 'POST') return errorBody(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
        return create(request, created);
      }
      const task = TASK_PATH.exec(request.path);
      if (task && request.method === 'GET') return read(request, task);
      return errorBody(
        task ? 405 : 404,
        task ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND',
        task ? 'Method not allowed' : 'Not found',
      );
    },

    controls: {
      /** Makes a place exist in `universeId`; its head version is the last of `versions` (default [1]). */
      addPlace(universeId: string, placeId: string, place: { versions?: number[] } = {}) {
        const versions = place.versions ?? [1];
        if (!versions.length) throw new Error('A place has at least one version');
        places.set(`${universeId}/${placeId}`, [...versions]);
      },
      setLimits(changes: Partial<FakeLuauLimits>) {
        Object.assign(limits, changes);
      },
      /** Applies to tasks created from now on. */
      setTiming(changes: Partial<FakeLuauTiming>) {
        Object.assign(timing, changes);
      },
      /** The next `count` Luau Execution requests are answered `status` (a 429 as RESOURCE_EXHAUSTED). */
      failNext(count: number, status = 500) {
        for (let index = 0; index < count; index++) failures.push(status);
      },
      /** Ends held tasks (`--@fake:hold`): the one at `path`, or all. Answers how many it released. */
      release(path?: string): number {
        const held = tasks.filter(
          (task) =>
            task.marker === 'hold' && task.releasedAt === undefined && (path === undefined || task.path === path),
        );
        for (const task of held) task.releasedAt = now();
        return held.length;
      },
      /**
       * From now on, a create Roblox accepts is recorded (the task exists, and runs) but its answer
       * is kept back until `releaseCreates` sends it or `dropCreates` closes the connection without
       * it. Resolves with the first task whose answer is held.
       */
      holdCreates(): Promise<LuauTaskInfo> {
        holdingCreates = true;
        return new Promise((resolve) => holdWaiters.push(resolve));
      },
      /** Sends the held create answers; answers how many. */
      releaseCreates: (): number => settleHeld(true),
      /** Closes the held creates' connections without an answer (the answer was lost); answers how many. */
      dropCreates: (): number => settleHeld(false),
      tasks: (): LuauTaskInfo[] => tasks.map((task) => infoOf(task)),
      stats: (): FakeLuauStats => ({ ...counts }),
      /** Resolves with the next task created that `test` accepts (as it was when created: QUEUED). */
      nextTask(test: (task: LuauTaskInfo) => boolean = () => true): Promise<LuauTaskInfo> {
        return new Promise((resolve) => taskWaiters.push({ test, resolve }));
      },
      /**
       * Resolves once the task's script has run in the sandbox (at once for a lost task). The task
       * shows its lines and ends over the following processingMs of the fake's clock.
       */
      scriptRan(path: string): Promise<void> {
        const task = tasks.find((candidate) => candidate.path === path);
        if (!task) return Promise.reject(new Error(`No task at ${path}`));
        return task.ran;
      },
    },

    /** Stops the sandbox pool; runs still going are dropped. */
    async close() {
      closed = true;
      settleHeld(false);
      await pool?.close();
      pool = undefined;
    },
  };
}

export type FakeLuauExecution = ReturnType<typeof fakeLuauExecution>;
export type FakeLuauControls = FakeLuauExecution['controls'];
