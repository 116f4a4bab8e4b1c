// Worker entry for the pathological runs: TypeScript through tsx (a worker
// does not inherit the parent's `--import tsx`), then the job loop in work.ts.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./work.ts', import.meta.url).href);
