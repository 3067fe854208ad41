import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * The document as integrators' tools read it: a client generator, Postman or an API gateway first
 * validates it. Two independent validators must accept it as it is served.
 */
describe('the OpenAPI document, as third-party tools read it', () => {
  it('validates with swagger-parser', async () => {
    await expect(SwaggerParser.validate(structuredClone(buildOpenApiDocument()) as never)).resolves.toBeDefined();
  });

  it('passes redocly lint (recommended rules, the few turned off named in redocly.yaml) with no error or warning', async () => {
    const config = await loadConfig({ configPath: path.join(REPO_ROOT, 'redocly.yaml') });
    const problems = await lintFromString({
      source: JSON.stringify(buildOpenApiDocument()),
      absoluteRef: path.join(REPO_ROOT, 'openapi.json'),
      config,
    });
    expect(problems.map((problem) => `${problem.ruleId}: ${problem.message} ${problem.location[0]?.pointer}`)).toEqual(
      [],
    );
  });
});
