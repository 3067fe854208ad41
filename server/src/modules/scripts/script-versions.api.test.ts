import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCRIPT_VERSION_ERRORS, SCRIPT_VERSIONS_KEPT } from '@moonrelay/contract/script-versions';
import { ERRORS } from '@moonrelay/contract/messages';
import { scriptMovedOn } from '@moonrelay/contract/scripts';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describeEachEngine('script versions API', (engine) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let stranger: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    server = await startTestServer(engine);
    owner = await registerUser(server);
    stranger = await registerUser(server);
  });
  afterAll(() => server.close());

  const call = (method: string, path: string, body?: unknown, token = owner.token) =>
    server.call(method, path, { token, body });
  const newScript = async (code = 'print("v1")') => {
    const res = await call('POST', '/api/scripts', { name: 'Versioned', description: 'first', code });
    expect(res.status).toBe(200);
    return res.body.id as string;
  };
  const versions = async (id: string) => (await call('GET', `/api/scripts/${id}/versions`)).body;

  it('refuses a save made on a version the script has moved past (baseVersion), and of two at once on the same version takes one', async () => {
    const id = await newScript();
    const onFirst = await call('PUT', `/api/scripts/${id}`, { code: 'print("mine")', baseVersion: 1 });
    expect(onFirst.body).toMatchObject({ version: 2, code: 'print("mine")' });
    // Made on version 1 too, but version 2 came first: refused, nothing saved.
    const stale = await call('PUT', `/api/scripts/${id}`, { code: 'print("theirs")', baseVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(scriptMovedOn(1, 2));
    expect((await call('GET', `/api/scripts/${id}`)).body).toMatchObject({ version: 2, code: 'print("mine")' });
    // Two saves on version 2 at once: one lands, the other is refused, none is lost unseen.
    const both = await Promise.all(
      ['print("a")', 'print("b")'].map((code) => call('PUT', `/api/scripts/${id}`, { code, baseVersion: 2 })),
    );
    expect(both.map((res) => res.status).sort()).toEqual([200, 409]);
    expect((await call('GET', `/api/scripts/${id}`)).body.version).toBe(3);
    // baseVersion alone changes nothing, so it is no update.
    expect((await call('PUT', `/api/scripts/${id}`, { baseVersion: 3 })).status).toBe(400);
  });

  it('keeps each save that changes the script as a version, with who saved it and how; a save that changes nothing adds none', async () => {
    const id = await newScript();
    expect((await call('GET', `/api/scripts/${id}`)).body.version).toBe(1);
    const second = 'print("v2 é")\nprint("two lines")';
    const saved = await call('PUT', `/api/scripts/${id}`, { code: second });
    expect(saved.body).toMatchObject({ version: 2, code: second });
    // The same content again: no version of its own.
    const same = await call('PUT', `/api/scripts/${id}`, { code: second, name: 'Versioned' });
    expect(same.body.version).toBe(2);
    // A save through the API key says so.
    const byKey = await call('PUT', `/api/scripts/${id}`, { isAutoExecute: true }, owner.user.apiKey);
    expect(byKey.body.version).toBe(3);

    const list = await versions(id);
    expect(list).toMatchObject({ scriptId: id, current: 3 });
    expect(list.items).toEqual([
      expect.objectContaining({ number: 3, savedVia: 'key', savedBy: owner.user.name, current: true, lines: 2 }),
      expect.objectContaining({
        number: 2,
        savedVia: 'session',
        current: false,
        lines: 2,
        codeBytes: Buffer.byteLength(second),
      }),
      expect.objectContaining({ number: 1, savedVia: 'session', current: false, lines: 1, codeBytes: 11 }),
    ]);
    expect(list.items[0]).not.toHaveProperty('code');

    const first = await call('GET', `/api/scripts/${id}/versions/1`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      scriptId: id,
      number: 1,
      name: 'Versioned',
      description: 'first',
      code: 'print("v1")',
      isAutoExecute: false,
      current: false,
    });
    expect((await call('GET', `/api/scripts/${id}/versions/3`)).body).toMatchObject({ isAutoExecute: true });
  });

  it('restores a version as a new version of its own, and the run of the script names the version it ran', async () => {
    const id = await newScript('print("original")');
    await call('PUT', `/api/scripts/${id}`, { code: 'print("broken")', name: 'Renamed', description: null });
    const restored = await call('POST', `/api/scripts/${id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      code: 'print("original")',
      name: 'Versioned',
      description: 'first',
      version: 3,
    });
    expect((await call('GET', `/api/scripts/${id}`)).body).toMatchObject({ code: 'print("original")', version: 3 });
    expect((await versions(id)).items[0]).toMatchObject({ number: 3, savedVia: 'restore', restoredFrom: 1 });

    const ran = await call('POST', `/api/scripts/${id}/execute`, { target: 'sandbox' });
    expect(ran.status).toBe(200);
    const run = await call('GET', `/api/executions/${ran.body.executionId}`);
    expect(run.body).toMatchObject({ scriptId: id, scriptVersion: 3, code: 'print("original")' });
    // Custom code has no version.
    const custom = await call('POST', '/api/scripts/execute', { code: 'print(1)', target: 'sandbox' });
    expect((await call('GET', `/api/executions/${custom.body.executionId}`)).body.scriptVersion).toBeNull();
  });

  it('answers 404 for another user’s script and for a version it never had, 400 for a number that is not one', async () => {
    const id = await newScript();
    for (const path of [`/api/scripts/${id}/versions`, `/api/scripts/${id}/versions/1`]) {
      const res = await call('GET', path, undefined, stranger.token);
      expect(res, path).toMatchObject({ status: 404, body: { error: ERRORS.scriptNotFound } });
    }
    const theirs = await call('POST', `/api/scripts/${id}/versions/1/restore`, undefined, stranger.token);
    expect(theirs).toMatchObject({ status: 404, body: { error: ERRORS.scriptNotFound } });
    expect(await call('GET', `/api/scripts/${id}/versions/2`)).toMatchObject({
      status: 404,
      body: { error: SCRIPT_VERSION_ERRORS.notFound },
    });
    expect((await call('POST', `/api/scripts/${id}/versions/7/restore`)).status).toBe(404);
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) {
      const res = await call('GET', `/api/scripts/${id}/versions/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe(SCRIPT_VERSION_ERRORS.invalidNumber);
    }
    expect((await call('GET', '/api/scripts/no-such-script/versions')).status).toBe(404);
    expect((await server.call('GET', `/api/scripts/${id}/versions`)).status).toBe(401);
    // Nothing changed by any of it.
    expect((await versions(id)).items).toHaveLength(1);
  });

  it('gives saves sent at once a version each: none lost, none shared, the script the last of them', async () => {
    const id = await newScript();
    const codes = Array.from({ length: 12 }, (_, index) => `print("parallel ${index}")`);
    const answers = await Promise.all(codes.map((code) => call('PUT', `/api/scripts/${id}`, { code })));
    expect(answers.map((res) => res.status)).toEqual(codes.map(() => 200));
    expect(answers.map((res) => res.body.version).sort((a, b) => a - b)).toEqual(codes.map((_, index) => index + 2));
    const list = await versions(id);
    expect(list.items.map((item: { number: number }) => item.number)).toEqual(
      Array.from({ length: 13 }, (_, index) => 13 - index),
    );
    const kept = await Promise.all(
      list.items.slice(0, 12).map(async (item: { number: number }) => {
        return (await call('GET', `/api/scripts/${id}/versions/${item.number}`)).body.code as string;
      }),
    );
    expect(kept.sort()).toEqual([...codes].sort());
    // Each answer's version holds what that save sent.
    for (const res of answers) {
      expect((await call('GET', `/api/scripts/${id}/versions/${res.body.version}`)).body.code).toBe(res.body.code);
    }
    const latest = (await call('GET', `/api/scripts/${id}/versions/13`)).body.code;
    expect((await call('GET', `/api/scripts/${id}`)).body.code).toBe(latest);
  });

  it(`keeps the last ${SCRIPT_VERSIONS_KEPT} versions, and deleting the script deletes them`, async () => {
    const id = await newScript();
    const { scripts } = server.app.services;
    for (let save = 2; save <= SCRIPT_VERSIONS_KEPT + 5; save++) {
      await scripts.update(owner.user.id, id, { code: `print(${save})` });
    }
    const list = await versions(id);
    expect(list.current).toBe(SCRIPT_VERSIONS_KEPT + 5);
    expect(list.items).toHaveLength(SCRIPT_VERSIONS_KEPT);
    expect(list.items.at(-1).number).toBe(6);
    expect((await call('GET', `/api/scripts/${id}/versions/5`)).status).toBe(404);
    expect((await call('GET', `/api/scripts/${id}/versions/6`)).body.code).toBe('print(6)');

    const { db } = server.app.database;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('scriptVersions')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('scriptId', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBe(SCRIPT_VERSIONS_KEPT);
    expect((await call('DELETE', `/api/scripts/${id}`)).status).toBe(200);
    expect(await count()).toBe(0);
  });
});
