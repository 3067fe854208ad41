import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from './config.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Every setting the server reads (config.ts is the only reader of process.env). */
const SETTINGS = Object.keys(EnvSchema.shape).sort();

/**
 * config.ts promises that every setting is listed in .env.example and docs/configuration.md: an operator
 * reads one of them, not the schema. A setting added to the schema without both fails here, by name.
 */
describe('the settings an operator reads about', () => {
  it('knows the settings from the schema', () => {
    expect(SETTINGS).toContain('PORT');
    expect(SETTINGS).toContain('NOTIFY_LEASE_MS');
    expect(SETTINGS.length).toBeGreaterThan(50);
  });

  it('.env.example has a line for every setting (set, or commented out with its default)', () => {
    const example = read('.env.example');
    const listed = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    expect(SETTINGS.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('docs/configuration.md has a row for every setting', () => {
    const table = read('docs/configuration.md')
      .split('\n')
      .filter((line) => line.startsWith('|'));
    const documented = new Set(table.flatMap((line) => [...line.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])));
    expect(SETTINGS.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('neither lists a setting the server does not read (besides the test suites’ own)', () => {
    const example = read('.env.example');
    const extra = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)]
      .map((match) => match[1]!)
      .filter((name) => !SETTINGS.includes(name) && name !== 'TEST_POSTGRES_URL');
    expect(extra).toEqual([]);
    const firstColumn = read('docs/configuration.md')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    expect(firstColumn.filter((name) => !SETTINGS.includes(name))).toEqual([]);
  });
});
