// A reasoning model's opening thinking, which is not its answer: the bench
// scores the reply without it, and the Bench page's playground links carry
// the reply as it was scored. Pure, and small: the page imports it without
// the engine.

/** The tags reasoning models put their thinking in at the start of a reply (DeepSeek-R1, QwQ and Qwen3 write `<think>`). */
const REASONING = /^\s*<(think|thinking|reasoning)>[\s\S]*?(<\/\1>|$)/i;

/**
 * The reply without the reasoning block(s) it opens with, as aider's
 * `reasoning_tag` removes them: drafts in the thinking are not the answer.
 * A block never closed (a reply cut off while thinking) is all reasoning.
 */
export function withoutReasoning(reply: string): string {
  let rest = reply;
  for (let m = REASONING.exec(rest); m; m = REASONING.exec(rest)) rest = rest.slice(m[0].length);
  return rest.length === reply.length ? reply : rest.replace(/^\s*\n/, '');
}
