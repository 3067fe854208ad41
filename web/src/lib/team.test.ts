import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { signInAs, testUser } from '../test/fixtures.ts';
import { chooseTeam } from '../test/teams.ts';
import { apiRequest } from './api-client.ts';
import { useSession } from './session.ts';
import { useTeam } from './team.ts';

/** The headers of every request sent, in order. */
function recordHeaders() {
  const sent: Headers[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Headers(init?.headers));
      return new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });
    }),
  );
  return sent;
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.getState().signOut();
});

describe('the team a request acts on', () => {
  it('names no team on the person’s own account', async () => {
    const sent = recordHeaders();
    await apiRequest('GET', '/api/scripts');
    expect(sent[0]!.has(TEAM_HEADER)).toBe(false);
  });

  it('names the chosen team on every request, and none again once back on the own account', async () => {
    const sent = recordHeaders();
    chooseTeam('t1');
    await apiRequest('GET', '/api/scripts');
    await apiRequest('POST', '/api/scripts', { name: 'Fly' });
    chooseTeam('u1');
    await apiRequest('GET', '/api/scripts');
    expect(sent.map((headers) => headers.get(TEAM_HEADER))).toEqual(['t1', 't1', null]);
  });

  it('is remembered for the person who chose it, and forgotten when they sign out', () => {
    chooseTeam('t1');
    expect(localStorage.getItem('team:u1')).toBe('t1');

    // Someone else signing in on this browser starts on their own account.
    signInAs(testUser({ id: 'u2', username: 'bob' }));
    expect(useTeam.getState().teamId).toBeNull();
    // The first person comes back to their team.
    signInAs(testUser());
    expect(useTeam.getState().teamId).toBe('t1');

    useSession.getState().signOut();
    expect(useTeam.getState().teamId).toBeNull();
    expect(localStorage.getItem('team:u1')).toBeNull();
  });
});
