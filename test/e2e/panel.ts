/**
 * The Delegate panel inside the real editor, read and clicked through its DOM (webview/*.ts):
 * task rows (`vscode-tree-item.task-row`, `data-status`, `open`), their child tool rows
 * (`vscode-tree-item.tool-row` with `.tool-name`, `data-status`, `data-permission`), the composer's
 * Stop button. The webview sits two iframes deep (editorModule().webviewFrame).
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
    return this.frame
      .locator('vscode-tree-item.task-row > .task-text .task-title')
      .filter({ hasText: new RegExp(`^${escapeRegExp(description)}$`) })
      .locator('xpath=ancestor::vscode-tree-item[1]');
  }

  allTasks(): Locator {
    return this.frame.locator('vscode-tree-item.task-row');
  }

  /** Every task row, in order: its title and status (a quick, readable picture of the whole tree). */
  async taskSummaries(): Promise<{ description: string; status: string | null }[]> {
    return this.allTasks().evaluateAll((rows) =>
      rows.map((row) => ({ description: row.querySelector(':scope > .task-text .task-title')?.textContent ?? '', status: row.getAttribute('data-status') })),
    );
  }

  /** The tool rows directly under a task row (its subagent's calls), in order. */
  toolRows(task: Locator): Locator {
    return task.locator('xpath=./vscode-tree-item[contains(concat(" ", @class, " "), " tool-row ")]');
  }

  /** The names of a task's tool calls, in order. */
  async toolNames(task: Locator): Promise<string[]> {
    return this.toolRows(task).locator('.tool-name').allTextContents();
  }

  /** A task's "Result" / "Error" row. */
  outcome(task: Locator): Locator {
    return task.locator('xpath=./vscode-tree-item[contains(concat(" ", @class, " "), " outcome-row ")]');
  }

  async waitForStatus(task: Locator, status: TaskStatus, timeout = STEP_TIMEOUT): Promise<void> {
    await task.and(this.frame.locator(`[data-status="${status}"]`)).waitFor({ state: 'attached', timeout });
  }

  async isOpen(task: Locator): Promise<boolean> {
    return (await task.getAttribute('open')) !== null;
  }

  /** Clicks the row's title (as a user would) until it is open (`true`) or closed (`false`). */
  async setOpen(task: Locator, open: boolean): Promise<void> {
    if ((await this.isOpen(task)) === open) return;
    await task.locator(':scope > .task-text .task-title').click();
    await task.and(this.frame.locator(open ? '[open]' : ':not([open])')).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
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

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
