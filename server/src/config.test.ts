import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('defaults to port 3000 and SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data/moonrelay.db') });
    expect(config.rateLimit).toEqual({ generalPerMinute: 100, executionPerMinute: 50, gamePingPerMinute: 300 });
  });

  it('chooses PostgreSQL for a postgres:// DATABASE_URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@localhost/db' });
  });

  it('reads the admin list case-insensitively', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' A@x.io, b@Y.io ,' }).adminEmails).toEqual(['a@x.io', 'b@y.io']);
  });

  it('offers Google sign-in only with a client id and secret; any issuer may replace Google', () => {
    expect(loadConfig({}).oidc).toEqual({
      issuerUrl: 'https://accounts.google.com',
      providerName: 'Google',
      client: undefined,
    });
    // An empty value in an env file means unset.
    expect(loadConfig({ OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' }).oidc.client).toBeUndefined();
    expect(
      loadConfig({
        OIDC_ISSUER_URL: 'https://sso.example.com/realms/moon/',
        OIDC_CLIENT_ID: ' moonrelay ',
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_PROVIDER_NAME: 'Acme SSO',
      }).oidc,
    ).toEqual({
      issuerUrl: 'https://sso.example.com/realms/moon',
      providerName: 'Acme SSO',
      client: { id: 'moonrelay', secret: 's3cret' },
    });
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'moonrelay' })).toThrow(/OIDC_CLIENT_SECRET: required/);
    expect(() => loadConfig({ OIDC_CLIENT_SECRET: 's3cret' })).toThrow(/OIDC_CLIENT_ID: required/);
    expect(() => loadConfig({ OIDC_ISSUER_URL: 'accounts.google.com' })).toThrow(/OIDC_ISSUER_URL/);
  });

  it('waits 8 s for a game run by default; GAME_EXECUTION_WAIT_MS sets 0 to 30000 ms', () => {
    expect(loadConfig({}).gameExecutionWaitMs).toBe(8_000);
    expect(loadConfig({ GAME_EXECUTION_WAIT_MS: '0' }).gameExecutionWaitMs).toBe(0);
    expect(loadConfig({ GAME_EXECUTION_WAIT_MS: '30000' }).gameExecutionWaitMs).toBe(30_000);
    for (const bad of ['-1', '30001', '1.5', 'soon']) {
      expect(() => loadConfig({ GAME_EXECUTION_WAIT_MS: bad }), bad).toThrow(/GAME_EXECUTION_WAIT_MS/);
    }
  });

  it('keeps loader URLs working 30 days by default; LOADER_TOKEN_DAYS sets 1 to 3650 days', () => {
    expect(loadConfig({}).loaderTokenDays).toBe(30);
    expect(loadConfig({ LOADER_TOKEN_DAYS: '1' }).loaderTokenDays).toBe(1);
    expect(loadConfig({ LOADER_TOKEN_DAYS: '3650' }).loaderTokenDays).toBe(3650);
    for (const bad of ['0', '-1', '3651', '1.5', 'forever', '']) {
      expect(() => loadConfig({ LOADER_TOKEN_DAYS: bad }), bad).toThrow(/LOADER_TOKEN_DAYS/);
    }
  });

  it('lets schedules run every 60 s at most by default; SCHEDULE_MIN_INTERVAL_SECONDS lowers it to 1', () => {
    expect(loadConfig({}).scheduleMinIntervalSeconds).toBe(60);
    expect(loadConfig({ SCHEDULE_MIN_INTERVAL_SECONDS: '1' }).scheduleMinIntervalSeconds).toBe(1);
    for (const bad of ['0', '61', '1.5', 'soon']) {
      expect(() => loadConfig({ SCHEDULE_MIN_INTERVAL_SECONDS: bad }), bad).toThrow(/SCHEDULE_MIN_INTERVAL_SECONDS/);
    }
  });

  it('keeps 5,000 console lines per game server and 600,000 a minute per account unless told otherwise', () => {
    expect(loadConfig({}).console).toEqual({ linesPerServer: 5_000, userLinesPerMinute: 600_000 });
    expect(
      loadConfig({ CONSOLE_LINES_PER_SERVER: '1000', CONSOLE_LINES_PER_USER_PER_MINUTE: '60000' }).console,
    ).toEqual({ linesPerServer: 1_000, userLinesPerMinute: 60_000 });
    expect(() => loadConfig({ CONSOLE_LINES_PER_SERVER: '10' })).toThrow(/CONSOLE_LINES_PER_SERVER/);
    expect(() => loadConfig({ CONSOLE_LINES_PER_USER_PER_MINUTE: 'lots' })).toThrow(
      /CONSOLE_LINES_PER_USER_PER_MINUTE/,
    );
  });

  it('lets admins in without two-factor sign-in unless REQUIRE_TWO_FACTOR_FOR_ADMINS is true', () => {
    expect(loadConfig({}).requireTwoFactorForAdmins).toBe(false);
    expect(loadConfig({ REQUIRE_TWO_FACTOR_FOR_ADMINS: 'true' }).requireTwoFactorForAdmins).toBe(true);
    expect(loadConfig({ REQUIRE_TWO_FACTOR_FOR_ADMINS: 'false' }).requireTwoFactorForAdmins).toBe(false);
    for (const bad of ['yes', '1', 'TRUE', '']) {
      expect(() => loadConfig({ REQUIRE_TWO_FACTOR_FOR_ADMINS: bad }), bad).toThrow(
        /REQUIRE_TWO_FACTOR_FOR_ADMINS: must be true or false/,
      );
    }
  });

  it('fails fast naming every invalid setting', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', APP_SECRET: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL: must start with postgres://');
    expect(message).toContain('APP_SECRET: must be at least 32 characters');
  });
});
