import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { preloadStart } from './build/preload-start.ts';

export default defineConfig({
  plugins: [react(), preloadStart(), precompress()],
  // The manifest lets `npm run bench -- web` measure what each screen loads. Source maps are shipped
  // beside the scripts (decision 034): a browser fetches one only when its developer tools are open.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true, sourcemap: true },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      // The live socket (lib/socket.ts): its long-polling requests and the WebSocket upgrade.
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
