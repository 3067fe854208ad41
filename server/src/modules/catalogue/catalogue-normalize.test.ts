import { describe, expect, it } from 'vitest';
import {
  absoluteImageUrl,
  codeOfScriptAnswer,
  MalformedAnswerError,
  normalizePage,
  normalizeScript,
} from './catalogue-normalize.ts';

const SITE = 'https://scriptblox.com';

describe('catalogue answers in one shape', () => {
  it("prefixes /images/ paths with the catalogue host and keeps absolute URLs on Roblox's CDN or the catalogue's site", () => {
    expect(absoluteImageUrl('/images/script/1.webp', SITE)).toBe('https://scriptblox.com/images/script/1.webp');
    expect(absoluteImageUrl('https://tr.rbxcdn.com/a/512/512/Image/Png', SITE)).toBe(
      'https://tr.rbxcdn.com/a/512/512/Image/Png',
    );
    expect(absoluteImageUrl('https://scriptblox.com/images/x.webp', SITE)).toBe('https://scriptblox.com/images/x.webp');
    // Anywhere else the page's Content-Security-Policy would refuse it: dropped.
    for (const other of ['https://images.example/x.png', 'http://tr.rbxcdn.com/x.png']) {
      expect(absoluteImageUrl(other, SITE)).toBeNull();
    }
    for (const other of ['', 'images/x.png', '/other/x.png', 'javascript:alert(1)', null, 42]) {
      expect(absoluteImageUrl(other, SITE)).toBeNull();
    }
  });

  it('accepts both spellings of universal, patched, key and the game id', () => {
    const a = normalizeScript(
      { _id: 'a', title: 'A', isUniversal: true, isPatched: false, key: true, game: { _id: '123', name: 'G' } },
      SITE,
    );
    const b = normalizeScript(
      { _id: 'b', title: 'B', universal: true, patched: true, keySystem: false, game: { gameId: 123, name: 'G' } },
      SITE,
    );
    expect(a).toMatchObject({ isUniversal: true, isPatched: false, keySystem: true, game: { _id: '123' } });
    expect(b).toMatchObject({ isUniversal: true, isPatched: true, keySystem: false, game: { _id: '123' } });
  });

  it('fills what is missing and drops entries without an id or title', () => {
    expect(normalizeScript({ _id: 'x', title: ' T ' }, SITE)).toEqual({
      _id: 'x',
      title: 'T',
      game: { _id: null, name: '', imageUrl: null, universeId: null },
      image: null,
      views: 0,
      verified: false,
      isUniversal: false,
      isPatched: false,
      keySystem: false,
      createdAt: null,
      executorFunctions: [],
    });
    expect(normalizeScript({ title: 'no id' }, SITE)).toBeNull();
    expect(normalizeScript({ _id: 'x', title: '' }, SITE)).toBeNull();
    expect(normalizeScript('nope', SITE)).toBeNull();
    expect(normalizeScript({ _id: 'x', title: 'T', views: '12', game: { universeId: 99 } }, SITE)).toMatchObject({
      views: 12,
      game: { universeId: 99 },
    });
  });

  it('works out the next page and refuses what is not a list answer', () => {
    const scripts = [{ _id: 'a', title: 'A' }, { bad: true }];
    expect(normalizePage({ result: { scripts, totalPages: 3, nextPage: 2 } }, SITE, 1)).toMatchObject({
      totalPages: 3,
      nextPage: 2,
    });
    expect(normalizePage({ result: { scripts, totalPages: 3 } }, SITE, 2).nextPage).toBe(3);
    expect(normalizePage({ result: { scripts, totalPages: 3, nextPage: 3 } }, SITE, 3).nextPage).toBeNull();
    expect(normalizePage({ result: { scripts } }, SITE, 1)).toMatchObject({ totalPages: 1, nextPage: null });
    expect(normalizePage({ result: { scripts } }, SITE, 1).scripts).toHaveLength(1);
    for (const body of [null, {}, { result: {} }, { result: { scripts: 'x' } }, []]) {
      expect(() => normalizePage(body, SITE, 1)).toThrow(MalformedAnswerError);
    }
  });

  it('reads the code of a /script/{id} answer', () => {
    expect(codeOfScriptAnswer({ script: { script: 'print(1)' } })).toBe('print(1)');
    expect(codeOfScriptAnswer({ script: { title: 'no code' } })).toBeNull();
    expect(codeOfScriptAnswer({ script: { script: '   ' } })).toBeNull();
    expect(codeOfScriptAnswer(null)).toBeNull();
  });
});
