import { describe, expect, it, vi } from 'vitest';

// A wasmoon build the instruction counter cannot be patched into: the sandbox counts with Lua's
// plain count hook instead, and every limit still holds.
vi.mock('./instruction-counter.ts', () => ({
  patchInstructionCounter: () => null,
  counterGlobals: () => null,
}));

const { runLua } = await import('./run-lua.ts');
const { loadLuaModule } = await import('./lua-module.ts');

describe('sandbox on an unpatched Lua module', () => {
  it('has no instruction counter', async () => {
    expect((await loadLuaModule()).counter).toBeNull();
  });

  it('ends a busy loop at the instruction limit, even under pcall', async () => {
    const result = await runLua('while true do pcall(function() while true do end end) end', {
      instructionLimit: 1_000_000,
    });

    expect(result).toMatchObject({ success: false, limit: 'instructions', error: 'Instruction limit exceeded' });
  });

  it('runs a script that stays under the limits', async () => {
    const result = await runLua('local x = 0 for i = 1, 1000 do x = x + i end return x');

    expect(result).toMatchObject({ success: true, returns: ['500500'], limit: null });
  });

  it('ends a run that allocates past the cap with limit memory', async () => {
    const result = await runLua('local t = {} for i = 1, 1e7 do t[i] = i end', { memoryBytes: 4 * 1024 * 1024 });

    expect(result).toMatchObject({ success: false, limit: 'memory' });
  });
});
