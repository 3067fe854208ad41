import { describe, expect, it } from 'vitest';
import { API_DOCS_TABS, BROWSER_ONLY_ENDPOINTS } from '@moonrelay/contract/api-docs';
import { endpoints, type Endpoint } from '@moonrelay/contract/endpoints';
import { EXAMPLES } from '@moonrelay/contract/examples';
import { buildDocs, typeLabel } from './docs-model.ts';
import { TEST_OPENAPI } from './test-openapi.ts';

describe('API docs model', () => {
  it('has examples for every contract endpoint a docs tab shows', () => {
    const shownTags = new Set<string>(API_DOCS_TABS.flatMap((tab) => [...tab.tags]));
    const missing = Object.entries(endpoints as Record<string, Endpoint>)
      .filter(([name, endpoint]) => shownTags.has(endpoint.tag) && !BROWSER_ONLY_ENDPOINTS.includes(name))
      .filter(([name]) => !EXAMPLES[name as keyof typeof EXAMPLES])
      .map(([name]) => name);
    // Add an example to contract/src/examples.ts for each name listed here.
    expect(missing).toEqual([]);
  });

  it('groups the operations into the five tabs in order and leaves Admin and browser-only flows off', () => {
    const tabs = buildDocs(TEST_OPENAPI);
    expect(tabs.map((tab) => tab.label)).toEqual(['Auth', 'Scripts', 'Game', 'Analytics', 'Teams']);
    expect(tabs.map((tab) => tab.endpoints.map((endpoint) => endpoint.name))).toEqual([
      ['login', 'currentUser'],
      ['listScripts', 'executeScript', 'executeCode'],
      ['gameCommand', 'gameLoader'],
      ['analyticsUsage'],
      ['listScriptShares', 'getSharedScript', 'listTeams', 'createInvitation', 'removeMember'],
    ]);
  });

  it('documents every Teams and Sharing endpoint of the contract on the Teams tab, none left as browser-only', () => {
    const teamsTab = API_DOCS_TABS.find((tab) => tab.id === 'teams')!;
    const names = Object.entries(endpoints as Record<string, Endpoint>)
      .filter(([, endpoint]) => (teamsTab.tags as readonly string[]).includes(endpoint.tag))
      .map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['createTeam', 'acceptInvitation', 'deleteTeam', 'copySharedScript']));
    expect(names.filter((name) => BROWSER_ONLY_ENDPOINTS.includes(name))).toEqual([]);
    expect(names.filter((name) => !EXAMPLES[name as keyof typeof EXAMPLES])).toEqual([]);
  });

  it('shows the team header on a session’s call that acts on a team’s data, not where the path names the team or a key calls', () => {
    const tabs = buildDocs(TEST_OPENAPI);
    const teams = tabs.find((tab) => tab.id === 'teams')!;
    const headersOf = (name: string) =>
      teams.endpoints.find((endpoint) => endpoint.name === name)!.examples[0]!.headers.map((header) => header.name);
    expect(headersOf('listScriptShares')).toEqual(['Authorization', 'Moonrelay-Team']);
    expect(teams.endpoints[0]!.examples[0]!.headers[1]!.value).toBe('TEAM_ID (optional: without it, your own account)');
    expect(headersOf('getSharedScript')).toEqual([]);
    expect(headersOf('createInvitation')).toEqual(['Authorization', 'Content-Type']);
    // A key acts on the team it was made in.
    expect(tabs[1]!.endpoints[0]!.examples[0]!.headers.map((header) => header.name)).toEqual(['Authorization']);
  });

  it('gives leaving a team its own way of calling the member removal', () => {
    const teams = buildDocs(TEST_OPENAPI)[4]!;
    const remove = teams.endpoints.find((endpoint) => endpoint.name === 'removeMember')!;
    expect(remove.examples.map((way) => [way.title, way.example.params])).toEqual([
      ['Remove a member', { teamId: 'TEAM_ID', userId: 'MEMBER_ID' }],
      ['Leave a team', { teamId: 'TEAM_ID', userId: 'YOUR_USER_ID' }],
    ]);
    expect(remove.pathParams.map((field) => field.name)).toEqual(['teamId', 'userId']);
  });

  it('reads method, path, credential headers, rate limit and errors from the document', () => {
    const [auth, scripts, game] = buildDocs(TEST_OPENAPI);
    const login = auth!.endpoints[0]!;
    expect(login).toMatchObject({ method: 'POST', path: '/api/auth/login', auth: 'none' });
    expect(login.examples[0]!.headers).toEqual([{ name: 'Content-Type', value: 'application/json' }]);
    expect(auth!.endpoints[1]!.examples[0]!.headers).toEqual([
      { name: 'Authorization', value: 'Bearer <session token from login>' },
    ]);

    const execute = scripts!.endpoints[1]!;
    expect(execute.rateLimit).toEqual({ policy: 'general', perMinute: 50 });
    expect(execute.examples[0]!.headers.map((header) => header.value)).toEqual([
      'Bearer <your API key>',
      'application/json',
    ]);
    expect(execute.pathParams).toEqual([{ name: 'id', type: 'string', required: true, notes: [] }]);
    expect(execute.errors).toEqual([
      { status: '401', description: 'Missing or invalid session token or API key' },
      { status: '429', description: 'Rate limit exceeded; see Retry-After' },
    ]);

    const loader = game!.endpoints[1]!;
    expect(loader.textResponse).toBe(true);
    expect(loader.examples[0]!.headers).toEqual([]);
    expect(loader.queryParams[0]).toMatchObject({ name: 'key', required: false, notes: ['at most 200 characters'] });
  });

  it('gives each way of calling an endpoint its title, credential and headers', () => {
    const scripts = buildDocs(TEST_OPENAPI)[1]!;
    const single = scripts.endpoints.find((endpoint) => endpoint.name === 'executeScript')!;
    expect(single.examples.map((way) => way.title)).toEqual([undefined]);
    const execute = scripts.endpoints.find((endpoint) => endpoint.name === 'executeCode')!;
    expect(execute.keyInBody).toBe(true);
    const ways = execute.examples.map((way) => ({
      title: way.title,
      auth: way.auth,
      headers: way.headers.map((header) => header.name),
      body: Object.keys(way.example.body ?? {}),
      snippetAuth: way.snippet.auth,
    }));
    expect(ways).toEqual([
      {
        title: 'Code in the sandbox',
        auth: 'session-or-key',
        headers: ['Authorization', 'Content-Type'],
        body: ['code', 'target'],
        snippetAuth: 'session-or-key',
      },
      {
        title: 'Code in your game',
        auth: 'session-or-key',
        headers: ['Authorization', 'Content-Type'],
        body: ['code'],
        snippetAuth: 'session-or-key',
      },
      {
        title: 'Game client: a script by name',
        auth: 'game-key',
        headers: ['Content-Type'],
        body: ['key', 'script', 'gameData'],
        snippetAuth: 'game-key',
      },
    ]);
  });

  it('lists body fields, merging the variants of a union', () => {
    const [auth, , game] = buildDocs(TEST_OPENAPI);
    expect(auth!.endpoints[0]!.bodyFields).toEqual([
      { name: 'emailOrUsername', type: 'string', required: true, notes: ['1–254 characters'] },
      { name: 'password', type: 'string', required: true, notes: ['1–256 characters'] },
    ]);
    expect(game!.endpoints[0]!.bodyFields).toEqual([
      { name: 'serverId', type: 'string', required: false, notes: [] },
      { name: 'type', type: '"teleport" | "heal"', required: true, notes: [] },
      { name: 'data', type: 'object', required: false, notes: [] },
    ]);
  });

  it('keeps parameter descriptions and defaults', () => {
    const analytics = buildDocs(TEST_OPENAPI)[3]!.endpoints[0]!;
    expect(analytics.queryParams).toEqual([
      {
        name: 'period',
        type: '"1h" | "24h" | "7d" | "30d"',
        required: false,
        notes: ['default "24h"'],
        description: 'How far back',
      },
    ]);
  });

  it('names nullable types as OpenAPI 3.1 writes them, and as 3.0 did', () => {
    expect(typeLabel({ type: ['string', 'null'] }, TEST_OPENAPI)).toBe('string | null');
    expect(typeLabel({ type: ['string', 'null'], format: 'date-time' }, TEST_OPENAPI)).toBe(
      'string (date-time) | null',
    );
    expect(typeLabel({ anyOf: [{ $ref: '#/components/schemas/PlayerData' }, { type: 'null' }] }, TEST_OPENAPI)).toBe(
      'PlayerData | null',
    );
    expect(typeLabel({ type: 'integer', nullable: true }, TEST_OPENAPI)).toBe('integer | null');
  });
});
