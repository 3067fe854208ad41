import type { OpenApiDocument, OpenApiOperation } from '@moonrelay/contract/api-docs';
import type { EndpointAuth } from '@moonrelay/contract/endpoints';

/**
 * A small OpenAPI document in the shape GET /api/openapi.json answers (the server's tests check the
 * real one): a few endpoints per docs tab, one the page leaves off, and the schemas they refer to.
 */
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The team header, as the document puts it on the operations that act on a team's data. */
const teamHeader = {
  name: 'Moonrelay-Team',
  in: 'header' as const,
  required: false,
  schema: { type: 'string', maxLength: 100 },
};
const teamIdParam = { name: 'teamId', in: 'path' as const, required: true, schema: { type: 'string' } };

function op(
  operationId: string,
  tag: string,
  auth: EndpointAuth,
  rest: Partial<OpenApiOperation> = {},
  perMinute = 100,
): OpenApiOperation {
  return {
    operationId,
    summary: `Summary of ${operationId}.`,
    tags: [tag],
    'x-auth': auth,
    'x-rate-limit': 'general',
    'x-rate-limit-per-minute': perMinute,
    responses: {
      200: { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } },
      401: errorResponse('Missing or invalid session token or API key'),
      429: errorResponse('Rate limit exceeded; see Retry-After'),
    },
    ...rest,
  };
}

export const TEST_OPENAPI: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'Moonrelay API', version: '1.0.0' },
  components: {
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      LoginRequest: {
        type: 'object',
        properties: {
          emailOrUsername: { type: 'string', minLength: 1, maxLength: 254 },
          password: { type: 'string', minLength: 1, maxLength: 256 },
        },
        required: ['emailOrUsername', 'password'],
      },
      GameCommandRequest: {
        oneOf: [
          {
            type: 'object',
            properties: {
              serverId: { type: 'string', maxLength: 100 },
              type: { type: 'string', enum: ['teleport'] },
              data: { type: 'object', properties: { x: { type: 'number' } } },
            },
            required: ['type', 'data'],
          },
          {
            type: 'object',
            properties: { serverId: { type: 'string', maxLength: 100 }, type: { type: 'string', enum: ['heal'] } },
            required: ['type'],
          },
        ],
      },
      ExecuteScriptRequest: {
        type: 'object',
        properties: { target: { type: 'string', enum: ['game', 'sandbox'] } },
      },
      CreateInvitationRequest: {
        type: 'object',
        properties: {
          role: { type: 'string', enum: ['owner', 'admin', 'developer', 'moderator', 'viewer'] },
          permissions: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        },
      },
      ExecuteCodeRequest: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          target: { type: 'string', enum: ['game', 'sandbox'] },
          key: { type: 'string', maxLength: 200 },
          script: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
  },
  paths: {
    '/api/auth/login': {
      post: op('login', 'Auth', 'none', {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/LoginRequest' } } },
        },
      }),
    },
    '/api/user': { get: op('currentUser', 'User', 'session') },
    '/api/scripts': {
      get: op('listScripts', 'Scripts', 'session-or-key', {
        summary: 'Lists the scripts; each has an `id`.',
        parameters: [teamHeader],
      }),
    },
    '/api/scripts/{id}/execute': {
      post: op(
        'executeScript',
        'Scripts',
        'session-or-key',
        {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ExecuteScriptRequest' } } },
          },
        },
        50,
      ),
    },
    '/api/scripts/execute': {
      post: op(
        'executeCode',
        'Scripts',
        'session-or-key',
        {
          'x-key-in-body': true,
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ExecuteCodeRequest' } } },
          },
        },
        50,
      ),
    },
    '/api/game/command': {
      post: op('gameCommand', 'Game', 'session-or-key', {
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/GameCommandRequest' } } },
        },
      }),
    },
    '/api/game/loader': {
      get: op('gameLoader', 'Game', 'game-key', {
        parameters: [{ name: 'key', in: 'query', required: false, schema: { type: 'string', maxLength: 200 } }],
        responses: {
          200: { description: 'Success', content: { 'text/plain': { schema: { type: 'string' } } } },
          401: errorResponse('Missing or invalid session token or API key'),
        },
      }),
    },
    '/api/analytics/usage': {
      get: op('analyticsUsage', 'Analytics', 'session-or-key', {
        parameters: [
          {
            name: 'period',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['1h', '24h', '7d', '30d'], default: '24h', description: 'How far back' },
          },
        ],
      }),
    },
    '/api/shares': { get: op('listScriptShares', 'Sharing', 'session', { parameters: [teamHeader] }) },
    '/api/shared/{token}': {
      get: op('getSharedScript', 'Sharing', 'none', {
        parameters: [{ name: 'token', in: 'path', required: true, schema: { type: 'string', maxLength: 200 } }],
      }),
    },
    '/api/teams': { get: op('listTeams', 'Teams', 'session') },
    '/api/teams/{teamId}/invitations': {
      post: op('createInvitation', 'Teams', 'session', {
        parameters: [teamIdParam],
        requestBody: {
          content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateInvitationRequest' } } },
        },
      }),
    },
    '/api/teams/{teamId}/members/{userId}': {
      delete: op('removeMember', 'Teams', 'session', {
        parameters: [teamIdParam, { name: 'userId', in: 'path', required: true, schema: { type: 'string' } }],
      }),
    },
    '/api/admin/users': { get: op('adminUsers', 'Admin', 'admin') },
    '/api/auth/google': { post: op('googleSignIn', 'Auth', 'none') },
  },
};
