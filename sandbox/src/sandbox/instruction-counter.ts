/**
 * The sandbox's instruction counter, compiled into the Lua VM. Lua 5.4 counts instructions only
 * through a count hook, and any hook makes its interpreter take a slow path at every instruction
 * (the "trap"): fib(27) runs about 2x slower with a count hook, whatever its interval, natively as
 * in WASM. So the module is patched before it is instantiated: at the one place where luaV_execute
 * dispatches each instruction (its opcode br_table) it now decrements a WASM global, the budget.
 * When the budget is spent it arms the Lua hook of the running thread, as lua.c does from its
 * signal handler (lua_sethook(L, hook, LUA_MASKCOUNT, 1)), counts the arming and gives itself
 * another interval: if that thread never takes the hook (it yielded or ended first), the thread
 * running an interval later is armed in turn. The VM takes an armed hook at its next jump, call or
 * return; the hook runs in JS, adds up the instructions executed
 * (interval * (1 + arms) - budget - credit), checks the limits, then disarms itself and resets the
 * counter. (The credit is budget the memory meter spent to force a check: memory-meter.ts.)
 * Every instruction goes through the dispatch, so this is the VM's own count of executed
 * instructions, with no slow path between two checks.
 *
 * Arming walks the thread's call frames (lua_sethook marks each one), so it happens once per
 * interval, never per instruction: a script 100,000 calls deep pays that walk once per interval
 * (which is why the interval is not smaller: run-lua.ts).
 *
 * Patch (inserted before the dispatch br_table; local 0 of luaV_execute is its lua_State *L):
 *
 *   global.get $budget  i32.const 1  i32.sub  global.set $budget
 *   global.get $budget  i32.const 0  i32.le_s
 *   if
 *     local.get 0  global.get $hook  i32.const 8  i32.const 1  call $lua_sethook
 *     global.get $budget  global.get $interval  i32.add  global.set $budget
 *     global.get $arms  i32.const 1  i32.add  global.set $arms
 *   end
 *
 * The patch is found, not assumed: luaV_execute is the only function of type (i32, i32) -> ()
 * holding a br_table with at least as many targets as Lua has opcodes, and the patch is refused
 * (the sandbox then counts with the plain count hook) unless that function never writes its
 * local 0 and lua_sethook is exported with the expected type.
 */
import { name, signed32, unsigned } from './wasm-encoding.ts';

/** Lua 5.4's opcode count (NUM_OPCODES). */
const LUA_OPCODES = 83;
const LUA_MASKCOUNT = 8;
const I32 = 0x7f;

/** The counter's globals, as the patched module exports them. */
export interface InstructionCounter {
  /** Instructions left before the hook is armed; below zero by those run since. */
  budget: WebAssembly.Global;
  /** The budget given again each time the hook is armed. */
  interval: WebAssembly.Global;
  /** How often the hook was armed since the counter was last reset. */
  arms: WebAssembly.Global;
  /** The table index of the hook to arm (a lua_Hook). */
  hook: WebAssembly.Global;
  /** Budget spent by the host without instructions (the memory meter forcing a check). */
  credit: WebAssembly.Global;
}

const GLOBAL_NAMES = ['budget', 'interval', 'arms', 'hook', 'credit'] as const;
const exportName = (name: (typeof GLOBAL_NAMES)[number]) => `moonrelay_instruction_${name}`;

/** The counter of a patched module's instance; null for an unpatched one. */
export function counterGlobals(exports: WebAssembly.Exports): InstructionCounter | null {
  const globals = GLOBAL_NAMES.map((name) => exports[exportName(name)]);
  if (!globals.every((global) => global instanceof WebAssembly.Global)) return null;
  const [budget, interval, arms, hook, credit] = globals as WebAssembly.Global[];
  return { budget: budget!, interval: interval!, arms: arms!, hook: hook!, credit: credit! };
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  byte(): number {
    const value = this.bytes[this.at++];
    if (value === undefined) throw new Error('Unexpected end of the WASM module');
    return value;
  }

  unsigned(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  }

  /** Skips a signed LEB128 of any width. */
  skipSigned(): void {
    while ((this.byte() & 0x80) !== 0);
  }

  skip(count: number): void {
    this.at += count;
  }

  name(): string {
    const length = this.unsigned();
    const text = Buffer.from(this.bytes.subarray(this.at, this.at + length)).toString('utf8');
    this.at += length;
    return text;
  }
}

interface Section {
  id: number;
  /** Where the section's content starts and ends in the module. */
  start: number;
  end: number;
}

function readSections(bytes: Uint8Array): Section[] {
  const reader = new Reader(bytes, 8);
  const sections: Section[] = [];
  while (reader.at < bytes.length) {
    const id = reader.byte();
    const size = reader.unsigned();
    sections.push({ id, start: reader.at, end: reader.at + size });
    reader.skip(size);
  }
  return sections;
}

interface FunctionType {
  params: number[];
  results: number[];
}

function readTypes(bytes: Uint8Array, section: Section): FunctionType[] {
  const reader = new Reader(bytes, section.start);
  const types: FunctionType[] = [];
  for (let count = reader.unsigned(); count > 0; count--) {
    if (reader.byte() !== 0x60) throw new Error('Unexpected type form');
    const params = Array.from({ length: reader.unsigned() }, () => reader.byte());
    const results = Array.from({ length: reader.unsigned() }, () => reader.byte());
    types.push({ params, results });
  }
  return types;
}

/** What one function body holds that the patch needs to know. */
interface BodyScan {
  /** Offset of the largest br_table's opcode, and its target count (with the default). */
  dispatchAt: number;
  dispatchTargets: number;
  writesLocalZero: boolean;
}

/** Walks a function body instruction by instruction (MVP plus the extensions Emscripten emits). */
function scanBody(bytes: Uint8Array, start: number, end: number): BodyScan {
  const reader = new Reader(bytes, start);
  for (let groups = reader.unsigned(); groups > 0; groups--) {
    reader.unsigned();
    reader.byte();
  }
  const scan: BodyScan = { dispatchAt: -1, dispatchTargets: 0, writesLocalZero: false };
  while (reader.at < end) {
    const at = reader.at;
    const opcode = reader.byte();
    if (opcode === 0x02 || opcode === 0x03 || opcode === 0x04) {
      reader.skipSigned(); // block type
    } else if (opcode === 0x0c || opcode === 0x0d) {
      reader.unsigned();
    } else if (opcode === 0x0e) {
      // The labels, then the default: every entry is a target.
      const targets = reader.unsigned() + 1;
      for (let i = 0; i < targets; i++) reader.unsigned();
      if (targets > scan.dispatchTargets) {
        scan.dispatchTargets = targets;
        scan.dispatchAt = at;
      }
    } else if (opcode === 0x10 || opcode === 0x12) {
      reader.unsigned();
    } else if (opcode === 0x11 || opcode === 0x13) {
      reader.unsigned();
      reader.unsigned();
    } else if (opcode === 0x1c) {
      reader.skip(reader.unsigned());
    } else if (opcode >= 0x20 && opcode <= 0x24) {
      const index = reader.unsigned();
      if ((opcode === 0x21 || opcode === 0x22) && index === 0) scan.writesLocalZero = true;
    } else if (opcode === 0x25 || opcode === 0x26) {
      reader.unsigned();
    } else if (opcode >= 0x28 && opcode <= 0x3e) {
      reader.unsigned();
      reader.unsigned();
    } else if (opcode === 0x3f || opcode === 0x40) {
      reader.byte();
    } else if (opcode === 0x41 || opcode === 0x42) {
      reader.skipSigned();
    } else if (opcode === 0x43) {
      reader.skip(4);
    } else if (opcode === 0x44) {
      reader.skip(8);
    } else if (opcode === 0xd0) {
      reader.byte();
    } else if (opcode === 0xd2) {
      reader.unsigned();
    } else if (opcode === 0xfc) {
      skipPrefixed(reader, reader.unsigned());
    } else if (opcode > 0xc4 && opcode !== 0xd1) {
      // Anything else with immediates (SIMD, atomics, ...) is not expected in this module.
      throw new Error(`Unexpected opcode 0x${opcode.toString(16)} in a function body`);
    }
  }
  return scan;
}

function skipPrefixed(reader: Reader, sub: number): void {
  if (sub <= 7) return; // saturating truncations
  if (sub === 8) {
    reader.unsigned();
    reader.byte();
  } else if (sub === 9 || sub === 13 || sub === 15 || sub === 16 || sub === 17) {
    reader.unsigned();
  } else if (sub === 10) {
    reader.byte();
    reader.byte();
  } else if (sub === 11) {
    reader.byte();
  } else if (sub === 12 || sub === 14) {
    reader.unsigned();
    reader.unsigned();
  } else {
    throw new Error(`Unexpected 0xfc ${sub} in a function body`);
  }
}

/**
 * Patches wasmoon's Lua module; answers null when the module is not the one this patch was made
 * for (then the sandbox counts with the plain count hook).
 */
export function patchInstructionCounter(bytes: Uint8Array): Uint8Array<ArrayBuffer> | null {
  try {
    return patch(bytes);
  } catch {
    return null;
  }
}

function patch(bytes: Uint8Array): Uint8Array<ArrayBuffer> | null {
  const sections = readSections(bytes);
  const find = (id: number) => sections.find((section) => section.id === id);
  const typeSection = find(1);
  const importSection = find(2);
  const functionSection = find(3);
  const globalSection = find(6);
  const exportSection = find(7);
  const codeSection = find(10);
  if (!typeSection || !functionSection || !globalSection || !exportSection || !codeSection) return null;
  const types = readTypes(bytes, typeSection);

  let importedFunctions = 0;
  let importedGlobals = 0;
  if (importSection) {
    const reader = new Reader(bytes, importSection.start);
    for (let count = reader.unsigned(); count > 0; count--) {
      reader.name();
      reader.name();
      const kind = reader.byte();
      if (kind === 0) {
        importedFunctions++;
        reader.unsigned();
      } else if (kind === 1) {
        reader.byte();
        const flags = reader.byte();
        reader.unsigned();
        if (flags & 1) reader.unsigned();
      } else if (kind === 2) {
        const flags = reader.byte();
        reader.unsigned();
        if (flags & 1) reader.unsigned();
      } else if (kind === 3) {
        importedGlobals++;
        reader.byte();
        reader.byte();
      } else {
        return null;
      }
    }
  }

  const functionTypes: number[] = [];
  {
    const reader = new Reader(bytes, functionSection.start);
    for (let count = reader.unsigned(); count > 0; count--) functionTypes.push(reader.unsigned());
  }
  const typeOf = (functionIndex: number) => types[functionTypes[functionIndex - importedFunctions] ?? -1];

  let sethook = -1;
  {
    const reader = new Reader(bytes, exportSection.start);
    for (let count = reader.unsigned(); count > 0; count--) {
      const exportName = reader.name();
      const kind = reader.byte();
      const index = reader.unsigned();
      if (kind === 0 && exportName === 'lua_sethook') sethook = index;
    }
  }
  const sethookType = sethook >= importedFunctions ? typeOf(sethook) : undefined;
  if (!sethookType || sethookType.params.join() !== '127,127,127,127' || sethookType.results.length !== 0) return null;

  // Find luaV_execute: the (i32, i32) -> () function with an opcode-sized br_table.
  const bodies: { start: number; end: number; sizeAt: number }[] = [];
  const candidates: { index: number; scan: BodyScan }[] = [];
  {
    const reader = new Reader(bytes, codeSection.start);
    const count = reader.unsigned();
    for (let i = 0; i < count; i++) {
      const sizeAt = reader.at;
      const size = reader.unsigned();
      const start = reader.at;
      bodies.push({ start, end: start + size, sizeAt });
      reader.skip(size);
      const type = types[functionTypes[i] ?? -1];
      if (type?.params.join() === '127,127' && type.results.length === 0) {
        const scan = scanBody(bytes, start, start + size);
        if (scan.dispatchTargets >= LUA_OPCODES) candidates.push({ index: i, scan });
      }
    }
  }
  const execute = candidates[0];
  if (candidates.length !== 1 || !execute || execute.scan.writesLocalZero) return null;
  const body = bodies[execute.index];
  if (!body) return null;

  // Five mutable i32 globals, appended (so no existing index moves) and exported. The budget
  // starts too large to be spent: nothing is armed until the host sets the counter up.
  const first = importedGlobals + new Reader(bytes, globalSection.start).unsigned();
  const [budget, interval, arms, hook] = GLOBAL_NAMES.map((_, index) => unsigned(first + index)) as [
    number[],
    number[],
    number[],
    number[],
  ];
  const initial = [0x7fffffff, 0x7fffffff, 0, 0, 0];
  const newGlobals = initial.map((value) => [I32, 0x01, 0x41, ...signed32(value), 0x0b]);
  const newExports = GLOBAL_NAMES.map((global, index) => [
    ...name(exportName(global)),
    0x03,
    ...unsigned(first + index),
  ]);
  const get = (global: number[]) => [0x23, ...global];
  const set = (global: number[]) => [0x24, ...global];
  const injected = [
    ...[...get(budget), 0x41, 1, 0x6b, ...set(budget)],
    ...[...get(budget), 0x41, 0, 0x4c, 0x04, 0x40],
    ...[0x20, 0, ...get(hook), 0x41, LUA_MASKCOUNT, 0x41, 1, 0x10, ...unsigned(sethook)],
    ...[...get(budget), ...get(interval), 0x6a, ...set(budget)],
    ...[...get(arms), 0x41, 1, 0x6a, ...set(arms)],
    0x0b,
  ];
  const bodyLength = body.end - body.start + injected.length;

  const parts: ArrayLike<number>[] = [bytes.subarray(0, 8)];
  for (const section of sections) {
    const original = bytes.subarray(section.start, section.end);
    let content: ArrayLike<number>[] = [original];
    if (section === globalSection) content = appendToVector(original, newGlobals);
    else if (section === exportSection) content = appendToVector(original, newExports);
    else if (section === codeSection) {
      content = [
        bytes.subarray(section.start, body.sizeAt),
        unsigned(bodyLength),
        bytes.subarray(body.start, execute.scan.dispatchAt),
        injected,
        bytes.subarray(execute.scan.dispatchAt, section.end),
      ];
    }
    const length = content.reduce((sum, part) => sum + part.length, 0);
    parts.push([section.id, ...unsigned(length)], ...content);
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function appendToVector(content: Uint8Array, items: number[][]): ArrayLike<number>[] {
  const reader = new Reader(content);
  const count = reader.unsigned();
  return [unsigned(count + items.length), content.subarray(reader.at), items.flat()];
}
