import crypto from 'node:crypto';

/** Lookups by secret (session tokens, API keys) go through this hash; the secrets are never stored. */
export const sha256Hex = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
