// The engine worker with two hooks for the browser tests, loaded only when
// the page's address asks for them (`?test-hooks`): a run that keeps the
// worker busy, as a very slow run would, and an error outside any call, as a
// crashed worker reports it. The production worker (engine.worker.ts) has
// neither.

import { expose } from 'comlink';
import { engineApi } from './engine.ts';

expose({
  ...engineApi(),
  spin(ms: number): number {
    const end = Date.now() + ms;
    let turns = 0;
    while (Date.now() < end) turns++;
    return turns;
  },
  crash(): void {
    setTimeout(() => {
      throw new Error('test crash');
    }, 0);
  },
});
