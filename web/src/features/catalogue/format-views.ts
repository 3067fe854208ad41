import { VIEWS_MILLION, VIEWS_THOUSAND } from '@moonrelay/contract/constants';

/** Views as the cards show them (spec section 9): 999, 1.0K from 1 000, 2.5M from 1 000 000, one decimal. */
export function formatViews(views: number): string {
  const value = Math.max(0, Math.floor(views));
  if (value >= VIEWS_MILLION) return `${(value / VIEWS_MILLION).toFixed(1)}M`;
  if (value >= VIEWS_THOUSAND) {
    const thousands = (value / VIEWS_THOUSAND).toFixed(1);
    // 999 950 rounds to 1000.0K: that is 1.0M.
    return thousands === '1000.0' ? '1.0M' : `${thousands}K`;
  }
  return String(value);
}
