import argon2 from 'argon2';

/** argon2id with m=19 MiB, t=2, p=1 (the OWASP baseline). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash is a wrong password, not a server error.
    return false;
  }
}

let decoyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash so that "no such user" costs the same time as "wrong
 * password": the login answer must not reveal which accounts exist.
 */
export async function spendPasswordCheck(password: string): Promise<false> {
  decoyHash ??= hashPassword('decoy password that matches nothing');
  await verifyPassword(await decoyHash, password);
  return false;
}
