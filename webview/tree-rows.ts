/**
 * Rows of the flat tree for tool calls and for the "prompt" / "result" rows of a task: one div each,
 * updated in place while it is in view (the virtual list drops it when it scrolls out). A row's detail
 * (input, output, full text) is a row of its own under it (row-detail.ts), built when it comes into view.
 */
import { toolStateLabel, toolStateTitle } from '../src/view-model/format';
import type { ToolCallNode } from '../src/view-model/session-view';
import { codicon, el, setAttr, setClassName, setCodicon, setHidden, setIconLabel, setText } from './dom';
import { fillCounts } from './tool-change';
import { openDiffButton } from './diff-view';
import { isFileChangeTool, toolIcon, toolStateIcon } from './icons';

export interface RowActions {
  openFile(path: string): void;
  openDiff(agentId: string, toolUseId: string): void;
  /** Stops one running subagent (and its descendants); the parent goes on. */
  stopAgent(agentId: string): void;
  /** A button of a result held for review. */
  review(agentId: string, action: 'accept' | 'edit' | 'rerun'): void;
  /** A file of a task's Changes row: the diff of its change. */
  openChange(agentId: string, path: string): void;
  /** The Changes row's Revert action (the host confirms first), with the shared files the user checked. */
  revertAgent(agentId: string): void;
  /** A shared file's checkbox in a Changes row: whether Revert includes it (off until checked). */
  includesShared(agentId: string, path: string): boolean;
  setIncludeShared(agentId: string, path: string, on: boolean): void;
  /** Runs a task that ended early again (`edit`: the user edits its prompt first). */
  retryTask(agentId: string, edit: boolean): void;
  /** Scrolls to a node's row and focuses it (a retried task's "Retried ↓"). */
  showNode(nodeId: string): void;
  /** A completed task's handoff button (handoff-bar.ts): the host fills the prompt box for that agent, or sends it. */
  handoff(agentId: string, index: number): void;
}

/**
 * A row of the flat tree: a div whose first child is its twistie (the renderer sets its role, level,
 * position and open state, row-shell.ts); the row's content follows as direct children.
 */
export function treeRow(id: string, className: string): HTMLDivElement {
  const row = el('div', `tree-row ${className}`);
  row.dataset.id = id;
  row.append(codicon('chevron-right', 'twistie'));
  return row;
}

/** A clickable path (posts `open_file`); the click does not toggle the row. */
export function pathLink(path: string, label: string, actions: Pick<RowActions, 'openFile'>): HTMLSpanElement {
  const link = el('span');
  setPathLink(link, path, label);
  opensPath(link, actions);
  return link;
}

/** `span` shows `label`, as a link to `path` (undefined: plain text); the same element either way. */
function setPathLink(span: HTMLSpanElement, path: string | undefined, label: string): void {
  setClassName(span, path === undefined ? '' : 'path-link');
  setText(span, label);
  setAttr(span, 'title', path === undefined ? null : `Open ${path}`);
  setAttr(span, 'data-path', path ?? null);
}

/** A click on `span` opens the path it links to now, if any, and does not toggle the row. */
function opensPath(span: HTMLSpanElement, actions: Pick<RowActions, 'openFile'>): void {
  span.addEventListener('click', (ev) => {
    const path = span.dataset.path;
    if (path === undefined) return;
    ev.stopPropagation();
    actions.openFile(path);
  });
}

export class ToolRow {
  readonly item: HTMLDivElement;
  private readonly icon: HTMLSpanElement;
  private readonly name: HTMLSpanElement;
  private readonly summary: HTMLSpanElement;
  /** The summary's text: a path link when the call names a file (the same element either way, so re-filling a row keeps its shape). */
  private readonly text: HTMLSpanElement;
  private readonly stateText: HTMLSpanElement;
  private readonly stateIcon: HTMLSpanElement;
  private readonly change: { counts: HTMLSpanElement; open: HTMLButtonElement } | null = null;
  private node: ToolCallNode;

  constructor(node: ToolCallNode, private readonly actions: RowActions) {
    this.node = node;
    this.item = treeRow(node.id, 'tool-row');
    this.icon = codicon(toolIcon(node.name), 'row-icon');
    this.name = el('span', 'tool-name');
    this.summary = el('span', 'tool-summary');
    this.text = el('span');
    opensPath(this.text, actions);
    this.summary.append(this.text);
    const deco = el('span', 'row-deco');
    this.stateText = el('span', 'row-state');
    this.stateIcon = codicon('check');
    // A write/edit row: its "+a −b" and an Open diff button in sight (and in the Tab order), not hover-only.
    if (isFileChangeTool(node.name)) {
      this.change = { counts: el('span', 'row-change-counts'), open: openDiffButton(() => this.openDiff(), 'row-diff') };
      deco.append(this.change.counts, this.change.open);
    }
    deco.append(this.stateText, this.stateIcon);
    this.item.append(this.icon, this.name, this.summary, deco);
    this.bind(node);
  }

  /** Whether this row's element can show `node` (a row of a change has the diff's counts and button). */
  fits(node: ToolCallNode): boolean {
    return isFileChangeTool(node.name) === (this.change !== null);
  }

  /**
   * Shows another call in this element (the virtual list re-uses the rows that scrolled out for the ones that
   * scroll in: filling an element in place costs Chromium far less than attaching a new one).
   */
  bind(node: ToolCallNode): void {
    this.item.dataset.id = node.id;
    setCodicon(this.icon, toolIcon(node.name), 'row-icon');
    setText(this.name, node.name);
    setPathLink(this.text, node.paths[0], node.summary);
    setAttr(this.summary, 'title', node.summary);
    this.update(node);
  }

  /** Enter on the row of a change: its diff (the row's keyboard action). */
  openDiff(): boolean {
    if (!this.change || this.change.open.hidden) return false;
    this.actions.openDiff(this.node.agentId, this.node.toolUseId);
    return true;
  }

  update(node: ToolCallNode): void {
    this.node = node;
    const state = toolStateIcon(node);
    const label = toolStateLabel(node);
    setAttr(this.item, 'data-status', node.status);
    setAttr(this.item, 'data-permission', node.permission ?? null);
    setClassName(this.stateText, `row-state ${state.tone}`);
    setText(this.stateText, label);
    setHidden(this.stateText, label === '');
    setAttr(this.stateText, 'title', toolStateTitle(node) ?? null);
    setCodicon(this.stateIcon, state.icon, `${state.extra} row-status ${state.tone}`.trim());
    // The word beside it says a state that needs reading; a plain success is the icon alone, so it speaks.
    setIconLabel(this.stateIcon, label === '' ? (node.status === 'ok' ? 'succeeded' : null) : null);
    if (this.change) {
      fillCounts(this.change.counts, node.change);
      // Nothing to diff for a call still running, failed or refused (an older session's rows lack the change: ok ones keep it).
      setHidden(this.change.open, node.change === undefined && node.status !== 'ok');
    }
  }
}

/** A labelled text row ("Prompt", "Result", "Error", "Thinking") whose detail row is the full text. */
export class TextRow {
  readonly item: HTMLDivElement;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly line: HTMLSpanElement;

  constructor(readonly id: string, className: string) {
    this.item = treeRow(id, `text-row ${className}`);
    this.icon = codicon('comment', 'row-icon');
    this.title = el('span', 'text-row-title');
    this.line = el('span', 'text-row-line');
    this.item.append(this.icon, this.title, this.line);
  }

  /**
   * `markdown`: the one-line summary leaves out a heading's, quote's or list item's marker, and emphasis marks.
   * `hint`: the line is a word about the row (dimmed), not its text's first line.
   */
  set(icon: string, tone: string, title: string, text: string, markdown = false, hint = false): void {
    setCodicon(this.icon, icon, `row-icon ${tone}`);
    setText(this.title, title);
    const line = text.trim().split('\n', 1)[0] ?? '';
    const first = markdown ? line.replace(/^(?:#{1,6}|>|[-*+]|\d+[.)])\s+/, '').replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2') : line;
    setText(this.line, first);
    this.line.classList.toggle('tone-muted', hint);
    this.line.title = first;
  }
}
