import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Compose {
  services: Record<
    string,
    {
      build?: string;
      image?: string;
      command?: string[];
      environment?: Record<string, string>;
      depends_on?: object;
      profiles?: string[];
      ports?: unknown[];
      volumes?: unknown[];
    }
  >;
  volumes?: Record<string, unknown>;
}

/**
 * Compose itself validates the file (`docker compose config`, or the standalone `docker-compose`
 * that CI installs from Debian); the other checks are what it cannot see: that the files agree
 * with each other and with the code.
 */
const composeCommand = (): string[] | undefined => {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return undefined;
};

/** Caddy's own parser validates deploy/Caddyfile (`caddy adapt`; Debian's `caddy` in CI). */
const caddyCli = spawnSync('caddy', ['version'], { encoding: 'utf8' }).status === 0;

/** The Caddyfile as Caddy reads it with these variables, from the JSON config it adapts to. */
function adaptCaddyfile(env: Record<string, string>) {
  const adapted = spawnSync(
    'caddy',
    ['adapt', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env } },
  );
  expect(adapted.status, adapted.stderr).toBe(0);
  // Caddy warns about what it accepts but would have written otherwise (its formatting, say).
  expect(adapted.stderr).not.toMatch(/WARN/);
  const config = JSON.parse(adapted.stdout) as {
    apps: {
      http: {
        servers: Record<
          string,
          {
            listen: string[];
            routes: {
              match: { host: string[] }[];
              handle: { routes: { handle: { handler: string; upstreams: { dial: string }[] }[] }[] }[];
            }[];
          }
        >;
      };
    };
  };
  const server = Object.values(config.apps.http.servers)[0]!;
  const route = server.routes[0]!;
  const proxy = route.handle[0]!.routes[0]!.handle[0]!;
  return {
    listen: server.listen,
    hosts: route.match[0]!.host,
    handler: proxy.handler,
    upstreams: proxy.upstreams.map((upstream) => upstream.dial),
  };
}

describe('deployment files', () => {
  const compose = yaml.load(read('docker-compose.yml')) as Compose;

  const composeCli = composeCommand();
  // CI installs it; elsewhere the check says what it needs instead of passing quietly.
  it.skipIf(!composeCli && !process.env.CI)(
    `is accepted by ${composeCli?.join(' ') ?? 'docker compose (not installed: apt-get install docker-compose)'} config, given APP_SECRET, and refused without it`,
    () => {
      expect(composeCli, 'docker compose or docker-compose must be installed').toBeDefined();
      // An empty env file: a developer's own .env or shell must not decide the outcome.
      const emptyEnvFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-compose-')), '.env');
      fs.writeFileSync(emptyEnvFile, '');
      const config = (env: Record<string, string>, options: string[] = []) =>
        spawnSync(
          composeCli![0]!,
          [
            ...composeCli!.slice(1),
            '--file',
            path.join(root, 'docker-compose.yml'),
            '--env-file',
            emptyEnvFile,
            ...options,
            'config',
          ],
          {
            encoding: 'utf8',
            env: { PATH: process.env.PATH ?? '', ...env },
          },
        );
      const accepted = config({ APP_SECRET: 'x'.repeat(32) });
      expect(accepted.status, accepted.stderr).toBe(0);
      const services = (yaml.load(accepted.stdout) as Compose).services;
      expect(services['server-2']!.environment?.APP_SECRET).toBe('x'.repeat(32));
      const refused = config({});
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/set APP_SECRET/);
      // The https profile, as docs/connect-a-real-game.md sets it up.
      const https = config(
        {
          APP_SECRET: 'x'.repeat(32),
          MOONRELAY_DOMAIN: 'moonrelay.example.com',
          PUBLIC_URL: 'https://moonrelay.example.com',
        },
        ['--profile', 'https'],
      );
      expect(https.status, https.stderr).toBe(0);
      const withCaddy = (yaml.load(https.stdout) as Compose).services;
      expect(withCaddy.caddy!.profiles).toEqual(['https']);
      expect(withCaddy.caddy!.environment?.MOONRELAY_DOMAIN).toBe('moonrelay.example.com');
      expect(withCaddy['server-1']!.environment?.PUBLIC_URL).toBe('https://moonrelay.example.com');
    },
  );

  it('runs PostgreSQL, Redis, two server instances, a worker and a proxy; Caddy only under a profile', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'caddy',
      'postgres',
      'proxy',
      'redis',
      'server-1',
      'server-2',
      'worker',
    ]);
    // The default `docker compose up` starts everything but the profile's Caddy.
    const profiled = Object.entries(compose.services).filter(([, service]) => service.profiles !== undefined);
    expect(profiled.map(([name, service]) => [name, service.profiles])).toEqual([['caddy', ['https']]]);
    for (const name of ['server-1', 'server-2', 'worker']) {
      const service = compose.services[name]!;
      expect(service.build, name).toBe('.');
      expect(service.environment?.DATABASE_URL, name).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(service.environment?.REDIS_URL, name).toBe('redis://redis:6379');
      expect(Object.keys(service.depends_on ?? {}), name).toEqual(expect.arrayContaining(['postgres', 'redis']));
    }
  });

  it('uses only settings the server knows, and they parse', () => {
    // Compose's own interpolation: ${NAME:-default} takes the default, ${NAME:?message} a value set here.
    const given: Record<string, string> = { APP_SECRET: 'x'.repeat(32), METRICS_TOKEN: 'y'.repeat(16) };
    const env = Object.fromEntries(
      Object.entries(compose.services['server-1']!.environment ?? {}).map(([name, value]) => [
        name,
        String(value).replace(
          /\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g,
          (_, variable: string, fallback?: string) => given[variable] ?? fallback ?? '',
        ),
      ]),
    );
    const example = read('.env.example');
    for (const name of Object.keys(env))
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    const config = loadConfig(env as NodeJS.ProcessEnv);
    expect(config.database.kind).toBe('postgres');
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.trustProxy).toBe(true);
  });

  it('starts the entry points that exist, behind a proxy that knows both instances', () => {
    const workerCommand = compose.services.worker!.command!.join(' ');
    expect(workerCommand).toContain('server/src/worker-main.ts');
    expect(fs.existsSync(path.join(root, 'server/src/worker-main.ts'))).toBe(true);
    const dockerfile = read('Dockerfile');
    const cmd = /^CMD \[(.*)\]$/m.exec(dockerfile)?.[1];
    expect(cmd).toContain('server/src/main.ts');
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toContain('server server-1:3000;');
    expect(nginx).toContain('server server-2:3000;');
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    // Room for thousands of long-polling game servers: each holds two connections through the proxy.
    const main = read('deploy/nginx-main.conf');
    expect(Number(/worker_connections (\d+);/.exec(main)?.[1])).toBeGreaterThanOrEqual(20_000);
    expect(main).toContain('include /etc/nginx/conf.d/*.conf;');
    expect(read('docker-compose.yml')).toContain('./deploy/nginx-main.conf:/etc/nginx/nginx.conf:ro');
  });
  it('puts Caddy in front of both instances for HTTPS with --profile https, keeping its certificates', () => {
    const caddy = compose.services.caddy!;
    expect(caddy.image).toMatch(/^caddy:2/);
    expect(caddy.volumes).toEqual(
      expect.arrayContaining(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro', 'caddy-data:/data']),
    );
    expect(Object.keys(compose.volumes ?? {})).toEqual(expect.arrayContaining(['caddy-data', 'caddy-config']));
    expect(caddy.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    expect(caddy.environment?.MOONRELAY_DOMAIN).toBe('${MOONRELAY_DOMAIN:-localhost}');
    expect(caddy.depends_on).toEqual(['server-1', 'server-2']);
    // The Caddyfile's default upstreams are the instances compose runs, on the port they listen on.
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toContain('{$MOONRELAY_DOMAIN:localhost} {');
    expect(caddyfile).toContain('reverse_proxy {$MOONRELAY_UPSTREAMS:server-1:3000 server-2:3000} {');
    expect(caddyfile).toMatch(/lb_policy ip_hash/);
    expect(loadConfig({}).port).toBe(3000);
    // The guide the comments point at is there.
    expect(caddyfile).toContain('docs/connect-a-real-game.md');
    expect(fs.existsSync(path.join(root, 'docs/connect-a-real-game.md'))).toBe(true);
  });

  it.skipIf(!caddyCli && !process.env.CI)(
    `has a Caddyfile that ${caddyCli ? 'caddy adapt' : 'caddy (not installed: apt-get install caddy)'} accepts, for compose and for one machine`,
    () => {
      expect(caddyCli, 'caddy must be installed').toBe(true);
      expect(adaptCaddyfile({ MOONRELAY_DOMAIN: 'moonrelay.example.com' })).toEqual({
        listen: [':443'],
        hosts: ['moonrelay.example.com'],
        handler: 'reverse_proxy',
        upstreams: ['server-1:3000', 'server-2:3000'],
      });
      // Beside `npm start` on one machine (docs/connect-a-real-game.md).
      expect(
        adaptCaddyfile({ MOONRELAY_DOMAIN: 'moonrelay.example.com', MOONRELAY_UPSTREAMS: 'localhost:3000' }),
      ).toMatchObject({ hosts: ['moonrelay.example.com'], upstreams: ['localhost:3000'] });
      // Without a domain: localhost, served with Caddy's own local certificate.
      expect(adaptCaddyfile({}).hosts).toEqual(['localhost']);
    },
  );
});
