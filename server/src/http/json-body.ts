import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { SCRIPT_CODE_MAX_BYTES } from '@moonrelay/contract/constants';
import { SCRIPT_BODY_LIMIT_BYTES } from '@moonrelay/contract/endpoints';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from './app-error.ts';

/**
 * Reading a JSON request body, for the Koa routes (endpoint.ts) and the fast routes (fast-routes.ts).
 *
 * A plain request (POST, PUT or PATCH; Content-Type exactly `application/json`; no Content-Encoding;
 * a Content-Length) is read here directly: that is every game ping and nearly every browser call, and
 * koa-body's general reader costs more than the rest of a ping (see docs/decisions/015). Anything else
 * (compressed bodies, other JSON types, chunked uploads, other content types) goes through koa-body.
 * The direct reader fails the way co-body does (the same `type` and `status` on its errors), so one
 * mapping, bodyErrorAnswer, words both.
 */

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** The Content-Type values read directly; type-is reads each of them as application/json. */
const PLAIN_JSON_TYPES = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/json; charset=UTF-8',
]);

export function isPlainJsonRequest(req: IncomingMessage): boolean {
  const { headers } = req;
  return (
    BODY_METHODS.has(req.method ?? '') &&
    PLAIN_JSON_TYPES.has(headers['content-type'] ?? '') &&
    headers['content-length'] !== undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-encoding'] === undefined
  );
}

/** An error shaped like raw-body's and co-body's (status, type, limit), so bodyErrorAnswer treats both alike. */
const bodyError = (status: number, type: string, message: string, limit?: number) =>
  Object.assign(new Error(message), { status, type, limit });

/** co-body's strict mode: only an object or an array, after optional JSON whitespace. */
const STRICT_JSON_START = /^[ \t\n\r]*[[{]/;
/** @hapi/bourne's test for a `"__proto__":` key, escapes included; only then is the parsed value walked. */
const PROTO_KEY =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

function hasProtoKey(value: object): boolean {
  const pending: object[] = [value];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (Object.hasOwn(node, '__proto__')) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') pending.push(child);
  }
  return false;
}

/** As co-body's strict JSON: an empty body is `{}`; a prototype key is refused like bourne refuses it. */
function parseStrictJson(text: string): unknown {
  if (!text) return {};
  try {
    if (!STRICT_JSON_START.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
    const value = JSON.parse(text) as object;
    if (PROTO_KEY.test(text) && hasProtoKey(value))
      throw new SyntaxError('Object contains forbidden prototype property');
    return value;
  } catch (error) {
    // co-body marks every parse failure (a stack overflow on deep nesting included) as the client's.
    throw Object.assign(error as Error, { status: 400 });
  }
}

/**
 * Reads and parses a plain JSON request (isPlainJsonRequest) within `limitBytes`. The declared length
 * is checked before reading, and Node's parser never delivers more than it, so nothing longer is held.
 * Decoding is UTF-8 with a leading byte order mark dropped, as raw-body decodes.
 */
export function readPlainJson(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  if (Number(req.headers['content-length']) > limitBytes) {
    // Left unread (as raw-body leaves it); Node discards the rest once the answer is sent.
    req.pause();
    return Promise.reject(bodyError(413, 'entity.too.large', 'request entity too large', limitBytes));
  }
  // The listeners stay until the request is dropped: once the promise is settled they change nothing,
  // and the first of 'end', 'aborted' and 'error' settles it. (Anonymous, so tsx does not name them.)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      try {
        resolve(parseStrictJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
      } catch (error) {
        reject(error);
      }
    });
    req.on('aborted', () => reject(bodyError(400, 'request.aborted', 'request aborted')));
    req.on('error', reject);
  });
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  /** raw-body's: the byte limit a too-large body went over. */
  limit?: number;
}

/**
 * A too-large body's answer names the limit, so a retry is not the next step: on the routes that
 * carry a script's code, the code's own limit too, as that is the part a person can shorten.
 */
const tooLarge = (limit: number | undefined) =>
  ERRORS.bodyTooLarge(limit, limit === SCRIPT_BODY_LIMIT_BYTES ? SCRIPT_CODE_MAX_BYTES : undefined);

/** Our wording for a body that could not be read or parsed, by either reader; undefined for other errors. */
export function bodyErrorAnswer(error: HttpLikeError): AppError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError(413, tooLarge(error.limit));
    case 'entity.parse.failed':
      return new AppError(400, ERRORS.malformedJson);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, error.message ?? ERRORS.bodyNotJson);
    case 'request.aborted':
    case 'request.size.invalid':
      return new AppError(400, error.message ?? 'Request body could not be read');
    default:
      break;
  }
  // co-body reports unparsable JSON as a SyntaxError with status 400 and no type.
  if ((error.status ?? error.statusCode) === 400 && error instanceof SyntaxError) {
    return new AppError(
      400,
      /only supports object and array/.test(error.message) ? ERRORS.bodyNotObject : ERRORS.malformedJson,
    );
  }
  return undefined;
}

/** Refuses bodies that are not JSON instead of silently reading them as empty. */
const requireJson: Middleware = async (ctx, next) => {
  if (ctx.request.length && !ctx.is('application/json')) throw new AppError(415, ERRORS.bodyNotJson);
  await next();
};

const libraryReaders = new Map<number, Middleware>();
function libraryReader(limit: number): Middleware {
  const cached = libraryReaders.get(limit);
  if (cached) return cached;
  // koa-body is typed against an older @types/koa; the middleware contract is the same.
  const parser = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
  }) as unknown as Middleware;
  libraryReaders.set(limit, parser);
  return parser;
}

/** The Koa step that reads a route's JSON body into `ctx.request.body`, within `limit` bytes. */
export function jsonBody(limit: number): Middleware {
  const library = libraryReader(limit);
  return async (ctx, next) => {
    if (!isPlainJsonRequest(ctx.req)) return requireJson(ctx, () => library(ctx, next));
    (ctx.request as { body?: unknown }).body = await readPlainJson(ctx.req, limit);
    await next();
  };
}
