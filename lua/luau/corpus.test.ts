import { describe, expect, it } from 'vitest';
import { describeEachCorpus } from './corpus-suites.test-support.ts';
import { buildValidScript, ownCorpus, ownCorpusFiles } from './corpus.test-support.ts';
import type { Position, Span } from './ast.ts';
import { parseLuau } from './parser.ts';

/** Every span in a tree whose positions disagree with the source or that leaves its parent. */
function badSpans(source: string, root: unknown): string[] {
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const consistent = (p: Position) =>
    lineStarts[p.line - 1] !== undefined && lineStarts[p.line - 1]! + p.column - 1 === p.offset;
  const bad: string[] = [];
  const walk = (node: unknown, parent: Span | null): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => walk(child, parent));
    const { span, kind } = node as { span?: Span; kind?: string };
    if (span) {
      if (!consistent(span.start) || !consistent(span.end) || span.start.offset > span.end.offset)
        bad.push(`${kind} ${JSON.stringify(span)}`);
      // A block starts after the token that opens it; every other node lies within its parent.
      else if (
        parent &&
        kind !== 'Block' &&
        (span.start.offset < parent.start.offset || span.end.offset > parent.end.offset)
      )
        bad.push(`${kind} outside its parent at ${span.start.line}:${span.start.column}`);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'span') walk(value, span ?? parent);
  };
  walk(root, null);
  return bad;
}

/**
 * The Luau corpora against Moonrelay's parser: every valid file parses without a diagnostic, and
 * every invalid one fails with its FIRST diagnostic on the manifest's mutation_line (for the shared
 * corpus, exactly where the reference Luau parser reports it) and, where the manifest gives it, in
 * its words.
 */

describe("Moonrelay's own Luau corpus", () => {
  it('lists every file of its folders in its manifest, and only those', () => {
    expect(
      ownCorpus()
        .entries.map((entry) => entry.file)
        .sort(),
    ).toEqual(ownCorpusFiles().sort());
  });

  it('gives every invalid file its error line and message', () => {
    for (const entry of ownCorpus().invalid) {
      expect(entry.mutationLine, entry.file).toBeGreaterThan(1);
      expect(entry.message, entry.file).not.toBeNull();
    }
  });
});

describeEachCorpus('Luau parser on the corpus: valid files', (corpus) => {
  it('has files to check', () => {
    expect(corpus.valid.length).toBeGreaterThanOrEqual(corpus.minimum.valid);
  });

  it.each(corpus.valid.map((entry) => [entry.file]))('%s parses, with consistent spans', (file) => {
    const source = corpus.read(file);
    const result = parseLuau(source);
    expect(result.diagnostics).toEqual([]);
    expect(result.chunk.body.body.length).toBeGreaterThan(0);
    expect(badSpans(source, result.chunk)).toEqual([]);
  });

  it('parses the whole valid corpus as one script', () => {
    const script = buildValidScript(
      corpus.valid.reduce((total, entry) => total + entry.bytes, 0),
      corpus,
    );
    const result = parseLuau(script);
    expect(result.diagnostics).toEqual([]);
    expect(result.chunk.span.end.offset).toBe(script.length);
  });
});

describeEachCorpus('Luau parser on the corpus: invalid files', (corpus) => {
  it('has files to check', () => {
    expect(corpus.invalid.length).toBeGreaterThanOrEqual(corpus.minimum.invalid);
  });

  it.each(corpus.invalid.map((entry) => [entry.file, entry.mutationLine, entry.mutation, entry.message] as const))(
    '%s fails first on line %i (%s)',
    (file, mutationLine, _mutation, message) => {
      const result = parseLuau(corpus.read(file));
      expect(result.diagnostics.length).toBeGreaterThan(0);
      expect(result.diagnostics[0]!.line).toBe(mutationLine);
      if (message !== null) expect(result.diagnostics[0]!.message).toBe(message);
    },
  );
});
