import { describe } from 'vitest';
import { CORPUS_MISSING, corpusAvailable, readManifest } from './corpus.test-support.ts';

/**
 * The corpus as the suites read it: its valid and invalid entries, and `suite`, a describe that is
 * skipped, naming the missing folder, on a plain clone without the corpus (never in CI).
 */
export function corpusSuites() {
  const present = corpusAvailable();
  const manifest = present ? readManifest() : [];
  return {
    valid: manifest.filter((entry) => entry.kind === 'valid'),
    invalid: manifest.filter((entry) => entry.kind === 'invalid'),
    suite: (title: string, body: () => void) =>
      present ? describe(title, body) : describe.skip(`${title} ${CORPUS_MISSING}`, body),
  };
}
