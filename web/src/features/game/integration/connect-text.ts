/** What the Game Connection steps and the Game Integration notices say. */

export const CONNECT_TEXT = {
  intro: 'No game is connected. To connect one:',
  allowHttp: 'In Roblox Studio, open Game Settings > Security and turn on Allow HTTP Requests.',
  loadString:
    'In the Explorer, select ServerScriptService and tick LoadStringEnabled in its Properties: the Quick Loader needs it, and so does running code from the dashboard.',
  paste: 'Add a Script to ServerScriptService and paste the Quick Loader (below) into it.',
  pasteOnceReachable:
    'Give Moonrelay a public address (see Game Integration below), then paste the Quick Loader shown there into a Script in ServerScriptService.',
  pasteWhenLoaded: 'Add a Script to ServerScriptService and paste the Quick Loader from Game Integration into it.',
  pasteNotShownAdmin:
    'Set Moonrelay’s public address (see Game Integration below). The Quick Loader, which goes into a Script in ServerScriptService, is shown once it is set.',
  pasteNotShownMember:
    'Ask the operator of this Moonrelay to set its public address. The Quick Loader, which goes into a Script in ServerScriptService, is shown here once it is set.',
  pasteRefused:
    'Ask a team member who may manage its keys for the Quick Loader, and paste it into a Script in ServerScriptService.',
  start: 'Start the game: it connects to Moonrelay automatically.',
} as const;

export const REACHABILITY_NOTICE = {
  unreachableTitle: 'Games on Roblox cannot reach these scripts',
  plainHttpTitle: 'Served over plain http',
  notServedAdminTitle: 'Scripts are not shown at this address',
  notServedAdmin: (host: string) =>
    `This dashboard was opened at ${host}. Without PUBLIC_URL, Moonrelay writes the address it was opened at into the scripts only for the host names PUBLIC_HOSTS lists (by default localhost, 127.0.0.1 and [::1]), so a forged Host header cannot point a game elsewhere.`,
  notServedAdminFix:
    'Set PUBLIC_URL to the public https address games reach this Moonrelay at and restart it. To use this host name as it is, add it to PUBLIC_HOSTS instead.',
  notServedMemberTitle: 'The integration scripts are not available here',
  notServedMember: 'Ask the operator of this Moonrelay to set its public address.',
} as const;
