// Worker entry of the embedded search engine: TypeScript is loaded through tsx's loader, so the
// worker runs the same source under `npm start`, tsx and vitest alike.
import { register } from 'tsx/esm/api';

register();
await import('./search-worker-main.ts');
