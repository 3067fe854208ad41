import { useMutation } from '@tanstack/react-query';
import type { AuthResponse, LoginRequest } from '@moonrelay/contract/auth';
import { apiRequest } from '../../../lib/api-client.ts';

export const login = (input: LoginRequest) => apiRequest<AuthResponse>('POST', '/api/auth/login', input);

export const useLogin = () => useMutation({ mutationFn: login });
