import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPT_NAME_MAX_LENGTH } from '@moonrelay/contract/constants';
import { VALIDATION } from '@moonrelay/contract/messages';
import { describeOnSQLite } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';

/**
 * A limit the user runs into names its size and the way out, and nothing is cut to fit silently:
 * retrying the same request cannot help, so the answer must say what would.
 */
describeOnSQLite('limits that name their size', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  const SCRIPT_BODY_TOO_LARGE = "Request body is too large: the limit is 1.5 MiB (a script's code may be up to 1 MiB)";
  const BODY_TOO_LARGE = 'Request body is too large: the limit is 1 MiB';

  it('a 2 MB script answers 413 naming the 1.5 MiB body limit and the 1 MiB code limit', async () => {
    const res = await server.call('POST', '/api/scripts', {
      token,
      body: { name: 'huge', code: `-- ${'x'.repeat(2 * 1024 * 1024)}` },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: SCRIPT_BODY_TOO_LARGE });
  });

  it('a route without code names its own 1 MiB limit', async () => {
    const res = await server.call('POST', '/api/auth/login', {
      body: { emailOrUsername: 'someone', password: 'p'.repeat(1100 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: BODY_TOO_LARGE });
  });

  it('names the limit for a body sent in chunks without a length, and for a compressed one', async () => {
    // Neither has a Content-Length, so the general reader (koa-body) refuses it while reading.
    const chunked = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const request = http.request(`${server.url}/api/scripts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      });
      // Once the answer is in, the rest of the upload may be refused (EPIPE, ECONNRESET).
      request.on('error', (error) => (request.writableEnded ? undefined : reject(error)));
      request.write(`{"name":"chunked","code":"`);
      request.end(`${'x'.repeat(2 * 1024 * 1024)}"}`);
    });
    expect(chunked).toEqual({ status: 413, body: { error: SCRIPT_BODY_TOO_LARGE } });

    const inflated = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: zlib.gzipSync(JSON.stringify({ emailOrUsername: 'someone', password: 'p'.repeat(2 * 1024 * 1024) })),
    });
    expect(inflated.status).toBe(413);
    expect(await inflated.json()).toEqual({ error: BODY_TOO_LARGE });
  });

  it('refuses a script name over 200 characters with its maximum, on create and on update, and stores nothing', async () => {
    const long = 'n'.repeat(600);
    const created = await server.call('POST', '/api/scripts', { token, body: { name: long, code: 'print(1)' } });
    expect(created.status).toBe(400);
    expect(created.body.error).toBe('Script name must be at most 200 characters');
    expect(VALIDATION.scriptNameTooLong).toBe('Script name must be at most 200 characters');

    const kept = await server.call('POST', '/api/scripts', {
      token,
      body: { name: 'n'.repeat(SCRIPT_NAME_MAX_LENGTH), code: 'print(1)' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.name).toHaveLength(SCRIPT_NAME_MAX_LENGTH);
    const updated = await server.call('PUT', `/api/scripts/${kept.body.id}`, { token, body: { name: long } });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toBe(VALIDATION.scriptNameTooLong);
    const list = await server.call('GET', '/api/scripts', { token });
    expect(list.body.map((script: { name: string }) => script.name.length)).toEqual([SCRIPT_NAME_MAX_LENGTH]);
  });
});
