import { describe, expect, it } from 'vitest';
import {
  buildValidScript,
  CORPUS_MISSING,
  corpusAvailable,
  readCorpusFile,
  readManifest,
} from './corpus.test-support.ts';
import { parseLuau } from './parser.ts';

/**
 * The shared Luau corpus against Moonrelay's parser: every valid file parses without a diagnostic,
 * and every invalid one fails with its FIRST diagnostic on the manifest's mutation_line, exactly
 * where the reference Luau parser reports it.
 */

const present = corpusAvailable();
const manifest = present ? readManifest() : [];
const suite = (title: string, body: () => void) =>
  present ? describe(title, body) : describe.skip(`${title} ${CORPUS_MISSING}`, body);
const valid = manifest.filter((entry) => entry.kind === 'valid');
const invalid = manifest.filter((entry) => entry.kind === 'invalid');

suite('Luau parser on the corpus: valid files', () => {
  it('has files to check', () => {
    expect(valid.length).toBeGreaterThan(100);
  });

  it.each(valid.map((entry) => [entry.file]))('%s parses', (file) => {
    const result = parseLuau(readCorpusFile(file));
    expect(result.diagnostics).toEqual([]);
    expect(result.chunk.body.body.length).toBeGreaterThan(0);
  });

  it('parses the whole valid corpus as one script', () => {
    const script = buildValidScript(valid.reduce((total, entry) => total + entry.bytes, 0));
    const result = parseLuau(script);
    expect(result.diagnostics).toEqual([]);
    expect(result.chunk.span.end.offset).toBe(script.length);
  });
});

suite('Luau parser on the corpus: invalid files', () => {
  it('has files to check', () => {
    expect(invalid.length).toBeGreaterThan(30);
  });

  it.each(invalid.map((entry) => [entry.file, entry.mutationLine, entry.mutation] as const))(
    '%s fails first on line %i (%s)',
    (file, mutationLine) => {
      const result = parseLuau(readCorpusFile(file));
      expect(result.diagnostics.length).toBeGreaterThan(0);
      expect(result.diagnostics[0]!.line).toBe(mutationLine);
    },
  );
});
