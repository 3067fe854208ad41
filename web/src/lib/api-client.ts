import { useSession } from './session.ts';

/**
 * The one HTTP client (spec section 7): JSON bodies, the stored token as Bearer, credentials
 * included. A non-OK answer raises an ApiError whose message is "status: body text" (section 8).
 * No toasts or redirects here: the query cache and the screens decide what a failure means.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
  ) {
    super(`${status}: ${bodyText}`);
    this.name = 'ApiError';
  }

  /** The server's `{ "error": "..." }` text, when the body is one. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.bodyText) as { error?: unknown };
      return typeof parsed.error === 'string' ? parsed.error : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Requests that carry the token are tied to this controller, so logout can drop those still out:
 * answered after the server revoked the token, each would come back a 401 (and a console error).
 */
let signedInRequests = new AbortController();
/** Set while logout is under way: nothing else is sent with the token being revoked. */
let signingOut = false;

/**
 * Logout's first step: requests still out with the token are aborted, and until `signedOut()`
 * only the logout call itself goes out with it.
 */
export function dropSignedInRequests(): void {
  signingOut = true;
  signedInRequests.abort();
  signedInRequests = new AbortController();
}

/** Logout is over (the token is forgotten): requests go out again. */
export function signedOut(): void {
  signingOut = false;
}

/**
 * `idempotent`: the call enqueues work (a command, a run, a mass execution); it carries a new
 * Idempotency-Key, one per user action, so a repeat of the request the server already took runs
 * nothing twice (docs/operations.md).
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { idempotent?: boolean; logout?: boolean } = {},
): Promise<T> {
  const token = useSession.getState().token;
  if (token && signingOut && !options.logout) throw new DOMException('Signing out', 'AbortError');
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotent) headers['Idempotency-Key'] = crypto.randomUUID();
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'include',
    ...(token && !options.logout ? { signal: signedInRequests.signal } : {}),
  });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiError(response.status, text || response.statusText);
  }
  return (await response.json()) as T;
}

/** The server's message for a failed call, or the fallback text of the spec's toast. */
export function messageOf(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}
