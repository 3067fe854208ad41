import { useMutation } from '@tanstack/react-query';
import type { MassExecutionRequest, MassExecutionResponse } from '@moonrelay/contract/admin';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * Sends one command, or runs one script, on each selected user's game (POST /api/admin/mass-execution).
 * The server makes a job per user and answers at once with every user's part 'queued' (or 'failed'
 * for an unknown user); each part's progress then arrives as 'mass:progress' events.
 */
export const useStartMassExecution = () =>
  useMutation({
    mutationFn: (request: MassExecutionRequest) =>
      apiRequest<MassExecutionResponse>('POST', '/api/admin/mass-execution', request, { idempotent: true }),
  });
