// "Compare formats" off the main thread: the change a reply makes, written in
// every format and applied back, the source views, and token counts. The
// tokenizers are imported only when counts are first asked for.

import { expose } from 'comlink';
import { changesFromReply, compareFormats, sourceViews } from '../formats/compare.ts';
import type { CompareOutput, CompareView, CountOutput } from '../compare/protocol.ts';

const api = {
  compare(input: { format: string; files: Record<string, string>; reply: string }): CompareOutput {
    const changes = changesFromReply(input.format, input.files, input.reply);
    const writings = compareFormats(changes);
    const views: CompareView[] = [];
    for (const v of sourceViews(input.files)) {
      const usedBy = writings.filter((w) => w.view.kind === v.kind).map((w) => w.format);
      const same = views.find((o) => o.text === v.text);
      if (same) same.usedBy.push(...usedBy);
      else views.push({ kind: v.kind, label: v.label, usedBy, text: v.text, chars: v.chars });
    }
    return {
      files: changes.map((c) => c.file),
      rows: writings.map((w) => ({ format: w.format, title: w.title, reply: w.reply, chars: w.chars, roundTrip: w.roundTrip, problem: w.problem ?? null })),
      views,
    };
  },
  async count(texts: string[]): Promise<CountOutput> {
    const tokens = await import('../tokens/index.ts');
    const counts = [];
    for (const text of texts) counts.push(await tokens.countTokens(text));
    return { counts, method: tokens.method };
  },
};

export type CompareApi = typeof api;

expose(api);
