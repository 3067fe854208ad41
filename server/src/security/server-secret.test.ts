import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerSecret } from './server-secret.ts';

describe('server secret', () => {
  it('prefers the configured secret and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-secret-'));
    expect(loadServerSecret('configured-secret-configured-secret', dir)).toBe('configured-secret-configured-secret');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('generates one into the data folder, private to the owner, and reuses it', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-secret-')), 'nested');
    const first = loadServerSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadServerSecret(undefined, dir)).toBe(first);
  });
});
