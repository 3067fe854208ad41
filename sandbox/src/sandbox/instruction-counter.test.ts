import fs from 'node:fs';
import { createRequire } from 'node:module';
import { LuaEventMasks, LuaReturn } from 'wasmoon';
import { describe, expect, it } from 'vitest';
import { patchInstructionCounter } from './instruction-counter.ts';
import { loadLuaModule } from './lua-module.ts';

const SCRIPTS = {
  'a numeric loop': 'local x = 0 for i = 1, 100000 do x = x + i end',
  'recursive calls': 'local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end fib(20)',
  'a while loop with strings and tables':
    'local t, i = {}, 0 while i < 20000 do i = i + 1 t[#t + 1] = tostring(i) .. "x" end',
  'coroutines that yield':
    'local co = coroutine.wrap(function() for i = 1, 30000 do coroutine.yield(i) end end) local s = 0 for _ = 1, 30000 do s = s + co() end',
};

/** Runs `code` on a fresh state of the patched module and answers what the hook saw. */
async function count(code: string, mode: 'counter' | 'count hook', interval: number) {
  const { lua, counter } = await loadLuaModule();
  if (counter === null) throw new Error('the module was not patched');
  const wasm = lua.module as unknown as { addFunction(fn: (L: number) => void, signature: string): number };
  let counted = 0;
  let hookCalls = 0;
  const threads = new Set<number>();
  const hook = wasm.addFunction((L: number) => {
    hookCalls += 1;
    threads.add(L);
    if (mode === 'count hook') {
      counted += 1;
      return;
    }
    counted +=
      (counter.interval.value as number) * (1 + (counter.arms.value as number)) - (counter.budget.value as number);
    counter.budget.value = interval;
    counter.arms.value = 0;
    lua.lua_sethook(L, 0, 0, 0);
  }, 'vii');
  const L = lua.luaL_newstate();
  lua.luaL_openlibs(L);
  counter.hook.value = hook;
  expect(lua.luaL_loadstring(L, code)).toBe(LuaReturn.Ok);
  if (mode === 'counter') {
    counter.interval.value = interval;
    counter.budget.value = interval;
    counter.arms.value = 0;
  } else {
    lua.lua_sethook(L, hook, LuaEventMasks.Count, 1);
  }
  expect(lua.lua_pcallk(L, 0, 0, 0, 0, null)).toBe(LuaReturn.Ok);
  if (mode === 'counter') {
    // The instructions after the last hook call.
    counted +=
      (counter.interval.value as number) * (1 + (counter.arms.value as number)) - (counter.budget.value as number);
    counter.budget.value = 0x7fffffff;
    counter.interval.value = 0x7fffffff;
  }
  lua.lua_close(L);
  return { counted, hookCalls, threads: threads.size, main: L };
}

describe('instruction counter', () => {
  it("patches wasmoon's Lua module and refuses bytes it was not made for", () => {
    const file = createRequire(import.meta.url).resolve('wasmoon/dist/glue.wasm');
    const bytes = new Uint8Array(fs.readFileSync(file));
    const patched = patchInstructionCounter(bytes);

    expect(patched).not.toBeNull();
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(patched!)).map((entry) => entry.name);
    expect(exports).toEqual(expect.arrayContaining(['moonrelay_instruction_budget', 'moonrelay_instruction_hook']));
    // A module without the Lua VM (here: the same bytes cut short) is left alone.
    expect(patchInstructionCounter(bytes.subarray(0, 1000))).toBeNull();
  });

  for (const [name, code] of Object.entries(SCRIPTS)) {
    it(`counts the same instructions as Lua's own count hook: ${name}`, async () => {
      const reference = await count(code, 'count hook', 1);
      const counted = await count(code, 'counter', 1000);

      expect(reference.counted).toBeGreaterThan(50_000);
      // The count hook is not called for the very first instruction of the chunk.
      expect(Math.abs(counted.counted - reference.counted)).toBeLessThanOrEqual(2);
      // The hook ran about once per interval, not per instruction.
      expect(counted.hookCalls).toBeGreaterThan(reference.counted / 1000 - 2);
      expect(counted.hookCalls).toBeLessThan(reference.counted / 1000 + 2);
    });
  }

  it('arms the hook of the coroutine that is running', async () => {
    // An interval prime to the loops' lengths, so the budget runs out in either thread.
    const result = await count(SCRIPTS['coroutines that yield'], 'counter', 997);

    expect(result.threads).toBe(2);
  });
});
