import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as limits from '@moonrelay/contract/constants';
import { DEFAULT_BODY_LIMIT_BYTES, endpoints } from '@moonrelay/contract/endpoints';
import { BAN_MAX_USERS_PER_CALL } from '@moonrelay/contract/moderation';

/**
 * The game script's budgets (docs/protocol.md, "The script's budgets") against the server's limits:
 * the table, the script's constants and the contract's must say the same, and every budget must fit
 * the limit it is there for. The script runs where Moonrelay cannot fix it after the fact, so a
 * change to either side that breaks the other fails here first.
 */

const script = readFileSync(
  createRequire(import.meta.url).resolve('@moonrelay/lua/integration/game-integration.lua'),
  'utf8',
);
const protocol = readFileSync(new URL('../../../../docs/protocol.md', import.meta.url), 'utf8');

/** The script's `local NAME = 1000` and `local NAME = 32 * 1024` constants. */
function scriptConstants(source: string): Map<string, number> {
  const constants = new Map<string, number>();
  for (const [, name, expression] of source.matchAll(/^local ([A-Z][A-Z_]+) = ([\d\s*]+)$/gm)) {
    constants.set(
      name!,
      expression!.split('*').reduce((product, factor) => product * Number(factor.trim()), 1),
    );
  }
  return constants;
}

interface BudgetRow {
  what: string;
  constant: string;
  value: number;
  limitText: string;
}

/** The rows of the budgets table: the script's constant, its number, and the limit's cell. */
function budgetRows(markdown: string): BudgetRow[] {
  const section = markdown.split("### The script's budgets")[1]?.split('\n### ')[0] ?? '';
  const rows: BudgetRow[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const constant = /^`([A-Z_]+)`$/.exec(cells[2] ?? '')?.[1];
    if (!constant) continue;
    rows.push({ what: cells[1]!, constant, value: Number(cells[3]!.replace(/[^\d]/g, '')), limitText: cells[4]! });
  }
  return rows;
}

const constants = scriptConstants(script);
const rows = budgetRows(protocol);
const budget = (name: string) => {
  const value = constants.get(name);
  if (value === undefined) throw new Error(`The script has no constant ${name}`);
  return value;
};
const contract = limits as unknown as Record<string, number>;

/** JSON of text can take six bytes a byte (a control character is written \u0001). */
const JSON_ESCAPE_FACTOR = 6;
/** A console line's fields besides its text, stack and script, in JSON: time, level, own, commandId. */
const CONSOLE_LINE_FIELDS_BYTES = 160;
/** The ping's other fields: key, serverId, wait, the player's data (its name at most escaped). */
const PING_ENVELOPE_BYTES = 2_000 + JSON_ESCAPE_FACTOR * budget('PLAYER_NAME_MAX_BYTES');
/** A roster entry's fields besides its names, in JSON: userId, accountAgeDays and the keys. */
const ROSTER_PLAYER_FIELDS_BYTES = 100;
/** The longest note a cut output ends with: "\n... (output truncated: N bytes, ...)". */
const TRUNCATION_NOTE_CHARS = 80;

describe("the game script's budgets", () => {
  it('the table names every budget once, and each number is the script’s', () => {
    expect(rows.map((row) => row.constant)).toEqual([
      'PING_MAX_BYTES',
      'MAX_RESULTS_PER_PING',
      'RESULTS_BYTES_PER_PING',
      'RESULT_MAX_BYTES',
      'MAX_TEXT_BYTES',
      'RESULT_QUEUE_MAX',
      'PLAYER_NAME_MAX_BYTES',
      'CONSOLE_LINES_PER_PING',
      'CONSOLE_BYTES_PER_PING',
      'CONSOLE_TEXT_BYTES',
      'CONSOLE_BUFFER_LINES',
      'ROSTER_MAX_PLAYERS',
      'ROSTER_NAME_MAX_BYTES',
      'BAN_ERROR_MAX_BYTES',
    ]);
    for (const row of rows) expect(row.value, row.what).toBe(budget(row.constant));
  });

  it('every limit the table quotes is the contract’s', () => {
    for (const row of rows) {
      const named = /\(`([A-Z_]+)`\)/.exec(row.limitText)?.[1];
      if (!named) continue;
      expect(contract[named], named).toBeTypeOf('number');
      expect(Number(row.limitText.split('(')[0]!.replace(/[^\d]/g, '')), row.what).toBe(contract[named]);
    }
  });

  it('the server reads a ping up to the contract’s limit, and the script’s largest ping is below it', () => {
    const serverLimit = endpoints.gamePing.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
    expect(serverLimit).toBe(limits.GAME_PING_BODY_LIMIT_BYTES);
    expect(budget('PING_MAX_BYTES')).toBeLessThan(serverLimit);
  });

  it('the largest results and console lines a ping may carry fit within the script’s largest ping', () => {
    const results = Math.max(budget('RESULTS_BYTES_PER_PING'), budget('RESULT_MAX_BYTES'));
    const consoleLines =
      JSON_ESCAPE_FACTOR * budget('CONSOLE_BYTES_PER_PING') +
      budget('CONSOLE_LINES_PER_PING') * CONSOLE_LINE_FIELDS_BYTES;
    expect(results + consoleLines + PING_ENVELOPE_BYTES).toBeLessThanOrEqual(budget('PING_MAX_BYTES'));
    expect(budget('RESULT_MAX_BYTES')).toBeLessThanOrEqual(budget('RESULTS_BYTES_PER_PING'));
  });

  it('results: no more per ping than the server takes; an output, cut with its note, within what it keeps', () => {
    expect(budget('MAX_RESULTS_PER_PING')).toBeLessThanOrEqual(limits.GAME_PING_MAX_RESULTS);
    // Bytes are never fewer than the characters they hold, so a byte budget holds as a character one.
    expect(budget('MAX_TEXT_BYTES') + TRUNCATION_NOTE_CHARS).toBeLessThanOrEqual(
      limits.GAME_COMMAND_RESULT_OUTPUT_MAX_CHARS,
    );
    expect(budget('PLAYER_NAME_MAX_BYTES')).toBeLessThanOrEqual(limits.GAME_PLAYER_NAME_MAX_CHARS);
  });

  it('moderation: a report on the most players one BanAsync call takes, each with the longest error, fits one output', () => {
    // Each failed player costs its id as a key (16 digits and quotes), the error (control characters
    // are made spaces, so only quotes and backslashes escape: two bytes a byte at worst), and the
    // JSON around them; the applied list is empty then.
    const perPlayer = 20 + 2 * budget('BAN_ERROR_MAX_BYTES') + 10;
    expect(BAN_MAX_USERS_PER_CALL * perPlayer + 40).toBeLessThanOrEqual(budget('MAX_TEXT_BYTES'));
  });

  it('roster: no more players than the server takes; a whole roster with one result fits the largest ping', () => {
    expect(budget('ROSTER_MAX_PLAYERS')).toBeLessThanOrEqual(limits.ROSTER_MAX_PLAYERS);
    expect(budget('ROSTER_NAME_MAX_BYTES')).toBeLessThanOrEqual(limits.GAME_PLAYER_NAME_MAX_CHARS);
    // A too-large ping goes without its lines and with one result (the script's fallback); the
    // roster stays in it, so that ping must still fit: name and display name escaped at worst.
    const rosterPlayer = 2 * JSON_ESCAPE_FACTOR * budget('ROSTER_NAME_MAX_BYTES') + ROSTER_PLAYER_FIELDS_BYTES;
    const roster = budget('ROSTER_MAX_PLAYERS') * rosterPlayer;
    expect(roster + budget('RESULT_MAX_BYTES') + PING_ENVELOPE_BYTES).toBeLessThanOrEqual(budget('PING_MAX_BYTES'));
  });

  it('console: lines and bytes per ping within the server’s batch, a line with its note within what it keeps', () => {
    expect(budget('CONSOLE_LINES_PER_PING')).toBeLessThanOrEqual(limits.CONSOLE_BATCH_MAX_LINES);
    expect(budget('CONSOLE_BYTES_PER_PING')).toBeLessThanOrEqual(limits.CONSOLE_BATCH_MAX_BYTES);
    expect(budget('CONSOLE_TEXT_BYTES') + '\n... (truncated)'.length).toBeLessThanOrEqual(
      limits.CONSOLE_LINE_MAX_CHARS,
    );
    expect(budget('CONSOLE_STACK_BYTES') + '\n... (truncated)'.length).toBeLessThanOrEqual(
      limits.CONSOLE_STACK_MAX_CHARS,
    );
  });

  it('the checks can fail: a budget over its limit is caught', () => {
    const drifted = scriptConstants(
      script.replace(/^local PING_MAX_BYTES = .*$/m, 'local PING_MAX_BYTES = 2 * 1024 * 1024'),
    );
    expect(drifted.get('PING_MAX_BYTES')).toBeGreaterThan(limits.GAME_PING_BODY_LIMIT_BYTES);
    const table = budgetRows(protocol.replace('| 786,432 bytes', '| 786,433 bytes'));
    expect(table[0]!.value).not.toBe(budget('PING_MAX_BYTES'));
  });
});
