import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/** A request over a raw socket, so the Host header says whatever the attacker wants. */
function rawRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer },
): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString() }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Every malformed header or body is the caller's mistake (4xx), and no request's Host reaches a script. */
describe('attack: malformed headers and bodies', () => {
  let server: TestServer;
  let token: string;
  let apiKey: string;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    const owner = await registerUser(server);
    token = owner.token;
    apiKey = owner.user.apiKey;
  });
  afterAll(() => server.close());

  const scriptRoutes = (): { path: string; headers: Record<string, string> }[] => [
    { path: `/api/game/loader?key=${apiKey}`, headers: {} },
    { path: '/api/game/integration-scripts', headers: { authorization: `Bearer ${token}` } },
  ];

  it.each(['x:99999', '[::1', 'x:0', 'a_b:80'])('answers a Host of %j with 400 on the script routes', async (host) => {
    for (const route of scriptRoutes()) {
      const answer = await rawRequest(server.url, { path: route.path, headers: { ...route.headers, host } });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toEqual({ error: ERRORS.malformedHost });
    }
  });

  it('never writes a Host it does not serve into a script or a loader URL', async () => {
    for (const route of scriptRoutes()) {
      const answer = await rawRequest(server.url, {
        path: route.path,
        headers: { ...route.headers, host: 'evil.example' },
      });
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain('evil.example:');
      expect(JSON.parse(answer.text)).toEqual({ error: ERRORS.hostNotServed });
    }
    const kept = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/scripts/temp',
      headers: { authorization: `Bearer ${token}`, host: 'evil.example', 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ script: 'print(1)' })),
    });
    expect(kept.status).toBe(400);
    // Its own names are served as the request gave them.
    const local = await rawRequest(server.url, {
      path: `/api/game/loader?key=${apiKey}`,
      headers: { host: `LocalHost:${new URL(server.url).port}` },
    });
    expect(local.status).toBe(200);
    expect(local.text).toContain(`http://localhost:${new URL(server.url).port}`);
  });

  it.each([
    ['br', Buffer.from('garbage that is not brotli')],
    ['gzip', Buffer.from('garbage that is not gzip')],
    ['deflate', Buffer.from('garbage')],
    ['br', zlib.brotliCompressSync(Buffer.from('{"emailOrUsername":')).subarray(0, 5)],
  ])('answers a login body with Content-Encoding %s that does not decode with 400', async (encoding, body) => {
    const answer = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toHaveProperty('error');
  });
});
