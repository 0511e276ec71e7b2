/**
 * A memory agent's marker on its task row (an agent file's `memory: user|project|local`, docs/agent-files.md): the
 * scope in a few letters, the folder in its tooltip and accessible name; pressed, it opens the folder's MEMORY.md.
 *
 *   ✓ Review the login form                  reviewer
 *     4 turns · 3 tools · 12s · 3.5k tokens  [▤ memory: project]
 *
 * A folder the core refused (it led out of the workspace: the agent ran without memory) says so instead.
 */
import type { TaskNode } from '../src/view-model/session-view';
import { codicon, el, setAttr, setHidden, setText } from './dom';

export class MemoryMark {
  readonly element: HTMLButtonElement;
  private readonly label: HTMLSpanElement;
  private path: string | undefined;

  constructor(open: (path: string) => void) {
    this.element = el('button', 'task-memory');
    this.element.type = 'button';
    this.label = el('span', '');
    this.element.append(codicon('database'), this.label);
    // Capture: the row's own click would fold it; its keys would move the tree's focus.
    this.element.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (this.path) open(this.path);
    }, { capture: true });
    this.element.addEventListener('keydown', (ev) => ev.stopPropagation());
    setHidden(this.element, true);
  }

  update(node: TaskNode): void {
    const m = node.memory;
    setHidden(this.element, m === undefined);
    if (!m) return;
    // The folder's own separator: a Windows folder ends in `\`.
    const sep = m.dir.includes('\\') && !m.dir.includes('/') ? '\\' : '/';
    this.path = m.refused ? undefined : `${m.dir}${sep}MEMORY.md`;
    setText(this.label, m.refused ? `memory: ${m.scope} (refused)` : `memory: ${m.scope}`);
    const title = m.refused
      ? `Memory (${m.scope} scope) refused: its folder ${m.dir} leads out of the workspace, so this agent ran without memory`
      : `Memory (${m.scope} scope): ${m.dir}, kept across sessions; its MEMORY.md head is in this agent's prompt. Open MEMORY.md`;
    this.element.title = title;
    setAttr(this.element, 'aria-label', title);
    this.element.disabled = m.refused === true;
    setAttr(this.element, 'data-refused', m.refused ? 'true' : null);
  }
}

const CSS = String.raw`
.task-memory {
  display: inline-flex; align-items: center; gap: 3px; margin-left: 6px; padding: 0 4px; font: inherit; font-size: 10px; line-height: 15px;
  vertical-align: bottom; white-space: nowrap; max-width: 100%; overflow: hidden; border: 1px solid var(--vscode-panel-border, var(--vscode-descriptionForeground)); border-radius: 2px; cursor: pointer;
  color: var(--vscode-descriptionForeground); background: transparent;
}
.task-memory[hidden] { display: none; }
.task-memory .codicon { font-size: 11px; }
.task-memory:hover:not(:disabled) { color: var(--vscode-foreground); background: var(--vscode-toolbar-hoverBackground); }
.task-memory:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.task-memory[data-refused] { cursor: default; color: var(--vscode-editorWarning-foreground, var(--vscode-descriptionForeground)); }
`;

export function installMemoryMarkStyles(): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
