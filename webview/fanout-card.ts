/**
 * The fan-out card in the inbox: before a reply's subagents start, what they all share said once, one row per task
 * (its prompt a click away), the forecast per agent type saying what it rests on, and Run / Run, stopping each at
 * its usual maximum / Cancel with "Don't ask again in this workspace". The tasks already wait in the tree below as
 * pending rows (the `fanout_asked` event). The words come from the host (src/vscode/fanout-text.ts).
 *
 *   ┌ The main agent ────────────────────────┐
 *   │ wants to start 4 subagents at once       │
 *   │ ┌ (scrolls when the panel is short) ───┐ │   the answers below stay in view: the middle gives up its room
 *   │ │ All: reviewer · sonnet · every tool  │ │   (max-height: the inbox's room, --inbox-card-room)
 *   │ │ ▸ review api                         │ │
 *   │ │ Forecast: reviewer (4 tasks): …      │ │
 *   │ └──────────────────────────────────────┘ │
 *   │ [Run] [Cancel]                           │
 *   │ [Run, stopping each at its usual maximum]│
 *   │ ☐ Don't ask again in this workspace      │
 *   └──────────────────────────────────────────┘
 */
import type { FanoutAnswer, FanoutView } from '../src/protocol';
import { el } from './dom';

const DONT_ASK = "Don't ask again in this workspace";

/** The card's body under its who line and title; `answer` gets the choice and the checkbox. */
export function fanoutBody(view: FanoutView, answer: (choice: FanoutAnswer, dontAsk: boolean) => void): HTMLElement[] {
  const info = el('div', 'fanout-info');
  if (view.shared) {
    const shared = el('div', 'fanout-shared');
    shared.append(el('span', 'fanout-label', 'All: '), document.createTextNode(view.shared));
    info.append(shared);
  }
  const tasks = el('ul', 'fanout-tasks');
  tasks.setAttribute('aria-label', 'Subagents to start');
  for (const task of view.tasks) {
    const li = el('li', 'fanout-task');
    // The prompt a click (or Enter) away: the description is what to scan, the prompt what to check.
    const details = el('details', '');
    const summary = el('summary', '');
    summary.append(el('span', 'fanout-task-name', task.description));
    if (task.own) summary.append(el('span', 'fanout-own', task.own));
    details.append(summary, el('pre', 'fanout-prompt', task.prompt || '(no prompt)'));
    li.append(details);
    tasks.append(li);
  }
  info.append(tasks);
  const forecast = el('div', 'fanout-forecast');
  forecast.append(el('div', 'fanout-label', 'Forecast'), ...view.forecast.map((line) => el('div', 'fanout-forecast-line', line)));
  info.append(forecast);
  if (view.caps) info.append(el('div', 'fanout-caps', view.caps));
  info.append(el('div', 'fanout-why', view.why));

  const never = el('input', '');
  never.type = 'checkbox';
  const neverLabel = el('label', 'fanout-never');
  neverLabel.title = "With Run: sets delegate.confirmFanout to never in this workspace's settings. Undo from the notification that follows, or in Settings.";
  neverLabel.append(never, document.createTextNode(` ${DONT_ASK}`));

  // Run and Cancel on one row, the capped run (a long label) below them: two rows at 250 px, not three.
  const button = ({ choice, label }: FanoutView['choices'][number]): HTMLButtonElement => {
    const b = el('button', `inbox-button ${choice === 'run' ? 'inbox-primary' : 'inbox-secondary'}`, label);
    b.type = 'button';
    b.dataset.choice = choice;
    if (choice === 'run_capped' && view.caps) b.title = view.caps;
    b.addEventListener('click', () => answer(choice, never.checked));
    return b;
  };
  const buttons = el('div', 'inbox-buttons fanout-answers');
  buttons.append(...view.choices.filter((c) => c.choice !== 'run_capped').map(button));
  const capped = view.choices.find((c) => c.choice === 'run_capped');
  if (capped) {
    const row = el('div', 'inbox-buttons fanout-answers');
    row.append(button(capped));
    return [info, buttons, row, neverLabel];
  }
  return [info, buttons, neverLabel];
}
