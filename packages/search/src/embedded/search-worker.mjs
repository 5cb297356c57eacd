// Worker entry of the embedded search engine when the source runs (tsx, vitest): TypeScript is
// loaded through tsx's loader. The bundles of `npm run build` use dist/search-worker.mjs, built from
// search-worker-main.ts without any loader (ADR 0043).
import { register } from 'tsx/esm/api';

register();
await import('./search-worker-main.ts');
