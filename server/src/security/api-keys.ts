import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { API_KEY_PREFIX } from '@moonrelay/contract/constants';

/**
 * API key format: `mr_` + 22 base62 characters of CSPRNG output (130.9 bits) + a 6-character base62
 * CRC32 of everything before it. The checksum lets the server refuse a mistyped or truncated key
 * without touching the database, and lets secret scanners recognise a real key.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 22;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksum = (body: string): string => base62(zlib.crc32(body), CHECKSUM_LENGTH);

export function newApiKey(): string {
  let random = '';
  // randomInt draws without modulo bias.
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[crypto.randomInt(62)];
  const body = API_KEY_PREFIX + random;
  return body + checksum(body);
}

export const looksLikeApiKey = (value: string): boolean => value.startsWith(API_KEY_PREFIX);

/** True when the key has the right shape and its checksum matches. */
export function isWellFormedApiKey(value: string): boolean {
  if (!KEY_PATTERN.test(value)) return false;
  const body = value.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === value.slice(-CHECKSUM_LENGTH);
}

/** A key as lists show it: its first 8 characters, an ellipsis, its last 4. */
export const maskApiKey = (key: string): string => `${key.slice(0, 8)}…${key.slice(-4)}`;
