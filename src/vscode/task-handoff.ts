/**
 * The editor's side of a handoff button (Copilot's `handoffs` on an agent file; webview/handoff-bar.ts): as VS Code's
 * chat does, the button fills the prompt box with the handoff's prompt and its agent, and sends it at once only when
 * the handoff says `send: true` (and has a prompt). Nothing runs unseen: a sent handoff is a prompt of the user's,
 * shown as one.
 *
 *   button ──handoff{agentId, index}──▶ press(): the task's handoffs from the host's own view state
 *                                          ├─ send: true ─▶ controller.ask(handoffPrompt(…))
 *                                          └─ otherwise ──▶ panel: fill_prompt{text, handoff} ─▶ the user's Send
 *                                                            ─▶ prompt{text, handoff} ─▶ controller.ask(handoffPrompt(…))
 *
 * Delegate's main agent is not an agent file (Copilot switches the chat to the target agent); the prompt asks the
 * main agent to start the named agent with the task tool. A subagent sees nothing of the conversation, where
 * Copilot's target agent sees all of it ("Implement the plan above"), so the main agent is told to pass on what the
 * prompt refers to. The panel shows what the user sent, not that wording: the run carries `handoff` (core HandoffOf),
 * whose `text` is the user's own words.
 */
import { allTasks } from '../view-model/session-view';
import type { PromptHandoff } from '../protocol';
import type { SessionController } from './session-controller';

/** What the main agent gets for a prompt handed to `handoff.agent`. */
function handoffPrompt(handoff: Pick<PromptHandoff, 'agent' | 'model'>, prompt: string): string {
  const model = handoff.model ? `, model "${handoff.model}"` : '';
  return [
    `Hand this over to the "${handoff.agent}" agent: start it with the task tool (subagent_type "${handoff.agent}"${model}) with the request below as its prompt, adding what it needs from our conversation (it sees none of it, so spell out what "above" or "the plan" refers to). Then tell me what it reported.`,
    '',
    prompt,
  ].join('\n');
}

export class TaskHandoffs {
  constructor(
    private readonly controller: Pick<SessionController, 'snapshot' | 'ask'>,
    /** Puts the handoff's prompt in the panel's box, naming its agent. */
    private readonly fill: (text: string, handoff: PromptHandoff) => void,
  ) {}

  /** The `index`th handoff of this subagent's node: filled in, sent, or undefined when the node has no such handoff. */
  async press(agentId: string, index: number): Promise<'filled' | 'sent' | undefined> {
    const task = allTasks(this.controller.snapshot().state).find((t) => t.agentId === agentId);
    const h = task?.status === 'completed' ? task.handoffs?.[index] : undefined;
    if (!h) return undefined;
    const handoff: PromptHandoff = { agent: h.agent, label: h.label, ...(h.model ? { model: h.model } : {}) };
    const prompt = h.prompt?.trim() ?? '';
    if (h.send && prompt) {
      await this.send(prompt, handoff);
      return 'sent';
    }
    this.fill(prompt, handoff);
    return 'filled';
  }

  /** The user's `text` handed to `handoff.agent`: the main agent gets the written prompt, the panel shows `text`. */
  async send(text: string, handoff: PromptHandoff): Promise<void> {
    await this.controller.ask(handoffPrompt(handoff, text), { handoff: { agent: handoff.agent, label: handoff.label, text: text.trim() } });
  }
}
