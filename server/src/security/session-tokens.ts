import crypto from 'node:crypto';

/** Session tokens: 256 bits from the CSPRNG, base64url, with a prefix that says what they are. */
const PREFIX = 'mrs_';

export const newSessionToken = (): string => PREFIX + crypto.randomBytes(32).toString('base64url');

export const looksLikeSessionToken = (token: string): boolean => /^mrs_[A-Za-z0-9_-]{43}$/.test(token);
