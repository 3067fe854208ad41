import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shared Luau corpus (`../shared/corpus/luau` beside the repository, as CI lays it out): real
 * files in `valid/`, copies with one deliberate syntax error in `invalid/`, described row by row in
 * MANIFEST.tsv. A plain clone has no corpus: its suites are then skipped, saying so, except in CI
 * (`CI=true`), where a missing corpus is an error.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const corpusDir = path.resolve(repoRoot, '../shared/corpus/luau');
const corpusFound = fs.existsSync(path.join(corpusDir, 'MANIFEST.tsv'));

/** Whether the corpus is here; throws in CI, where it must be. */
export function corpusAvailable(): boolean {
  if (!corpusFound && process.env.CI === 'true') assertCorpusPresent();
  return corpusFound;
}

/** The skipped suites' title says what is missing. */
export const CORPUS_MISSING = `(skipped: no Luau corpus at ${corpusDir})`;

export type CorpusEntry = {
  file: string;
  kind: 'valid' | 'invalid';
  bytes: number;
  mutationLine: number | null;
  mutation: string;
};

function assertCorpusPresent(): void {
  if (!fs.existsSync(path.join(corpusDir, 'MANIFEST.tsv'))) {
    throw new Error(
      `Luau corpus not found: expected MANIFEST.tsv in ${corpusDir} (../shared/corpus/luau from the repository root ${repoRoot})`,
    );
  }
}

export function readManifest(): CorpusEntry[] {
  assertCorpusPresent();
  const [header, ...rows] = fs.readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  const column = (name: string) => {
    const index = columns.indexOf(name);
    if (index === -1) throw new Error(`MANIFEST.tsv has no "${name}" column`);
    return index;
  };
  const [file, kind, bytes, mutationLine, mutation] = ['file', 'kind', 'bytes', 'mutation_line', 'mutation'].map(
    column,
  );
  return rows.map((row) => {
    const cells = row.split('\t');
    return {
      file: cells[file!]!,
      kind: cells[kind!] === 'invalid' ? 'invalid' : 'valid',
      bytes: Number(cells[bytes!]),
      mutationLine: cells[mutationLine!] ? Number(cells[mutationLine!]) : null,
      mutation: cells[mutation!] ?? '',
    };
  });
}

export function readCorpusFile(file: string): string {
  return fs.readFileSync(path.join(corpusDir, file), 'utf8');
}

/** Moonrelay's own game scripts: real Luau that a clone without the corpus still has. */
const SHIPPED_SCRIPTS = ['game-integration.lua', 'quick-loader.lua', 'teleport-example.lua'].map((file) =>
  path.join(repoRoot, 'lua/integration', file),
);

/**
 * A valid script of at least `minBytes`, made of the corpus's valid files (or, without the corpus,
 * Moonrelay's own game scripts), each wrapped in `do ... end` (a file may end with `return`, which
 * must close a block), repeated as needed.
 */
export function buildValidScript(minBytes: number): string {
  const sources = corpusAvailable()
    ? readManifest()
        .filter((entry) => entry.kind === 'valid')
        .map((entry) => () => readCorpusFile(entry.file))
    : SHIPPED_SCRIPTS.map((file) => () => fs.readFileSync(file, 'utf8'));
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < minBytes; i++) {
    const part = `do\n${sources[i % sources.length]!()}\nend\n`;
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  return parts.join('');
}
