/** What the panel shows before the first prompt: what Delegate does, in two lines. */
import { el } from './dom';

export function emptyHint(): HTMLElement {
  const hint = el('div', 'empty-hint');
  hint.append(
    el('div', 'empty-title', 'Delegate'),
    el('div', '', 'Describe a job. The agent hands self-contained parts of it to subagents; each one shows up here as a task you can expand to follow its tool calls live.'),
  );
  return hint;
}
