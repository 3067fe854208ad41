import type { Middleware } from 'koa';
import { ERRORS } from '@moonrelay/contract/messages';
import { AppError } from './app-error.ts';
import type { AppState } from './context.ts';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/** Maps the body parser's errors (raw-body / co-body) to our own wording. */
function fromParserError(error: HttpLikeError): AppError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError(413, ERRORS.bodyTooLarge);
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

function toAppError(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const httpError = error as HttpLikeError;
  const parserError = fromParserError(httpError);
  if (parserError) return parserError;
  // A compressed body that does not inflate (Content-Encoding: gzip over plain bytes, say).
  if (typeof (error as { code?: unknown }).code === 'string' && /^Z_/.test((error as { code: string }).code)) {
    return new AppError(400, 'Request body could not be decompressed');
  }
  // Other client errors raised by Koa or the body parser (an unsupported Content-Encoding, say)
  // carry messages written for the client.
  const status = httpError.status ?? httpError.statusCode;
  if (status && status >= 400 && status < 500) return new AppError(status, httpError.message || 'Bad request');
  return undefined;
}

/**
 * The one place errors become answers: `{ "error": "..." }` with the right status. Anything
 * unexpected is logged with the request id and answered as a bare 500; no stack trace or internal
 * message ever leaves the server.
 */
export function errorHandler(): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const known = toAppError(error);
      if (known) {
        ctx.status = known.status;
        ctx.body = known.details.issues
          ? { error: known.message, issues: known.details.issues }
          : { error: known.message };
        for (const [name, value] of Object.entries(known.details.headers ?? {})) ctx.set(name, value);
        return;
      }
      ctx.state.log.error({ err: error }, 'request failed');
      ctx.status = 500;
      ctx.body = { error: ERRORS.internal };
    }
  };
}
