import type { DefaultContext, ParameterizedContext } from 'koa';
import type { Logger } from '../logger.ts';
import type { KeyOwner, KeyRefusal } from '../modules/api-keys/api-keys.service.ts';

/**
 * Who is calling: a browser session, or an API key (the game client and the public API): the
 * user's personal key, which holds every scope, or one of their scoped keys.
 */
export type Principal =
  | {
      kind: 'session';
      userId: string;
      sessionId: string;
      isAdmin: boolean;
      /** An admin without a second factor on a server that requires admins to have one. */
      adminNeedsTwoFactor?: boolean;
    }
  | ({ kind: 'api-key' } & KeyOwner);

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** A Bearer credential was sent but is not valid; the route decides which 401 text applies. */
  rejectedCredential?: 'session' | 'api-key';
  /** Why a refused API key was refused (unknown, expired, revoked, or not from this address). */
  keyRefusal?: KeyRefusal;
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
