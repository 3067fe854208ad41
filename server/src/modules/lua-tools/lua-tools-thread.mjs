// Worker threads start without the server's TypeScript loader: register tsx, then load the thread.
import { register } from 'tsx/esm/api';

register();
await import('./lua-tools-thread.ts');
