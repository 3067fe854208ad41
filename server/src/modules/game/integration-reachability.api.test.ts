import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { REACHABILITY_TEXT } from '../../http/reachability.ts';

const PATH = '/api/game/integration-scripts';

/** A server with these settings, its first account (so its admin) and an ordinary member. */
function serverWith(env: Record<string, string>) {
  const setup = {} as { server: TestServer; admin: string; member: string };
  beforeAll(async () => {
    setup.server = await startTestServer(engines[0]!, env);
    setup.admin = (await registerUser(setup.server)).token;
    setup.member = (await registerUser(setup.server)).token;
  });
  afterAll(() => setup.server.close());
  return setup;
}

const scriptsFor = async (server: TestServer, token: string) => {
  const answer = await server.call('GET', PATH, { token });
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('integration scripts: whether a game on Roblox can reach their address', () => {
  describe('without PUBLIC_URL, opened at this machine', () => {
    const setup = serverWith({});

    it('says the address cannot be reached, and tells the admin to set PUBLIC_URL', async () => {
      const { server, admin } = setup;
      const answer = await scriptsFor(server, admin);
      expect(answer.quickLoader).toContain(`${server.url}/api/game/loader?key=`);
      expect(answer.reachability).toEqual({
        reachable: false,
        address: server.url,
        https: false,
        problem: expect.stringMatching(/cannot reach 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback address/),
        fix: REACHABILITY_TEXT.adminFix,
      });
    });

    it('tells a member to ask the operator instead of naming settings they cannot change', async () => {
      const { server, member } = setup;
      const { reachability } = await scriptsFor(server, member);
      expect(reachability.reachable).toBe(false);
      expect(reachability.fix).toBe('Ask the operator of this Moonrelay to set its public address.');
      expect(JSON.stringify(reachability)).not.toContain('PUBLIC_URL');
    });

    it('shows no scripts at a host it does not serve: 400, for admin and member alike', async () => {
      const { server, admin, member } = setup;
      for (const token of [admin, member]) {
        const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
          const url = new URL(server.url);
          const request = http.request(
            {
              host: url.hostname,
              port: url.port,
              path: PATH,
              headers: { host: `192.168.1.20:${url.port}`, authorization: `Bearer ${token}` },
            },
            (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('end', () =>
                resolve({ status: response.statusCode!, text: Buffer.concat(chunks).toString() }),
              );
            },
          );
          request.on('error', reject);
          request.end();
        });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.text)).toEqual({ error: ERRORS.hostNotServed });
      }
    });
  });

  describe('with PUBLIC_URL at a public https address', () => {
    const setup = serverWith({ PUBLIC_URL: 'https://moonrelay.games' });

    it('says it can be reached, with nothing to fix', async () => {
      const { server, admin, member } = setup;
      for (const token of [admin, member]) {
        const answer = await scriptsFor(server, token);
        expect(answer.quickLoader).toContain('"https://moonrelay.games/api/game/loader?key=');
        expect(answer.reachability).toEqual({ reachable: true, address: 'https://moonrelay.games', https: true });
      }
    });
  });

  describe('with PUBLIC_URL at a public plain-http address', () => {
    const setup = serverWith({ PUBLIC_URL: 'http://moonrelay.games:8080/' });

    it('can be reached; the admin is told to put HTTPS in front, the member is not', async () => {
      const { server, admin, member } = setup;
      const forAdmin = await scriptsFor(server, admin);
      expect(forAdmin.reachability).toEqual({
        reachable: true,
        address: 'http://moonrelay.games:8080',
        https: false,
        note: REACHABILITY_TEXT.plainHttp,
      });
      expect((await scriptsFor(server, member)).reachability).toEqual({
        reachable: true,
        address: 'http://moonrelay.games:8080',
        https: false,
      });
    });
  });

  describe('with PUBLIC_URL at an address of the local network', () => {
    const setup = serverWith({ PUBLIC_URL: 'http://192.168.1.20:3000' });

    it('says so, naming the address the scripts carry', async () => {
      const { server, admin } = setup;
      const answer = await scriptsFor(server, admin);
      expect(answer.gameIntegration).toContain('http://192.168.1.20:3000');
      expect(answer.reachability).toMatchObject({
        reachable: false,
        address: 'http://192.168.1.20:3000',
        problem: expect.stringContaining('192.168.1.20 is a private address (192.168.0.0/16)'),
        fix: REACHABILITY_TEXT.adminFix,
      });
    });
  });
});
