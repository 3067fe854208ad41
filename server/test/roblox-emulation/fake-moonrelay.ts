import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Moonrelay server on 127.0.0.1, answering the game link protocol
 * (docs/protocol.md) just enough to test the emulation and the integration script's own
 * behaviour (backoff, 401, result batching) without the real server: POST /api/game/ping,
 * GET /api/scripts, GET /api/game/loader, and anything under /echo (answers the request back, with
 * the status of `?status=`, after `?delayMs=`).
 */

export interface FakeCommand {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface FakePing {
  // The test reads whatever the game sent.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** Real milliseconds since the fake server started. */
  at: number;
}

export interface FakeMoonrelay {
  url: string;
  /** The key the fake accepts; anything else is answered 401. */
  apiKey: string;
  pings: FakePing[];
  /** Every request, as "METHOD /path". */
  requests: string[];
  /** Commands answered on every ping until a result for them arrives. */
  commands: FakeCommand[];
  scripts: unknown[];
  /** Results the game reported, by command id, in arrival order. */
  results: Array<{ id: string; success: boolean; output?: string; error?: string | null }>;
  /** The next this-many pings are answered 503. */
  failNextPings: number;
  /** Answer GET /api/scripts 401 even with the right key (as after a regeneration mid-loop). */
  refuseScriptFetch: boolean;
  /** A ping carrying a result for one of these command ids is answered 400 (and not recorded). */
  refuseResultIds: string[];
  /** The text GET /api/game/loader answers. */
  loaderSource: string;
  close(): Promise<void>;
}

export async function startFakeMoonrelay(apiKey = 'mr_testkey'): Promise<FakeMoonrelay> {
  const startedAt = performance.now();
  const fake: Omit<FakeMoonrelay, 'url' | 'close'> = {
    apiKey,
    pings: [],
    requests: [],
    commands: [],
    scripts: [],
    results: [],
    failNextPings: 0,
    refuseScriptFetch: false,
    refuseResultIds: [],
    loaderSource: 'print("loaded")',
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      fake.requests.push(`${request.method} ${url.pathname}`);
      const answer = (status: number, body: unknown, type = 'application/json') => {
        response.writeHead(status, { 'content-type': type });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const refused = () => answer(401, { error: 'Invalid API key' });

      if (url.pathname.startsWith('/echo')) {
        const echo = () =>
          answer(Number(url.searchParams.get('status') ?? 200), {
            method: request.method,
            path: url.pathname,
            contentType: request.headers['content-type'] ?? null,
            authorization: request.headers.authorization ?? null,
            body: text,
          });
        setTimeout(echo, Number(url.searchParams.get('delayMs') ?? 0));
        return;
      }
      if (request.method === 'POST' && url.pathname === '/api/game/ping') {
        const body = JSON.parse(text) as { key?: string; results?: FakeMoonrelay['results'] };
        if (body.key !== fake.apiKey) return refused();
        if (fake.failNextPings > 0) {
          fake.failNextPings -= 1;
          return answer(503, { error: 'Service unavailable' });
        }
        if (body.results?.some((result) => fake.refuseResultIds.includes(result.id))) {
          return answer(400, { error: 'Invalid result' });
        }
        fake.pings.push({ body, at: performance.now() - startedAt });
        for (const result of body.results ?? []) {
          fake.results.push(result);
          fake.commands = fake.commands.filter((command) => command.id !== result.id);
        }
        return answer(200, { success: true, command: fake.commands[0] ?? null, commands: fake.commands.slice(0, 10) });
      }
      if (request.method === 'GET' && url.pathname === '/api/scripts') {
        if (fake.refuseScriptFetch || request.headers.authorization !== `Bearer ${fake.apiKey}`) return refused();
        return answer(200, fake.scripts);
      }
      if (request.method === 'GET' && url.pathname === '/api/game/loader') {
        if (url.searchParams.get('key') !== fake.apiKey) return refused();
        return answer(200, fake.loaderSource, 'text/plain');
      }
      answer(404, { error: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
