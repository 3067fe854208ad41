import { describe, expect, it } from 'vitest';
import { loadLuaModule } from './lua-module.ts';
import { createMemoryMeter } from './memory-meter.ts';
import { runLua } from './run-lua.ts';

/** A meter over a fake heap that hands out increasing addresses and records what it was asked. */
function meterOverFakeHeap() {
  const calls: string[] = [];
  let next = 1000;
  const meter = createMemoryMeter({
    realloc: (block, size) => {
      calls.push(`realloc ${block} ${size}`);
      return block === 0 ? (next += 1000) : block;
    },
    free: (block) => {
      calls.push(`free ${block}`);
    },
  });
  const allocate = meter.allocate as unknown as (
    slot: number,
    block: number,
    oldSize: number,
    newSize: number,
  ) => number;
  return { meter, allocate, calls };
}

describe('memory meter', () => {
  it('counts new, grown, shrunk and freed blocks per slot', () => {
    const { meter, allocate, calls } = meterOverFakeHeap();
    const slot = meter.openSlot();
    const other = meter.openSlot();

    // A new block: oldSize is the kind of Lua object (here 5, a table), not a size.
    const block = allocate(slot, 0, 5, 100);
    expect(block).toBe(2000);
    expect(meter.bytesUsed(slot)).toBe(100);
    expect(allocate(slot, block, 100, 250)).toBe(block);
    expect(meter.bytesUsed(slot)).toBe(250);
    expect(allocate(slot, block, 250, 40)).toBe(block);
    expect(meter.bytesUsed(slot)).toBe(40);
    expect(allocate(other, 0, 4, 7)).toBe(3000);
    expect(allocate(slot, block, 40, 0)).toBe(0);

    expect(meter.bytesUsed(slot)).toBe(0);
    expect(meter.bytesUsed(other)).toBe(7);
    expect(calls).toEqual(['realloc 0 100', 'realloc 2000 250', 'realloc 2000 40', 'realloc 0 7', 'free 2000']);
  });

  it('refuses growth past the cap exactly, and still lets blocks shrink and be freed', () => {
    const { meter, allocate, calls } = meterOverFakeHeap();
    const slot = meter.openSlot();
    meter.setCap(slot, 1000);

    const block = allocate(slot, 0, 4, 1000);
    expect(block).not.toBe(0);
    expect(allocate(slot, 0, 4, 1)).toBe(0);
    expect(allocate(slot, block, 1000, 1001)).toBe(0);
    expect(meter.bytesUsed(slot)).toBe(1000);
    expect(allocate(slot, block, 1000, 600)).toBe(block);
    expect(allocate(slot, 0, 4, 400)).not.toBe(0);
    expect(meter.bytesUsed(slot)).toBe(1000);
    expect(allocate(slot, block, 600, 0)).toBe(0);
    expect(meter.bytesUsed(slot)).toBe(400);
    // Refused requests never reached the heap.
    expect(calls.filter((call) => call.endsWith(' 1') || call.endsWith(' 1001'))).toEqual([]);
  });

  it('counts nothing when the heap itself fails', () => {
    const meter = createMemoryMeter({ realloc: () => 0, free: () => undefined });
    const allocate = meter.allocate as unknown as (
      slot: number,
      block: number,
      oldSize: number,
      newSize: number,
    ) => number;
    const slot = meter.openSlot();

    expect(allocate(slot, 0, 4, 64)).toBe(0);
    expect(meter.bytesUsed(slot)).toBe(0);
  });

  it('gives a reopened slot a fresh count and no cap', () => {
    const { meter, allocate } = meterOverFakeHeap();
    const slot = meter.openSlot();
    meter.setCap(slot, 10);
    allocate(slot, 0, 4, 10);
    meter.closeSlot(slot);

    const again = meter.openSlot();
    expect(again).toBe(slot);
    expect(meter.bytesUsed(again)).toBe(0);
    expect(allocate(again, 0, 4, 1 << 20)).not.toBe(0);
  });

  it("spends the instruction counter's budget, into its credit, every MiB allocated", () => {
    const budget = new WebAssembly.Global({ value: 'i32', mutable: true }, 70_000);
    const credit = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
    let next = 0;
    const meter = createMemoryMeter({ realloc: () => (next += 4096), free: () => undefined }, { budget, credit });
    const allocate = meter.allocate as unknown as (
      slot: number,
      block: number,
      oldSize: number,
      newSize: number,
    ) => number;
    const slot = meter.openSlot();

    allocate(slot, 0, 4, 600 * 1024);
    expect([budget.value, credit.value]).toEqual([70_000, 0]);
    allocate(slot, 0, 4, 600 * 1024);
    expect([budget.value, credit.value]).toEqual([0, 70_000]);
    // A refused allocation is no work done.
    meter.setCap(slot, 1);
    budget.value = 500;
    allocate(slot, 0, 4, 2 * 1024 * 1024);
    expect([budget.value, credit.value]).toEqual([500, 70_000]);
  });

  it("counts a real Lua state's allocations back to zero when the state closes", async () => {
    const { lua, exports } = await loadLuaModule();
    const meter = createMemoryMeter(exports);
    const wasm = lua.module as unknown as { addFunction(fn: unknown, signature: string): number };
    const allocator = wasm.addFunction(meter.allocate, 'iiiii');
    const slot = meter.openSlot();
    const L = lua.lua_newstate(allocator, slot);
    expect(L).not.toBe(0);
    const bare = meter.bytesUsed(slot);
    expect(bare).toBeGreaterThan(1000);

    lua.lua_createtable(L, 100_000, 0);
    expect(meter.bytesUsed(slot)).toBeGreaterThan(bare + 100_000 * 16);

    lua.lua_close(L);
    expect(meter.bytesUsed(slot)).toBe(0);
  });
});

describe('memory cap in the sandbox', () => {
  it('lets a script use memory up to the cap and ends it with limit memory past it, even under pcall', async () => {
    // string.rep builds the string in a buffer of its size, then copies it: twice the size at the peak.
    const fits = await runLua('local s = ("x"):rep(1536 * 1024) return #s', { memoryBytes: 4 * 1024 * 1024 });
    expect(fits).toMatchObject({ success: true, returns: ['1572864'], limit: null });

    const over = await runLua('local ok = pcall(string.rep, "x", 5 * 1024 * 1024) return ok', {
      memoryBytes: 4 * 1024 * 1024,
    });
    expect(over).toMatchObject({ success: false, limit: 'memory', error: 'Memory limit exceeded (4 MiB)' });
  });

  it('starts every run at the memory its fresh state needs, whatever the run before it held', async () => {
    const measure = 'return collectgarbage("count")';
    const before = Number((await runLua(measure)).returns[0]);
    await runLua('big = {} for i = 1, 1e6 do big[i] = i end');
    const after = Number((await runLua(measure)).returns[0]);

    expect(after).toBe(before);
  });
});
