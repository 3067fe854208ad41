import type { Middleware } from 'koa';
import { ERRORS } from '@moonrelay/contract/messages';
import { databaseUnavailable } from '../db/errors.ts';
import { redisUnavailable } from '../platform/redis/connection.ts';
import { AppError } from './app-error.ts';
import type { AppState } from './context.ts';
import { bodyErrorAnswer } from './json-body.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  message?: string;
}

const RETRY_SOON = { headers: { 'Retry-After': '1' } };

function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  // A dependency that is away: nothing of the request happened, and a retry in a second may work.
  if (databaseUnavailable(error)) return new AppError(503, ERRORS.databaseUnavailable, RETRY_SOON);
  if (redisUnavailable(error)) return new AppError(503, ERRORS.serviceUnavailable, RETRY_SOON);
  const httpError = error as HttpLikeError;
  const parserError = bodyErrorAnswer(httpError);
  if (parserError) return parserError;
  // A compressed body that does not inflate (Content-Encoding: gzip over plain bytes, say).
  // zlib's errors are coded Z_*, brotli's ERR__ERROR_* (ERR__ERROR_FORMAT_PADDING_1, say).
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^(Z_|ERR__ERROR_)/.test(code)) {
    return new AppError(400, 'Request body could not be decompressed');
  }
  // Other client errors raised by Koa or the body parser (an unsupported Content-Encoding, say)
  // carry messages written for the client.
  const status = httpError.status ?? httpError.statusCode;
  if (status && status >= 400 && status < 500) return new AppError(status, httpError.message || 'Bad request');
  return undefined;
}

/** What an error becomes: its status, `{ "error": ... }` (with the validation issues, if any), and headers such as Retry-After. */
export interface ErrorAnswer {
  status: number;
  body: { error: string; issues?: { path: string; message: string }[]; [field: string]: unknown };
  headers: Record<string, string>;
}

/**
 * The one place errors become answers, for the Koa stack and the fast routes alike. Undefined for
 * anything unexpected: the caller logs it with the request id and answers INTERNAL_ERROR (a bare 500;
 * no stack trace or internal message ever leaves the server).
 */
export function errorAnswer(error: unknown): ErrorAnswer | undefined {
  const known = toAppError(error);
  if (!known) return undefined;
  const { issues, headers = {}, fields } = known.details;
  const body = issues ? { error: known.message, issues } : { error: known.message };
  return { status: known.status, body: fields ? { ...body, ...fields } : body, headers };
}

export const INTERNAL_ERROR = { status: 500, body: { error: ERRORS.internal } } as const;

export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const known = errorAnswer(error);
      if (known) {
        ctx.status = known.status;
        ctx.body = known.body;
        ctx.set(known.headers);
        return;
      }
      ctx.state.log.error({ err: error }, 'request failed');
      ctx.status = INTERNAL_ERROR.status;
      ctx.body = INTERNAL_ERROR.body;
    }
  };
}
