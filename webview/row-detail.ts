/**
 * The detail row under an open row of the flat tree: a tool call's change, input and output; the full text
 * of a Prompt / Result / Error / Thinking row (a result and thinking as markdown). Built when the row comes
 * into view, filled again when its node changes.
 *
 * A snapshot of a large session leaves a call's input and output out (src/view-model/slim-snapshot.ts): the
 * detail then asks the host for them (`needDetail`) and shows "Loading…" until they are merged in.
 */
import { formatDuration } from '../src/view-model/format';
import { outcomeText, type FlatRow } from '../src/view-model/flat-rows';
import type { SessionViewState, TaskNode, ThinkingNode, ToolCallNode } from '../src/view-model/session-view';
import { el, setHidden, setText } from './dom';
import { MarkdownView } from './markdown';
import { stoppedByUser } from './task-outcome';
import { fillChange } from './tool-change';
import { pathLink, treeRow, type RowActions } from './tree-rows';

export interface DetailActions extends RowActions {
  /** *Open in editor* on a task row. */
  openRecord(agentId: string, description: string): void;
  /** *Send a message…* on a finished task row. */
  messageAgent(agentId: string): void;
  /** The node's input/output were left out of the snapshot: ask the host for them. */
  needDetail(nodeId: string): void;
}

function section(title: string, body: HTMLElement): HTMLElement {
  const wrap = el('div', 'detail-section');
  wrap.append(el('div', 'detail-heading', title), body);
  return wrap;
}

/** The full text a Prompt / Result / Thinking row opens onto, and whether it is markdown. */
function rowText(state: SessionViewState, owner: FlatRow): { text: string; markdown: boolean } {
  const node = state.nodes[owner.nodeId];
  if (node?.kind === 'thinking') return { text: (node as ThinkingNode).text, markdown: true };
  if (node?.kind !== 'task') return { text: '', markdown: false };
  const task = node as TaskNode;
  if (owner.kind === 'prompt') return { text: task.prompt || task.description, markdown: false };
  if (owner.kind === 'message') return { text: task.lastMessage ?? '', markdown: false };
  // A stop is not a failure: what the subagent had reported stays readable under "Stopped".
  if (task.status === 'cancelled') return { text: [stoppedByUser(task.error) ? undefined : task.error, task.result].filter(Boolean).join('\n\n'), markdown: true };
  if (task.error !== undefined) return { text: task.error, markdown: false };
  return { text: outcomeText(task), markdown: true };
}

export class DetailRow {
  readonly item: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private tool: { output: HTMLPreElement; outputHeading: HTMLElement; extra: HTMLDivElement; input: HTMLPreElement; change: HTMLElement } | null = null;
  private markdown: MarkdownView | null = null;
  private pre: HTMLPreElement | null = null;
  private asked = false;

  constructor(private readonly owner: FlatRow, private readonly actions: DetailActions) {
    this.item = treeRow(`detail:${owner.key}`, 'detail-item');
    this.item.dataset.detailOf = owner.key;
    this.body = el('div', 'detail-body');
    // Selecting or clicking in the detail does not fold its row.
    this.body.addEventListener('click', (ev) => ev.stopPropagation());
    this.item.append(this.body);
  }

  update(state: SessionViewState): void {
    const node = state.nodes[this.owner.nodeId];
    if (this.owner.kind === 'tool' && node?.kind === 'tool') this.fillTool(node);
    else this.fillText(rowText(state, this.owner));
  }

  private fillText({ text, markdown }: { text: string; markdown: boolean }): void {
    let content: HTMLElement;
    if (markdown) {
      content = (this.markdown ??= new MarkdownView('detail-markdown')).element;
      this.markdown.render(text);
    } else {
      content = this.pre ??= el('pre', 'detail-pre');
      setText(this.pre, text);
    }
    if (this.body.firstChild !== content) this.body.replaceChildren(content);
  }

  private fillTool(n: ToolCallNode): void {
    if (n.detailOmitted && !this.asked) {
      this.asked = true;
      this.actions.needDetail(n.id);
    }
    if (!this.tool) {
      const input = el('pre', 'detail-pre');
      const output = el('pre', 'detail-pre detail-output');
      const outputSection = section('Output', output);
      const extra = el('div', 'detail-extra');
      const change = el('div', 'detail-section detail-change');
      this.body.append(extra, change, section('Input', input), outputSection);
      this.tool = { output, outputHeading: outputSection.firstElementChild as HTMLElement, extra, input, change };
    }
    const { output, outputHeading, extra, input, change } = this.tool;
    const loading = n.detailOmitted === true;
    setText(input, loading ? 'Loading…' : n.inputJson);
    // A change shows as its hunks; the raw input JSON is then one click away instead of first.
    fillChange(change, input, n, () => this.actions.openDiff(n.agentId, n.toolUseId), (path) => this.actions.openFile(path));
    setText(outputHeading, n.durationMs === undefined ? 'Output' : `Output · ${formatDuration(n.durationMs)}`);
    setText(output, loading ? 'Loading…' : n.output ?? (n.status === 'running' ? 'Running…' : n.status === 'pending' ? 'Not running yet…' : '(no output)'));
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
