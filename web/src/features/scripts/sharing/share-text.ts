/**
 * The words of sharing a script, copying one into a team and the shared script's page, in one
 * place so the tests read the same ones. Plain values: the shared page loads without zod.
 */
export const SHARE_TEXT = {
  // The editor's Share dialog.
  share: 'Share',
  shareTitle: 'Share this script',
  shareIntro:
    'Anyone with a link sees this script read-only (its name, description, code and version as they are when the link is opened) and can copy it into a team of theirs. Stop sharing a link and it no longer works.',
  makeLink: 'Make a link',
  makingLink: 'Making link...',
  makeFailed: 'Could not make a share link.',
  linkShownOnce: 'Copy the link now: it is shown this once, and the list below keeps only when it was made.',
  linkLabel: 'Share link',
  copyLink: 'Copy share link',
  linkCopied: 'Link Copied',
  scriptLinks: 'Links to this script',
  noScriptLinks: 'This script is not shared by any link.',
  done: 'Done',

  // A list of links, in the dialog and in Settings.
  linksLabel: 'Share links',
  script: 'Script',
  created: 'Created',
  by: 'By',
  deletedAccount: 'a deleted account',
  stop: 'Stop sharing',
  stopping: 'Stopping...',
  stopLabel: (scriptName: string, created: string) => `Stop sharing ${scriptName} by the link made ${created}`,
  stopTitle: 'Stop sharing by this link?',
  stopBody: (scriptName: string, created: string) =>
    `The link to "${scriptName}" made ${created} stops working at once: whoever has it can no longer open or copy the script. A link cannot be started again; make a new one to share the script again.`,
  stopped: 'Sharing stopped',
  stoppedDetail: (scriptName: string) => `That link to "${scriptName}" no longer works.`,
  stopFailed: 'Could not stop sharing.',
  loadLinksFailed: 'The share links could not be loaded.',

  // Settings → Shared links.
  cardTitle: 'Shared links',
  cardIntro:
    'Read-only links to these scripts: whoever has one sees the script and can copy it. Make a link from the Script Editor with Share.',
  noLinks: 'No script is shared by a link.',
  openScript: (name: string) => `Open ${name} in the editor`,

  // The editor's Copy to team dialog.
  copyToTeam: 'Copy to team',
  copyTitle: 'Copy to another team',
  copyIntro: (scriptName: string) =>
    `A copy of "${scriptName}" as it is saved now becomes a new script of the team you choose, with its own history.`,
  team: 'Team',
  copy: 'Copy',
  copying: 'Copying...',
  noTargets:
    'You have no other team where you may add scripts: copying needs the permission scripts.write in the team it goes to.',
  loadTeamsFailed: 'Your teams could not be loaded.',
  copied: 'Script Copied',
  copiedDetail: (scriptName: string, teamName: string) => `"${scriptName}" is now a script of ${teamName}.`,
  copyFailed: 'Could not copy the script.',
  cancel: 'Cancel',

  // The shared script's page.
  pageTitle: 'Shared script',
  loading: 'Loading the shared script',
  loadFailed: 'This shared script could not be loaded.',
  version: (version: number) => `Version ${version}`,
  sharedOn: (date: string) => `Shared ${date}`,
  updatedOn: (date: string) => `Last changed ${date}`,
  code: (name: string) => `Code of ${name}`,
  noDescription: 'No description.',
  copyToMyTeam: 'Copy to my team',
  copiesInto: (teamName: string) => `The copy becomes a new script of ${teamName}, which you can change and run.`,
  yourAccount: 'your own account',
  currentTeam: 'the team you are working in',
  signInToCopy: 'Sign in to copy',
  signInToCopyNote: 'Sign in (or create an account) to copy this script into a team of yours.',
  copiedToMyTeam: 'Script Copied',
  copiedToMyTeamDetail: (scriptName: string) => `"${scriptName}" is now one of your scripts.`,
} as const;
