/**
 * Runs the fake of Roblox Open Cloud (server/test/fake-open-cloud.ts) on its own, to develop cloud
 * runs and bans without a real Roblox key or game: `npm run fake:open-cloud [-- port]` or
 * `npx tsx scripts/fake-open-cloud.ts [port]` (default 3100, beside the app's 3000). It prints a key
 * with every scope, the universe and place to use it on, and how to point Moonrelay at it. Scripts
 * of cloud runs really run, in Moonrelay's own Lua sandbox; Ctrl+C stops it.
 */
import { fakeOpenCloud, LUAU_EXECUTION_SCOPE, USER_RESTRICTION_SCOPE } from '../server/test/fake-open-cloud.ts';

const DEFAULT_PORT = 3100;
const API_KEY = 'fake-open-cloud-dev-key';
const UNIVERSE_ID = '1000000001';
const PLACE_ID = '2000000001';

const port = Number(process.argv[2] ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`Usage: npx tsx scripts/fake-open-cloud.ts [port]   (a port number, not ${process.argv[2]})`);
  process.exit(1);
}

const fake = fakeOpenCloud();
const url = await fake.start(port);
fake.addKey(API_KEY, UNIVERSE_ID, [
  `${LUAU_EXECUTION_SCOPE}:read`,
  `${LUAU_EXECUTION_SCOPE}:write`,
  `${USER_RESTRICTION_SCOPE}:read`,
  `${USER_RESTRICTION_SCOPE}:write`,
]);
fake.luau.addPlace(UNIVERSE_ID, PLACE_ID);

console.log(`A fake Roblox Open Cloud is listening on ${url}

  API key:      ${API_KEY}
  Universe id:  ${UNIVERSE_ID}
  Place id:     ${PLACE_ID}  (head version 1)

Point Moonrelay at it:

  ROBLOX_OPEN_CLOUD_URL=${url} npm start

and save the key above for the universe in Moonrelay. In a cloud run's script, the comment
--@fake:never-ends keeps the task running forever, --@fake:lose makes Roblox lose it, and
--@fake:hold keeps it running until this process stops. Limits are Roblox's: 5 tasks a minute,
200 task reads and 45 log reads a minute, 10 unfinished tasks per place.`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void fake.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
