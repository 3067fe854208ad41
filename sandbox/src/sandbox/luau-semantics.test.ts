import { describe, expect, it } from 'vitest';
import { LUAU_DIFFERENCE_CASES, LUAU_SEMANTICS_CASES } from './luau-semantics-cases.ts';
import { runLua } from './run-lua.ts';
import { warmSandboxBeforeAll } from './sandbox-test-support.ts';

// The Luau semantics cases run straight in the sandbox (the API suite runs them end to end).

warmSandboxBeforeAll();

describe.each([
  ['Luau semantics in the sandbox', LUAU_SEMANTICS_CASES],
  ["the sandbox's documented differences from Luau", LUAU_DIFFERENCE_CASES],
] as const)('%s', (_title, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, semantics) => {
    const result = await runLua(semantics.code);
    if (semantics.output !== undefined) expect(result.output).toBe(semantics.output);
    if (semantics.error === undefined) {
      expect(result.error).toBeNull();
    } else {
      expect(result.error).toMatch(semantics.error);
    }
  });
});
