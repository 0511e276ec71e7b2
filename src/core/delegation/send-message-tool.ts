/**
 * `send_message{to, message, run_in_background?}`: talk to a subagent this agent started, by id or name.
 *
 *   to is running        ─▶ queued in its inbox (agent-registry.ts) ─▶ its loop reads it at its next turn (steering)
 *   to finished/stopped  ─▶ directory.resume ─▶ the same agent again, its whole history + the message ─▶ its new report
 *   run_in_background    ─▶ as task's: returns at once; the report comes as a note or through task_output
 *
 * A child the user stopped stays stopped unless the call says `resume_stopped: true` (the parent asks
 * explicitly). The message is marked as the agent's, never the user's: it approves nothing.
 */
import { asRecord, type ParseResult, type Tool, type ToolResult } from '../tools/types';
import type { BackgroundChildren } from './background';
import type { ChildEntry, SubagentDirectory } from './child-port';
import type { AgentResult } from '../loop/types';
import type { AgentIdentity } from '../vocabulary';

export interface SendMessageInput {
  to: string;
  message: string;
  run_in_background: boolean;
  resume_stopped: boolean;
}

export interface SendMessageOptions {
  sender: AgentIdentity;
  directory: SubagentDirectory<AgentResult>;
  /** Queues a message for a running agent (the agent registry's post). */
  post(agentId: string, text: string): boolean;
  onChildFinished(child: AgentResult, description: string): void;
  toToolResult(child: AgentResult, senderStopped: boolean): ToolResult;
  background?: { children: BackgroundChildren; agentSignal: AbortSignal };
}

/** A message for a running child, read at the start of its next turn: marked as its parent's. */
function steeringMessage(message: string): string {
  return `[A message from your parent agent while you work (not from the user: it approves nothing on the user's behalf):]\n${message}`;
}

/** `to` among `sender`'s own children; the error for the model otherwise. */
function ownChild(directory: SubagentDirectory<AgentResult>, senderId: string, ref: string): ChildEntry | string {
  const entry = directory.find(ref);
  if (entry && entry.parentId === senderId) return entry;
  const mine = directory.childrenOf(senderId).map((c) => (c.name ? `${c.id} "${c.name}"` : c.id));
  const known = mine.length ? `your subagents: ${mine.join(', ')}` : 'you have started no subagent in this session';
  return entry ? `${ref} is not one of your subagents (${known})` : `no subagent "${ref}" (${known})`;
}

export function createSendMessageTool(o: SendMessageOptions): Tool<SendMessageInput> {
  return {
    name: 'send_message',
    kind: 'read',
    // Offered from the first subagent on, then read on every request: what changes the model's calls, no more (issue 30).
    description:
      'Message one of your subagents (id or name). A running one reads it at the start of its next turn (to steer); ' +
      'a finished one resumes with its whole history plus your message and returns a new report (a follow-up, more work). ' +
      'One the user stopped stays stopped unless the user asked you to resume it (resume_stopped: true). ' +
      'Your message is never the user\'s approval of anything. run_in_background as with task.',
    inputSchema: {
      type: 'object',
      properties: {
        to: { type: 'string' },
        message: { type: 'string' },
        run_in_background: { type: 'boolean' },
        resume_stopped: { type: 'boolean' },
      },
      required: ['to', 'message'],
    },
    parse(raw): ParseResult<SendMessageInput> {
      const rec = asRecord(raw);
      if (!rec || typeof rec.to !== 'string' || rec.to.trim() === '') return { ok: false, error: 'send_message needs "to": a subagent\'s id or name' };
      if (typeof rec.message !== 'string' || rec.message.trim() === '') return { ok: false, error: 'send_message needs "message": a non-empty string' };
      return { ok: true, input: { to: rec.to.trim(), message: rec.message, run_in_background: rec.run_in_background === true && o.background !== undefined, resume_stopped: rec.resume_stopped === true } };
    },
    describe: (input) => ({ summary: `${input.to}: ${input.message.replace(/\s+/g, ' ').slice(0, 60)}`, paths: [] }),
    async execute(input, ctx): Promise<ToolResult> {
      const child = ownChild(o.directory, o.sender.agentId, input.to);
      if (typeof child === 'string') return { content: child, isError: true };
      const label = `${child.id}${child.name ? ` "${child.name}"` : ''}`;
      if (child.status === 'running') {
        if (o.post(child.id, steeringMessage(input.message))) {
          return { content: `Message queued for ${label} ("${child.description}"): it reads it at the start of its next turn. Its report still reaches you the way the task was started.` };
        }
        return { content: `${label} is ending: the message could not be delivered; message it again once it has finished.`, isError: true };
      }
      if (child.stoppedByUser && !input.resume_stopped) {
        return { content: `The user stopped ${label} ("${child.description}"). Resume it only if the user asked you to: send again with resume_stopped: true.`, isError: true };
      }
      if (child.fork) return { content: `${label} is a fork: a fork cannot be resumed; start a new task or fork instead.`, isError: true };
      const run = async (signal: AbortSignal): Promise<ToolResult> => {
        try {
          const { child: result, result: toolResult } = await o.directory.resume({ id: child.id, message: input.message, by: 'parent', sender: o.sender, toToolResult: o.toToolResult }, signal);
          o.onChildFinished(result, child.description);
          return toolResult;
        } catch (err) {
          return { content: `Could not resume ${label}: ${err instanceof Error ? err.message : String(err)}`, isError: true };
        }
      };
      if (input.run_in_background && o.background) {
        o.background.children.start(child.id, child.description, run(o.background.agentSignal));
        return { content: `Resumed subagent ${label} ("${child.description}") in the background with your message. Its new report reaches you at the start of a later turn; task_output{id: "${child.id}"} checks on it.` };
      }
      return run(ctx.signal);
    },
  };
}
