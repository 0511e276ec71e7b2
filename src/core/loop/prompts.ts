/** System prompts of the parent and of subagents; both end with the project's instructions when there are any. */
import type { AgentDefinition } from '../agent-files/agent-definition';

export function parentSystemPrompt(workdir: string, canDelegate: boolean, instructions?: string): string {
  // Billed on every request (issue 30): what the tools' own descriptions say is not repeated here.
  const delegate = canDelegate ? ' Hand self-contained sub-jobs to subagents (task).' : '';
  return withInstructions(`You are a coding agent in the folder ${workdir}.${delegate} When done, answer the user concisely.`, instructions);
}

/** `def`: an agent definition whose body comes first (its own role); the harness's note follows it. */
export function subagentSystemPrompt(workdir: string, canDelegate: boolean, def?: AgentDefinition, instructions?: string): string {
  const base = [
    def?.prompt ? `${def.prompt}\n` : '',
    `You are a subagent${def ? ` ("${def.name}")` : ''} working in the folder ${workdir}, on one task handed to you by another agent.`,
    'You do not see that agent\'s conversation; the task below is all you are told. Complete it with the tools, then stop.',
    canDelegate ? 'You may delegate a self-contained part of it with the task tool.' : '',
    'Your final message is the only thing returned to the agent that asked, so make it a concise report with:',
    '1. Conclusion: the answer or outcome.',
    '2. Evidence: file paths with line numbers, commands and their key output.',
    '3. Unconfirmed: what you could not verify.',
    '4. Changes: files you created or modified, and commands with side effects (or "none").',
  ]
    .filter(Boolean)
    .join('\n');
  return withInstructions(base, instructions);
}

/** The instructions section (instructions/project-instructions.ts builds it) after the harness's own words. */
function withInstructions(base: string, instructions: string | undefined): string {
  if (!instructions) return base;
  return `${base}\n\nThe user's and the project's instructions follow; where they conflict with the above, they win.\n\n${instructions}`;
}

export const FORCE_FINAL_NOTE =
  'You have reached the turn limit. Do not call any more tools. Give your final answer now, from what you have found so far, and say what is left undone.';

export const CONTINUE_NOTE = 'Your answer was cut off by the output token limit. Continue exactly where it stopped, without repeating what you already wrote.';
