import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Luau corpora the parser, lowering, check and format suites read. Each is a folder of `valid/`
 * files that must parse and `invalid/` files with one syntax error each, described row by row in
 * its MANIFEST.tsv.
 * - Moonrelay's own corpus, `test/fixtures/luau` in the repository: always there, so a plain clone
 *   runs every corpus suite.
 * - The shared corpus, `../shared/corpus/luau` beside the repository as CI lays it out: real-world
 *   third-party files, run in addition when present. Without it those variants are reported as
 *   skipped with the path named, except in CI (`CI=true`), where a missing corpus is an error.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ownCorpusDir = path.join(repoRoot, 'test/fixtures/luau');
export const sharedCorpusDir = path.resolve(repoRoot, '../shared/corpus/luau');

export type CorpusEntry = {
  /** Relative to the corpus folder, e.g. `valid/signal.luau`. */
  file: string;
  kind: 'valid' | 'invalid';
  bytes: number;
  /** The line of the first diagnostic an invalid file gives. */
  mutationLine: number | null;
  mutation: string;
  /** The first diagnostic's text, where the manifest gives it (the own corpus does). */
  message: string | null;
};

export type LuauCorpus = {
  name: 'own' | 'shared';
  /** How suite titles name it. */
  label: string;
  dir: string;
  entries: CorpusEntry[];
  valid: CorpusEntry[];
  invalid: CorpusEntry[];
  /** Fewer files than this means the corpus lost some: its suites say so. */
  minimum: { valid: number; invalid: number };
  read(file: string): string;
};

function readManifest(dir: string): CorpusEntry[] {
  const [header, ...rows] = fs.readFileSync(path.join(dir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const columns = header!.split('\t');
  const column = (name: string) => {
    const index = columns.indexOf(name);
    if (index === -1) throw new Error(`${dir}/MANIFEST.tsv has no "${name}" column`);
    return index;
  };
  const [file, kind, mutationLine, mutation] = ['file', 'kind', 'mutation_line', 'mutation'].map(column);
  const message = columns.indexOf('message');
  return rows.map((row) => {
    const cells = row.split('\t');
    return {
      file: cells[file!]!,
      kind: cells[kind!] === 'invalid' ? 'invalid' : 'valid',
      bytes: fs.statSync(path.join(dir, cells[file!]!)).size,
      mutationLine: cells[mutationLine!] ? Number(cells[mutationLine!]) : null,
      mutation: cells[mutation!] ?? '',
      message: message === -1 || !cells[message] ? null : cells[message]!,
    };
  });
}

function loadCorpus(name: LuauCorpus['name'], label: string, dir: string, minimum: LuauCorpus['minimum']): LuauCorpus {
  const entries = readManifest(dir);
  return {
    name,
    label,
    dir,
    entries,
    valid: entries.filter((entry) => entry.kind === 'valid'),
    invalid: entries.filter((entry) => entry.kind === 'invalid'),
    minimum,
    read: (file) => fs.readFileSync(path.join(dir, file), 'utf8'),
  };
}

let own: LuauCorpus | undefined;
/** Moonrelay's own corpus, written for these tests. */
export function ownCorpus(): LuauCorpus {
  own ??= loadCorpus('own', 'own corpus', ownCorpusDir, { valid: 20, invalid: 15 });
  return own;
}

/** The own corpus's `valid/` and `invalid/` files as they are on disk, for checking its manifest. */
export function ownCorpusFiles(): string[] {
  return ['valid', 'invalid'].flatMap((kind) =>
    fs
      .readdirSync(path.join(ownCorpusDir, kind))
      .filter((file) => file.endsWith('.luau'))
      .map((file) => `${kind}/${file}`),
  );
}

const sharedFound = fs.existsSync(path.join(sharedCorpusDir, 'MANIFEST.tsv'));
let shared: LuauCorpus | undefined;
/** The shared third-party corpus, or null when it is absent; absent in CI (`CI=true`) throws. */
export function sharedCorpus(): LuauCorpus | null {
  if (!sharedFound) {
    if (process.env.CI === 'true') {
      throw new Error(
        `Luau corpus not found: CI requires MANIFEST.tsv in ${sharedCorpusDir} (../shared/corpus/luau from the repository root ${repoRoot})`,
      );
    }
    return null;
  }
  shared ??= loadCorpus('shared', 'shared corpus', sharedCorpusDir, { valid: 100, invalid: 30 });
  return shared;
}

/**
 * A valid script of at least `minBytes`, made of a corpus's valid files (by default the own
 * corpus, so big-input tests do not depend on the shared one), each wrapped in `do ... end` (a file
 * may end with `return`, which must close a block), repeated as needed.
 */
export function buildValidScript(minBytes: number, corpus: LuauCorpus = ownCorpus()): string {
  const sources = corpus.valid.map((entry) => corpus.read(entry.file));
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < minBytes; i++) {
    const part = `do\n${sources[i % sources.length]!}\nend\n`;
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  return parts.join('');
}
