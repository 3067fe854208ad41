import type { Migration, MigrationProvider } from 'kysely';
import * as accountsAndScripts from './001-accounts-and-scripts.ts';
import * as executions from './002-executions.ts';

/**
 * Migrations are listed in code (not read from a folder) so they work the same under tsx, vitest
 * and any bundler. Names sort in the order they must run; a new migration is a new line here.
 */
const migrations: Record<string, Migration> = {
  '001-accounts-and-scripts': accountsAndScripts,
  '002-executions': executions,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
