import crypto from 'node:crypto';

/**
 * Moonrelay-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (Stripe's scheme).
 * The receiver recomputes it with its secret and refuses a timestamp it has seen or that is old,
 * so a captured delivery cannot be replayed.
 */
export function signWebhook(secret: string, body: string, unixSeconds: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Checks a signature header against the body (used by tests and documented for receivers). */
export function verifyWebhook(secret: string, body: string, header: string): { ok: boolean; timestamp: number } {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !parts.v1) return { ok: false, timestamp: NaN };
  const expected = Buffer.from(signWebhook(secret, body, timestamp).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return { ok: given.length === expected.length && crypto.timingSafeEqual(given, expected), timestamp };
}
