import type { LoginRequest, RegisterForm } from '@moonrelay/contract/auth';
import { lazyResolver } from './lazy-resolver.ts';

export const login = lazyResolver<LoginRequest>(() => import('./auth-resolvers.ts').then((m) => m.loginResolver));
export const registration = lazyResolver<RegisterForm>(() =>
  import('./auth-resolvers.ts').then((m) => m.registerResolver),
);

/** Fetches both forms' checks (one chunk) while the visitor reads the screen. */
export function preloadSignInChecks(): void {
  login.preload();
  registration.preload();
}
