import { checkAccessibilityAt, SIZES } from './support/accessibility.ts';

// axe-core over every screen at phone size (the checks: support/accessibility.ts).
checkAccessibilityAt(SIZES.phone);
