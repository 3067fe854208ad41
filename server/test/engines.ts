import crypto from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import type { DatabaseConfig } from '../src/config.ts';

/**
 * The database engines a suite runs against: SQLite always; PostgreSQL when TEST_POSTGRES_URL is
 * set. In CI PostgreSQL is required, so a missing variable fails the run instead of skipping.
 *
 * Which suites run on both (docs/contributing.md, 'Where a test lives'): repositories, migrations,
 * races, leases and conditional updates, and anything with engine-specific SQL use
 * `describeEachEngine`; service and route behaviour the engine does not change runs once, on
 * SQLite, with `describeOnSQLite`.
 */
export interface Engine {
  name: 'SQLite' | 'PostgreSQL';
  /** A fresh, empty database for one test file; `drop` removes it afterwards. */
  create(dir: string): Promise<{ config: DatabaseConfig; drop(): Promise<void> }>;
}

const postgresUrl = process.env.TEST_POSTGRES_URL;
if (!postgresUrl && process.env.CI === 'true') {
  throw new Error('TEST_POSTGRES_URL must be set in CI: the data-layer and API suites run on PostgreSQL too.');
}

const sqlite: Engine = {
  name: 'SQLite',
  async create(dir) {
    return { config: { kind: 'sqlite', file: `${dir}/moonrelay.db` }, drop: async () => {} };
  },
};

/** Each test file gets its own database on the server named by TEST_POSTGRES_URL, dropped after. */
const postgres = (adminUrl: string): Engine => ({
  name: 'PostgreSQL',
  async create() {
    const name = `moonrelay_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      config: { kind: 'postgres', url: url.toString() },
      async drop() {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  },
});

export const engines: Engine[] = postgresUrl ? [sqlite, postgres(postgresUrl)] : [sqlite];

/**
 * Runs the suite once, on SQLite: for behaviour above the data layer that no engine changes (the
 * game script's protocol, the simulator, notifications' wording, the catalogue proxy...). What it
 * stores is checked on PostgreSQL by the repository, race and lease suites that use
 * `describeEachEngine`.
 */
export function describeOnSQLite(title: string, suite: (engine: Engine) => void): void {
  describe(`${title} [SQLite]`, () => suite(sqlite));
}

/** Runs the suite once per engine; without PostgreSQL it reports that variant as skipped and why. */
export function describeEachEngine(title: string, suite: (engine: Engine) => void): void {
  for (const engine of engines) describe(`${title} [${engine.name}]`, () => suite(engine));
  if (!postgresUrl) {
    describe.skip(`${title} [PostgreSQL: set TEST_POSTGRES_URL=postgres://... to run]`, () => {
      it('runs the same suite on PostgreSQL', () => {});
    });
  }
}
