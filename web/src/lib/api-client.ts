import type { SudoMethod, SudoRequired } from '@moonrelay/contract/sessions';
import type { TEAM_HEADER as TeamHeader } from '@moonrelay/contract/teams';
import { SUDO_CANCELLED_MESSAGE } from './notices.ts';
import { useSession } from './session.ts';
import { proofCount, waitForSudo } from './sudo.ts';
import { teamHeaderValue } from './team.ts';

// Plain values, not the contract's schemas: this module is in the sign-in screen's first load, which
// stays without zod (docs/decisions/041). The types keep them in step with the contract.
const SUDO_REQUIRED: SudoRequired['code'] = 'sudo_required';
const SUDO_METHODS: readonly string[] = ['password', 'code', 'passkey', 'sign-in'] satisfies SudoMethod[];
const TEAM_HEADER: typeof TeamHeader = 'Moonrelay-Team';

/**
 * The one HTTP client (spec section 7): JSON bodies, the stored token as Bearer, credentials
 * included. A non-OK answer raises an ApiError whose message is "status: body text" (section 8).
 * No toasts or redirects here: the query cache and the screens decide what a failure means. The one
 * answer it acts on is a protected change's 403 `sudo_required`: the call waits for the user to
 * confirm it is them (lib/sudo.ts) and is sent again, so no screen needs code of its own for it.
 * A signed-in call names the team the dashboard acts on (lib/team.ts), unless that is the person's
 * own account; the account's own endpoints ignore the header, so every call can carry it.
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
    const { error } = this.body;
    return typeof error === 'string' ? error : undefined;
  }

  /** A 403 asking for a proof from the last 10 minutes: the ways this account can give one. */
  get sudoMethods(): SudoMethod[] | undefined {
    if (this.status !== 403) return undefined;
    const { code, methods } = this.body;
    if (code !== SUDO_REQUIRED || !Array.isArray(methods)) return undefined;
    return methods.filter((method): method is SudoMethod => SUDO_METHODS.includes(method as string));
  }

  private get body(): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      // Not JSON (a proxy's HTML page, say): no message or code to read.
      return {};
    }
  }
}

/**
 * A protected change whose confirmation the user cancelled. A 403 like the server's, with a
 * message of its own, so every screen's `messageOf` tells what happened.
 */
export class SudoCancelledError extends ApiError {
  constructor() {
    super(403, JSON.stringify({ error: SUDO_CANCELLED_MESSAGE }));
    this.name = 'SudoCancelledError';
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

/** Logout is under way in this tab: the session's end is its doing, not news to report. */
export const isSigningOut = (): boolean => signingOut;

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
  options: { idempotent?: boolean; logout?: boolean; afterProof?: boolean } = {},
): Promise<T> {
  const token = useSession.getState().token;
  const proofsBefore = proofCount();
  if (token && signingOut && !options.logout) throw new DOMException('Signing out', 'AbortError');
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const team = token ? teamHeaderValue() : null;
  if (team) headers[TEAM_HEADER] = team;
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
    const error = new ApiError(response.status, text || response.statusText);
    const methods = token ? error.sudoMethods : undefined;
    // Asked once per call: a second refusal after a proof is the server's to explain.
    if (methods && !options.afterProof) {
      // A proof made while this call was out covers it too (several calls met the 403 together).
      if (proofCount() === proofsBefore) await waitForSudo(methods, () => new SudoCancelledError());
      // The 403 ran nothing, so sending the call again (with a new Idempotency-Key) repeats nothing.
      return apiRequest<T>(method, path, body, { ...options, afterProof: true });
    }
    throw error;
  }
  return (await response.json()) as T;
}

/** The server's message for a failed call, or the fallback text of the spec's toast. */
export function messageOf(error: unknown, fallback: string): string {
  return (error instanceof ApiError && error.serverMessage) || fallback;
}

/**
 * The spec's fixed text for a failed action, unless the user cancelled confirming it is them: then
 * "nothing was changed", which says what happened and that trying again will ask again.
 */
export function cancelledOr(error: unknown, fallback: string): string {
  return error instanceof SudoCancelledError ? SUDO_CANCELLED_MESSAGE : fallback;
}
