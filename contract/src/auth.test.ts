import { describe, expect, it } from 'vitest';
import { LoginRequestSchema, RegisterFormSchema, RegisterRequestSchema } from './auth.ts';
import { VALIDATION } from './messages.ts';

const form = {
  email: 'ada@example.com',
  username: 'ada-l_1',
  name: 'Ada',
  password: 'analytical',
  confirmPassword: 'analytical',
};

const messages = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('register form (spec section 5)', () => {
  it('accepts a valid form', () => {
    expect(RegisterFormSchema.safeParse(form).success).toBe(true);
  });

  it("puts 'Passwords don't match' on confirmPassword", () => {
    expect(messages(RegisterFormSchema.safeParse({ ...form, confirmPassword: 'different' }))).toEqual([
      ['confirmPassword', VALIDATION.passwordsDontMatch],
    ]);
  });

  it('allows exactly 3 and 30 character usernames', () => {
    expect(RegisterFormSchema.safeParse({ ...form, username: 'abc' }).success).toBe(true);
    expect(RegisterFormSchema.safeParse({ ...form, username: 'a'.repeat(30) }).success).toBe(true);
  });

  it('never sends confirmPassword: the request schema strips it', () => {
    const parsed = RegisterRequestSchema.parse(form);
    expect(parsed).not.toHaveProperty('confirmPassword');
  });

  it('trims the email before checking it', () => {
    expect(RegisterRequestSchema.parse({ ...form, email: '  ada@example.com ' }).email).toBe('ada@example.com');
  });
});

describe('login form (spec section 5)', () => {
  it('requires both fields with the spec messages', () => {
    expect(messages(LoginRequestSchema.safeParse({ emailOrUsername: '', password: '' }))).toEqual([
      ['emailOrUsername', VALIDATION.emailOrUsernameRequired],
      ['password', VALIDATION.passwordRequired],
    ]);
  });
});
