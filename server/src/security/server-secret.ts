import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server secret seals API keys. Taken from APP_SECRET when set; otherwise generated once into
 * `<dataDir>/secret.key` (mode 0600) and reused, so a restart can still read the keys it sealed.
 * Losing this file means the stored keys can no longer be shown (users regenerate them).
 */
export function loadServerSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  try {
    // 'wx' fails if another process created it first; then we read theirs.
    fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return fs.readFileSync(file, 'utf8').trim();
  }
}
