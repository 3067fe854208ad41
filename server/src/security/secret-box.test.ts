import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox('a server secret that is long enough!!', 'api-keys');

  it('opens what it sealed, and seals the same text differently each time', () => {
    const a = box.seal('mr_example');
    const b = box.seal('mr_example');
    expect(a).not.toBe(b);
    expect(a).not.toContain('mr_example');
    expect(box.open(a)).toBe('mr_example');
    expect(box.open(b)).toBe('mr_example');
  });

  it('refuses a tampered value', () => {
    const sealed = Buffer.from(box.seal('mr_example'), 'base64url');
    sealed[sealed.length - 1]! ^= 1;
    expect(() => box.open(sealed.toString('base64url'))).toThrow();
  });

  it('cannot be opened with another secret or for another purpose', () => {
    const sealed = box.seal('mr_example');
    expect(() => createSecretBox('another server secret, also long enough', 'api-keys').open(sealed)).toThrow();
    expect(() => createSecretBox('a server secret that is long enough!!', 'other').open(sealed)).toThrow();
  });
});
