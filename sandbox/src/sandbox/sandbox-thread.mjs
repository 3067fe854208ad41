// Starts the sandbox thread from plain node, vitest or tsx alike: registers tsx so the TypeScript
// sources load, then runs the real entry. Use: new Worker(new URL('./sandbox-thread.mjs', import.meta.url)).
import { register } from 'tsx/esm/api';

register();
await import('./sandbox-thread.ts');
