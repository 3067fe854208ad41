import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { toaster } from '../lib/toaster.tsx';
import { providePointerEvent } from './pointer-event.ts';

providePointerEvent();

afterEach(() => {
  cleanup();
  queryClient.clear();
  toaster.remove();
  localStorage.clear();
});
