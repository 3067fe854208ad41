/**
 * The sandbox's memory cap, counted inside WASM. Lua asks its allocator for every block it takes,
 * grows, shrinks or frees; wasmoon's traceAllocations answers that from a JS callback, so each
 * allocation crossed from WASM into JS and back (twice: JS then called the module's realloc). That
 * made allocation-heavy scripts 2-3x slower. The meter is a tiny WASM module of its own, written out
 * below as bytes, whose allocator calls the Lua module's own realloc and free directly: a call
 * between two WASM instances, which never enters JS.
 *
 * The meter also keeps the deadline prompt where instructions are few but slow: a loop of C calls
 * that each allocate a megabyte runs few VM instructions between two checks of the limits. Every
 * MiB allocated, the meter spends the instruction counter's budget (instruction-counter.ts), so
 * the hook runs at the next instruction; what was left of the budget goes to the counter's credit,
 * so the instruction count stays exact.
 *
 * Each Lua state gets a slot in the meter's memory, passed to Lua as the allocator's user data:
 * two f64 values, the bytes the state holds now and its cap (Infinity until the run starts).
 * Sizes are below 2^32 and sums far below 2^53, so f64 counts them exactly. The rule is wasmoon's:
 * an allocation that would take the state's bytes past its cap is refused (Lua then collects
 * garbage and tries once more, or raises "not enough memory"); shrinking and freeing always work.
 *
 * The module, in the text format:
 *
 *   (module
 *     (import "lua" "realloc" (func $realloc (param i32 i32) (result i32)))
 *     (import "lua" "free" (func $free (param i32)))
 *     (import "counter" "budget" (global $budget (mut i32)))
 *     (import "counter" "credit" (global $credit (mut i32)))
 *     (global $work (mut i32) (i32.const 1048576))
 *     (memory (export "memory") 1)
 *     (func (export "allocate") (param $slot i32) (param $block i32) (param $oldSize i32)
 *                               (param $newSize i32) (result i32)
 *       (local $total f64) (local $result i32)
 *       (if (i32.eqz (local.get $newSize)) (then
 *         (if (local.get $block) (then
 *           (f64.store (local.get $slot)
 *             (f64.sub (f64.load (local.get $slot)) (f64.convert_i32_u (local.get $oldSize))))
 *           (call $free (local.get $block))))
 *         (return (i32.const 0))))
 *       ;; without a block, oldSize is the kind of object Lua wants, not a size
 *       (local.set $total (f64.add (f64.load (local.get $slot))
 *         (f64.sub (f64.convert_i32_u (local.get $newSize))
 *           (if (result f64) (local.get $block)
 *             (then (f64.convert_i32_u (local.get $oldSize))) (else (f64.const 0))))))
 *       (if (i32.and
 *             (i32.or (i32.eqz (local.get $block)) (i32.gt_u (local.get $newSize) (local.get $oldSize)))
 *             (f64.gt (local.get $total) (f64.load offset=8 (local.get $slot))))
 *         (then (return (i32.const 0))))
 *       (local.set $result (call $realloc (local.get $block) (local.get $newSize)))
 *       (if (local.get $result) (then
 *         (f64.store (local.get $slot) (local.get $total))
 *         (global.set $work (i32.sub (global.get $work) (local.get $newSize)))
 *         (if (i32.le_s (global.get $work) (i32.const 0)) (then
 *           (global.set $work (i32.const 1048576))
 *           (global.set $credit (i32.add (global.get $credit) (global.get $budget)))
 *           (global.set $budget (i32.const 0))))))
 *       (local.get $result)))
 */
import { name, section, signed32, unsigned, vector } from './wasm-encoding.ts';

/** The raw exports of wasmoon's Lua module the meter calls. */
export interface LuaModuleExports {
  realloc: (block: number, size: number) => number;
  free: (block: number) => void;
}

/** The instruction counter's globals the meter spends (see instruction-counter.ts). */
export interface CounterBudget {
  budget: WebAssembly.Global;
  credit: WebAssembly.Global;
}

export interface MemoryMeter {
  /** The allocator (lua_Alloc), a WASM function ready for the Lua module's function table. */
  allocate: WebAssembly.ExportValue;
  /** A slot for a new state; its address is the state's allocator user data. */
  openSlot(): number;
  /** Gives a closed state's slot back. */
  closeSlot(slot: number): void;
  setCap(slot: number, bytes: number): void;
  bytesUsed(slot: number): number;
}

const SLOT_BYTES = 16;
/** Bytes allocated between two forced checks of the limits. */
const WORK_BYTES = 1 << 20;
const PAGE_BYTES = 65536;

// Opcodes used below.
const I32 = 0x7f;
const F64 = 0x7c;
const VOID = 0x40;
const op = {
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  return: 0x0f,
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  globalGet: 0x23,
  globalSet: 0x24,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  f64Const: 0x44,
  i32Eqz: 0x45,
  i32LeS: 0x4c,
  i32GtU: 0x4b,
  f64Gt: 0x64,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32And: 0x71,
  i32Or: 0x72,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64ConvertI32U: 0xb8,
} as const;
// Parameters and locals of the allocator, and the imported functions.
const SLOT = 0;
const BLOCK = 1;
const OLD_SIZE = 2;
const NEW_SIZE = 3;
const TOTAL = 4;
const RESULT = 5;
const REALLOC = 0;
const FREE = 1;
// Globals: the two imported from the counter, then the meter's own.
const BUDGET = 0;
const CREDIT = 1;
const WORK = 2;
/** f64 memory access: alignment 2^3, then the offset. */
const f64At = (offset: number) => [3, offset];

const ALLOCATE_BODY = [
  // Freeing: count the block out, free it, answer NULL.
  ...[op.localGet, NEW_SIZE, op.i32Eqz, op.if, VOID],
  ...[op.localGet, BLOCK, op.if, VOID],
  ...[op.localGet, SLOT, op.localGet, SLOT, op.f64Load, ...f64At(0)],
  ...[op.localGet, OLD_SIZE, op.f64ConvertI32U, op.f64Sub, op.f64Store, ...f64At(0)],
  ...[op.localGet, BLOCK, op.call, FREE],
  op.end,
  ...[op.i32Const, 0, op.return],
  op.end,
  // The state's bytes after this allocation.
  ...[op.localGet, SLOT, op.f64Load, ...f64At(0)],
  ...[op.localGet, NEW_SIZE, op.f64ConvertI32U],
  ...[op.localGet, BLOCK, op.if, F64, op.localGet, OLD_SIZE, op.f64ConvertI32U],
  ...[op.else, op.f64Const, 0, 0, 0, 0, 0, 0, 0, 0, op.end],
  ...[op.f64Sub, op.f64Add, op.localSet, TOTAL],
  // Growing past the cap: refuse.
  ...[op.localGet, BLOCK, op.i32Eqz, op.localGet, NEW_SIZE, op.localGet, OLD_SIZE, op.i32GtU, op.i32Or],
  ...[op.localGet, TOTAL, op.localGet, SLOT, op.f64Load, ...f64At(8), op.f64Gt, op.i32And],
  ...[op.if, VOID, op.i32Const, 0, op.return, op.end],
  // Otherwise allocate, and count it once it succeeded.
  ...[op.localGet, BLOCK, op.localGet, NEW_SIZE, op.call, REALLOC, 0x22 /* local.tee */, RESULT],
  ...[op.if, VOID, op.localGet, SLOT, op.localGet, TOTAL, op.f64Store, ...f64At(0)],
  // Every WORK_BYTES allocated, the counter's budget is spent, into its credit.
  ...[op.globalGet, WORK, op.localGet, NEW_SIZE, op.i32Sub, op.globalSet, WORK],
  ...[op.globalGet, WORK, op.i32Const, 0, op.i32LeS, op.if, VOID],
  ...[op.i32Const, ...signed32(WORK_BYTES), op.globalSet, WORK],
  ...[op.globalGet, CREDIT, op.globalGet, BUDGET, op.i32Add, op.globalSet, CREDIT],
  ...[op.i32Const, 0, op.globalSet, BUDGET],
  op.end,
  op.end,
  ...[op.localGet, RESULT],
  op.end,
];

const METER_MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // Types: 0 allocate (i32 i32 i32 i32) -> i32, 1 realloc (i32 i32) -> i32, 2 free (i32) -> ().
  ...section(
    1,
    vector([
      [0x60, 4, I32, I32, I32, I32, 1, I32],
      [0x60, 2, I32, I32, 1, I32],
      [0x60, 1, I32, 0],
    ]),
  ),
  ...section(
    2,
    vector([
      [...name('lua'), ...name('realloc'), 0x00, 1],
      [...name('lua'), ...name('free'), 0x00, 2],
      [...name('counter'), ...name('budget'), 0x03, I32, 0x01],
      [...name('counter'), ...name('credit'), 0x03, I32, 0x01],
    ]),
  ),
  ...section(3, vector([[0]])),
  ...section(5, vector([[0x00, 1]])),
  ...section(6, vector([[I32, 0x01, op.i32Const, ...signed32(WORK_BYTES), op.end]])),
  ...section(
    7,
    vector([
      [...name('allocate'), 0x00, 2],
      [...name('memory'), 0x02, 0],
    ]),
  ),
  ...section(
    10,
    vector([
      (() => {
        const body = [
          ...vector([
            [1, F64],
            [1, I32],
          ]),
          ...ALLOCATE_BODY,
        ];
        return [...unsigned(body.length), ...body];
      })(),
    ]),
  ),
]);

let compiled: WebAssembly.Module | undefined;

/**
 * Instantiates a meter over one Lua module (one per thread's runtime). Without the module's
 * instruction counter, the meter spends a budget of its own that nothing reads.
 */
export function createMemoryMeter(lua: LuaModuleExports, counter?: CounterBudget): MemoryMeter {
  compiled ??= new WebAssembly.Module(METER_MODULE);
  const { budget, credit } = counter ?? {
    budget: new WebAssembly.Global({ value: 'i32', mutable: true }, 0),
    credit: new WebAssembly.Global({ value: 'i32', mutable: true }, 0),
  };
  const instance = new WebAssembly.Instance(compiled, {
    lua: { realloc: lua.realloc, free: lua.free },
    counter: { budget, credit },
  });
  const memory = instance.exports.memory as WebAssembly.Memory;
  const slots = new Float64Array(memory.buffer);
  // Slot 0 is never handed out, so no state's user data is NULL.
  const free: number[] = [];
  for (let offset = PAGE_BYTES - SLOT_BYTES; offset >= SLOT_BYTES; offset -= SLOT_BYTES) {
    free.push(offset);
  }
  return {
    allocate: instance.exports.allocate as WebAssembly.ExportValue,
    openSlot() {
      const slot = free.pop();
      if (slot === undefined) {
        throw new Error('No memory meter slot is free');
      }
      slots[slot / 8] = 0;
      slots[slot / 8 + 1] = Infinity;
      return slot;
    },
    closeSlot(slot) {
      free.push(slot);
    },
    setCap(slot, bytes) {
      slots[slot / 8 + 1] = bytes;
    },
    bytesUsed(slot) {
      return slots[slot / 8] ?? NaN;
    },
  };
}
