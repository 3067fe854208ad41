import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Moonrelay server on 127.0.0.1, answering the game link protocol
 * (docs/protocol.md) just enough to test the emulation and the integration script's own
 * behaviour (long-poll, pacing, backoff, Retry-After, 401, result batching) without the real
 * server: POST /api/game/ping, GET /api/scripts, GET /api/game/loader, and anything under /echo
 * (answers the request back, with the status of `?status=`, a `Retry-After` of `?retryAfter=`,
 * after `?delayMs=`). It is for what the real server cannot be made to do on demand (a 503 for
 * a hundred pings, a Retry-After of a day or an HTTP date, a server that answers a long-poll at
 * once); the backoff, the refused key, a refused result and a refused script fetch are tested
 * against the real server (game-script.harness.test.ts, integration.emulation.test.ts).
 *
 * Like the real server, a ping with `wait` is held until a command is queued (`queue()`) or the
 * wait runs out, and a command handed to a ping is not handed out again for a 10 s lease unless its
 * result comes. The fake's clock can follow the emulated game's: `holdScale` is the real seconds
 * per second of `wait` and of the lease (the emulated game's timeScale).
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
  /** Commands handed to pings (each at most once per lease) until a result for them arrives. */
  commands: FakeCommand[];
  scripts: unknown[];
  /** Results the game reported, by command id, in arrival order. */
  results: Array<{ id: string; success: boolean; output?: string; error?: string | null }>;
  /** The next this-many pings are answered with `failStatus`. */
  failNextPings: number;
  /** The status of those failed pings. Default 503. */
  failStatus: number;
  /** The Retry-After header of those failed pings, or null for none. Default null. */
  retryAfter: string | null;
  /** Hold pings that carry `wait`, as the real server does (default); false answers them at once, as an older server. */
  holdPings: boolean;
  /** Real seconds per second of `wait` and of the command lease. Default 1. */
  holdScale: number;
  /** Pings held right now. */
  readonly held: number;
  /** The text GET /api/game/loader answers. */
  loaderSource: string;
  /** Adds commands and answers the held pings at once, as the real server does when one is queued. */
  queue(...commands: FakeCommand[]): void;
  /** Drops the connection of every held ping (a proxy or a network cutting a long-poll). */
  cutHeldPings(): void;
  close(): Promise<void>;
}

/** The real server's lease: a delivered command without a result is handed out again after this. */
const LEASE_SECONDS = 10;

interface HeldPing {
  answer(): void;
  cut(): void;
}

export async function startFakeMoonrelay(apiKey = 'mr_testkey'): Promise<FakeMoonrelay> {
  const startedAt = performance.now();
  const heldPings = new Set<HeldPing>();
  // When each command (by identity, so a command pushed again is a new delivery) was last handed out.
  const deliveredAt = new WeakMap<FakeCommand, number>();
  const fake: Omit<FakeMoonrelay, 'url' | 'close'> = {
    apiKey,
    pings: [],
    requests: [],
    commands: [],
    scripts: [],
    results: [],
    failNextPings: 0,
    failStatus: 503,
    retryAfter: null,
    holdPings: true,
    holdScale: 1,
    loaderSource: 'print("loaded")',
    get held() {
      return heldPings.size;
    },
    queue(...commands: FakeCommand[]) {
      fake.commands.push(...commands);
      for (const held of [...heldPings]) held.answer();
    },
    cutHeldPings() {
      for (const held of [...heldPings]) held.cut();
    },
  };

  /** The commands a ping may take now (none leased to an earlier ping), marked as handed out. */
  const take = (): FakeCommand[] => {
    const now = performance.now();
    const leaseMs = LEASE_SECONDS * fake.holdScale * 1000;
    const free = fake.commands.filter((command) => now - (deliveredAt.get(command) ?? -Infinity) >= leaseMs);
    const taken = free.slice(0, 10);
    for (const command of taken) deliveredAt.set(command, now);
    return taken;
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      fake.requests.push(`${request.method} ${url.pathname}`);
      const answer = (
        status: number,
        body: unknown,
        type = 'application/json',
        headers: Record<string, string> = {},
      ) => {
        response.writeHead(status, { 'content-type': type, ...headers });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      const refused = () => answer(401, { error: 'Invalid API key' });

      if (url.pathname.startsWith('/echo')) {
        const retryAfter = url.searchParams.get('retryAfter');
        const echo = () =>
          answer(
            Number(url.searchParams.get('status') ?? 200),
            {
              method: request.method,
              path: url.pathname,
              contentType: request.headers['content-type'] ?? null,
              authorization: request.headers.authorization ?? null,
              body: text,
            },
            'application/json',
            retryAfter === null ? {} : { 'Retry-After': retryAfter },
          );
        setTimeout(echo, Number(url.searchParams.get('delayMs') ?? 0));
        return;
      }
      if (request.method === 'POST' && url.pathname === '/api/game/ping') {
        const body = JSON.parse(text) as { key?: string; results?: FakeMoonrelay['results']; wait?: number };
        if (body.key !== fake.apiKey) return refused();
        if (fake.failNextPings > 0) {
          fake.failNextPings -= 1;
          const headers: Record<string, string> = fake.retryAfter === null ? {} : { 'Retry-After': fake.retryAfter };
          return answer(fake.failStatus, { error: 'Service unavailable' }, 'application/json', headers);
        }
        fake.pings.push({ body, at: performance.now() - startedAt });
        for (const result of body.results ?? []) {
          fake.results.push(result);
          fake.commands = fake.commands.filter((command) => command.id !== result.id);
        }
        const reply = () => {
          const taken = take();
          answer(200, { success: true, command: taken[0] ?? null, commands: taken });
        };
        const waitSeconds = typeof body.wait === 'number' ? body.wait : 0;
        const ready = take();
        if (ready.length > 0 || waitSeconds <= 0 || !fake.holdPings) {
          return answer(200, { success: true, command: ready[0] ?? null, commands: ready });
        }
        const held: HeldPing = {
          answer: () => {
            release();
            reply();
          },
          cut: () => {
            release();
            response.destroy();
          },
        };
        const timer = setTimeout(held.answer, waitSeconds * fake.holdScale * 1000);
        const release = () => {
          clearTimeout(timer);
          heldPings.delete(held);
        };
        heldPings.add(held);
        // The game went away (stopped, or its request timed out): nothing to answer.
        response.on('close', release);
        return;
      }
      if (request.method === 'GET' && url.pathname === '/api/scripts') {
        if (request.headers.authorization !== `Bearer ${fake.apiKey}`) return refused();
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
        fake.cutHeldPings();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
