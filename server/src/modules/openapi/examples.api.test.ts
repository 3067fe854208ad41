import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_DOCS_TABS,
  listDocsOperations,
  snippetRequest,
  type DocsOperation,
  type OpenApiDocument,
} from '@moonrelay/contract/api-docs';
import { ErrorResponseSchema } from '@moonrelay/contract/common';
import { endpoints, type Endpoint } from '@moonrelay/contract/endpoints';
import { renderSnippets, type Snippets } from '@moonrelay/contract/example-snippets';
import {
  API_KEY_ID_PLACEHOLDER,
  API_KEY_PLACEHOLDER,
  EXAMPLE_OPEN_CLOUD_KEY,
  EXAMPLE_UNIVERSE_ID,
  EXAMPLES,
  examplesOf,
  CLOUD_EXECUTION_ID_PLACEHOLDER,
  EXAMPLE_PLACE_ID,
  EXECUTION_ID_PLACEHOLDER,
  fillPlaceholders,
  INVITATION_ID_PLACEHOLDER,
  INVITATION_TOKEN_PLACEHOLDER,
  MEMBER_ID_PLACEHOLDER,
  SCHEDULE_ID_PLACEHOLDER,
  DESTINATION_ID_PLACEHOLDER,
  NOTIFICATION_EVENT_ID_PLACEHOLDER,
  SCRIPT_ID_PLACEHOLDER,
  SCRIPT_TOKEN_PLACEHOLDER,
  SESSION_TOKEN_PLACEHOLDER,
  SHARE_ID_PLACEHOLDER,
  SHARE_TOKEN_PLACEHOLDER,
  TEAM_ID_PLACEHOLDER,
  TEMP_SCRIPT_ID_PLACEHOLDER,
  USER_ID_PLACEHOLDER,
  type EndpointExample,
} from '@moonrelay/contract/examples';
import { engines } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { fakeRoblox } from '../../../test/fake-roblox.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { checkLuau } from '../lua-tools/luau-syntax.ts';
import { buildOpenApiDocument } from './openapi.ts';

/**
 * The API docs page's examples work: every cURL and JavaScript example of every endpoint the page
 * shows (each way of calling it, its variants included) is run, as the text the page renders,
 * against a real server (cURL through the shell, JavaScript in a fresh Node process), and must
 * answer in the documented success shape. The Lua examples must pass the Luau syntax check (they
 * need a Roblox game server to run).
 */

const run = promisify(execFile);
const TIMEOUT_MS = 20_000;

const doc = buildOpenApiDocument() as unknown as OpenApiDocument;
const shown = listDocsOperations(doc);
const endpointOf = (op: DocsOperation) => (endpoints as Record<string, Endpoint>)[op.name]!;
const exampleOf = (op: DocsOperation) => EXAMPLES[op.name as keyof typeof EXAMPLES]!;

/** Every example the page shows, as [test name, operation, example]: an endpoint's own, then its variants. */
const shownExamples = shown.flatMap((op) =>
  examplesOf(exampleOf(op)).map(
    (example, index) => [index === 0 ? op.name : `${op.name}: ${example.title}`, op, example] as const,
  ),
);

/** The keys a reader sees at the top of an answer (of the first item, for a list). */
function shape(value: unknown): string[] {
  if (Array.isArray(value)) return shape(value[0]);
  return value && typeof value === 'object' ? Object.keys(value).sort() : [];
}

describe('API docs examples: coverage and documented shapes', () => {
  it('shows every public tag and every endpoint it shows has examples', () => {
    expect(shown.length).toBeGreaterThanOrEqual(20);
    for (const tab of API_DOCS_TABS)
      expect(
        shown.some((op) => op.tab === tab.id),
        tab.label,
      ).toBe(true);
    // An endpoint added to a shown tag needs its example in contract/src/examples.ts.
    expect(shown.filter((op) => !exampleOf(op)).map((op) => op.name)).toEqual([]);
    // Admin endpoints are not part of the public page.
    expect(shown.some((op) => op.path.startsWith('/api/admin/'))).toBe(false);
  });

  it('titles every way of calling an endpoint that has several, and nests no variants', () => {
    const several = shown.filter((op) => exampleOf(op).variants?.length);
    expect(several.map((op) => op.name)).toContain('executeCode');
    for (const op of several) {
      for (const example of examplesOf(exampleOf(op))) expect(example.title, op.name).toBeTruthy();
      for (const variant of exampleOf(op).variants!) expect(variant.variants, op.name).toBeUndefined();
    }
  });

  it.each(shownExamples)('%s: the documented request, answer and error match the contract', (_name, op, example) => {
    const endpoint = endpointOf(op);
    expect(endpoint.response.safeParse(example.response).error).toBeUndefined();
    if (endpoint.body) {
      expect(example.body, 'a body example').toBeDefined();
      expect(endpoint.body.safeParse(example.body).error).toBeUndefined();
    } else {
      expect(example.body).toBeUndefined();
    }
    if (endpoint.query) expect(endpoint.query.safeParse(example.query ?? {}).error).toBeUndefined();
    for (const name of endpoint.path.matchAll(/:(\w+)/g)) expect(example.params?.[name[1]!], name[1]).toBeDefined();
    expect(ErrorResponseSchema.safeParse(example.error.body).error).toBeUndefined();
    expect([...endpoint.errors, 429]).toContain(example.error.status);
  });
});

/**
 * A fresh account for one example, so that examples cannot disturb each other, with what a reader
 * fills in by hand: their session token, one of their scoped API keys, one of their scripts (the one the create example makes,
 * which the game client's example fetches by name), a kept long script, one of their runs and a schedule. Its game is connected
 * (one ping) and never answers, so a run on the game answers queued as the example documents.
 */
async function exampleContext(server: TestServer) {
  const { token, user } = await registerUser(server);
  const created = await server.call('POST', '/api/scripts', { token, body: EXAMPLES.createScript!.body });
  expect(created.status).toBe(200);
  const ping = await server.call('POST', '/api/game/ping', { body: { key: user.apiKey, serverId: 'studio' } });
  expect(ping.status).toBe(200);
  const temp = await server.call('POST', '/api/scripts/temp', { token, body: EXAMPLES.createTempScript!.body });
  expect(temp.status).toBe(200);
  const loadUrl = new URL(temp.body.url as string);
  const run = await server.call('POST', '/api/scripts/execute', {
    token,
    body: { code: 'print("Hello from Moonrelay")', target: 'sandbox' },
  });
  expect(run.status).toBe(200);
  const scopedKey = await server.call('POST', '/api/user/api-keys', { token, body: EXAMPLES.createApiKey!.body });
  expect(scopedKey.status).toBe(200);
  const schedule = await server.call('POST', `/api/scripts/${created.body.id}/schedules`, {
    token,
    body: EXAMPLES.createSchedule!.body,
  });
  expect(schedule.status).toBe(200);
  // A game server with the examples' player on it, for the Players calls.
  const game = await server.call('POST', '/api/game/ping', {
    body: {
      key: user.apiKey,
      serverId: 'b0f3c0de-5d1e-4f4e-9a49-1c2d3e4f5a6b',
      roster: {
        count: 1,
        players: [
          { userId: 156, name: 'builderman', displayName: 'Builder', accountAgeDays: 7215 },
          { userId: 157, name: 'builderwoman', displayName: 'Builder', accountAgeDays: 7000 },
        ],
      },
    },
  });
  expect(game.status).toBe(200);
  // The second player is banned, for the ban list, its edit and its unban.
  const banned = await server.call('POST', '/api/players/157/ban', {
    token,
    body: { durationSeconds: -1, displayReason: 'Exploiting: flying out of the map' },
  });
  expect(banned.status).toBe(200);
  const destination = await server.call('POST', '/api/notifications/destinations', {
    token,
    body: EXAMPLES.createNotificationDestination!.body,
  });
  expect(destination.status).toBe(200);
  const testEvent = await server.call('POST', `/api/notifications/destinations/${destination.body.id}/test`, { token });
  expect(testEvent.status).toBe(200);
  // An Open Cloud key (Roblox's stand-in knows it), for the key and bans calls.
  const openCloudKey = await server.call('PUT', '/api/open-cloud/key', {
    token,
    body: EXAMPLES.saveOpenCloudKey!.body,
  });
  expect(openCloudKey.status).toBe(200);
  // A run in Roblox that waits in Moonrelay's queue (Roblox's stand-in takes no new tasks), for the cancel example.
  const place = await server.call('PUT', '/api/open-cloud/place', { token, body: { placeId: EXAMPLE_PLACE_ID } });
  expect(place.status).toBe(200);
  const cloudRun = await server.call('POST', '/api/scripts/execute', {
    token,
    body: { code: 'print(game.PlaceId)', target: 'cloud' },
  });
  expect(cloudRun.status, cloudRun.text).toBe(200);
  return {
    apiKey: user.apiKey as string,
    fill: {
      [SESSION_TOKEN_PLACEHOLDER]: token,
      [SCRIPT_ID_PLACEHOLDER]: created.body.id as string,
      [TEMP_SCRIPT_ID_PLACEHOLDER]: temp.body.id as string,
      [SCRIPT_TOKEN_PLACEHOLDER]: loadUrl.searchParams.get('key')!,
      [EXECUTION_ID_PLACEHOLDER]: run.body.executionId as string,
      [CLOUD_EXECUTION_ID_PLACEHOLDER]: cloudRun.body.executionId as string,
      [API_KEY_ID_PLACEHOLDER]: scopedKey.body.id as string,
      [SCHEDULE_ID_PLACEHOLDER]: schedule.body.id as string,
      [DESTINATION_ID_PLACEHOLDER]: destination.body.id as string,
      [NOTIFICATION_EVENT_ID_PLACEHOLDER]: testEvent.body.eventId as string,
    },
  };
}

/** The three people of the Teams tab's examples, registered once per server: a team's owner, its member, and someone invited. */
async function teamPeople(server: TestServer) {
  return { owner: await registerUser(server), member: await registerUser(server), invitee: await registerUser(server) };
}
type TeamPeople = Awaited<ReturnType<typeof teamPeople>>;

/** The Teams examples made by someone other than the team's owner, by test name. */
const TEAM_CALLERS: Record<string, keyof TeamPeople> = {
  // Joining is done by someone not yet in the team.
  acceptInvitation: 'invitee',
  // Leaving is done by the member who leaves (the owner, its last, cannot).
  'removeMember: Leave a team': 'member',
};

/**
 * A team of its own for a Teams example, with what a reader fills in: the owner's script and a
 * share of it, the team (the create example's), a member who joined it by an invitation link (the
 * invite example's role) and an open invitation. The same three people serve every team, so no
 * example registers anyone; the owner makes one team each time (TEAMS_PER_PERSON allows 20, the
 * Teams tab's examples need 14). `caller` is whose session and own id the example carries.
 */
async function teamContext(server: TestServer, people: TeamPeople, caller: keyof TeamPeople) {
  const { owner, member } = people;
  const token = owner.token;
  const script = await server.call('POST', '/api/scripts', { token, body: EXAMPLES.createScript!.body });
  expect(script.status).toBe(200);
  const team = await server.call('POST', '/api/teams', { token, body: EXAMPLES.createTeam!.body });
  expect(team.status, team.text).toBe(200);
  const teamId = team.body.id as string;
  const invite = async () => {
    const invitation = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token,
      body: EXAMPLES.createInvitation!.body,
    });
    expect(invitation.status).toBe(200);
    return invitation.body as { id: string; token: string };
  };
  const joined = await server.call('POST', '/api/teams/join', {
    token: member.token,
    body: { token: (await invite()).token },
  });
  expect(joined.status).toBe(200);
  const open = await invite();
  const share = await server.call('POST', `/api/scripts/${script.body.id}/shares`, { token });
  expect(share.status).toBe(200);
  const by = people[caller];
  return {
    apiKey: owner.user.apiKey as string,
    fill: {
      [SESSION_TOKEN_PLACEHOLDER]: by.token,
      [USER_ID_PLACEHOLDER]: by.user.id as string,
      [SCRIPT_ID_PLACEHOLDER]: script.body.id as string,
      [TEAM_ID_PLACEHOLDER]: teamId,
      [MEMBER_ID_PLACEHOLDER]: member.user.id as string,
      [INVITATION_ID_PLACEHOLDER]: open.id,
      [INVITATION_TOKEN_PLACEHOLDER]: open.token,
      [SHARE_ID_PLACEHOLDER]: share.body.id as string,
      [SHARE_TOKEN_PLACEHOLDER]: share.body.token as string,
    },
  };
}

interface ExampleContext {
  apiKey: string;
  fill: Record<string, string>;
}

function renderFor(server: TestServer, op: DocsOperation, example: EndpointExample, context: ExampleContext) {
  const snippets = renderSnippets(snippetRequest(op, example), { origin: server.url, apiKey: context.apiKey });
  const fill = (text: string) => fillPlaceholders(text, context.fill);
  return {
    curl: fill(snippets.curl),
    javascript: fill(snippets.javascript),
    lua: fill(snippets.lua),
  } satisfies Snippets;
}

function expectDocumentedAnswer(op: DocsOperation, example: EndpointExample, output: string) {
  if (op.textResponse) {
    expect(output.split('\n')[0]).toBe(String(example.response).split('\n')[0]);
    return;
  }
  const answer: unknown = JSON.parse(output);
  const parsed = endpointOf(op).response.safeParse(answer);
  expect(parsed.error, output.slice(0, 500)).toBeUndefined();
  expect(shape(answer)).toEqual(shape(example.response));
}

for (const language of ['curl', 'javascript'] as const) {
  // Each language against its own server: both register the documented account, then sign in to it.
  describe(`API docs examples: ${language} against a test server`, () => {
    const roblox = fakeRoblox();
    const openCloud = fakeOpenCloud();
    let server: TestServer;
    beforeAll(async () => {
      const base = await roblox.start();
      openCloud.addKey(EXAMPLE_OPEN_CLOUD_KEY, EXAMPLE_UNIVERSE_ID, [
        'universe.user-restriction:read',
        'universe.user-restriction:write',
        'universe.place.luau-execution-session:write',
      ]);
      openCloud.luau.addPlace(EXAMPLE_UNIVERSE_ID, EXAMPLE_PLACE_ID);
      // Roblox takes no new tasks: the examples' cloud runs wait in Moonrelay's queue (the cancel example).
      openCloud.luau.setLimits({ createsPerMinute: 0 });
      openCloud.addLog(EXAMPLE_UNIVERSE_ID, {
        user: 'users/156',
        moderator: { robloxUser: 'users/45348281' },
        createTime: '2026-11-27T14:05:00.000Z',
        active: true,
        startTime: '2026-11-27T14:05:00.000Z',
        duration: '86400s',
        privateReason: 'Speed hack, seen by two moderators',
        displayReason: 'Exploiting',
        excludeAltAccounts: false,
      });
      server = await startTestServer(engines[0]!, {
        ROBLOX_USERS_API_URL: base,
        ROBLOX_THUMBNAILS_API_URL: base,
        ROBLOX_OPEN_CLOUD_URL: await openCloud.start(),
        // The examples' game never answers: a run on it answers queued once this passes.
        GAME_EXECUTION_WAIT_MS: '100',
      });
    });
    afterAll(async () => {
      await server?.close();
      await roblox.stop();
      await openCloud.stop();
    });

    it('the served /api/openapi.json shows the same operations', async () => {
      const served = (await server.call('GET', '/api/openapi.json')).body as OpenApiDocument;
      expect(listDocsOperations(served).map((op) => `${op.tab} ${op.method} ${op.path} ${op.name}`)).toEqual(
        shown.map((op) => `${op.tab} ${op.method} ${op.path} ${op.name}`),
      );
    });

    // A reading example (GET) changes nothing another could see, so they share one account; every
    // other example gets a fresh one (it may delete, revoke or fill what the next one reads). The
    // Teams tab's examples work on a team instead: the reading ones share one, every other gets a
    // fresh team of the same three people.
    let readingContext: Promise<ExampleContext> | undefined;
    let people: Promise<TeamPeople> | undefined;
    let readingTeam: Promise<ExampleContext> | undefined;
    const contextFor = (name: string, op: DocsOperation): Promise<ExampleContext> => {
      const reading = op.method.toLowerCase() === 'get';
      if (op.tab === 'teams') {
        const caller = TEAM_CALLERS[name] ?? 'owner';
        const fresh = () => (people ??= teamPeople(server)).then((each) => teamContext(server, each, caller));
        return reading && caller === 'owner' ? (readingTeam ??= fresh()) : fresh();
      }
      return reading ? (readingContext ??= exampleContext(server)) : exampleContext(server);
    };

    it.each(shownExamples)('%s answers as documented', async (name, op, example) => {
      const context = await contextFor(name, op);
      const snippet = renderFor(server, op, example, context)[language];
      expect(snippet).not.toContain(API_KEY_PLACEHOLDER);
      const { stdout } =
        language === 'curl'
          ? await run('sh', ['-c', snippet], { timeout: TIMEOUT_MS })
          : await run(process.execPath, ['--input-type=module', '-e', snippet], { timeout: TIMEOUT_MS });
      expectDocumentedAnswer(op, example, stdout.trimEnd());
    });
  });
}

describe('API docs examples: Lua', () => {
  it.each(shownExamples)('%s passes the Luau syntax check', (_name, op, example) => {
    const { lua } = renderSnippets(snippetRequest(op, example), {
      origin: 'https://moonrelay.example.com',
      apiKey: 'mr_cNhVSVDoTsbl8HadMirhCD0YrPTc',
    });
    expect(checkLuau(lua)).toEqual({ ok: true, diagnostics: [] });
    expect(lua).toContain('HttpService:RequestAsync');
  });
});
