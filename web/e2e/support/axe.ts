import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The rules every check runs: WCAG 2.1 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What axe-core finds on the page as it is (within `include`, a CSS selector, when given).
 *
 * axe runs in the page itself (legacy mode) and hands back only its violations: the default mode
 * runs each frame apart and merges the results in a second blank page, and returns every passing
 * element of every rule, which cost 5 s per API-docs tab of 3,000 elements against 1.1–1.5 s this
 * way, for the same rules and the same violations. Moonrelay's screens have no cross-origin
 * frame, the one thing the default mode is for.
 */
export async function axeViolations(page: Page, include?: string): Promise<Violation[]> {
  const builder = new AxeBuilder({ page })
    .withTags(TAGS)
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  if (include) builder.include(include);
  return (await builder.analyze()).violations;
}

/** Critical and serious violations, a line each with the elements they touch. */
export async function seriousAxeProblems(page: Page, include?: string): Promise<string[]> {
  return (await axeViolations(page, include))
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
