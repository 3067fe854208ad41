import type { Script } from '@moonrelay/contract/scripts';

export type ScriptTypeFilter = 'all' | 'auto' | 'manual';

export const SCRIPT_TYPE_FILTERS: { value: ScriptTypeFilter; label: string }[] = [
  { value: 'all', label: 'All Scripts' },
  { value: 'auto', label: 'Auto-Execute' },
  { value: 'manual', label: 'Manual' },
];

/** Scripts whose name or description contains the search (any case) and whose type matches. */
export function filterScripts(scripts: Script[], search: string, type: ScriptTypeFilter): Script[] {
  const needle = search.trim().toLowerCase();
  return scripts.filter((script) => {
    if (type === 'auto' && !script.isAutoExecute) return false;
    if (type === 'manual' && script.isAutoExecute) return false;
    if (!needle) return true;
    return script.name.toLowerCase().includes(needle) || (script.description ?? '').toLowerCase().includes(needle);
  });
}
