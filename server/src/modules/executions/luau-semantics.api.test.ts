import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUAU_SEMANTICS_CASES } from '@moonrelay/sandbox/sandbox/luau-semantics-cases';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * Luau's meaning through the real API: a case runs in the sandbox (which lowers Luau to Lua 5.4)
 * and must print what Luau prints, or fail on the user's own line. Every case runs in the worker's
 * own suite (sandbox/src/sandbox/luau-semantics.test.ts); here the first that prints and the first
 * that fails prove the route answers both.
 */
const REPRESENTATIVE = [
  LUAU_SEMANTICS_CASES.find((semantics) => semantics.error === undefined)!,
  LUAU_SEMANTICS_CASES.find((semantics) => semantics.error !== undefined)!,
];
describe('Luau semantics through the execution API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  it.each(REPRESENTATIVE.map((c) => [c.name, c] as const))('%s', async (_name, semantics) => {
    const res = await server.call('POST', '/api/scripts/execute', {
      token,
      body: { code: semantics.code, target: 'sandbox' },
    });
    expect(res.status).toBe(200);
    if (semantics.output !== undefined) expect(res.body.output).toBe(semantics.output);
    if (semantics.error === undefined) {
      expect(res.body).toMatchObject({ success: true, error: null });
    } else {
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(semantics.error);
    }
  });
});
