import type { DefaultContext, ParameterizedContext } from 'koa';
import type { Logger } from '../logger.ts';

/** Who is calling: a browser session, or the user's API key (the game client and the public API). */
export type Principal =
  | { kind: 'session'; userId: string; sessionId: string; isAdmin: boolean }
  | { kind: 'api-key'; userId: string; apiKeyId: string };

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** A Bearer credential was sent but is not valid; the route decides which 401 text applies. */
  rejectedCredential?: 'session' | 'api-key';
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
