import { create } from 'zustand';
import type { User } from '@moonrelay/contract/auth';

/**
 * The session (spec sections 3 and 4): the token and the user, each in its own localStorage entry.
 * Without a token only the sign-in screen is reachable; the current user is fetched only with one.
 */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

function readStoredUser(): User | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as User) : null;
  } catch {
    // A corrupted entry is the same as none: the user is fetched again.
    return null;
  }
}

interface SessionState {
  token: string | null;
  user: User | null;
  /**
   * Set when the session ended elsewhere (signed out from another device, a password change,
   * expiry): the sign-in screen says so until the next sign-in or a dismissal.
   */
  endedNotice: string | null;
  signIn(token: string, user: User): void;
  setUser(user: User): void;
  /**
   * Forgets token and user (logout, account deletion, or a token the server no longer accepts);
   * `endedNotice` when the user did not ask for it here.
   */
  signOut(endedNotice?: string): void;
  dismissEndedNotice(): void;
}

export const useSession = create<SessionState>((set) => ({
  token: localStorage.getItem(TOKEN_KEY),
  user: readStoredUser(),
  endedNotice: null,
  signIn(token, user) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
    set({ token, user, endedNotice: null });
  },
  setUser(user) {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
    set({ user });
  },
  signOut(endedNotice) {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    set({ token: null, user: null, endedNotice: endedNotice ?? null });
  },
  dismissEndedNotice() {
    set({ endedNotice: null });
  },
}));
