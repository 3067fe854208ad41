import type { DefaultContext, ParameterizedContext } from 'koa';
import type { ApiKeyScope } from '@moonrelay/contract/api-keys';
import type { SudoMethod } from '@moonrelay/contract/sessions';
import type { Logger } from '../logger.ts';
import type { HeldPermissions } from '../security/team-permissions.ts';

/**
 * Acting on a team (docs/decisions/049-teams-as-accounts.md). `userId` of a principal is always the
 * account the request acts on: the caller's own, or the team named by the request (handlers scope
 * their data by it, unchanged). These say who acts there and what they may do; absent, the caller
 * acts on their own account and holds every permission.
 */
export interface Acting {
  /** The person acting: the session's, or the member who made the key. */
  actorId?: string;
  /** What they hold on the team `userId` names. */
  held?: HeldPermissions;
}

/**
 * Whose key it is and what it may do: the personal key holds every scope. Kept here, beside the
 * principal that carries it, because every route reads it; the API keys module fills it in.
 */
export interface KeyOwner extends Acting {
  apiKeyId: string;
  userId: string;
  keyName: string;
  scopes: readonly ApiKeyScope[];
  /** The personal key (the spec's one key per user), not a scoped one. */
  personal: boolean;
}

/** Why a key is refused: the status and the `{ error }` text to answer. */
export interface KeyRefusal {
  status: 401 | 403;
  message: string;
}

/**
 * Who is calling: a browser session, or an API key (the game client and the public API): the
 * user's personal key, which holds every scope, or one of their scoped keys.
 */
export type Principal =
  | (Acting & {
      kind: 'session';
      userId: string;
      sessionId: string;
      isAdmin: boolean;
      /**
       * An admin whose session did not pass a second factor, on a server that requires admins to:
       * judged by how the session was made, not by whether the account has a factor now.
       */
      adminNeedsTwoFactor?: boolean;
      /** Until when protected changes (sudo mode) are allowed without a new proof, in ms since the epoch. */
      sudoUntilMs?: number;
    })
  | ({ kind: 'api-key' } & KeyOwner);

/** The person behind a principal: who an audit entry, a ban or a script version names. */
export const actorOf = (principal: Principal): string => principal.actorId ?? principal.userId;

export interface AppState {
  requestId: string;
  log: Logger;
  principal?: Principal;
  /** A Bearer credential was sent but is not valid; the route decides which 401 text applies. */
  rejectedCredential?: 'session' | 'api-key';
  /** Why a refused API key was refused (unknown, expired, revoked, or not from this address). */
  keyRefusal?: KeyRefusal;
  /** What a signed-in person holds on a team (null: not a member), asked when a request names one. */
  teamAccess?: (teamId: string) => Promise<HeldPermissions | null>;
  /** How a signed-in caller can prove itself again, asked only when a protected change needs it. */
  sudoMethods?: () => Promise<SudoMethod[]>;
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
