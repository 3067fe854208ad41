import type { Script } from '@moonrelay/contract/scripts';
import type { User } from '@moonrelay/contract/auth';
import { useSession } from '../../../lib/session.ts';

/** Test helpers: a stored script with sensible defaults, and a signed-in session (the list needs a token). */
export function makeScript(fields: Partial<Script> & Pick<Script, 'id' | 'name'>): Script {
  return {
    description: null,
    code: 'print("hello")',
    isAutoExecute: false,
    isPublic: false,
    executionCount: 0,
    userId: 'u1',
    gameId: null,
    gameName: null,
    gameImageUrl: null,
    autoExecuteGames: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: new Date(Date.now() - 3 * 3600 * 1000).toISOString(),
    ...fields,
  };
}

const user: User = {
  id: 'u1',
  name: 'Ada',
  username: 'ada',
  email: 'ada@example.com',
  googleId: null,
  apiKey: 'mr_x',
  createdAt: '2026-01-01T00:00:00.000Z',
  isAdmin: false,
};

export function signIn(): void {
  useSession.getState().signIn('mrs_x', user);
}
