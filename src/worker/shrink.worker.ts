// The shrink worker: reduces a session to a minimal failure off the page's
// main thread (thousands of engine runs), reporting progress through a
// callback. Cancelled by terminating the worker. Wrapped with comlink; the
// page imports only its type.

import { expose } from 'comlink';
import type { Session } from '../session/session.ts';
import type { ShrunkLinks } from '../shrink/measure.ts';
import { shrink, type ShrinkProgress, type ShrinkResult, type ShrinkTarget } from '../shrink/reduce.ts';

/** Progress is sent at most this often (milliseconds), and at each change of phase. */
const PROGRESS_EVERY_MS = 50;

export type ShrinkReport = ShrinkResult & {
  /** The length of the session's link hash before, and the shrunk session's hash (`encodeSession`), when shrunk. */
  links?: ShrunkLinks;
};

/** Progress, and the last stage: measuring the links of the result. */
export type ShrinkStage = Omit<ShrinkProgress, 'phase'> & { phase: ShrinkProgress['phase'] | 'measure' };

const api = {
  async run(session: Session, target: ShrinkTarget, budget: number, progress: (p: ShrinkStage) => void): Promise<ShrinkReport> {
    let sent = 0;
    let phase = '';
    const result = shrink(session, target, {
      budget,
      progress(p) {
        const now = Date.now();
        if (p.phase === phase && now - sent < PROGRESS_EVERY_MS) return;
        sent = now;
        phase = p.phase;
        void progress(p);
      },
    });
    if (!result.ok) return result;
    void progress({ phase: 'measure', runs: result.runs, budget: result.budget, size: result.after });
    const { shrunkLinks } = await import('../shrink/measure.ts');
    return { ...result, links: shrunkLinks({ ...session, selected: target.index }, result.session) };
  },
};

export type ShrinkApi = typeof api;

expose(api);
