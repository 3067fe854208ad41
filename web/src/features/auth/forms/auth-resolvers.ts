import { zodResolver } from '@hookform/resolvers/zod';
import { LoginRequestSchema, RegisterFormSchema } from '@moonrelay/contract/auth';

/** The sign-in screen's form checks, loaded apart from the screen (see lazy-resolver.ts). */
export const loginResolver = zodResolver(LoginRequestSchema);
export const registerResolver = zodResolver(RegisterFormSchema);
