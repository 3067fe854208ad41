import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';
import { newApiKey } from '../security/api-keys.ts';
import { AppError } from './app-error.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * The game's ping is served by a fast route in front of the Koa stack (fast-routes.ts). Whatever is
 * sent, the answer must be the one the Koa stack gives: every request below goes to the app's own
 * listener and to the same app served by Koa alone, and the two answers are compared (status, body,
 * headers and their order). The fast route must also keep what the stack around a route gives:
 * metrics, the /metrics count, a log line, AppError headers such as Retry-After.
 */

const METRICS_TOKEN = 'metrics-token-for-fast-routes';
const PING = '/api/game/ping';

interface Request {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent in several writes without a Content-Length (Transfer-Encoding: chunked). */
  chunked?: boolean;
}

interface Answer {
  status: number;
  statusMessage: string;
  /** Header names and values in the order sent. */
  headers: [string, string][];
  text: string;
}

function send(url: string, request: Request): Promise<Answer> {
  const target = new URL(url);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...request.headers };
  if (body && !request.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname,
      port: target.port,
      method: request.method ?? 'POST',
      path: request.path ?? PING,
      headers,
      agent: false,
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: pairs,
          text: Buffer.concat(chunks).toString(),
        });
      });
    });
    // Once the answer is in, a refused upload (413) may end in EPIPE or ECONNRESET.
    req.on('error', reject);
    if (body && request.chunked) {
      req.write(body.subarray(0, 3));
      req.end(body.subarray(3));
    } else {
      req.end(body);
    }
  });
}

/** The parts of two answers that must match: the per-request values (id, date, budget left) are set aside. */
function comparable(answer: Answer, requestId: string | undefined) {
  const varying = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);
  const id = answer.headers.find(([name]) => name.toLowerCase() === 'x-request-id')?.[1];
  expect(id).toBeDefined();
  if (requestId) expect(id).toBe(requestId);
  else expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return {
    status: answer.status,
    statusMessage: answer.statusMessage,
    headers: answer.headers.map(([name, value]) => [name, varying.has(name.toLowerCase()) ? '(varies)' : value]),
    text: answer.text,
  };
}

describeEachEngine('the game ping on its fast route', (engine) => {
  let server: TestServer;
  /** The same app, served by the Koa stack alone. */
  let koaOnly: http.Server;
  let koaUrl: string;
  let key: string;
  let token: string;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer(
      engine,
      { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000', METRICS_TOKEN },
      { logger: pino({ level: 'info' }, log) },
    );
    koaOnly = http.createServer(server.app.koa.callback());
    await new Promise<void>((resolve) => koaOnly.listen(0, '127.0.0.1', resolve));
    koaUrl = `http://127.0.0.1:${(koaOnly.address() as AddressInfo).port}`;
    const registered = await registerUser(server);
    key = registered.user.apiKey;
    token = registered.token;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => koaOnly.close(() => resolve()));
    await server.close();
  });
  afterEach(() => vi.restoreAllMocks());

  /** Sends the request to both servers; answers the fast listener's answer and whether the Koa stack served it. */
  async function both(request: Request) {
    const created = vi.spyOn(server.app.koa, 'createContext');
    const fast = await send(server.url, request);
    // The fast route makes a Koa context only to read a refused caller's address; the stack's own get a request id.
    const servedByKoa = created.mock.results.some(
      (result) => (result.value as { state: { requestId?: string } }).state.requestId !== undefined,
    );
    created.mockRestore();
    const koa = await send(koaUrl, request);
    const requestId = request.headers?.['x-request-id'];
    const safeId = requestId && /^[A-Za-z0-9._-]{1,64}$/.test(requestId) ? requestId : undefined;
    expect(comparable(fast, safeId)).toEqual(comparable(koa, safeId));
    return { answer: fast, servedByKoa };
  }

  const json = (value: unknown) => JSON.stringify(value);
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);

  describe('answers as the Koa stack does', () => {
    const fastCases: [string, () => Request, number][] = [
      ['a valid ping', () => ({ body: json({ key, serverId: 'same-1' }) }), 200],
      [
        'a ping with player data and a result',
        () => ({
          body: json({
            key,
            serverId: 'same-2',
            playerData: { playerName: 'Same', position: { x: 1, y: 2, z: 3 }, health: 50 },
            results: [{ id: 'unknown-command', success: true, output: 'a\u0000b' }],
          }),
        }),
        200,
      ],
      ['a ping that waits 0 s', () => ({ body: json({ key, serverId: 'same-3', wait: 0 }) }), 200],
      ['a field the contract drops', () => ({ body: json({ key, serverId: 'same-4', extra: 'x\u0000' }) }), 200],
      ['a safe X-Request-Id', () => ({ body: json({ key }), headers: { 'x-request-id': 'trace-1.2_3' } }), 200],
      ['an unsafe X-Request-Id', () => ({ body: json({ key }), headers: { 'x-request-id': 'x'.repeat(65) } }), 200],
      [
        'charset=utf-8',
        () => ({ body: json({ key }), headers: { 'content-type': 'application/json; charset=utf-8' } }),
        200,
      ],
      ['a byte order mark', () => ({ body: Buffer.concat([bom, Buffer.from(json({ key }))]) }), 200],
      ['no key', () => ({ body: '{}' }), 401],
      ['a key that is not text', () => ({ body: json({ key: 5 }) }), 401],
      ['a malformed key', () => ({ body: json({ key: 'nope' }) }), 401],
      ['an unknown key', () => ({ body: json({ key: newApiKey() }) }), 401],
      ['an empty body', () => ({ body: '' }), 401],
      ['an array', () => ({ body: json([{ key }]) }), 401],
      ['a bad serverId', () => ({ body: json({ key, serverId: 'bad id!' }) }), 400],
      ['bad player data', () => ({ body: json({ key, playerData: { position: { x: 'far', y: 0, z: 0 } } }) }), 400],
      ['U+0000 in player data', () => ({ body: json({ key, playerData: { playerName: 'a\u0000b' } }) }), 400],
      ['a wait too long', () => ({ body: json({ key, wait: 1e9 }) }), 400],
      ['a string', () => ({ body: '"text"' }), 400],
      ['malformed JSON', () => ({ body: '{"key":' }), 400],
      ['a __proto__ key', () => ({ body: `{"__proto__":{},"key":${json(key)}}` }), 400],
      [
        'invalid UTF-8',
        () => ({ body: Buffer.concat([Buffer.from('{"key":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}')]) }),
        401,
      ],
      ['a body over 1 MB', () => ({ body: json({ key, padding: 'x'.repeat(1024 * 1024) }) }), 413],
    ];
    it.each(fastCases)('%s (fast route)', async (_label, request, status) => {
      const { answer, servedByKoa } = await both(request());
      expect(answer.status).toBe(status);
      expect(servedByKoa).toBe(false);
    });

    const koaCases: [string, () => Request][] = [
      ['an Authorization header', () => ({ body: json({ key }), headers: { authorization: `Bearer ${token}` } })],
      ['a query string', () => ({ path: `${PING}?x=1`, body: json({ key }) })],
      ['a trailing slash', () => ({ path: `${PING}/`, body: json({ key }) })],
      ['an upper-case path', () => ({ path: PING.toUpperCase(), body: json({ key }) })],
      [
        'another charset',
        () => ({ body: json({ key }), headers: { 'content-type': 'application/json; charset=latin1' } }),
      ],
      ['text/plain', () => ({ body: json({ key }), headers: { 'content-type': 'text/plain' } })],
      ['no content type', () => ({ body: json({ key }), headers: { 'content-type': '' } })],
      ['gzip that is not', () => ({ body: json({ key }), headers: { 'content-encoding': 'gzip' } })],
      ['a chunked body', () => ({ body: json({ key }), chunked: true })],
      ['GET', () => ({ method: 'GET' })],
      ['OPTIONS', () => ({ method: 'OPTIONS' })],
    ];
    it.each(koaCases)('%s (through the Koa stack)', async (_label, request) => {
      const { servedByKoa } = await both(request());
      expect(servedByKoa).toBe(true);
    });

    it('refuses past the game server budget alike, with Retry-After', async () => {
      const limited = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '2' });
      const koa = http.createServer(limited.app.koa.callback());
      await new Promise<void>((resolve) => koa.listen(0, '127.0.0.1', resolve));
      try {
        const { user } = await registerUser(limited);
        const url = `http://127.0.0.1:${(koa.address() as AddressInfo).port}`;
        const pings = async (base: string, serverId: string) => {
          const answers: Answer[] = [];
          for (let i = 0; i < 3; i++) answers.push(await send(base, { body: json({ key: user.apiKey, serverId }) }));
          return answers.map((answer) => comparable(answer, undefined));
        };
        const fast = await pings(limited.url, 'budget-fast');
        expect(fast.map((answer) => answer.status)).toEqual([200, 200, 429]);
        expect(fast[2]!.headers.map(([name]) => name)).toContain('Retry-After');
        expect(JSON.parse(fast[2]!.text)).toEqual({ error: ERRORS.tooManyRequests });
        expect(fast).toEqual(await pings(url, 'budget-koa'));
      } finally {
        await new Promise<void>((resolve) => koa.close(() => resolve()));
        await limited.close();
      }
    });
  });

  it('answers with the headers of every other API answer', async () => {
    const ping = await send(server.url, { body: json({ key }) });
    const status = await send(server.url, {
      method: 'GET',
      path: '/api/game/status',
      headers: { authorization: `Bearer ${token}` },
    });
    const names = (answer: Answer) => answer.headers.map(([name]) => name);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      expect(ping.headers).toContainEqual([name, value]);
    }
    expect(names(ping)).toEqual(names(status));
  });

  it('answers an AppError of the ping with its status, message and headers (load shedding)', async () => {
    vi.spyOn(server.app.services.gameLink, 'ping').mockRejectedValue(
      new AppError(503, 'Moonrelay is busy', { headers: { 'Retry-After': '2' } }),
    );
    const { answer } = await both({ body: json({ key, serverId: 'shed' }) });
    expect(answer.status).toBe(503);
    expect(answer.headers).toContainEqual(['Retry-After', '2']);
    expect(JSON.parse(answer.text)).toEqual({ error: 'Moonrelay is busy' });
  });

  it('answers an unexpected failure with a bare 500 and logs it with the request id', async () => {
    vi.spyOn(server.app.services.gameLink, 'ping').mockRejectedValue(new Error('disk on fire'));
    const answer = await send(server.url, { body: json({ key }), headers: { 'x-request-id': 'failing-ping' } });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.text)).toEqual({ error: ERRORS.internal });
    expect(answer.text).not.toMatch(/fire/);
    expect(lines).toContainEqual(
      expect.objectContaining({
        requestId: 'failing-ping',
        msg: 'request failed',
        err: expect.objectContaining({ message: 'disk on fire' }),
      }),
    );
  });

  it('logs one line per ping, as the Koa stack logs its requests', async () => {
    await send(server.url, { body: json({ key }), headers: { 'x-request-id': 'fast-line' } });
    await send(koaUrl, { body: json({ key }), headers: { 'x-request-id': 'koa-line' } });
    const line = (requestId: string) => lines.filter((entry) => entry.requestId === requestId);
    const [fast] = line('fast-line');
    const [koa] = line('koa-line');
    expect(line('fast-line')).toHaveLength(1);
    expect(fast).toMatchObject({ level: 30, method: 'POST', path: PING, status: 200, msg: 'request' });
    expect(Object.keys(fast!)).toEqual(Object.keys(koa!));
  });

  it('counts pings in /metrics and in the usage analytics, refused ones included', async () => {
    /** Answers counted so far, by status class, from one read of /metrics. */
    const counts = async () => {
      const res = await server.call('GET', '/metrics', { token: METRICS_TOKEN });
      const of = (statusClass: string) =>
        Number(
          new RegExp(`moonrelay_http_requests_total\\{status="${statusClass}"\\} (\\d+)`).exec(res.text)?.[1] ?? 0,
        );
      return { ok: of('2xx'), refused: of('4xx') };
    };
    const { token: owner, user } = await registerUser(server);
    const before = await counts();
    for (let i = 0; i < 3; i++) expect((await send(server.url, { body: json({ key: user.apiKey }) })).status).toBe(200);
    expect((await send(server.url, { body: json({ key: user.apiKey, serverId: '?' }) })).status).toBe(400);
    expect((await send(server.url, { body: '{}' })).status).toBe(401);
    // The first /metrics read is counted too, once it has answered.
    expect(await counts()).toEqual({ ok: before.ok + 3 + 1, refused: before.refused + 2 });
    const usage = await server.call('GET', '/api/analytics/usage?period=1h', { token: owner });
    expect(usage.body.requestsByEndpoint[`POST ${PING}`]).toBe(4);
    expect(usage.body.totalErrors).toBe(1);
  });
});
