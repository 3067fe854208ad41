import crypto from 'node:crypto';

/**
 * AES-256-GCM sealing of values the screens must show again (API keys). The key is derived from the
 * server secret with HKDF, so the same secret can feed other purposes under other labels.
 * Sealed form: base64url(iv[12] | tag[16] | ciphertext).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(serverSecret: string, purpose: string): SecretBox {
  const key = Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'moonrelay', purpose, 32));
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      const raw = Buffer.from(sealed, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
