import type http from 'node:http';
import type Koa from 'koa';
import type { Logger } from '../logger.ts';
import type { AppState, Principal } from './context.ts';
import { errorAnswer, INTERNAL_ERROR } from './error-handler.ts';
import type { AnswerHeaders } from './rate-limit.ts';
import { logRequest, requestIdFor } from './request-log.ts';
import { recordRequest, type RequestRecorder } from './request-metrics.ts';
import { compressedText } from './compress-answers.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

/**
 * The fast routes: the game's ping, tens of thousands a second across a fleet, answered without the
 * Koa stack (docs/decisions/015-game-ping-route.md). A fast route is a contract endpoint served with
 * the same pieces the Koa stack uses (endpoint.ts: fastEndpoint), and the answer gets what every Koa
 * answer gets: X-Request-Id, the security headers, `{ "error": ... }` through errorAnswer (with the
 * error's own headers, Retry-After say), request metrics, the /metrics count, and a log line.
 */
export interface FastRoute {
  method: string;
  /** Matched against the whole request target, so a request with a query string goes to the Koa stack. */
  path: string;
  /** Whether this request can be served here; any other goes to the Koa stack. */
  accepts(req: http.IncomingMessage): boolean;
  /** The answer's body (status 200), or throws what errorAnswer turns into the error answer. */
  answer(exchange: FastExchange): Promise<unknown>;
}

/** One request on a fast route: the request, where the answer's headers go, and who calls once that is known. */
export interface FastExchange extends AnswerHeaders {
  readonly req: http.IncomingMessage;
  principal?: Principal;
  /** The caller's address as Koa reads it (X-Forwarded-For behind a trusted proxy). */
  ip(): string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The exchange of one request. A class, not an object of closures: the server runs under tsx, whose
 * build names every closure made per request (a property definition each), a cost the ping notices.
 */
class Exchange implements FastExchange {
  principal?: Principal;
  /** In the order the Koa stack sets them: request id, security headers, then what the route adds. */
  readonly headers: Record<string, string>;

  constructor(
    readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly koa: Koa<AppState>,
    requestId: string,
  ) {
    // As every /api/ answer of the Koa stack (security-headers.ts): nothing of it is cached.
    this.headers = { 'X-Request-Id': requestId, ...SECURITY_HEADERS, 'Cache-Control': 'no-store' };
  }

  set(fields: Record<string, string>): void {
    Object.assign(this.headers, fields);
  }

  ip(): string {
    return this.koa.createContext(this.req, this.res).ip;
  }
}

export interface RequestListenerDeps {
  /** Serves every request no fast route takes; its middleware must all be in place. */
  koa: Koa<AppState>;
  routes: FastRoute[];
  logger: Logger;
  recorder: RequestRecorder;
  /** The /metrics count of answers by status class (modules/operations/instrument.ts). */
  countAnswer(status: number): void;
}

/** The HTTP server's request listener: the fast routes first, the Koa stack for everything else. */
export function createRequestListener(deps: RequestListenerDeps): http.RequestListener {
  const { koa, logger, recorder, countAnswer } = deps;
  const koaListener = koa.callback();
  const byPath = new Map(deps.routes.map((route) => [route.path, route]));

  async function serve(route: FastRoute, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = requestIdFor(typeof incomingId === 'string' ? incomingId : '');
    const exchange = new Exchange(req, res, koa, requestId);
    const { headers } = exchange;
    let status = 200;
    let body: unknown;
    try {
      body = await route.answer(exchange);
      headers['Content-Type'] = JSON_TYPE;
    } catch (error) {
      const known = errorAnswer(error);
      if (!known) logger.error({ requestId, err: error }, 'request failed');
      ({ status, body } = known ?? INTERNAL_ERROR);
      headers['Content-Type'] = JSON_TYPE;
      Object.assign(headers, known?.headers);
    }
    countAnswer(status);
    recordRequest(recorder, exchange.principal, `${route.method} ${route.path}`, startedAt, status);
    logRequest(logger, { requestId, method: route.method, path: route.path, status }, startedAt);
    // As Koa answers: nothing more for a connection the client has closed (a long-poll given up).
    if (res.writableEnded || (res.socket && !res.socket.writable)) {
      res.end();
      return;
    }
    const json = JSON.stringify(body);
    // As the Koa stack answers (compress-answers.ts): a ping carrying scripts can be long.
    headers['Vary'] = 'Accept-Encoding';
    const compressed = await compressedText(json, req.headers['accept-encoding']);
    if (compressed) headers['Content-Encoding'] = compressed.encoding;
    headers['Content-Length'] = String(compressed ? compressed.bytes.length : Buffer.byteLength(json));
    res.writeHead(status, headers);
    res.end(compressed ? compressed.bytes : json);
  }

  return (req, res) => {
    const route = byPath.get(req.url ?? '');
    if (!route || route.method !== req.method || !route.accepts(req)) {
      void koaListener(req, res);
      return;
    }
    serve(route, req, res).catch((error: unknown) => {
      // Only writing the answer can fail here (the route's own errors are answered above).
      logger.error({ err: error }, 'response failed');
      res.destroy();
    });
  };
}
