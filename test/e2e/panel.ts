/**
 * The Delegate panel inside the real editor, read and clicked through its DOM (webview/*.ts): a flat,
 * virtualized tree whose rows are siblings in `.conversation` — task rows (`.tree-row.task-row`,
 * `data-status`, `aria-expanded`), the rows under a task (`data-parent` = the task row's `data-id`: tool
 * rows with `.tool-name`, `data-status`, `data-permission`; its outcome row), the composer's Stop button.
 * The webview sits two iframes deep (editorModule().webviewFrame).
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { TaskStatus } from '../../src/view-model/session-view';
import { editorModule } from './editor';

export const STEP_TIMEOUT = 30_000;

export class Panel {
  private constructor(readonly frame: FrameLocator) {}

  static async of(page: Page): Promise<Panel> {
    const mod = await editorModule();
    return new Panel(mod.webviewFrame(page));
  }

  /** The task row whose title is exactly `description`. */
  task(description: string): Locator {
    const task = this.frame.locator(`xpath=${taskXPath(description)}`);
    this.titles.set(task, description);
    return task;
  }

  private readonly titles = new WeakMap<Locator, string>();

  /** The rows of class `kind` directly under a task row got from task(). */
  private under(task: Locator, kind: string): Locator {
    const title = this.titles.get(task);
    if (title === undefined) throw new Error('Panel: pass a task row got from panel.task()');
    return this.frame.locator(`xpath=${ROWS}[${hasClass(kind)} and @data-parent = ${taskXPath(title)}/@data-id]`);
  }

  allTasks(): Locator {
    return this.frame.locator('.conversation > .tree-row.task-row');
  }

  /** Every task row in the DOM, in order: its title and status (a quick, readable picture of the whole tree). */
  async taskSummaries(): Promise<{ description: string; status: string | null }[]> {
    return this.allTasks().evaluateAll((rows) =>
      rows
        .sort((a, b) => Number(a.getAttribute('data-index')) - Number(b.getAttribute('data-index')))
        .map((row) => ({ description: row.querySelector(':scope > .task-text .task-title')?.textContent ?? '', status: row.getAttribute('data-status') })),
    );
  }

  /** The tool rows directly under a task row (its subagent's calls), in order. */
  toolRows(task: Locator): Locator {
    return this.under(task, 'tool-row');
  }

  /** The names of a task's tool calls, in order. */
  async toolNames(task: Locator): Promise<string[]> {
    const names = await this.toolRows(task).evaluateAll((rows) =>
      rows.map((row) => [Number(row.getAttribute('data-index')), row.querySelector('.tool-name')?.textContent ?? ''] as const),
    );
    return names.sort((a, b) => a[0] - b[0]).map(([, name]) => name);
  }

  /** A task's "Result" / "Error" row. */
  outcome(task: Locator): Locator {
    return this.under(task, 'outcome-row');
  }

  /** A task's "Changes" row. */
  changesRow(task: Locator): Locator {
    return this.under(task, 'changes-row');
  }

  async waitForStatus(task: Locator, status: TaskStatus, timeout = STEP_TIMEOUT): Promise<void> {
    await task.and(this.frame.locator(`[data-status="${status}"]`)).waitFor({ state: 'attached', timeout });
  }

  async isOpen(task: Locator): Promise<boolean> {
    return (await task.getAttribute('aria-expanded')) === 'true';
  }

  /** Clicks the row's title (as a user would) until it is open (`true`) or closed (`false`). */
  async setOpen(task: Locator, open: boolean): Promise<void> {
    if ((await this.isOpen(task)) === open) return;
    await task.locator(':scope > .task-text .task-title').click();
    await task.and(this.frame.locator(`[aria-expanded="${open}"]`)).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
  }

  /** Assistant text in the conversation (the main agent's replies). */
  assistantText(text: string): Locator {
    return this.frame.locator('.msg-assistant', { hasText: text });
  }

  stopButton(): Locator {
    return this.frame.locator('vscode-button.stop-button');
  }

  /** Nothing running: the Stop button is disabled (a vscode-button: the attribute, not a native `disabled`). */
  async isIdle(): Promise<boolean> {
    return (await this.stopButton().getAttribute('disabled')) !== null;
  }

  /** Waits until the panel shows nothing running (Stop disabled). */
  async waitUntilIdle(timeout = STEP_TIMEOUT): Promise<void> {
    await this.frame.locator('vscode-button.stop-button[disabled]').waitFor({ state: 'attached', timeout });
  }

  emptyHint(): Locator {
    return this.frame.locator('.empty-hint');
  }
}

/** The rows of the conversation (the pinned header's copy of a task row is not one of them). */
const ROWS = '//div[contains(concat(" ", @class, " "), " conversation ")]/div';
const hasClass = (name: string): string => `contains(concat(" ", @class, " "), " ${name} ")`;
/** An XPath string literal of any text. */
const literal = (text: string): string => (text.includes('"') ? `concat("${text.split('"').join('", \'"\', "')}")` : `"${text}"`);
const taskXPath = (title: string): string => `${ROWS}[${hasClass('task-row')} and ./div[${hasClass('task-text')}]//span[${hasClass('task-title')} and normalize-space(.) = ${literal(title)}]]`;
