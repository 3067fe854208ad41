import { ApiError } from '../../../lib/api-client.ts';
import { withReason } from './editor-form.ts';

/** Answers that the same request may get past later: a timeout, a rate limit, the server failing. */
const mayPassLater = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * A failed save's toast text. The spec's sentence ("... Please try again.") suits a failure that
 * may pass later, with the server's reason in parentheses. A refusal of the request itself (too
 * large, a name over its maximum) is never passed by retrying: the sentence without "Please try
 * again", then the server's reason, which names the limit.
 */
export function saveFailureText(failure: string, error: unknown): string {
  const reason = error instanceof ApiError ? error.serverMessage : undefined;
  if (!(error instanceof ApiError) || !reason || mayPassLater(error.status)) return withReason(failure, reason);
  return `${failure.replace(/ Please try again\.$/, '')} ${reason}`;
}
