import { CATALOGUE_NAME, LOADER_CODE_THRESHOLD_CHARS } from '@moonrelay/contract/constants';

/** The catalogue screen's texts (spec sections 2 and 8), kept in one place for the screen and its tests. */
export const CATALOGUE_TEXT = {
  title: CATALOGUE_NAME,
  subtitle: `Browse, preview and import community scripts from ${CATALOGUE_NAME}.`,
  searchPlaceholder: 'Search scripts...',
  searchLabel: 'Search scripts',
  search: 'Search',
  tabs: { home: 'Home', trending: 'Trending', search: 'Search Results' },
  universalScript: 'Universal Script',
  verified: 'Verified',
  badges: { universal: 'Universal', patched: 'Patched', keySystem: 'Key System', executor: 'Executor only' },
  preview: 'Preview',
  execute: 'Execute',
  save: 'Save',
  saveToAutoExecute: 'Save to Auto-Execute',
  previous: 'Previous',
  next: 'Next',
  page: (page: number) => `Page ${page}`,
  loading: 'Loading scripts...',
  loadingSource: 'Loading script...',
  empty: 'No scripts found.',
  searchPrompt: 'Type a search term above to find scripts by title.',
  unavailableTitle: 'Script catalogue unavailable',
  unavailable: `${CATALOGUE_NAME} could not be reached just now. Pages you opened before still show; try again in a moment.`,
  retry: 'Try again',
  /** A kept copy answered while the catalogue is slow or failing (`stale` in the answer). */
  stale: (ago: string) => `Showing results from ${ago}`,
  staleNote: `${CATALOGUE_NAME} is slow or unreachable just now; newer results show once it answers.`,
  poweredBy: 'Powered by',
  executorNoteTitle: 'Written for client-side executors',
  executorNote: (functions: string) =>
    `This script calls ${functions}, which only client-side script executors provide. A server Script in your game does not have them, so running it through Moonrelay will most likely fail with a Lua error. Importing it is fine.`,
  executorBadgeTitle: (functions: string) => `Calls executor-only functions: ${functions}`,
  /** The notes' names for the actions a team member's role does not allow (each ends with the permission). */
  executeAction: 'Execute in the game',
  saveAction: 'Save to the scripts',
  longNote: `Longer than ${LOADER_CODE_THRESHOLD_CHARS.toLocaleString('en')} characters: Moonrelay keeps the code and saves or sends a one-line loader that fetches it.`,
} as const;

/** Section 8's catalogue toasts; the execution outcomes themselves come from lib/execution-result. */
export const CATALOGUE_TOASTS = {
  executeFailed: { title: 'Error', description: 'Failed to execute script' },
  saved: 'Script Saved',
  savedDescription: (name: string, autoExecute: boolean) =>
    autoExecute
      ? `"${name}" is in My Scripts and runs automatically when your game connects.`
      : `"${name}" is in My Scripts.`,
  saveFailed: { title: 'Error', description: 'Failed to save script. Please try again.' },
} as const;
