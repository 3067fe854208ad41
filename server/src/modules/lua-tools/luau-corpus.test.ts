import { expect, it } from 'vitest';
import { describeEachCorpus } from '@moonrelay/lua/luau/corpus-suites.test-support.ts';
import type { LuauCorpus } from './corpus.test-support.ts';
import { LuauFormatError } from './lua-tools.errors.ts';
import { formatLuau } from './luau-format.ts';
import { checkLuau } from './luau-syntax.ts';

/**
 * The syntax check as the server runs it, over Moonrelay's own Luau corpus and the shared one:
 * every valid file passes; every invalid one fails with its first diagnostic exactly on the
 * manifest's mutation_line (for the shared corpus, as the reference Luau parser reports it).
 * (lua/luau/corpus.test.ts holds the parser's own corpus suite.)
 */

describeEachCorpus('Luau corpus: valid files', (corpus) => {
  it('has files to check', () => {
    expect(corpus.valid.length).toBeGreaterThanOrEqual(corpus.minimum.valid);
  });

  it.each(corpus.valid.map((entry) => [entry.file]))('%s parses', (file) => {
    const result = checkLuau(corpus.read(file));
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describeEachCorpus('Luau corpus: invalid files', (corpus) => {
  it('has files to check', () => {
    expect(corpus.invalid.length).toBeGreaterThanOrEqual(corpus.minimum.invalid);
  });

  it.each(corpus.invalid.map((entry) => [entry.file, entry.mutationLine, entry.mutation, entry.message] as const))(
    '%s fails first on line %i (%s)',
    (file, mutationLine, _mutation, message) => {
      const result = checkLuau(corpus.read(file));
      expect(result.ok).toBe(false);
      expect(result.diagnostics[0]!.line).toBe(mutationLine);
      if (message !== null) expect(result.diagnostics[0]!.message).toBe(message);
    },
  );
});

/**
 * StyLua 2.5.2 does not settle in one pass on three shared files (a call's arguments switch between
 * the expanded and the hugging layout on each pass; events.luau keeps switching). It refuses a
 * fourth (its own check says the output AST may differ) and the own corpus's `@[...]` attribute
 * lists, which it cannot parse. The output always parses.
 */
const FORMAT_NOT_IDEMPOTENT = new Set([
  'shared:valid/luau__bench__other__regex.luau',
  'shared:valid/luau__tests__conformance__basic.luau',
  'shared:valid/luau__tests__conformance__events.luau',
]);
const FORMAT_REFUSED = new Set(['shared:valid/luau__tests__conformance__native.luau', 'own:valid/attribute-list.luau']);
const key = (corpus: LuauCorpus, file: string) => `${corpus.name}:${file}`;

describeEachCorpus('Luau corpus: formatting valid files', (corpus) => {
  it.each(corpus.valid.map((entry) => [entry.file]))('%s formats to code that parses, idempotently', (file) => {
    const code = corpus.read(file);
    if (FORMAT_REFUSED.has(key(corpus, file))) {
      expect(() => formatLuau(code)).toThrow(LuauFormatError);
      return;
    }
    const once = formatLuau(code).code;
    expect(checkLuau(once).ok).toBe(true);
    const twice = formatLuau(once).code;
    if (FORMAT_NOT_IDEMPOTENT.has(key(corpus, file))) {
      // Pinned so that a StyLua upgrade that fixes them shows up here.
      expect(twice).not.toBe(once);
      expect(checkLuau(twice).ok).toBe(true);
    } else {
      expect(twice).toBe(once);
    }
  });
});
