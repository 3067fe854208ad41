/**
 * The script lists' actions (My Scripts, the dashboard's Recent Scripts and stats), as the notes
 * under them name those a team member's role does not allow; each note ends with the permission.
 */
export const SCRIPT_LIST_ACTIONS = {
  see: 'See the scripts',
  create: 'New Script',
  change: 'New Script, Duplicate and Delete',
  run: 'Execute in the game',
} as const;
