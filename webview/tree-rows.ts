/**
 * Tree rows for tool calls and for the "prompt" / "result" rows of a task: one
 * `<vscode-tree-item>` each, updated in place. A row's detail (input JSON, output preview,
 * full text — a result as markdown) is a child tree-item created only when the row is first
 * expanded, so thousands of collapsed rows cost one element each.
 */
import type { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';
import { formatDuration, toolStateLabel } from '../src/view-model/format';
import type { ToolCallNode } from '../src/view-model/session-view';
import { codicon, el, setAttr, setClassName, setCodicon, setHidden, setText } from './dom';
import { fillChange, fillCounts } from './tool-change';
import { openDiffButton } from './diff-view';
import { isFileChangeTool, toolIcon, toolStateIcon } from './icons';
import { MarkdownView } from './markdown';

export interface RowActions {
  openFile(path: string): void;
  openDiff(agentId: string, toolUseId: string): void;
  /** Stops one running subagent (and its descendants); the parent goes on. */
  stopAgent(agentId: string): void;
  /** A button of a result held for review. */
  review(agentId: string, action: 'accept' | 'edit' | 'rerun'): void;
  /** A file of a task's Changes row: the diff of its change. */
  openChange(agentId: string, path: string): void;
  /** The Changes row's Revert action (the host confirms first). */
  revertAgent(agentId: string): void;
  /** Runs a task that ended early again (`edit`: the user edits its prompt first). */
  retryTask(agentId: string, edit: boolean): void;
}

/** A tree-item with its id; `branch` is set by hand so the arrow shows before any child exists. */
export function treeItem(id: string, className: string): VscodeTreeItem {
  const item = document.createElement('vscode-tree-item');
  item.dataset.id = id;
  item.className = className;
  item.branch = true;
  return item;
}

function slotted<T extends HTMLElement>(node: T, slot: string): T {
  node.slot = slot;
  return node;
}

/** A clickable path (posts `open_file`); the click does not toggle the row. */
function pathLink(path: string, label: string, actions: RowActions): HTMLSpanElement {
  const link = el('span', 'path-link', label);
  link.title = `Open ${path}`;
  link.dataset.path = path;
  link.addEventListener('click', (ev) => {
    ev.stopPropagation();
    actions.openFile(link.dataset.path ?? path);
  });
  return link;
}

function section(title: string, body: HTMLElement): HTMLElement {
  const wrap = el('div', 'detail-section');
  wrap.append(el('div', 'detail-heading', title), body);
  return wrap;
}

/** The detail child of a row: a non-interactive tree-item holding free-form content. */
function detailItem(ownerId: string): { item: VscodeTreeItem; body: HTMLDivElement } {
  const item = document.createElement('vscode-tree-item');
  item.dataset.detailOf = ownerId;
  item.className = 'detail-item';
  item.slot = 'children';
  const body = el('div', 'detail-body');
  body.addEventListener('click', (ev) => ev.stopPropagation());
  item.append(body);
  return { item, body };
}

export class ToolRow {
  readonly item: VscodeTreeItem;
  private readonly summary: HTMLSpanElement;
  private readonly stateText: HTMLSpanElement;
  private readonly stateIcon: HTMLSpanElement;
  private detail: { output: HTMLPreElement; outputHeading: HTMLElement; extra: HTMLDivElement; input: HTMLElement; change: HTMLElement } | null = null;
  private readonly change: { counts: HTMLSpanElement; open: HTMLButtonElement } | null = null;
  private node: ToolCallNode;

  constructor(node: ToolCallNode, private readonly actions: RowActions) {
    this.node = node;
    this.item = treeItem(node.id, 'tool-row');
    const icon = codicon(toolIcon(node.name), 'row-icon');
    const name = el('span', 'tool-name', node.name);
    this.summary = slotted(el('span', 'tool-summary'), 'description');
    const first = node.paths[0];
    if (first !== undefined) this.summary.append(pathLink(first, node.summary, actions));
    else this.summary.textContent = node.summary;
    this.summary.title = node.summary;
    const deco = slotted(el('span', 'row-deco'), 'decoration');
    this.stateText = el('span', 'row-state');
    this.stateIcon = codicon('check');
    // A write/edit row: its "+a −b" and an Open diff button in sight (and in the Tab order), not hover-only.
    if (isFileChangeTool(node.name)) {
      this.change = { counts: el('span', 'row-change-counts'), open: openDiffButton(() => this.openDiff(), 'row-diff') };
      deco.append(this.change.counts, this.change.open);
    }
    deco.append(this.stateText, this.stateIcon);
    this.item.append(icon, name, this.summary, deco);
    this.update(node);
  }

  private openDiff(): void {
    this.actions.openDiff(this.node.agentId, this.node.toolUseId);
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
    setAttr(this.stateText, 'title', label === 'approval?' ? 'waiting for your approval' : null);
    setCodicon(this.stateIcon, state.icon, `${state.extra} row-status ${state.tone}`.trim());
    if (this.change) {
      fillCounts(this.change.counts, node.change);
      // Nothing to diff for a call still running, failed or refused (an older session's rows lack the change: ok ones keep it).
      setHidden(this.change.open, node.change === undefined && node.status !== 'ok');
    }
    if (this.detail) this.fillDetail();
  }

  /** Creates the input/output child (on first expand). */
  materialize(): void {
    if (this.detail) return;
    const { item, body } = detailItem(this.node.id);
    const input = section('Input', el('pre', 'detail-pre', this.node.inputJson));
    const output = el('pre', 'detail-pre detail-output');
    const outputSection = section('Output', output);
    const outputHeading = outputSection.firstElementChild as HTMLElement;
    const extra = el('div', 'detail-extra');
    const change = el('div', 'detail-section detail-change');
    body.append(extra, change, input, outputSection);
    this.detail = { output, outputHeading, extra, input, change };
    this.fillDetail();
    this.item.append(item);
  }

  private fillDetail(): void {
    if (!this.detail) return;
    const n = this.node;
    const { output, outputHeading, extra, input, change } = this.detail;
    // A change shows as its hunks; the raw input JSON is then one click away instead of first.
    fillChange(change, input, n, () => this.openDiff(), (path) => this.actions.openFile(path));
    setText(outputHeading, n.durationMs === undefined ? 'Output' : `Output · ${formatDuration(n.durationMs)}`);
    setText(output, n.output ?? (n.status === 'running' ? 'Running…' : '(no output)'));
    output.classList.toggle('is-error', n.status === 'error');
    extra.replaceChildren();
    if (n.permissionReason) extra.append(el('div', 'detail-note', `${n.permission === 'denied' ? 'Denied' : 'Approval'}: ${n.permissionReason}`));
    if (n.fullOutputPath) {
      const line = el('div', 'detail-note', 'Output was cut. Full output: ');
      line.append(pathLink(n.fullOutputPath, n.fullOutputPath, this.actions));
      extra.append(line);
    }
    setHidden(extra, extra.childElementCount === 0);
  }
}

/** A labelled text row ("Prompt", "Result", "Error") whose detail is the full text. */
export class TextRow {
  readonly item: VscodeTreeItem;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly line: HTMLSpanElement;
  private body: HTMLDivElement | null = null;
  private pre: HTMLPreElement | null = null;
  private markdown: MarkdownView | null = null;
  private text = '';
  private asMarkdown = false;

  constructor(readonly id: string, className: string) {
    this.item = treeItem(id, `text-row ${className}`);
    this.icon = codicon('comment', 'row-icon');
    this.title = el('span', 'text-row-title');
    this.line = slotted(el('span', 'text-row-line'), 'description');
    this.item.append(this.icon, this.title, this.line);
  }

  /** `markdown`: the detail renders the text as markdown (a subagent's result), else as plain text. */
  set(icon: string, tone: string, title: string, text: string, markdown = false): void {
    this.text = text;
    this.asMarkdown = markdown;
    setCodicon(this.icon, icon, `row-icon ${tone}`);
    setText(this.title, title);
    const line = text.trim().split('\n', 1)[0] ?? '';
    // The one-line summary of markdown leaves out a heading's, quote's or list item's marker, and emphasis marks.
    const first = markdown ? line.replace(/^(?:#{1,6}|>|[-*+]|\d+[.)])\s+/, '').replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2') : line;
    setText(this.line, first);
    this.line.title = first;
    this.fill();
  }

  materialize(): void {
    if (this.body) return;
    const { item, body } = detailItem(this.id);
    this.body = body;
    this.fill();
    this.item.append(item);
  }

  private fill(): void {
    if (!this.body) return;
    let content: HTMLElement;
    if (this.asMarkdown) {
      content = (this.markdown ??= new MarkdownView('detail-markdown')).element;
      this.markdown.render(this.text);
    } else {
      content = this.pre ??= el('pre', 'detail-pre');
      setText(this.pre, this.text);
    }
    if (this.body.firstChild !== content) this.body.replaceChildren(content);
  }
}
