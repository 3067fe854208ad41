// The guide ships with the web build as a file of its own (a hashed asset beside the scripts), so
// the dashboard links the copy that matches the Moonrelay it is served by, wherever that runs.
import guideUrl from '../../../../../docs/connect-a-real-game.md?url&no-inline';

export const CONNECT_GUIDE_URL: string = guideUrl;
export const CONNECT_GUIDE_TITLE = 'How to connect a real game';
