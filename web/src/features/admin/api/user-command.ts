import { useMutation } from '@tanstack/react-query';
import type { GameCommandRequest, GameCommandResponse } from '@moonrelay/contract/game';
import { apiRequest } from '../../../lib/api-client.ts';

export interface UserCommand {
  userId: string;
  command: GameCommandRequest;
}

/** Queues a command for one user's game (POST /api/admin/users/{id}/command); the body is the dashboard's. */
export const useSendUserCommand = () =>
  useMutation({
    mutationFn: ({ userId, command }: UserCommand) =>
      apiRequest<GameCommandResponse>('POST', `/api/admin/users/${encodeURIComponent(userId)}/command`, command),
  });
