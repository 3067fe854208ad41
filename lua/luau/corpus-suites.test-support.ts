import { describe, it } from 'vitest';
import { ownCorpus, sharedCorpus, sharedCorpusDir, type LuauCorpus } from './corpus.test-support.ts';

/**
 * Runs a corpus suite once per corpus: always over Moonrelay's own, and over the shared one when it
 * is present. Without the shared corpus that variant is reported as skipped, naming the missing
 * folder; in CI (`CI=true`) it is required, and its absence fails the file.
 */
export function describeEachCorpus(title: string, suite: (corpus: LuauCorpus) => void): void {
  const shared = sharedCorpus();
  for (const corpus of shared ? [ownCorpus(), shared] : [ownCorpus()]) {
    describe(`${title} [${corpus.label}]`, () => suite(corpus));
  }
  if (!shared) {
    describe.skip(`${title} [shared corpus: none at ${sharedCorpusDir}]`, () => {
      it('runs the same suite on the shared corpus', () => {});
    });
  }
}
