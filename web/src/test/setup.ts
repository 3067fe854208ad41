import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { queryClient } from '../lib/query-client.ts';
import { toaster } from '../lib/toaster.tsx';

afterEach(() => {
  cleanup();
  queryClient.clear();
  toaster.remove();
  localStorage.clear();
});
