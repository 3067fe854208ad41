/**
 * The Lua sandbox: runs one untrusted script in a fresh, locked-down Lua 5.4 state (wasmoon) and
 * answers its output, return values and error. Meant to run inside a worker thread of the pool,
 * which enforces the hard wall-clock deadline by terminating the thread; this module enforces the
 * soft limits. The rules, with their numbers:
 *
 * - State: one WASM module per thread (compiled once, with the instruction counter patched in:
 *   lua-module.ts); every run gets a new lua_State, closed after the run and never reused. Nothing
 *   of a run reaches the next. The thread prepares the next state while idle.
 * - Libraries: standard libraries off, then only base, string, table, math, utf8 and coroutine, plus
 *   os reduced to clock/time/date/difftime. No io, debug, package, require, dofile, loadfile or
 *   string.dump. load/loadstring take text only (mode "t"; a chunk starting with ESC is refused).
 *   collectgarbage answers "count" only. setmetatable refuses __gc, because Lua runs finalizers with
 *   hooks off and a looping one could not be stopped. The library tables are read-only proxies with
 *   locked metatables, rawset refuses them, and getmetatable("") answers a string. The prelude
 *   (lua/sandbox/prelude.lua, compiled once per thread, run before the script) does this and adds
 *   the Luau functions scripts expect.
 * - Environment: 'plain' (the prelude only) or 'dry-run', where the modules of lua/sandbox/dry-run
 *   add an emulated Roblox server after the prelude and run the script on its virtual clock
 *   (sandbox/src/sandbox/dry-run.ts). Every limit above holds for the emulation too: it is Lua in
 *   the same state, under the same instruction counter and memory meter.
 * - No JS object is reachable from Lua: states are bare lua_States (no wasmoon engine, no type
 *   extensions), and the only host functions (emit, limitError) are C functions handed to the
 *   prelude as arguments, taking and returning strings only.
 * - Memory: 64 MiB per state, counted by the memory meter (memory-meter.ts), an allocator in WASM.
 *   A refused allocation ends the run with limit 'memory', even when pcall catches the error.
 * - Instructions: the VM counts every instruction it dispatches (instruction-counter.ts) and calls
 *   the hook every 10,000 instructions (and after every MiB allocated); past 300,000,000 instructions the run ends with limit
 *   'instructions'. On the 2-core build machine, with a warm thread, that is about 1 s of an empty
 *   loop and 1.5-2 s of arithmetic and calls; allocation-heavy code reaches the 3 s deadline first
 *   (sandbox/src/sandbox/README.md has the measurements). From then on the hook raises again at
 *   every instruction (any other coroutine is armed within 1,000 instructions), and
 *   pcall/xpcall/coroutine.resume/load hand the limit on, so a script cannot catch its way past it.
 *   An xpcall handler counts like any code; once a limit is raised it is no longer called, because
 *   Lua calls it again from inside the hook, where no hook runs (the prelude skips it).
 *   On a wasmoon build the counter cannot be patched into, a plain count hook counts instead.
 * - Warm-up: V8 first runs WASM in its baseline tier and swaps in optimised code only between calls,
 *   so a thread's first long script runs about 2.5x slower. warmUpSandbox() (short loops for 400 ms)
 *   is meant to run once when a thread starts; sandbox-thread.ts does.
 * - Soft deadline: the same hook ends the run after 3,000 ms of wall time (limit 'deadline'). A
 *   single C call (a pathological string pattern) never reaches the hook; only the pool's hard
 *   deadline (thread termination) stops it.
 * - Output: print/warn lines are kept up to 64 KiB; the line that would pass it is dropped, a single
 *   marker line is added and the run ends with limit 'output'. Return values are kept up to the same
 *   number of bytes; error text likewise.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileLuau } from '@moonrelay/lua/luau/compile.ts';
import { LUA_MULTRET, LUA_REGISTRYINDEX, LuaEventMasks, LuaReturn, LuaType, type LuaWasm } from 'wasmoon';
import type { InstructionCounter } from './instruction-counter.ts';
import { loadLuaModule } from './lua-module.ts';
import { createMemoryMeter, type MemoryMeter } from './memory-meter.ts';
import { finishDryRun, readDryRunModules, type DryRunModules, type DryRunSummary } from './dry-run.ts';

export interface SandboxLimits {
  /** Bytes the Lua state may allocate in total. */
  memoryBytes: number;
  /** Lua VM instructions a run may execute (checked every HOOK_INTERVAL instructions). */
  instructionLimit: number;
  /** Soft wall-clock limit, checked by the instruction hook. */
  deadlineMs: number;
  /** Bytes of print/warn output kept. */
  outputBytes: number;
}

export type SandboxLimitName = 'memory' | 'instructions' | 'output' | 'deadline';

/** What the script finds in its state besides the locked-down libraries (see the header). */
export type SandboxEnvironment = 'plain' | 'dry-run';

export interface SandboxRunOptions {
  environment?: SandboxEnvironment;
}

export interface SandboxResult {
  success: boolean;
  output: string;
  error: string | null;
  /** The chunk's return values, each as Luau's tostring would show it. */
  returns: string[];
  limit: SandboxLimitName | null;
  durationMs: number;
  /** Dry runs only: what the script did to the emulated game; null when a limit ended the run. */
  dryRun?: DryRunSummary | null;
}

const KIB = 1024;
const MIB = 1024 * KIB;

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 64 * MIB,
  instructionLimit: 300_000_000,
  deadlineMs: 3000,
  outputBytes: 64 * KIB,
});

/**
 * VM instructions between two checks of the limits (calls of the hook): 30-60 us of a busy loop.
 * The count itself is exact whatever the interval. Larger, the deadline comes late in loops of slow
 * C calls that allocate nothing (a plain find over 1 MB: 7 s late at 100,000); smaller, deep
 * recursion gets slow, as arming the hook walks the call frames (docs/decisions/020-sandbox-speed.md).
 */
const HOOK_INTERVAL = 10_000;
/** Once a limit tripped: any other coroutine that runs is armed, and so stopped, this soon. */
const TRIPPED_INTERVAL = 1000;
/** The counter's budget outside runs (the prelude): never spent, so the hook is never armed. */
const IDLE_BUDGET = 0x7fffffff;
const WARM_UP_MS = 400;
const WARM_UP_INSTRUCTIONS = 2_000_000;

/** The only libraries opened, as luaL_requiref names them. */
const LIBRARIES = [
  ['_G', 'luaopen_base'],
  ['string', 'luaopen_string'],
  ['table', 'luaopen_table'],
  ['math', 'luaopen_math'],
  ['utf8', 'luaopen_utf8'],
  ['coroutine', 'luaopen_coroutine'],
  ['os', 'luaopen_os'],
] as const;

const SCRIPT_CHUNK_NAME = '=script';
const PRELUDE_CHUNK_NAME = '=prelude';
/** What stops Lua code still running while the state closes. */
const RUN_OVER = 'The sandbox run is over';
/** What Lua raises when an allocation is refused (the state's preallocated message). */
const OUT_OF_MEMORY = 'not enough memory';
/** Output line prefixes by the prelude's emit kind: print, warn, error of a spawned thread. */
const LINE_PREFIXES = ['', 'warning: ', 'error: '] as const;

/** The parts of wasmoon's Emscripten module used here; the published types leave some out. */
interface WasmModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  /** The raw export: answers a pointer and writes the byte length, so strings keep NULs and bytes. */
  _lua_tolstring(L: number, index: number, lengthOut: number): number;
  addFunction(fn: (...args: number[]) => number | void, signature: string): number;
  removeFunction(pointer: number): void;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, maxBytes: number): void;
}

/** What a thread builds once: the module, its memory meter, and the host functions Lua may call. */
interface Runtime {
  lua: LuaWasm;
  wasm: WasmModule;
  /** The prelude compiled once per thread; each state loads this bytecode instead of parsing the text. */
  prelude: CompiledChunk;
  openers: ReadonlyArray<readonly [string, number]>;
  /** The dry-run emulation's sources, read at the first dry run. */
  dryRunModules?: DryRunModules;
  meter: MemoryMeter;
  /** The meter's allocator in the module's function table (a lua_Alloc). */
  allocatorPointer: number;
  /** The VM's own instruction counter; null when the module could not be patched (the count hook counts). */
  counter: InstructionCounter | null;
  hookPointer: number;
  emitPointer: number;
  limitErrorPointer: number;
  /** Four bytes for lua_tolstring's length out-parameter. */
  lengthSlot: number;
}

/** The state of the run in progress; host functions are shared per thread and act on it. */
interface Run {
  limits: SandboxLimits;
  /** VM instructions executed so far, as of the last hook call. */
  instructions: number;
  deadlineAt: number;
  tripped: SandboxLimitName | null;
  /** Set while the state closes: any Lua code that still runs is stopped at once. */
  closing: boolean;
  output: string[];
  outputBytes: number;
  /** Dry runs: the registry reference of the emulation's driver, which runs the script's chunk. */
  driverRef: number | null;
}

interface CompiledChunk {
  /** A malloc'd buffer holding the bytecode, kept for the module's lifetime. */
  pointer: number;
  size: number;
}

interface LuaText {
  text: string;
  /** Byte length of the whole Lua string, even when only a prefix was decoded. */
  bytes: number;
}

class SandboxInternalError extends Error {}

const decoder = new TextDecoder('utf-8');
let runtimePromise: Promise<Runtime> | undefined;
let activeRun: Run | undefined;

/**
 * Runs `code` in a fresh sandboxed Lua state. Never rejects for anything the script does; a failure
 * of the sandbox itself is answered as an unsuccessful result (and the thread's WASM module is
 * dropped, so the next run starts from a clean one).
 */
export async function runLua(
  code: string,
  limits: Partial<SandboxLimits> = {},
  options: SandboxRunOptions = {},
): Promise<SandboxResult> {
  const startedAt = performance.now();
  const resolved = resolveLimits(limits);
  const environment = options.environment ?? 'plain';
  // Scripts are Luau: parsed and lowered to Lua 5.4 with Luau's meaning (lua/luau/compile.ts).
  const compiled = compileLuau(code);
  if (!compiled.ok) {
    return {
      success: false,
      output: '',
      error: compiled.error,
      returns: [],
      limit: null,
      durationMs: elapsedMs(startedAt),
    };
  }
  code = compiled.lua;
  let state: PreparedState;
  try {
    state = await takeState(environment);
  } catch (cause) {
    runtimePromise = undefined;
    return internalFailure(cause, startedAt);
  }
  const { runtime, engine } = state;
  const run: Run = {
    limits: resolved,
    instructions: 0,
    deadlineAt: startedAt + resolved.deadlineMs,
    tripped: null,
    closing: false,
    output: [],
    outputBytes: 0,
    driverRef: state.driverRef,
  };
  activeRun = run;
  let outcome: Omit<SandboxResult, 'output' | 'durationMs'>;
  try {
    outcome = execute(runtime, engine, state.formatterRef, code, run);
  } catch (cause) {
    // A JS exception crossed the Lua state (a WASM trap, a host bug): neither the state nor the
    // module can be trusted any more, so both are dropped unclosed.
    activeRun = undefined;
    runtimePromise = undefined;
    return internalFailure(cause, startedAt);
  }
  try {
    closeState(runtime, engine, run);
  } catch {
    // The outcome stands; the module that failed to close a state is not used again.
    runtimePromise = undefined;
  } finally {
    activeRun = undefined;
  }
  const result = { ...outcome, output: run.output.join(''), durationMs: elapsedMs(startedAt) };
  return environment === 'dry-run' ? finishDryRun(result) : result;
}

/**
 * Compiles the WASM module and prepares the first run's state: after this a run starts at once.
 * A thread calls it before it says it is ready. A failure is thrown, and the next run tries again.
 */
export async function loadSandbox(): Promise<void> {
  try {
    await getRuntime();
  } catch (cause) {
    runtimePromise = undefined;
    throw cause;
  }
  prepareNextState();
  await prepared;
}

/**
 * Compiles the module and runs short loops until V8 has had time to optimise the interpreter loop
 * (about 0.3 s on the build machine), so real runs do not pay for it. Between two loops it lets the
 * event loop turn, and stops early once `stop()` says real work is waiting.
 */
export async function warmUpSandbox(stop: () => boolean = () => false): Promise<void> {
  const startedAt = performance.now();
  do {
    const result = await runLua('while true do end', { instructionLimit: WARM_UP_INSTRUCTIONS });
    if (result.limit !== 'instructions') {
      throw new Error(`The sandbox warm-up failed: ${result.error ?? 'no limit reached'}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
  } while (!stop() && performance.now() - startedAt < WARM_UP_MS);
}

function resolveLimits(limits: Partial<SandboxLimits>): SandboxLimits {
  const resolved = { ...DEFAULT_SANDBOX_LIMITS };
  for (const key of Object.keys(DEFAULT_SANDBOX_LIMITS) as Array<keyof SandboxLimits>) {
    const value = limits[key];
    if (value !== undefined) {
      if (!Number.isFinite(value) || value <= 0) {
        throw new RangeError(`Sandbox limit ${key} must be a positive number, got ${value}`);
      }
      resolved[key] = value;
    }
  }
  return resolved;
}

function getRuntime(): Promise<Runtime> {
  runtimePromise ??= createRuntime();
  return runtimePromise;
}

async function createRuntime(): Promise<Runtime> {
  const { lua, exports, counter } = await loadLuaModule();
  const wasm = lua.module as unknown as WasmModule;
  const prelude = compilePrelude(lua, wasm);
  const openers = LIBRARIES.map(([name, open]) => [name, wasm.addFunction((L: number) => lua[open](L), 'ii')] as const);
  const meter = createMemoryMeter(exports, counter ?? undefined);
  // A WASM function goes into the table as it is (addFunction wraps only JS functions).
  const allocatorPointer = wasm.addFunction(meter.allocate as unknown as () => number, 'iiiii');
  const partial = { lua, wasm, prelude, openers, meter, allocatorPointer, counter, lengthSlot: wasm._malloc(4) };
  const runtime: Runtime = {
    ...partial,
    hookPointer: wasm.addFunction((L: number) => onHook(runtime, L), 'vii'),
    emitPointer: wasm.addFunction((L: number) => onEmit(runtime, L), 'ii'),
    limitErrorPointer: wasm.addFunction((L: number) => onLimitError(runtime, L), 'ii'),
  };
  if (counter) {
    counter.hook.value = runtime.hookPointer;
    resetCounter(counter, IDLE_BUDGET);
  }
  return runtime;
}

/** Sets the state up, runs the script and reads its outcome. Synchronous: runs never interleave. */
function execute(
  runtime: Runtime,
  engine: LuaState,
  formatterRef: number,
  code: string,
  run: Run,
): Omit<SandboxResult, 'output' | 'durationMs'> {
  const { lua } = runtime;
  const L = engine.address;
  // The cap covers the libraries and the prelude too (about 100 KiB); set only now, because
  // the set-up above runs unprotected and must not fail.
  runtime.meter.setCap(engine.meterSlot, run.limits.memoryBytes);
  startCounting(runtime, L);

  let status = loadChunk(runtime, L, code, SCRIPT_CHUNK_NAME);
  if (status === LuaReturn.Ok) {
    status = callScript(runtime, L, run.driverRef);
  }
  let returns: string[] = [];
  let error: string | null = null;
  if (status === LuaReturn.Ok) {
    returns = collectReturns(runtime, L, run, formatterRef);
  } else {
    error = describeError(runtime, L, run, status, formatterRef);
  }
  lua.lua_settop(L, 0);
  if (run.tripped !== null) {
    return { success: false, error: limitMessage(run.tripped, run.limits), returns, limit: run.tripped };
  }
  return { success: error === null, error, returns, limit: null };
}

/**
 * A state with the libraries opened and the prelude run, not yet used by any script. The thread
 * prepares the next run's state while it is idle (prepareNextState), which takes about a
 * millisecond off every run; each state still serves exactly one run.
 */
interface PreparedState {
  runtime: Runtime;
  engine: LuaState;
  formatterRef: number;
  environment: SandboxEnvironment;
  driverRef: number | null;
}

/** A lua_State of the sandbox: its address, and its slot in the memory meter (the allocator's user data). */
interface LuaState {
  address: number;
  meterSlot: number;
}

let prepared: Promise<PreparedState | undefined> | undefined;

async function prepareState(environment: SandboxEnvironment = 'plain'): Promise<PreparedState> {
  const runtime = await getRuntime();
  const engine = newState(runtime);
  const { lua } = runtime;
  const L = engine.address;
  for (const [name, opener] of runtime.openers) {
    lua.luaL_requiref(L, name, opener, 1);
  }
  lua.lua_settop(L, 0);
  const formatterRef = runPrelude(runtime, L);
  const driverRef = environment === 'dry-run' ? runDryRunModules(runtime, L, formatterRef) : null;
  return { runtime, engine, formatterRef, environment, driverRef };
}

/** A bare state on the memory meter's allocator, with no library open yet. */
function newState(runtime: Runtime): LuaState {
  const meterSlot = runtime.meter.openSlot();
  const address = runtime.lua.lua_newstate(runtime.allocatorPointer, meterSlot);
  if (address === 0) {
    runtime.meter.closeSlot(meterSlot);
    throw new SandboxInternalError('Could not create a Lua state');
  }
  return { address, meterSlot };
}

/** Starts preparing the next run's state, if none is being prepared. */
export function prepareNextState(): void {
  prepared ??= prepareState().catch(() => undefined);
}

async function takeState(environment: SandboxEnvironment): Promise<PreparedState> {
  const ready = prepared ? await prepared : undefined;
  prepared = undefined;
  // A state prepared on a module that has since been dropped is not used.
  if (ready && runtimePromise && ready.runtime === (await runtimePromise)) {
    if (ready.environment === environment) return ready;
    // Prepared for the other environment and never used: nothing of it runs, it only goes.
    ready.runtime.lua.lua_close(ready.engine.address);
    ready.runtime.meter.closeSlot(ready.engine.meterSlot);
  }
  return prepareState(environment);
}

/**
 * Parses the prelude once and keeps its bytecode: parsing 560 lines took 0.6 ms of the 0.75 ms a
 * state took to prepare. The bytecode comes from this module's own compiler out of Moonrelay's
 * own text, so loading it is as safe as loading the text; scripts still load text only.
 */
function compilePrelude(lua: LuaWasm, wasm: WasmModule): CompiledChunk {
  const source = readFileSync(createRequire(import.meta.url).resolve('@moonrelay/lua/sandbox/prelude.lua'), 'utf8');
  const L = lua.luaL_newstate();
  const parts: Uint8Array[] = [];
  const writer = wasm.addFunction((_L: number, pointer: number, size: number) => {
    parts.push(wasm.HEAPU8.slice(pointer, pointer + size));
    return 0;
  }, 'iiiii');
  try {
    const size = wasm.lengthBytesUTF8(source);
    const text = wasm._malloc(size + 1);
    wasm.stringToUTF8(source, text, size + 1);
    const status = lua.luaL_loadbufferx(L, text, size, PRELUDE_CHUNK_NAME, 't');
    wasm._free(text);
    if (status !== LuaReturn.Ok || lua.lua_dump(L, writer, null, 0) !== 0) {
      throw new SandboxInternalError('The sandbox prelude did not compile');
    }
  } finally {
    wasm.removeFunction(writer);
    lua.lua_close(L);
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const pointer = wasm._malloc(total);
  let offset = pointer;
  for (const part of parts) {
    wasm.HEAPU8.set(part, offset);
    offset += part.length;
  }
  return { pointer, size: total };
}

function runPrelude(runtime: Runtime, L: number): number {
  const { lua, prelude } = runtime;
  let status = lua.luaL_loadbufferx(L, prelude.pointer, prelude.size, PRELUDE_CHUNK_NAME, 'b');
  if (status === LuaReturn.Ok) {
    lua.lua_pushcclosure(L, runtime.emitPointer, 0);
    lua.lua_pushcclosure(L, runtime.limitErrorPointer, 0);
    status = lua.lua_pcallk(L, 2, 1, 0, 0, null);
  }
  if (status !== LuaReturn.Ok || lua.lua_type(L, -1) !== LuaType.Function) {
    throw new SandboxInternalError(`The sandbox prelude failed: ${readString(runtime, L, -1, 4 * KIB).text}`);
  }
  return lua.luaL_ref(L, LUA_REGISTRYINDEX);
}

/**
 * Dry runs: runs lua/sandbox/dry-run/main.lua with the host functions, the Luau tostring and a table
 * of the other modules' chunks; it answers the driver, kept in the registry.
 */
function runDryRunModules(runtime: Runtime, L: number, formatterRef: number): number {
  const { lua } = runtime;
  runtime.dryRunModules ??= readDryRunModules();
  const modules = runtime.dryRunModules;
  let status = loadChunk(runtime, L, modules.main, '=dry-run/main');
  if (status === LuaReturn.Ok) {
    lua.lua_pushcclosure(L, runtime.emitPointer, 0);
    lua.lua_pushcclosure(L, runtime.limitErrorPointer, 0);
    lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(formatterRef));
    lua.lua_createtable(L, 0, modules.others.length);
    for (const [name, source] of modules.others) {
      status = loadChunk(runtime, L, source, `=dry-run/${name}`);
      if (status !== LuaReturn.Ok) break;
      lua.lua_setfield(L, -2, name);
    }
  }
  if (status === LuaReturn.Ok) {
    status = lua.lua_pcallk(L, 4, 1, 0, 0, null);
  }
  if (status !== LuaReturn.Ok || lua.lua_type(L, -1) !== LuaType.Function) {
    throw new SandboxInternalError(`The dry-run emulation failed: ${readString(runtime, L, -1, 4 * KIB).text}`);
  }
  const driverRef = lua.luaL_ref(L, LUA_REGISTRYINDEX);
  lua.lua_settop(L, 0);
  return driverRef;
}

/** Calls the loaded chunk on top of the stack: itself, or handed to the dry run's driver. */
function callScript(runtime: Runtime, L: number, driverRef: number | null): LuaReturn {
  const { lua } = runtime;
  if (driverRef === null) {
    return lua.lua_pcallk(L, 0, LUA_MULTRET, 0, 0, null);
  }
  lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(driverRef));
  lua.lua_rotate(L, -2, 1);
  return lua.lua_pcallk(L, 1, LUA_MULTRET, 0, 0, null);
}

/** Loads text from a malloc'd buffer (wasmoon's string arguments live on the small C stack). */
function loadChunk(runtime: Runtime, L: number, source: string, chunkName: string): LuaReturn {
  const { wasm } = runtime;
  const size = wasm.lengthBytesUTF8(source);
  const buffer = wasm._malloc(size + 1);
  if (buffer === 0) {
    throw new SandboxInternalError('Could not allocate the script buffer');
  }
  try {
    wasm.stringToUTF8(source, buffer, size + 1);
    return runtime.lua.luaL_loadbufferx(L, buffer, size, chunkName, 't');
  } finally {
    wasm._free(buffer);
  }
}

function collectReturns(runtime: Runtime, L: number, run: Run, formatterRef: number): string[] {
  const { lua } = runtime;
  const count = lua.lua_gettop(L);
  const returns: string[] = [];
  let budget = run.limits.outputBytes;
  for (let index = 1; index <= count && run.tripped === null; index++) {
    const formatted = formatValue(runtime, L, index, formatterRef, budget);
    const text = formatted?.text ?? `(${lua.lua_typename(L, lua.lua_type(L, index))} value: tostring failed)`;
    if (formatted !== null && formatted.bytes > budget) {
      returns.push(`${text}... (returns truncated at ${formatBytes(run.limits.outputBytes)})`);
      break;
    }
    returns.push(text);
    budget -= formatted?.bytes ?? 0;
  }
  return returns;
}

function describeError(runtime: Runtime, L: number, run: Run, status: LuaReturn, formatterRef: number): string {
  const { lua } = runtime;
  if (run.tripped === null && (status === LuaReturn.ErrorMem || isOutOfMemory(runtime, L, -1))) {
    run.tripped = 'memory';
  }
  if (run.tripped !== null) {
    return limitMessage(run.tripped, run.limits);
  }
  const maxBytes = run.limits.outputBytes;
  const type = lua.lua_type(L, -1);
  let message: string;
  if (type === LuaType.String) {
    message = readString(runtime, L, -1, maxBytes).text;
  } else if (type === LuaType.Number || hasMetafield(runtime, L, -1, '__tostring')) {
    const formatted = formatValue(runtime, L, lua.lua_gettop(L), formatterRef, maxBytes);
    message = formatted?.text ?? `(error object is a ${lua.lua_typename(L, type)} value)`;
  } else {
    message = `(error object is a ${lua.lua_typename(L, type)} value)`;
  }
  return message.replaceAll('[string "script"]', 'script');
}

function hasMetafield(runtime: Runtime, L: number, index: number, field: string): boolean {
  const { lua } = runtime;
  if (lua.luaL_getmetafield(L, index, field) === LuaType.Nil) {
    return false;
  }
  lua.lua_settop(L, -2);
  return true;
}

/** Luau's tostring of the value at `index`, in protected mode and under the hook; null on failure. */
function formatValue(
  runtime: Runtime,
  L: number,
  index: number,
  formatterRef: number,
  maxBytes: number,
): LuaText | null {
  const { lua } = runtime;
  const absolute = lua.lua_absindex(L, index);
  if (!lua.lua_checkstack(L, 2)) {
    return null;
  }
  lua.lua_rawgeti(L, LUA_REGISTRYINDEX, BigInt(formatterRef));
  lua.lua_pushvalue(L, absolute);
  const status = lua.lua_pcallk(L, 1, 1, 0, 0, null);
  const text =
    status === LuaReturn.Ok && lua.lua_type(L, -1) === LuaType.String ? readString(runtime, L, -1, maxBytes) : null;
  lua.lua_settop(L, -2);
  return text;
}

/** Reads a Lua string with its bytes intact (NULs, invalid UTF-8 shown as U+FFFD), up to maxBytes. */
function readString(runtime: Runtime, L: number, index: number, maxBytes: number): LuaText {
  const { lua, wasm } = runtime;
  if (lua.lua_type(L, index) !== LuaType.String) {
    return { text: '', bytes: 0 };
  }
  const pointer = wasm._lua_tolstring(L, index, runtime.lengthSlot);
  const bytes = wasm.HEAPU32[runtime.lengthSlot >> 2] ?? 0;
  const text = decoder.decode(wasm.HEAPU8.subarray(pointer, pointer + Math.min(bytes, maxBytes)));
  return { text, bytes };
}

function isOutOfMemory(runtime: Runtime, L: number, index: number): boolean {
  const value = readString(runtime, L, index, OUT_OF_MEMORY.length + 1);
  return value.bytes === OUT_OF_MEMORY.length && value.text === OUT_OF_MEMORY;
}

/**
 * Starts counting the run's instructions: the VM's counter gets one interval of budget (it arms
 * the hook of the running thread once that is spent), or, on an unpatched module, the count hook
 * runs every interval.
 */
function startCounting(runtime: Runtime, L: number): void {
  if (runtime.counter) {
    resetCounter(runtime.counter, HOOK_INTERVAL);
  } else {
    runtime.lua.lua_sethook(L, runtime.hookPointer, LuaEventMasks.Count, HOOK_INTERVAL);
  }
}

function resetCounter(counter: InstructionCounter, interval: number): void {
  counter.interval.value = interval;
  counter.budget.value = interval;
  counter.arms.value = 0;
  counter.credit.value = 0;
}

/** Instructions executed since the last hook call; the VM's counter, if any, starts a new interval. */
function takeInstructions(runtime: Runtime, L: number, nextInterval: number): number {
  const { counter } = runtime;
  if (counter === null) {
    return HOOK_INTERVAL;
  }
  // Each arming gave the budget one more interval; it is below zero by the instructions run since,
  // and the meter may have spent some of it without instructions.
  const executed =
    (counter.interval.value as number) * (1 + (counter.arms.value as number)) -
    (counter.budget.value as number) -
    (counter.credit.value as number);
  resetCounter(counter, nextInterval);
  runtime.lua.lua_sethook(L, 0, 0, 0);
  return executed;
}

/** The hook: counts instructions, watches the soft deadline, and keeps raising once tripped. */
function onHook(runtime: Runtime, L: number): void {
  const run = activeRun;
  if (run === undefined) {
    takeInstructions(runtime, L, IDLE_BUDGET);
    return;
  }
  if (run.tripped === null && !run.closing) {
    run.instructions += takeInstructions(runtime, L, HOOK_INTERVAL);
    if (run.instructions > run.limits.instructionLimit) {
      run.tripped = 'instructions';
    } else if (performance.now() > run.deadlineAt) {
      run.tripped = 'deadline';
    } else {
      return;
    }
  }
  raiseLimit(runtime, L, run);
}

/**
 * Raises the run's limit error in Lua; from now on this coroutine is stopped at every instruction,
 * and any other one at its first instruction (the VM's counter, spent, arms every thread it runs).
 */
function raiseLimit(runtime: Runtime, L: number, run: Run): void {
  const { lua } = runtime;
  if (runtime.counter) {
    resetCounter(runtime.counter, TRIPPED_INTERVAL);
  }
  lua.lua_sethook(L, runtime.hookPointer, LuaEventMasks.Count, 1);
  lua.lua_pushstring(L, run.tripped === null ? RUN_OVER : limitMessage(run.tripped, run.limits));
  lua.lua_error(L);
}

/** emit(kind, text): appends one output line, or ends the run once the output is full. */
function onEmit(runtime: Runtime, L: number): number {
  const run = activeRun;
  if (run === undefined) {
    return 0;
  }
  if (run.tripped !== null || run.closing) {
    raiseLimit(runtime, L, run);
    return 0;
  }
  const { lua } = runtime;
  const prefix = LINE_PREFIXES[lua.lua_tonumberx(L, 1, null)] ?? '';
  const text = readString(runtime, L, 2, run.limits.outputBytes + 1);
  const lineBytes = prefix.length + text.bytes + 1;
  if (run.outputBytes + lineBytes > run.limits.outputBytes) {
    run.output.push(`... output truncated (${formatBytes(run.limits.outputBytes)} limit)\n`);
    run.tripped = 'output';
    raiseLimit(runtime, L, run);
    return 0;
  }
  run.output.push(`${prefix}${text.text}\n`);
  run.outputBytes += lineBytes;
  return 0;
}

/** limitError(err): the message of the limit that ended the run (noticing refused allocations), or nothing. */
function onLimitError(runtime: Runtime, L: number): number {
  const run = activeRun;
  if (run === undefined) {
    return 0;
  }
  if (run.tripped === null && isOutOfMemory(runtime, L, 1)) {
    run.tripped = 'memory';
  }
  if (run.tripped === null && !run.closing) {
    return 0;
  }
  // While the state closes, any Lua still running is stopped as a limit would stop it.
  runtime.lua.lua_pushstring(L, run.tripped === null ? RUN_OVER : limitMessage(run.tripped, run.limits));
  return 1;
}

function closeState(runtime: Runtime, engine: LuaState, run: Run): void {
  // lua_close may still run Lua (a pending __close); the hook stops it at its first instruction.
  run.closing = true;
  runtime.lua.lua_sethook(engine.address, runtime.hookPointer, LuaEventMasks.Count, 1);
  runtime.lua.lua_close(engine.address);
  runtime.meter.closeSlot(engine.meterSlot);
  if (runtime.counter) {
    resetCounter(runtime.counter, IDLE_BUDGET);
  }
}

function limitMessage(limit: SandboxLimitName, limits: SandboxLimits): string {
  switch (limit) {
    case 'memory':
      return `Memory limit exceeded (${formatBytes(limits.memoryBytes)})`;
    case 'instructions':
      return 'Instruction limit exceeded';
    case 'output':
      return `Output limit exceeded (${formatBytes(limits.outputBytes)})`;
    case 'deadline':
      return `Time limit exceeded (${limits.deadlineMs} ms)`;
  }
}

function formatBytes(bytes: number): string {
  if (bytes % MIB === 0) {
    return `${bytes / MIB} MiB`;
  }
  if (bytes % KIB === 0) {
    return `${bytes / KIB} KiB`;
  }
  return `${bytes} bytes`;
}

function elapsedMs(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

function internalFailure(cause: unknown, startedAt: number): SandboxResult {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return {
    success: false,
    output: '',
    error: `The sandbox failed: ${detail}`,
    returns: [],
    limit: null,
    durationMs: elapsedMs(startedAt),
  };
}
