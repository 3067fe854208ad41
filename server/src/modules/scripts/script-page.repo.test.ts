import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_LIST_ERRORS, type ScriptPage, type ScriptTypeFilter } from '@moonrelay/contract/scripts';
import { describeEachEngine } from '../../../test/engines.ts';
import { insertUserRow } from '../../../test/user-rows.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.ts';
import { AppError } from '../../http/app-error.ts';
import { createLogger } from '../../logger.ts';
import { createScriptsService, type ScriptsService } from './scripts.service.ts';

const OWNER = 'owner-a';
const OTHER = 'owner-b';
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

/**
 * My Scripts a page at a time (GET /api/scripts/page) as the database answers it: the order and
 * its ties, the cursor, the search (any case, wildcards taken literally), the type filter and the
 * counts, on both engines (the search and the counts are SQL of their own).
 */
describeEachEngine('scripts a page at a time', (engine) => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;
  let scripts: ScriptsService;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-script-page-'));

  async function insert(
    userId: string,
    id: string,
    fields: { name: string; description?: string | null; auto?: boolean; updatedMinute: number },
  ) {
    await handle.db
      .insertInto('scripts')
      .values({
        id,
        userId,
        name: fields.name,
        description: fields.description ?? null,
        code: `print("${id}")`,
        isAutoExecute: fields.auto ? 1 : 0,
        isPublic: 0,
        executionCount: 3,
        gameId: null,
        gameName: null,
        gameImageUrl: null,
        autoExecuteGames: null,
        createdAt: at(0),
        updatedAt: at(fields.updatedMinute),
      })
      .execute();
  }

  beforeAll(async () => {
    const created = await engine.create(dir);
    drop = created.drop;
    handle = openDatabase(created.config, createLogger('silent'));
    await migrateToLatest(handle.db);
    scripts = createScriptsService({ db: handle.db });
    await insertUserRow(handle.db, OWNER);
    await insertUserRow(handle.db, OTHER);
    // Newest first: s09 (minute 9) ... s01; s05a and s05b share a time (the id breaks the tie).
    await insert(OWNER, 's01', { name: 'Fly Hack', description: 'Lets you FLY', auto: true, updatedMinute: 1 });
    await insert(OWNER, 's02', { name: 'Speed', description: 'Run fast everywhere', updatedMinute: 2 });
    await insert(OWNER, 's03', { name: 'Teleport', auto: true, updatedMinute: 3 });
    await insert(OWNER, 's04', { name: '100% Coins', description: 'Gives coins', updatedMinute: 4 });
    await insert(OWNER, 's05a', { name: 'Shop_admin', updatedMinute: 5 });
    await insert(OWNER, 's05b', { name: 'Shop admin', description: 'flying shop', auto: true, updatedMinute: 5 });
    await insert(OWNER, 's07', { name: 'Rewards', description: null, updatedMinute: 7 });
    await insert(OWNER, 's09', { name: 'Events', description: 'Weekly events', updatedMinute: 9 });
    // Another owner's, matching every search above: never listed, never counted.
    await insert(OTHER, 'x01', { name: 'Fly Hack', description: 'fly shop coins 100%', auto: true, updatedMinute: 8 });
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const page = (
    query: { q?: string; type?: ScriptTypeFilter; cursor?: string; limit?: number } = {},
    autoExecuteOnly = false,
  ) => scripts.page(OWNER, { type: 'all', limit: 50, ...query }, { autoExecuteOnly });
  const ids = (answer: ScriptPage) => answer.scripts.map((script) => script.id);

  /** Every page by cursor, as the screen scrolls: the ids in order and how many pages. */
  async function walk(query: { q?: string; type?: ScriptTypeFilter; limit: number }) {
    const seen: string[] = [];
    let pages = 0;
    let cursor: string | undefined;
    do {
      const answer = await page({ ...query, cursor });
      pages += 1;
      seen.push(...ids(answer));
      cursor = answer.nextCursor ?? undefined;
    } while (cursor);
    return { seen, pages };
  }

  it('answers summaries without code, most recently updated first, the higher id first on a tie', async () => {
    const answer = await page();
    expect(ids(answer)).toEqual(['s09', 's07', 's05b', 's05a', 's04', 's03', 's02', 's01']);
    expect(answer).toMatchObject({ nextCursor: null, total: 8, matching: 8 });
    expect(answer.scripts.at(-1)).toEqual({
      id: 's01',
      name: 'Fly Hack',
      description: 'Lets you FLY',
      isAutoExecute: true,
      isPublic: false,
      executionCount: 3,
      createdAt: at(0),
      updatedAt: at(1),
    });
  });

  it('pages by cursor through every script once, across a tie between pages', async () => {
    // Pages of 3 end inside the tie (s05b | s05a) at the second page.
    const first = await page({ limit: 3 });
    expect(ids(first)).toEqual(['s09', 's07', 's05b']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page({ limit: 3, cursor: first.nextCursor! });
    expect(ids(second)).toEqual(['s05a', 's04', 's03']);
    // The counts are of the whole list on every page.
    expect(second).toMatchObject({ total: 8, matching: 8 });
    expect(await walk({ limit: 3 })).toEqual({
      seen: ['s09', 's07', 's05b', 's05a', 's04', 's03', 's02', 's01'],
      pages: 3,
    });
    // A last page that is exactly full says so: no cursor to an empty page.
    expect((await walk({ limit: 4 })).pages).toBe(2);
  });

  it('keeps the place of a page while a script is saved meanwhile', async () => {
    const first = await page({ limit: 3 });
    // s02 is saved: it moves to the top, above the cursor, and the next page neither repeats nor skips.
    await handle.db
      .updateTable('scripts')
      .set({ updatedAt: at(10) })
      .where('id', '=', 's02')
      .execute();
    try {
      const second = await page({ limit: 10, cursor: first.nextCursor! });
      expect(ids(second)).toEqual(['s05a', 's04', 's03', 's01']);
    } finally {
      await handle.db
        .updateTable('scripts')
        .set({ updatedAt: at(2) })
        .where('id', '=', 's02')
        .execute();
    }
  });

  it.each([
    ['fly', ['s05b', 's01']],
    ['FLY', ['s05b', 's01']],
    ['Run FAST', ['s02']],
    ['shop admin', ['s05b']],
    // LIKE's wildcards are the characters themselves.
    ['_', ['s05a']],
    ['100%', ['s04']],
    ['%', ['s04']],
    ['nothing like it', []],
  ])('searches name and description for %j, ignoring case', async (q, expected) => {
    const answer = await page({ q });
    expect(ids(answer)).toEqual(expected);
    expect(answer).toMatchObject({ total: 8, matching: expected.length });
  });

  it('filters by type, alone and with a search, and pages the filtered list', async () => {
    expect(ids(await page({ type: 'auto' }))).toEqual(['s05b', 's03', 's01']);
    expect(ids(await page({ type: 'manual' }))).toEqual(['s09', 's07', 's05a', 's04', 's02']);
    const both = await page({ type: 'manual', q: 'shop' });
    expect(ids(both)).toEqual(['s05a']);
    expect(both).toMatchObject({ total: 8, matching: 1 });
    expect(await walk({ type: 'manual', limit: 2 })).toEqual({
      seen: ['s09', 's07', 's05a', 's04', 's02'],
      pages: 3,
    });
    expect(await walk({ q: 'fly', limit: 1 })).toEqual({ seen: ['s05b', 's01'], pages: 2 });
  });

  it('lists and counts only the auto-execute scripts for a caller that may see no others', async () => {
    const answer = await page({}, true);
    expect(ids(answer)).toEqual(['s05b', 's03', 's01']);
    expect(answer).toMatchObject({ total: 3, matching: 3 });
    const manual = await page({ type: 'manual' }, true);
    expect(manual).toMatchObject({ scripts: [], total: 3, matching: 0 });
  });

  it("answers an owner with no scripts, and never another owner's", async () => {
    const empty = await scripts.page('nobody', { type: 'all', limit: 50 });
    expect(empty).toEqual({ scripts: [], nextCursor: null, total: 0, matching: 0 });
    const others = await scripts.page(OTHER, { type: 'all', limit: 50, q: 'fly' });
    expect(ids(others)).toEqual(['x01']);
  });

  describe('a cursor this list never answered', () => {
    const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    it.each([
      ['not base64 JSON', '!!!'],
      ['JSON of another shape', encoded({ updatedAt: at(1), id: 's01' })],
      ['a time that is none', encoded(['yesterday', 's01'])],
      ['text holding NUL', encoded([at(1), 's0\u00001'])],
    ])('is a 400 for %s', async (_what, cursor) => {
      const refused = await page({ cursor }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ status: 400, message: SCRIPT_LIST_ERRORS.invalidCursor });
    });
  });
});
