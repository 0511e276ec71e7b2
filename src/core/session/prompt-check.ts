/**
 * What a prompt must be before anything of it is sent or kept: not empty, and small enough that the model's window
 * still holds it with the instructions, the tools and room to work. The same rule for every host (the CLI, the
 * editor, ACP): checked by the session's run before its first event, so a refused prompt leaves no trace in the
 * conversation or the transcript, and the next prompt goes on as if it had never been sent.
 *
 *   prompt ─▶ blank?                                       ─▶ PromptRefused('empty')
 *          ─▶ estimate(prompt) + instructions + tools
 *             > window × compaction threshold?             ─▶ PromptRefused('too_long')   (compaction cannot shrink
 *          ─▶ run                                                                          the prompt itself)
 */
import type { ContextSettings } from '../loop/compact-if-needed';
import { estimateTextTokens } from '../loop/context-size';

/** A prompt the session would not send: its reason is one line a host shows as it is. */
export class PromptRefused extends Error {
  constructor(
    readonly kind: 'empty' | 'too_long',
    message: string,
  ) {
    super(message);
    this.name = 'PromptRefused';
  }
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * The refusal for this prompt, or undefined when it may run. `fixedTokens`: the system prompt and tool schemas.
 * The limit is where compaction starts: a prompt past it alone would have every turn compact in vain.
 */
export function checkPrompt(prompt: string, context: ContextSettings, fixedTokens: number, images = 0): PromptRefused | undefined {
  if (prompt.trim() === '' && images === 0) return new PromptRefused('empty', 'the prompt is empty: nothing was sent');
  const tokens = estimateTextTokens(prompt);
  const room = Math.max(0, Math.floor(context.window * context.threshold) - fixedTokens);
  if (tokens <= room) return undefined;
  return new PromptRefused(
    'too_long',
    `the prompt is too long for the model's context window: about ${fmt(tokens)} tokens (${fmt(prompt.length)} characters), and ${fmt(room)} fit ` +
      `(a ${fmt(context.window)}-token window, less the instructions, the tools and room to work); nothing was sent. ` +
      'Save the text in a file in the workspace and ask the agent to read it',
  );
}
