/**
 * A prompt `delegate acp` will not run, answered -32602 (invalid params) before anything of it is kept: the
 * session's transcript and conversation stay as they were, and the next prompt runs as if this one was never sent.
 *
 *   no text the model would get (empty, or only image / audio blocks, which the agent does not take) ─▶ said here
 *   the core's refusal (blank, or too big for the model's window: core/session/prompt-check.ts)      ─▶ its line
 */
import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk/unstable';
import { PromptRefused } from '../core/session';

/** The refusal of a prompt whose text (what the agent gets of it) is blank; undefined when it has text. */
export function blankPromptError(blocks: readonly ContentBlock[], text: string): RequestError | undefined {
  if (text.trim() !== '') return undefined;
  const dropped = [...new Set(blocks.map((b) => b.type).filter((t) => t === 'image' || t === 'audio'))];
  const why = dropped.length > 0 ? `: ${dropped.join(' and ')} blocks are not taken (promptCapabilities), and no text came with them` : '';
  return RequestError.invalidParams({ prompt: blocks.map((b) => b.type) }, `the prompt is empty${why}; nothing was sent`);
}

/** The core's PromptRefused as -32602; anything else as it is. */
export function asPromptError(err: unknown): unknown {
  return err instanceof PromptRefused ? RequestError.invalidParams({ reason: err.kind }, err.message) : err;
}
