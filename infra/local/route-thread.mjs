// A worker thread's entry: a thread does not take its parent's `--import tsx`, so it registers tsx
// itself before it loads the route host (TypeScript) that the thread is for.
import { register } from 'tsx/esm/api';

register();
await import('./route-host.ts');
