import type { Db } from '../../db/database.ts';
import { nowIso } from '../../db/time.ts';
import type { Logger } from '../../logger.ts';
import type { RaisedEvent } from './notifier.ts';

/**
 * Remembers the addresses each user signs in from and raises "sign-in from a new address" for one
 * not seen before. The first address an account signs in from is remembered silently (there is
 * nothing to compare it with). Runs after the sign-in has answered; never delays or fails it.
 */
export function createSignInAddresses(deps: {
  db: Db;
  logger: Logger;
  raise: (userId: string, build: () => RaisedEvent) => void;
}) {
  const { db, logger, raise } = deps;

  async function note(userId: string, address: string): Promise<void> {
    const known = await db.selectFrom('signInAddresses').select('address').where('userId', '=', userId).execute();
    if (known.some((row) => row.address === address)) return;
    await db
      .insertInto('signInAddresses')
      .values({ userId, address, firstSeenAt: nowIso() })
      .onConflict((oc) => oc.columns(['userId', 'address']).doNothing())
      .execute();
    // The first address of an account is remembered silently: there is nothing to compare it with.
    if (known.length === 0) return;
    raise(userId, () => ({
      kind: 'sign-in.new-address',
      title: 'Sign-in from a new address',
      description: `Your account was signed in to from ${address}, an address it had not been signed in from before. If this was not you, change your password and sign out everywhere.`,
      path: '/settings',
      fields: [{ name: 'Address', value: address }],
      data: { address },
    }));
  }

  return {
    /** Called with every successful sign-in. */
    signedIn(userId: string, address: string): void {
      note(userId, address).catch((error: unknown) =>
        logger.warn({ err: error }, 'notifications: noting a sign-in failed'),
      );
    },
    note,
  };
}
