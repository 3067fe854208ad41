import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';
import { COMPRESS_FROM_BYTES } from './compress-answers.ts';

/** An answer's bytes as they came over the wire, undecoded (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe("the API's answers, compressed when the client accepts it", () => {
  let server: TestServer;
  let token: string;
  let plain: unknown;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    ({ token } = await registerUser(server));
    // A list long past the threshold: ten scripts of 1 KB of code each.
    for (let i = 0; i < 10; i++) {
      const res = await server.call('POST', '/api/scripts', {
        token,
        body: { name: `Script ${i}`, code: `print("${'x'.repeat(1000)}")` },
      });
      expect(res.status).toBe(200);
    }
    plain = (await server.call('GET', '/api/scripts', { token })).body;
  });
  afterAll(() => server.close());

  const get = (path: string, acceptEncoding?: string) =>
    rawGet(server.url + path, {
      authorization: `Bearer ${token}`,
      ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
    });

  it.each([
    ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
    ['gzip', 'gzip', zlib.gunzipSync],
  ] as const)('a browser sending %j gets %s, the same JSON once decoded', async (accept, encoding, decode) => {
    const res = await get('/api/scripts', accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.bytes.length).toBeLessThan(JSON.stringify(plain).length / 5);
    expect(JSON.parse(decode(res.bytes).toString('utf8'))).toEqual(plain);
  });

  it('answers plain to a client that names no encoding, or refuses them', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const res = await get('/api/scripts', accept);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.bytes.toString('utf8'))).toEqual(plain);
    }
  });

  it(`leaves answers under ${COMPRESS_FROM_BYTES} bytes plain, errors included`, async () => {
    const user = await get('/api/user', 'br');
    expect(user.headers['content-encoding']).toBeUndefined();
    expect(user.bytes.length).toBeLessThan(COMPRESS_FROM_BYTES);
    const missing = await get('/api/scripts/nope', 'br');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.bytes.toString('utf8')).error).toEqual(expect.any(String));
  });
});
