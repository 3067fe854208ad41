import { useMutation } from '@tanstack/react-query';
import type { AuthResponse, RegisterForm } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';

/** confirmPassword is checked by the form and never sent. */
export const register = ({ confirmPassword: _confirm, ...input }: RegisterForm) =>
  apiRequest<AuthResponse>('POST', '/api/auth/register', input);

export const useRegister = () => useMutation({ mutationFn: register });
