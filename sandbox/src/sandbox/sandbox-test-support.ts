import { beforeAll, expect } from 'vitest';
import { runLua, warmUpSandbox } from './run-lua.ts';

/** The return values of a run that must succeed. */
export async function returnsOf(code: string): Promise<string[]> {
  const result = await runLua(code);
  expect(result.error).toBeNull();
  return result.returns;
}

/** The error of a run that must fail. */
export async function errorOf(code: string): Promise<string | null> {
  const result = await runLua(code);
  expect(result.success).toBe(false);
  return result.error;
}

/** Warms the thread's sandbox before a file's tests, so timing-sensitive limits behave as in production. */
export function warmSandboxBeforeAll(): void {
  beforeAll(async () => {
    await warmUpSandbox();
  });
}
