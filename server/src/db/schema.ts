/**
 * Table types as Kysely sees them (camelCase; the CamelCasePlugin maps to snake_case columns).
 * Booleans are stored as 0/1 integers and times as ISO 8601 UTC text on both engines, so one set of
 * migrations and one set of queries serve SQLite and PostgreSQL alike (docs/decisions/002).
 */

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  username: string;
  /** Lower-cased username: usernames are unique regardless of case. */
  usernameKey: string;
  name: string;
  passwordHash: string | null;
  googleId: string | null;
  isAdmin: Flag;
  createdAt: string;
  updatedAt: string;
}

export interface SessionsTable {
  id: string;
  userId: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  tokenHash: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
}

export interface ApiKeysTable {
  id: string;
  userId: string;
  /** SHA-256 of the key, for lookup. */
  keyHash: string;
  /** AES-256-GCM sealed copy, so the screens can show the key again. */
  keyCiphertext: string;
  createdAt: string;
}

export interface ScriptsTable {
  id: string;
  userId: string;
  name: string;
  description: string | null;
  code: string;
  isAutoExecute: Flag;
  isPublic: Flag;
  executionCount: number;
  gameId: string | null;
  gameName: string | null;
  gameImageUrl: string | null;
  /** JSON text of the autoExecuteGames map. */
  autoExecuteGames: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ExecutionsTable {
  id: string;
  userId: string;
  scriptId: string | null;
  target: 'game' | 'sandbox';
  /** succeeded | failed | not_connected */
  status: string;
  /** The first 500 characters of what ran, so the history says what it was. */
  codeExcerpt: string;
  output: string;
  error: string | null;
  limitHit: string | null;
  durationMs: number;
  createdAt: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  apiKeys: ApiKeysTable;
  scripts: ScriptsTable;
  executions: ExecutionsTable;
}
