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
    { build?: string; image?: string; command?: string[]; environment?: Record<string, string>; depends_on?: object }
  >;
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
      const config = (env: Record<string, string>) =>
        spawnSync(
          composeCli![0]!,
          [
            ...composeCli!.slice(1),
            '--file',
            path.join(root, 'docker-compose.yml'),
            '--env-file',
            emptyEnvFile,
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
    },
  );

  it('runs PostgreSQL, Redis, two server instances, a worker and a proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'postgres',
      'proxy',
      'redis',
      'server-1',
      'server-2',
      'worker',
    ]);
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
});
