import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LoginRequestSchema, OidcCallbackRequestSchema, RegisterFormSchema } from './auth.ts';
import { sizeText, VALIDATION, waitText } from './messages.ts';
import { CreateScriptRequestSchema, UpdateScriptRequestSchema } from './scripts.ts';
import { ExecuteCodeRequestSchema } from './executions.ts';

const register = {
  email: 'ada@example.com',
  username: 'ada',
  name: 'Ada',
  password: 'analytical',
  confirmPassword: 'analytical',
};
const script = { name: 'Script', code: 'print(1)' };
const callback = { code: 'c0de', state: 'st4te', redirectUri: 'https://moonrelay.example.com/auth/callback' };
const manyGames = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [String(i), { enabled: true }]));

/** One input per validation message that must produce exactly that message. */
const cases: Record<keyof typeof VALIDATION, [z.ZodType, unknown]> = {
  emailOrUsernameRequired: [LoginRequestSchema, { emailOrUsername: ' ', password: 'x' }],
  passwordRequired: [LoginRequestSchema, { emailOrUsername: 'ada', password: '' }],
  invalidEmail: [RegisterFormSchema, { ...register, email: 'ada@' }],
  usernameTooShort: [RegisterFormSchema, { ...register, username: 'ad' }],
  usernameTooLong: [RegisterFormSchema, { ...register, username: 'a'.repeat(31) }],
  usernameCharacters: [RegisterFormSchema, { ...register, username: 'ada lovelace' }],
  nameRequired: [RegisterFormSchema, { ...register, name: '' }],
  nameTooLong: [RegisterFormSchema, { ...register, name: 'n'.repeat(101) }],
  passwordTooShort: [RegisterFormSchema, { ...register, password: 'short', confirmPassword: 'short' }],
  passwordTooLong: [RegisterFormSchema, { ...register, password: 'p'.repeat(257), confirmPassword: 'p'.repeat(257) }],
  passwordsDontMatch: [RegisterFormSchema, { ...register, confirmPassword: 'different' }],
  emailTooLong: [RegisterFormSchema, { ...register, email: `${'a'.repeat(250)}@example.com` }],
  scriptNameRequired: [CreateScriptRequestSchema, { ...script, name: '  ' }],
  scriptNameTooLong: [CreateScriptRequestSchema, { ...script, name: 'n'.repeat(201) }],
  scriptDescriptionTooLong: [CreateScriptRequestSchema, { ...script, description: 'd'.repeat(2001) }],
  scriptCodeRequired: [CreateScriptRequestSchema, { ...script, code: '\n\t ' }],
  scriptCodeTooLarge: [CreateScriptRequestSchema, { ...script, code: 'x'.repeat(1024 * 1024 + 1) }],
  scriptUpdateEmpty: [UpdateScriptRequestSchema, {}],
  executeCodeOrScript: [ExecuteCodeRequestSchema, { code: 'print(1)', script: 'Hello' }],
  executeScriptTarget: [ExecuteCodeRequestSchema, { script: 'Hello', target: 'sandbox' }],
  autoExecuteGamesTooMany: [CreateScriptRequestSchema, { ...script, autoExecuteGames: manyGames }],
  codeRequired: [OidcCallbackRequestSchema, { ...callback, code: '' }],
  codeTooLong: [OidcCallbackRequestSchema, { ...callback, code: 'c'.repeat(2049) }],
  stateRequired: [OidcCallbackRequestSchema, { ...callback, state: undefined }],
  stateTooLong: [OidcCallbackRequestSchema, { ...callback, state: 's'.repeat(2049) }],
  redirectUriRequired: [OidcCallbackRequestSchema, { ...callback, redirectUri: undefined }],
  redirectUriInvalid: [OidcCallbackRequestSchema, { ...callback, redirectUri: 'javascript:alert(1)' }],
};

describe('every validation message', () => {
  it.each(Object.entries(cases))('%s is produced by its rule', (key, [schema, input]) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([VALIDATION[key as keyof typeof VALIDATION]]);
  });
});

describe('waits and sizes as the user reads them', () => {
  it.each([
    [0.2, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [899, '15 minutes'],
    [900, '15 minutes'],
    [90 * 60, '90 minutes'],
    [90 * 60 + 1, '2 hours'],
    [86_400, '24 hours'],
  ])('%s s is "%s", rounded up so that trying then works', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
  });

  it.each([
    [1024 * 1024, '1 MiB'],
    [1.5 * 1024 * 1024, '1.5 MiB'],
    [1024 * 1024 + 1023 * 100, '1 MiB'],
    [64 * 1024, '64 KiB'],
    [500, '500 bytes'],
  ])('%s bytes is "%s", never more than the limit', (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });
});
