/** Benchmark accounts, registered through the API like anyone else's. */
import { performance } from 'node:perf_hooks';
import type { AuthResponse } from '@moonrelay/contract/auth';
import { call } from './processes.ts';

export const PASSWORD = 'bench-password-123';
/** argon2 makes each registration slow: this many at a time. */
const REGISTER_CONCURRENCY = 16;

export interface Account {
  /** Session token (Authorization: Bearer) for the dashboard's calls. */
  token: string;
  /** API key (mr_...) the user's game servers ping with. */
  key: string;
  userId: string;
}

/** Registers `count` users through the API, REGISTER_CONCURRENCY at a time. */
export async function registerUsers(
  base: string,
  prefix: string,
  count: number,
): Promise<{ accounts: Account[]; seconds: number }> {
  const started = performance.now();
  const accounts: Account[] = new Array<Account>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { token, user } = await call<AuthResponse>(base, 'POST', '/api/auth/register', {
        email: `${prefix}-${i}@example.com`,
        username: `${prefix}-${i}`,
        name: `${prefix} ${i}`,
        password: PASSWORD,
      });
      if (!user.apiKey) throw new Error(`user ${user.username} has no API key`);
      accounts[i] = { token, key: user.apiKey, userId: user.id };
    }
  };
  await Promise.all(Array.from({ length: Math.min(REGISTER_CONCURRENCY, count) }, worker));
  return { accounts, seconds: (performance.now() - started) / 1000 };
}
