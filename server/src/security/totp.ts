import crypto from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { sha256Hex } from './digest.ts';

/**
 * Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30-second steps, as every authenticator
 * app reads them) and one-time recovery codes.
 */
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted too: phone clocks drift. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export const newTotpSecret = (): string => generateSecret({ length: 20 });

export const totpUri = (secret: string, account: string, issuer: string): string =>
  generateURI({ issuer, label: account, secret, period: TOTP_PERIOD_SECONDS });

/** The step the code belongs to if it is right for the secret now, else null. */
export async function totpStepOf(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret, token: code, epochTolerance: TOLERANCE_SECONDS });
  // A TOTP verification names the step it matched (an HOTP one, which this never asks for, would not).
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

// Ten characters of Crockford-like base32 (no I, L, O, U): 50 bits, typed as xxxxx-xxxxx.
const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (byte) => RECOVERY_ALPHABET[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** A recovery code as typed (any case, with or without the dash or spaces) in its stored form. */
export function normalizeRecoveryCode(typed: string): string | null {
  const chars = typed.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[0-9A-Z]{10}$/.test(chars)) return null;
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export const hashRecoveryCode = (normalized: string): string => sha256Hex(`recovery:${normalized}`);
