import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { robloxImageUrl } from '../../http/image-sources.ts';

/** What a browser is told to keep, to trust and to load. */
describe('attack: what the browser keeps and loads', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { TRUST_PROXY: 'true' });
    admin = await registerUser(server);
  });
  afterAll(() => server.close());

  it.each(['/api/user', '/api/admin/users'])('answers %s with Cache-Control: no-store', async (path) => {
    const answer = await server.call('GET', path, { token: admin.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('sends HSTS only on answers that came over HTTPS', async () => {
    const plain = await server.call('GET', '/api/health');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const secure = await server.call('GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('lets the page connect to its own origin only', async () => {
    const answer = await server.call('GET', '/api/health');
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/\bwss?:/);
  });

  it.each([
    ['https://tr.rbxcdn.com/156.png', 'https://tr.rbxcdn.com/156.png'],
    ['javascript:alert(1)', null],
    ['data:image/svg+xml,<svg onload=alert(1)>', null],
    ['http://tr.rbxcdn.com/156.png', null],
    ['https://evil.example/156.png', null],
    ['https://rbxcdn.com.evil.example/156.png', null],
    ['not a url', null],
  ])('keeps the avatar URL %j as %j', (url, kept) => {
    expect(robloxImageUrl(url)).toBe(kept);
  });

  it("lets the page show images from itself, data:/blob: URLs, Roblox's CDN and the catalogue's site only", async () => {
    const answer = await server.call('GET', '/api/health');
    const imgSrc = answer.headers
      .get('content-security-policy')!
      .split('; ')
      .find((directive) => directive.startsWith('img-src '));
    expect(imgSrc).toBe(
      `img-src 'self' data: blob: https://*.rbxcdn.com ${new URL(server.config.catalogue.siteUrl).origin}`,
    );
    expect(imgSrc).not.toMatch(/ https:( |$)/);
  });
});
