import type { ScriptTypeFilter } from '@moonrelay/contract/scripts';

export type { ScriptTypeFilter };

/** My Scripts' type filter; the server filters (GET /api/scripts/page, `type`). */
export const SCRIPT_TYPE_FILTERS: { value: ScriptTypeFilter; label: string }[] = [
  { value: 'all', label: 'All Scripts' },
  { value: 'auto', label: 'Auto-Execute' },
  { value: 'manual', label: 'Manual' },
];
