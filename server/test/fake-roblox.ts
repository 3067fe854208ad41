import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for Roblox's users and thumbnails APIs, answering in their documented shapes. */
export function fakeRoblox() {
  const hits: string[] = [];
  let down = false;
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (down) return send(503, { errors: [{ code: 0, message: 'InternalServerError' }] });
    const user = /^\/v1\/users\/(\d+)$/.exec(url.pathname);
    if (user) {
      if (user[1] === '404') return send(404, { errors: [{ code: 3, message: 'The user id is invalid.' }] });
      if (user[1] === '777') return res.end('not json');
      return send(200, {
        id: Number(user[1]),
        name: 'builderman',
        displayName: 'Builder',
        description: 'Hi',
        created: '2006-02-27T21:06:40.3Z',
        isBanned: false,
        hasVerifiedBadge: true,
        externalAppDisplayName: null,
      });
    }
    if (url.pathname === '/v1/users/avatar-headshot') {
      const id = Number(url.searchParams.get('userIds'));
      return send(200, {
        data: [
          { targetId: id, state: id === 2 ? 'Pending' : 'Completed', imageUrl: `https://tr.rbxcdn.com/${id}.png` },
        ],
      });
    }
    send(404, {});
  });
  return {
    hits,
    setDown: (value: boolean) => (down = value),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
