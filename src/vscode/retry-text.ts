/**
 * What Retry on a task that ended early sends: a prompt to the main agent asking it to delegate the same job
 * again (the same agent type, description and prompt, or the prompt as the user edited it). A new prompt, not a
 * restart of the old child: the main agent sees what happened so far and the new result lands in its conversation.
 */
import { TASK_STATUS_LABEL } from '../view-model/format';
import type { TaskNode } from '../view-model/session-view';

export function retryPrompt(task: Pick<TaskNode, 'description' | 'prompt' | 'status' | 'agentType' | 'fork'>, prompt: string, edited: boolean): string {
  const how = TASK_STATUS_LABEL[task.status].toLowerCase();
  const type = task.agentType && task.agentType !== 'general-purpose' && !task.fork ? `, subagent_type "${task.agentType}"` : '';
  return [
    `Run the subagent task "${task.description}" again (it ended: ${how}). Delegate it with the task tool (description "${task.description}"${type}) and exactly this prompt${edited ? ', which I edited' : ''}:`,
    '',
    prompt,
  ].join('\n');
}
