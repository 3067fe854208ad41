import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/session.ts';
import { useTeam } from '../lib/team.ts';
import { toaster } from '../lib/toaster.tsx';
import { providePointerEvent } from './pointer-event.ts';

providePointerEvent();

// findBy* and waitFor wait for the element or the condition itself; the bound only says when to
// give up. Testing Library's 1 s gave up on a lazily loaded editor while both cores ran other
// suites, so the bound is one no working screen comes near.
configure({ asyncUtilTimeout: 10_000 });

// Files share their worker's modules (vitest.config.ts): a session or a chosen team one file left
// must not reach the next file's screens.
afterEach(() => {
  cleanup();
  queryClient.clear();
  toaster.remove();
  useSession.setState({ token: null, user: null, endedNotice: null });
  useTeam.setState({ teamId: null });
  localStorage.clear();
});
