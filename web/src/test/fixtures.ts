import type { ExecutionResponse } from '@moonrelay/contract/executions';
import { ERRORS } from '@moonrelay/contract/messages';
import type { User } from '@moonrelay/contract/auth';
import type { Script } from '@moonrelay/contract/scripts';
import { useSession } from '../lib/session.ts';

/** A user as the API answers it; tests override what they care about. */
export function testUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    name: 'Ada',
    username: 'ada',
    email: 'ada@example.com',
    googleId: null,
    apiKey: 'mr_x',
    createdAt: '2026-01-01T00:00:00.000Z',
    isAdmin: false,
    ...overrides,
  };
}

/** A stored script as GET /api/scripts answers it; tests override what they care about. */
export function testScript(overrides: Partial<Script> = {}): Script {
  return {
    id: 's1',
    name: 'Script',
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
    updatedAt: '2026-01-01T00:00:00.000Z',
    version: 1,
    lastChangedByKey: null,
    ...overrides,
  };
}

/** Stores a session, as a signed-in browser has one (queries run only with a token). */
export function signInAs(user: User = testUser()): void {
  useSession.getState().signIn('mrs_x', user);
}

/** The execute calls' answer when no game is connected (spec section 8: 'Game Not Connected'). */
export function notConnectedAnswer(executionId = 'e1'): ExecutionResponse {
  return {
    success: false,
    queued: false,
    gameConnected: false,
    output: '',
    error: ERRORS.gameNotConnected,
    instructions: ERRORS.gameNotConnectedInstructions,
    target: 'game',
    executionId,
    durationMs: 0,
  };
}
